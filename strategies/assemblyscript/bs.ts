// BS (Cheat) for botbox's AssemblyScript SDK: the observations, the event, and the module's exports.
// Your bot (index.ts) writes `export function play(obs: PlayObservation): Array<u32>` (the card ids
// to play), `export function call(obs: CallObservation): bool` (whether to call "BS") and, if it
// tracks the game, `export function observe(event: Event): void`. This file is the build's entry: it
// decodes each input (postcard, docs/wasm-abi.md) into objects made once, calls your function and
// encodes its answer. Rules: docs/bs.md.
import { BAD_INPUT, Strings, readBegin, readBool, readLength, readU32, readOk, writeBegin, writeBool, writeU32, answer } from "./botbox";
export { botbox_alloc, botbox_init, botbox_encoding } from "./botbox";
import * as bot from "./index"; // your functions (after botbox, whose globals they may use)

/** Cards have ids 0 to 51; a card's rank is id / 4. */
export const CARDS = 52;
export const RANKS = 13;
export const PLAYERS = 4;

export function rank(id: u32): u32 {
  return id / 4;
}

/** What you see when you must play: put one or more of your cards down, claiming rank `rank`. */
export class PlayObservation {
  /** Your seat, 0 to 3. */
  you: u32 = 0;
  /** The strategies' names by seat: players.get(i) is seat i's. */
  players: Strings = new Strings(8, 256);
  /** Rounds completed so far (one turn of each seat). */
  round: u32 = 0;
  /** The turn's number, from 0. */
  turn: u32 = 0;
  /** The required rank. */
  rank: u32 = 0;
  /** Your hand: card ids in hand order. */
  hand: Array<u32> = new Array<u32>(CARDS);
  /** Every seat's hand size, by seat. */
  handSizes: Array<u32> = new Array<u32>(8);
  /** Cards on the pile. */
  pile: u32 = 0;

  read(): bool {
    this.you = readU32();
    this.players.read("players");
    this.round = readU32();
    this.turn = readU32();
    this.rank = readU32();
    readCards(this.hand, "hand");
    readCards(this.handSizes, "hand_sizes");
    this.pile = readU32();
    return readOk();
  }
}

/** What you see when asked whether to call "BS" on `player`'s play of `count` cards. */
export class CallObservation {
  you: u32 = 0;
  players: Strings = new Strings(8, 256);
  round: u32 = 0;
  turn: u32 = 0;
  /** The seat that played. */
  player: u32 = 0;
  /** The claimed rank. */
  rank: u32 = 0;
  /** How many cards were played. */
  count: u32 = 0;
  /** The player's hand size after the play. */
  playerHand: u32 = 0;
  /** Cards on the pile, the played ones included. */
  pile: u32 = 0;
  hand: Array<u32> = new Array<u32>(CARDS);
  handSizes: Array<u32> = new Array<u32>(8);

  read(): bool {
    this.you = readU32();
    this.players.read("players");
    this.round = readU32();
    this.turn = readU32();
    this.player = readU32();
    this.rank = readU32();
    this.count = readU32();
    this.playerHand = readU32();
    this.pile = readU32();
    readCards(this.hand, "hand");
    readCards(this.handSizes, "hand_sizes");
    return readOk();
  }
}

export enum EventKind { Play, NoCall, Call, RoundEnd }

/** A public event; which fields are set depends on `kind` (the others are 0). */
export class Event {
  kind: EventKind = EventKind.Play;
  turn: u32 = 0;
  /** The seat that played. */
  player: u32 = 0;
  /** Play: the claimed rank, how many cards, the player's hand size and the pile after the play. */
  rank: u32 = 0;
  count: u32 = 0;
  handSize: u32 = 0;
  pile: u32 = 0;
  /** Call: who called, whether the play was a lie, the played cards (revealed), who took the pile
   * and how many cards, and whether the caller of a lie put a card of their own down as the new pile. */
  caller: u32 = 0;
  lie: bool = false;
  cards: Array<u32> = new Array<u32>(CARDS);
  taker: u32 = 0;
  taken: u32 = 0;
  reward: bool = false;
  /** RoundEnd: rounds complete. */
  round: u32 = 0;

  read(): bool {
    this.kind = readU32();
    this.turn = this.player = this.rank = this.count = this.handSize = this.pile = 0;
    this.caller = this.taker = this.taken = this.round = 0;
    this.lie = this.reward = false;
    this.cards.length = 0;
    if (this.kind == EventKind.RoundEnd) {
      this.round = readU32();
      return readOk();
    }
    this.turn = readU32();
    this.player = readU32();
    if (this.kind == EventKind.Play) {
      this.rank = readU32();
      this.count = readU32();
      this.handSize = readU32();
      this.pile = readU32();
    } else if (this.kind == EventKind.Call) {
      this.caller = readU32();
      this.lie = readBool();
      readCards(this.cards, "cards");
      this.taker = readU32();
      this.taken = readU32();
      this.reward = readBool();
    }
    return readOk();
  }
}

function readCards(list: Array<u32>, what: string): void {
  list.length = readLength(CARDS, what);
  for (let i = 0; i < list.length; i++) list[i] = readU32();
}

const playObs = new PlayObservation();
const callObs = new CallObservation();
const event = new Event();

/** The exports the host calls: your turn to play, a call to decide, an event to see. */
export function play(ptr: usize, len: usize): i64 {
  readBegin(ptr, len);
  if (!playObs.read()) return BAD_INPUT;
  const cards = bot.play(playObs);
  writeBegin();
  writeU32(cards.length);
  for (let i = 0; i < cards.length; i++) writeU32(cards[i]);
  return answer();
}

export function call(ptr: usize, len: usize): i64 {
  readBegin(ptr, len);
  if (!callObs.read()) return BAD_INPUT;
  writeBegin();
  writeBool(bot.call(callObs));
  return answer();
}

export function observe(ptr: usize, len: usize): i64 {
  readBegin(ptr, len);
  if (!event.read()) return BAD_INPUT;
  if (isDefined(bot.observe)) bot.observe(event);
  writeBegin(); // the answer: no bytes
  return answer();
}
