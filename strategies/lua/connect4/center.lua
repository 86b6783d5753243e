-- center.lua: Connect Four by three rules of thumb, for any board size and line length.
--
-- What it does, in order:
--   1. if a column wins at once, play it;
--   2. if the opponent could win at once in a column, block it (the first such column from the
--      centre, when there are several: the game is lost anyway);
--   3. otherwise play the most central column whose piece does not let the opponent win by dropping
--      a piece on top of it; if every column does, the most central one. Ties between the two
--      columns at the same distance from the centre go to math.random, which the host seeds from the
--      game's seed: games vary with the seed and still replay exactly.
-- It looks one move ahead for itself and one for the opponent, nothing deeper: it walks into a double
-- threat, and it never builds one on purpose.
-- How strong: it beats random.lua in nearly every game; connect4-alphabeta (strategies/rust) beats
-- it in nearly every game.
-- Cost: a few line checks per column, some thousands of budget ticks per move on 7x6, far below
-- the default 20,000,000.

local M = {}

-- The four directions of a line, as (row step, column step); each is also walked backwards.
local DIRECTIONS = { { 0, 1 }, { 1, 0 }, { 1, 1 }, { 1, -1 } }

-- The board as a mutable copy: cells[row * columns + col + 1], row 0 at the top, 0 empty.
local function copyCells(obs: Connect4Observation): { number }
	local cells = table.create(#obs.board)
	for i, mark in ipairs(obs.board) do
		cells[i] = mark
	end
	return cells
end

-- The row (0 at the top) a piece dropped into col lands on, or nil when the column is full.
local function landing(cells: { number }, rows: number, columns: number, col: number): number?
	for row = rows - 1, 0, -1 do
		if cells[row * columns + col + 1] == 0 then
			return row
		end
	end
	return nil
end

-- Whether a piece of mark on (row, col) would be part of a line of inarow (the cell itself is
-- counted as mark, whatever it holds).
local function makesLine(obs: Connect4Observation, cells: { number }, row: number, col: number, mark: number): boolean
	local rows, columns, inarow = obs.rows, obs.columns, obs.inarow
	for _, d in ipairs(DIRECTIONS) do
		local count = 1
		for sign = -1, 1, 2 do
			local r, c = row + sign * d[1], col + sign * d[2]
			while r >= 0 and r < rows and c >= 0 and c < columns and cells[r * columns + c + 1] == mark do
				count += 1
				r += sign * d[1]
				c += sign * d[2]
			end
		end
		if count >= inarow then
			return true
		end
	end
	return false
end

-- The legal columns, most central first; equally central pairs in a random order.
local function byCentre(obs: Connect4Observation): { number }
	local centre = (obs.columns - 1) / 2
	local order = {}
	for _, col in ipairs(obs.legal) do
		table.insert(order, { col = col, distance = math.abs(col - centre), tie = math.random() })
	end
	table.sort(order, function(a, b)
		if a.distance ~= b.distance then
			return a.distance < b.distance
		end
		return a.tie < b.tie
	end)
	local columns = {}
	for i, entry in ipairs(order) do
		columns[i] = entry.col
	end
	return columns
end

function M.choose_move(obs: Connect4Observation): number
	local cells = copyCells(obs)
	local rows, columns = obs.rows, obs.columns
	local me, them = obs.mark, 3 - obs.mark
	local order = byCentre(obs)

	-- 1. A win at once.
	for _, col in ipairs(order) do
		local row = landing(cells, rows, columns, col)
		if row and makesLine(obs, cells, row, col, me) then
			return col
		end
	end
	-- 2. Block the opponent's win at once.
	for _, col in ipairs(order) do
		local row = landing(cells, rows, columns, col)
		if row and makesLine(obs, cells, row, col, them) then
			return col
		end
	end
	-- 3. The most central column that does not open a win for the opponent just above it.
	for _, col in ipairs(order) do
		local row = landing(cells, rows, columns, col)
		if row then
			if row == 0 then
				return col
			end
			cells[row * columns + col + 1] = me
			local gives = makesLine(obs, cells, row - 1, col, them)
			cells[row * columns + col + 1] = 0
			if not gives then
				return col
			end
		end
	end
	return order[1]
end

return M
