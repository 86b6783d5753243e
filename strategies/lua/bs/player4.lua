-- player4.lua: the contest's reference bot Player4 (docs/bs.md, "The contest's reference bots").
--
-- What it does: plays like Player3 (every card of the required rank in hand order; with none, its
-- two oldest cards, or its last one). It calls "BS" when the player has just emptied their hand, or
-- when the claim cannot be true as far as its own hand tells: the cards of the claimed rank it holds
-- plus the claimed count exceed 4.
-- How strong: middling (32.7% in the contest's pool): it never calls wrongly on an impossible claim,
-- and its call on an emptied hand denies the easy win of a last lie.
-- Measured: 28.6% in the seven-bot pool of this directory (botbox tournament bs, 10,000 games).
-- Cost: one pass over the hand per play and per call.

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

function M.call(obs: BsCallObservation): boolean
	if obs.player_hand == 0 then
		return true
	end
	local rank, mine = obs.rank, 0
	for _, id in ipairs(obs.hand) do
		if id // 4 == rank then
			mine += 1
		end
	end
	return mine + obs.count > 4
end

return M
