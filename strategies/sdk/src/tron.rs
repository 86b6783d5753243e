//! Tron light cycles' wire types (the Google AI Challenge of 2010): what a strategy sees each turn
//! and what it answers.
//!
//! The rules are in `docs/tron.md`. Two players move at the same time on a grid, each leaving a wall
//! behind; whoever runs into a wall, the edge or the other's head-on cell crashes. Both decide on the
//! same position: neither sees the other's answer of the turn.
//!
//! The board is a list of rows, top row first: `#` a wall (the map's or a trail), `.` a free cell,
//! `1` and `2` the heads of seat 0 and seat 1. An observation for seat 1 on a 5x4 board:
//! ```json
//! {"rows":["#####","#1..#","#..2#","#####"],"width":5,"height":4,
//!  "you":[2,3],"opponent":[1,1],"player":2,"turn":0}
//! ```
//! The answer is a direction; north is towards the top row:
//! ```json
//! "west"
//! ```

use serde::{Deserialize, Serialize};

/// A strategy's answer: where its head moves this turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Move {
    /// Towards the top row.
    North,
    East,
    South,
    West,
}

impl Move {
    /// Every direction, in the order north, east, south, west.
    pub const ALL: [Move; 4] = [Move::North, Move::East, Move::South, Move::West];

    /// The change of (row, column) the move makes.
    pub fn delta(self) -> (i32, i32) {
        match self {
            Move::North => (-1, 0),
            Move::East => (0, 1),
            Move::South => (1, 0),
            Move::West => (0, -1),
        }
    }

    /// The direction's name on the wire.
    pub fn name(self) -> &'static str {
        match self {
            Move::North => "north",
            Move::East => "east",
            Move::South => "south",
            Move::West => "west",
        }
    }
}

/// What a Tron strategy answers.
pub type Action = Move;

/// The answer's shape in words, for messages to a bot author.
pub const EXPECTED: &str = "a direction: \"north\", \"east\", \"south\" or \"west\"";

/// What a Tron strategy sees at the start of each turn (the whole board: Tron has no hidden
/// information).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Observation {
    /// The board, top row first: `#` a wall (the map's or a trail), `.` free, `1` and `2` the heads
    /// of seat 0 and seat 1.
    pub rows: Vec<String>,
    pub width: u32,
    pub height: u32,
    /// Your head, `[row, column]`, both from 0 at the top left.
    pub you: [u32; 2],
    /// The opponent's head.
    pub opponent: [u32; 2],
    /// Your mark on the board: 1 (seat 0) or 2 (seat 1).
    pub player: u32,
    /// Turns played so far.
    pub turn: u32,
}
