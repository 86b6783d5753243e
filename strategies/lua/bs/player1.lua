-- player1.lua: the contest's reference bot Player1 (docs/bs.md, "The contest's reference bots").
--
-- What it does: plays every card of the required rank it holds, in hand order; with none, it lies
-- with exactly one card, its oldest (hand[1] here, `hand[0]` in the rules). It calls "BS" exactly
-- when the claimed count is 3 or more.
-- How strong: weak (12.2% in the contest's pool). Calling every claim of three or four cards mostly
-- catches honest plays, so it often picks up the pile itself.
-- Measured: 15.7% in the seven-bot pool of this directory (botbox tournament bs, 10,000 games).
-- Cost: one pass over the hand per play, nothing per call.

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

function M.call(obs: BsCallObservation): boolean
	return obs.count >= 3
end

return M
