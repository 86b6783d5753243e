-- Hostile: loops forever at the top level, while the file is being loaded (before choose_move exists). The host must stop the load and record fault `budget`.
local M = {}

function M.choose_move(obs)
	return obs.legal[1]
end

while true do
end

return M
