-- identity.lua: a bot whose every choice depends on what Luau derives from object identity, for
-- any game: 2048 (`choose_move`), Wormworld (`choose_move`) and BS (`play`, `call`).
--
-- What it does: makes a set of its legal options keyed by tables, functions (fresh closures and
-- library functions made before the game), coroutines, buffers and, in 2048, boards (host userdata);
-- mixes in the text `tostring` gives for each key, and keeps a few of those objects alive from move
-- to move among much garbage, so the collector runs between and during moves. It plays the option
-- the first key of `pairs` points at, shifted by a checksum of the names. Every run of the same game
-- must play the same moves (tests/suite/determinism.rs); if anything still followed an address, runs would
-- differ.
-- Not a strong bot.

local M = {}

local kept = {} -- survives from move to move within a game
local moves = 0
local builtins = { math.floor, string.format, table.insert, print, math, string }

local function checksum(s)
	local h = 0
	for i = 1, #s do
		h = (h * 31 + string.byte(s, i)) % 1000003
	end
	return h
end

-- The index (1-based) of the option to play among `n`.
local function pick(n, extra)
	moves += 1
	-- Garbage: tens of thousands of small tables a move, a few of them kept.
	for i = 1, 3000 do
		local t = { i, tostring(i) }
		if i % 1000 == 0 then
			kept[#kept + 1] = t
		end
	end
	if #kept > 60 then
		table.remove(kept, 1)
	end
	local set = {}
	local keys = {}
	for i = 1, n do
		local kind = (i + moves) % 5
		local key
		if kind == 0 then
			key = { i }
		elseif kind == 1 then
			key = function()
				return i
			end
		elseif kind == 2 then
			key = coroutine.create(function() end)
		elseif kind == 3 then
			key = buffer.create(i)
		else
			key = builtins[(i + moves) % #builtins + 1]
		end
		if extra then
			key = extra(i) or key
		end
		set[key] = i
		keys[#keys + 1] = key
	end
	-- Older objects as keys too: their identities come from earlier moves.
	for j = 1, #kept, 7 do
		set[kept[j]] = (j % n) + 1
	end
	local first = next(set)
	local names = {}
	for _, k in ipairs(keys) do
		names[#names + 1] = tostring(k)
	end
	local sum = checksum(table.concat(names, ",")) + checksum(tostring(first)) + checksum(tostring({}))
	if moves % 50 == 1 then
		print("move", moves, tostring(first), tostring({}), string.format("%*", keys[1]))
	end
	return (set[first] + sum) % n + 1
end

function M.choose_move(obs)
	local legal = obs.legal
	local extra = nil
	if obs.board and type(obs.board[1]) == "table" and g2048 then
		-- 2048: boards (host userdata) as keys too.
		local board = g2048.board(obs.board)
		extra = function(i)
			if i % 3 == 0 then
				return board:move(legal[i]) or board
			end
			return nil
		end
	end
	return legal[pick(#legal, extra)]
end

function M.play(obs)
	local hand = obs.hand
	local wanted = {}
	for _, id in ipairs(hand) do
		if id // 4 == obs.rank then
			wanted[#wanted + 1] = id
		end
	end
	local i = pick(#hand)
	if #wanted > 0 and i % 2 == 0 then
		return wanted
	end
	return { hand[i] }
end

function M.call(obs)
	return pick(4) == 1
end

return M
