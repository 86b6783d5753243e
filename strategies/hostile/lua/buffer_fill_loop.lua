-- Hostile: fills and copies a 16 MiB buffer in a loop: 32 MiB of C work per interrupt tick. Charged to
-- the budget for its size: fault `budget`.
local M = {}

function M.choose_move(obs)
	local b = buffer.create(16 * 1024 * 1024)
	while true do
		buffer.fill(b, 0, 7)
		buffer.copy(b, 0, b)
	end
end

return M
