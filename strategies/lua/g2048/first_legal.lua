-- first_legal.lua: the smallest possible 2048 strategy. It plays the first legal move, in the order
-- left, right, up, down. Weak, but it never faults: a template to start from.
local M = {}

function M.choose_move(obs)
  return obs.legal[1]
end

return M
