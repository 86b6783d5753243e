-- Tron: a random rider. Each turn it picks at random among the moves that do not run into a wall,
-- the edge or the other head, and goes north when there is none.
local DIRS = {
  { name = "north", dr = -1, dc = 0 },
  { name = "east", dr = 0, dc = 1 },
  { name = "south", dr = 1, dc = 0 },
  { name = "west", dr = 0, dc = -1 },
}

local function free(obs, r, c)
  if r < 0 or c < 0 or r >= obs.height or c >= obs.width then
    return false
  end
  return obs.rows[r + 1]:sub(c + 1, c + 1) == "."
end

return {
  choose_move = function(obs)
    local safe = {}
    for _, d in ipairs(DIRS) do
      if free(obs, obs.you[1] + d.dr, obs.you[2] + d.dc) then
        table.insert(safe, d.name)
      end
    end
    if #safe == 0 then
      return "north"
    end
    return safe[math.random(#safe)]
  end,
}
