-- expectimax.lua: depth-2 expectimax over the host's `g2048` module.
--
-- What it does: treats the random tile as the opponent. Max nodes try every move of `b:legal()`;
-- chance nodes average over the empty cells of `b:empty_cells()`, placing a 2 (p = 0.9) or a 4
-- (p = 0.1) with `b:place(i, v)`. The search looks 2 plies of (move, random tile) ahead and scores
-- the leaves with a heuristic computed from the tile exponents (`b:exponent(r, c)`), summed over
-- every row and every column:
--   * empty cells (room to move),
--   * merges (equal neighbours, ignoring gaps),
--   * monotonicity (a line that rises or falls steadily is cheap; a big tile between smaller ones
--     is expensive, measured on exponent^4),
--   * a small penalty on the tile sum (exponent^3.5), so that merging is worth it.
-- The weights are those of nneonneo's well-known 2048 AI. A lost board (no legal move) is worth its
-- heuristic minus the per-line "alive" bonus, so the search avoids dead ends.
-- Three things keep a move cheap:
--   * a probability cut-off: a branch whose probability falls below PROB_CUTOFF is scored by the
--     heuristic instead of being searched further (this trims the unlikely 4-tile branches while the
--     board is open, which is exactly when the chance nodes are widest);
--   * at the deepest chance nodes at most MAX_DEEP_CELLS empty cells are sampled (evenly spaced over
--     the empty list, deterministic) when more are empty (MAX_CELLS elsewhere, which only boards
--     larger than 4x4 reach);
--   * at the deepest chance nodes the board's exponents are read once and each placement rescores
--     only the row and the column it touches (the same value as b:place + a full evaluation).
-- Only the host's board operations are used; nothing of the game is rewritten here. The answer is
-- always a member of obs.legal.
-- How strong: expected to reach 2048 in most games and 4096 in some (a depth-2 search with this
-- heuristic; deeper searches in compiled code do better). Measured with a Lua stand-in for the
-- engine: 2048 or more in 9 of 12 games (4096 in 2), 512-1024 in the others, mean score about
-- 32,000. Check with
-- `botbox bench 2048 strategies/lua/g2048/expectimax.lua --games 100`.
-- Cost: at most about 6,000 calls into g2048 and 250,000 interrupt ticks per move (the default
-- budget is 20,000,000): a few milliseconds to a few tens of milliseconds with the host's engine.
-- State: one module-level cache of line scores (cleared when it grows past CACHE_LIMIT entries);
-- it only speeds things up and never changes a decision.

local DEPTH = 2 -- plies of (move, random tile)
local PROB_CUTOFF = 0.01 -- below this probability a branch is scored, not searched
local MAX_DEEP_CELLS = 6 -- empty cells sampled at the deepest chance nodes
local MAX_CELLS = 16 -- empty cells sampled at the other chance nodes (only boards over 4x4 have more)
local CACHE_LIMIT = 50000 -- line-score cache entries before the cache is cleared

-- Heuristic weights (on base-2 exponents).
local LOST_PENALTY = 200000
local MONOTONICITY_POWER = 4
local MONOTONICITY_WEIGHT = 47
local SUM_POWER = 3.5
local SUM_WEIGHT = 11
local MERGES_WEIGHT = 700
local EMPTY_WEIGHT = 270

local lineCache: { [number]: number } = {}
local cacheSize = 0

-- Score of one line of exponents line[1..n] (a row left to right or a column top to bottom).
local function scoreLine(line: { number }, n: number): number
	local sum, empty, merges = 0, 0, 0
	local prev, counter = 0, 0
	for i = 1, n do
		local rank = line[i]
		sum += rank ^ SUM_POWER
		if rank == 0 then
			empty += 1
		else
			if prev == rank then
				counter += 1
			elseif counter > 0 then
				merges += 1 + counter
				counter = 0
			end
			prev = rank
		end
	end
	if counter > 0 then
		merges += 1 + counter
	end

	local monoLeft, monoRight = 0, 0
	for i = 2, n do
		local a, b = line[i - 1], line[i]
		if a > b then
			monoLeft += a ^ MONOTONICITY_POWER - b ^ MONOTONICITY_POWER
		else
			monoRight += b ^ MONOTONICITY_POWER - a ^ MONOTONICITY_POWER
		end
	end

	return LOST_PENALTY
		+ EMPTY_WEIGHT * empty
		+ MERGES_WEIGHT * merges
		- MONOTONICITY_WEIGHT * math.min(monoLeft, monoRight)
		- SUM_WEIGHT * sum
end

-- Cached score of a line. The key packs the length and the exponents in base 64: exact in a double
-- for every board size from 3 to 8 (8 * 64^8 = 2^51).
local function lineValue(line: { number }, n: number): number
	local key = n
	for i = 1, n do
		key = key * 64 + line[i]
	end
	local cached = lineCache[key]
	if cached then
		return cached
	end
	local value = scoreLine(line, n)
	if cacheSize >= CACHE_LIMIT then
		lineCache = {}
		cacheSize = 0
	end
	lineCache[key] = value
	cacheSize += 1
	return value
end

