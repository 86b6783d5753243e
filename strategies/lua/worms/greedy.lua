-- greedy.lua: every turn, the move that brings some worm closest to the hole.
--
-- What it does: one breadth-first search from the hole per turn gives every free cell its distance
-- to the hole, walking only through free cells ('.') of the current board: obstacles and every worm
-- cell block, including the moving worm's own tail (so one search serves every candidate move; the
-- tail it frees lies behind the worm and could only shorten a path that doubles back past its
-- body). A legal move is then scored by the distance of its worm's new head cell: 0 for the hole
-- itself. The smallest distance wins, so the worm nearest the hole goes first and always along a
-- shortest path. A move whose new head cell cannot reach the hole at all (walled in by worms) ranks
-- after every move that can, and among those the one that leaves the worm the most free cells ahead
-- (left, forward, right) wins, to keep it mobile until the way opens. Ties are broken with
-- math.random, which the host seeds from the game's seed: games vary with the seed and still replay
-- exactly.
-- How strong: it races well but never blocks the opponent and never sees a block coming. It beat
-- random in 58 of 60 games on the example maps; worms-search (strategies/rust) beats it in about
-- four games out of five, and in every game in which it moves first.
-- Cost: one search over at most 30x30 cells and a look-up per legal move: fewer than 5,000 budget
-- ticks on the 30x30 map, far below the default 20,000,000.

local M = {}

-- The four directions clockwise from up, as the host numbers them: 1 up, 2 right, 3 down, 4 left.
local ROW_STEP = { -1, 0, 1, 0 }
local COL_STEP = { 0, 1, 0, -1 }
local FACING = { up = 1, right = 2, down = 3, left = 4 }
-- Quarter turns clockwise that each turn makes.
local QUARTERS = { left = 3, forward = 0, right = 1 }
local FREE = string.byte(".")
-- The rank of a move that cannot reach the hole, before its mobility bonus: above any distance.
local UNREACHABLE = 1e6

-- The free cells of the board, keyed by row * width + col (0-based row and column).
local function freeCells(obs: WormsObservation): { [number]: boolean }
	local free = {}
	local width = obs.width
	for r, line in ipairs(obs.board) do
		local bytes = { string.byte(line, 1, width) }
		local base = (r - 1) * width
		for c, byte in ipairs(bytes) do
			if byte == FREE then
				free[base + c - 1] = true
			end
		end
	end
	return free
end

-- The distance to the hole of every free cell that can reach it; cells that cannot are missing.
local function distances(obs: WormsObservation, free: { [number]: boolean }): { [number]: number }
	local width, height = obs.width, obs.height
	local start = obs.hole[1] * width + obs.hole[2]
	local dist = { [start] = 0 }
	local queue = { start }
	local first = 1
	while first <= #queue do
		local cell = queue[first]
		first += 1
		local row, col = cell // width, cell % width
		local further = dist[cell] + 1
		for d = 1, 4 do
			local r, c = row + ROW_STEP[d], col + COL_STEP[d]
			local n = r * width + c
			if r >= 0 and r < height and c >= 0 and c < width and free[n] and not dist[n] then
				dist[n] = further
				table.insert(queue, n)
			end
		end
	end
	return dist
end

-- The free cells (or the hole) a head at (row, col) facing `facing` could enter next.
local function mobility(obs: WormsObservation, free: { [number]: boolean }, row: number, col: number, facing: number): number
	local count = 0
	for _, quarters in ipairs({ 3, 0, 1 }) do
		local d = (facing - 1 + quarters) % 4 + 1
		local r, c = row + ROW_STEP[d], col + COL_STEP[d]
		if r >= 0 and r < obs.height and c >= 0 and c < obs.width then
			if free[r * obs.width + c] or (r == obs.hole[1] and c == obs.hole[2]) then
				count += 1
			end
		end
	end
	return count
end

-- The rank of a move (smaller is better): the new head's distance to the hole, or UNREACHABLE minus
-- the free cells ahead of it.
local function rank(obs: WormsObservation, free, dist, worm: WormsWorm, turn: WormsTurn): number
	local facing = (FACING[worm.direction] - 1 + QUARTERS[turn]) % 4 + 1
	local head = worm.cells[1]
	local row, col = head[1] + ROW_STEP[facing], head[2] + COL_STEP[facing]
	local d = dist[row * obs.width + col]
	if d then
		return d
	end
	return UNREACHABLE - mobility(obs, free, row, col, facing)
end

function M.choose_move(obs: WormsObservation): WormsMove
	local free = freeCells(obs)
	local dist = distances(obs, free)
	local byId = {}
	for _, worm in ipairs(obs.worms) do
		byId[worm.id] = worm
	end
	local best, bestRank = {}, math.huge
	for _, move in ipairs(obs.legal) do
		local r = rank(obs, free, dist, byId[move.worm], move.turn)
		if r < bestRank then
			best, bestRank = { move }, r
		elseif r == bestRank then
			table.insert(best, move)
		end
	end
	return best[math.random(#best)]
end

return M
