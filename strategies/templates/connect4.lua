-- A Connect Four bot for botbox. Check it: botbox check connect4 bot.lua
-- obs: board (rows * columns cells from the top row, 0 empty, 1 or 2 a mark), rows, columns,
-- inarow, mark (yours), legal (the open columns, from 0). Answer a column number.
local M = {}

function M.choose_move(obs)
	-- The open column nearest the centre.
	local centre = (obs.columns - 1) / 2
	local best = obs.legal[1]
	for _, col in ipairs(obs.legal) do
		if math.abs(col - centre) < math.abs(best - centre) then
			best = col
		end
	end
	return best
end

return M
