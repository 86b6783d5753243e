//! A BS (Cheat) bot for botbox, in Zig. Build: `zig build` (or `python3 -m ziglang build`), which
//! writes zig-out/bin/bot.wasm; check it: `botbox check bs zig-out/bin/bot.wasm`.
//! play(obs): obs.rank is the rank you must claim, obs.hand your card ids (rank = id / 4).
//!   Answer a list of 1 to 4 card ids from your hand.
//! call(obs): someone played obs.count cards claiming obs.rank. Answer true to call "BS".
//! observe(event) (optional, `pub fn observe(event: *const bs.Event) void`): every public event.
//! The SDK is src/botbox.zig and src/bs.zig; docs/bots/zig.md explains it.
const bs = @import("bs.zig");

pub fn play(obs: *const bs.PlayObservation) bs.Cards {
    var cards: bs.Cards = .{};
    for (obs.hand.items()) |id| {
        if (bs.rank(id) == obs.rank and cards.len < 4) cards.append(id);
    }
    if (cards.len == 0) cards.append(obs.hand.items()[0]); // a lie: one card
    return cards;
}

pub fn call(obs: *const bs.CallObservation) bool {
    return obs.count >= 3;
}
