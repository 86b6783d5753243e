-- first_key.lua: the 2048 bot of the issue "Same bytes, same seed, same game", as it was reported.
--
-- What it does: keeps its options as table keys and plays the first one `pairs` gives. Luau orders
-- such keys by hash; botbox's Luau hashes a table by its per-game identity, so this bot plays the
-- same game in every run (before, it hashed addresses and the mean score changed from run to run).

local M = {}

function M.choose_move(obs)
	local set = {}
	for _, d in ipairs(obs.legal) do
		set[{ dir = d }] = true
	end
	for k in pairs(set) do
		return k.dir
	end
end

return M
