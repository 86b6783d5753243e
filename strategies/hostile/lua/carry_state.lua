-- Hostile: tries to carry a value from one game into the next. It plays every game legally (2048,
-- Wormworld, free dice, BS), but in `init` and at its first decision it walks everything it can reach
-- (its environment's globals, every library and host module, their keys and values, the metatables of
-- strings, numbers, booleans, functions, threads, buffers, host userdata and of everything found) and
-- writes a mark tagged with this game's seed and seat into every slot that takes one: a field of each
-- table and userdata, and a metatable on each table that has none. Before writing, it looks for marks
-- with another tag: finding one means a value crossed from an earlier game, and it raises
-- "carried from an earlier game: <where>", so the host records fault `error`. A sandbox that holds
-- lets it play every game to its end without a fault.
local M = {}

local MARK = "botbox_carry_mark"
local tag = nil
local found = {}
local writable = {}

local function remember(where, value)
	if value ~= nil and value ~= tag then
		found[#found + 1] = where
	end
end

local function walk(root, root_name)
	local seen = {}
	local queue = { { root, root_name } }
	local head = 1
	local function push(v, where)
		local t = type(v)
		if t == "table" or t == "userdata" or t == "function" or t == "thread" or t == "buffer" then
			if not seen[v] then
				seen[v] = true
				queue[#queue + 1] = { v, where }
			end
		end
	end
	seen[root] = true
	while head <= #queue do
		local v, where = queue[head][1], queue[head][2]
		head += 1
		local kind = type(v)
		local meta = getmetatable(v)
		if meta ~= nil then
			push(meta, where .. "<meta>")
		end
		if kind == "table" then
			remember(where, rawget(v, MARK))
			if pcall(rawset, v, MARK, tag) then
				writable[#writable + 1] = where
			end
			if meta == nil and pcall(setmetatable, v, { [MARK] = tag }) then
				writable[#writable + 1] = where .. "<meta>"
			end
			for key, value in next, v do
				push(key, where .. "[key]")
				push(value, where .. "." .. tostring(key))
			end
		elseif kind == "userdata" then
			local ok, value = pcall(function()
				return v[MARK]
			end)
			if ok then
				remember(where, value)
			end
			if pcall(function()
				v[MARK] = tag
			end) then
				writable[#writable + 1] = where
			end
		end
	end
end

local function walk_everything(obs)
	walk(_G, "_G")
	-- Values whose metatables are shared by every game on a state, and the host's own values.
	for name, value in
		{
			["string"] = "",
			["number"] = 1,
			["boolean"] = true,
			["function"] = print,
			["thread"] = coroutine.create(print),
			["buffer"] = buffer.create(1),
		}
	do
		walk({ value, getmetatable(value) }, "<" .. name .. ">")
	end
	if g2048 then
		walk({ g2048.board({ { 2, 0, 0, 0 }, { 0, 0, 0, 0 }, { 0, 0, 0, 0 }, { 0, 0, 0, 4 } }) }, "<board>")
	end
	if obs then
		walk(obs, "obs")
	end
	if #found > 0 then
		error("carried from an earlier game: " .. table.concat(found, ", "), 0)
	end
end

local first = true
local function decide(obs)
	if first then
		first = false
		walk_everything(obs)
		print("writable: " .. table.concat(writable, " "))
	end
end

function M.init(setup)
	tag = tostring(setup.game) .. ":" .. tostring(setup.seed) .. ":" .. tostring(setup.seat)
	walk_everything(nil)
	-- Only tables made for this game should be here (the probes' own tables).
	print("writable: " .. table.concat(writable, " "))
end

function M.choose_move(obs)
	decide(obs)
	return obs.legal[1]
end

function M.play(obs)
	decide(obs)
	return { obs.hand[1] }
end

function M.call(obs)
	decide(obs)
	return false
end

return M
