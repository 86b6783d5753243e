//! The board packed into one `u64`, and the row tables that make a move or an evaluation a handful of
//! lookups.
//!
//! Cell `(r, c)` of the 4x4 board lives in the nibble at bit `4 * (4 * r + c)`, holding the tile's
//! base-2 exponent (0 for empty). So row `r` is the 16 bits at `16 * r`, leftmost cell lowest, which is
//! also the layout of the host's `g2048_row`. A nibble holds at most 15 (32768): larger tiles are capped
//! when packing, and two 15s merge into a 15. The search only uses the packed board to *rank* moves;
//! which moves are legal always comes from the real, uncapped board.
//!
//! Every one of the 65536 possible rows is precomputed once: the change a left or right move makes to it,
//! the same change spread over a column for up and down, and the row's heuristic value. The layout and
//! the tables follow nneonneo's 2048-ai.

use botbox_sdk::g2048::Direction;

/// A 4x4 board, 4 bits per cell, row-major from the lowest nibble.
pub type Board = u64;

/// The largest exponent a nibble holds.
const MAX_EXPONENT: u8 = 15;

/// Packs 16 exponents (row-major, 0 for empty), capping each at 15.
pub fn pack(cells: [u8; 16]) -> Board {
    cells.iter().enumerate().fold(0, |board, (i, &e)| {
        board | (u64::from(e.min(MAX_EXPONENT)) << (4 * i))
    })
}

/// Swaps rows and columns, so that column moves become row moves.
pub fn transpose(x: Board) -> Board {
    let a1 = x & 0xF0F0_0F0F_F0F0_0F0F;
    let a2 = x & 0x0000_F0F0_0000_F0F0;
    let a3 = x & 0x0F0F_0000_0F0F_0000;
    let a = a1 | (a2 << 12) | (a3 >> 12);
    let b1 = a & 0xFF00_FF00_00FF_00FF;
    let b2 = a & 0x00FF_00FF_0000_0000;
    let b3 = a & 0x0000_0000_FF00_FF00;
    b1 | (b2 >> 24) | (b3 << 24)
}

/// A board with the lowest bit of every empty cell's nibble set, and nothing else.
pub fn empty_mask(x: Board) -> u64 {
    let mut x = x;
    x |= (x >> 2) & 0x3333_3333_3333_3333;
    x |= x >> 1;
    !x & 0x1111_1111_1111_1111
}

/// The number of distinct tile values on the board (empty cells not counted).
pub fn count_distinct(x: Board) -> u32 {
    let seen = (0..16).fold(0u32, |seen, i| seen | 1 << ((x >> (4 * i)) & 0xF));
    (seen >> 1).count_ones()
}

/// The row-indexed tables, built once by [`Tables::new`].
pub struct Tables {
    /// `row ^ moved_left(row)`: XOR it into the row to make the move.
    row_left: Box<[u16]>,
    row_right: Box<[u16]>,
    /// The same changes for a column, given the column as a row (top cell lowest), already spread to
    /// the nibbles of column 0.
    col_up: Box<[u64]>,
    col_down: Box<[u64]>,
    /// The heuristic value of a row; a board's value sums it over its rows and its columns.
    heuristic: Box<[f32]>,
}

impl std::fmt::Debug for Tables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tables")
            .field("rows", &self.row_left.len())
            .finish_non_exhaustive()
    }
}

/// nneonneo's tuned heuristic weights. The constant keeps every live position above 0, the value of a
/// lost one.
const LOST_PENALTY: f32 = 200_000.0;
const MONOTONICITY_WEIGHT: f32 = 47.0;
const SUM_WEIGHT: f32 = 11.0;
const MERGES_WEIGHT: f32 = 700.0;
const EMPTY_WEIGHT: f32 = 270.0;

impl Tables {
    pub fn new() -> Tables {
        // Powers of the exponents, computed without `powf` (rank^4 exactly, rank^3.5 as rank^3 * sqrt)
        // so that the tables are bit-identical natively and in WASM.
        let pow4: [f32; 16] = std::array::from_fn(|r| (r as f64).powi(4) as f32);
        let pow35: [f32; 16] =
            std::array::from_fn(|r| ((r as f64).powi(3) * (r as f64).sqrt()) as f32);
        let mut t = Tables {
            row_left: vec![0; 1 << 16].into_boxed_slice(),
            row_right: vec![0; 1 << 16].into_boxed_slice(),
            col_up: vec![0; 1 << 16].into_boxed_slice(),
            col_down: vec![0; 1 << 16].into_boxed_slice(),
            heuristic: vec![0.0; 1 << 16].into_boxed_slice(),
        };
        for row in 0..=u16::MAX {
            let line = unpack_row(row);
            t.heuristic[usize::from(row)] = row_heuristic(line, &pow4, &pow35);
            let result = pack_row(slide_left(line));
            let (rev_row, rev_result) = (reverse_row(row), reverse_row(result));
            t.row_left[usize::from(row)] = row ^ result;
            t.row_right[usize::from(rev_row)] = rev_row ^ rev_result;
            t.col_up[usize::from(row)] = spread_col(row) ^ spread_col(result);
            t.col_down[usize::from(rev_row)] = spread_col(rev_row) ^ spread_col(rev_result);
        }
        t
    }

