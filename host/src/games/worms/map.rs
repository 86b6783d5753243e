//! A Wormworld map: the grid of free cells, obstacles and the hole, the worms' start positions and
//! the turn limit, read from and written to the plain-text format of `docs/worms-maps.md`.
//!
//! ```text
//! ; a comment
//! turns 40
//! #.....#
//! .AAA...
//! ...O...
//! ...aaa.
//! #.....#
//! heads A:left a:right
//! ```
//! One character per cell: `.` free, `#` obstacle, `O` the hole, and each worm drawn with its own
//! letter on its three cells, uppercase for player 1 and lowercase for player 2 (`O` and `o` excepted,
//! so the hole never looks like a worm). A `heads` line says which way each worm faces, which picks
//! its head among its two end cells. Because every cell holds one character, two worms cannot
//! overlap and a worm cannot stand on an obstacle or the hole: the format rules those maps out.
//!
//! The parser (in `parse.rs`) reports the first problem it finds as a [`MapError`] with the line and
//! column (both from 1) and a [`Problem`] that callers can match.

use std::fmt;
use std::str::FromStr;

use super::{Direction, Seat};

/// The largest width and height of a map.
pub const MAX_SIDE: usize = 30;
/// The most worms a player may have.
pub const MAX_WORMS: usize = 20;

/// A cell as `(row, col)`, counted from 0, row 0 at the top.
pub type Pos = (usize, usize);

/// What a cell is, apart from the worms on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Terrain {
    Free,
    Obstacle,
    Hole,
}

/// A worm as it stands before the first move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct WormStart {
    /// The seat it belongs to: 0 for player 1 (uppercase letters), 1 for player 2 (lowercase).
    pub owner: Seat,
    /// Its letter on the map.
    pub letter: char,
    /// Head, middle, tail: a chain of orthogonally adjacent cells.
    pub cells: [Pos; 3],
}

impl WormStart {
    /// The direction from the middle cell to the head.
    pub fn direction(&self) -> Direction {
        direction_between(self.cells[1], self.cells[0])
            .expect("a worm's middle cell is adjacent to its head")
    }
}

/// A parsed, valid map: one hole, one to [`MAX_WORMS`] worms per player, each three connected
/// cells on free ground, at most [`MAX_SIDE`] cells a side, and a turn limit of at least 1.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Map {
    pub(super) width: usize,
    pub(super) height: usize,
    /// Row-major, `width * height` cells.
    pub(super) terrain: Vec<Terrain>,
    pub(super) hole: Pos,
    /// Player 1's worms by letter, then player 2's: a worm's index here is its id.
    pub(super) worms: Vec<WormStart>,
    pub(super) turns: u32,
}

impl Map {
    /// Reads a map in the text format of `docs/worms-maps.md`.
    pub fn parse(text: &str) -> Result<Map, MapError> {
        super::parse::parse(text)
    }

    /// The same map with another turn limit (a tournament may override the map's); at least 1.
    pub fn with_turns(mut self, turns: u32) -> Map {
        self.turns = turns.max(1);
        self
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    /// The terrain at `(row, col)`, which must be on the map.
    pub fn terrain(&self, (row, col): Pos) -> Terrain {
        self.terrain[row * self.width + col]
    }

    pub fn hole(&self) -> Pos {
        self.hole
    }

    /// Every worm, by id: player 1's in letter order, then player 2's.
    pub fn worms(&self) -> &[WormStart] {
        &self.worms
    }

    /// How many worms `seat` starts with.
    pub fn worm_count(&self, seat: Seat) -> usize {
        self.worms.iter().filter(|w| w.owner == seat).count()
    }

    /// The turn limit: turns of both players, passes included.
    pub fn turns(&self) -> u32 {
        self.turns
    }

    /// The grid as text rows, worms drawn with their letters.
    pub fn rows(&self) -> Vec<String> {
        let mut cells: Vec<char> = self.terrain.iter().map(|&t| terrain_char(t)).collect();
        for worm in &self.worms {
            for (row, col) in worm.cells {
                cells[row * self.width + col] = worm.letter;
            }
        }
        cells
            .chunks(self.width)
            .map(|row| row.iter().collect())
            .collect()
    }
}

impl FromStr for Map {
    type Err = MapError;

