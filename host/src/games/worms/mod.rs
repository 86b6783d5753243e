//! Wormworld, as specified in `docs/worms.md`: two players steer three-cell worms across a grid of
//! at most 30x30 cells (free cells, obstacles and one hole) and race to put all their worms into the
//! hole.
//!
//! The rules, each with the place the engine implements it:
//! - A worm is three orthogonally adjacent cells, head, middle, tail; it faces the direction from
//!   its middle to its head ([`Board`]).
//! - A move turns the head left, right or goes forward, relative to the direction it faces; the
//!   head enters the new cell, the old head becomes the middle, the old middle the tail, and the old
//!   tail cell is freed ([`Board`], `play`).
//! - A move is possible only into a cell inside the grid that is free: not an obstacle and not any
//!   worm's cell, own or foreign. Taken literally, as the rules put it, a cell is occupied while the
//!   move is checked, tails included, even a tail that would move away with the move; a worm can
//!   never reach its own tail anyway, since on three cells the tail is never next to the head.
//! - A head that enters the hole falls through at once: the worm leaves the board and all three of
//!   its cells are freed. The hole never holds a worm.
//! - The players move alternately, one worm per turn. **(decided)** Player 1 (seat 0) moves first;
//!   a tournament plays each map twice with the sides swapped ([`Game::new`]).
//! - A player who cannot move any worm must pass; passing is refused otherwise ([`Game::pass`]).
//! - The first player to put all of their worms into the hole wins ([`EndReason::AllWormsHome`]).
//! - If neither player can move, the game is a draw ([`EndReason::Deadlock`]).
//! - **(decided)** The turn limit is given by the map (a tournament may override it with
//!   [`Map::with_turns`]) and counts every turn of both players, passes included. When it is reached
//!   and nobody has won, fewer worms on the board wins and equal counts draw
//!   ([`EndReason::TurnLimit`]).
//! - If the last allowed turn also produces a deadlock, fewer worms wins, equal counts draw
//!   ([`EndReason::DeadlockOnLastTurn`]).
//!
//! Choices this engine makes where the rules are silent: the end is judged after every turn and
//! once before the first, since a map may start in a deadlock ([`Game`]); a player whose last worm
//! falls on the last allowed turn has won, since the limit applies "when nobody has won"; worms are
//! numbered player 1's first, each player's in the alphabetical order of their map letters, and
//! legal moves are listed by worm, then left, forward, right. Each rule above has a named test in
//! `tests.rs` (moving) or `end_tests.rs` (turns and the end); `conformance.rs` plays seeded random
//! games on every example map and checks the invariants after every turn.
//!
//! | parameter | value |
//! | --- | --- |
//! | players | 2, seat 0 is player 1 and moves first |
//! | grid | at most 30x30 cells ([`MAX_SIDE`]), exactly one hole |
//! | worms | 1 to 20 per player ([`MAX_WORMS`]), 3 cells each |
//! | turn limit | from the map, at least 1, both players' turns and passes counted |
//!
//! The map format is in `map.rs` and `docs/worms-maps.md`; the fast position in `board.rs`; turns and
//! the end of the game in `game.rs`; the fairness check of maps in `symmetry.rs`.

mod board;
mod contract;
pub mod encoding;
mod game;
mod map;
mod parse;
pub mod setup;
mod symmetry;
pub mod view;

#[cfg(test)]
mod conformance;
#[cfg(test)]
mod end_tests;
#[cfg(test)]
mod map_tests;
#[cfg(test)]
mod tests;

pub use board::{Board, MoveList};
pub use botbox_sdk::worms::{Direction, Move, Observation, Turn, Worm};
pub use contract::{RULES, WormsMatch, WormsRules};
pub use game::{Game, Played};
pub use map::{MAX_SIDE, MAX_WORMS, Map, MapError, Pos, Problem, Terrain, WormStart};
pub use symmetry::Symmetry;

use serde::{Deserialize, Serialize};

/// A player's seat: 0 for player 1, who moves first, 1 for player 2.
pub type Seat = usize;

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Outcome {
    pub result: Verdict,
    pub reason: EndReason,
}

impl Outcome {
    pub fn win(seat: Seat, reason: EndReason) -> Outcome {
        Outcome {
            result: Verdict::Win(seat),
            reason,
        }
    }
}

/// Who won. JSON: `{"win": 0}` or `"draw"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The seat that won.
    Win(Seat),
    Draw,
}

/// Why a game ended. JSON: the snake-case name, as `"all_worms_home"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// The winner put all of their worms into the hole.
    AllWormsHome,
    /// Neither player could move: a draw.
    Deadlock,
    /// The turn limit was reached: fewer worms on the board wins.
    TurnLimit,
    /// The last allowed turn left both players stuck: fewer worms on the board wins.
    DeadlockOnLastTurn,
}

impl EndReason {
    pub fn name(self) -> &'static str {
        match self {
            EndReason::AllWormsHome => "all worms home",
            EndReason::Deadlock => "deadlock",
            EndReason::TurnLimit => "turn limit",
            EndReason::DeadlockOnLastTurn => "deadlock on the last turn",
        }
    }
}

/// A move or pass the rules refuse; the game is left as it was. Players are named 1 and 2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    #[error("the game is over")]
    GameOver,
    #[error("there is no worm {worm}")]
    NoSuchWorm { worm: u32 },
    #[error("worm {worm} is not player {}'s", .seat + 1)]
    NotYours { worm: u32, seat: Seat },
    #[error("worm {worm} has fallen into the hole")]
    Fallen { worm: u32 },
    #[error("worm {worm} cannot go {}: the cell is outside the grid, an obstacle or a worm", .turn.name())]
    Blocked { worm: u32, turn: Turn },
    #[error("player {} cannot pass with {moves} legal moves", .seat + 1)]
    PassWithMoves { seat: Seat, moves: usize },
}
