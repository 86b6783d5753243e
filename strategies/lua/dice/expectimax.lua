-- expectimax.lua: Mensch ärgere Dich nicht, free variant: search over the dice probabilities.
--
-- What it does: tries every legal move on a copy of the position and scores the position after it by
-- an expectimax over the next rolls. Its own move generator follows the engine's rules exactly
-- (host/src/games/dice/position.rs, Position::moves): a 6 brings a piece in while pieces wait (if A
-- is free), a piece on A leaves it while pieces wait (when it can), goal fields are counted exactly,
-- no move ends on an own piece, no piece enters the foreign goal, a 0 or a face above 43 moves
-- nothing; a move ending on a foreign piece on the track sends it back to B.
--   * A chance node averages over the faces of the roller's die (equal faces merged, weighted).
--   * After a roll the roller picks its best move under the same evaluation: I maximise, the
--     opponent minimises (its best reply, not an assumed "frontmost").
--   * A 6 is followed by another roll of the same player, any other face by the other player's.
--   * The search looks as many rolls ahead (at most MAX_DEPTH = 3) as about LEAF_LIMIT leaves
--     allow: estimated as the legal moves times, per roll, the roller's distinct faces times three.
--     In practice: 2 rolls with 1..6, 0..9 or 1..12 on both sides, 3 when a die with few distinct
--     faces such as 1 1 1 6 6 6 is involved, 1 with 1..20.
-- A leaf is scored from my side as
--     material(mine) - material(theirs) +/- THREAT * threat(next roller)
-- where a piece on B is worth 0, a piece on the board ON_BOARD + its step, a piece in the goal
-- ON_BOARD + its step + IN_GOAL; threat(roller) is the material of the other side's pieces on the
-- track, each weighted by the probability that the roller's next roll can land on it (an own piece
-- exactly that far behind it, or a 6 bringing a piece in onto the roller's A): the pieces left in
-- front of the player about to roll are at risk. A won position is worth WIN (+ or -). Draws by
-- deadlock are not modelled. Ties go to the earlier move of obs.legal (frontmost first).
-- Parameters (`--param KEY=VALUE`): max_depth, leaf_limit, on_board, in_goal, threat, check. With
-- check=true every decision first compares the move generator with obs.legal (moves and captures)
-- and raises an error on any difference.
-- How strong (docs/dice.md has the tables): with the same die it wins about 72-75% against
-- frontmost and 60-69% against safety_first with 1..6 or 1 1 1 6 6 6, 59% against frontmost with
-- 0..9. With dice of many faces (1..12, 1..20) a choice rarely arises or matters and all strategies
-- are about even.
-- Cost: measured by shrinking --lua-budget until it faults, over 2,800 games with the dice 1..6,
-- 1 1 1 6 6 6, 0..9 and 1..12: at most 300,000 to 600,000 interrupt ticks per decision (the default
-- budget is 20,000,000), about 1 ms per decision on average (2 ms with 1..6 against 1 1 1 6 6 6,
-- where it searches 3 rolls).

local M = {}

local MAX_DEPTH = 3 -- at most this many rolls are searched after my move
local LEAF_LIMIT = 6000 -- the search is as deep as this many estimated leaves allow
local ON_BOARD = 10 -- a piece on the board rather than on B
local IN_GOAL = 6 -- a piece in the goal, on top of its step
local THREAT = 0.8 -- weight of the threat term
local WIN = 10000
local CHECK = false

function M.init(setup)
	local p = setup.params or {}
	MAX_DEPTH = p.max_depth or MAX_DEPTH
	LEAF_LIMIT = p.leaf_limit or LEAF_LIMIT
	ON_BOARD = p.on_board or ON_BOARD
	IN_GOAL = p.in_goal or IN_GOAL
	THREAT = p.threat or THREAT
	CHECK = p.check or CHECK
end

-- The position: P[1..4] my pieces in my steps, P[5..8] the opponent's in theirs; -1 is B.
local P = table.create(8, -1)

-- The die of each side as distinct steps and their probabilities: side 0 is me, side 1 the opponent.
local STEPS = { {}, {} }
local PROB = { {}, {} }
local COUNT = { 0, 0 }
-- HIT[side + 1][d]: the probability that the side's die moves d steps (d = 1..44).
local HIT = { {}, {} }

