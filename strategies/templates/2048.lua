-- A 2048 bot for botbox. Check it: botbox check 2048 bot.lua
-- obs: board (rows of tile values, 0 empty), score, moves, legal (the directions that change the board).
-- Answer one of "left", "right", "up", "down". docs/lua-api.md has the whole API (and the g2048
-- module: fast moves on a board for searching).
local M = {}

-- Row and column of the k-th cell of a line, counted from the side its tiles slide to (lines are
-- rows for left and right, columns for up and down).
local function cell(n, dir, line, k)
	if dir == "left" then
		return line, k
	elseif dir == "right" then
		return line, n + 1 - k
	elseif dir == "up" then
		return k, line
	end
	return n + 1 - k, line
end

-- The board after a move (without the tile that appears after it), and whether anything moved.
local function slide(board, dir)
	local n, out, moved = #board, {}, false
	for i = 1, n do
		out[i] = table.create(n, 0)
	end
	for line = 1, n do
		local filled, last = 0, 0 -- cells filled so far; the last tile placed, while it may merge
		for k = 1, n do
			local r, c = cell(n, dir, line, k)
			local v = board[r][c]
			if v ~= 0 then
				if v == last then
					r, c = cell(n, dir, line, filled)
					out[r][c] = v * 2
					last = 0
				else
					filled += 1
					r, c = cell(n, dir, line, filled)
					out[r][c] = v
					last = v
				end
				moved = moved or filled ~= k
			end
		end
	end
	return out, moved
end

-- How good a board looks: each tile's value times its distance in rows and columns from the top
-- right corner (big tiles belong in the bottom left), and 64 for every empty cell.
local function value(board)
	local n, sum = #board, 0
	for i = 1, n do
		for j = 1, n do
			local v = board[i][j]
			sum += if v == 0 then 64 else v * (i - 1 + n - j)
		end
	end
	return sum
end

-- Two moves ahead, ignoring the tiles that appear: the best value the board can reach after one
-- more move; a board that no move changes is a dead end and counts below every other.
local function ahead(board)
	local best = value(board) - 1e12
	for _, dir in ipairs({ "down", "left", "right", "up" }) do
		local next, moved = slide(board, dir)
		if moved then
			best = math.max(best, value(next))
		end
	end
	return best
end

function M.choose_move(obs)
	-- Down, left or right, whichever leads furthest (down, then left, on a tie); up only when none
	-- of them is legal.
	local best, bestValue = "up", -math.huge
	for _, dir in ipairs({ "down", "left", "right" }) do
		if table.find(obs.legal, dir) then
			local v = ahead((slide(obs.board, dir)))
			if v > bestValue then
				best, bestValue = dir, v
			end
		end
	end
	return best
end

return M
