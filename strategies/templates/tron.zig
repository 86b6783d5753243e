//! A Tron bot for botbox, in Zig: a wall hugger. Build: `zig build` (or `python3 -m ziglang build`),
//! which writes zig-out/bin/bot.wasm; check it: `botbox check tron zig-out/bin/bot.wasm`.
//! Each turn it sees the whole board (docs/tron.md: rows, width, height, you, opponent) and answers
//! .north, .east, .south or .west; among the moves that do not crash it takes the one whose new
//! cell touches the most walls. The SDK is src/botbox.zig and src/tron.zig; docs/bots/zig.md
//! explains it.
const tron = @import("tron.zig");
const Move = tron.Move;

const DIRS = [_]Move{ .north, .east, .south, .west };

fn free(obs: *const tron.Observation, r: i64, c: i64) bool {
    if (r < 0 or c < 0 or r >= obs.height or c >= obs.width) return false;
    return obs.cell(r, c) == '.';
}

pub fn chooseMove(obs: *const tron.Observation) Move {
    var best: Move = .north;
    var most: i32 = -1;
    for (DIRS) |d| {
        const r = @as(i64, obs.you[0]) + d.delta()[0];
        const c = @as(i64, obs.you[1]) + d.delta()[1];
        if (free(obs, r, c)) {
            var walls: i32 = 0;
            for (DIRS) |e| {
                if (!free(obs, r + e.delta()[0], c + e.delta()[1])) walls += 1;
            }
            if (walls > most) {
                best = d;
                most = walls;
            }
        }
    }
    return best;
}
