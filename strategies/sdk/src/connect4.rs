//! Connect Four's wire types, as Kaggle's ConnectX environment has them: what a strategy sees before
//! its move and what it answers.
//!
//! The rules are in `docs/connect4.md`. A board has `columns` x `rows` cells (7 x 6 by default); two
//! players take turns dropping a piece into a column that is not full, where it falls to the lowest
//! empty cell; `inarow` pieces of one player in a line (horizontal, vertical or diagonal) win, a full
//! board without one is a draw. Seat 0 plays mark 1 and moves first, seat 1 plays mark 2.
//!
//! The board is a flat list, **row-major from the top row**, as Kaggle sends it: cell `(row, col)`,
//! both counted from 0 with row 0 at the top, is `board[row * columns + col]`, holding 0 for an empty
//! cell or the mark (1 or 2) of the piece on it.
//!
//! An observation for seat 1 on a 7x6 board after seat 0 dropped a piece into the middle column:
//! ```json
//! {"board":[0,0,0,0,0,0,0, 0,0,0,0,0,0,0, 0,0,0,0,0,0,0,
//!           0,0,0,0,0,0,0, 0,0,0,0,0,0,0, 0,0,0,1,0,0,0],
//!  "rows":6,"columns":7,"inarow":4,"mark":2,"legal":[0,1,2,3,4,5,6],"moves":1}
//! ```
//! The answer is a plain JSON integer, the column counted from 0 at the left:
//! ```json
//! 3
//! ```

use serde::{Deserialize, Serialize};

/// A strategy's answer: the column to drop a piece into, counted from 0 at the left. On the wire a
/// plain integer (`3`), not an object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(transparent)]
pub struct Move {
    /// The column, `0..columns`; it must not be full.
    pub column: u32,
}

impl Move {
    pub fn new(column: u32) -> Move {
        Move { column }
    }
}

/// What a Connect Four strategy answers.
pub type Action = Move;

/// The answer's shape in words, for messages to a bot author.
pub const EXPECTED: &str = "a column number, one of the observation's legal columns";

/// The cell value of an empty cell in [`Observation::board`].
pub const EMPTY: u8 = 0;

/// What a Connect Four strategy sees before each of its moves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Observation {
    /// `rows * columns` cells, row-major from the top row: 0 empty, 1 a piece of mark 1 (seat 0),
    /// 2 a piece of mark 2 (seat 1). Cell `(row, col)` is `board[row * columns + col]`.
    pub board: Vec<u8>,
    /// The number of rows (6 by default).
    pub rows: u32,
    /// The number of columns (7 by default).
    pub columns: u32,
    /// How many pieces in a line win (4 by default).
    pub inarow: u32,
    /// The mark of the seat asked: 1 (seat 0, moves first) or 2 (seat 1).
    pub mark: u8,
    /// The columns that are not full, from left to right: the legal answers. Never empty when asked.
    pub legal: Vec<u32>,
    /// Pieces dropped so far by both players.
    pub moves: u32,
}

impl Observation {
    /// The cell at `row` (0 at the top) and `col` (0 at the left): 0, 1 or 2; `None` outside.
    pub fn cell(&self, row: u32, col: u32) -> Option<u8> {
        if row >= self.rows || col >= self.columns {
            return None;
        }
        self.board.get((row * self.columns + col) as usize).copied()
    }

    /// The opponent's mark.
    pub fn opponent_mark(&self) -> u8 {
        3 - self.mark
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_is_a_plain_integer_on_the_wire() {
        let json = serde_json::to_string(&Move::new(3)).unwrap();
        assert_eq!(json, "3");
        assert_eq!(serde_json::from_str::<Move>("6").unwrap(), Move::new(6));
        assert!(serde_json::from_str::<Move>("\"3\"").is_err());
        assert!(serde_json::from_str::<Move>("-1").is_err());
    }

    #[test]
    fn cells_are_row_major_from_the_top() {
        let mut board = vec![EMPTY; 42];
        board[5 * 7 + 3] = 1;
        let obs = Observation {
            board,
            rows: 6,
            columns: 7,
            inarow: 4,
            mark: 2,
            legal: (0..7).collect(),
            moves: 1,
        };
        assert_eq!(obs.cell(5, 3), Some(1));
        assert_eq!(obs.cell(0, 3), Some(0));
        assert_eq!(obs.cell(6, 0), None);
        assert_eq!(obs.opponent_mark(), 1);
    }
}
