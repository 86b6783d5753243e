-- BS as the contest's controller plays it (prakol16/bs), written in Luau, with the observation tables
-- botbox gives the bots: examples/bs_luau_floor.rs runs it, the floor under hosting Luau bots.
return function(games, b1, b2, b3, b4)
  local bots = {b1, b2, b3, b4}
  local names = table.freeze({"p1", "p2", "p3", "p4"})
  local seed = 12345
  local function rnd(n) -- a small LCG: the floor needs a shuffle, not Java's generator
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed % n
  end
  local wins = {0, 0, 0, 0}
  local decisions = 0
  for g = 1, games do
    local order = {1, 2, 3, 4}
    for i = 4, 2, -1 do local j = rnd(i) + 1; order[i], order[j] = order[j], order[i] end
    local deck = {}
    for i = 0, 51 do deck[i + 1] = i end
    for i = 52, 2, -1 do local j = rnd(i) + 1; deck[i], deck[j] = deck[j], deck[i] end
    local hands = {{}, {}, {}, {}}
    for s = 1, 4 do for i = 1, 13 do hands[s][i] = deck[(s - 1) * 13 + i] end end
    local pile = {}
    local rank, turn, round, winner = 0, 0, 0, nil
    while not winner and round < 1000 do
      for s = 1, 4 do
        local hand = hands[s]
        local sizes = {#hands[1], #hands[2], #hands[3], #hands[4]}
        local h = table.clone(hand)
        local played = bots[order[s]].play({you = s - 1, players = names, round = round, turn = turn,
          rank = rank, hand = h, hand_sizes = sizes, pile = #pile})
        decisions += 1
        local lie = false
        for _, c in ipairs(played) do
          if c // 4 ~= rank then lie = true end
          table.insert(pile, c)
          table.remove(hand, table.find(hand, c))
        end
        local callers = {}
        for o = 1, 4 do
          if o ~= s then
            local f = bots[order[o]].call
            local called = f({you = o - 1, players = names, round = round, turn = turn, player = s - 1,
              rank = rank, count = #played, player_hand = #hand, pile = #pile, hand = table.clone(hands[o]),
              hand_sizes = {#hands[1], #hands[2], #hands[3], #hands[4]}})
            decisions += 1
            if called then table.insert(callers, o) end
          end
        end
        if #callers > 0 then
          local c = callers[rnd(#callers) + 1]
          if lie then
            for _, x in ipairs(pile) do table.insert(hand, x) end
            pile = {}
            local ch = hands[c]
            if #ch > 0 then table.insert(pile, table.remove(ch, rnd(#ch) + 1)) end
          else
            for _, x in ipairs(pile) do table.insert(hands[c], x) end
            pile = {}
          end
        end
        rank = (rank + 1) % 13
        turn += 1
        for w = 1, 4 do if #hands[w] == 0 then winner = w end end
        if winner then break end
      end
      round += 1
    end
    if winner then wins[order[winner]] += 1 end
  end
  return string.format("wins %d %d %d %d, %.1f decisions a game", wins[1], wins[2], wins[3], wins[4], decisions / games)
end
