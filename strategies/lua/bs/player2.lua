-- player2.lua: the contest's reference bot Player2 (docs/bs.md, "The contest's reference bots").
--
-- What it does: plays like Player1 (every card of the required rank in hand order; with none, its
-- oldest card, hand[1]) and calls "BS" when a draw of its generator is below 0.2, whatever was
-- claimed. As in the contest, the generator is Java's java.util.Random seeded with 20 and made anew
-- for every game (this file's top level runs once per game), so every game it draws the same
-- sequence: its first 20 decisions of a game are ...CC...C........... (C = call). It does not use
-- math.random.
-- How strong: weak (8.3% in the contest's pool): its calls are wrong most of the time, and every
-- wrong call hands it the pile; the fixed sequence makes it call the same early turns every game.
-- Measured: 5.7% in the seven-bot pool of this directory (botbox tournament bs, 100,000 games,
-- seed 1); 1.5% against Player1, Player3 and Player4 alone (the contest's controller: 1.4%).
-- Cost: one pass over the hand per play, one draw (two LCG steps) per call.

local CALL_PROBABILITY = 0.2
local SEED = 20

-- java.util.Random: the 48-bit linear congruential generator of the Java specification.
--   setSeed: state = (seed XOR 0x5DEECE66D) mod 2^48
--   next(bits): state = (state * 0x5DEECE66D + 0xB) mod 2^48; return state >> (48 - bits)
--   nextDouble(): ((next(26) << 27) + next(27)) * 2^-53
-- Luau numbers are doubles, exact for integers below 2^53, so the state is kept as two 24-bit
-- halves and the multiplier is split the same way: every product and sum below stays under 2^50.
local TWO_24 = 16777216 -- 2^24
local MULTIPLIER_HI = 0x5DE -- 0x5DEECE66D >> 24
local MULTIPLIER_LO = 0xECE66D -- 0x5DEECE66D & 0xFFFFFF
local ADDEND = 0xB
local TWO_MINUS_53 = math.ldexp(1, -53)

type JavaRandom = { hi: number, lo: number }

-- A generator seeded with `seed`, an integer from 0 to 2^53 - 1 (only its low 48 bits matter).
local function java_random(seed: number): JavaRandom
	local lo = seed % TWO_24
	local hi = (seed // TWO_24) % TWO_24
	return { hi = bit32.bxor(hi, MULTIPLIER_HI), lo = bit32.bxor(lo, MULTIPLIER_LO) }
end

-- One step: the new 48-bit state, as a number (exact: below 2^48).
local function step(r: JavaRandom): number
	-- (hi * 2^24 + lo) * (MULTIPLIER_HI * 2^24 + MULTIPLIER_LO) + ADDEND, mod 2^48:
	-- the hi * MULTIPLIER_HI term is a multiple of 2^48 and drops out.
	local low = r.lo * MULTIPLIER_LO + ADDEND -- < 2^48 + 11
	local high = r.hi * MULTIPLIER_LO + r.lo * MULTIPLIER_HI + low // TWO_24 -- < 2^49
	local lo, hi = low % TWO_24, high % TWO_24
	r.lo, r.hi = lo, hi
	return hi * TWO_24 + lo
end

-- next(bits) for bits from 1 to 32, as a non-negative number (Java's int for bits below 32):
-- state >> (48 - bits), a division by a power of two, exact.
local function next_bits(r: JavaRandom, bits: number): number
	return step(r) // math.ldexp(1, 48 - bits)
end

-- nextDouble(): ((next(26) << 27) + next(27)) * 2^-53, a number in [0, 1); every step is exact.
local function next_double(r: JavaRandom): number
	local a = step(r) // 4194304 -- next(26): state >> 22
	local b = step(r) // 2097152 -- next(27): state >> 21
	return (a * 134217728 + b) * TWO_MINUS_53 -- (a << 27) + b < 2^53
end

-- This game's generator: a new one every game, as the contest's controller made a new Player2.
local rng = java_random(SEED)

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
	return next_double(rng) < CALL_PROBABILITY
end

-- Not part of the game (the host never calls it): the first `count` draws of a fresh generator seeded
-- with `seed`, nextDouble() or, with `bits`, next(bits), for tests/suite/bs.rs to check against Java's
-- algorithm. It has a generator of its own and leaves this game's untouched.
function M.java_random_draws(request: { seed: number, count: number, bits: number? }): { number }
	local r = java_random(request.seed)
	local draws = table.create(request.count)
	for i = 1, request.count do
		draws[i] = if request.bits then next_bits(r, request.bits) else next_double(r)
	end
	return draws
end

return M
