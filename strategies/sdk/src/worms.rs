//! Wormworld's wire types: what a strategy sees before its move and what it answers.
//!
//! The rules are in `docs/worms.md`. Both shapes are plain JSON built from numbers, strings and
//! arrays, so a Lua script reads them as tables and a C program with a small JSON reader walks them
//! without any schema of its own.
//!
//! Coordinates are `[row, col]` pairs counted **from 0**, row 0 at the top, column 0 at the left. Seats
//! are counted from 0: seat 0 is player 1, who moves first, and seat 1 is player 2.
//!
//! An observation, for seat 0 on a 7x5 map (`"board"` shortened to two of its rows):
//! ```json
//! {"you":0,"turn":0,"turn_limit":40,"width":7,"height":5,
//!  "board":[".AAA...", "...O..."],
//!  "hole":[2,3],"obstacles":[[0,6]],
//!  "worms":[{"id":0,"owner":0,"letter":"A","cells":[[1,1],[1,2],[1,3]],"direction":"left"},
//!           {"id":1,"owner":1,"letter":"a","cells":[[3,5],[3,4],[3,3]],"direction":"right"}],
//!  "legal":[{"worm":0,"turn":"left"},{"worm":0,"turn":"forward"},{"worm":0,"turn":"right"}]}
//! ```
//! The answer names one of the seat's worms and how its head turns:
//! ```json
//! {"worm":0,"turn":"forward"}
//! ```

use serde::{Deserialize, Serialize};

/// How a worm's head moves, relative to the direction it faces. On the wire a lowercase string:
/// `"left"`, `"forward"` or `"right"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Turn {
    Left,
    Forward,
    Right,
}

impl Turn {
    /// All three, in the order the host lists legal moves: left, forward, right.
    pub const ALL: [Turn; 3] = [Turn::Left, Turn::Forward, Turn::Right];

    pub fn name(self) -> &'static str {
        match self {
            Turn::Left => "left",
            Turn::Forward => "forward",
            Turn::Right => "right",
        }
    }

    pub fn from_name(name: &str) -> Option<Turn> {
        Turn::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// The direction a worm faces: from its middle cell to its head. On the wire a lowercase string:
/// `"up"` (towards row 0), `"right"`, `"down"` or `"left"` (towards column 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    Up,
    Right,
    Down,
    Left,
}

impl Direction {
    /// All four, clockwise from up; [`Direction::index`] numbers them 0 to 3 in this order.
    pub const ALL: [Direction; 4] = [
        Direction::Up,
        Direction::Right,
        Direction::Down,
        Direction::Left,
    ];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        match self {
            Direction::Up => "up",
            Direction::Right => "right",
            Direction::Down => "down",
            Direction::Left => "left",
        }
    }

    pub fn from_name(name: &str) -> Option<Direction> {
        Direction::ALL.into_iter().find(|d| d.name() == name)
    }

    /// The direction a worm facing `self` faces after `turn`.
    pub fn turned(self, turn: Turn) -> Direction {
        let quarter = match turn {
            Turn::Left => 3,
            Turn::Forward => 0,
            Turn::Right => 1,
        };
        Direction::ALL[(self.index() + quarter) % 4]
    }

    /// The step `(rows, cols)` one cell in this direction.
    pub fn delta(self) -> (i32, i32) {
        match self {
            Direction::Up => (-1, 0),
            Direction::Right => (0, 1),
            Direction::Down => (1, 0),
            Direction::Left => (0, -1),
        }
    }
}

/// A strategy's answer: which of its worms moves (by [`Worm::id`]) and how its head turns.
/// JSON: `{"worm": 3, "turn": "left"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Move {
    /// The worm's id, as in [`Observation::worms`].
    pub worm: u32,
    /// Left, forward or right, relative to the direction the worm faces.
    pub turn: Turn,
}

/// What a Wormworld strategy answers.
pub type Action = Move;

