-- Hostile: a plain `string.find` of a 6 MiB needle that almost matches everywhere in a 12 MiB
-- haystack: Luau's search compares up to 6 MiB at each of 12 million places inside one C call,
-- without an interrupt. The host charges #haystack * #needle bytes before the call: fault `budget`.
local M = {}

function M.choose_move(obs)
	local haystack = string.rep("a", 12 * 1024 * 1024)
	local needle = string.rep("a", 6 * 1024 * 1024) .. "b"
	string.find(haystack, needle, 1, true)
	return obs.legal[1]
end

return M
