-- Hostile: tries os.execute("touch /tmp/botbox-pwned") in choose_move; `os` is nil in the sandbox, so the host must record fault `error` (and /tmp/botbox-pwned must not exist).
local M = {}

function M.choose_move(obs)
	os.execute("touch /tmp/botbox-pwned")
	return obs.legal[1]
end

return M
