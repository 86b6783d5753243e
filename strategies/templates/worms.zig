//! A Wormworld bot for botbox, in Zig. Build: `zig build` (or `python3 -m ziglang build`), which
//! writes zig-out/bin/bot.wasm; check it: `botbox check worms zig-out/bin/bot.wasm`.
//! obs: you, board (rows of text), hole, worms (id, owner, cells, direction), legal (each .worm,
//! .turn). Answer one of obs.legal: a Move{ .worm = id, .turn = .left, .forward or .right }.
//! The SDK is src/botbox.zig and src/worms.zig; docs/bots/zig.md explains it.
const std = @import("std");
const worms = @import("worms.zig");

pub fn chooseMove(obs: *const worms.Observation) worms.Move {
    // The move whose worm's new head lands nearest the hole (straight-line steps, walls ignored).
    var best = obs.legal.items()[0];
    var best_d: u64 = std.math.maxInt(u64);
    for (obs.legal.items()) |m| {
        for (obs.worms.items()) |w| {
            if (w.id == m.worm) {
                const step = w.direction.turned(m.turn).delta();
                const row = @as(i64, w.cells[0][0]) + step[0];
                const col = @as(i64, w.cells[0][1]) + step[1];
                const d = @abs(row - obs.hole[0]) + @abs(col - obs.hole[1]);
                if (d < best_d) {
                    best = m;
                    best_d = d;
                }
            }
        }
    }
    return best;
}
