-- Hostile: installs a __gc finalizer that loops forever, churns garbage so a collection runs, then loops; Luau ignores __gc on tables, so the host must end it with fault `budget` (never a hang in a finalizer).
local M = {}

function M.choose_move(obs)
	for _ = 1, 1000 do
		setmetatable({}, {
			__gc = function()
				while true do
				end
			end,
		})
	end
	-- churn: plenty of short-lived garbage so that the collector runs (and would call finalizers)
	for i = 1, 20000 do
		local junk = { i, tostring(i), { i } }
		junk = nil
	end
	while true do
	end
end

return M
