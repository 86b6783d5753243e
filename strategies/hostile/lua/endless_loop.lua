-- Hostile: loops forever inside choose_move. The host must stop it and record fault `budget`.
local M = {}

function M.choose_move(obs)
	while true do
	end
end

return M
