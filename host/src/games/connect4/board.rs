//! The position as a bitboard: one `u64` per seat.
//!
//! Bit `col * (rows + 1) + row` is the cell in column `col` (0 at the left) and row `row` counted
//! **from the bottom** (0 the lowest). Each column has one more bit than it has rows: the sentinel
//! above its top cell, never set. A line is found by shifting a player's bits along a direction,
//! `1` up a column, `rows + 1` along a row, `rows` and `rows + 2` along the two diagonals: a run that
//! would wrap from the top of one column to the bottom of the next, or leave the board, has to pass a
//! sentinel or fall off the end of the word, so it breaks there.
//!
//! The wire and [`super::Observation`] count rows from the top; [`Board::cells`] converts.

use super::{Config, ConfigError, MAX_COLUMNS, Seat};

/// A Connect Four position: both players' pieces and the height of every column.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    config: Config,
    /// `rows + 1`: the bits of one column, the sentinel included.
    stride: u32,
    /// Each seat's pieces.
    pieces: [u64; 2],
    /// The pieces in each column.
    heights: [u8; MAX_COLUMNS as usize],
    /// Pieces on the board.
    count: u32,
}

impl Board {
    /// An empty board of `config`'s shape, if the engine can play it.
    pub fn new(config: Config) -> Result<Board, ConfigError> {
        let config = config.checked()?;
        Ok(Board {
            config,
            stride: config.rows + 1,
            pieces: [0; 2],
            heights: [0; MAX_COLUMNS as usize],
            count: 0,
        })
    }

    pub fn config(&self) -> Config {
        self.config
    }

    /// The bit of the cell in column `col`, `row` counted from the bottom.
    pub fn bit(&self, col: u32, row: u32) -> u64 {
        debug_assert!(col < self.config.columns && row <= self.config.rows);
        1 << (col * self.stride + row)
    }

    /// `seat`'s pieces, in the layout of the module's doc.
    pub fn pieces(&self, seat: Seat) -> u64 {
        self.pieces[seat]
    }

    /// Every piece on the board.
    pub fn occupied(&self) -> u64 {
        self.pieces[0] | self.pieces[1]
    }

    /// The pieces in column `col`.
    pub fn height(&self, col: u32) -> u32 {
        u32::from(self.heights[col as usize])
    }

    /// Pieces on the board.
    pub fn count(&self) -> u32 {
        self.count
    }

    pub fn is_full(&self) -> bool {
        self.count == self.config.cells()
    }

    /// Whether column `col` exists and has room.
    pub fn can_drop(&self, col: u32) -> bool {
        col < self.config.columns && self.height(col) < self.config.rows
    }

    /// The open columns as bits: bit `col` is set when column `col` has room.
    pub fn open_columns(&self) -> u32 {
        (0..self.config.columns)
            .filter(|&col| self.height(col) < self.config.rows)
            .fold(0, |open, col| open | 1 << col)
    }

    /// Drops a piece of `seat` into column `col`, which must have room; returns the row it landed
    /// on, counted from the bottom.
    pub fn drop(&mut self, col: u32, seat: Seat) -> u32 {
        assert!(self.can_drop(col), "column {col} has no room");
        let row = self.height(col);
        self.pieces[seat] |= self.bit(col, row);
        self.heights[col as usize] += 1;
        self.count += 1;
        row
    }

    /// The four shifts that step along a line: up a column, along a row, and the two diagonals.
    fn directions(&self) -> [u32; 4] {
        [1, self.stride, self.stride - 1, self.stride + 1]
    }

    /// The cells of `bits` that start a run of `inarow` cells of `bits` along shift `d`.
    ///
    /// The largest shift, `(inarow - 1) * (rows + 2)`, stays below 64 whenever
    /// `(rows + 1) * columns <= 64` and `inarow <= min(rows, columns)`.
    fn runs(&self, bits: u64, d: u32) -> u64 {
        (1..self.config.inarow).fold(bits, |run, i| run & (bits >> (i * d)))
    }

    /// Whether `bits` (one player's pieces) hold a line of `inarow`.
    pub fn has_line(&self, bits: u64) -> bool {
        self.directions().iter().any(|&d| self.runs(bits, d) != 0)
    }

    /// The cells of one line of `inarow` in `bits`, as `(col, row from the bottom)` from its lowest
    /// bit on, if there is one: the first direction with a line in the order vertical, horizontal,
    /// the diagonal going down to the right, the one going up.
    pub fn line(&self, bits: u64) -> Option<Vec<(u32, u32)>> {
        self.directions().iter().find_map(|&d| {
            let runs = self.runs(bits, d);
            (runs != 0).then(|| {
                let start = runs.trailing_zeros();
                (0..self.config.inarow)
                    .map(|i| {
                        let bit = start + i * d;
                        (bit / self.stride, bit % self.stride)
                    })
                    .collect()
            })
        })
    }

    /// The mark on the cell in column `col`, `row` counted from the bottom: 0 empty, 1 seat 0's
    /// piece, 2 seat 1's.
    pub fn mark(&self, col: u32, row: u32) -> u8 {
        let bit = self.bit(col, row);
        if self.pieces[0] & bit != 0 {
            1
        } else if self.pieces[1] & bit != 0 {
            2
        } else {
            0
        }
    }

    /// The cells as the wire has them: row-major from the top row, 0 empty, 1 or 2 a mark.
    pub fn cells(&self) -> Vec<u8> {
        let Config { columns, rows, .. } = self.config;
        (0..rows)
            .rev()
            .flat_map(|row| (0..columns).map(move |col| (col, row)))
            .map(|(col, row)| self.mark(col, row))
            .collect()
    }
}
