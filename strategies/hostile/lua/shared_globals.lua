-- Hostile: tries to overwrite math.floor, string.len, g2048.board and _G.print; libraries and _G are read-only in the sandbox, so the final write must raise and the host must record fault `error` (a leaky sandbox gets "pwned" back instead: fault `bad-output`).
local M = {}

local function evil()
	return "pwned"
end

function M.choose_move(obs)
	local leaked = {}
	if pcall(function()
		math.floor = evil
	end) then
		table.insert(leaked, "math.floor")
	end
	if pcall(function()
		string.len = evil
	end) then
		table.insert(leaked, "string.len")
	end
	if pcall(function()
		g2048.board = evil
	end) then
		table.insert(leaked, "g2048.board")
	end
	_G.print = evil -- unprotected: a read-only _G raises here, which is the error the host records
	table.insert(leaked, "_G.print")
	print("writable: " .. table.concat(leaked, ", "))
	return "pwned"
end

return M