-- The exponents of board b, row-major: cells[(r - 1) * n + c].
local function readExponents(b, n: number): { number }
	local cells = table.create(n * n, 0)
	for r = 1, n do
		local base = (r - 1) * n
		for c = 1, n do
			cells[base + c] = b:exponent(r, c)
		end
	end
	return cells
end

local function rowValue(cells: { number }, n: number, r: number, line: { number }): number
	local base = (r - 1) * n
	for c = 1, n do
		line[c] = cells[base + c]
	end
	return lineValue(line, n)
end

local function colValue(cells: { number }, n: number, c: number, line: { number }): number
	for r = 1, n do
		line[r] = cells[(r - 1) * n + c]
	end
	return lineValue(line, n)
end

-- The heuristic value of a board: the sum of its rows' and columns' line scores.
local function evaluate(b): number
	local n = b:size()
	local cells = readExponents(b, n)
	local line = table.create(n, 0)
	local total = 0
	for i = 1, n do
		total += rowValue(cells, n, i, line) + colValue(cells, n, i, line)
	end
	return total
end

-- The cells a chance node averages over: all of `empty`, or at most `limit` of them, evenly spaced.
local function sampleCells(empty: { number }, limit: number): { number }
	local count = #empty
	if count <= limit then
		return empty
	end
	local cells = table.create(limit, 0)
	for k = 1, limit do
		cells[k] = empty[math.floor((k - 0.5) * count / limit) + 1]
	end
	return cells
end

-- The deepest chance node: the expected heuristic value of b after its random tile. The board's
-- exponents are read once; placing a tile on cell i changes only the row and the column of i, so
-- each placement rescores two lines instead of copying the board and reading it again (this is
-- what b:place(i, v) followed by evaluate() would compute, about ten times cheaper).
local function leafChance(b): number
	local n = b:size()
	local empty = b:empty_cells()
	if #empty == 0 then
		return evaluate(b) -- cannot happen after a legal move; kept for safety
	end
	local cells = sampleCells(empty, MAX_DEEP_CELLS)
	local exps = readExponents(b, n)
	local line = table.create(n, 0)
	local rowVals = table.create(n, 0)
	local colVals = table.create(n, 0)
	local total = 0
	for i = 1, n do
		rowVals[i] = rowValue(exps, n, i, line)
		colVals[i] = colValue(exps, n, i, line)
		total += rowVals[i] + colVals[i]
	end
	local sum = 0
	for _, cell in ipairs(cells) do
		local r = (cell - 1) // n + 1
		local c = (cell - 1) % n + 1
		local rest = total - rowVals[r] - colVals[c]
		exps[cell] = 1 -- a 2
		sum += 0.9 * (rest + rowValue(exps, n, r, line) + colValue(exps, n, c, line))
		exps[cell] = 2 -- a 4
		sum += 0.1 * (rest + rowValue(exps, n, r, line) + colValue(exps, n, c, line))
		exps[cell] = 0
	end
	return sum / #cells
end

local maxNode -- forward declaration: chanceNode and maxNode call each other

-- Expected value of board b just after a move, before the random tile. `plies` is the number of
-- (move, tile) plies still to search after this tile; `prob` is the probability of reaching b.
local function chanceNode(b, plies: number, prob: number): number
	if plies <= 0 then
		return leafChance(b)
	end
	local cells = sampleCells(b:empty_cells(), MAX_CELLS)
	local m = #cells
	if m == 0 then
		return evaluate(b) -- cannot happen after a legal move; kept for safety
	end
	local p2 = prob * 0.9 / m
	local p4 = prob * 0.1 / m
	local total = 0
	for _, cell in ipairs(cells) do
		local with2 = b:place(cell, 2)
		if p2 < PROB_CUTOFF then
			total += 0.9 * evaluate(with2)
		else
			total += 0.9 * maxNode(with2, plies, p2)
		end
		local with4 = b:place(cell, 4)
		if p4 < PROB_CUTOFF then
			total += 0.1 * evaluate(with4)
		else
			total += 0.1 * maxNode(with4, plies, p4)
		end
	end
	return total / m
end

-- Best value over the legal moves of b. A board without legal moves (a lost game) is worth its
-- heuristic without the LOST_PENALTY bonus that every line of a live board gets: always less than
-- the same board alive, even when large tiles push the heuristic below zero.
function maxNode(b, plies: number, prob: number): number
	local best = -math.huge
	for _, dir in ipairs(b:legal()) do
		local after = b:move(dir)
		if after then
			local value = chanceNode(after, plies - 1, prob)
			if value > best then
				best = value
			end
		end
	end
	if best == -math.huge then
		return evaluate(b) - 2 * b:size() * LOST_PENALTY
	end
	return best
end

local M = {}

function M.choose_move(obs: Observation2048): Direction
	local legal = obs.legal
	local board = g2048.board(obs.board)
	local best = legal[1]
	local bestValue = -math.huge
	for _, dir in ipairs(legal) do
		local after = board:move(dir)
		if after then
			local value = chanceNode(after, DEPTH - 1, 1)
			if value > bestValue then
				best, bestValue = dir, value
			end
		end
	end
	return best
end

return M
