//! Expectimax over packed boards: the player's moves are max nodes, the random tile is a chance node.
//!
//! A chance node averages over every empty cell, a 2 with weight 0.9 and a 4 with weight 0.1. The
//! search stops at the depth limit or as soon as the probability of reaching a node falls below
//! [`CPROB_THRESHOLD`]: improbable lines are scored by the heuristic instead of being searched, which is
//! what keeps deep searches affordable. Chance nodes are remembered in a transposition cache for the
//! length of one decision. Everything is deterministic: no clock, no randomness, the same answer
//! natively and in WASM.

use botbox_sdk::g2048::Direction;

use crate::board::{Board, Tables, count_distinct, empty_mask};

/// Below this probability of being reached, a position is evaluated rather than searched.
const CPROB_THRESHOLD: f32 = 0.0001;

/// The depth limit never goes below this, however simple the board.
pub const MIN_DEPTH: u32 = 3;

/// The depth limit never goes above this: it keeps a typical move around 10-20 ms natively.
pub const MAX_DEPTH: u32 = 5;

/// How deep to search a position: deeper when more distinct tiles make it harder (nneonneo's rule,
/// `distinct - 2`), within [`MIN_DEPTH`]..=[`MAX_DEPTH`].
pub fn depth_limit(board: Board) -> u32 {
    count_distinct(board)
        .saturating_sub(2)
        .clamp(MIN_DEPTH, MAX_DEPTH)
}

/// The work one decision may plan for, in positions searched (max nodes). A search predicted to cost
/// more is made one level shallower. 600,000 positions take about 40 ms natively on a 2.1 GHz Xeon;
/// the average decision searches about 160,000.
pub const NODE_BUDGET: u64 = 600_000;

/// The work a search may actually do before it is abandoned for the shallow answer. A position costs
/// about 1,050 units of WASM fuel (at most about 1,150 measured), and a decision gets 2,000,000,000 by
/// default: this limit keeps even an abandoned search near 1,100,000,000.
pub const NODE_LIMIT: u64 = 1_000_000;

/// How much one more level of depth multiplies the work when predicting it: roughly the 90th
/// percentile of the square root of work(5) / work(3), measured over a whole game.
const GROWTH_PER_LEVEL: u64 = 8;

/// log2 of the number of cache slots: 2^18 slots of 16 bytes, 4 MiB.
const CACHE_BITS: u32 = 18;

/// One slot of the direct-mapped transposition cache. A slot is valid only for the decision whose
/// `generation` it carries, so the cache never needs clearing.
#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    board: Board,
    value: f32,
    /// `generation << 8 | remaining`: how many more player moves the value looked ahead.
    stamp: u32,
}

/// A searcher: the shared tables and a transposition cache reused from one decision to the next.
pub struct Search {
    tables: &'static Tables,
    cache: Box<[Slot]>,
    generation: u32,
    /// The depth limit of the search under way.
    depth_limit: u32,
    /// Positions searched (max nodes) so far by the search under way, and where it must stop.
    nodes: u64,
    node_limit: u64,
    /// The deepest search allowed (the `depth` parameter), at most [`MAX_DEPTH`].
    max_depth: u32,
}

impl std::fmt::Debug for Search {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Search")
            .field("cache_slots", &self.cache.len())
            .field("generation", &self.generation)
            .field("depth_limit", &self.depth_limit)
            .field("nodes", &self.nodes)
            .finish_non_exhaustive()
    }
}

impl Search {
    pub fn new(tables: &'static Tables) -> Search {
        Search {
            tables,
            cache: vec![Slot::default(); 1 << CACHE_BITS].into_boxed_slice(),
            generation: 0,
            depth_limit: 0,
            nodes: 0,
            node_limit: u64::MAX,
            max_depth: MAX_DEPTH,
        }
    }

    /// Caps the search depth (1 to [`MAX_DEPTH`]): shallower is faster and weaker.
    pub fn set_max_depth(&mut self, depth: u32) {
        self.max_depth = depth.clamp(1, MAX_DEPTH);
    }

    /// The expected value of each move (indexed like [`Direction::ALL`]), `None` for a move that does
    /// not change the packed board.
    ///
    /// A search to [`MIN_DEPTH`] comes first: it is cheap, and its cost predicts the cost of the deeper
    /// search, whose depth is lowered until the prediction fits [`NODE_BUDGET`]. Should the deeper
    /// search still pass [`NODE_LIMIT`], it is abandoned and the shallow answer stands.
    pub fn evaluate(&mut self, board: Board) -> [Option<f32>; 4] {
        self.new_generation();
        let shallow = self
            .search(board, MIN_DEPTH.min(self.max_depth), u64::MAX)
            .expect("an unlimited search completes");
        let probe = self.nodes.max(1);
        let mut depth = depth_limit(board).min(self.max_depth);
        while depth > MIN_DEPTH && probe * GROWTH_PER_LEVEL.pow(depth - MIN_DEPTH) > NODE_BUDGET {
            depth -= 1;
        }
        if depth <= MIN_DEPTH {
            return shallow;
        }
        self.search(board, depth, NODE_LIMIT).unwrap_or(shallow)
    }

