//! Alpha-beta search (negamax) with iterative deepening under a node budget.
//!
//! Every position the search enters counts one node; when the budget is spent the search stops and
//! answers the best root move of the deepest iteration, or of the unfinished one if a move there
//! already beat the previous best (the previous best is searched first, so that comparison is
//! fair). Counting nodes rather than time keeps a decision a function of the observation alone.
//!
//! Move ordering, best first: the transposition table's move, moves into the hole, the two killer
//! moves of the ply, then moves that bring their worm nearer the hole on the bare terrain, each
//! group by its history score.

use crate::eval::Evaluator;
use crate::position::{End, MAX_WORMS, Mv, Position, Undo};

/// Larger than any evaluation: a won game is worth `WIN` minus its length in turns.
const WIN: i32 = 1_000_000;
/// Scores beyond this are wins or losses (a game has fewer turns than this margin).
const DECIDED: i32 = WIN - 100_000;
const INFINITY: i32 = WIN + 1;
/// Deeper than any search the budget allows.
pub const MAX_DEPTH: u32 = 64;
/// At most three moves for each of a player's twenty worms.
const MAX_MOVES: usize = 60;
/// Ordering scores below this are quiet moves: no table move, hole, killer or progress.
const QUIET_BELOW: i32 = 2 << 21;
/// Mixes the turn count into a table key.
const TURN_KEY: u64 = 0x2545_F491_4F6C_DD1D;
/// Transposition table entries: a power of two (16 bytes each).
const TABLE_SIZE: usize = 1 << 18;

#[derive(Debug, Clone, Copy, Default)]
struct Entry {
    key: u64,
    value: i32,
    depth: i8,
    bound: Bound,
    mv: Mv,
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

/// The moves of one ply, kept in the search so that a node initialises no arrays.
#[derive(Debug, Clone, Copy)]
struct Frame {
    moves: [Mv; MAX_MOVES],
    scores: [i32; MAX_MOVES],
}

impl Default for Frame {
    fn default() -> Self {
        Frame {
            moves: [Mv::default(); MAX_MOVES],
            scores: [0; MAX_MOVES],
        }
    }
}

/// What the last decision did, for tuning and reports.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    pub nodes: u64,
    /// The deepest iteration that finished.
    pub depth: u32,
    pub value: i32,
}

/// The search and the state it keeps between decisions (the table, killers, history).
#[derive(Debug)]
pub struct Search {
    eval: Evaluator,
    table: Vec<Entry>,
    killers: [[Mv; 2]; MAX_DEPTH as usize + 1],
    /// The moves of each ply being searched and their ordering scores.
    frames: Vec<Frame>,
    /// The total need of each player's worms in the position being searched.
    needs: [u32; 2],
    history: [[u32; 3]; MAX_WORMS],
    budget: u64,
    max_depth: u32,
    nodes: u64,
    stopped: bool,
    pub stats: Stats,
}

impl Search {
    /// A search that visits at most `budget` nodes per decision and iterates at most `max_depth`
    /// turns deep.
    pub fn new(budget: u64, max_depth: u32) -> Search {
        Search {
            eval: Evaluator::default(),
            table: vec![Entry::default(); TABLE_SIZE],
            killers: [[Mv::default(); 2]; MAX_DEPTH as usize + 1],
            frames: vec![Frame::default(); MAX_DEPTH as usize + 1],
            needs: [0; 2],
            history: [[0; 3]; MAX_WORMS],
            budget: budget.max(1),
            max_depth: max_depth.clamp(1, MAX_DEPTH),
            nodes: 0,
            stopped: false,
            stats: Stats::default(),
        }
    }

    /// The best of `legal` (the moves of the player to move, never empty) in `pos`.
    pub fn best(&mut self, pos: &mut Position, legal: &[Mv]) -> Mv {
        self.nodes = 0;
        self.stopped = false;
        self.killers = [[Mv::default(); 2]; MAX_DEPTH as usize + 1];
        for row in &mut self.history {
            *row = [0; 3];
        }
        self.eval.prepare(pos);
        self.needs = self.eval.needs(pos);
        let mut root: Vec<Mv> = legal.to_vec();
        let scores: Vec<i32> = root
            .iter()
            .map(|&m| self.order_score(pos, m, None, 0))
            .collect();
        let mut order: Vec<usize> = (0..root.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(scores[i]));
        root = order.into_iter().map(|i| root[i]).collect();
        let mut best = root[0];
        self.stats = Stats::default();
        if root.len() == 1 {
            return best;
        }
        for depth in 1..=self.max_depth {
            let (found, value) = self.root_iteration(pos, &root, depth);
            if value <= -DECIDED && depth > 1 {
                // Every move loses against perfect play. The opponent may not play perfectly:
                // keep the move the shallower search liked, which is not proven to lose.
                break;
            }
            if let Some(mv) = found {
                best = mv;
                self.stats.value = value;
                let at = root.iter().position(|&m| m == mv).unwrap_or(0);
                root[..=at].rotate_right(1);
            }
            if self.stopped {
                break;
            }
            self.stats.depth = depth;
            if value.abs() >= DECIDED {
                break;
            }
        }
        self.stats.nodes = self.nodes;
        best
    }

