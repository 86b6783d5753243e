//! A strong 2048 strategy: depth-limited expectimax in the style of nneonneo's 2048-ai.
//!
//! `board` packs the board into a `u64` and precomputes every row's moves and heuristic value;
//! `search` runs the expectimax. This file is the strategy itself ([`Expectimax`], exported under the
//! botbox WASM ABI) and a native entry point, [`best_move`]. See README.md for how the search works.

mod board;
mod search;

use std::sync::OnceLock;

use botbox_sdk::{
    Setup, Strategy,
    g2048::{Direction, Observation},
};

use crate::{board::Tables, search::Search};

/// The tables are the same for every game, so they are built once per process (natively) or per module
/// instance (in WASM), on first use.
fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(Tables::new)
}

/// The best move on a board of 16 base-2 exponents (row-major, 0 for empty, any exponent up to 255), or
/// `None` if no move changes the board. Builds a fresh cache on every call: for a whole game, prefer
/// [`Expectimax`], which keeps one.
pub fn best_move(cells: [u8; 16]) -> Option<Direction> {
    Search::new(tables()).best_of(cells, &board::legal_moves(&cells))
}

/// The expectimax strategy. It keeps its transposition cache from one decision to the next (cleared
/// logically, not physically, at every decision).
#[derive(Debug)]
pub struct Expectimax {
    search: Search,
}

impl Expectimax {
    /// The board's exponents, or `None` if the board is not 4x4.
    fn cells(obs: &Observation) -> Option<[u8; 16]> {
        (obs.board.len() == 4 && obs.board.iter().all(|row| row.len() == 4))
            .then(|| obs.exponents())
    }
}

impl Strategy for Expectimax {
    type Observation = Observation;
    type Action = Direction;

    /// Reads the optional parameter `depth` (`--param depth=3`): the deepest search, in moves,
    /// from 1 to the default [`search::MAX_DEPTH`]. Shallower is faster and weaker.
    fn new(setup: &Setup) -> Self {
        let mut search = Search::new(tables());
        if let Some(depth) = setup.params.get("depth").and_then(|d| d.as_u64()) {
            search.set_max_depth(depth.min(u64::from(search::MAX_DEPTH)) as u32);
        }
        Expectimax { search }
    }

    /// Always one of `obs.legal`: the search only ranks the moves the host allows. A board the search
    /// cannot read (not 4x4) gets the first legal move.
    fn choose_move(&mut self, obs: Observation) -> Direction {
        let fallback = obs.legal.first().copied().unwrap_or(Direction::Left);
        match Self::cells(&obs) {
            Some(cells) => self.search.best_of(cells, &obs.legal).unwrap_or(fallback),
            None => fallback,
        }
    }
}

botbox_sdk::export_strategy!(Expectimax);

#[cfg(test)]
mod tests {
    use super::*;

    fn setup() -> Setup {
        Setup::new("2048", 1, 0)
    }

    fn observation(board: [[u32; 4]; 4], legal: &[Direction]) -> Observation {
        Observation {
            board: board.iter().map(|r| r.to_vec()).collect(),
            score: 0,
            moves: 0,
            legal: legal.to_vec(),
        }
    }

    /// Both entry points answer one of `legal`, which must be the board's legal moves.
    fn check(board: [[u32; 4]; 4], legal: &[Direction]) {
        let cells: [u8; 16] =
            std::array::from_fn(|i| board[i / 4][i % 4].trailing_zeros() as u8 % 32);
        assert_eq!(
            board::legal_moves(&cells),
            legal,
            "legal moves of {board:?}"
        );
        let answer = Expectimax::new(&setup()).choose_move(observation(board, legal));
        assert!(
            legal.contains(&answer),
            "{answer:?} not in {legal:?} on {board:?}"
        );
        let native = best_move(cells).expect("a legal move exists");
        assert!(
            legal.contains(&native),
            "{native:?} not in {legal:?} on {board:?}"
        );
    }

    #[test]
    fn answers_a_legal_move() {
        use Direction::*;
        check(
            [[2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]],
            &[Left, Right, Up, Down],
        );
        check(
            [
                [2, 4, 8, 16],
                [4, 8, 16, 32],
                [8, 16, 32, 64],
                [16, 32, 64, 0],
            ],
            &[Right, Down],
        );
        check(
            [[4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 2]],
            &[Left, Right, Up, Down],
        );
    }

    #[test]
    fn answers_a_legal_move_past_32768() {
        use Direction::*;
        // 65536 beside 32768: both pack to 15 and look mergeable, but only up/down is legal.
        let board = [
            [65536, 32768, 4, 2],
            [2, 4, 8, 16],
            [4, 8, 16, 32],
            [8, 16, 64, 32],
        ];
        check(board, &[Up, Down]);
        let board = [
            [131072, 65536, 32768, 0],
            [2, 4, 8, 16],
            [4, 8, 16, 32],
            [8, 16, 32, 2],
        ];
        check(board, &[Right, Up]);
    }

    #[test]
    fn falls_back_to_the_first_legal_move_off_4x4() {
        use Direction::*;
        let obs = Observation {
            board: vec![vec![2, 0, 0], vec![0; 3], vec![0; 3]],
            score: 0,
            moves: 0,
            legal: vec![Down, Right],
        };
        assert_eq!(Expectimax::new(&setup()).choose_move(obs), Down);
    }

    #[test]
    fn no_move_on_a_full_board_without_merges() {
        let cells = [1, 2, 1, 2, 2, 1, 2, 1, 1, 2, 1, 2, 2, 1, 2, 1];
        assert_eq!(best_move(cells), None);
    }
}
