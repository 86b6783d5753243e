-- greedy.lua: one-ply greedy search with the host's `g2048` module.
--
-- What it does: tries every legal move on a copy of the board (`g2048.board(obs.board)`, `b:move(dir)`)
-- and plays the one with the largest immediate score gain. Ties are broken by the number of empty cells
-- after the move (more is better), then by the order of obs.legal (left, right, up, down).
-- How strong: clearly better than random but short-sighted: largest tile typically 128 or 256,
-- sometimes 512, rarely 1024; mean score around 3,500. It does not keep big tiles together.
-- Cost: at most four moves and four empty counts per decision: well under a millisecond.

local M = {}

function M.choose_move(obs: Observation2048): Direction
	local legal = obs.legal
	local board = g2048.board(obs.board)
	local best = legal[1]
	local bestGain = -1
	local bestEmpty = -1
	for _, dir in ipairs(legal) do
		local after, gained = board:move(dir)
		if after then
			local gain = gained or 0
			local empty = after:empty_count()
			if gain > bestGain or (gain == bestGain and empty > bestEmpty) then
				best, bestGain, bestEmpty = dir, gain, empty
			end
		end
	end
	return best
end

return M
