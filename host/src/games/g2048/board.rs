//! The fast 4x4 board: 16 exponents packed in a `u64`, moves done by table look-ups.
//!
//! Each cell keeps the low 4 bits of its exponent in a nibble of `cells` (cell `i`, row-major, at
//! bits `4i..4i+4`), and bit `i` of `high` says the exponent is 16 or more (exponent = nibble +
//! 16 * high bit), so 65536 and 131072, the largest tiles of real 4x4 play, are exact. **A cell is
//! empty exactly when its nibble and its high bit are both 0.**
//!
//! A row is 16 bits, so a table of all 65536 rows gives each row's result moved left and right and
//! the score gained; up and down transpose the board and move its rows. The table is built once
//! from [`slide`], the reference rule of the general [`Grid`](super::Grid). Two kinds of row cannot
//! use it, and take an exact slow path through [`slide`] instead: a row holding a high cell, and a
//! row whose move merges two 32768s (the 65536 needs the high bit). Both happen only near the end of
//! very long games.

use std::sync::LazyLock;

use super::grid::slide;
use super::{Direction, MAX_EXPONENT, draw_spawn};

/// A 4x4 2048 board in 18 bytes of state; cheap to copy, compare and hash.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Board4 {
    /// The low 4 bits of each cell's exponent, cell `i` at bits `4i..4i+4`.
    cells: u64,
    /// Bit `i` set when cell `i`'s exponent is 16 or more.
    high: u16,
}

/// One row of the move table: the row moved left, moved right, and the score either move gains
/// (a row's merges are the same pairs counted from either end, so the score is too).
#[derive(Clone, Copy, Debug)]
struct RowMove {
    left: u16,
    right: u16,
    gained: u32,
}

/// Marks a row whose move makes a 65536, which the table cannot hold.
const SLOW: u32 = u32::MAX;

/// The move of every 16-bit row, built on first use (half a megabyte; well under a millisecond).
static ROWS: LazyLock<Box<[RowMove; 1 << 16]>> = LazyLock::new(|| {
    let rows: Vec<RowMove> = (0..=u16::MAX).map(row_move).collect();
    rows.into_boxed_slice()
        .try_into()
        .expect("one entry per 16-bit row")
});

fn row_move(row: u16) -> RowMove {
    let (left, left_high, gained) = slide_row_exact(row, 0, Side::Start);
    let (right, right_high, _) = slide_row_exact(row, 0, Side::End);
    let overflows = left_high != 0 || right_high != 0;
    RowMove {
        left,
        right,
        gained: if overflows { SLOW } else { gained },
    }
}

/// Which end of a row the tiles are pushed towards: its first cell (left, or up once transposed)
/// or its last (right, or down).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Side {
    Start,
    End,
}

/// Moves one row exactly through the reference [`slide`]: `row` holds the low nibbles and `high`
/// the row's 4 high bits. Returns the new nibbles, high bits and the score gained.
#[cold]
fn slide_row_exact(row: u16, high: u16, side: Side) -> (u16, u16, u32) {
    let mut line: [u8; 4] =
        std::array::from_fn(|i| ((row >> (4 * i)) & 0xF) as u8 + 16 * ((high >> i) & 1) as u8);
    if side == Side::End {
        line.reverse();
    }
    let gained = slide(&mut line);
    if side == Side::End {
        line.reverse();
    }
    let (mut row, mut high) = (0u16, 0u16);
    for (i, e) in line.into_iter().enumerate() {
        row |= u16::from(e & 0xF) << (4 * i);
        high |= u16::from(e >> 4) << i;
    }
    (row, high, gained)
}

impl Board4 {
    /// The board with no tile.
    pub const EMPTY: Board4 = Board4 { cells: 0, high: 0 };

    /// A board from its 16 exponents in row-major order (0 for empty).
    ///
    /// # Panics
    /// If an exponent is above [`MAX_EXPONENT`]: callers holding untrusted data check it first.
    pub fn from_exponents(exponents: [u8; 16]) -> Board4 {
        let mut board = Board4::EMPTY;
        for (idx, e) in exponents.into_iter().enumerate() {
            assert!(e <= MAX_EXPONENT, "exponent {e} is past the largest tile");
            if e > 0 {
                board.place(idx, e);
            }
        }
        board
    }

