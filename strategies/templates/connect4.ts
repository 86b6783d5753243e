// A Connect Four bot for botbox in AssemblyScript. Build: npm install && npm run build (writes
// build/bot.wasm). Check it: botbox check connect4 . (botbox builds the directory itself).
// obs: board (rows * columns cells from the top row, 0 empty, 1 or 2 a mark), rows, columns,
// inarow, mark (yours), legal (the open columns, from 0). Answer a column number.
// The SDK's types are in connect4.ts; docs/bots/assemblyscript.md has the whole API.
import { Observation } from "./connect4";

export function chooseMove(obs: Observation): u32 {
  // The open column nearest the centre.
  const centre = (<f64>obs.columns - 1) / 2;
  let best = obs.legal[0];
  for (let i = 0; i < obs.legal.length; i++) {
    const col = obs.legal[i];
    if (Math.abs(<f64>col - centre) < Math.abs(<f64>best - centre)) best = col;
  }
  return best;
}
