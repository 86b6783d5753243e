-- Hostile: answers with a 12 MB string instead of a move: fault `bad-output`, its description cut to
-- 4 KiB.
local M = {}

function M.choose_move(obs)
	return string.rep("left", 3 * 1024 * 1024)
end

return M
