-- random.lua: a uniformly random legal move.
--
-- What it does: picks one of obs.legal with math.random. The host seeds math.random from the game's
-- seed, so a game replays exactly.
-- How strong: the baseline every other strategy must beat. It usually ends with a largest tile of
-- 64 or 128 (rarely 256) and a mean score around 1,000; it essentially never reaches 2048.
-- Cost: negligible (one call into math.random per move).

local M = {}

function M.choose_move(obs: Observation2048): Direction
	local legal = obs.legal
	return legal[math.random(#legal)]
end

return M
