//! A Connect Four strategy: negamax with alpha-beta pruning and iterative deepening on a bitboard,
//! for any board the host plays (Kaggle ConnectX rules, `docs/connect4.md`).
//!
//! `position` reads the observation into two 64-bit words and finds, with shifts, the cells that
//! would complete a line; `search` runs the negamax under a node budget with a transposition table,
//! moves ordered by the lines they prepare and from the centre. This file is the strategy itself
//! ([`AlphaBeta`], exported under the botbox WASM ABI) and a native entry point, [`best_move`].
//!
//! Parameters (`--param nodes=200000`, `--param depth=12`): `nodes`, the positions searched per
//! decision (default [`DEFAULT_NODES`]), and `depth`, the deepest iteration in moves (default: the
//! whole game).

mod position;
mod search;

use botbox_sdk::connect4::{Move, Observation};
use botbox_sdk::{Setup, Strategy};

pub use position::{Position, ReadError, Shape};
pub use search::{DECIDED, Stats, WIN};

use search::Search;

/// The default node budget per decision: about 10 ms natively on the standard board, a small part
/// of the default WASM fuel.
pub const DEFAULT_NODES: u64 = 100_000;
/// The default deepest iteration: deeper than any game.
pub const MAX_DEPTH: u32 = 64;

/// The strategy. It keeps its transposition table from one decision to the next.
#[derive(Debug)]
pub struct AlphaBeta {
    search: Search,
}

impl AlphaBeta {
    /// A strategy that searches at most `nodes` positions and `depth` moves per decision.
    pub fn with_budget(nodes: u64, depth: u32) -> AlphaBeta {
        AlphaBeta {
            search: Search::new(nodes, depth),
        }
    }

    /// What the last decision did: nodes visited, depth finished, value.
    pub fn stats(&self) -> Stats {
        self.search.stats
    }
}

impl Strategy for AlphaBeta {
    type Observation = Observation;
    type Action = Move;

    /// Reads the optional parameters `nodes` (default [`DEFAULT_NODES`]) and `depth` (default
    /// [`MAX_DEPTH`]).
    fn new(setup: &Setup) -> Self {
        let param = |name: &str| setup.params.get(name).and_then(|v| v.as_u64());
        let nodes = param("nodes").unwrap_or(DEFAULT_NODES);
        let depth = param("depth").map_or(MAX_DEPTH, |d| d.clamp(1, u64::from(MAX_DEPTH)) as u32);
        AlphaBeta::with_budget(nodes, depth)
    }

    /// Always one of `obs.legal`. An observation the bitboard cannot read gets the most central
    /// legal column.
    fn choose_move(&mut self, obs: Observation) -> Move {
        let centre = obs.columns.saturating_sub(1);
        let fallback = obs
            .legal
            .iter()
            .copied()
            .min_by_key(|&c| (2 * c).abs_diff(centre))
            .unwrap_or(0);
        if obs.legal.len() <= 1 {
            return Move::new(fallback);
        }
        let column = match Position::from_observation(&obs) {
            Ok((shape, pos)) => self.search.best(&shape, &pos),
            Err(_) => fallback,
        };
        if obs.legal.contains(&column) {
            Move::new(column)
        } else {
            Move::new(fallback)
        }
    }
}

botbox_sdk::export_strategy!(AlphaBeta);

