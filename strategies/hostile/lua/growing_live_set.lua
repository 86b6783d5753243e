-- Hostile: keeps 1 MiB more alive at every decision (a table of 16 KiB strings it never drops). Its
-- live set passes the cap after some moves: fault `memory`, however much the collector frees.
local M = {}
local kept = {}

function M.choose_move(obs)
	for i = 1, 64 do
		kept[#kept + 1] = string.rep(string.char(65 + i % 26), 16384) .. #kept
	end
	return obs.legal[1]
end

return M
