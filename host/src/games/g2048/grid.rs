//! The general 2048 board: any side from 3 to 8, one exponent per cell in a `Vec`.
//!
//! This is the reference implementation. It is written to be read, not to be fast: a move copies
//! each line out, slides it with [`slide`], and writes it back. [`Board4`](super::Board4) is checked
//! against it move by move, and [`slide`] is also what builds the fast path's tables, so the rule of
//! a move lives in exactly one function.

use super::{
    BoardError, Direction, MAX_EXPONENT, SizeError, check_size, draw_spawn, exponent_of, value,
};

/// A square 2048 board of side 3 to 8; cells are base-2 exponents in row-major order, 0 for empty.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Grid {
    size: usize,
    cells: Vec<u8>,
}

/// Slides one line of exponents towards index 0, merging equal pairs, and returns the score gained.
///
/// Tiles are taken from the edge outwards; a tile merges with the last tile placed if they are equal
/// and that tile is not itself the product of a merge. That is both rules of `docs/2048.md` at once:
/// no tile merges twice in a move, and the pair nearest the edge merges first.
pub(crate) fn slide(line: &mut [u8]) -> u32 {
    let mut placed = 0;
    let mut gained = 0u32;
    // The last tile placed, while it may still merge.
    let mut open: Option<u8> = None;
    for i in 0..line.len() {
        let exponent = std::mem::take(&mut line[i]);
        if exponent == 0 {
            continue;
        }
        if open == Some(exponent) && exponent < MAX_EXPONENT {
            line[placed - 1] = exponent + 1;
            // Saturating: only boards built by hand near 2^31 could overflow a move's gain.
            gained = gained.saturating_add(value(exponent + 1));
            open = None;
        } else {
            line[placed] = exponent;
            placed += 1;
            open = Some(exponent);
        }
    }
    gained
}

impl Grid {
    /// An empty board of side `size`.
    pub fn new(size: usize) -> Result<Grid, SizeError> {
        let size = check_size(size)?;
        Ok(Grid {
            size,
            cells: vec![0; size * size],
        })
    }

    /// A board from its exponents in row-major order.
    pub fn from_exponents(size: usize, cells: Vec<u8>) -> Result<Grid, BoardError> {
        let size = check_size(size)?;
        if let Some(&exponent) = cells.iter().find(|&&e| e > MAX_EXPONENT) {
            return Err(BoardError::Exponent { exponent });
        }
        if cells.len() != size * size {
            return Err(BoardError::Cells {
                len: cells.len(),
                size,
            });
        }
        Ok(Grid { size, cells })
    }

    /// A board from rows of tile values (0 for empty), top to bottom, each left to right.
    pub fn from_rows(rows: &[Vec<u32>]) -> Result<Grid, BoardError> {
        let size = check_size(rows.len())?;
        let mut cells = Vec::with_capacity(size * size);
        for (row, values) in rows.iter().enumerate() {
            if values.len() != size {
                return Err(BoardError::Ragged {
                    row,
                    len: values.len(),
                    size,
                });
            }
            for &v in values {
                cells.push(exponent_of(v).ok_or(BoardError::Tile { value: v })?);
            }
        }
        Ok(Grid { size, cells })
    }

    /// The side of the board.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The rows of tile values, top to bottom, each left to right (0 for empty).
    pub fn rows(&self) -> Vec<Vec<u32>> {
        self.cells
            .chunks(self.size)
            .map(|row| row.iter().map(|&e| value(e)).collect())
            .collect()
    }

    /// The exponents of all cells in row-major order.
    pub fn exponents(&self) -> Vec<u8> {
        self.cells.clone()
    }

    /// The exponent of cell `idx` (row-major), 0 if empty.
    pub fn exponent(&self, idx: usize) -> u8 {
        self.cells[idx]
    }

    /// The largest exponent on the board, 0 if it is empty.
    pub fn max_exponent(&self) -> u8 {
        self.cells.iter().copied().max().unwrap_or(0)
    }

    /// The number of empty cells.
    pub fn empty_count(&self) -> u32 {
        self.cells.iter().filter(|&&e| e == 0).count() as u32
    }

    /// Puts a tile of `exponent` on the empty cell `idx`, as the random tile would.
    pub fn place(&mut self, idx: usize, exponent: u8) {
        debug_assert_eq!(self.cells[idx], 0, "placing a tile on a full cell");
        debug_assert!(
            (1..=MAX_EXPONENT).contains(&exponent),
            "not a tile: exponent {exponent}"
        );
        self.cells[idx] = exponent;
    }

    /// Spawns the random tile; returns its cell and exponent, or `None` if the board is full.
    pub fn spawn<R: rand::Rng + ?Sized>(&mut self, rng: &mut R) -> Option<(usize, u8)> {
        let empty = self.empty_count();
        if empty == 0 {
            return None;
        }
        let (nth, exponent) = draw_spawn(rng, empty);
        let idx = self
            .cells
            .iter()
            .enumerate()
            .filter(|(_, e)| **e == 0)
            .nth(nth as usize)?
            .0;
        self.place(idx, exponent);
        Some((idx, exponent))
    }

    /// Row `r` packed into 16 bits, 4 per cell with the first cell lowest, exponents capped at 15,
    /// or `None` on a board wider than 4.
    pub fn row(&self, r: usize) -> Option<u16> {
        pack((0..self.size).map(|c| self.cells[r * self.size + c]))
    }

    /// Column `c` packed like [`Grid::row`], the top cell lowest.
    pub fn col(&self, c: usize) -> Option<u16> {
        pack((0..self.size).map(|r| self.cells[r * self.size + c]))
    }

    /// The board after moving `direction` and the score gained, or `None` if nothing would change.
    pub fn apply(&self, direction: Direction) -> Option<(Grid, u32)> {
        let mut next = self.clone();
        let mut gained = 0u32;
        let mut line = Vec::with_capacity(self.size);
        for k in 0..self.size {
            let cells = self.line(direction, k);
            line.clear();
            line.extend(cells.clone().map(|i| self.cells[i]));
            gained = gained.saturating_add(slide(&mut line));
            for (i, &e) in cells.zip(&line) {
                next.cells[i] = e;
            }
        }
        (next != *self).then_some((next, gained))
    }

    /// Whether moving `direction` changes the board.
    pub fn can_move(&self, direction: Direction) -> bool {
        self.apply(direction).is_some()
    }

    /// Which moves change the board, indexed by [`Direction::index`].
    pub fn legal(&self) -> [bool; 4] {
        Direction::ALL.map(|d| self.can_move(d))
    }

    /// Whether no move changes the board: the game is lost.
    pub fn is_over(&self) -> bool {
        !self.legal().contains(&true)
    }

    /// The cell indices of the `k`-th line pushed towards `direction`, starting at the edge pushed
    /// towards: row `k` for left and right, column `k` for up and down.
    fn line(&self, direction: Direction, k: usize) -> impl Iterator<Item = usize> + Clone {
        let n = self.size;
        (0..n).map(move |j| match direction {
            Direction::Left => k * n + j,
            Direction::Right => k * n + (n - 1 - j),
            Direction::Up => j * n + k,
            Direction::Down => (n - 1 - j) * n + k,
        })
    }
}

/// Packs up to 4 exponents, first lowest, each capped at 15; `None` for more than 4.
fn pack(exponents: impl ExactSizeIterator<Item = u8>) -> Option<u16> {
    if exponents.len() > 4 {
        return None;
    }
    Some(
        exponents
            .enumerate()
            .fold(0, |packed, (i, e)| packed | u16::from(e.min(15)) << (4 * i)),
    )
}
