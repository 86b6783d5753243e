-- capture_first.lua: Mensch ärgere Dich nicht, free variant: capture whenever possible.
--
-- What it does: if some legal move lands on an opponent's piece (`captures` in obs.legal), it plays
-- the capture that sends back the opponent piece furthest along: the largest step in the opponent's
-- own counting, which is (to + 20) % 40 for a capture landing on my step `to`. Otherwise it plays the
-- frontmost legal move (obs.legal[1]), as the strict rule would.
-- How strong: a capture costs the opponent all the progress of that piece and a 6 to bring it back,
-- so this beats frontmost with the same die; it never looks at its own pieces' safety.
-- Cost: one pass over at most four legal moves.

local M = {}

function M.choose_move(obs: DiceObservation): DiceMove
	local legal = obs.legal
	local best, bestVictim = nil, -1
	for _, mv in ipairs(legal) do
		if mv.captures then
			-- The captured piece's step in the opponent's own counting (0..39).
			local victim = (mv.to + 20) % 40
			if victim > bestVictim then
				best, bestVictim = mv, victim
			end
		end
	end
	return best or legal[1]
end

return M
