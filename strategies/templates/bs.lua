-- A BS (Cheat) bot for botbox. Check it: botbox check bs bot.lua
-- play(obs): obs.rank is the rank you must claim, obs.hand your card ids (rank = id // 4).
--   Answer a list of 1 to 4 card ids from your hand.
-- call(obs): someone played obs.count cards claiming obs.rank. Answer true to call "BS".
-- observe(event) (optional): every public event, for counting cards.
local M = {}

function M.play(obs)
	local cards = {}
	for _, id in ipairs(obs.hand) do
		if id // 4 == obs.rank and #cards < 4 then
			cards[#cards + 1] = id
		end
	end
	if #cards == 0 then
		cards[1] = obs.hand[1] -- a lie: one card
	end
	return cards
end

function M.call(obs)
	return obs.count >= 3
end

return M
