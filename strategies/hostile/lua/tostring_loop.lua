-- Hostile: raises an error whose value is a table with a __tostring metamethod that loops forever; the host must describe error values without running metamethods: fault `error` (or `budget`), never a hang.
local M = {}

function M.choose_move(obs)
	local value = setmetatable({}, {
		__tostring = function()
			while true do
			end
		end,
	})
	error(value)
end

return M
