-- player3.lua: the contest's reference bot Player3 (docs/bs.md, "The contest's reference bots").
--
-- What it does: plays every card of the required rank it holds, in hand order; with none, it lies
-- with its two oldest cards (hand[1] and hand[2]; just hand[1] when that is its last card). It never
-- calls "BS".
-- How strong: weak (11.1% in the contest's pool): it never calls, so it never sheds a card as a
-- rewarded caller, and a two-card lie that is caught costs it the pile.
-- Measured: 8.6% in the seven-bot pool of this directory (botbox tournament bs, 10,000 games).
-- Cost: one pass over the hand per play, nothing per call.

local M = {}

function M.play(obs: BsPlayObservation): { number }
	local rank, hand = obs.rank, obs.hand
	local cards = {}
	for _, id in ipairs(hand) do
		if id // 4 == rank then
			cards[#cards + 1] = id
		end
	end
	if #cards == 0 then
		cards[1] = hand[1]
		cards[2] = hand[2] -- nil (nothing added) when the hand holds one card
	end
	return cards
end

function M.call(_obs: BsCallObservation): boolean
	return false
end

return M