    /// The 16 exponents in row-major order.
    pub fn exponents(self) -> [u8; 16] {
        std::array::from_fn(|idx| self.exponent(idx))
    }

    /// The exponent of cell `idx` (row-major), 0 if empty.
    pub fn exponent(self, idx: usize) -> u8 {
        let low = (self.cells >> (4 * idx)) & 0xF;
        let high = (self.high >> idx) & 1;
        (low + 16 * u64::from(high)) as u8
    }

    /// The largest exponent on the board, 0 if it is empty.
    pub fn max_exponent(self) -> u8 {
        self.exponents().into_iter().max().unwrap_or(0)
    }

    /// Bit `i` set when cell `i` is empty.
    pub fn empty_mask(self) -> u16 {
        !(occupied(self.cells) | self.high)
    }

    /// The number of empty cells.
    pub fn empty_count(self) -> u32 {
        self.empty_mask().count_ones()
    }

    /// Puts a tile of `exponent` on the empty cell `idx`, as the random tile would.
    pub fn place(&mut self, idx: usize, exponent: u8) {
        debug_assert!(
            self.empty_mask() & (1 << idx) != 0,
            "placing a tile on a full cell"
        );
        debug_assert!(
            (1..=MAX_EXPONENT).contains(&exponent),
            "not a tile: exponent {exponent}"
        );
        self.cells |= u64::from(exponent & 0xF) << (4 * idx);
        self.high |= u16::from(exponent >> 4) << idx;
    }

    /// Spawns the random tile; returns its cell and exponent, or `None` if the board is full.
    pub fn spawn<R: rand::Rng + ?Sized>(&mut self, rng: &mut R) -> Option<(usize, u8)> {
        let empty = self.empty_mask();
        if empty == 0 {
            return None;
        }
        let (nth, exponent) = draw_spawn(rng, empty.count_ones());
        let idx = nth_set_bit(empty, nth);
        self.place(idx, exponent);
        Some((idx, exponent))
    }

    /// Row `r` packed into 16 bits, 4 per cell with the first cell lowest, exponents capped at 15.
    pub fn row(self, r: usize) -> u16 {
        let low = (self.cells >> (16 * r)) as u16;
        let high = (self.high >> (4 * r)) & 0xF;
        // A high cell's nibble holds its exponent minus 16; capping means all four bits set.
        (0..4)
            .filter(|i| (high >> i) & 1 != 0)
            .fold(low, |row, i| row | 0xF << (4 * i))
    }

    /// Column `c` packed like [`Board4::row`], the top cell lowest.
    pub fn col(self, c: usize) -> u16 {
        self.transpose().row(c)
    }

    /// The board after moving `direction` and the score gained, or `None` if nothing would change.
    pub fn apply(self, direction: Direction) -> Option<(Board4, u32)> {
        let (moved, gained) = match direction {
            Direction::Left => self.slide_rows(Side::Start),
            Direction::Right => self.slide_rows(Side::End),
            Direction::Up => self.slide_columns(Side::Start),
            Direction::Down => self.slide_columns(Side::End),
        };
        (moved != self).then_some((moved, gained))
    }

    /// Whether moving `direction` changes the board.
    pub fn can_move(self, direction: Direction) -> bool {
        self.apply(direction).is_some()
    }

    /// Which moves change the board, indexed by [`Direction::index`].
    pub fn legal(self) -> [bool; 4] {
        Direction::ALL.map(|d| self.can_move(d))
    }

    /// Whether no move changes the board: the game is lost.
    pub fn is_over(self) -> bool {
        !self.legal().contains(&true)
    }

    fn slide_columns(self, side: Side) -> (Board4, u32) {
        let (moved, gained) = self.transpose().slide_rows(side);
        (moved.transpose(), gained)
    }

