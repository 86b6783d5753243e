-- Hostile: `%b()` on a million unclosed `(`: at each of a million start places Luau's matcher scans to
-- the end of the subject inside one step of its recursion, half a trillion character reads for a
-- handful of interrupt ticks. The host's matcher counts every character it reads: fault `budget`.
local M = {}

function M.choose_move(obs)
	string.find(string.rep("(", 1000000), "%b()")
	return obs.legal[1]
end

return M
