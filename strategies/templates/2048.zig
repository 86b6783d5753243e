//! A 2048 bot for botbox, in Zig. Build: `zig build` (or `python3 -m ziglang build`), which writes
//! zig-out/bin/bot.wasm; check it: `botbox check 2048 zig-out/bin/bot.wasm`.
//! obs: board (board[row][col], tile values, 0 empty; `size` rows and columns), score, moves, legal
//! (the directions that change the board). Answer one of .left, .right, .up, .down.
//! The SDK is src/botbox.zig and src/2048.zig; docs/bots/zig.md explains it.
const g2048 = @import("2048.zig");
const Direction = g2048.Direction;

/// How many merges a move would make: equal tiles meeting along its lines, empty cells between them
/// or not (rows for left and right, columns for up and down).
fn merges(obs: *const g2048.Observation, columns: bool) u32 {
    const n = obs.size;
    var count: u32 = 0;
    for (0..n) |i| {
        var last: u32 = 0;
        for (0..n) |j| {
            const v = if (columns) obs.board[j][i] else obs.board[i][j];
            if (v != 0) {
                if (v == last) {
                    count += 1;
                    last = 0;
                } else {
                    last = v;
                }
            }
        }
    }
    return count;
}

pub fn chooseMove(obs: *const g2048.Observation) Direction {
    // Keep the big tiles in the bottom-left corner: down or left, whichever merges more (down on a
    // tie); right if neither is legal; up only when nothing else is.
    const down = obs.legal.contains(.down);
    const left = obs.legal.contains(.left);
    if (down and left) {
        if (merges(obs, false) > merges(obs, true)) return .left;
        return .down;
    }
    if (down) return .down;
    if (left) return .left;
    if (obs.legal.contains(.right)) return .right;
    return .up;
}
