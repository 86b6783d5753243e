//! connect4.zig: Connect Four for the Zig SDK (rules: docs/connect4.md; the fields follow
//! strategies/sdk/src/connect4.rs). This file is the program's root (build.zig compiles it): it
//! exports `choose_move`, which reads the observation, calls `chooseMove` in bot.zig, and writes
//! the answer. The bot declares `pub fn chooseMove(obs: *const Observation) Move`.

const std = @import("std");
const botbox = @import("botbox.zig");
pub const bot = @import("bot.zig");
pub const panic = std.debug.FullPanic(botbox.panic); // a panic logs its message, then traps
const List = botbox.List;

/// The column to drop a piece into, from 0 at the left; it must be one of `legal`.
pub const Move = struct { column: u32 };

/// The cell value of an empty cell in `board`.
pub const EMPTY: u8 = 0;

pub const Observation = struct {
    /// rows * columns cells, row-major from the top row: 0 empty, 1 or 2 the mark of a piece.
    board: List(u8, 64),
    rows: u32,
    columns: u32,
    /// How many pieces in a line win.
    inarow: u32,
    /// Your mark: 1 (seat 0, moves first) or 2 (seat 1).
    mark: u8,
    /// The columns that are not full, from left to right. Never empty.
    legal: List(u32, 64),
    /// Pieces dropped so far by both players.
    moves: u32,

    /// The cell at `row` (0 at the top) and `col` (0 at the left): 0, 1 or 2; null outside.
    pub fn cell(obs: *const Observation, row: u32, col: u32) ?u8 {
        if (row >= obs.rows or col >= obs.columns) return null;
        const i = row * obs.columns + col;
        return if (i < obs.board.len) obs.board.buf[i] else null;
    }

    pub fn opponentMark(obs: *const Observation) u8 {
        return 3 - obs.mark;
    }
};

var current: Observation = undefined; // the observation of the decision under way

fn read(r: *botbox.Reader) botbox.Error!void {
    for (try r.items(&current.board, "board")) |*c| c.* = try r.byte();
    current.rows = try r.uint();
    current.columns = try r.uint();
    current.inarow = try r.uint();
    current.mark = try r.byte();
    for (try r.items(&current.legal, "legal")) |*c| c.* = try r.uint();
    current.moves = try r.uint();
}

export fn choose_move(ptr: [*]const u8, len: usize) i64 {
    var r = botbox.Reader{ .bytes = ptr[0..len] };
    read(&r) catch |err| return botbox.failed(err);
    const move: Move = bot.chooseMove(&current);
    var w = botbox.Writer{};
    w.varint(move.column); // a bare number: the Rust type is #[serde(transparent)]
    return w.finish();
}
