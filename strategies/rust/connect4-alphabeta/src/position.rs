//! The position as a bitboard, in the layout of the host's engine: bit `col * (rows + 1) + row`,
//! rows counted from the bottom, one empty sentinel bit above each column.
//!
//! Two words describe a position, as in Pascal Pons's solver: `mask`, every piece, and `current`,
//! the pieces of the player to move. A move XORs `current` with `mask` (the other player's pieces
//! become the ones to move) and adds the column's next cell to `mask`. `current + mask` identifies
//! a position uniquely (per column it is a distinct number for each height and colouring) and serves
//! as the transposition key.

use botbox_sdk::connect4::Observation;

/// The most columns a 64-bit board can have (with 4 rows: 5 bits a column).
pub const MAX_COLUMNS: usize = 12;
/// The longest line the search plays for: the host's boards allow at most 7 (8 x 7).
pub const MAX_INAROW: usize = 8;

/// The shape of a board and the masks that follow from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shape {
    pub columns: u32,
    pub rows: u32,
    pub inarow: u32,
    /// `rows + 1`.
    pub stride: u32,
    /// The bottom cell of every column.
    pub bottom: u64,
    /// Every cell of the board (no sentinels).
    pub cells: u64,
    /// The shifts of the four directions: up a column, along a row, the two diagonals.
    pub directions: [u32; 4],
}

impl Shape {
    /// The shape, if the board fits 64 bits with its sentinels and `inarow` is at least 2 and at
    /// most the smaller side (the host asks at least 3).
    pub fn new(columns: u32, rows: u32, inarow: u32) -> Option<Shape> {
        if columns == 0
            || rows == 0
            || columns as usize > MAX_COLUMNS
            || (u64::from(rows) + 1) * u64::from(columns) > 64
            || inarow < 2
            || inarow > rows.min(columns)
            || inarow as usize > MAX_INAROW
        {
            return None;
        }
        let stride = rows + 1;
        let column = (1u64 << rows) - 1;
        let (bottom, cells) = (0..columns).fold((0, 0), |(b, c), col| {
            (b | 1 << (col * stride), c | column << (col * stride))
        });
        Some(Shape {
            columns,
            rows,
            inarow,
            stride,
            bottom,
            cells,
            directions: [1, stride, stride - 1, stride + 1],
        })
    }

    /// The cells of column `col`.
    pub fn column(&self, col: u32) -> u64 {
        ((1u64 << self.rows) - 1) << (col * self.stride)
    }

    /// `bits` moved `steps` cells along shift `d`: right (towards lower bits) for positive steps.
    /// The shift stays below 64: at most `(inarow - 1) * (rows + 2)`, which is less than 64
    /// whenever `(rows + 1) * columns <= 64` and `inarow <= min(rows, columns)`.
    fn along(bits: u64, d: u32, steps: i32) -> u64 {
        if steps > 0 {
            bits >> (d * steps as u32)
        } else {
            bits << (d * steps.unsigned_abs())
        }
    }

    /// Whether `stones` hold a line of `inarow`.
    pub fn has_line(&self, stones: u64) -> bool {
        self.directions.iter().any(|&d| {
            (1..self.inarow as i32).fold(stones, |run, i| run & Shape::along(stones, d, i)) != 0
        })
    }

    /// Every cell (taken or not, sentinels excluded) that would complete a line of `inarow` for
    /// `stones`. Along each direction, `ahead[i]` holds the cells whose next `i` cells are
    /// `stones` and `behind[i]` those whose previous `i` are; a cell completes a line when, for
    /// some `i`, `i` cells ahead and `inarow - 1 - i` behind are `stones`.
    pub fn winning_cells(&self, stones: u64) -> u64 {
        let k = self.inarow as usize;
        let mut cells = 0;
        for &d in &self.directions {
            let mut behind = [!0u64; MAX_INAROW];
            for i in 1..k {
                behind[i] = behind[i - 1] & Shape::along(stones, d, -(i as i32));
            }
            let mut ahead = !0u64;
            cells |= behind[k - 1];
            for i in 1..k {
                ahead &= Shape::along(stones, d, i as i32);
                cells |= ahead & behind[k - 1 - i];
            }
        }
        cells & self.cells
    }
}

