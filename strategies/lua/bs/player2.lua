-- player2.lua: the contest's reference bot Player2 (docs/bs.md, "The contest's reference bots").
--
-- What it does: plays like Player1 (every card of the required rank in hand order; with none, its
-- oldest card, hand[1]) and calls "BS" at random with probability 0.2, whatever was claimed.
-- math.random is seeded per game by the host, so a game replays exactly.
-- How strong: weak (8.3% in the contest's pool): its random calls are wrong most of the time, and
-- every wrong call hands it the pile.
-- Measured: 5.4% in the seven-bot pool of this directory (botbox tournament bs, 10,000 games).
-- Cost: one pass over the hand per play, one random number per call.

local CALL_PROBABILITY = 0.2

local M = {}

function M.play(obs: BsPlayObservation): { number }
	local rank = obs.rank
	local cards = {}
	for _, id in ipairs(obs.hand) do
		if id // 4 == rank then
			cards[#cards + 1] = id
		end
	end
	if #cards == 0 then
		cards[1] = obs.hand[1]
	end
	return cards
end

function M.call(_obs: BsCallObservation): boolean
	return math.random() < CALL_PROBABILITY
end

return M
