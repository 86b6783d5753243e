-- Hostile: resumes a coroutine that loops forever, then returns a legal move as if nothing happened (resume catches the error). The budget must cover coroutines and stay exceeded: fault `budget`.
local M = {}

function M.choose_move(obs)
	local co = coroutine.create(function()
		while true do
		end
	end)
	coroutine.resume(co)
	return obs.legal[1]
end

return M
