-- Hostile: a pattern that backtracks exponentially (30 lazy `a-` items that can never end in `b`) on a
-- 5,000-byte subject: one `string.find` whose work has no end in sight. Luau's matcher reaches the
-- interrupt at every step of its recursion, so the budget counts it: fault `budget`.
local M = {}

function M.choose_move(obs)
	local subject = string.rep("a", 5000)
	string.find(subject, string.rep("a-", 30) .. "b")
	return obs.legal[1]
end

return M
