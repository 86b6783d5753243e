// A Tron bot for botbox in AssemblyScript: a wall hugger. Build: npm install && npm run build (writes
// build/bot.wasm). Check it: botbox check tron . (botbox builds the directory itself).
// Each turn it sees the whole board (docs/tron.md: obs.cell(row, col), width, height, you, opponent)
// and answers Move.North, East, South or West; among the moves that do not crash it takes the one
// whose new cell touches the most walls. The SDK's types are in tron.ts; docs/bots/assemblyscript.md
// has the whole API.
import { FREE, Move, Observation } from "./tron";

// The directions in the order north, east, south, west: their change of row and column.
const DR: StaticArray<i32> = [-1, 0, 1, 0];
const DC: StaticArray<i32> = [0, 1, 0, -1];

function free(obs: Observation, r: i32, c: i32): bool {
  if (r < 0 || c < 0 || r >= <i32>obs.height || c >= <i32>obs.width) return false;
  return obs.cell(r, c) == FREE;
}

export function chooseMove(obs: Observation): Move {
  let best = Move.North;
  let most = -1;
  for (let d = 0; d < 4; d++) {
    const r = <i32>obs.you[0] + DR[d];
    const c = <i32>obs.you[1] + DC[d];
    if (free(obs, r, c)) {
      let walls = 0;
      for (let e = 0; e < 4; e++) {
        if (!free(obs, r + DR[e], c + DC[e])) walls++;
      }
      if (walls > most) {
        best = d;
        most = walls;
      }
    }
  }
  return best;
}
