-- safety_first.lua: Mensch ärgere Dich nicht, free variant: land where the opponent cannot hit.
--
-- What it does: looks at the position after each legal move and asks whether the landing field can
-- be hit by the opponent with one roll of their die. A landing field on my step s (0..39) is
-- threatened when
--   * an opponent piece on the shared track (obs.theirs_on_my_track, minus the one this move
--     captures) stands d fields behind it, counted along the opponent's way, for some face d of
--     obs.opponent_die (faces of 0 or above 43 move nothing; an opponent piece never wraps past its
--     own step 39, it turns into its goal there), or
--   * s is 20, the opponent's start field A, the opponent's die has a 6 and the opponent has a piece
--     on B (counting the piece this move captures): a piece brought in lands there.
-- Goal fields (40..43) are always safe. The opponent's obligations are ignored: "can be hit" means
-- some piece could reach the field, not that the rules would let it.
-- The moves are ranked by, in this order:
--   1. safe landing field before a threatened one;
--   2. a capture before a move that captures nothing;
--   3. the larger landing step `to` (progress: goal moves come first among safe non-captures);
--   4. the order of obs.legal (frontmost first).
-- How strong: it avoids most cheap losses and takes captures when they are safe; it never weighs
-- how much progress a threatened piece stands to lose, nor what its own move leaves behind.
-- Cost: at most four moves times four opponent pieces: negligible.

local M = {}

function M.choose_move(obs: DiceObservation): DiceMove
	local legal = obs.legal
	-- The steps the opponent's die can move (1..43), and whether one of them is a 6.
	local canMove: { [number]: boolean } = {}
	for _, face in ipairs(obs.opponent_die) do
		if face >= 1 and face <= 43 then
			canMove[face] = true
		end
	end
	local waiting = 0
	for _, s in ipairs(obs.theirs) do
		if s == -1 then
			waiting += 1
		end
	end

	-- Whether my step s can be hit after a move that captured the piece on `captured` (or nil).
	local function threatened(s: number, captured: number?): boolean
		if s >= 40 then
			return false
		end
		local theirWaiting = waiting + (if captured then 1 else 0)
		if s == 20 and theirWaiting > 0 and canMove[6] then
			return true
		end
		-- The field in the opponent's own steps.
		local target = (s + 20) % 40
		for _, t in ipairs(obs.theirs_on_my_track) do
			if t ~= captured then
				local d = target - (t + 20) % 40
				if d > 0 and canMove[d] then
					return true
				end
			end
		end
		return false
	end

	local best, bestKey = legal[1], -math.huge
	for _, mv in ipairs(legal) do
		local safe = not threatened(mv.to, if mv.captures then mv.to else nil)
		-- One number orders by safety, then capture, then landing step (0..43).
		local key = (if safe then 1000 else 0) + (if mv.captures then 100 else 0) + mv.to
		if key > bestKey then
			best, bestKey = mv, key
		end
	end
	return best
end

return M
