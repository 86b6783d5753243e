-- Hostile: calls string.gsub with a replacement function that loops forever (the loop runs inside a C library call). The host must stop it and record fault `budget`.
local M = {}

function M.choose_move(obs)
	local text = string.rep("2048 ", 1000)
	local replaced = string.gsub(text, "%d+", function(_digits)
		while true do
		end
		return "x"
	end)
	return obs.legal[1]
end

return M
