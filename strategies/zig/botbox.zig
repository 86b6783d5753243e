//! botbox.zig: the core of the Zig SDK for botbox bots (docs/bots/zig.md; the contract is
//! docs/wasm-abi.md). It exports what every module needs (`botbox_alloc`, `botbox_init`,
//! `botbox_encoding`), keeps the setup's `seed` and `seat`, and has `log`, a seeded random
//! generator, a fixed-capacity `List`, and the postcard `Reader` and `Writer` the game files use.
//! The game file (`2048.zig`, `bs.zig`, ...) exports the decision function(s) and calls the bot's
//! function(s) in `bot.zig`. Nothing here allocates: the input and the answer live in static buffers
//! that every call reuses, so a module can play thousands of decisions in one instance.

const std = @import("std");
const bot = @import("root").bot; // bot.zig, through the game file: it may declare `pub fn init() void`

/// The one import the host offers (module "botbox"); anything else makes it refuse the module.
const host = struct {
    extern "botbox" fn log(ptr: [*]const u8, len: usize) void;
};

/// Appends a line to the bot's log (shown by `botbox check`; at most 64 KiB per game are kept).
pub fn log(text: []const u8) void {
    host.log(text.ptr, text.len);
}

/// The panic handler of the game files: logs the message (with ReleaseSafe, "index out of bounds:
/// ..."), then traps, which ends the game with fault `trap`.
pub fn panic(msg: []const u8, _: ?usize) noreturn {
    log(msg);
    @trap();
}

var log_buf: [1024]u8 = undefined;

/// Logs a formatted line, std.fmt syntax: `logf("turn {d}: {s}", .{ obs.turn, name })`.
pub fn logf(comptime fmt: []const u8, args: anytype) void {
    log(std.fmt.bufPrint(&log_buf, fmt, args) catch &log_buf); // too long: the first 1024 bytes
}

/// The game's seed and the bot's seat, from the setup (set before the first decision).
pub var seed: u64 = 0;
pub var seat: u32 = 0;
/// A random generator seeded from `seed`: the same game replays the same numbers.
pub var rng: Rng = .{ .state = 0 };

/// SplitMix64, as the Rust SDK's `Rng`: small, fast, and good enough for games.
pub const Rng = struct {
    state: u64,

    pub fn next(self: *Rng) u64 {
        self.state +%= 0x9e3779b97f4a7c15;
        var z = self.state;
        z = (z ^ (z >> 30)) *% 0xbf58476d1ce4e5b9;
        z = (z ^ (z >> 27)) *% 0x94d049bb133111eb;
        return z ^ (z >> 31);
    }

    /// A number from 0 to n - 1 (n > 0), by multiply-shift: the same numbers as the Rust SDK's
    /// `Rng::below` from the same seed.
    pub fn below(self: *Rng, n: u32) u32 {
        return @intCast(((self.next() >> 32) * n) >> 32);
    }
};

// The input buffer: the host writes every input here. Inputs larger than ever before (none of the
// games sends more than 64 KiB) get fresh pages from memory.grow, kept for the calls after.
var input_static: [64 * 1024]u8 = undefined;
var input: []u8 = &input_static;

export fn botbox_alloc(size: usize) [*]u8 {
    if (size > input.len) {
        const pages = (size + 0xffff) / 0x10000;
        const first = @wasmMemoryGrow(0, pages);
        if (first < 0) @trap(); // over the memory cap
        input = @as([*]u8, @ptrFromInt(@as(usize, @intCast(first)) * 0x10000))[0 .. pages * 0x10000];
    }
    return input.ptr;
}

/// The setup is JSON, `{"game":"2048","seed":123,"seat":0,...}`: only `seed` and `seat` are read.
export fn botbox_init(ptr: [*]const u8, len: usize) i32 {
    const setup = ptr[0..len];
    seed = jsonNumber(setup, "\"seed\":") orelse 0;
    seat = @truncate(jsonNumber(setup, "\"seat\":") orelse 0);
    rng = .{ .state = seed };
    if (@hasDecl(bot, "init")) bot.init(); // the bot's own set-up, if it has one
    return 0;
}

/// 1: observations and answers cross as postcard (docs/wasm-abi.md, "Encodings").
export fn botbox_encoding() i32 {
    return 1;
}

/// The unsigned number after `key` in `json` (spaces allowed before it), or null.
fn jsonNumber(json: []const u8, key: []const u8) ?u64 {
    var i = (std.mem.indexOf(u8, json, key) orelse return null) + key.len;
    while (i < json.len and json[i] == ' ') i += 1;
    if (i == json.len or json[i] < '0' or json[i] > '9') return null;
    var n: u64 = 0;
    while (i < json.len and json[i] >= '0' and json[i] <= '9') : (i += 1) n = n *% 10 +% (json[i] - '0');
    return n;
}

