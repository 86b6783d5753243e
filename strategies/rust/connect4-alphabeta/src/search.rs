//! Negamax with alpha-beta pruning and iterative deepening under a node budget.
//!
//! Every position the search enters counts one node; when the budget is spent the unfinished
//! iteration is dropped and the best move of the deepest finished one is played. Counting nodes
//! rather than time keeps a decision a function of the observation alone.
//!
//! At every node, before anything else: a player who can complete a line wins at once; a player
//! facing two immediate wins of the other loses; otherwise only the *safe* moves are searched (the
//! forced block if there is one, and never the cell under one of the other's winning cells). Values
//! are from the point of view of the player to move: a win is worth [`WIN`] minus the number of
//! pieces on the board after the winning move, so quicker wins are preferred and a value depends only
//! on the position, which lets the transposition table keep wins across decisions. Unfinished lines
//! are scored by the evaluation (`eval`): cells that would complete a line for one player and not
//! the other, and pieces near the centre.
//!
//! Move ordering, best first: the transposition table's move, then the moves that leave the mover the
//! most cells completing a line, then the central columns.

use crate::position::{MAX_COLUMNS, Position, Shape};

/// Larger than any evaluation: a win on the board's `n`-th piece is worth `WIN - n`.
pub const WIN: i32 = 100_000;
/// Values beyond this are proven wins or losses.
pub const DECIDED: i32 = WIN - 1_000;
const INFINITY: i32 = WIN + 1;
/// Transposition table entries: a power of two (16 bytes each, 1 MiB).
const TABLE_BITS: u32 = 16;
/// The value of one cell that would complete a line, in the evaluation.
const THREAT: i32 = 8;

#[derive(Debug, Clone, Copy, Default)]
struct Entry {
    key: u64,
    value: i32,
    depth: u8,
    bound: Bound,
    /// The best column plus one; 0 for none.
    best: u8,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Bound {
    #[default]
    Empty,
    Exact,
    /// The value is at least this (a beta cut-off).
    Lower,
    /// The value is at most this (no move reached alpha).
    Upper,
}

/// The moves of a node, best first.
#[derive(Debug, Clone, Copy)]
struct Moves {
    cells: [u64; MAX_COLUMNS],
    scores: [i32; MAX_COLUMNS],
    len: usize,
}

impl Moves {
    fn as_slice(&self) -> &[u64] {
        &self.cells[..self.len]
    }
}

/// What the last decision did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Positions entered.
    pub nodes: u64,
    /// The deepest iteration finished, in moves (0: the move was forced or found without search).
    pub depth: u32,
    /// The value of the move played, for the player to move.
    pub value: i32,
}

/// The search: its budget, its table, and the shape-dependent tables of the current board.
#[derive(Debug)]
pub struct Search {
    budget: u64,
    max_depth: u32,
    table: Vec<Entry>,
    nodes: u64,
    aborted: bool,
    /// The shape the tables below were made for.
    shape: Option<Shape>,
    /// The columns from the centre outwards, ties to the left first.
    order: Vec<u32>,
    /// Each column's cells and its weight in the evaluation (higher nearer the centre).
    weights: Vec<(u64, i32)>,
    pub stats: Stats,
}

impl Search {
    /// A search of at most `budget` nodes and `max_depth` moves per decision.
    pub fn new(budget: u64, max_depth: u32) -> Search {
        Search {
            budget: budget.max(1),
            max_depth: max_depth.max(1),
            table: vec![Entry::default(); 1 << TABLE_BITS],
            nodes: 0,
            aborted: false,
            shape: None,
            order: Vec::new(),
            weights: Vec::new(),
            stats: Stats::default(),
        }
    }

    /// Prepares the tables of `shape`, clearing the transposition table if the shape changed.
    fn prepare(&mut self, shape: &Shape) {
        if self.shape.as_ref() == Some(shape) {
            return;
        }
        let columns = shape.columns;
        let mut order: Vec<u32> = (0..columns).collect();
        order.sort_by_key(|&c| (2 * c as i32 - (columns as i32 - 1)).abs());
        self.order = order;
        self.weights = (0..columns)
            .map(|c| {
                let off_centre = (2 * c as i32 - (columns as i32 - 1)).abs();
                (shape.column(c), (columns as i32 - off_centre) / 2)
            })
            .collect();
        self.table.fill(Entry::default());
        self.shape = Some(shape.clone());
    }

