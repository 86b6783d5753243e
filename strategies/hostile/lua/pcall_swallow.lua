-- Hostile: wraps an endless loop in pcall and retries forever, so a one-shot "out of budget" error would be swallowed. The host's over-budget state must be sticky: fault `budget`.
local M = {}

function M.choose_move(obs)
	while true do
		pcall(function()
			while true do
			end
		end)
	end
end

return M
