-- Hostile: tries to run precompiled bytecode ("\27Lua..." header) through loadstring or load in choose_move; both are nil in the sandbox (and text mode would refuse it anyway), so the host must record fault `error`.
local M = {}

-- A Lua 5.1 bytecode header followed by junk: the kind of input that crashes an unguarded VM.
local CHUNK = "\27LuaQ\0\1\4\8\4\8\0" .. string.rep("\255\0\127\128", 64)

function M.choose_move(obs)
	local loader = loadstring or load
	local f = loader(CHUNK, "=bytecode", "b")
	f()
	return obs.legal[1]
end

return M
