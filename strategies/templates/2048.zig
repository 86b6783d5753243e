//! A 2048 bot for botbox, in Zig. Build: `zig build` (or `python3 -m ziglang build`), which writes
//! zig-out/bin/bot.wasm; check it: `botbox check 2048 zig-out/bin/bot.wasm`.
//! obs: board (board[row][col], tile values, 0 empty; `size` rows and columns), score, moves, legal
//! (the directions that change the board). Answer one of .left, .right, .up, .down.
//! The SDK is src/botbox.zig and src/2048.zig; docs/bots/zig.md explains it.
const std = @import("std");
const g2048 = @import("2048.zig");
const Direction = g2048.Direction;

/// A board as the SDK stores it: board[row][col], the first n rows and columns used.
const Board = [g2048.MAX_SIZE][g2048.MAX_SIZE]u32;

/// Row and column of the k-th cell of a line (both from 0), counted from the side its tiles slide
/// to (lines are rows for left and right, columns for up and down).
fn cell(n: usize, dir: Direction, line: usize, k: usize) struct { usize, usize } {
    return switch (dir) {
        .left => .{ line, k },
        .right => .{ line, n - 1 - k },
        .up => .{ k, line },
        .down => .{ n - 1 - k, line },
    };
}

/// The board after a move, written to `out` (without the tile that appears after it); whether
/// anything moved.
fn slide(board: *const Board, n: usize, dir: Direction, out: *Board) bool {
    var moved = false;
    for (0..n) |line| {
        for (0..n) |k| {
            const r, const c = cell(n, dir, line, k);
            out[r][c] = 0;
        }
        var filled: usize = 0; // cells filled so far
        var last: u32 = 0; // the last tile placed, while it may merge
        for (0..n) |k| {
            const r, const c = cell(n, dir, line, k);
            const v = board[r][c];
            if (v == 0) continue;
            if (v == last) {
                const r2, const c2 = cell(n, dir, line, filled - 1);
                out[r2][c2] = v * 2;
                last = 0;
                moved = true;
            } else {
                const r2, const c2 = cell(n, dir, line, filled);
                out[r2][c2] = v;
                if (filled != k) moved = true;
                filled += 1;
                last = v;
            }
        }
    }
    return moved;
}

/// How good a board looks: each tile's value times its distance in rows and columns from the top
/// right corner (big tiles belong in the bottom left), and 64 for every empty cell.
fn value(board: *const Board, n: usize) i64 {
    var sum: i64 = 0;
    for (0..n) |i| {
        for (0..n) |j| {
            const v: i64 = board[i][j];
            sum += if (v == 0) 64 else v * @as(i64, @intCast(i + n - 1 - j));
        }
    }
    return sum;
}

/// Two moves ahead, ignoring the tiles that appear: the best value the board can reach after one
/// more move; a board that no move changes is a dead end and counts below every other.
fn ahead(board: *const Board, n: usize) i64 {
    var best = value(board, n) - 1_000_000_000_000;
    var next: Board = undefined;
    for ([_]Direction{ .down, .left, .right, .up }) |dir| {
        if (slide(board, n, dir, &next)) best = @max(best, value(&next, n));
    }
    return best;
}

pub fn chooseMove(obs: *const g2048.Observation) Direction {
    // Down, left or right, whichever leads furthest (down, then left, on a tie); up only when none
    // of them is legal.
    var best: Direction = .up;
    var best_value: i64 = std.math.minInt(i64);
    var after: Board = undefined;
    for ([_]Direction{ .down, .left, .right }) |dir| {
        if (!obs.legal.contains(dir)) continue;
        _ = slide(&obs.board, obs.size, dir, &after);
        const v = ahead(&after, obs.size);
        if (v > best_value) {
            best = dir;
            best_value = v;
        }
    }
    return best;
}
