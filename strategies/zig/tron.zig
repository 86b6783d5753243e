//! tron.zig: Tron light cycles for the Zig SDK (rules: docs/tron.md; the fields follow
//! strategies/sdk/src/tron.rs). This file is the program's root (build.zig compiles it): it
//! exports `choose_move`, which reads the observation, calls `chooseMove` in bot.zig, and writes
//! the answer. The bot declares `pub fn chooseMove(obs: *const Observation) Move`.

const std = @import("std");
const botbox = @import("botbox.zig");
pub const bot = @import("bot.zig");
pub const panic = std.debug.FullPanic(botbox.panic); // a panic logs its message, then traps
const List = botbox.List;

/// Where your head moves this turn; north is towards the top row.
pub const Move = enum(u8) {
    north,
    east,
    south,
    west,

    /// The change of [row, column] the move makes.
    pub fn delta(m: Move) [2]i32 {
        return switch (m) {
            .north => .{ -1, 0 },
            .east => .{ 0, 1 },
            .south => .{ 1, 0 },
            .west => .{ 0, -1 },
        };
    }
};

pub const Observation = struct {
    /// The board, top row first, `width` characters each: '#' a wall (the map's or a trail), '.'
    /// free, '1' and '2' the heads of seat 0 and seat 1. The rows are slices of the input: valid
    /// during this decision only.
    rows: List([]const u8, 100),
    width: u32,
    height: u32,
    /// Your head and the opponent's, [row, column] from 0 at the top left.
    you: [2]u32,
    opponent: [2]u32,
    /// Your mark on the board: 1 (seat 0) or 2 (seat 1).
    player: u32,
    /// Turns played so far.
    turn: u32,

    /// The character at `row`, `col`, or null outside the board.
    pub fn cell(obs: *const Observation, row: i64, col: i64) ?u8 {
        if (row < 0 or col < 0 or row >= obs.rows.len) return null;
        const line = obs.rows.buf[@intCast(row)];
        return if (col < line.len) line[@intCast(col)] else null;
    }
};

var current: Observation = undefined; // the observation of the decision under way

fn read(r: *botbox.Reader) botbox.Error!void {
    for (try r.items(&current.rows, "rows")) |*row| row.* = try r.string();
    current.width = try r.uint();
    current.height = try r.uint();
    current.you = .{ try r.uint(), try r.uint() };
    current.opponent = .{ try r.uint(), try r.uint() };
    current.player = try r.uint();
    current.turn = try r.uint();
}

export fn choose_move(ptr: [*]const u8, len: usize) i64 {
    var r = botbox.Reader{ .bytes = ptr[0..len] };
    read(&r) catch |err| return botbox.failed(err);
    const move: Move = bot.chooseMove(&current);
    var w = botbox.Writer{};
    w.varint(@backingInt(move));
    return w.finish();
}
