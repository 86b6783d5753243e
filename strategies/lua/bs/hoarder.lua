-- hoarder.lua: the contest's reference bot Hoarder (docs/bs.md, "The contest's reference bots").
--
-- What it does: plays honestly only when its whole hand is an honest way out: starting at the
-- required rank c, it removes one card of the current rank and steps the rank by 4 (mod 13, its own
-- next turn) until the hand is empty; if some needed rank is missing on the way, it cannot. Then it
-- plays every card of rank c it holds. Otherwise it plays its whole hand at once. It calls "BS" when
-- the player's hand size after the play is at most the claimed count.
-- How strong: hopeless (0.0% in the contest's pool): a whole hand played as one claim is called by
-- almost everyone, so it keeps picking up the pile.
-- Measured: 0.0% (one win in 5653 games) in the seven-bot pool of this directory (botbox
-- tournament bs, 10,000 games).
-- Cost: one pass over the hand per play, plus at most one step per card of the walk; nothing per call.

local M = {}

-- Cards of each rank in hand, reused between plays: counts[rank + 1].
local counts = table.create(13, 0)

-- Whether the walk c, c+4, c+8, ... (mod 13), one card per step, empties the hand.
local function canGoOutHonestly(hand: { number }, rank: number): boolean
	for r = 1, 13 do
		counts[r] = 0
	end
	for _, id in ipairs(hand) do
		local r = id // 4 + 1
		counts[r] += 1
	end
	for _ = 1, #hand do
		if counts[rank + 1] == 0 then
			return false
		end
		counts[rank + 1] -= 1
		rank = (rank + 4) % 13
	end
	return true
end

function M.play(obs: BsPlayObservation): { number }
	local rank, hand = obs.rank, obs.hand
	if not canGoOutHonestly(hand, rank) then
		return hand
	end
	local cards = {}
	for _, id in ipairs(hand) do
		if id // 4 == rank then
			cards[#cards + 1] = id
		end
	end
	return cards
end

function M.call(obs: BsCallObservation): boolean
	return obs.player_hand <= obs.count
end

return M
