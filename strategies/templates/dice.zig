//! A dice bot (Mensch ärgere Dich nicht, free variant) for botbox, in Zig. Build: `zig build` (or
//! `python3 -m ziglang build`), which writes zig-out/bin/bot.wasm; check it:
//! `botbox check dice zig-out/bin/bot.wasm`.
//! You are asked only when the roll leaves a choice. obs: face, steps, die, opponent_die, mine,
//! theirs, theirs_on_my_track, legal (each .from, .to, .captures). Answer a Move{ .from, .to }.
//! The SDK is src/botbox.zig and src/dice.zig; docs/bots/zig.md explains it.
const dice = @import("dice.zig");

pub fn chooseMove(obs: *const dice.Observation) dice.Move {
    // Capture when you can, else move the piece furthest ahead.
    const legal = obs.legal.items();
    for (legal) |m| {
        if (m.captures) return m.toMove();
    }
    var best = legal[0];
    for (legal) |m| {
        if (m.from > best.from) best = m;
    }
    return best.toMove();
}