    /// The board after a move; equal to `board` when the move changes nothing.
    pub fn apply(&self, board: Board, dir: Direction) -> Board {
        match dir {
            Direction::Left => self.apply_rows(board, &self.row_left),
            Direction::Right => self.apply_rows(board, &self.row_right),
            Direction::Up => self.apply_cols(board, &self.col_up),
            Direction::Down => self.apply_cols(board, &self.col_down),
        }
    }

    fn apply_rows(&self, board: Board, table: &[u16]) -> Board {
        (0..4).fold(board, |b, r| {
            b ^ u64::from(table[row_at(board, r)]) << (16 * r)
        })
    }

    fn apply_cols(&self, board: Board, table: &[u64]) -> Board {
        let t = transpose(board);
        (0..4).fold(board, |b, c| b ^ table[row_at(t, c)] << (4 * c))
    }

    /// The static evaluation of a position: the row heuristic over all rows and all columns.
    pub fn heuristic(&self, board: Board) -> f32 {
        let rows = |b: Board| (0..4).map(|r| self.heuristic[row_at(b, r)]).sum::<f32>();
        rows(board) + rows(transpose(board))
    }
}

fn row_at(board: Board, r: usize) -> usize {
    ((board >> (16 * r)) & 0xFFFF) as usize
}

fn unpack_row(row: u16) -> [u8; 4] {
    std::array::from_fn(|i| ((row >> (4 * i)) & 0xF) as u8)
}

fn pack_row(line: [u8; 4]) -> u16 {
    line.iter()
        .enumerate()
        .fold(0, |row, (i, &e)| row | u16::from(e) << (4 * i))
}

fn reverse_row(row: u16) -> u16 {
    pack_row({
        let mut line = unpack_row(row);
        line.reverse();
        line
    })
}

/// Puts the four cells of a row into the nibbles of column 0 (cells 0, 4, 8, 12).
fn spread_col(row: u16) -> u64 {
    let r = u64::from(row);
    (r | r << 12 | r << 24 | r << 36) & 0x000F_000F_000F_000F
}

/// Slides a row towards index 0, merging equal pairs nearest the edge first, each tile at most once.
/// Two 15s make a 15: the packed board cannot say more.
fn slide_left(line: [u8; 4]) -> [u8; 4] {
    let mut out = [0u8; 4];
    let mut n = 0;
    let mut mergeable = false;
    for e in line.into_iter().filter(|&e| e != 0) {
        if mergeable && out[n - 1] == e {
            out[n - 1] = (e + 1).min(MAX_EXPONENT);
            mergeable = false;
        } else {
            out[n] = e;
            n += 1;
            mergeable = true;
        }
    }
    out
}

/// nneonneo's row heuristic: reward empty cells and adjacent equal tiles, punish non-monotonic rows
/// (by the smaller of the two directions' violations) and large sums of tiles.
fn row_heuristic(line: [u8; 4], pow4: &[f32; 16], pow35: &[f32; 16]) -> f32 {
    let mut sum = 0.0;
    let mut empty = 0;
    let mut merges = 0;
    let (mut prev, mut counter) = (0, 0);
    for &rank in &line {
        sum += pow35[usize::from(rank)];
        if rank == 0 {
            empty += 1;
            continue;
        }
        if prev == rank {
            counter += 1;
        } else if counter > 0 {
            merges += 1 + counter;
            counter = 0;
        }
        prev = rank;
    }
    if counter > 0 {
        merges += 1 + counter;
    }
    let (mut mono_left, mut mono_right) = (0.0f32, 0.0f32);
    for pair in line.windows(2) {
        let (a, b) = (pow4[usize::from(pair[0])], pow4[usize::from(pair[1])]);
        if pair[0] > pair[1] {
            mono_left += a - b;
        } else {
            mono_right += b - a;
        }
    }
    LOST_PENALTY + EMPTY_WEIGHT * empty as f32 + MERGES_WEIGHT * merges as f32
        - MONOTONICITY_WEIGHT * mono_left.min(mono_right)
        - SUM_WEIGHT * sum
}

/// The cells of each line in the order a move pushes them: the edge the tiles move towards first.
fn lines(dir: Direction) -> [[usize; 4]; 4] {
    std::array::from_fn(|k| {
        std::array::from_fn(|i| match dir {
            Direction::Left => 4 * k + i,
            Direction::Right => 4 * k + 3 - i,
            Direction::Up => k + 4 * i,
            Direction::Down => k + 4 * (3 - i),
        })
    })
}

