-- Mensch ärgere Dich nicht, free variant: always move the frontmost piece that can move.
-- This is the competition's strict rule as a strategy: the host lists legal moves frontmost first,
-- so it takes the first. With the same seed it plays exactly the games `botbox dice` counts.
return {
  choose_move = function(obs)
    return obs.legal[1]
  end,
}
