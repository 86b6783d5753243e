// Tron light cycles for botbox's AssemblyScript SDK: the observation, the answer, and the module's
// exports. Your bot (index.ts) writes `export function chooseMove(obs: Observation): Move`; this file
// is the build's entry: it decodes each observation (postcard, docs/wasm-abi.md) into one Observation
// made once, calls chooseMove and encodes its answer. Rules: docs/tron.md.
import { BAD_INPUT, Strings, readBegin, readU32, readOk, writeBegin, writeU32, answer } from "./botbox";
export { botbox_alloc, botbox_init, botbox_encoding } from "./botbox";
import * as bot from "./index"; // your functions (after botbox, whose globals they may use)

/** Where your head moves; north is towards the top row. */
export enum Move { North, East, South, West }

/** The largest board side (docs/tron.md: 3 to 100). */
export const MAX_SIDE = 100;

/** The board's characters: a wall (the map's or a trail), a free cell; the heads are "1" and "2". */
export const WALL: i32 = 0x23; // '#'
export const FREE: i32 = 0x2e; // '.'

export class Observation {
  /** The board, top row first: see cell(). */
  rows: Strings = new Strings(MAX_SIDE, MAX_SIDE);
  width: u32 = 0;
  height: u32 = 0;
  /** Your head, [row, column], both from 0 at the top left. */
  you: StaticArray<u32> = new StaticArray<u32>(2);
  /** The opponent's head. */
  opponent: StaticArray<u32> = new StaticArray<u32>(2);
  /** Your mark on the board: 1 (seat 0) or 2 (seat 1). */
  player: u32 = 0;
  /** Turns played so far. */
  turn: u32 = 0;

  /** The character at `row`, `col` (WALL, FREE, or 0x31 / 0x32 for "1" / "2"), or -1 outside. */
  cell(row: i32, col: i32): i32 {
    return this.rows.at(row, col);
  }

  /** Decodes the observation from the input (postcard); false if it cannot. */
  read(): bool {
    this.rows.read("rows");
    this.width = readU32();
    this.height = readU32();
    this.you[0] = readU32();
    this.you[1] = readU32();
    this.opponent[0] = readU32();
    this.opponent[1] = readU32();
    this.player = readU32();
    this.turn = readU32();
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
