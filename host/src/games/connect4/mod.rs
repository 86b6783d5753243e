//! Connect Four, with the rules and the variant parameters of Kaggle's ConnectX environment
//! (`docs/connect4.md`): two players drop pieces into the columns of an upright grid and race to line
//! up `inarow` of their own.
//!
//! The rules, each with the place the engine implements it:
//! - The grid has `columns` x `rows` cells, 7 x 6 by default ([`Config`]); it starts empty.
//! - Seat 0 plays mark 1 and moves first; seat 1 plays mark 2. The players alternate, one piece per
//!   turn; nobody passes ([`Game::to_move`]).
//! - A move names a column, counted from 0 at the left. The piece falls to the lowest empty cell of
//!   that column ([`Board::drop`]); a full column, or a column outside the grid, is refused and
//!   changes nothing ([`IllegalMove`]).
//! - `inarow` pieces of one mark in an unbroken line, horizontal, vertical or along either diagonal,
//!   win at once for the player who completed it ([`EndReason::Line`], [`Board::has_line`]).
//! - A full grid without such a line is a draw ([`EndReason::BoardFull`]). The last piece can still
//!   win: a line is looked for before fullness.
//! - There is no chance: a game is a function of its moves alone.
//!
//! | parameter | value |
//! | --- | --- |
//! | players | 2, seat 0 has mark 1 and moves first |
//! | `columns`, `rows` | at least [`MIN_SIDE`] each, and `(rows + 1) * columns` at most 64 (the bitboard) |
//! | `inarow` | 3 to the smaller of `rows` and `columns` |
//! | variants | `standard` (7x6, 4 in a row) and any `COLSxROWS-INAROW` such as `9x7-5` ([`Config::parse`]) |
//!
//! The position is a bitboard ([`Board`]): one `u64` per player, column after column from the left,
//! each column from the bottom with one empty sentinel bit above its top cell, so that no line can
//! run from one column into the next. The wire types are the SDK's ([`Observation`], [`Move`]); the
//! contract the rest of botbox sees is in `contract.rs` ([`RULES`]). Each rule above has a named test
//! in `tests.rs`; `playouts.rs` plays seeded random games against a plain reference check.

mod board;
mod contract;
mod game;
pub mod view;

#[cfg(test)]
mod playouts;
#[cfg(test)]
mod tests;

pub use board::Board;
pub use botbox_sdk::connect4::{Action, Move, Observation};
pub use contract::{Connect4Match, Connect4Rules, RULES};
pub use game::{Game, Played};

use serde::{Deserialize, Serialize};

/// A player's seat: 0 for mark 1, who moves first, 1 for mark 2.
pub type Seat = usize;

/// The smallest number of rows and of columns.
pub const MIN_SIDE: u32 = 4;
/// The bits of the bitboard: `(rows + 1) * columns` may not exceed it.
pub const BITS: u32 = 64;
/// The most columns a board can have (with [`MIN_SIDE`] rows).
pub const MAX_COLUMNS: u32 = BITS / (MIN_SIDE + 1);
/// The most rows a board can have (with [`MIN_SIDE`] columns).
pub const MAX_ROWS: u32 = BITS / MIN_SIDE - 1;
/// The shortest winning line.
pub const MIN_INAROW: u32 = 3;

/// The shape of a game: the grid's size and the length of a winning line. Build it with
/// [`Config::new`] or [`Config::parse`], which check it; [`Game::new`] checks it again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Config {
    pub columns: u32,
    pub rows: u32,
    pub inarow: u32,
}

impl Config {
    /// Kaggle's default: 7 columns, 6 rows, 4 in a row.
    pub const STANDARD: Config = Config {
        columns: 7,
        rows: 6,
        inarow: 4,
    };

    /// A checked shape.
    pub fn new(columns: u32, rows: u32, inarow: u32) -> Result<Config, ConfigError> {
        Config {
            columns,
            rows,
            inarow,
        }
        .checked()
    }

    /// `self` if the engine can play it, else why not.
    pub fn checked(self) -> Result<Config, ConfigError> {
        let Config {
            columns,
            rows,
            inarow,
        } = self;
        if columns < MIN_SIDE || rows < MIN_SIDE {
            return Err(ConfigError::TooSmall { columns, rows });
        }
        if (rows + 1).saturating_mul(columns) > BITS {
            return Err(ConfigError::TooLarge { columns, rows });
        }
        let longest = rows.min(columns);
        if !(MIN_INAROW..=longest).contains(&inarow) {
            return Err(ConfigError::Inarow { inarow, longest });
        }
        Ok(self)
    }

    /// Reads a shape written `COLSxROWS-INAROW`, as `7x6-4` or `9x7-5`, and checks it.
    pub fn parse(name: &str) -> Result<Config, ConfigError> {
        let bad = || ConfigError::Name(name.to_string());
        let (size, inarow) = name.split_once('-').ok_or_else(bad)?;
        let (columns, rows) = size.split_once(['x', 'X']).ok_or_else(bad)?;
        let number = |s: &str| -> Result<u32, ConfigError> {
            if s.is_empty() || s.len() > 3 || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            s.parse().map_err(|_| bad())
        };
        Config::new(number(columns)?, number(rows)?, number(inarow)?)
    }

    /// The number of cells.
    pub fn cells(self) -> u32 {
        self.columns * self.rows
    }
}

/// `COLSxROWS-INAROW`, the form [`Config::parse`] reads.
impl std::fmt::Display for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{}-{}", self.columns, self.rows, self.inarow)
    }
}

/// A shape the engine refuses.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error(
        "a board of {columns} columns and {rows} rows is too small: both need to be at least {MIN_SIDE}"
    )]
    TooSmall { columns: u32, rows: u32 },
    #[error(
        "a board of {columns} columns and {rows} rows is too large: (rows + 1) x columns = {} is more than the {BITS} bits of the bitboard",
        (.rows + 1).saturating_mul(*.columns)
    )]
    TooLarge { columns: u32, rows: u32 },
    #[error(
        "{inarow} in a row cannot be played: it must be from {MIN_INAROW} to {longest}, the smaller of rows and columns"
    )]
    Inarow { inarow: u32, longest: u32 },
    #[error("{0:?} is not a Connect Four shape: write COLUMNSxROWS-INAROW, as 7x6-4, with numbers")]
    Name(String),
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Outcome {
    /// The seat that won, or `None` for a draw.
    pub winner: Option<Seat>,
    pub reason: EndReason,
}

/// Why a game ended. JSON: `"line"` or `"board-full"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    /// The last mover completed a line of `inarow` pieces and won.
    Line,
    /// The grid is full and nobody has a line: a draw.
    BoardFull,
}

impl EndReason {
    /// The reason's name in outcomes and replays: `line` or `board-full`.
    pub fn name(self) -> &'static str {
        match self {
            EndReason::Line => "line",
            EndReason::BoardFull => "board-full",
        }
    }
}

/// A move the rules refuse; the game is left as it was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    #[error("the game is over")]
    GameOver,
    #[error("there is no column {column}: the columns are 0 to {}", .columns - 1)]
    NoSuchColumn { column: i64, columns: u32 },
    #[error("column {column} is full")]
    ColumnFull { column: u32 },
}
