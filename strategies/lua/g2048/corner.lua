-- corner.lua: the classic "keep the big tile in the bottom-left corner" rule of thumb.
--
-- What it does: plays the first legal move in the preference order down, left, right, up. Pushing down
-- and left as long as possible piles the large tiles into the bottom-left corner; right is the fallback
-- that keeps the bottom row full, and up is played only when nothing else is legal.
-- How strong: better than random at no cost, but without look-ahead it is usually a little weaker
-- than greedy: largest tile typically 128 or 256, sometimes 512; mean score around 2,500. A forced
-- "up" pulls the big tile out of the corner, and the rule has no way to repair that.
-- Cost: constant, no search.

local PREFERENCE: { Direction } = { "down", "left", "right", "up" }

local M = {}

function M.choose_move(obs: Observation2048): Direction
	local legal = obs.legal
	for _, want in ipairs(PREFERENCE) do
		for _, dir in ipairs(legal) do
			if dir == want then
				return want
			end
		end
	end
	-- obs.legal is never empty; this only guards against a host that sends an unexpected name.
	return legal[1]
end

return M
