-- Hostile: copies 16 MiB per loop iteration (`string.rep` of a 16 KiB string, 1024 times): one tick
-- of the interrupt per 16 MiB of C work. The host charges the bytes made to the budget: fault
-- `budget`, not `timeout`.
local M = {}

function M.choose_move(obs)
	local chunk = string.rep("x", 16384)
	while true do
		local _ = chunk:rep(1024)
	end
end

return M
