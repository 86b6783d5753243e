// The core of botbox's AssemblyScript SDK: the exports every game needs, the setup's seed and seat,
// logging, a seeded random generator, and a postcard reader and writer over static buffers.
// The game's file (2048.ts, bs.ts, ...) adds the decision exports and the types; docs/wasm-abi.md is
// the contract, docs/bots/assemblyscript.md the guide.

// ---- The setup: parsed from the JSON botbox_init receives, e.g. {"game":"2048","seed":123,"seat":0}

/** The game's seed (seed your randomness from it: the same seed replays the same game). */
export let seed: u64 = 0;
/** Your seat, from 0. */
export let seat: u32 = 0;

/** The number after `"key":` in `len` bytes of JSON at `ptr` (0 if absent); any u64 fits. */
function jsonNumber(ptr: usize, len: usize, key: string): u64 {
  const k = String.UTF8.byteLength(key);
  for (let i: usize = 0; i + k + 3 <= len; i++) {
    if (load<u8>(ptr + i) != 0x22 || load<u8>(ptr + i + k + 1) != 0x22) continue; // '"'
    let same = true;
    for (let j = 0; j < k && same; j++) same = load<u8>(ptr + i + 1 + j) == <u8>key.charCodeAt(j);
    if (!same) continue;
    let at = i + k + 2;
    while (at < len && (load<u8>(ptr + at) == 0x3A || load<u8>(ptr + at) == 0x20)) at++; // ':', ' '
    let value: u64 = 0;
    while (at < len && load<u8>(ptr + at) >= 0x30 && load<u8>(ptr + at) <= 0x39) {
      value = value * 10 + <u64>(load<u8>(ptr + at) - 0x30);
      at++;
    }
    return value;
  }
  return 0;
}

// ---- The exports every module has (the game's file re-exports them)

let input: usize = 0;
let inputCap: usize = 0;

/** The host asks for `size` bytes before each call and writes the input there: one buffer, reused. */
export function botbox_alloc(size: usize): usize {
  if (size > inputCap) {
    if (input != 0) heap.free(input);
    inputCap = max(size, 4096);
    input = heap.alloc(inputCap);
  }
  return input;
}

/** Receives the setup JSON once, before the first decision. */
export function botbox_init(ptr: usize, len: usize): i32 {
  seed = jsonNumber(ptr, len, "seed");
  seat = <u32>jsonNumber(ptr, len, "seat");
  rng.state = seed;
  return 0;
}

/** 1: observations and answers cross as postcard. */
export function botbox_encoding(): i32 {
  return 1;
}

// ---- Logging

@external("botbox", "log")
declare function hostLog(ptr: usize, len: usize): void;

const LINE = 1024; // characters kept of a line
const line = memory.data(3 * LINE + 16); // its UTF-8 (at most 3 bytes per UTF-16 unit)
let lineLen = 0;

function put(text: string): void {
  const units = min(text.length, (3 * LINE - lineLen) / 3);
  lineLen += <i32>String.UTF8.encodeUnsafe(changetype<usize>(text), units, line + lineLen);
}

/** Appends a line to the bot's log: `botbox check` prints it, replays keep it (64 KiB per game). */
export function log(text: string): void {
  lineLen = 0;
  put(text);
  hostLog(line, lineLen);
}

/** Where AssemblyScript's runtime errors go (`--use abort=...`): logs them, then traps. */
export function abort(message: string | null, file: string | null, row: u32, column: u32): void {
  lineLen = 0;
  put("abort: ");
  if (message) put(message);
  if (file) {
    put(" at ");
    put(file);
    put(":");
    let digits: u32 = 1;
    while (digits * 10 <= row) digits *= 10;
    for (; digits > 0; digits /= 10) store<u8>(line + lineLen++, 0x30 + (row / digits) % 10);
  }
  hostLog(line, lineLen);
  unreachable();
}

/** AssemblyScript's `trace(...)` (`--use trace=...`): a log line with up to five numbers. */
export function trace(message: string, n: i32 = 0, a0: f64 = 0, a1: f64 = 0, a2: f64 = 0, a3: f64 = 0, a4: f64 = 0): void {
  const args = [a0, a1, a2, a3, a4];
  for (let i = 0; i < n && i < 5; i++) message += " " + args[i].toString();
  log(message);
}

/** Seeds Math.random from the setup's seed (`--use seed=...`), so Math.random replays too. */
export function mathSeed(): f64 {
  return <f64>(seed >> 11 ^ (seed & 0x7FF) << 42); // 53 bits, never a NaN
}

// ---- Randomness: splitmix64, like the Rust SDK's Rng

export class Rng {
  constructor(public state: u64) {}

  nextU64(): u64 {
    this.state += 0x9E3779B97F4A7C15;
    let z = this.state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB;
    return z ^ (z >> 31);
  }