    fn slide_rows(self, side: Side) -> (Board4, u32) {
        let table = &**ROWS;
        let mut moved = Board4::EMPTY;
        let mut gained = 0u32;
        for r in 0..4 {
            let row = (self.cells >> (16 * r)) as u16;
            let high = (self.high >> (4 * r)) & 0xF;
            let entry = table[usize::from(row)];
            let (row, high, row_gained) = if high == 0 && entry.gained != SLOW {
                let row = if side == Side::Start {
                    entry.left
                } else {
                    entry.right
                };
                (row, 0, entry.gained)
            } else {
                slide_row_exact(row, high, side)
            };
            moved.cells |= u64::from(row) << (16 * r);
            moved.high |= high << (4 * r);
            // Saturating: only boards built by hand near 2^31 could overflow a move's gain.
            gained = gained.saturating_add(row_gained);
        }
        (moved, gained)
    }

    /// The board mirrored along its main diagonal: cell (r, c) goes to (c, r).
    fn transpose(self) -> Board4 {
        Board4 {
            cells: transpose_nibbles(self.cells),
            high: transpose_bits(self.high),
        }
    }
}

/// Transposes a 4x4 matrix of nibbles: first the 2x2 blocks within each quadrant, then the
/// quadrants themselves. Each step keeps the cells that stay and shifts the two that swap.
fn transpose_nibbles(x: u64) -> u64 {
    let a = (x & 0xF0F0_0F0F_F0F0_0F0F)
        | ((x & 0x0000_F0F0_0000_F0F0) << 12)
        | ((x & 0x0F0F_0000_0F0F_0000) >> 12);
    (a & 0xFF00_FF00_00FF_00FF)
        | ((a & 0x00FF_00FF_0000_0000) >> 24)
        | ((a & 0x0000_0000_FF00_FF00) << 24)
}

/// Transposes a 4x4 matrix of bits, the same steps as [`transpose_nibbles`] one bit per cell.
fn transpose_bits(x: u16) -> u16 {
    let a = (x & 0xA5A5) | ((x & 0x0A0A) << 3) | ((x & 0x5050) >> 3);
    (a & 0xCC33) | ((a & 0x3300) >> 6) | ((a & 0x00CC) << 6)
}

/// Bit `i` set when nibble `i` of `cells` is not zero.
fn occupied(cells: u64) -> u16 {
    // Fold each nibble onto its lowest bit...
    let x = cells | (cells >> 1);
    let x = (x | (x >> 2)) & 0x1111_1111_1111_1111;
    // ...then gather those 16 bits, doubling the packed run at each step: 2 per byte, 4 per
    // 16 bits, 8 per 32 bits, all 16.
    let x = (x | (x >> 3)) & 0x0303_0303_0303_0303;
    let x = (x | (x >> 6)) & 0x000F_000F_000F_000F;
    let x = (x | (x >> 12)) & 0x0000_00FF_0000_00FF;
    ((x | (x >> 24)) & 0xFFFF) as u16
}

/// The index of the `n`-th set bit of `mask` (counted from 0, lowest first).
fn nth_set_bit(mut mask: u16, n: u32) -> usize {
    for _ in 0..n {
        mask &= mask - 1;
    }
    mask.trailing_zeros() as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive_transpose(board: Board4) -> Board4 {
        let e = board.exponents();
        Board4::from_exponents(std::array::from_fn(|i| e[(i % 4) * 4 + i / 4]))
    }

    #[test]
    fn transpose_matches_the_naive_one() {
        let boards = [
            std::array::from_fn(|i| i as u8),
            std::array::from_fn(|i| (i as u8 * 7) % 18),
            std::array::from_fn(|i| if i % 3 == 0 { 16 + (i as u8 % 2) } else { 15 }),
        ];
        for exponents in boards {
            let board = Board4::from_exponents(exponents);
            assert_eq!(board.transpose(), naive_transpose(board));
            assert_eq!(board.transpose().transpose(), board);
        }
    }

    #[test]
    fn occupied_gathers_one_bit_per_nibble() {
        for idx in 0..16 {
            assert_eq!(occupied(0x8 << (4 * idx)), 1 << idx);
        }
        assert_eq!(occupied(0x0102_0000_F000_1001), 0b0101_0000_1000_1001);
    }

    #[test]
    fn nth_set_bit_counts_from_the_lowest() {
        assert_eq!(nth_set_bit(0b1011_0000, 0), 4);
        assert_eq!(nth_set_bit(0b1011_0000, 1), 5);
        assert_eq!(nth_set_bit(0b1011_0000, 2), 7);
    }
}
