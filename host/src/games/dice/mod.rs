//! Mensch ärgere Dich nicht for two players with unusual dice, as specified in `docs/dice.md` (the
//! "Würfelglück" task of the German Federal Computer Science Competition, 2021): which die gives the
//! best chance to win?
//!
//! Two players on opposite colours share a ring of 40 fields; their start fields A are 20 fields
//! apart. Each counts a piece's progress in steps: B (off the board), 0 = A, 1..=39 the track,
//! 40..=43 their own goal fields a..d. Each starts with one piece on A and three on B. A player rolls
//! their die (a face picked uniformly) and moves a piece by exactly the face: pieces of either colour
//! are jumped over and counted, a move may not end on an own piece, a move ending on a foreign piece
//! on the track sends it back to B, goal fields are counted exactly (no move past d, jumps inside the
//! goal allowed, nothing captured there). A 6 brings a piece from B onto A. The first player with all
//! four pieces in the goal wins.
//!
//! The rules as implemented, every decision included (`docs/dice.md` says the same for users):
//! - **Strict rule** (the competition's change): the player must move the frontmost piece that can
//!   move. **(decided)** Pieces in the goal count and are the frontmost.
//! - **A 6 brings a piece in** while pieces wait on B; an own piece on A is first moved on by that 6;
//!   a foreign piece on A is captured. If the own piece on A cannot move by 6, the 6 moves the
//!   frontmost piece that can.
//! - **A leaves A**: while pieces wait on B, an own piece on A must move whenever it can.
//!   **(decided)** On every roll, not only on a 6. These two obligations come before the strict rule.
//! - **Another roll after every 6**, **(decided)** also after a 6 that could not be used, except when
//!   that 6 brought the last piece home (the game is over).
//! - A face of 0 moves nothing; faces above 43 move nothing either; only a 6 rolls again.
//! - A die without a 6 never brings a piece in, so it can never win.
//! - **(decided)** A position in which neither player can move with any face of their die is a
//!   permanent deadlock: a draw ([`DrawReason::Deadlock`]). A player's moves depend on their own
//!   pieces alone, so this is checked when a player cannot move, and costs nothing otherwise.
//! - **(decided here)** A player who can move with no face and whose die shows only 6s would roll
//!   forever: a draw at once ([`DrawReason::EndlessTurn`]) rather than at the turn cap.
//! - **(decided)** [`TURN_CAP`] turns end any other endless game as a draw ([`DrawReason::TurnCap`]).
//! - **Free variant** (the manufacturer's original rule): the player chooses among all pieces that
//!   can move; captures are not compulsory. **(decided here)** The two obligations above (bring in
//!   with a 6, leave A) still hold, as in the manufacturer's rules, and a player who can move must.
//!   [`Position::moves`] lists these choices frontmost first, and the strict rule is exactly "take the
//!   first": [`Moves::frontmost`]. There is no second move generator to disagree with.
//!
//! | parameter | value |
//! | --- | --- |
//! | players | 2, seat 0 plays die A, seat 1 die B; seat 1's A is 20 fields after seat 0's |
//! | pieces | 4 per player |
//! | steps | B, A = 0, track 1..=39, goal 40..=43 |
//! | turn cap | [`TURN_CAP`] rolls |
//!
//! [`play_strict`] is the fast path (no allocation, a few bit operations per roll); [`Game`] plays one
//! roll at a time for replays and strategies; [`mod@file`] reads dice files.

mod contract;
pub mod encoding;
pub use contract::bundled;
mod die;
pub mod file;
mod game;
mod position;
pub mod setup;
pub mod view;

#[cfg(test)]
mod conformance;
#[cfg(test)]
mod tests;

pub use contract::{DiceMatch, DiceRules, RULES, observation, step as wire_place};
pub use die::{Die, EmptyDie, SIX, TOO_FAR};
pub use game::{DrawReason, End, Game, IllegalMove, Outcome, Roll, TURN_CAP, Turn, play_strict};
pub use position::{
    LAST_STEP, Move, Moves, OFFSET, PIECES, Place, Position, PositionError, TRACK, field,
};

/// A player's seat: 0 plays die A, 1 plays die B.
pub type Seat = usize;

/// The pairs of dice, `(a, b)` with `a < b`, in the order their seeds are numbered (the strict
/// ranking and the free variant seed a pair's games from its place in this list).
pub fn dice_pairs(count: usize) -> Vec<(usize, usize)> {
    (0..count)
        .flat_map(|a| (a + 1..count).map(move |b| (a, b)))
        .collect()
}
