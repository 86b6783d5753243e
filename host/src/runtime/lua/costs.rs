//! Library functions charged for their size. Luau's interrupt fires at calls and loop back-edges,
//! never inside a C library function, so one call such as `table.move(t, 1, 2^31 - 1000, 2)` or
//! `string.rep(s, n)` in a loop would do unbounded work per tick. Every library function whose cost
//! grows with an argument is wrapped here by a trusted Luau function that computes the work it is
//! about to ask for (elements moved, bytes copied) and charges it to the budget *before* the C
//! function runs: a call the budget cannot pay for fails with fault `budget`, deterministically.
//!
//! The charge is one tick per table element touched and one tick per [`BYTES_PER_TICK`] bytes made or
//! copied: far cheaper per tick than interpreted code (an empty loop iteration is one tick), so honest
//! code never notices, while a budget of 20,000,000 ticks buys at most about 20 million element moves
//! or 640 MB of strings made per decision (measured: `string.rep` of 16 MiB strings runs at about 4
//! ns a byte here, page faults included, so at most about 2.6 s, under the default time limit of
//! 10 s). Work under [`SMALL`] ticks is free; small charges are added up in a buffer the host zeroes
//! at the start of every game (a call may so pay for the small work of the one before it,
//! deterministically) and passed to the host when they pass [`BATCH`] ticks; larger ones are passed
//! at once. Functions that Luau runs as built-ins (`string.sub`, `table.insert` with two arguments,
//! `table.unpack`, ...) bypass the wrappers, but their cost is bounded by the memory cap or the
//! stack. Pattern matching (`find`, `match`, `gmatch`, `gsub`) is the host's own port of Luau's
//! matcher, which charges its steps ([`super::pattern`]): Luau's own reaches the interrupt at each
//! step of its recursion but not in its scanning loops or its plain search, where one tick could
//! stand for a quadratic amount of work.

/// Bytes of string or buffer work charged as one tick.
pub const BYTES_PER_TICK: u64 = 32;
/// Work below this many ticks is not charged: at most a few ticks' worth of time, and the common
/// small call stays as fast as before.
pub const SMALL: u64 = 32;
/// Small charges are sent to the host in batches of at least this many ticks.
pub const BATCH: u64 = 1024;

/// The wrappers, loaded before the sandbox closes the libraries: called with `(charge, meter,
/// string, table, buffer, utf8, SMALL, BATCH, BYTES_PER_TICK)`, they replace the functions in those
/// tables. `meter` is an 8-byte buffer holding the pending charge as a double.
pub const WRAPPERS: &str = r##"
local charge, meter, string, table, buffer, utf8, SMALL, BATCH, BYTES = ...
local readf64, writef64, len = buffer.readf64, buffer.writef64, buffer.len
local type, tonumber, select, rawlen = type, tonumber, select, rawlen

-- Charges `n` ticks: nothing if tiny, at once if large, else added up and sent in batches.
local function pay(n)
  if not (n >= SMALL) then return end
  if n >= BATCH then
    charge(n)
    return
  end
  local pending = readf64(meter, 0) + n
  if pending >= BATCH then
    writef64(meter, 0, 0)
    charge(pending)
  else
    writef64(meter, 0, pending)
  end
end

local function int(x, default)
  local n = tonumber(x)
  if n == nil then return default end
  return n
end

local function strlen(s)
  local t = type(s)
  if t == "string" then return #s end
  if t == "number" then return 24 end
  return 0
end

local function bytes(n)
  return n // BYTES
end

local function size(t)
  if type(t) == "table" then return rawlen(t) end
  return 0
end

local function wrap(lib, name, cost)
  local f = lib[name]
  lib[name] = function(...)
    pay(cost(...))
    return f(...)
  end
end

-- For functions that allocate their result before doing work in proportion to it: a request over
-- the memory cap fails in the allocator at once (fault `memory`), the rest is paid for after.
local function wrap_after(lib, name, cost)
  local f = lib[name]
  lib[name] = function(...)
    local result = f(...)
    pay(cost(...))
    return result
  end
end

-- Tables: one tick per element.
wrap(table, "move", function(_, f, e) return int(e, 0) - int(f, 0) + 1 end)
-- `create` is on the hot path of real bots (player_conman calls it at every decision): a wrapper of
-- its own, one call and one comparison on the common path.
do
  local create = table.create
  table.create = function(n, v)
    local t = create(n, v)
    if type(n) == "number" and n >= SMALL then pay(n) end
    return t
  end
end
wrap(table, "concat", function(t, _, i, j) return int(j, size(t)) - int(i, 1) + 1 end)
wrap(table, "find", function(t, _, init) return size(t) - int(init, 1) + 1 end)
wrap(table, "clone", size)
wrap(table, "clear", size)
wrap(table, "maxn", size)
wrap(table, "sort", function(t)
  local n = size(t)
  local log = 1
  while 2 ^ log < n do log += 1 end
  return n * log
end)
-- With two arguments `insert` runs as a built-in and appends in constant time.
wrap(table, "insert", function(t, pos, ...)
  if select("#", ...) == 0 then return 0 end
  return size(t) - int(pos, 0) + 1
end)
wrap(table, "remove", function(t, pos) return size(t) - int(pos, size(t)) + 1 end)

-- Strings: one tick per BYTES bytes made or read.
wrap_after(string, "rep", function(s, n, sep)
  local count = int(n, 0)
  if count <= 0 then return 0 end
  return bytes((strlen(s) + strlen(sep)) * count)
end)
wrap_after(string, "reverse", function(s) return bytes(strlen(s)) end)
wrap_after(string, "upper", function(s) return bytes(strlen(s)) end)
wrap_after(string, "lower", function(s) return bytes(strlen(s)) end)
wrap(string, "split", function(s) return bytes(strlen(s)) end)
local function all_strings(...)
  local total = 0
  for i = 1, select("#", ...) do
    total += strlen((select(i, ...)))
  end
  return total
end
wrap(string, "format", function(...) return bytes(all_strings(...)) end)
wrap(string, "pack", function(...) return bytes(all_strings(...)) end)
wrap(string, "unpack", function(fmt, s) return bytes(strlen(fmt) + strlen(s)) end)

-- Buffers: one tick per BYTES bytes.
local function buflen(b)
  if type(b) == "buffer" then return len(b) end
  return 0
end
wrap_after(buffer, "create", function(n) return bytes(int(n, 0)) end)
wrap_after(buffer, "fromstring", function(s) return bytes(strlen(s)) end)
wrap_after(buffer, "tostring", function(b) return bytes(buflen(b)) end)
wrap_after(buffer, "readstring", function(_, _, n) return bytes(int(n, 0)) end)
wrap(buffer, "writestring", function(_, _, s, n) return bytes(int(n, strlen(s))) end)
wrap(buffer, "copy", function(_, _, source, offset, n)
  return bytes(int(n, buflen(source) - int(offset, 0)))
end)
wrap(buffer, "fill", function(b, offset, _, n)
  return bytes(int(n, buflen(b) - int(offset, 0)))
end)

-- UTF-8: one tick per BYTES bytes scanned.
wrap(utf8, "len", function(s) return bytes(strlen(s)) end)
wrap(utf8, "offset", function(s) return bytes(strlen(s)) end)
wrap(utf8, "codepoint", function(s) return bytes(strlen(s)) end)
wrap(utf8, "char", function(...) return select("#", ...) end)
"##;
