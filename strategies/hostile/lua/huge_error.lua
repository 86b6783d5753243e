-- Hostile: raises a 12 MB error message at its first decision. The host keeps the fault, but cut to
-- 4 KiB with the original length noted: reports and replays stay small.
local M = {}

function M.choose_move(obs)
	error(string.rep("too long ", 12 * 1024 * 1024 // 9), 0)
end

return M
