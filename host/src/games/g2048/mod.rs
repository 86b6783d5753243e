//! 2048, as specified in `docs/2048.md`: a square board (4x4 by default, 3x3 to 8x8 here) of tiles
//! labelled with powers of two. A move pushes every tile left, right, up or down; two equal tiles that
//! collide merge into their sum, which does not merge again in the same move, and the pair nearest
//! the edge pushed towards merges first (`[0 2 2 2]` right gives `[0 0 2 4]`). A move is legal only if
//! it changes the board; after it one tile appears on a uniformly random empty cell, a 2 with
//! probability 0.9 and a 4 otherwise. The game starts with two such tiles, every merge adds the new
//! tile's value to the score, a 2048 tile wins (play goes on), and no legal move left ends the game.
//!
//! Tiles are stored as base-2 exponents (0 for an empty cell, 1 for a 2, 11 for a 2048). The module
//! has two boards with one API:
//! - [`Board4`], the fast 4x4 path: the board packed in a `u64` and moves done by table look-ups,
//!   for tournaments and for strategies that search millions of positions;
//! - [`Grid`], the general path for every size: plain code that is obviously correct, and the
//!   reference the fast path is checked against move by move.
//!
//! [`Game`] owns one of them (through [`Board`]) with the score, the move count and the game's own
//! random number generator, and turns it into the [`Observation`] a strategy sees.
//!
//! | parameter | value |
//! | --- | --- |
//! | players | 1 |
//! | board sizes | 3..=8 (4 by default; 4 takes the fast path) |
//! | spawn | 2 with p = 0.9, 4 with p = 0.1, uniform over the empty cells |
//! | win | a 2048 tile exists (exponent 11) |
//! | largest tile | 2^17 on 4x4; the engine stops merging at 2^31 so every value fits a `u32` |
//!
//! The random draws of a spawn are made by one function, `draw_spawn`, in one order (first the
//! cell among the empty ones in row-major order, then the tile), so both boards given the same
//! generator spawn the same tiles: the fast path and the general path can be compared exactly.

mod board;
mod contract;
pub mod encoding;
pub mod evil;
mod game;
mod grid;
pub mod session;
pub mod setup;
pub mod view;

#[cfg(test)]
mod conformance;
#[cfg(test)]
mod tests;

pub use board::Board4;
pub use botbox_sdk::g2048::{Direction, Observation};
pub use contract::{G2048Match, G2048Rules, MOVE_CAP, RULES};
pub use game::{Board, Game, Playout, Step, play_random};
pub use grid::Grid;

use rand::RngExt;

/// The smallest board side supported.
pub const MIN_SIZE: usize = 3;
/// The largest board side supported.
pub const MAX_SIZE: usize = 8;
/// The side of the default board, the one with the fast path.
pub const DEFAULT_SIZE: usize = 4;
/// The exponent of the winning tile, 2048.
pub const WIN_EXPONENT: u8 = 11;
/// The largest exponent a tile can reach: two tiles of 2^31 do not merge, so that every tile value
/// fits the `u32` of [`Observation`]. On 4x4 the largest reachable tile is 2^17 anyway, and on
/// bigger boards a 2^31 tile takes over half a billion moves (each move adds at most a 4).
pub const MAX_EXPONENT: u8 = 31;
/// The probability that a new tile is a 2 (exponent 1) rather than a 4 (exponent 2).
pub const TWO_PROBABILITY: f64 = 0.9;

/// A board side outside `MIN_SIZE..=MAX_SIZE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a 2048 board is {MIN_SIZE} to {MAX_SIZE} cells wide, not {size}")]
pub struct SizeError {
    pub size: usize,
}

/// A board given as rows of tile values that is not a 2048 board.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    #[error(transparent)]
    Size(#[from] SizeError),
    #[error("row {row} has {len} cells on a board {size} cells wide")]
    Ragged { row: usize, len: usize, size: usize },
    #[error("{len} cells do not make a board {size} cells wide")]
    Cells { len: usize, size: usize },
    #[error(
        "{value} is not a tile: tiles are powers of two from 2 to 2^{MAX_EXPONENT}, or 0 for empty"
    )]
    Tile { value: u32 },
    #[error("exponent {exponent} is past the largest tile, 2^{MAX_EXPONENT}")]
    Exponent { exponent: u8 },
}

/// A move that changes nothing: it is illegal, and no tile is spawned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("moving {} changes nothing", .direction.name())]
pub struct IllegalMove {
    pub direction: Direction,
}

/// Checks a board side.
pub fn check_size(size: usize) -> Result<usize, SizeError> {
    if (MIN_SIZE..=MAX_SIZE).contains(&size) {
        Ok(size)
    } else {
        Err(SizeError { size })
    }
}

/// The value of the tile with `exponent`, 0 for an empty cell.
pub fn value(exponent: u8) -> u32 {
    if exponent == 0 { 0 } else { 1 << exponent }
}

/// The exponent of a tile `value` (0 for empty), or `None` if it is not a tile.
pub fn exponent_of(value: u32) -> Option<u8> {
    match value {
        0 => Some(0),
        1 => None,
        v if v.is_power_of_two() => Some(v.trailing_zeros() as u8),
        _ => None,
    }
}

/// Draws a spawn on a board with `empty` empty cells (at least one): which empty cell, counted in
/// row-major order from 0, and the new tile's exponent.
///
/// Both boards spawn through this function so that, given the same generator, they draw the same
/// numbers in the same order and spawn the same tile.
pub(crate) fn draw_spawn<R: rand::Rng + ?Sized>(rng: &mut R, empty: u32) -> (u32, u8) {
    debug_assert!(empty > 0, "spawning on a full board");
    let nth = rng.random_range(0..empty);
    let exponent = if rng.random_bool(TWO_PROBABILITY) {
        1
    } else {
        2
    };
    (nth, exponent)
}
