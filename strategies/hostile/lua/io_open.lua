-- Hostile: tries to read /etc/passwd with io.open in choose_move; `io` is nil in the sandbox, so the host must record fault `error`.
local M = {}

function M.choose_move(obs)
	local file = io.open("/etc/passwd", "r")
	print(file:read("*a"))
	file:close()
	return obs.legal[1]
end

return M