    /// One iteration at the root: the best move found and its value. Stopped early, the best of the
    /// moves searched to the end.
    fn root_iteration(&mut self, pos: &mut Position, root: &[Mv], depth: u32) -> (Option<Mv>, i32) {
        let depth = depth as i32;
        let mut alpha = -INFINITY;
        let mut found = None;
        for (i, &mv) in root.iter().enumerate() {
            let (undo, change) = self.play(pos, mv);
            let mut value = if i == 0 {
                -self.negamax(pos, depth - 1, 1, -INFINITY, INFINITY)
            } else {
                -self.negamax(pos, depth - 1, 1, -alpha - 1, -alpha)
            };
            if i > 0 && value > alpha && !self.stopped {
                // Better than the best so far: its true value needs a full window.
                value = -self.negamax(pos, depth - 1, 1, -INFINITY, -alpha);
            }
            self.undo(pos, undo, change);
            if self.stopped {
                break;
            }
            if value > alpha {
                alpha = value;
                found = Some(mv);
            }
        }
        (found, alpha)
    }

    fn negamax(
        &mut self,
        pos: &mut Position,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes >= self.budget {
            self.stopped = true;
            return 0;
        }
        if depth <= 0 || ply >= MAX_DEPTH as usize {
            let can_move = pos.can_move(pos.to_move);
            if let Some(end) = pos.end(can_move) {
                return end_value(end, ply);
            }
            return self.eval.evaluate(pos, self.needs);
        }
        let count = self.generate(pos, ply);
        if let Some(end) = pos.end(count > 0) {
            return end_value(end, ply);
        }
        if count == 0 {
            pos.pass();
            let value = -self.negamax(pos, depth - 1, ply + 1, -beta, -alpha);
            pos.unpass();
            return value;
        }

        // The turn count is part of the key: near the turn limit it changes the value.
        let key = pos.hash ^ u64::from(pos.turn).wrapping_mul(TURN_KEY);
        let slot = (key as usize) & (TABLE_SIZE - 1);
        let entry = self.table[slot];
        let mut table_move = None;
        if entry.key == key && entry.bound != Bound::Empty {
            table_move = Some(entry.mv);
            if i32::from(entry.depth) >= depth {
                let value = from_table(entry.value, ply);
                let cut = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => value >= beta,
                    Bound::Upper => value <= alpha,
                    Bound::Empty => false,
                };
                if cut {
                    return value;
                }
            }
        }

