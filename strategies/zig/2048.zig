//! 2048.zig: 2048 for the Zig SDK (rules: docs/2048.md; the fields follow
//! strategies/sdk/src/g2048.rs). This file is the program's root (build.zig compiles it): it
//! exports `choose_move`, which reads the observation, calls `chooseMove` in bot.zig, and writes
//! the answer. The bot declares `pub fn chooseMove(obs: *const Observation) Direction`.

const std = @import("std");
const botbox = @import("botbox.zig");
pub const bot = @import("bot.zig");
pub const panic = std.debug.FullPanic(botbox.panic); // a panic logs its message, then traps
const List = botbox.List;

/// A move; the host numbers them in this order (0 left, 1 right, 2 up, 3 down).
pub const Direction = enum(u8) { left, right, up, down };

/// The largest board botbox plays (--size 3 to 8; 4 unless chosen otherwise).
pub const MAX_SIZE = 8;

pub const Observation = struct {
    /// board[row][col], rows from the top, columns from the left; tile values (2, 4, 8, ...), 0 for
    /// empty. Only the first `size` rows and columns are used.
    board: [MAX_SIZE][MAX_SIZE]u32,
    /// The board's side: 4 unless chosen otherwise.
    size: usize,
    /// The sum of the values of all tiles produced by merges so far.
    score: u64,
    /// Moves made so far.
    moves: u32,
    /// The moves that change the board, in the order left, right, up, down. Never empty.
    legal: List(Direction, 4),
};

var current: Observation = undefined; // the observation of the decision under way

fn read(r: *botbox.Reader) botbox.Error!void {
    current.size = try r.length(MAX_SIZE, "board");
    for (current.board[0..current.size]) |*row| {
        if (try r.varint() != current.size) return error.BadInput; // a square board
        for (row[0..current.size]) |*cell| cell.* = try r.uint();
    }
    current.score = try r.varint();
    current.moves = try r.uint();
    for (try r.items(&current.legal, "legal")) |*d| d.* = try r.enumeration(Direction);
}

export fn choose_move(ptr: [*]const u8, len: usize) i64 {
    var r = botbox.Reader{ .bytes = ptr[0..len] };
    read(&r) catch |err| return botbox.failed(err);
    const direction: Direction = bot.chooseMove(&current);
    var w = botbox.Writer{};
    w.varint(@backingInt(direction));
    return w.finish();
}
