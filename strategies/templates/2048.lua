-- A 2048 bot for botbox. Check it: botbox check 2048 bot.lua
-- obs: board (rows of tile values, 0 empty), score, moves, legal (the directions that change the board).
-- Answer one of "left", "right", "up", "down". docs/lua-api.md has the whole API (and the g2048
-- module: fast moves on a board for searching).
local M = {}

function M.choose_move(obs)
	for _, dir in ipairs({ "down", "left", "right", "up" }) do
		if table.find(obs.legal, dir) then
			return dir
		end
	end
end

return M
