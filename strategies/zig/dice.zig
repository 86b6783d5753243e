//! dice.zig: Mensch ärgere Dich nicht, free variant, for the Zig SDK (rules: docs/dice.md; the
//! fields follow strategies/sdk/src/dice.rs). This file is the program's root (build.zig compiles
//! it): it exports `choose_move`, which reads the observation, calls `chooseMove` in bot.zig, and
//! writes the answer. The bot declares `pub fn chooseMove(obs: *const Observation) Move`.
//!
//! Places are counted in the player's own steps: -1 waiting off the board (B), 0 the start field A,
//! 1 to 39 the track, 40 to 43 the goal fields. An opponent's track step s is your (s + 20) % 40.

const std = @import("std");
const botbox = @import("botbox.zig");
pub const bot = @import("bot.zig");
pub const panic = std.debug.FullPanic(botbox.panic); // a panic logs its message, then traps
const List = botbox.List;

pub const WAITING: i32 = -1;
pub const START: i32 = 0;
pub const GOAL: i32 = 40;
pub const LAST: i32 = 43;

/// The answer: the piece on step `from` (-1 for one brought in from B) moves to step `to`.
pub const Move = struct { from: i32, to: i32 };

/// A legal move, as the observation lists it.
pub const LegalMove = struct {
    from: i32,
    to: i32,
    /// Whether it lands on an opponent's piece on the track, sending it back to B.
    captures: bool,

    pub fn toMove(m: LegalMove) Move {
        return .{ .from = m.from, .to = m.to };
    }
};

pub const Observation = struct {
    /// Your seat: 0 plays die A, 1 die B.
    you: u32,
    /// Rolls so far in the game, both players', this one not counted.
    turn: u32,
    /// The face rolled, and the steps it moves (the face, or 44 for a face too large to move).
    face: u64,
    steps: u32,
    /// The faces of your die and of the opponent's; each comes up with equal chance.
    die: List(u64, 64),
    opponent_die: List(u64, 64),
    /// Your four pieces in your steps, frontmost first (-1 waiting on B).
    mine: List(i32, 4),
    /// The opponent's four pieces in the opponent's steps, frontmost first.
    theirs: List(i32, 4),
    /// The opponent's pieces on the shared track, in your steps: a move there captures.
    theirs_on_my_track: List(i32, 4),
    /// The legal moves, frontmost piece first (at least two: you are asked only when you choose).
    legal: List(LegalMove, 4),
};

var current: Observation = undefined; // the observation of the decision under way

fn read(r: *botbox.Reader) botbox.Error!void {
    current.you = try r.uint();
    current.turn = try r.uint();
    current.face = try r.varint();
    current.steps = try r.uint();
    for (try r.items(&current.die, "die")) |*f| f.* = try r.varint();
    for (try r.items(&current.opponent_die, "opponent_die")) |*f| f.* = try r.varint();
    for (try r.items(&current.mine, "mine")) |*s| s.* = try r.int();
    for (try r.items(&current.theirs, "theirs")) |*s| s.* = try r.int();
    for (try r.items(&current.theirs_on_my_track, "theirs_on_my_track")) |*s| s.* = try r.int();
    for (try r.items(&current.legal, "legal")) |*m| {
        m.* = .{ .from = try r.int(), .to = try r.int(), .captures = try r.boolean() };
    }
}

export fn choose_move(ptr: [*]const u8, len: usize) i64 {
    var r = botbox.Reader{ .bytes = ptr[0..len] };
    read(&r) catch |err| return botbox.failed(err);
    const move: Move = bot.chooseMove(&current);
    var w = botbox.Writer{};
    w.int(move.from);
    w.int(move.to);
    return w.finish();
}
