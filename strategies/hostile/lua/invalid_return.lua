-- Hostile: returns the number 42 instead of a direction; the host must check the Lua type (not convert it to "42") and record fault `bad-output`.
local M = {}

function M.choose_move(obs)
	return 42
end

return M
