// A 2048 bot for botbox in AssemblyScript. Build: npm install && npm run build (writes build/bot.wasm).
// Check it: botbox check 2048 . (botbox builds the directory itself).
// obs: board (rows of tile values, 0 empty), score, moves, legal (the directions that change the board).
// Answer one of Direction.Left, Right, Up, Down. The SDK's types are in 2048.ts; docs/bots/assemblyscript.md
// has the whole API (logging, the seed, keeping state).
import { Direction, Observation } from "./2048";

// Boards made once and reused by every decision: the tiles of an n x n board, row by row (row r,
// column c at r * n + c). 64 cells hold the largest, 8 x 8 (MAX_SIDE in 2048.ts, which cannot size
// these: it imports this file before it sets its constants).
const CELLS = 64;
const board = new StaticArray<u32>(CELLS); // the observation's board
const after = new StaticArray<u32>(CELLS); // after the first move
const next = new StaticArray<u32>(CELLS); // after the second
// The moves tried first (up only when none of these is legal), and second.
const FIRST: StaticArray<Direction> = [Direction.Down, Direction.Left, Direction.Right];
const SECOND: StaticArray<Direction> = [
  Direction.Down,
  Direction.Left,
  Direction.Right,
  Direction.Up,
];

// Where the k-th cell of a line is (both from 0), counted from the side its tiles slide to (lines
// are rows for left and right, columns for up and down): its index in a board.
function cell(n: i32, dir: Direction, line: i32, k: i32): i32 {
  if (dir == Direction.Left) return line * n + k;
  if (dir == Direction.Right) return line * n + (n - 1 - k);
  if (dir == Direction.Up) return k * n + line;
  return (n - 1 - k) * n + line;
}

// The board after a move, written to out (without the tile that appears after it); whether anything
// moved.
function slide(from: StaticArray<u32>, n: i32, dir: Direction, out: StaticArray<u32>): bool {
  let moved = false;
  for (let line = 0; line < n; line++) {
    for (let k = 0; k < n; k++) out[cell(n, dir, line, k)] = 0;
    let filled = 0; // cells filled so far
    let last: u32 = 0; // the last tile placed, while it may merge
    for (let k = 0; k < n; k++) {
      const v = from[cell(n, dir, line, k)];
      if (v == 0) continue;
      if (v == last) {
        out[cell(n, dir, line, filled - 1)] = v * 2;
        last = 0;
        moved = true;
      } else {
        out[cell(n, dir, line, filled)] = v;
        if (filled != k) moved = true;
        filled++;
        last = v;
      }
    }
  }
  return moved;
}

// How good a board looks: each tile's value times its distance in rows and columns from the top
// right corner (big tiles belong in the bottom left), and 64 for every empty cell.
function value(b: StaticArray<u32>, n: i32): i64 {
  let sum: i64 = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const v = b[i * n + j];
      sum += v == 0 ? 64 : <i64>v * <i64>(i + n - 1 - j);
    }
  }
  return sum;
}

// Two moves ahead, ignoring the tiles that appear: the best value the board can reach after one
// more move; a board that no move changes is a dead end and counts below every other.
function ahead(b: StaticArray<u32>, n: i32): i64 {
  let best = value(b, n) - 1_000_000_000_000;
  for (let d = 0; d < SECOND.length; d++) {
    if (slide(b, n, SECOND[d], next)) {
      const v = value(next, n);
      if (v > best) best = v;
    }
  }
  return best;
}

export function chooseMove(obs: Observation): Direction {
  // Down, left or right, whichever leads furthest (down, then left, on a tie); up only when none
  // of them is legal.
  const n = obs.board.length;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) board[i * n + j] = obs.board[i][j];
  }
  let best = Direction.Up;
  let bestValue = i64.MIN_VALUE;
  for (let d = 0; d < FIRST.length; d++) {
    const dir = FIRST[d];
    if (!obs.legal.includes(dir)) continue;
    slide(board, n, dir, after);
    const v = ahead(after, n);
    if (v > bestValue) {
      best = dir;
      bestValue = v;
    }
  }
  return best;
}
