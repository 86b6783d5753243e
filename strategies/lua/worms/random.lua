-- random.lua: a uniformly random legal Wormworld move.
--
-- What it does: picks one of obs.legal with math.random. The host seeds math.random from the game's
-- seed, so a game replays exactly.
-- How strong: the baseline. Its worms wander, so it rarely gets more than a few of them home; the
-- greedy strategy beats it in nearly every game.
-- Cost: negligible (one call into math.random per move).

local M = {}

function M.choose_move(obs: WormsObservation): WormsMove
	local legal = obs.legal
	return legal[math.random(#legal)]
end

return M
