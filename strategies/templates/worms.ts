// A Wormworld bot for botbox in AssemblyScript. Build: npm install && npm run build (writes
// build/bot.wasm). Check it: botbox check worms . (botbox builds the directory itself).
// obs: you, board (obs.cell(row, col)), hole, worms (id, owner, cells, direction), legal (each
// {worm, turn}). Answer one of obs.legal: a Move {worm, turn: Turn.Left | Forward | Right}.
// The SDK's types are in worms.ts; docs/bots/assemblyscript.md has the whole API.
import { Move, Observation, deltaCol, deltaRow, turned } from "./worms";

export function chooseMove(obs: Observation): Move {
  // The move whose worm's new head lands nearest the hole (straight-line steps, walls ignored).
  let best = obs.legal[0];
  let bestD = i32.MAX_VALUE;
  for (let i = 0; i < obs.legal.length; i++) {
    const m = obs.legal[i];
    for (let j = 0; j < obs.worms.length; j++) {
      const w = obs.worms[j];
      if (w.id == m.worm) {
        const dir = turned(w.direction, m.turn);
        const row = <i32>w.cells[0][0] + deltaRow(dir);
        const col = <i32>w.cells[0][1] + deltaCol(dir);
        const d = abs(row - <i32>obs.hole[0]) + abs(col - <i32>obs.hole[1]);
        if (d < bestD) {
          best = m;
          bestD = d;
        }
      }
    }
  }
  return best;
}