        for i in 0..count {
            let mv = self.frames[ply].moves[i];
            self.frames[ply].scores[i] = self.order_score(pos, mv, table_move, ply);
        }
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = self.frames[ply].moves[0];
        for i in 0..count {
            let frame = &mut self.frames[ply];
            let mv = pick(&mut frame.moves[i..count], &mut frame.scores[i..count]);
            let quiet = frame.scores[i] < QUIET_BELOW;
            let (undo, change) = self.play(pos, mv);
            let value = if i == 0 {
                -self.negamax(pos, depth - 1, ply + 1, -beta, -alpha)
            } else {
                // A later move is expected to be worse: prove it with a null window (and, for a
                // quiet move late in the order, one turn shallower), searching again if not.
                let reduce = i32::from(depth >= 3 && i >= 3 && quiet);
                let mut v = -self.negamax(pos, depth - 1 - reduce, ply + 1, -alpha - 1, -alpha);
                if v > alpha && reduce > 0 {
                    v = -self.negamax(pos, depth - 1, ply + 1, -alpha - 1, -alpha);
                }
                if v > alpha && v < beta {
                    v = -self.negamax(pos, depth - 1, ply + 1, -beta, -alpha);
                }
                v
            };
            self.undo(pos, undo, change);
            if self.stopped {
                return 0;
            }
            if value > best {
                best = value;
                best_move = mv;
                if value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        self.reward(mv, ply, depth);
                        break;
                    }
                }
            }
        }

        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.table[slot] = Entry {
            key,
            value: to_table(best, ply),
            depth: depth.min(i32::from(i8::MAX)) as i8,
            bound,
            mv: best_move,
        };
        best
    }

    /// Makes a move, keeping the players' total needs up to date; returns what [`Search::undo`]
    /// needs to take it back.
    fn play(&mut self, pos: &mut Position, mv: Mv) -> (Undo, (usize, u32)) {
        // Needs are at most a few thousand each, so their sums never come near overflowing.
        let id = usize::from(mv.worm);
        let worm = &pos.worms[id];
        let (owner, before) = (usize::from(worm.owner), self.eval.worm_need(worm));
        let undo = pos.play(mv);
        let worm = &pos.worms[id];
        let after = if worm.alive {
            self.eval.worm_need(worm)
        } else {
            0
        };
        self.needs[owner] = self.needs[owner] + after - before;
        (undo, (owner, before))
    }

    fn undo(&mut self, pos: &mut Position, undo: Undo, (owner, before): (usize, u32)) {
        let id = usize::from(undo.worm());
        let worm = &pos.worms[id];
        let after = if worm.alive {
            self.eval.worm_need(worm)
        } else {
            0
        };
        pos.undo(undo);
        self.needs[owner] = self.needs[owner] + before - after;
    }

    /// The legal moves of the player to move into the frame of `ply`; returns how many.
    fn generate(&mut self, pos: &Position, ply: usize) -> usize {
        let moves = &mut self.frames[ply].moves;
        let mut count = 0;
        for &id in pos.worm_ids(pos.to_move) {
            if !pos.worms[usize::from(id)].alive {
                continue;
            }
            for turn in 0..3 {
                if pos.enterable(pos.target(usize::from(id), turn).0) {
                    moves[count] = Mv { worm: id, turn };
                    count += 1;
                }
            }
        }
        count
    }

    /// How promising a move looks before it is searched: larger first.
    fn order_score(&self, pos: &Position, mv: Mv, table_move: Option<Mv>, ply: usize) -> i32 {
        if table_move == Some(mv) {
            return 1 << 30;
        }
        let id = usize::from(mv.worm);
        let (target, facing) = pos.target(id, mv.turn);
        if target == pos.hole {
            return 1 << 29;
        }
        if self.killers[ply][0] == mv {
            return 1 << 28;
        }
        if self.killers[ply][1] == mv {
            return 1 << 27;
        }
        let worm = &pos.worms[id];
        let here = i32::from(self.eval.need(usize::from(worm.cells[0]), worm.facing));
        let progress = (here - i32::from(self.eval.need(target, facing))).clamp(-1, 1);
        let history = self.history[id][usize::from(mv.turn)].min(1 << 20) as i32;
        (progress + 1) * (1 << 21) + history
    }

    /// A move that caused a cut-off: a killer of its ply, and history in proportion to the depth.
    fn reward(&mut self, mv: Mv, ply: usize, depth: i32) {
        let killers = &mut self.killers[ply];
        if killers[0] != mv {
            killers[1] = killers[0];
            killers[0] = mv;
        }
        let bonus = (depth * depth) as u32;
        let slot = &mut self.history[usize::from(mv.worm)][usize::from(mv.turn)];
        *slot = slot.saturating_add(bonus);
    }
}

/// Moves the best-scored move to the front of the slices and returns it (a selection sort one
/// step at a time: after a cut-off the rest need never be sorted).
fn pick(moves: &mut [Mv], scores: &mut [i32]) -> Mv {
    let mut best = 0;
    for i in 1..moves.len() {
        if scores[i] > scores[best] {
            best = i;
        }
    }
    moves.swap(0, best);
    scores.swap(0, best);
    moves[0]
}

fn end_value(end: End, ply: usize) -> i32 {
    match end {
        End::Won => WIN - ply as i32,
        End::Lost => -(WIN - ply as i32),
        End::Draw => 0,
    }
}

/// Wins are stored as distances from the stored position, not from the root.
fn to_table(value: i32, ply: usize) -> i32 {
    if value >= DECIDED {
        value + ply as i32
    } else if value <= -DECIDED {
        value - ply as i32
    } else {
        value
    }
}

fn from_table(value: i32, ply: usize) -> i32 {
    if value >= DECIDED {
        value - ply as i32
    } else if value <= -DECIDED {
        value + ply as i32
    } else {
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::tests::position;

    #[test]
    fn it_takes_a_win_in_one() {
        // A can fall in at once (forward) or turn down; a is one move from the hole too.
        let rows = ["AAAO", "...a", "...a", "...a"];
        let worms = [[[0, 2], [0, 1], [0, 0]], [[1, 3], [2, 3], [3, 3]]];
        let mut pos = position(&rows, &worms, 0, 0, 10);
        let legal = [Mv { worm: 0, turn: 1 }, Mv { worm: 0, turn: 2 }];
        let mut search = Search::new(1000, MAX_DEPTH);
        assert_eq!(search.best(&mut pos, &legal), legal[0]);
        assert!(search.stats.value >= DECIDED);
    }
}
