-- Hostile: one library call over a huge range: `table.move` of 2^31 - 1001 (empty) slots, which runs
-- in C without reaching an interrupt (over 10 s before library calls were charged). The host charges
-- the elements moved to the budget before the call runs: fault `budget`.
local M = {}

function M.choose_move(obs)
	table.move({}, 1, 2147483000, 2)
	return obs.legal[1]
end

return M
