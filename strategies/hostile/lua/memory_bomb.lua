-- Hostile: grows a table of distinct 1 KiB strings forever inside choose_move. The host must stop it at the memory cap and record fault `memory`.
local M = {}

function M.choose_move(obs)
	local hoard = {}
	local i = 0
	while true do
		i += 1
		hoard[i] = string.rep("x", 1024) .. tostring(i)
	end
end

return M
