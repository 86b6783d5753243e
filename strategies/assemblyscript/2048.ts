// 2048 for botbox's AssemblyScript SDK: the observation, the answer, and the module's exports.
// Your bot (index.ts) writes `export function chooseMove(obs: Observation): Direction`; this file is
// the build's entry: it decodes each observation (postcard, docs/wasm-abi.md) into one Observation
// made once, calls chooseMove and encodes its answer. Rules: docs/2048.md.
import { BAD_INPUT, readBegin, readLength, readU32, readU64, readOk, writeBegin, writeU32, answer } from "./botbox";
export { botbox_alloc, botbox_init, botbox_encoding } from "./botbox";
import * as bot from "./index"; // your functions (after botbox, whose globals they may use)

/** A move; the host numbers them 0 left, 1 right, 2 up, 3 down. */
export enum Direction { Left, Right, Up, Down }

/** The largest board side botbox plays (`--size 3` to `8`; 4 by default). */
export const MAX_SIDE = 8;

export class Observation {
  /** The board as rows from top to bottom, each from left to right: tile values (2, 4, ...), 0 empty. */
  board: Array<Array<u32>> = new Array<Array<u32>>(MAX_SIDE);
  /** The sum of the values of all tiles produced by merges so far. */
  score: u64 = 0;
  /** The number of moves made so far. */
  moves: u32 = 0;
  /** The moves that change the board, in the order left, right, up, down. Never empty. */
  legal: Array<Direction> = new Array<Direction>(4);

  private rows: StaticArray<Array<u32>> = new StaticArray<Array<u32>>(MAX_SIDE);

  constructor() {
    for (let i = 0; i < MAX_SIDE; i++) this.rows[i] = new Array<u32>(MAX_SIDE);
  }

  /** Decodes the observation from the input (postcard); false if it cannot. */
  read(): bool {
    this.board.length = readLength(MAX_SIDE, "board");
    for (let i = 0; i < this.board.length; i++) {
      const row = (this.board[i] = this.rows[i]); // rows made once, reused
      row.length = readLength(MAX_SIDE, "a board row");
      for (let j = 0; j < row.length; j++) row[j] = readU32();
    }
    this.score = readU64();
    this.moves = readU32();
    this.legal.length = readLength(4, "legal");
    for (let i = 0; i < this.legal.length; i++) this.legal[i] = readU32();
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