local function readDie(side: number, faces: { number })
	local steps, prob, index = {}, {}, {}
	local n = 0
	for _, face in ipairs(faces) do
		-- A face above 43 moves nothing, like a 0; both are kept as "no move" (steps 0 or 44).
		local r = if face > 43 then 44 else face
		local k = index[r]
		if k == nil then
			n += 1
			k = n
			index[r] = k
			steps[k] = r
			prob[k] = 0
		end
		prob[k] += 1 / #faces
	end
	STEPS[side + 1], PROB[side + 1], COUNT[side + 1] = steps, prob, n
	local hit = HIT[side + 1]
	for d = 1, 44 do
		hit[d] = 0
	end
	for k = 1, n do
		if steps[k] >= 1 then
			hit[steps[k]] = prob[k]
		end
	end
end

-- The moves of the side whose pieces are P[base+1..base+4] for a roll of r steps, into slots[] (the
-- index in P of the piece that moves) and tos[] (its landing step); returns how many. The same list
-- as the engine's Position::moves (in a different order).
local function gen(base: number, r: number, slots: { number }, tos: { number }): number
	if r < 1 or r > 43 then
		return 0
	end
	local waitSlot, aSlot, blocked = 0, 0, false
	for i = base + 1, base + 4 do
		local s = P[i]
		if s == -1 then
			waitSlot = i
		elseif s == 0 then
			aSlot = i
		elseif s == r then
			blocked = true -- an own piece stands r steps after A
		end
	end
	if waitSlot ~= 0 then
		-- Obligations while pieces wait: a 6 brings one in (A must be free), A is left when it can be.
		if r == 6 and aSlot == 0 then
			slots[1], tos[1] = waitSlot, 0
			return 1
		end
		if aSlot ~= 0 and not blocked then
			slots[1], tos[1] = aSlot, r
			return 1
		end
	end
	local n = 0
	for i = base + 1, base + 4 do
		local s = P[i]
		if s >= 0 then
			local t = s + r
			if t <= 43 then
				local free = true
				for j = base + 1, base + 4 do
					if P[j] == t then
						free = false
						break
					end
				end
				if free then
					n += 1
					slots[n], tos[n] = i, t
				end
			end
		end
	end
	return n
end

-- Moves the piece in slot i to step t; returns its old step and the slot of a captured piece (0).
local function apply(i: number, t: number): (number, number)
	local old = P[i]
	P[i] = t
	if t < 40 then
		local other = if i <= 4 then 4 else 0
		local victim = (t + 20) % 40
		for j = other + 1, other + 4 do
			if P[j] == victim then
				P[j] = -1
				return old, j
			end
		end
	end
	return old, 0
end

local function undo(i: number, t: number, old: number, captured: number)
	P[i] = old
	if captured ~= 0 then
		P[captured] = (t + 20) % 40
	end
end

local function won(base: number): boolean
	return P[base + 1] >= 40 and P[base + 2] >= 40 and P[base + 3] >= 40 and P[base + 4] >= 40
end

local function pieceValue(s: number): number
	if s < 0 then
		return 0
	elseif s < 40 then
		return ON_BOARD + s
	else
		return ON_BOARD + s + IN_GOAL
	end
end

local function material(base: number): number
	return pieceValue(P[base + 1]) + pieceValue(P[base + 2]) + pieceValue(P[base + 3]) + pieceValue(P[base + 4])
end

-- The roller's threat: the material of the opponent's pieces on the track, each weighted by the
-- probability that the roller's next roll can land on it (an own piece exactly that far behind it,
-- counted along the roller's way, or a 6 bringing a piece in onto the roller's A). Pieces stand on
-- distinct steps, so the distances to one victim are distinct faces and their chances add up. The
-- roller's obligations and own blocking pieces are ignored: it is an estimate, and cheap.
local function threat(roller: number): number
	local base = roller * 4
	local other = 4 - base
	local hit = HIT[roller + 1]
	local total = 0
	for j = other + 1, other + 4 do
		local v = P[j]
		if v >= 0 and v < 40 then
			-- The victim's field in the roller's steps.
			local target = (v + 20) % 40
			local p = 0
			for i = base + 1, base + 4 do
				local s = P[i]
				if s >= 0 and s < target then
					p += hit[target - s]
				elseif target == 0 and s == -1 then
					p = hit[6] -- a piece waits on B: a 6 brings it in onto the victim
				end
			end
			total += p * (ON_BOARD + v)
		end
	end
	return total
