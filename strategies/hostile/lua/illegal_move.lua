-- Hostile: returns a direction that is NOT in obs.legal whenever one exists (the first of left, right, up, down that is missing), else "sideways"; the first game fault must be `illegal` (or `bad-output` for "sideways").
local M = {}

local ORDER = { "left", "right", "up", "down" }

function M.choose_move(obs)
	local legal = {}
	for _, dir in ipairs(obs.legal) do
		legal[dir] = true
	end
	for _, dir in ipairs(ORDER) do
		if not legal[dir] then
			return dir
		end
	end
	return "sideways"
end

return M
