-- Hostile: tries require("os") and then require("./x") in choose_move; `require` is nil in the sandbox (no file or module loading), so the host must record fault `error`.
local M = {}

function M.choose_move(obs)
	local ok, os_module = pcall(require, "os")
	if ok and type(os_module) == "table" then
		os_module.execute("touch /tmp/botbox-pwned")
	end
	local x = require("./x") -- unprotected: this is the error the host records
	return x.choose_move(obs)
end

return M
