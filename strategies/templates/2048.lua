-- A 2048 bot for botbox. Check it: botbox check 2048 bot.lua
-- obs: board (rows of tile values, 0 empty), score, moves, legal (the directions that change the board).
-- Answer one of "left", "right", "up", "down". docs/lua-api.md has the whole API (and the g2048
-- module: fast moves on a board for searching).
local M = {}

-- How many merges a move would make: equal tiles meeting along its lines, empty cells between them
-- or not (rows for left and right, columns for up and down).
local function merges(board, dir)
	local n, count = #board, 0
	for i = 1, n do
		local last = 0
		for j = 1, n do
			local v = board[i][j]
			if dir == "up" or dir == "down" then
				v = board[j][i]
			end
			if v ~= 0 then
				if v == last then
					count = count + 1
					last = 0
				else
					last = v
				end
			end
		end
	end
	return count
end

function M.choose_move(obs)
	-- Keep the big tiles in the bottom-left corner: down or left, whichever merges more (down on a
	-- tie); right if neither is legal; up only when nothing else is.
	local down, left = table.find(obs.legal, "down"), table.find(obs.legal, "left")
	if down and left then
		if merges(obs.board, "left") > merges(obs.board, "down") then
			return "left"
		end
		return "down"
	end
	if down then
		return "down"
	end
	if left then
		return "left"
	end
	if table.find(obs.legal, "right") then
		return "right"
	end
	return "up"
end

return M
