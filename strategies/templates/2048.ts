// A 2048 bot for botbox in AssemblyScript. Build: npm install && npm run build (writes build/bot.wasm).
// Check it: botbox check 2048 . (botbox builds the directory itself).
// obs: board (rows of tile values, 0 empty), score, moves, legal (the directions that change the board).
// Answer one of Direction.Left, Right, Up, Down. The SDK's types are in 2048.ts; docs/bots/assemblyscript.md
// has the whole API (logging, the seed, keeping state).
import { Direction, Observation } from "./2048";

// How many merges a move would make: equal tiles meeting along its lines, empty cells between them
// or not (rows for left and right, columns for up and down).
function merges(board: Array<Array<u32>>, dir: Direction): i32 {
  const n = board.length;
  let count = 0;
  for (let i = 0; i < n; i++) {
    let last: u32 = 0;
    for (let j = 0; j < n; j++) {
      const v = dir == Direction.Up || dir == Direction.Down ? board[j][i] : board[i][j];
      if (v != 0) {
        if (v == last) {
          count++;
          last = 0;
        } else {
          last = v;
        }
      }
    }
  }
  return count;
}

export function chooseMove(obs: Observation): Direction {
  // Keep the big tiles in the bottom-left corner: down or left, whichever merges more (down on a
  // tie); right if neither is legal; up only when nothing else is.
  const down = obs.legal.includes(Direction.Down);
  const left = obs.legal.includes(Direction.Left);
  if (down && left) {
    if (merges(obs.board, Direction.Left) > merges(obs.board, Direction.Down)) return Direction.Left;
    return Direction.Down;
  }
  if (down) return Direction.Down;
  if (left) return Direction.Left;
  if (obs.legal.includes(Direction.Right)) return Direction.Right;
  return Direction.Up;
}
