// Dice (Mensch ärgere Dich nicht, free variant) for botbox's AssemblyScript SDK: the observation, the
// answer, and the module's exports. Your bot (index.ts) writes
// `export function chooseMove(obs: Observation): Move` (one of obs.legal is a Move); this file is the
// build's entry: it decodes each observation (postcard, docs/wasm-abi.md) into one Observation made
// once, calls chooseMove and encodes its answer. Rules: docs/dice.md.
import { BAD_INPUT, readBegin, readBool, readI32, readLength, readU32, readU64, readOk, writeBegin, writeI32, answer } from "./botbox";
export { botbox_alloc, botbox_init, botbox_encoding } from "./botbox";
import * as bot from "./index"; // your functions (after botbox, whose globals they may use)

/** Places, in the player's own steps: waiting off the board (B), the start field A, the goal fields a..d. */
export const WAITING = -1;
export const START = 0;
export const GOAL = 40;
export const LAST = 43;

/** How many faces a die may have here, and pieces or moves a list may hold. */
export const MAX_FACES = 1024;
export const MAX_PIECES = 16;

/** A move: the piece on step `from` (-1 for one brought in from B) to step `to`. The answer. */
export class Move {
  constructor(public from: i32 = 0, public to: i32 = 0) {}
}

/** A legal move as the observation lists it; answer it as it is. */
export class LegalMove extends Move {
  /** Whether it lands on an opponent's piece, sending it back to B. */
  captures: bool = false;
}

export class Observation {
  /** Your seat: 0 plays die A, 1 die B. */
  you: u32 = 0;
  /** Rolls so far in the game, both players', this one not counted. */
  turn: u32 = 0;
  /** The face rolled. */
  face: u64 = 0;
  /** The steps it moves (the face, or 44 for a face too large to move anything). */
  steps: u32 = 0;
  /** Your die's faces and the opponent's; each comes up with equal chance. */
  die: Array<u64> = new Array<u64>(MAX_FACES);
  opponentDie: Array<u64> = new Array<u64>(MAX_FACES);
  /** Your four pieces in your steps, frontmost first (-1 waiting on B). */
  mine: Array<i32> = new Array<i32>(MAX_PIECES);
  /** The opponent's pieces in their steps, frontmost first. */
  theirs: Array<i32> = new Array<i32>(MAX_PIECES);
  /** The opponent's pieces on the shared track as your steps: moving there captures. */
  theirsOnMyTrack: Array<i32> = new Array<i32>(MAX_PIECES);
  /** The legal moves, frontmost piece first. Two or more: you are asked only when there is a choice. */
  legal: Array<LegalMove> = new Array<LegalMove>(MAX_PIECES);
  private moves: StaticArray<LegalMove> = new StaticArray<LegalMove>(MAX_PIECES);

  constructor() {
    for (let i = 0; i < MAX_PIECES; i++) this.moves[i] = new LegalMove();
  }

  /** Decodes the observation from the input (postcard); false if it cannot. */
  read(): bool {
    this.you = readU32();
    this.turn = readU32();
    this.face = readU64();
    this.steps = readU32();
    readFaces(this.die, "die");
    readFaces(this.opponentDie, "opponent_die");
    readSteps(this.mine, "mine");
    readSteps(this.theirs, "theirs");
    readSteps(this.theirsOnMyTrack, "theirs_on_my_track");
    this.legal.length = readLength(MAX_PIECES, "legal");
    for (let i = 0; i < this.legal.length; i++) {
      const m = (this.legal[i] = this.moves[i]); // moves made once, reused
      m.from = readI32();
      m.to = readI32();
      m.captures = readBool();
    }
    return readOk();
  }
}

function readFaces(list: Array<u64>, what: string): void {
  list.length = readLength(MAX_FACES, what);
  for (let i = 0; i < list.length; i++) list[i] = readU64();
}

function readSteps(list: Array<i32>, what: string): void {
  list.length = readLength(MAX_PIECES, what);
  for (let i = 0; i < list.length; i++) list[i] = readI32();
}

/** The opponent's track step (0..39) as your step. */
export function toMySteps(step: i32): i32 {
  return (step + 20) % GOAL;
}

const obs = new Observation();

/** The export the host calls for each move. */
export function choose_move(ptr: usize, len: usize): i64 {
  readBegin(ptr, len);
  if (!obs.read()) return BAD_INPUT;
  const move = bot.chooseMove(obs);
  writeBegin();
  writeI32(move.from);
  writeI32(move.to);
  return answer();
}
