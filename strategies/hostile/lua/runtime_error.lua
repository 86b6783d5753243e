-- Hostile: indexes nil on line 5; the host must record fault `error` whose message names this file and line 5 (".../runtime_error.lua:5: attempt to index nil with 'board'").
local M = {}
function M.choose_move(obs)
	local missing = nil
	return missing.board
end
return M
