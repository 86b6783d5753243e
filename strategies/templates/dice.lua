-- A dice bot (Mensch ärgere Dich nicht, free variant) for botbox. Check it: botbox check dice bot.lua
-- You are asked only when the roll leaves a choice. obs: face, steps, die, opponent_die, mine,
-- theirs, theirs_on_my_track, legal (each {from, to, captures}). Answer {from = ..., to = ...}.
local M = {}

function M.choose_move(obs)
	-- Capture when you can, else move the piece furthest ahead.
	for _, m in ipairs(obs.legal) do
		if m.captures then
			return { from = m.from, to = m.to }
		end
	end
	local best = obs.legal[1]
	for _, m in ipairs(obs.legal) do
		if m.from > best.from then
			best = m
		end
	end
	return { from = best.from, to = best.to }
end

return M
