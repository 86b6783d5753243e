-- Hostile: calls table.sort on a large table with a comparator that loops forever (the loop runs inside a C library call). The host must stop it and record fault `budget`.
local M = {}

function M.choose_move(obs)
	local values = table.create(100000, 0)
	for i = 1, #values do
		values[i] = (i * 7919) % 100003
	end
	table.sort(values, function(a, b)
		while true do
		end
		return a < b
	end)
	return obs.legal[1]
end

return M
