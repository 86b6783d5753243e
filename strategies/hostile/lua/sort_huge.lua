-- Hostile: sorts a million numbers again and again without a comparator: each `table.sort` is one
-- C call of about 20 million comparisons. Charged n log n to the budget: fault `budget`.
local M = {}

function M.choose_move(obs)
	local t = table.create(1000000, 0)
	for i = 1, #t do
		t[i] = (i * 7919) % 1000003
	end
	while true do
		table.sort(t)
		table.sort(t, nil)
	end
end

return M
