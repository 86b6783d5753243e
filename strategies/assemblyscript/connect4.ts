// Connect Four for botbox's AssemblyScript SDK: the observation, the answer, and the module's exports.
// Your bot (index.ts) writes `export function chooseMove(obs: Observation): u32` (a column); this
// file is the build's entry: it decodes each observation (postcard, docs/wasm-abi.md) into one
// Observation made once, calls chooseMove and encodes its answer. Rules: docs/connect4.md.
import { BAD_INPUT, readBegin, readByte, readLength, readU32, readOk, writeBegin, writeU32, answer } from "./botbox";
export { botbox_alloc, botbox_init, botbox_encoding } from "./botbox";
import * as bot from "./index"; // your functions (after botbox, whose globals they may use)

/** The most cells a board has: botbox keeps (rows + 1) * columns within 64. */
export const MAX_CELLS = 64;

export class Observation {
  /** rows * columns cells, row-major from the top row: 0 empty, 1 or 2 the mark of the piece there. */
  board: Array<u8> = new Array<u8>(MAX_CELLS);
  rows: u32 = 0;
  columns: u32 = 0;
  /** How many in a line win. */
  inarow: u32 = 0;
  /** Your mark: 1 (seat 0, moves first) or 2 (seat 1). */
  mark: u8 = 0;
  /** The columns that are not full, from left to right: the legal answers. Never empty. */
  legal: Array<u32> = new Array<u32>(MAX_CELLS);
  /** Pieces dropped so far by both players. */
  moves: u32 = 0;

  /** The cell at `row` (0 at the top) and `col` (0 at the left): 0, 1 or 2; -1 outside. */
  cell(row: i32, col: i32): i32 {
    if (row < 0 || col < 0 || row >= <i32>this.rows || col >= <i32>this.columns) return -1;
    return this.board[row * this.columns + col];
  }

  opponentMark(): u8 {
    return 3 - this.mark;
  }

  /** Decodes the observation from the input (postcard); false if it cannot. */
  read(): bool {
    this.board.length = readLength(MAX_CELLS, "board");
    for (let i = 0; i < this.board.length; i++) this.board[i] = readByte();
    this.rows = readU32();
    this.columns = readU32();
    this.inarow = readU32();
    this.mark = readByte();
    this.legal.length = readLength(MAX_CELLS, "legal");
    for (let i = 0; i < this.legal.length; i++) this.legal[i] = readU32();
    this.moves = readU32();
    return readOk();
  }
}

const obs = new Observation();

/** The export the host calls for each move. */
export function choose_move(ptr: usize, len: usize): i64 {
  readBegin(ptr, len);
  if (!obs.read()) return BAD_INPUT;
  writeBegin();
  writeU32(bot.chooseMove(obs));
  return answer();
}
