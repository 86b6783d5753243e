//! A 2048 bot for botbox. Check it: `botbox check 2048 .` (botbox builds the crate).

use botbox_sdk::g2048::{Direction, Observation};
use botbox_sdk::{Setup, Strategy};

pub struct Bot;

/// The largest board botbox plays (`--size 3` to `8`; 4 unless chosen otherwise).
const MAX: usize = 8;

/// A board kept in place: `board[row][col]`, tile values, 0 empty; the first n rows and columns
/// used.
type Board = [[u32; MAX]; MAX];

/// Row and column of the k-th cell of a line (both from 0), counted from the side its tiles slide
/// to (lines are rows for left and right, columns for up and down).
fn cell(n: usize, dir: Direction, line: usize, k: usize) -> (usize, usize) {
    match dir {
        Direction::Left => (line, k),
        Direction::Right => (line, n - 1 - k),
        Direction::Up => (k, line),
        Direction::Down => (n - 1 - k, line),
    }
}

/// The board after a move, written to `out` (without the tile that appears after it); whether
/// anything moved.
fn slide(board: &Board, n: usize, dir: Direction, out: &mut Board) -> bool {
    let mut moved = false;
    for line in 0..n {
        for k in 0..n {
            let (r, c) = cell(n, dir, line, k);
            out[r][c] = 0;
        }
        // Cells filled so far; the last tile placed, while it may merge.
        let (mut filled, mut last) = (0, 0);
        for k in 0..n {
            let (r, c) = cell(n, dir, line, k);
            let v = board[r][c];
            if v == 0 {
                continue;
            }
            if v == last {
                let (r, c) = cell(n, dir, line, filled - 1);
                out[r][c] = v * 2;
                last = 0;
                moved = true;
            } else {
                let (r, c) = cell(n, dir, line, filled);
                out[r][c] = v;
                moved |= filled != k;
                filled += 1;
                last = v;
            }
        }
    }
    moved
}

/// How good a board looks: each tile's value times its distance in rows and columns from the top
/// right corner (big tiles belong in the bottom left), and 64 for every empty cell.
fn value(board: &Board, n: usize) -> i64 {
    let mut sum = 0;
    for (i, row) in board.iter().enumerate().take(n) {
        for (j, &v) in row.iter().enumerate().take(n) {
            sum += if v == 0 {
                64
            } else {
                v as i64 * (i + n - 1 - j) as i64
            };
        }
    }
    sum
}

/// Two moves ahead, ignoring the tiles that appear: the best value the board can reach after one
/// more move; a board that no move changes is a dead end and counts below every other.
fn ahead(board: &Board, n: usize) -> i64 {
    let mut best = value(board, n) - 1_000_000_000_000;
    let mut next = [[0; MAX]; MAX];
    for dir in [
        Direction::Down,
        Direction::Left,
        Direction::Right,
        Direction::Up,
    ] {
        if slide(board, n, dir, &mut next) {
            best = best.max(value(&next, n));
        }
    }
    best
}

impl Strategy for Bot {
    type Observation = Observation;
    type Action = Direction;

    fn new(_setup: &Setup) -> Self {
        Bot
    }

    fn choose_move(&mut self, obs: Observation) -> Direction {
        // Down, left or right, whichever leads furthest (down, then left, on a tie); up only when
        // none of them is legal.
        let n = obs.board.len();
        let mut board = [[0; MAX]; MAX];
        for (row, tiles) in board.iter_mut().zip(&obs.board) {
            row[..n].copy_from_slice(tiles);
        }
        let (mut best, mut best_value) = (Direction::Up, i64::MIN);
        let mut after = [[0; MAX]; MAX];
        for dir in [Direction::Down, Direction::Left, Direction::Right] {
            if !obs.legal.contains(&dir) {
                continue;
            }
            slide(&board, n, dir, &mut after);
            let v = ahead(&after, n);
            if v > best_value {
                (best, best_value) = (dir, v);
            }
        }
        best
    }
}

botbox_sdk::export_strategy!(Bot);
