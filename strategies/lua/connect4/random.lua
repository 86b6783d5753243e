-- random.lua: a uniformly random open Connect Four column.
--
-- What it does: picks one of obs.legal with math.random. The host seeds math.random from the game's
-- seed, so a game replays exactly.
-- How strong: the baseline. It never sees a win or a threat; center.lua beats it in nearly every
-- game.
-- Cost: negligible (one call into math.random per move).

local M = {}

function M.choose_move(obs: Connect4Observation): number
	local legal = obs.legal
	return legal[math.random(#legal)]
end

return M
