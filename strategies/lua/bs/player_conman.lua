-- player_conman.lua: the contest's winner PlayerConMan (59.8%), ported from a step-by-step
-- description of the original, quirks included (summed up in docs/bs.md, "PlayerConMan").
--
-- What it does: it tracks the 52 cards as 52 slots, four per rank, each with a location (a seat, the
-- pile or unknown), a confidence in [0, 1] and an optional link to a physical card (an id). Like the
-- original it observes the game only through the hand sizes and the pile size of the observations
-- (it has no `observe`): a pile that is not the recorded size plus the claim means a call was
-- resolved, the seat whose hand grew took the pile, the seat whose hand shrank gave a reward card.
--   * Own path: `truths` and `lies` list its own next turns' ranks (c+4k from its next turn) until its
--     hand would be empty, split by whether it holds that rank (the original's truths/lies
--     simulation).
--   * Play: every card of the required rank if it holds it (truths[1] == c); otherwise one card of
--     the held rank it needs furthest ahead (truths[last]), as CalculatingLiar does.
--   * Call: when a claim is impossible with the cards it accounts for; when the player goes out
--     with cards it cannot account for; when the pile, as far as it knows it, is all ranks of its
--     own path and fills a gap ("strategic"); or when a hypergeometric estimate of the claim being
--     true falls below a threshold that grows with how much taking the pile would shorten its path.
-- Quirks kept, because they change its results (docs/bs.md, "PlayerConMan"): the confidence of a
-- rewarding caller's slots is multiplied by 1 - (1 / size) in integer division (0 only at size 1);
-- its own hand list is rebuilt only when its length differs from the hand size; the four slots of
-- the claimed rank are re-sorted in place (which changes every later walk over the slots); a slot
-- may enter the local pile list twice; lnGamma is the Numerical-Recipes 6-term series, evaluated as
-- the original did.
-- Measured: 59.5% in the seven-bot pool of this directory (botbox tournament bs, 10,000 games).
-- Cost: one walk over the 52 slots per call (unrolled by four), and factorials remembered for the
-- game; all its tables are allocated once per game. The host counts a tick at every loop iteration
-- and function call, so the hot paths keep both few. Measured at about 90 ticks per call (the
-- simple bots: 4 to 20).
-- How strong: the contest's best (59.8% in its 9-bot pool); first in this project's 7-bot pool.

local M = {}

local DISCARD = 4
local UNKNOWN = 5

-- Slots 1..52. Slot s is of rank rankOf[s] (fixed), at location loc[s] (a seat 0-3, DISCARD or
-- UNKNOWN) with confidence conf[s], linked to the card id cardOf[s] (or -1).
local rankOf = table.create(52, 0)
local loc = table.create(52, UNKNOWN)
local conf = table.create(52, 1.0)
local cardOf = table.create(52, -1)
-- The original keeps the slots as 13 lists of 4 (the "deck") and walks them in that order; the list
-- of a claimed rank gets sorted in place, so the order is state. order[rank * 4 + j] is the j-th
-- slot of the rank's list.
local order = table.create(52, 0)
for s = 1, 52 do
	rankOf[s] = (s - 1) // 4
	order[s] = s
end
-- The slot linked to card id: slotOfCard[id + 1], 0 if none (a link, once made, is never undone).
local slotOfCard = table.create(52, 0)

local me = 0
-- The sizes seen at the last look: the pile and each seat's hand (seat + 1).
local seenPile = 0
local seenHand = { 0, 0, 0, 0 }

-- Its own hand as a list of slots (as of the last rebuild), and the ranks it holds.
local myHand = table.create(64, 0)
local myHandLen = 0
local myRanks = table.create(13, false)

-- Its own path from the last rebuild: the first truth, the last truth (the held rank needed furthest
-- ahead), the number of turns (truths + lies), whether there is any lie, and as sets by rank + 1.
local firstTruth, lastTruth, pathTurns, anyLie = -1, -1, 0, false
local isTruth = table.create(13, false)
local isLie = table.create(13, false)
-- The cache of myFurthest: for which start, and the value (-1: none).
local furthestStart, furthestValue = -1, -1