/// A position: the pieces, whose turn it is, and the number of pieces played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// The pieces of the player to move.
    pub current: u64,
    /// Every piece.
    pub mask: u64,
    /// Pieces on the board.
    pub moves: u32,
}

/// Why an observation could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadError {
    /// The board does not fit 64 bits or its numbers disagree.
    Shape,
    /// A cell holds something other than 0, 1 or 2, or a piece floats.
    Cells,
}

impl Position {
    /// The position and shape of `obs`, the asking player to move.
    pub fn from_observation(obs: &Observation) -> Result<(Shape, Position), ReadError> {
        let shape = Shape::new(obs.columns, obs.rows, obs.inarow).ok_or(ReadError::Shape)?;
        if obs.board.len() != (obs.rows * obs.columns) as usize || !(1..=2).contains(&obs.mark) {
            return Err(ReadError::Shape);
        }
        let mut pos = Position {
            current: 0,
            mask: 0,
            moves: 0,
        };
        for col in 0..obs.columns {
            let mut landed = true;
            for row in 0..obs.rows {
                // `row` from the bottom; the observation counts from the top.
                let cell = obs.board[((obs.rows - 1 - row) * obs.columns + col) as usize];
                let bit = 1u64 << (col * shape.stride + row);
                match cell {
                    0 => landed = false,
                    1 | 2 if landed => {
                        pos.mask |= bit;
                        pos.moves += 1;
                        if cell == obs.mark {
                            pos.current |= bit;
                        }
                    }
                    _ => return Err(ReadError::Cells),
                }
            }
        }
        Ok((shape, pos))
    }

    /// The next free cell of every column that has one.
    pub fn playable(&self, shape: &Shape) -> u64 {
        (self.mask + shape.bottom) & shape.cells
    }

    /// The position after the player to move takes `cell` (one bit of [`Position::playable`]).
    pub fn play(&self, cell: u64) -> Position {
        Position {
            current: self.current ^ self.mask,
            mask: self.mask | cell,
            moves: self.moves + 1,
        }
    }

    /// The pieces of the player who just moved (not to move).
    pub fn opponent(&self) -> u64 {
        self.current ^ self.mask
    }

    /// The empty cells that would complete a line for the player to move.
    pub fn my_threats(&self, shape: &Shape) -> u64 {
        shape.winning_cells(self.current) & !self.mask
    }

    /// The empty cells that would complete a line for the other player.
    pub fn their_threats(&self, shape: &Shape) -> u64 {
        shape.winning_cells(self.opponent()) & !self.mask
    }

    /// The cells the player to move may take without letting the other player win at once: the
    /// other's immediate win if there is exactly one (none at all if there are two), never a cell
    /// just below one of the other's threats. Assumes the player to move cannot win at once.
    pub fn safe_moves(&self, shape: &Shape) -> u64 {
        Position::safe_among(self.playable(shape), self.their_threats(shape))
    }

    /// [`Position::safe_moves`] from the playable cells and the other player's threats.
    pub fn safe_among(playable: u64, threats: u64) -> u64 {
        let mut playable = playable;
        let forced = playable & threats;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return 0;
            }
            playable = forced;
        }
        playable & !(threats >> 1)
    }

    /// The transposition key: unique for a position of the shape.
    pub fn key(&self) -> u64 {
        self.current.wrapping_add(self.mask)
    }

    /// The column of `cell`.
    pub fn column_of(shape: &Shape, cell: u64) -> u32 {
        cell.trailing_zeros() / shape.stride
    }
}
