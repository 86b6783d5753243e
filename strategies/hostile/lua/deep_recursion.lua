-- Hostile: unbounded non-tail recursion in choose_move; Luau raises "stack overflow", which the host must record as fault `error` (not a crash of the host).
local M = {}

local function f(n)
	return f(n + 1) + 1
end

function M.choose_move(obs)
	f(1)
	return obs.legal[1]
end

return M
