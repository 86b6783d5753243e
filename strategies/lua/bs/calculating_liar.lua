-- calculating_liar.lua: the contest's reference bot CalculatingLiar (docs/bs.md, "The contest's
-- reference bots"), second in the contest (57.0%).
--
-- What it does:
--   * Memory: the ranks of the cards it put on the pile itself. It forgets them all whenever it sees
--     the pile smaller than the last time it looked (a call emptied the pile since). It looks at the
--     pile at each of its plays and calls; the original also looked once at the end of every round,
--     which needs the public events, so this port looks only when asked (it may keep a stale memory
--     a little longer when a call emptied the pile and it grew back past its old size before the
--     next look).
--   * Play: every card of the required rank c, in hand order. With none it lies with one card, the
--     one it will need furthest in the future: its own turns ask for c, c+4, c+8, ... (mod 13), so
--     it tries the ranks c+9, c+5, c+1, c+10, ... (each 4 below the previous, mod 13) and plays the
--     first card in hand order of the first rank it holds.
--   * Call: when the player has emptied their hand; when the claim is over 4 cards; when its own
--     cards of rank c, plus the remembered cards of rank c it put on the pile, plus the claim exceed
--     4; or when the player has fewer than 5 cards while it holds exactly one card itself (a correct
--     call then wins: the reward is its last card).
-- How strong: second in the contest (57.0%): its lies are hard to catch (one card, and the one it
-- needs last), and it hunts the reward-card win.
-- Measured: 55.9% in the seven-bot pool of this directory (botbox tournament bs, 10,000 games).
-- Cost: one pass over the hand per play and per call.

local M = {}

-- The ranks of the cards it put on the pile since the pile last shrank: onPile[rank + 1] = count.
local onPile = table.create(13, 0)
local lastPile = 0

-- Forgets the remembered cards if the pile shrank since the last look.
local function look(pile: number)
	if lastPile > pile then
		for r = 1, 13 do
			onPile[r] = 0
		end
	end
	lastPile = pile
end

-- How many turns of its own ahead rank r is needed when the current rank is c: the k with
-- c + 4k = r (mod 13), which is 10 * (r - c) mod 13 because 4 * 10 = 40 = 1 (mod 13).
local function turnsAhead(r: number, c: number): number
	return ((r - c) * 10) % 13
end

function M.play(obs: BsPlayObservation): { number }
	local rank, hand = obs.rank, obs.hand
	local cards = {}
	for _, id in ipairs(hand) do
		if id // 4 == rank then
			cards[#cards + 1] = id
		end
	end
	if #cards == 0 then
		-- The card needed furthest ahead; the first in hand order on ties (same rank).
		local best, bestAhead = hand[1], -1
		for _, id in ipairs(hand) do
			local ahead = turnsAhead(id // 4, rank)
			if ahead > bestAhead then
				best, bestAhead = id, ahead
			end
		end
		cards[1] = best
	end
	look(obs.pile)
	for _, id in ipairs(cards) do
		local r = id // 4 + 1
		onPile[r] += 1
	end
	lastPile = obs.pile + #cards
	return cards
end

function M.call(obs: BsCallObservation): boolean
	local rank, hand = obs.rank, obs.hand
	local mine = 0
	for _, id in ipairs(hand) do
		if id // 4 == rank then
			mine += 1
		end
	end
	look(obs.pile)
	mine += onPile[rank + 1]
	local left, count = obs.player_hand, obs.count
	return left == 0 or count > 4 or mine + count > 4 or (left < 5 and #hand == 1)
end

return M
