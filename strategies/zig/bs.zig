//! bs.zig: BS (Cheat) for the Zig SDK (rules: docs/bs.md; the fields follow
//! strategies/sdk/src/bs.rs). This file is the program's root (build.zig compiles it): it exports
//! `play`, `call` and, if the bot has one, `observe`, each reading its input, calling the bot's
//! function of the same name in bot.zig, and writing the answer. The bot declares
//!   pub fn play(obs: *const PlayObservation) Cards      // the cards to put on the pile
//!   pub fn call(obs: *const CallObservation) bool       // whether to call "BS"
//!   pub fn observe(event: *const Event) void            // optional: every public event
//!
//! Every card has an id from 0 to 51; its rank is id / 4. Hands are lists of ids in hand order.

const std = @import("std");
const botbox = @import("botbox.zig");
pub const bot = @import("bot.zig");
pub const panic = std.debug.FullPanic(botbox.panic); // a panic logs its message, then traps
const List = botbox.List;

pub const CARDS = 52;
pub const RANKS = 13;
pub const PLAYERS = 4;

/// The rank of card `id`.
pub fn rank(id: u32) u32 {
    return id / 4;
}

/// A list of card ids: a hand, or the answer of `play` (one or more distinct ids from your hand).
pub const Cards = List(u32, CARDS);

pub const PlayObservation = struct {
    /// Your seat, 0 to 3.
    you: u32,
    /// The strategies' names by seat (slices of the input: valid during this decision only).
    players: List([]const u8, PLAYERS),
    /// Rounds completed so far (a round is one turn of each seat).
    round: u32,
    /// Turns played so far, all seats': this turn's number from 0.
    turn: u32,
    /// The required rank: the cards you play are claimed to be of it.
    rank: u32,
    /// Your hand, in hand order.
    hand: Cards,
    /// Every seat's hand size, by seat.
    hand_sizes: List(u32, PLAYERS),
    /// Cards on the pile.
    pile: u32,
};

pub const CallObservation = struct {
    you: u32,
    players: List([]const u8, PLAYERS),
    round: u32,
    turn: u32,
    /// The seat that played, claiming `count` cards of rank `rank`.
    player: u32,
    rank: u32,
    count: u32,
    /// The player's hand size after the play.
    player_hand: u32,
    /// Cards on the pile, the played ones included.
    pile: u32,
    hand: Cards,
    /// Every seat's hand size after the play.
    hand_sizes: List(u32, PLAYERS),
};

/// A public event, as every player sees it.
pub const Event = union(enum) {
    /// `player` put `count` cards on the pile, claiming rank `rank`.
    play: struct { turn: u32, player: u32, rank: u32, count: u32, hand_size: u32, pile: u32 },
    /// Nobody called on the last play.
    no_call: struct { turn: u32, player: u32 },
    /// `caller` called; the played `cards` were turned face up. `taker` (the liar, or the caller of
    /// a true play) picked up `taken` cards; `reward`: after a lie the caller put one random card of
    /// their own face down as the new pile.
    call: struct { turn: u32, player: u32, caller: u32, lie: bool, cards: Cards, taker: u32, taken: u32, reward: bool },
    /// A round ended; `round` rounds are complete.
    round_end: struct { round: u32 },
};

var play_obs: PlayObservation = undefined; // the observations of the decision under way
var call_obs: CallObservation = undefined;
var event: Event = undefined;

fn readNames(r: *botbox.Reader, names: *List([]const u8, PLAYERS)) botbox.Error!void {
    for (try r.items(names, "players")) |*name| name.* = try r.string();
}

fn readNumbers(r: *botbox.Reader, list: anytype, what: []const u8) botbox.Error!void {
    for (try r.items(list, what)) |*n| n.* = try r.uint();
}

fn readPlay(r: *botbox.Reader) botbox.Error!void {
    const o = &play_obs;
    o.you = try r.uint();
    try readNames(r, &o.players);
    o.round = try r.uint();
    o.turn = try r.uint();
    o.rank = try r.uint();
    try readNumbers(r, &o.hand, "hand");
    try readNumbers(r, &o.hand_sizes, "hand_sizes");
    o.pile = try r.uint();
}

fn readCall(r: *botbox.Reader) botbox.Error!void {
    const o = &call_obs;
    o.you = try r.uint();
    try readNames(r, &o.players);
    o.round = try r.uint();
    o.turn = try r.uint();
    o.player = try r.uint();
    o.rank = try r.uint();
    o.count = try r.uint();
    o.player_hand = try r.uint();
    o.pile = try r.uint();
    try readNumbers(r, &o.hand, "hand");
    try readNumbers(r, &o.hand_sizes, "hand_sizes");
}

fn readEvent(r: *botbox.Reader) botbox.Error!void {
    switch (try r.varint()) { // the variant's index, then its fields
        0 => event = .{ .play = .{
            .turn = try r.uint(),
            .player = try r.uint(),
            .rank = try r.uint(),
            .count = try r.uint(),
            .hand_size = try r.uint(),
            .pile = try r.uint(),
        } },
        1 => event = .{ .no_call = .{ .turn = try r.uint(), .player = try r.uint() } },
        2 => {
            event = .{ .call = undefined };
            const c = &event.call;
            c.turn = try r.uint();
            c.player = try r.uint();
            c.caller = try r.uint();
            c.lie = try r.boolean();
            try readNumbers(r, &c.cards, "cards");
            c.taker = try r.uint();
            c.taken = try r.uint();
            c.reward = try r.boolean();
        },
        3 => event = .{ .round_end = .{ .round = try r.uint() } },
        else => return error.BadInput,
    }
}

export fn play(ptr: [*]const u8, len: usize) i64 {
    var r = botbox.Reader{ .bytes = ptr[0..len] };
    readPlay(&r) catch |err| return botbox.failed(err);
    const cards: Cards = bot.play(&play_obs);
    var w = botbox.Writer{};
    w.varint(cards.len);
    for (cards.items()) |id| w.varint(id);
    return w.finish();
}

export fn call(ptr: [*]const u8, len: usize) i64 {
    var r = botbox.Reader{ .bytes = ptr[0..len] };
    readCall(&r) catch |err| return botbox.failed(err);
    var w = botbox.Writer{};
    w.boolean(bot.call(&call_obs));
    return w.finish();
}

/// Exported only when the bot has `observe`: the host sends events only to a module that asks.
fn observe(ptr: [*]const u8, len: usize) callconv(.c) i64 {
    var r = botbox.Reader{ .bytes = ptr[0..len] };
    readEvent(&r) catch |err| return botbox.failed(err);
    bot.observe(&event);
    return (botbox.Writer{}).finish(); // the answer is no bytes
}

comptime {
    if (@hasDecl(bot, "observe")) @export(&observe, .{ .name = "observe" });
}
