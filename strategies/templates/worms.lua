-- A Wormworld bot for botbox. Check it: botbox check worms bot.lua
-- obs: you, board (rows of text), hole, worms (id, owner, cells, direction), legal (each {worm, turn}).
-- Answer one of obs.legal: {worm = id, turn = "left" | "forward" | "right"}.
local M = {}

function M.choose_move(obs)
	-- Steer the worm whose head is nearest the hole.
	local best, best_d = obs.legal[1], math.huge
	for _, m in ipairs(obs.legal) do
		for _, w in ipairs(obs.worms) do
			if w.id == m.worm then
				local head = w.cells[1]
				local d = math.abs(head[1] - obs.hole[1]) + math.abs(head[2] - obs.hole[2])
				if d < best_d then
					best, best_d = m, d
				end
			end
		end
	end
	return best
end

return M