/// The answer's shape in words, for messages to a bot author.
pub const EXPECTED: &str =
    "a move such as {\"worm\": 3, \"turn\": \"left\"}, the turn \"left\", \"forward\" or \"right\"";

/// A worm on the board. Worms that fell into the hole are no longer listed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Worm {
    /// The worm's id, fixed for the whole game: player 1's worms are numbered first, each player's
    /// in the alphabetical order of their letters on the map.
    pub id: u32,
    /// The seat the worm belongs to: 0 (player 1) or 1 (player 2).
    pub owner: u32,
    /// The worm's letter on the map and in `board`: uppercase for player 1, lowercase for player 2.
    pub letter: char,
    /// The worm's three cells as `[row, col]`, head first, then the middle, then the tail.
    pub cells: [[u32; 2]; 3],
    /// The direction from the middle cell to the head: where `"forward"` goes.
    pub direction: Direction,
}

impl Worm {
    pub fn head(&self) -> [u32; 2] {
        self.cells[0]
    }
}

/// What a Wormworld strategy sees before each of its moves. A player with no legal move is not
/// asked: the host passes for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Observation {
    /// The seat being asked: 0 (player 1, uppercase worms) or 1 (player 2, lowercase worms).
    pub you: u32,
    /// The turns played so far by both players, passes included: this move is turn `turn + 1`.
    pub turn: u32,
    /// The game ends when `turn` reaches this number; then the player with fewer worms on the
    /// board wins (equal counts draw).
    pub turn_limit: u32,
    /// The number of columns.
    pub width: u32,
    /// The number of rows.
    pub height: u32,
    /// The board as `height` strings of `width` characters, top row first: `.` free, `#` obstacle,
    /// `O` the hole, and a worm's letter on each of its cells (`A`-`Z` player 1, `a`-`z` player 2,
    /// never `O` or `o`). Only `.` and `O` can be entered.
    pub board: Vec<String>,
    /// The hole's cell, `[row, col]`.
    pub hole: [u32; 2],
    /// Every obstacle cell, `[row, col]`, in row-major order.
    pub obstacles: Vec<[u32; 2]>,
    /// The worms still on the board, both players', by id.
    pub worms: Vec<Worm>,
    /// The moves the asked player may make, by worm id, then left, forward, right.
    pub legal: Vec<Move>,
}

impl Observation {
    /// The character of the cell at `row`, `col` (see [`Observation::board`]), or `None` outside.
    pub fn cell(&self, row: u32, col: u32) -> Option<char> {
        let line = self.board.get(row as usize)?;
        line.as_bytes().get(col as usize).map(|&b| char::from(b))
    }

    /// The asked player's worms still on the board.
    pub fn my_worms(&self) -> impl Iterator<Item = &Worm> {
        self.worms.iter().filter(|w| w.owner == self.you)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_has_the_documented_json_shape() {
        let answer = Move {
            worm: 3,
            turn: Turn::Left,
        };
        let json = serde_json::to_string(&answer).unwrap();
        assert_eq!(json, r#"{"worm":3,"turn":"left"}"#);
        assert_eq!(serde_json::from_str::<Move>(&json).unwrap(), answer);
    }

    #[test]
    fn turning_is_relative_to_the_direction_faced() {
        let cases = [
            (Direction::Up, Turn::Left, Direction::Left),
            (Direction::Up, Turn::Right, Direction::Right),
            (Direction::Left, Turn::Left, Direction::Down),
            (Direction::Down, Turn::Right, Direction::Left),
            (Direction::Right, Turn::Forward, Direction::Right),
        ];
        for (facing, turn, expected) in cases {
            assert_eq!(facing.turned(turn), expected, "{facing:?} {turn:?}");
        }
    }

    #[test]
    fn names_round_trip() {
        for turn in Turn::ALL {
            assert_eq!(Turn::from_name(turn.name()), Some(turn));
        }
        for direction in Direction::ALL {
            assert_eq!(Direction::from_name(direction.name()), Some(direction));
        }
        assert_eq!(Turn::from_name("back"), None);
    }
}
