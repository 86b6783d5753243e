-- A Wormworld bot for botbox. Check it: botbox check worms bot.lua
-- obs: you, board (rows of text), hole, worms (id, owner, cells, direction), legal (each {worm, turn}).
-- Answer one of obs.legal: {worm = id, turn = "left" | "forward" | "right"}.
local M = {}

-- Where a head moves: each direction's step, and which way each turn faces afterwards.
local STEP = { up = { -1, 0 }, right = { 0, 1 }, down = { 1, 0 }, left = { 0, -1 } }
local TURNED = {
	up = { left = "left", forward = "up", right = "right" },
	right = { left = "up", forward = "right", right = "down" },
	down = { left = "right", forward = "down", right = "left" },
	left = { left = "down", forward = "left", right = "up" },
}

function M.choose_move(obs)
	-- The move whose worm's new head lands nearest the hole (straight-line steps, walls ignored).
	local best, best_d = obs.legal[1], math.huge
	for _, m in ipairs(obs.legal) do
		for _, w in ipairs(obs.worms) do
			if w.id == m.worm then
				local step = STEP[TURNED[w.direction][m.turn]]
				local row, col = w.cells[1][1] + step[1], w.cells[1][2] + step[2]
				local d = math.abs(row - obs.hole[1]) + math.abs(col - obs.hole[2])
				if d < best_d then
					best, best_d = m, d
				end
			end
		end
	end
	return best
end

return M
