// Wormworld for botbox's AssemblyScript SDK: the observation, the answer, and the module's exports.
// Your bot (index.ts) writes `export function chooseMove(obs: Observation): Move` (one of obs.legal
// is a Move); this file is the build's entry: it decodes each observation (postcard,
// docs/wasm-abi.md) into one Observation made once, calls chooseMove and encodes its answer.
// Rules: docs/worms.md.
import { BAD_INPUT, Strings, readBegin, readChar, readLength, readU32, readOk, writeBegin, writeU32, answer } from "./botbox";
export { botbox_alloc, botbox_init, botbox_encoding } from "./botbox";
import * as bot from "./index"; // your functions (after botbox, whose globals they may use)

/** How a worm's head moves, relative to the direction it faces. */
export enum Turn { Left, Forward, Right }

/** The direction a worm faces (from its middle cell to its head); up is towards row 0. */
export enum Direction { Up, Right, Down, Left }

/** The direction a worm facing `d` faces after `turn`. */
export function turned(d: Direction, turn: Turn): Direction {
  return (d + (turn == Turn.Left ? 3 : turn == Turn.Right ? 1 : 0)) % 4;
}

/** The step one cell in direction `d`: its change of row and of column. */
export function deltaRow(d: Direction): i32 {
  return d == Direction.Up ? -1 : d == Direction.Down ? 1 : 0;
}
export function deltaCol(d: Direction): i32 {
  return d == Direction.Left ? -1 : d == Direction.Right ? 1 : 0;
}

/** The largest map side (30 x 30), and the most worms (a letter each). */
export const MAX_SIDE = 30;
export const MAX_WORMS = 52;

/** The answer: which of your worms moves (its id) and how its head turns. */
export class Move {
  constructor(public worm: u32 = 0, public turn: Turn = Turn.Forward) {}
}

export class Worm {
  /** Fixed for the whole game. */
  id: u32 = 0;
  /** The seat it belongs to: 0 (player 1) or 1 (player 2). */
  owner: u32 = 0;
  /** Its letter's code (65 for "A"): uppercase for player 1, lowercase for player 2. */
  letter: i32 = 0;
  /** Its three cells as [row, col]: head, middle, tail. */
  cells: StaticArray<StaticArray<u32>> = [[0, 0], [0, 0], [0, 0]];
  /** From the middle cell to the head: where Turn.Forward goes. */
  direction: Direction = Direction.Up;
}

export class Observation {
  /** Your seat: 0 (player 1, uppercase worms) or 1 (player 2, lowercase). */
  you: u32 = 0;
  /** Turns played so far by both players, passes included. */
  turn: u32 = 0;
  /** The game ends when turn reaches this; then fewer worms on the board wins. */
  turnLimit: u32 = 0;
  width: u32 = 0;
  height: u32 = 0;
  /** The board, top row first: see cell(). */
  board: Strings = new Strings(MAX_SIDE, MAX_SIDE);
  /** The hole's cell, [row, col]. */
  hole: StaticArray<u32> = [0, 0];
  /** Every obstacle cell, [row, col], in row-major order. */
  obstacles: Array<StaticArray<u32>> = new Array<StaticArray<u32>>(MAX_SIDE * MAX_SIDE);
  /** The worms still on the board, both players', by id. */
  worms: Array<Worm> = new Array<Worm>(MAX_WORMS);
  /** Your legal moves, by worm id, then left, forward, right. */
  legal: Array<Move> = new Array<Move>(3 * MAX_WORMS);
  // The objects the lists above hold, made once and reused.
  private cellPool: StaticArray<StaticArray<u32>> = new StaticArray<StaticArray<u32>>(MAX_SIDE * MAX_SIDE);
  private wormPool: StaticArray<Worm> = new StaticArray<Worm>(MAX_WORMS);
  private movePool: StaticArray<Move> = new StaticArray<Move>(3 * MAX_WORMS);

  constructor() {
    for (let i = 0; i < this.cellPool.length; i++) this.cellPool[i] = [0, 0];
    for (let i = 0; i < MAX_WORMS; i++) this.wormPool[i] = new Worm();
    for (let i = 0; i < this.movePool.length; i++) this.movePool[i] = new Move();
  }

  /** The character at `row`, `col`: "." free (46), "#" obstacle, "O" the hole, a worm's letter; -1 outside. */
  cell(row: i32, col: i32): i32 {
    return this.board.at(row, col);
  }

  /** Decodes the observation from the input (postcard); false if it cannot. */
  read(): bool {
    this.you = readU32();
    this.turn = readU32();
    this.turnLimit = readU32();
    this.width = readU32();
    this.height = readU32();
    this.board.read("board");
    this.hole[0] = readU32();
    this.hole[1] = readU32();
    this.obstacles.length = readLength(this.cellPool.length, "obstacles");
    for (let i = 0; i < this.obstacles.length; i++) {
      const cell = (this.obstacles[i] = this.cellPool[i]);
      cell[0] = readU32();
      cell[1] = readU32();
    }
    this.worms.length = readLength(MAX_WORMS, "worms");
    for (let i = 0; i < this.worms.length; i++) {
      const w = (this.worms[i] = this.wormPool[i]);
      w.id = readU32();
      w.owner = readU32();
      w.letter = readChar();
      for (let c = 0; c < 3; c++) {
        w.cells[c][0] = readU32();
        w.cells[c][1] = readU32();
      }
      w.direction = readU32();
    }
    this.legal.length = readLength(this.movePool.length, "legal");
    for (let i = 0; i < this.legal.length; i++) {
      const m = (this.legal[i] = this.movePool[i]);
      m.worm = readU32();
      m.turn = readU32();
    }
    return readOk();
  }
}

const obs = new Observation();

/** The export the host calls for each move. */
export function choose_move(ptr: usize, len: usize): i64 {
  readBegin(ptr, len);
  if (!obs.read()) return BAD_INPUT;
  const move = bot.chooseMove(obs);
  writeBegin();
  writeU32(move.worm);
  writeU32(move.turn);
  return answer();
}