  /** A number in 0..n-1 (n > 0). */
  below(n: u32): u32 {
    return <u32>(((this.nextU64() >> 32) * <u64>n) >> 32);
  }
}

/** A generator seeded with `seed` by botbox_init. */
export const rng = new Rng(0);

// ---- Reading postcard (docs/wasm-abi.md, "Encodings"): a cursor over the call's input

let at: usize = 0;
let end: usize = 0;
let failed = false;

/** What a decision returns when its input cannot be read (the host's fault `error`). */
export const BAD_INPUT: i64 = -2;

/** Logs why the input cannot be read; the call then returns BAD_INPUT. */
export function fail(why: string): void {
  if (!failed) log("cannot read the input: " + why);
  failed = true;
}

export function readBegin(ptr: usize, len: usize): void {
  at = ptr;
  end = ptr + len;
  failed = false;
}

export function readByte(): u8 {
  if (at >= end) {
    fail("it ends too early");
    return 0;
  }
  return load<u8>(at++);
}

export function readBool(): bool {
  return readByte() != 0;
}

/** An unsigned varint: 7 bits a byte, low bits first. */
export function readU64(): u64 {
  let value: u64 = 0;
  for (let shift: u64 = 0; shift < 64; shift += 7) {
    const b = readByte();
    value |= <u64>(b & 0x7F) << shift;
    if (b < 0x80) break;
  }
  return value;
}

export function readU32(): u32 {
  return <u32>readU64();
}

/** A signed varint: zigzagged (0, -1, 1, -2 are 0, 1, 2, 3). */
export function readI32(): i32 {
  const z = readU32();
  return <i32>(z >> 1) ^ -<i32>(z & 1);
}

/** A list's or a string's length, at most `cap` (else it fails, naming `what`). */
export function readLength(cap: i32, what: string): i32 {
  const n = readU32();
  if (n > <u32>cap) {
    fail(what + " holds " + n.toString() + ", more than the " + cap.toString() + " this SDK keeps");
    return 0;
  }
  return <i32>n;
}

/** A char: a string of one code point, returned as its code (65 for "A"). */
export function readChar(): i32 {
  const n = readLength(4, "a char");
  let code: i32 = n > 0 ? readByte() : 0;
  if (n > 1) code &= 0x7F >> n; // the leading byte's payload bits
  for (let i = 1; i < n; i++) code = (code << 6) | (readByte() & 0x3F);
  return code;
}

/** A list of strings (board rows, player names) kept as bytes: `count` strings of at most `width`. */
export class Strings {
  length: i32 = 0;
  lengths: StaticArray<i32>;
  bytes: StaticArray<u8>;

  constructor(public count: i32, public width: i32) {
    this.lengths = new StaticArray<i32>(count);
    this.bytes = new StaticArray<u8>(count * width);
  }

  read(what: string): void {
    this.length = readLength(this.count, what);
    for (let i = 0; i < this.length; i++) {
      const n = readLength(this.width, "a string of " + what);
      for (let j = 0; j < n; j++) this.bytes[i * this.width + j] = readByte();
      this.lengths[i] = n;
    }
  }

  /** The byte at `col` of string `row` (46 for "."), or -1 outside. */
  at(row: i32, col: i32): i32 {
    if (row < 0 || row >= this.length || col < 0 || col >= this.lengths[row]) return -1;
    return this.bytes[row * this.width + col];
  }

  /** String `i` as a string (a new one each time). */
  get(i: i32): string {
    return String.UTF8.decodeUnsafe(changetype<usize>(this.bytes) + i * this.width, this.lengths[i]);
  }
}

/** Whether the whole input was read without an error. */
export function readOk(): bool {
  if (!failed && at != end) fail((end - at).toString() + " bytes left over");
  return !failed;
}

// ---- Writing the answer into a static buffer

const OUT = 1024;
const out = memory.data(OUT);
let outLen = 0;

export function writeBegin(): void {
  outLen = 0;
}

export function writeByte(b: u8): void {
  if (outLen < OUT) store<u8>(out + outLen, b);
  outLen++;
}

export function writeBool(b: bool): void {
  writeByte(b ? 1 : 0);
}

export function writeU32(v: u32): void {
  while (v >= 0x80) {
    writeByte(<u8>(v | 0x80));
    v >>= 7;
  }
  writeByte(<u8>v);
}

export function writeI32(v: i32): void {
  writeU32(<u32>((v << 1) ^ (v >> 31)));
}

/** The call's result: the answer's address and length, or -3 if it is over 1024 bytes. */
export function answer(): i64 {
  if (outLen > OUT) {
    log("the answer is longer than " + OUT.toString() + " bytes");
    return -3;
  }
  return (<i64>out << 32) | <i64>outLen;
}