/// The search's move for `obs` with a budget of `nodes` positions (natively; a fresh table each
/// call).
pub fn best_move(obs: Observation, nodes: u64) -> Move {
    AlphaBeta::with_budget(nodes, MAX_DEPTH).choose_move(obs)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The observation of a standard board after `moves` (columns, one digit each), for the player
    /// to move.
    fn observe(moves: &str) -> Observation {
        observe_shape(7, 6, 4, moves)
    }

    fn observe_shape(columns: u32, rows: u32, inarow: u32, moves: &str) -> Observation {
        let mut board = vec![0u8; (columns * rows) as usize];
        let mut heights = vec![0u32; columns as usize];
        for (i, b) in moves.bytes().enumerate() {
            let col = u32::from(b - b'0');
            let row = rows - 1 - heights[col as usize];
            heights[col as usize] += 1;
            board[(row * columns + col) as usize] = (i % 2) as u8 + 1;
        }
        Observation {
            board,
            rows,
            columns,
            inarow,
            mark: (moves.len() % 2) as u8 + 1,
            legal: (0..columns)
                .filter(|&c| heights[c as usize] < rows)
                .collect(),
            moves: moves.len() as u32,
        }
    }

    fn choose(moves: &str) -> u32 {
        best_move(observe(moves), DEFAULT_NODES).column
    }

    #[test]
    fn it_wins_in_one() {
        // Vertical: three of mark 1 in column 0 (and three of mark 2 in column 1).
        assert_eq!(choose("010101"), 0);
        // Horizontal: mark 1 on 1, 2, 3 of the bottom row, both ends open.
        let col = choose("112233");
        assert!(col == 0 || col == 4, "{col}");
        // Diagonal: mark 1 on (0,0), (1,1), (2,2) counted from the bottom left; (3,3) wins.
        assert_eq!(choose("0112232336"), 3);
    }

    #[test]
    fn it_blocks_a_loss_in_one() {
        // Mark 2 to move; mark 1 has three in column 0.
        assert_eq!(choose("01010"), 0);
        // Mark 2 to move; mark 1 has 1, 2, 3 on the bottom row and 0 is taken: block 4.
        assert_eq!(choose("10203"), 4);
    }

    #[test]
    fn it_prefers_a_win_to_a_block() {
        // Mark 2 to move: mark 1 threatens column 0, but mark 2 wins in column 1.
        assert_eq!(choose("0101016"), 1);
    }

    #[test]
    fn it_opens_in_the_centre_and_sees_double_threats() {
        assert_eq!(choose(""), 3);
        // Mark 1 to move with 2 and 3 on the bottom row: 1 or 4 makes three with both ends open.
        let col = choose("2636");
        assert!([1, 4].contains(&col), "{col}");
        // Mark 2 to move against the same two pieces must stop that now, at 1 or 4.
        let col = choose("263");
        assert!([1, 4].contains(&col), "{col}");
    }

    #[test]
    fn it_plays_other_shapes() {
        // 9x6-5: four of mark 1 on the bottom row, columns 0..=3; column 4 wins.
        let obs = observe_shape(9, 6, 5, "08182838");
        assert_eq!(best_move(obs, DEFAULT_NODES).column, 4);
        // 5x4-3: mark 2 to move must block column 0.
        let obs = observe_shape(5, 4, 3, "040");
        assert_eq!(best_move(obs, DEFAULT_NODES).column, 0);
        // The largest boards open in the centre.
        let col = best_move(observe_shape(8, 7, 4, ""), 10_000).column;
        assert!([3, 4].contains(&col), "{col}");
        let col = best_move(observe_shape(12, 4, 4, ""), 10_000).column;
        assert!([5, 6].contains(&col), "{col}");
    }

    #[test]
    fn a_lost_position_still_gets_a_blocking_move() {
        // Mark 1 to move; mark 2 has 2, 3, 4 on the bottom row with 1 and 5 open.
        let obs = observe("026304");
        let col = best_move(obs.clone(), DEFAULT_NODES).column;
        assert!([1, 5].contains(&col), "{col}");
    }

    #[test]
    fn a_bad_observation_gets_the_central_legal_column() {
        let mut obs = observe("");
        obs.rows = 20;
        assert_eq!(best_move(obs, 1000).column, 3);
    }

    #[test]
    fn parameters_are_read() {
        let mut setup = Setup::new("connect4", 1, 0);
        setup.params.insert("nodes".into(), 500.into());
        setup.params.insert("depth".into(), 2.into());
        let mut bot = AlphaBeta::new(&setup);
        bot.choose_move(observe("33"));
        let stats = bot.stats();
        assert!(stats.nodes <= 501 && stats.depth <= 2, "{stats:?}");
    }
}
