-- Hostile: asks for a 1 GiB string with string.rep("x", 2^30) in choose_move; the allocation must fail against the memory cap: fault `memory`.
local M = {}

function M.choose_move(obs)
	local huge = string.rep("x", 2 ^ 30)
	return obs.legal[1] .. string.sub(huge, 1, 0)
end

return M
