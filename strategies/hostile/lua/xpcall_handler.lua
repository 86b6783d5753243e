-- Hostile: raises errors under xpcall whose message handler loops forever, over and over. The host must stop it and record fault `budget`.
local M = {}

function M.choose_move(obs)
	while true do
		xpcall(function()
			error("x")
		end, function(_message)
			while true do
			end
		end)
	end
end

return M
