-- Hostile: tries debug.sethook (to disable the limits) and debug.getinfo in choose_move; `debug` is nil in the sandbox, so the host must record fault `error`.
local M = {}

function M.choose_move(obs)
	pcall(function()
		debug.sethook(function() end, "", 1000000000)
	end)
	local info = debug.getinfo(1, "S") -- unprotected: this is the error the host records
	print(info.source)
	return obs.legal[1]
end

return M
