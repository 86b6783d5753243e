//! worms.zig: Wormworld for the Zig SDK (rules: docs/worms.md; the fields follow
//! strategies/sdk/src/worms.rs). This file is the program's root (build.zig compiles it): it
//! exports `choose_move`, which reads the observation, calls `chooseMove` in bot.zig, and writes
//! the answer. The bot declares `pub fn chooseMove(obs: *const Observation) Move`.
//!
//! Cells are [row, col] from 0, row 0 at the top. Seat 0 (player 1) has the uppercase worms.

const std = @import("std");
const botbox = @import("botbox.zig");
pub const bot = @import("bot.zig");
pub const panic = std.debug.FullPanic(botbox.panic); // a panic logs its message, then traps
const List = botbox.List;

/// How a worm's head moves, relative to the direction it faces.
pub const Turn = enum(u8) { left, forward, right };

/// The direction a worm faces, from its middle cell to its head (up is towards row 0).
pub const Direction = enum(u8) {
    up,
    right,
    down,
    left,

    /// The direction a worm facing `d` faces after `turn`.
    pub fn turned(d: Direction, turn: Turn) Direction {
        const quarter: u8 = switch (turn) {
            .left => 3,
            .forward => 0,
            .right => 1,
        };
        const clockwise = [_]Direction{ .up, .right, .down, .left };
        return clockwise[(@backingInt(d) + quarter) % 4];
    }

    /// The step [rows, cols] one cell in this direction.
    pub fn delta(d: Direction) [2]i32 {
        return switch (d) {
            .up => .{ -1, 0 },
            .right => .{ 0, 1 },
            .down => .{ 1, 0 },
            .left => .{ 0, -1 },
        };
    }
};

/// The answer: which of your worms moves (by id) and how its head turns; one of `legal`.
pub const Move = struct { worm: u32, turn: Turn };

/// A worm on the board (worms that fell into the hole are no longer listed).
pub const Worm = struct {
    /// Fixed for the whole game.
    id: u32,
    /// The seat it belongs to: 0 or 1.
    owner: u32,
    /// Its letter on the board: uppercase for seat 0, lowercase for seat 1.
    letter: u8,
    /// Its three cells, [row, col]: head, middle, tail.
    cells: [3][2]u32,
    /// From the middle cell to the head: where .forward goes.
    direction: Direction,
};

/// Wormworld maps are at most 30 x 30.
pub const MAX_SIDE = 30;

pub const Observation = struct {
    /// Your seat: 0 (player 1, uppercase worms) or 1 (player 2, lowercase).
    you: u32,
    /// Turns played so far by both players, passes included.
    turn: u32,
    /// The game ends when `turn` reaches it; then fewer worms on the board wins.
    turn_limit: u32,
    width: u32,
    height: u32,
    /// `height` rows of `width` characters, top first: '.' free, '#' obstacle, 'O' the hole, a
    /// worm's letter on each of its cells. Slices of the input: valid during this decision only.
    board: List([]const u8, MAX_SIDE),
    hole: [2]u32,
    /// Every obstacle cell, in row-major order.
    obstacles: List([2]u32, MAX_SIDE * MAX_SIDE),
    /// The worms still on the board, both players', by id.
    worms: List(Worm, 52),
    /// Your legal moves, by worm id, then left, forward, right. Never empty.
    legal: List(Move, 3 * 52),

    /// The character at `row`, `col`, or null outside the board.
    pub fn cell(obs: *const Observation, row: i64, col: i64) ?u8 {
        if (row < 0 or col < 0 or row >= obs.board.len) return null;
        const line = obs.board.buf[@intCast(row)];
        return if (col < line.len) line[@intCast(col)] else null;
    }
};

var current: Observation = undefined; // the observation of the decision under way

fn cell(r: *botbox.Reader) botbox.Error![2]u32 {
    return .{ try r.uint(), try r.uint() };
}

fn read(r: *botbox.Reader) botbox.Error!void {
    current.you = try r.uint();
    current.turn = try r.uint();
    current.turn_limit = try r.uint();
    current.width = try r.uint();
    current.height = try r.uint();
    for (try r.items(&current.board, "board")) |*row| row.* = try r.string();
    current.hole = try cell(r);
    for (try r.items(&current.obstacles, "obstacles")) |*o| o.* = try cell(r);
    for (try r.items(&current.worms, "worms")) |*w| {
        w.id = try r.uint();
        w.owner = try r.uint();
        const letter = try r.string(); // a char: a string of its UTF-8
        if (letter.len != 1) return error.BadInput;
        w.letter = letter[0];
        for (&w.cells) |*c| c.* = try cell(r);
        w.direction = try r.enumeration(Direction);
    }
    for (try r.items(&current.legal, "legal")) |*m| {
        m.* = .{ .worm = try r.uint(), .turn = try r.enumeration(Turn) };
    }
}

export fn choose_move(ptr: [*]const u8, len: usize) i64 {
    var r = botbox.Reader{ .bytes = ptr[0..len] };
    read(&r) catch |err| return botbox.failed(err);
    const move: Move = bot.chooseMove(&current);
    var w = botbox.Writer{};
    w.varint(move.worm);
    w.varint(@backingInt(move.turn));
    return w.finish();
}
