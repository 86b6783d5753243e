//! A Connect Four bot for botbox, in Zig. Build: `zig build` (or `python3 -m ziglang build`), which
//! writes zig-out/bin/bot.wasm; check it: `botbox check connect4 zig-out/bin/bot.wasm`.
//! obs: board (rows * columns cells from the top row, 0 empty, 1 or 2 a mark), rows, columns,
//! inarow, mark (yours), legal (the open columns, from 0). Answer a Move{ .column = ... }.
//! The SDK is src/botbox.zig and src/connect4.zig; docs/bots/zig.md explains it.
const connect4 = @import("connect4.zig");

pub fn chooseMove(obs: *const connect4.Observation) connect4.Move {
    // The open column nearest the centre (the first of two equally near). Distances are doubled,
    // |2 col - (columns - 1)|, to stay in whole numbers.
    const centre2: i64 = @as(i64, obs.columns) - 1;
    var best = obs.legal.items()[0];
    for (obs.legal.items()) |col| {
        if (@abs(2 * @as(i64, col) - centre2) < @abs(2 * @as(i64, best) - centre2)) best = col;
    }
    return .{ .column = best };
}
