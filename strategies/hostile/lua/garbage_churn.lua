-- Honest but wasteful: at every decision it builds and drops `params.mib` MiB (default 96, three
-- times the default cap) of small tables, keeping almost nothing alive. Garbage is not live memory:
-- the host must never record fault `memory` for it. It then plays the first legal move.
local M = {}
local mib = 96

function M.init(setup)
	if setup.params and setup.params.mib then
		mib = setup.params.mib
	end
end

function M.choose_move(obs)
	-- About 64 bytes per table of two fields: 16384 tables make a MiB.
	local kept = nil
	for _ = 1, mib * 16384 do
		kept = { 1, kept ~= nil }
	end
	return obs.legal[1]
end

return M