    /// Forgets the cache: a new decision.
    fn new_generation(&mut self) {
        // Generation 0 marks never-used slots; the stamp keeps 24 bits of it.
        self.generation = (self.generation + 1) % (1 << 24);
        if self.generation == 0 {
            self.cache.fill(Slot::default());
            self.generation = 1;
        }
    }

    /// One search to `depth`, or `None` if it passed `node_limit` positions.
    fn search(&mut self, board: Board, depth: u32, node_limit: u64) -> Option<[Option<f32>; 4]> {
        self.depth_limit = depth;
        self.nodes = 0;
        self.node_limit = node_limit;
        let values = Direction::ALL.map(|dir| {
            let next = self.tables.apply(board, dir);
            // The small bonus makes any live move beat a move into a position with no future (value 0).
            (next != board).then(|| self.chance(next, 1.0, 0) + 1e-6)
        });
        if self.nodes <= node_limit {
            return Some(values);
        }
        // Cache entries made after the limit hold cut-short values: drop them all.
        self.new_generation();
        None
    }

    /// The best of `legal` for the board of real exponents `cells`; `None` only if `legal` is empty.
    pub fn best_of(&mut self, cells: [u8; 16], legal: &[Direction]) -> Option<Direction> {
        let values = self.evaluate(crate::board::pack(cells));
        // A legal move the packed board cannot see (impossible, but cheap to be sure of) ranks last.
        let value = |dir: Direction| values[dir.index()].unwrap_or(f32::NEG_INFINITY);
        legal
            .iter()
            .copied()
            .reduce(|best, dir| if value(dir) > value(best) { dir } else { best })
    }

    /// A position where the random tile is about to appear, reached with probability `cprob`, `depth`
    /// player moves below the root.
    fn chance(&mut self, board: Board, cprob: f32, depth: u32) -> f32 {
        // Past the node limit the search is abandoned anyway: finish it as fast as possible.
        if cprob < CPROB_THRESHOLD || depth >= self.depth_limit || self.nodes > self.node_limit {
            return self.tables.heuristic(board);
        }
        let remaining = self.depth_limit - depth;
        let slot = (board.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - CACHE_BITS)) as usize;
        let cached = self.cache[slot];
        // A value that looked at least as far ahead as needed now will do.
        if cached.board == board
            && cached.stamp >> 8 == self.generation
            && cached.stamp & 0xFF >= remaining
        {
            return cached.value;
        }
        let empty = empty_mask(board);
        let open = empty.count_ones() as f32;
        let cprob = cprob / open;
        let mut sum = 0.0;
        let mut cells = empty;
        while cells != 0 {
            let two = cells & cells.wrapping_neg();
            sum += 0.9 * self.max(board | two, cprob * 0.9, depth + 1);
            sum += 0.1 * self.max(board | two << 1, cprob * 0.1, depth + 1);
            cells &= cells - 1;
        }
        let value = sum / open;
        self.cache[slot] = Slot {
            board,
            value,
            stamp: self.generation << 8 | remaining,
        };
        value
    }

    /// A position where the player is about to move: the best of its moves, 0 if there is none.
    fn max(&mut self, board: Board, cprob: f32, depth: u32) -> f32 {
        self.nodes += 1;
        Direction::ALL.into_iter().fold(0.0, |best, dir| {
            let next = self.tables.apply(board, dir);
            if next == board {
                best
            } else {
                best.max(self.chance(next, cprob, depth))
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::pack;

    fn board(exps: &[u8]) -> Board {
        let mut cells = [0u8; 16];
        cells[..exps.len()].copy_from_slice(exps);
        pack(cells)
    }

    #[test]
    fn depth_grows_with_distinct_tiles_within_bounds() {
        assert_eq!(depth_limit(board(&[1, 1])), MIN_DEPTH);
        assert_eq!(depth_limit(board(&[1, 2, 3, 4, 5, 6])), 4);
        assert_eq!(
            depth_limit(board(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])),
            MAX_DEPTH
        );
    }

    #[test]
    fn an_abandoned_search_leaves_no_trace() {
        let tables = crate::tables();
        let position = board(&[1, 2, 3, 4, 0, 5, 6, 7, 0, 0, 8, 1, 2, 0, 0, 3]);
        let mut fresh = Search::new(tables);
        fresh.new_generation();
        let expected = fresh.search(position, 4, u64::MAX);
        assert!(
            fresh.nodes > 1000,
            "the test wants a search that can be cut: {}",
            fresh.nodes
        );

        let mut search = Search::new(tables);
        search.new_generation();
        assert_eq!(search.search(position, 4, 1000), None);
        assert_eq!(search.search(position, 4, u64::MAX), expected);
    }

    #[test]
    fn evaluation_values_exactly_the_moves_that_change_the_board() {
        let tables = crate::tables();
        let mut search = Search::new(tables);
        // A lone tile in the top-left corner moves only right and down.
        let values = search.evaluate(board(&[1]));
        let movable: Vec<bool> = values.iter().map(Option::is_some).collect();
        assert_eq!(movable, [false, true, false, true]);
    }
}
