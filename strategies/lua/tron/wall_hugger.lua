-- Tron: a wall hugger. Among the moves that do not crash, it takes the one whose new cell touches
-- the most walls, so it coils along the edges and its own trail and leaves the open space whole.
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
    local best, most = "north", -1
    for _, d in ipairs(DIRS) do
      local r, c = obs.you[1] + d.dr, obs.you[2] + d.dc
      if free(obs, r, c) then
        local walls = 0
        for _, e in ipairs(DIRS) do
          if not free(obs, r + e.dr, c + e.dc) then
            walls = walls + 1
          end
        end
        if walls > most then
          best, most = d.name, walls
        end
      end
    end
    return best
  end,
}
