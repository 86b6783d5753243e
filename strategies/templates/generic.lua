-- A bot for botbox. `botbox games` lists the functions the game asks for.
local M = {}

function M.choose_move(obs)
	return obs.legal[1]
end

return M