/// The moves that change the real (uncapped) board, in the order left, right, up, down: a move is
/// legal when some line has a tile behind an empty cell or two equal neighbours.
pub fn legal_moves(cells: &[u8; 16]) -> Vec<Direction> {
    Direction::ALL
        .into_iter()
        .filter(|&dir| {
            lines(dir).iter().any(|line| {
                line.windows(2).any(|w| {
                    let (near, far) = (cells[w[0]], cells[w[1]]);
                    far != 0 && (near == 0 || near == far)
                })
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A slide written the long way, independent of `slide_left`: walk from the edge, pull the next
    /// tile in, merge once.
    fn naive_slide(mut line: [u8; 4]) -> [u8; 4] {
        let mut merged = [false; 4];
        for i in 1..4 {
            if line[i] == 0 {
                continue;
            }
            let mut j = i;
            while j > 0 && line[j - 1] == 0 {
                line[j - 1] = line[j];
                line[j] = 0;
                j -= 1;
            }
            if j > 0 && line[j - 1] == line[j] && !merged[j - 1] {
                line[j - 1] = (line[j - 1] + 1).min(15);
                line[j] = 0;
                merged[j - 1] = true;
            }
        }
        line
    }

    fn naive_slide_right(line: [u8; 4]) -> [u8; 4] {
        let [a, b, c, d] = naive_slide([line[3], line[2], line[1], line[0]]);
        [d, c, b, a]
    }

    #[test]
    fn naive_slide_follows_the_rules() {
        // The examples of the rules: no double merge, the pair nearest the edge merges first.
        assert_eq!(naive_slide_right([1, 1, 1, 1]), [0, 0, 2, 2]);
        assert_eq!(naive_slide_right([0, 1, 1, 1]), [0, 0, 1, 2]);
        assert_eq!(naive_slide([2, 0, 2, 3]), [3, 3, 0, 0]);
        assert_eq!(naive_slide([15, 15, 0, 0]), [15, 0, 0, 0]);
    }

    #[test]
    fn row_tables_match_a_naive_slide_on_every_row() {
        let t = Tables::new();
        for row in 0..=u16::MAX {
            let line = unpack_row(row);
            let board = u64::from(row) << 16; // row 1, to check the shifting too
            let left = t.apply(board, Direction::Left);
            let right = t.apply(board, Direction::Right);
            assert_eq!(
                left,
                u64::from(pack_row(naive_slide(line))) << 16,
                "left of {line:?}"
            );
            assert_eq!(
                right,
                u64::from(pack_row(naive_slide_right(line))) << 16,
                "right of {line:?}"
            );
        }
    }

    #[test]
    fn column_moves_are_row_moves_of_the_transpose() {
        let t = Tables::new();
        let mut rng = botbox_sdk::Rng::new(3);
        for _ in 0..2000 {
            let board: Board = rng.next_u64();
            assert_eq!(transpose(transpose(board)), board);
            let up = transpose(t.apply(transpose(board), Direction::Left));
            let down = transpose(t.apply(transpose(board), Direction::Right));
            assert_eq!(t.apply(board, Direction::Up), up);
            assert_eq!(t.apply(board, Direction::Down), down);
        }
    }

    #[test]
    fn pack_caps_and_places_cells_row_major() {
        let mut cells = [0u8; 16];
        cells[1] = 3;
        cells[4] = 17;
        assert_eq!(pack(cells), 0x3 << 4 | 0xF << 16);
        assert_eq!(count_distinct(pack(cells)), 2);
        assert_eq!(empty_mask(pack(cells)).count_ones(), 14);
    }

    #[test]
    fn legal_moves_agree_with_the_tables_below_32768() {
        let t = Tables::new();
        let mut rng = botbox_sdk::Rng::new(5);
        for _ in 0..5000 {
            // Mostly small exponents and many empty cells, so that every kind of line occurs.
            let cells: [u8; 16] = std::array::from_fn(|_| [0, 0, 0, 1, 1, 2, 3, 14][rng.below(8)]);
            let board = pack(cells);
            let moving: Vec<Direction> = Direction::ALL
                .into_iter()
                .filter(|&d| t.apply(board, d) != board)
                .collect();
            assert_eq!(legal_moves(&cells), moving, "{cells:?}");
        }
    }

    #[test]
    fn legal_moves_use_the_real_exponents() {
        let check =
            |cells: [u8; 16], expected: &[Direction]| assert_eq!(legal_moves(&cells), expected);
        use Direction::*;
        // 65536 next to 32768 do not merge, although both pack to 15.
        check(
            [
                16, 15, 16, 15, 15, 16, 15, 16, 16, 15, 16, 15, 15, 16, 15, 16,
            ],
            &[],
        );
        check(
            [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            &[Right, Down],
        );
        check(
            [1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
            &[Left, Right],
        );
    }
}