end

-- The leaf score from my side, with `roller` about to roll.
local function evaluate(roller: number): number
	local v = material(0) - material(4)
	if THREAT ~= 0 then
		local t = THREAT * threat(roller)
		v += if roller == 0 then t else -t
	end
	return v
end

-- Per-depth move lists of the search.
local SLOTS, TOS = {}, {}
for d = 1, 8 do
	SLOTS[d], TOS[d] = {}, {}
end

-- The value from my side of the position P with `roller` about to roll, searching `depth` rolls.
local function chance(roller: number, depth: number): number
	if depth == 0 then
		return evaluate(roller)
	end
	local base = roller * 4
	local steps, prob = STEPS[roller + 1], PROB[roller + 1]
	local slots, tos = SLOTS[depth], TOS[depth]
	local total = 0
	for k = 1, COUNT[roller + 1] do
		local r = steps[k]
		local nextRoller = if r == 6 then roller else 1 - roller
		local n = gen(base, r, slots, tos)
		local v
		if n == 0 then
			v = chance(nextRoller, depth - 1)
		else
			v = if roller == 0 then -math.huge else math.huge
			for m = 1, n do
				local i, t = slots[m], tos[m]
				local old, captured = apply(i, t)
				local value
				if won(base) then
					value = if roller == 0 then WIN else -WIN
				else
					value = chance(nextRoller, depth - 1)
				end
				undo(i, t, old, captured)
				if roller == 0 then
					if value > v then
						v = value
					end
				elseif value < v then
					v = value
				end
			end
		end
		total += prob[k] * v
	end
	return total
end

-- With check=true: the move generator must give exactly obs.legal.
local function checkMoves(obs: DiceObservation)
	local slots, tos = {}, {}
	local n = gen(0, obs.steps, slots, tos)
	local mine: { string } = {}
	for m = 1, n do
		local t = tos[m]
		local captures = false
		if t < 40 then
			for j = 5, 8 do
				captures = captures or P[j] == (t + 20) % 40
			end
		end
		table.insert(mine, `{P[slots[m]]}>{t}{if captures then "x" else ""}`)
	end
	local theirs: { string } = {}
	for _, mv in ipairs(obs.legal) do
		table.insert(theirs, `{mv.from}>{mv.to}{if mv.captures then "x" else ""}`)
	end
	table.sort(mine)
	table.sort(theirs)
	local a, b = table.concat(mine, " "), table.concat(theirs, " ")
	if a ~= b then
		error(`move generator differs: {a} vs legal {b} (steps {obs.steps})`)
	end
end

function M.choose_move(obs: DiceObservation): DiceMove
	for i = 1, 4 do
		P[i] = obs.mine[i]
		P[i + 4] = obs.theirs[i]
	end
	readDie(0, obs.die)
	readDie(1, obs.opponent_die)
	if CHECK then
		checkMoves(obs)
	end
	local legal = obs.legal
	-- The deepest search up to MAX_DEPTH rolls whose estimated leaves stay within LEAF_LIMIT: per root
	-- move, each roll multiplies by the roller's distinct faces times about three moves (the rollers
	-- alternate; a 6 that keeps the roll is not counted). At least one roll is searched.
	local depth, leaves = 1, #legal
	local roller = if obs.steps == 6 then 0 else 1
	leaves *= COUNT[roller + 1] * 3
	while depth < MAX_DEPTH do
		roller = 1 - roller
		leaves *= COUNT[roller + 1] * 3
		if leaves > LEAF_LIMIT then
			break
		end
		depth += 1
	end
	local nextRoller = if obs.steps == 6 then 0 else 1
	local best, bestValue = legal[1], -math.huge
	for _, mv in ipairs(legal) do
		local slot = 0
		for i = 1, 4 do
			if P[i] == mv.from then
				slot = i
				break
			end
		end
		local old, captured = apply(slot, mv.to)
		local value
		if won(0) then
			value = WIN
		else
			value = chance(nextRoller, depth)
		end
		undo(slot, mv.to, old, captured)
		if value > bestValue + 1e-9 then
			best, bestValue = mv, value
		end
	end
	return best
end

return M
