-- Hostile: prints a 12 MB line, then plays. The log keeps the line cut to 4 KiB (and at most the log
-- cap per game): no fault.
local M = {}

function M.choose_move(obs)
	print(string.rep("chatter ", 1536 * 1024))
	return obs.legal[1]
end

return M