    fn from_str(text: &str) -> Result<Map, MapError> {
        Map::parse(text)
    }
}

/// The map in its text format; parsing the text gives the same map back.
impl fmt::Display for Map {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "turns {}", self.turns)?;
        for row in self.rows() {
            writeln!(f, "{row}")?;
        }
        for seat in 0..2 {
            write!(f, "heads")?;
            for worm in self.worms.iter().filter(|w| w.owner == seat) {
                write!(f, " {}:{}", worm.letter, worm.direction().name())?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// The map character of a terrain.
pub fn terrain_char(terrain: Terrain) -> char {
    match terrain {
        Terrain::Free => '.',
        Terrain::Obstacle => '#',
        Terrain::Hole => 'O',
    }
}

/// The seat whose worms are drawn with `c`, if `c` is a worm letter.
pub fn worm_owner(c: char) -> Option<Seat> {
    match c {
        'O' | 'o' => None,
        'A'..='Z' => Some(0),
        'a'..='z' => Some(1),
        _ => None,
    }
}

/// The direction of the step from `from` to the orthogonally adjacent `to`.
pub fn direction_between(from: Pos, to: Pos) -> Option<Direction> {
    let (dr, dc) = (
        to.0 as isize - from.0 as isize,
        to.1 as isize - from.1 as isize,
    );
    match (dr, dc) {
        (-1, 0) => Some(Direction::Up),
        (0, 1) => Some(Direction::Right),
        (1, 0) => Some(Direction::Down),
        (0, -1) => Some(Direction::Left),
        _ => None,
    }
}

/// A map that cannot be read: where, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {problem}")]
pub struct MapError {
    /// The line of the text, from 1.
    pub line: usize,
    /// The column (in characters), from 1.
    pub column: usize,
    pub problem: Problem,
}

/// What is wrong with a map. Players are named 1 and 2, as in the rules.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    #[error("no `turns N` line: a map gives its turn limit")]
    MissingTurns,
    #[error("a second `turns` line")]
    DuplicateTurns,
    #[error("{text:?} is not a turn limit: write `turns N` with a whole number N of at least 1")]
    BadTurns { text: String },
    #[error("no grid: the map needs rows of cells")]
    NoGrid,
    #[error("a grid row after the grid ended: the rows must be consecutive lines")]
    SplitGrid,
    #[error(
        "{found:?} is not a cell: use . (free), # (obstacle), O (the hole), A-Z for player 1's worms \
         or a-z for player 2's (not O or o)"
    )]
    UnknownChar { found: char },
    #[error("this row has {len} cells but the first row has {width}")]
    Ragged { len: usize, width: usize },
    #[error("the grid is {width} cells wide; at most {MAX_SIDE}")]
    TooWide { width: usize },
    #[error("the grid has {height} rows; at most {MAX_SIDE}")]
    TooTall { height: usize },
    #[error("no hole: put one O on the grid")]
    NoHole,
    #[error("a second hole (the first is at line {line}, column {column}): a map has exactly one")]
    TwoHoles { line: usize, column: usize },
    #[error("worm {letter} has {count} cells; a worm has exactly 3")]
    WormLength { letter: char, count: usize },
    #[error("worm {letter} is not three orthogonally connected cells")]
    WormShape { letter: char },
    #[error("player {player} has {count} worms; at most {MAX_WORMS}")]
    TooManyWorms { player: usize, count: usize },
    #[error("player {player} has no worm")]
    NoWorms { player: usize },
    #[error(
        "{text:?} is not a head: write LETTER:DIRECTION, as in A:left (up, down, left or right)"
    )]
    BadHead { text: String },
    #[error("worm {letter} is not on the grid")]
    UnknownWorm { letter: char },
    #[error("worm {letter}'s head is given twice")]
    DuplicateHead { letter: char },
    #[error(
        "worm {letter} cannot face {}: its head is one of its end cells, so it faces {} or {}",
        .direction.name(), .choices[0].name(), .choices[1].name()
    )]
    HeadNotAnEnd {
        letter: char,
        direction: Direction,
        choices: [Direction; 2],
    },
    #[error("worm {letter} has no head: add {letter}:DIRECTION to a `heads` line")]
    MissingHead { letter: char },
}