/// At most `cap` items of type T, kept in place: the SDK's form of a Rust `Vec`.
pub fn List(comptime T: type, comptime cap: usize) type {
    return struct {
        buf: [cap]T = undefined,
        len: usize = 0,

        pub const Item = T;
        pub const capacity = cap;
        const Self = @This();

        /// The items, in order: `for (obs.legal.items()) |m| ...`.
        pub fn items(self: *const Self) []const T {
            return self.buf[0..self.len];
        }

        pub fn append(self: *Self, item: T) void {
            if (self.len == cap) @panic("List.append: the list is full");
            self.buf[self.len] = item;
            self.len += 1;
        }

        pub fn contains(self: *const Self, item: T) bool {
            for (self.items()) |x| if (x == item) return true;
            return false;
        }
    };
}

/// Why an input could not be read: malformed postcard, or more items than a List holds (logged).
pub const Error = error{ BadInput, TooLarge };

/// Reads postcard (docs/wasm-abi.md, "Encodings"). Strings are slices of the input buffer: valid
/// during the decision only (copy what you keep).
pub const Reader = struct {
    bytes: []const u8,
    pos: usize = 0,

    /// u8, i8: one raw byte.
    pub fn byte(r: *Reader) Error!u8 {
        if (r.pos >= r.bytes.len) return error.BadInput;
        r.pos += 1;
        return r.bytes[r.pos - 1];
    }

    /// An unsigned LEB128 varint: 7 bits a byte, low bits first.
    pub fn varint(r: *Reader) Error!u64 {
        var value: u64 = 0;
        var shift: u32 = 0;
        while (shift < 64) : (shift += 7) {
            const b = try r.byte();
            value |= @as(u64, b & 0x7f) << @intCast(shift);
            if (b & 0x80 == 0) return value;
        }
        return error.BadInput;
    }

    /// u16, u32: a varint.
    pub fn uint(r: *Reader) Error!u32 {
        return std.math.cast(u32, try r.varint()) orelse error.BadInput;
    }

    /// i16, i32: zigzag (0, -1, 1, -2 are 0, 1, 2, 3), then a varint.
    pub fn int(r: *Reader) Error!i32 {
        const v = try r.uint();
        return @bitCast((v >> 1) ^ (0 -% (v & 1)));
    }

    pub fn boolean(r: *Reader) Error!bool {
        return switch (try r.byte()) {
            0 => false,
            1 => true,
            else => error.BadInput,
        };
    }

    /// A string: a varint length, then the UTF-8 bytes.
    pub fn string(r: *Reader) Error![]const u8 {
        const n = try r.varint();
        if (n > r.bytes.len - r.pos) return error.BadInput;
        r.pos += @intCast(n);
        return r.bytes[r.pos - @as(usize, @intCast(n)) .. r.pos];
    }

    /// A unit enum: the varint index of its variant.
    pub fn enumeration(r: *Reader, comptime E: type) Error!E {
        const i = try r.varint();
        if (i >= std.meta.fieldNames(E).len) return error.BadInput;
        return @fromBackingInt(@intCast(i));
    }

    /// A list's length, at most `cap` (else logged, naming the list `what`, and error.TooLarge).
    pub fn length(r: *Reader, cap: usize, what: []const u8) Error!usize {
        const n = try r.varint();
        if (n > cap) {
            logf("botbox: {s} has {d} items, over the SDK's capacity of {d}", .{ what, n, cap });
            return error.TooLarge;
        }
        return @intCast(n);
    }

    /// A list's length, into `list.len`; returns the slots to fill, in order:
    /// `for (try r.items(&obs.legal, "legal")) |*m| m.* = ...`.
    pub fn items(r: *Reader, list: anytype, what: []const u8) Error![]@TypeOf(list.*).Item {
        list.len = try r.length(@TypeOf(list.*).capacity, what);
        return list.buf[0..list.len];
    }
};

/// The answer of a decision that could not read its input (negative: an error the bot reports).
pub fn failed(err: Error) i64 {
    if (err == error.BadInput) log("botbox: malformed input");
    return -2;
}

// The answer buffer: every answer is written here, and stays valid until the next call.
var output: [1024]u8 = undefined;

/// Writes postcard into the answer buffer; `finish` gives what the decision function returns.
pub const Writer = struct {
    len: usize = 0,

    pub fn byte(w: *Writer, b: u8) void {
        if (w.len < output.len) output[w.len] = b;
        w.len += 1;
    }

    pub fn varint(w: *Writer, value: u64) void {
        var v = value;
        while (v >= 0x80) : (v >>= 7) w.byte(@as(u8, @truncate(v)) | 0x80);
        w.byte(@truncate(v));
    }

    pub fn int(w: *Writer, v: i32) void {
        w.varint(@as(u32, @bitCast((v << 1) ^ (v >> 31))));
    }

    pub fn boolean(w: *Writer, b: bool) void {
        w.byte(@intFromBool(b));
    }

    /// `(address << 32) | length` of the answer, as the ABI wants it.
    pub fn finish(w: Writer) i64 {
        if (w.len > output.len) {
            log("botbox: the answer is longer than the output buffer");
            return -3;
        }
        return (@as(i64, @intCast(@intFromPtr(&output))) << 32) | @as(i64, @intCast(w.len));
    }
};
