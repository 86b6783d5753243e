//! A Wormworld strategy: alpha-beta search over its own simulator of the game, scored as a race to
//! the hole.
//!
//! `position` rebuilds the game from the observation and makes and unmakes moves by the rules of
//! `docs/worms.md`; `eval` scores a position by the moves both players' worms need to reach the
//! hole; `search` runs a negamax with iterative deepening under a node budget. This file is the strategy
//! itself ([`WormsSearch`], exported under the botbox WASM ABI) and a native entry point,
//! [`best_move`]. See README.md for the design and its strength.

mod eval;
mod position;
mod search;

use botbox_sdk::{
    Setup, Strategy,
    worms::{Move, Observation, Turn},
};

pub use position::{End, Mv, Position};
pub use search::{MAX_DEPTH, Stats};

use search::Search;

/// The default node budget per decision: at most about 0.4 billion WASM fuel per move on the example
/// maps (on the 30x30 one with forty worms), a fifth of the default limit of two billion.
pub const DEFAULT_NODES: u64 = 100_000;

/// The search strategy. It keeps its transposition table from one decision to the next.
#[derive(Debug)]
pub struct WormsSearch {
    search: Search,
}

impl WormsSearch {
    /// A strategy that searches at most `nodes` positions per decision.
    pub fn with_budget(nodes: u64, max_depth: u32) -> WormsSearch {
        WormsSearch {
            search: Search::new(nodes, max_depth),
        }
    }

    /// What the last decision did: nodes visited, depth finished, value.
    pub fn stats(&self) -> Stats {
        self.search.stats
    }
}

impl Strategy for WormsSearch {
    type Observation = Observation;
    type Action = Move;

    /// Reads the optional parameters `nodes` (`--param nodes=50000`), the node budget per decision
    /// (default [`DEFAULT_NODES`]), and `depth`, the deepest iteration in turns (default and
    /// largest [`MAX_DEPTH`]).
    fn new(setup: &Setup) -> Self {
        let param = |name: &str| setup.params.get(name).and_then(|v| v.as_u64());
        let nodes = param("nodes").unwrap_or(DEFAULT_NODES);
        let depth = param("depth").map_or(MAX_DEPTH, |d| d.min(u64::from(MAX_DEPTH)) as u32);
        WormsSearch::with_budget(nodes, depth)
    }

    /// Always one of `obs.legal`: the search only ranks the moves the host allows. An observation
    /// the simulator cannot read gets the first legal move.
    fn choose_move(&mut self, obs: Observation) -> Move {
        let fallback = obs.legal.first().copied().unwrap_or(Move {
            worm: 0,
            turn: Turn::Forward,
        });
        if obs.legal.len() <= 1 {
            return fallback;
        }
        match Position::from_observation(&obs) {
            Ok(mut pos) => {
                let legal: Vec<Mv> = obs.legal.iter().map(|&m| Mv::from_move(m)).collect();
                self.search.best(&mut pos, &legal).to_move()
            }
            Err(_) => fallback,
        }
    }
}

botbox_sdk::export_strategy!(WormsSearch);

/// The search's move for `obs` with a budget of `nodes` positions (natively; a fresh table each
/// call).
pub fn best_move(obs: Observation, nodes: u64) -> Move {
    WormsSearch::with_budget(nodes, MAX_DEPTH).choose_move(obs)
}
