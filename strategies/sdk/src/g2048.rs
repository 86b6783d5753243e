//! 2048's wire types: what a strategy sees and what it answers.

use serde::{Deserialize, Serialize};

/// One of the four moves. On the wire it is a lowercase string: `"left"`, `"right"`, `"up"`, `"down"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    Left,
    Right,
    Up,
    Down,
}

impl Direction {
    /// All four, in the order the host numbers them (0 left, 1 right, 2 up, 3 down).
    pub const ALL: [Direction; 4] = [
        Direction::Left,
        Direction::Right,
        Direction::Up,
        Direction::Down,
    ];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        match self {
            Direction::Left => "left",
            Direction::Right => "right",
            Direction::Up => "up",
            Direction::Down => "down",
        }
    }

    pub fn from_name(name: &str) -> Option<Direction> {
        Direction::ALL.into_iter().find(|d| d.name() == name)
    }
}

/// What a 2048 strategy sees before each move.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Observation {
    /// The board as rows from top to bottom, each from left to right; tile values (2, 4, 8, ...), 0 for empty.
    pub board: Vec<Vec<u32>>,
    /// The score so far: the sum of the values of all tiles produced by merges.
    pub score: u64,
    /// The number of moves made so far.
    pub moves: u32,
    /// The moves that change the board, in the order left, right, up, down. Never empty when asked.
    pub legal: Vec<Direction>,
}

impl Observation {
    /// The board as 16 base-2 exponents, row-major (0 for empty): the layout of the host functions in
    /// [`crate::host`]. Only meaningful on a 4x4 board.
    pub fn exponents(&self) -> [u8; 16] {
        let mut cells = [0u8; 16];
        for (i, v) in self.board.iter().flatten().take(16).enumerate() {
            cells[i] = if *v == 0 { 0 } else { v.trailing_zeros() as u8 };
        }
        cells
    }
}
