-- random.lua: Mensch ärgere Dich nicht, free variant: a uniformly random legal move.
--
-- What it does: picks one of obs.legal with math.random. The host seeds math.random from the game's
-- seed, so a game replays exactly.
-- How strong: the baseline; frontmost wins about two games in three against it with 1..6 (66% of
-- 2000 games). Against itself it is the check of
-- `--sprt`'s error rate (examples/sprt_dice.rs): unlike a deterministic bot, two copies of it do not
-- play each pair of games (the same rolls, the sides swapped) as mirror images of each other.
-- Cost: negligible (one call into math.random per choice).

local M = {}

function M.choose_move(obs: DiceObservation): DiceMove
	local legal = obs.legal
	return legal[math.random(#legal)]
end

return M