-- Scratch lists of a call, reused.
local playerHand = table.create(64, 0)
local pileList = table.create(64, 0)

-- x! = x * Gamma(x), with lnGamma the Numerical-Recipes series, in the original's order of
-- evaluation. The same arguments come back call after call (the counts of unknown cards change
-- slowly), so the values are remembered for the game: a lookup is far cheaper than the series.
local SQRT_2PI = math.sqrt(2 * math.pi)
local factorials: { [number]: number } = {}
local function factorial(x: number): number
	local f = factorials[x]
	if f == nil then
		local tmp = (x - 0.5) * math.log(x + 4.5) - (x + 4.5)
		local ser = 1.0
			+ 76.18009173 / (x + 0)
			- 86.50532033 / (x + 1)
			+ 24.01409822 / (x + 2)
			- 1.231739516 / (x + 3)
			+ 0.00120858003 / (x + 4)
			- 0.00000536382 / (x + 5)
		f = x * math.exp(tmp + math.log(ser * SQRT_2PI))
		if x == x then -- NaN is no table key
			factorials[x] = f
		end
	end
	return f
end

-- C(n, k) on real arguments, as the original computes it.
local function choose(n: number, k: number): number
	if n == k or k == 0 then
		return 1.0
	end
	if k < 0 or k > n then
		return 0.0
	end
	local m = n - k
	-- The lookups are written out: a function call costs a tick of the host's budget.
	local fn = factorials[n] or factorial(n)
	local fm = factorials[m] or factorial(m)
	local fk = factorials[k] or factorial(k)
	return fn / (fm * fk)
end

-- Binds card id to a slot of its rank (none is linked to it yet): the last unlinked UNKNOWN slot,
-- else the unlinked slot with the lowest confidence (the earliest on ties).
local function bind(id: number): number
	local chosen, best = 0, 1.0
	local base = (id // 4) * 4
	for j = base + 1, base + 4 do
		local s = order[j]
		if cardOf[s] < 0 then
			if loc[s] == UNKNOWN then
				chosen, best = s, 0.0
			elseif conf[s] < best or chosen == 0 then
				chosen, best = s, conf[s]
			end
		end
	end
	cardOf[chosen] = id
	slotOfCard[id + 1] = chosen
	return chosen
end

-- Its own next rank when `player` plays rank c now.
local function myNextRank(player: number, c: number): number
	return (c + (me - player + 4) % 4) % 13
end

-- Rebuilds its own hand list from the observed hand and its path (the original's truths/lies
-- simulation) from rank `start`: walking start, start+4, ... (mod 13), a held rank is a truth, a
-- missing one a lie, until every held rank is passed.
local function rebuild(hand: { number }, start: number)
	myHandLen = #hand
	furthestValue = -1
	for r = 1, 13 do
		myRanks[r] = false
		isTruth[r] = false
		isLie[r] = false
	end
	local distinct = 0
	for i, id in ipairs(hand) do
		local s = slotOfCard[id + 1]
		if s == 0 then
			s = bind(id)
		end
		loc[s] = me
		conf[s] = 1.0
		myHand[i] = s
		local r = rankOf[s] + 1
		if not myRanks[r] then
			myRanks[r] = true
			distinct += 1
		end
	end
	local r = start
	firstTruth, lastTruth, pathTurns, anyLie = -1, -1, 0, false
	while distinct > 0 do
		pathTurns += 1
		if myRanks[r + 1] then
			distinct -= 1
			isTruth[r + 1] = true
			if firstTruth < 0 then
				firstTruth = r
			end
			lastTruth = r
		else
			isLie[r + 1] = true
			anyLie = true
		end
		r = (r + 4) % 13
	end
end

-- How many turns ahead of rank `start` its hand's rank needed furthest ahead comes (cached: the
-- hand changes only at a rebuild, `start` only when its turn has passed).
local function myFurthest(start: number): number
	if start ~= furthestStart or furthestValue < 0 then
		furthestStart, furthestValue = start, -1
		for r = 0, 12 do
			if myRanks[r + 1] then
				local ahead = ((r - start) * 10) % 13
				if ahead > furthestValue then
					furthestValue = ahead
				end
			end
		end
	end
	return furthestValue
