-- Tron: a searching rider. For each move that does not crash it counts the cells it could still
-- reach from there (a flood fill, the cells next to the other head counted as taken, since the other
-- may move there), and takes the move with the most room; between equals it stays near walls.
local DIRS = {
  { name = "north", dr = -1, dc = 0 },
  { name = "east", dr = 0, dc = 1 },
  { name = "south", dr = 1, dc = 0 },
  { name = "west", dr = 0, dc = -1 },
}

local function grid(obs)
  local g = {}
  for r = 0, obs.height - 1 do
    local row = obs.rows[r + 1]
    for c = 0, obs.width - 1 do
      g[r * obs.width + c] = row:sub(c + 1, c + 1) == "."
    end
  end
  -- The other may step next to its head this turn: count those cells as taken.
  for _, d in ipairs(DIRS) do
    local r, c = obs.opponent[1] + d.dr, obs.opponent[2] + d.dc
    if r >= 0 and c >= 0 and r < obs.height and c < obs.width then
      g[r * obs.width + c] = false
    end
  end
  return g
end

local function open(obs, g, r, c)
  return r >= 0 and c >= 0 and r < obs.height and c < obs.width and g[r * obs.width + c]
end

-- How many cells are reachable from (r, c), that cell included.
local function room(obs, g, r, c)
  local seen = { [r * obs.width + c] = true }
  local queue, head, count = { { r, c } }, 1, 0
  while head <= #queue do
    local cell = queue[head]
    head = head + 1
    count = count + 1
    for _, d in ipairs(DIRS) do
      local nr, nc = cell[1] + d.dr, cell[2] + d.dc
      local key = nr * obs.width + nc
      if open(obs, g, nr, nc) and not seen[key] then
        seen[key] = true
        table.insert(queue, { nr, nc })
      end
    end
  end
  return count
end

local function walls_around(obs, g, r, c)
  local n = 0
  for _, d in ipairs(DIRS) do
    if not open(obs, g, r + d.dr, c + d.dc) then
      n = n + 1
    end
  end
  return n
end

return {
  choose_move = function(obs)
    local g = grid(obs)
    local best, best_room, best_walls = nil, -1, -1
    for _, d in ipairs(DIRS) do
      local r, c = obs.you[1] + d.dr, obs.you[2] + d.dc
      local here = obs.rows[r + 1] and obs.rows[r + 1]:sub(c + 1, c + 1)
      if r >= 0 and c >= 0 and r < obs.height and c < obs.width and here == "." then
        local space = open(obs, g, r, c) and room(obs, g, r, c) or 0
        local walls = walls_around(obs, g, r, c)
        if space > best_room or (space == best_room and walls > best_walls) then
          best, best_room, best_walls = d.name, space, walls
        end
      end
    end
    return best or "north"
  end,
}