    fn slot(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - TABLE_BITS)) as usize
    }

    /// The column to play in `pos` (the player to move must have a legal move).
    pub fn best(&mut self, shape: &Shape, pos: &Position) -> u32 {
        self.prepare(shape);
        self.nodes = 0;
        self.aborted = false;
        self.stats = Stats::default();
        let playable = pos.playable(shape);
        let wins = pos.my_threats(shape) & playable;
        if wins != 0 {
            self.stats.value = WIN - (pos.moves as i32 + 1);
            return Position::column_of(shape, wins & wins.wrapping_neg());
        }
        let safe = pos.safe_moves(shape);
        if safe == 0 {
            // Lost against best play: block one of the wins if possible, else anything.
            self.stats.value = -(WIN - (pos.moves as i32 + 2));
            let blocks = playable & pos.their_threats(shape);
            let pick = if blocks != 0 { blocks } else { playable };
            return self.first_central(shape, pick);
        }
        let mut moves = self
            .ordered(shape, pos, safe, None, true)
            .as_slice()
            .to_vec();
        let mut best = moves[0];
        if moves.len() == 1 {
            return Position::column_of(shape, best);
        }
        let remaining = shape.columns * shape.rows - pos.moves;
        for depth in 1..=self.max_depth.min(remaining) {
            let (mut alpha, mut iteration_best) = (-INFINITY, moves[0]);
            for &cell in &moves {
                let value = -self.negamax(shape, &pos.play(cell), depth - 1, -INFINITY, -alpha);
                if self.aborted {
                    break;
                }
                if value > alpha {
                    alpha = value;
                    iteration_best = cell;
                }
            }
            if self.aborted {
                break;
            }
            best = iteration_best;
            self.stats.depth = depth;
            self.stats.value = alpha;
            // The best move first in the next iteration, the rest in their order.
            moves.retain(|&m| m != best);
            moves.insert(0, best);
            if alpha.abs() >= DECIDED {
                break;
            }
        }
        self.stats.nodes = self.nodes;
        Position::column_of(shape, best)
    }

    /// The most central column among the cells of `cells`.
    fn first_central(&self, shape: &Shape, cells: u64) -> u32 {
        self.order
            .iter()
            .copied()
            .find(|&c| cells & shape.column(c) != 0)
            .unwrap_or(0)
    }

    /// The cells of `candidates`, best first: the table's move, then (if `by_threats`: near the
    /// root, where ordering pays for itself) the number of cells that would complete a line for the
    /// mover after the move, then the centre.
    fn ordered(
        &self,
        shape: &Shape,
        pos: &Position,
        candidates: u64,
        table_move: Option<u32>,
        by_threats: bool,
    ) -> Moves {
        let mut moves = Moves {
            cells: [0; MAX_COLUMNS],
            scores: [0; MAX_COLUMNS],
            len: 0,
        };
        for (rank, &col) in self.order.iter().enumerate() {
            let cell = candidates & shape.column(col);
            if cell == 0 {
                continue;
            }
            let score = if table_move == Some(col) {
                i32::MAX
            } else if !by_threats {
                -(rank as i32)
            } else {
                let mine = shape.winning_cells(pos.current | cell) & !(pos.mask | cell);
                mine.count_ones() as i32 * 16 - rank as i32
            };
            // Insertion, keeping the centre first among equals.
            let mut i = moves.len;
            while i > 0 && moves.scores[i - 1] < score {
                moves.cells[i] = moves.cells[i - 1];
                moves.scores[i] = moves.scores[i - 1];
                i -= 1;
            }
            moves.cells[i] = cell;
            moves.scores[i] = score;
            moves.len += 1;
        }
        moves
    }

    fn negamax(&mut self, shape: &Shape, pos: &Position, depth: u32, alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes > self.budget {
            self.aborted = true;
            return 0;
        }
        let moves = pos.moves as i32;
        let playable = pos.playable(shape);
        let mine = pos.my_threats(shape);
        if mine & playable != 0 {
            return WIN - (moves + 1);
        }
        let theirs = pos.their_threats(shape);
        let safe = Position::safe_among(playable, theirs);
        if safe == 0 {
            return -(WIN - (moves + 2));
        }
        // Neither player can win on the next two pieces (the next move is safe), so with two cells
        // or fewer left the board fills without a line.
        if pos.moves + 2 >= shape.columns * shape.rows {
            return 0;
        }
        // The quickest result either way: our win on piece moves + 3, their win on piece moves + 4.
        let (mut alpha, mut beta) = (alpha, beta);
        beta = beta.min(WIN - (moves + 3));
        alpha = alpha.max(-(WIN - (moves + 4)));
        if alpha >= beta {
            return alpha;
        }
        if depth == 0 {
            return self.evaluate(pos, mine, theirs).clamp(alpha, beta);
        }
        let key = pos.key();
        let slot = self.slot(key);
        let entry = self.table[slot];
        let mut table_move = None;
        if entry.key == key && entry.bound != Bound::Empty {
            table_move = entry.best.checked_sub(1).map(u32::from);
            if u32::from(entry.depth) >= depth {
                match entry.bound {
                    Bound::Exact => return entry.value,
                    Bound::Lower if entry.value >= beta => return entry.value,
                    Bound::Upper if entry.value <= alpha => return entry.value,
                    _ => {}
                }
            }
        }
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_cell = 0;
        let moves = self.ordered(shape, pos, safe, table_move, depth >= 2);
        for &cell in moves.as_slice() {
            let value = -self.negamax(shape, &pos.play(cell), depth - 1, -beta, -alpha);
            if self.aborted {
                return 0;
            }
            if value > best {
                best = value;
                best_cell = cell;
            }
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
        let bound = if best <= original_alpha {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table[slot] = Entry {
            key,
            value: best,
            depth: depth.min(u32::from(u8::MAX)) as u8,
            bound,
            best: Position::column_of(shape, best_cell) as u8 + 1,
        };
        best
    }

    /// The value of a quiet position for the player to move: cells completing a line for them and
    /// not for the other, minus the same for the other, and pieces near the centre. `mine` and
    /// `theirs` are the empty cells completing a line for each.
    fn evaluate(&self, pos: &Position, mine: u64, theirs: u64) -> i32 {
        let threats = (mine & !theirs).count_ones() as i32 - (theirs & !mine).count_ones() as i32;
        let opponent = pos.opponent();
        let centre: i32 = self
            .weights
            .iter()
            .map(|&(column, weight)| {
                weight
                    * ((pos.current & column).count_ones() as i32
                        - (opponent & column).count_ones() as i32)
            })
            .sum();
        THREAT * threats + centre
    }
}