end

-- The state refresh of the original (`updateDeck`), at every play and call. `player` is the seat
-- observed (itself when playing), `claim` the cards just played (0 when playing).
local function refresh(
	player: number,
	c: number,
	claim: number,
	pile: number,
	sizes: { number },
	hand: { number }
)
	if seenPile + claim ~= pile then
		-- A call was resolved since the last look: the seat whose hand grew took the pile (by default
		-- the player observed), the seat whose hand shrank (the player's claim added back) gave a
		-- reward card.
		local loser, winner = player, -1
		for p = 0, 3 do
			local size = sizes[p + 1]
			local adjusted = if p == player then size + claim else size
			if size > seenHand[p + 1] then
				loser = p
			elseif adjusted < seenHand[p + 1] then
				winner = p
			end
		end
		-- The pile goes to the loser (to UNKNOWN if that is itself: its hand shows where); if it was
		-- the rewarding caller itself, its slots go to the pile (the rescan puts back those still in
		-- hand); another rewarding caller's slots get their confidence times 1 - (1 / size) in the
		-- original's integer division, which is 0 at size 1 and a no-op otherwise. The walk's order
		-- does not matter here; it is unrolled by four (each loop iteration is a tick of the host).
		local loserIsMe, winnerIsMe = loser == me, winner == me
		local zeroWinner = false
		if winner >= 0 and not winnerIsMe then
			local size = sizes[winner + 1]
			if winner == player then
				size += claim
			end
			zeroWinner = size == 1
		end
		for base = 0, 48, 4 do
			local s, l
			s = base + 1
			l = loc[s]
			if l == DISCARD then
				if loserIsMe then
					loc[s] = UNKNOWN
					conf[s] = 1.0
				else
					loc[s] = loser
				end
			elseif l == me and winnerIsMe then
				loc[s] = DISCARD
				conf[s] = 1.0
			elseif l == winner and zeroWinner then
				conf[s] = 0
			end
			s = base + 2
			l = loc[s]
			if l == DISCARD then
				if loserIsMe then
					loc[s] = UNKNOWN
					conf[s] = 1.0
				else
					loc[s] = loser
				end
			elseif l == me and winnerIsMe then
				loc[s] = DISCARD
				conf[s] = 1.0
			elseif l == winner and zeroWinner then
				conf[s] = 0
			end
			s = base + 3
			l = loc[s]
			if l == DISCARD then
				if loserIsMe then
					loc[s] = UNKNOWN
					conf[s] = 1.0
				else
					loc[s] = loser
				end
			elseif l == me and winnerIsMe then
				loc[s] = DISCARD
				conf[s] = 1.0
			elseif l == winner and zeroWinner then
				conf[s] = 0
			end
			s = base + 4
			l = loc[s]
			if l == DISCARD then
				if loserIsMe then
					loc[s] = UNKNOWN
					conf[s] = 1.0
				else
					loc[s] = loser
				end
			elseif l == me and winnerIsMe then
				loc[s] = DISCARD
				conf[s] = 1.0
			elseif l == winner and zeroWinner then
				conf[s] = 0
			end
		end
	end
	seenPile = pile
	seenHand[1], seenHand[2], seenHand[3], seenHand[4] = sizes[1], sizes[2], sizes[3], sizes[4]
	if myHandLen ~= #hand then
		rebuild(hand, myNextRank(player, c))
	end
end

function M.play(obs: BsPlayObservation): { number }
	me = obs.you
	local c = obs.rank
	refresh(me, c, 0, obs.pile, obs.hand_sizes, obs.hand)
	local pick, all = c, true
	if firstTruth ~= c then
		pick, all = lastTruth, false
	end
	local cards = {}
	for i = 1, myHandLen do
		local s = myHand[i]
		if rankOf[s] == pick then
			loc[s] = DISCARD
			cards[#cards + 1] = cardOf[s]
			if not all then
				break
			end
		end
	end
	seenPile = obs.pile + #cards
	seenHand[me + 1] = myHandLen - #cards
	return cards
end

-- Sorts the four slots of rank c in place, stably, by confidence minus 10 when UNKNOWN.
local keys = table.create(4, 0)
local function sortRank(c: number)
	local base = c * 4
	for j = 1, 4 do
		local s = order[base + j]
		keys[j] = if loc[s] == UNKNOWN then conf[s] - 10 else conf[s]
	end
	for i = 2, 4 do
		local s, key = order[base + i], keys[i]
		local j = i - 1
		while j >= 1 and keys[j] > key do
			order[base + j + 1], keys[j + 1] = order[base + j], keys[j]
			j -= 1
		end
		order[base + j + 1], keys[j + 1] = s, key
	end
end

function M.call(obs: BsCallObservation): boolean
	me = obs.you
	local player, c, count, pile = obs.player, obs.rank, obs.count, obs.pile
	refresh(player, c, count, pile, obs.hand_sizes, obs.hand)

	-- 1. What it accounts for: the unknown cards, the player's slots, the slots on the pile.
	local handSize = obs.player_hand + count
	local totalUnknown, playerUnknown, held, notHeld = 0, handSize, 0, 0
	local nPlayer, nPile = 0, 0
	-- The walk is in the original's order (the sums and lists depend on it), unrolled by four: each
	-- loop iteration is a tick of the host's budget.
	for base = 0, 48, 4 do
		local s, l, cf
		s = order[base + 1]
		l = loc[s]
		if l == UNKNOWN then
			totalUnknown += 1
		else
			cf = conf[s]
			totalUnknown += 1.0 - cf
			if l == player then
				nPlayer += 1
				playerHand[nPlayer] = s
				playerUnknown -= cf
			elseif l == DISCARD then
				nPile += 1
				pileList[nPile] = s
			end
		end
		s = order[base + 2]
		l = loc[s]
		if l == UNKNOWN then
			totalUnknown += 1
		else
			cf = conf[s]
			totalUnknown += 1.0 - cf
			if l == player then
				nPlayer += 1
				playerHand[nPlayer] = s
				playerUnknown -= cf
			elseif l == DISCARD then
				nPile += 1
				pileList[nPile] = s
			end
		end
		s = order[base + 3]
		l = loc[s]
		if l == UNKNOWN then
			totalUnknown += 1
		else
			cf = conf[s]
			totalUnknown += 1.0 - cf
			if l == player then
				nPlayer += 1
				playerHand[nPlayer] = s
				playerUnknown -= cf
			elseif l == DISCARD then
				nPile += 1
				pileList[nPile] = s
			end
		end
		s = order[base + 4]
		l = loc[s]
		if l == UNKNOWN then
			totalUnknown += 1
		else
			cf = conf[s]
			totalUnknown += 1.0 - cf
			if l == player then
				nPlayer += 1
				playerHand[nPlayer] = s
				playerUnknown -= cf
			elseif l == DISCARD then
				nPile += 1
				pileList[nPile] = s
			end
		end
	end
	-- The claimed rank's four slots, in the same order.
	local rankStart = c * 4 + 1
	do
		local s, l
		s = order[rankStart]
		l = loc[s]
		if l == player then
			held += conf[s]
		elseif l ~= UNKNOWN then
			notHeld += conf[s]
		end
		s = order[rankStart + 1]
		l = loc[s]
		if l == player then
			held += conf[s]
		elseif l ~= UNKNOWN then
			notHeld += conf[s]
		end
		s = order[rankStart + 2]
		l = loc[s]
		if l == player then
			held += conf[s]
		elseif l ~= UNKNOWN then
			notHeld += conf[s]
		end
		s = order[rankStart + 3]
		l = loc[s]
		if l == player then
			held += conf[s]
		elseif l ~= UNKNOWN then
			notHeld += conf[s]
		end
	end

	-- 2. The chance that the claim is true: a hypergeometric tail on real-valued arguments.
	local callIt = false
	local prob
	local possible = math.floor(4 - notHeld + 0.5)
	local needed = math.floor(count - held + 0.5)
	if needed > possible then
		prob = 0.0
		callIt = true
	elseif needed <= 0 then
		prob = 1.0
	else
		local successes = 0
		for i = needed, possible do
			successes += choose(possible, i) * choose(totalUnknown - possible, playerUnknown - i)
		end
		prob = successes / choose(totalUnknown, playerUnknown)
		if prob ~= prob then
			prob = 0.0
			callIt = true
		end
	end

	-- 4. The player's known cards of rank c go to the pile, as many as were played.
	local moved, kept = 0, 0
	for i = 1, nPlayer do
		local s = playerHand[i]
		if moved < count and rankOf[s] == c then
			loc[s] = DISCARD
			nPile += 1
			pileList[nPile] = s
			moved += 1
		else
			kept += 1
			playerHand[kept] = s
		end
	end
	nPlayer = kept

	-- 5. Cards it cannot account for were played.
	if moved < count then
		local left, need = handSize - moved, count - moved
		if left == need then
			-- Going out with cards it cannot account for.
			callIt = true
			for i = 1, nPlayer do
				loc[playerHand[i]] = DISCARD
			end
		else
			local chosen = choose(left - 1, need - 1) / choose(left, need)
			local factor = (1 - chosen) * (1 - prob) + prob
			for i = 1, nPlayer do
				local s = playerHand[i]
				conf[s] *= factor
			end
		end
		sortRank(c)
		for i = rankStart, rankStart + 3 do
			local s = order[i]
			if loc[s] == UNKNOWN or conf[s] < prob then
				loc[s] = DISCARD
				conf[s] = prob
				moved += 1
				nPile += 1
				pileList[nPile] = s
				if moved >= count then
					break
				end
			end
		end
	end

	-- 6-8 in one walk over the pile list: how sure it is of the pile (the product of confidences),
	-- whether the pile is all ranks of its own path (the original's walk stops at the first other
	-- rank, after which its condition cannot hold), and how far ahead the pile's ranks are needed.
	local start = myNextRank(player, c)
	local furthest = myFurthest(start)
	local pileConf = 1.0
	local lieCount, unknown, onPath = 0, 0, true
	for i = 1, nPile do
		local s = pileList[i]
		local cf = conf[s]
		pileConf *= cf
		local r = rankOf[s]
		if onPath then
			if isTruth[r + 1] then
				unknown += 1 - cf
			elseif isLie[r + 1] then
				lieCount += cf
				unknown += 1 - cf
			else
				onPath = false
			end
		end
		local ahead = ((r - start) * 10) % 13 -- c + 4k = r (mod 13): k = 10 (r - c), as 4 * 10 = 1
		if ahead > furthest then
			furthest = ahead
		end
	end
	pileConf *= 0.5 ^ (pile - nPile)

	-- 7. Strategic call: a known pile that fills its gaps.
	if pileConf > 0.5 and nPile == pile and onPath and lieCount > 0 and unknown < 1 then
		callIt = true
	end

	-- 8. Threshold: call an unlikely claim when the pile would shorten its path. The path of its hand
	-- plus the pile ends one turn after the held or piled rank needed furthest ahead.
	local lose = furthest + 1
	local expected = lose * pileConf + math.max(lose, 7) * (1 - pileConf)
	local threshold = (pathTurns - expected) / 13
	if not anyLie then
		threshold /= 2
	end
	return callIt or prob < threshold
end

return M
