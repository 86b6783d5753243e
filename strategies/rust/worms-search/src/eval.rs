//! The evaluation: a race to the hole. Every move brings at most one worm one step nearer, so the
//! player whose worms together need fewer moves wins the race, the player to move winning a tie;
//! when the turn limit comes first, the player expected to have fewer worms left wins.
//!
//! A worm's need is its distance to the hole on the bare terrain (obstacles only), counted for its
//! head *and the way it faces*: a worm cannot back up, so one that faces away from the hole needs
//! the moves of a U-turn, and one in a dead end it cannot turn in never arrives. The distances are
//! computed once per decision and the search keeps each player's total up to date move by move, so
//! an evaluation costs a few comparisons.
//!
//! Worms are left out of the distances on purpose. A worm in the way moves on sooner or later, and
//! counting it as a wall makes the search prize parking worms in the way, while the opponent simply
//! moves another worm and the parked ones jam the board (measured against greedy, such evaluations
//! lost more games, at several times the cost). The search itself sees the blocks that matter: a
//! player whose every move is blocked must make a move that costs it ground.

use crate::position::{CELLS, HOLE, MAX_WORMS, Position, WALL, WormState};

/// The value of one move of the race. A whole-number scale leaves room for the tempo below it.
const STEP: i32 = 8;
/// The player to move wins a race of equal length: half a step.
const TEMPO: i32 = STEP / 2;
/// The weight of each worm of difference in the projected worm counts at the end of the game.
const WORM: i32 = 4 * STEP;
/// The need of a worm that can never reach the hole: more than any real distance.
const NEVER: u16 = 2000;

/// The directed distances of one map.
#[derive(Debug)]
pub struct Evaluator {
    /// `need[4 * cell + facing]`: the moves a worm whose head is on `cell`, facing `facing`
    /// (0 up, 1 right, 2 down, 3 left), needs to reach the hole, alone on the terrain.
    need: Box<[u16]>,
    queue: Vec<u16>,
}

impl Default for Evaluator {
    fn default() -> Self {
        Evaluator {
            need: vec![NEVER; 4 * CELLS].into_boxed_slice(),
            queue: Vec::with_capacity(4 * CELLS),
        }
    }
}

impl Evaluator {
    /// Computes the distances of `pos`'s terrain: once per decision, before evaluating. A
    /// breadth-first search backwards from the hole over (cell, facing) states: a head on `c`
    /// facing `f` may move to the next cell in direction `f` turned left, not at all, or right.
    pub fn prepare(&mut self, pos: &Position) {
        self.need.fill(NEVER);
        self.queue.clear();
        let open = |cell: usize| pos.cells[cell & (CELLS - 1)] != WALL;
        // A head next to the hole, facing so that a turn or none takes it in, needs one move.
        for into in 0..4u8 {
            let from = pos.step(pos.hole, (into + 2) & 3);
            if !open(from) || pos.cells[from] == HOLE {
                continue;
            }
            for facing in [(into + 3) & 3, into, (into + 1) & 3] {
                self.reach(4 * from + usize::from(facing), 1);
            }
        }
        let mut next = 0;
        while next < self.queue.len() {
            let state = usize::from(self.queue[next]);
            next += 1;
            let (cell, facing) = (state / 4, (state % 4) as u8);
            // The head came into `cell` moving in direction `facing`, from the cell behind it,
            // where it faced `facing` turned back by a quarter, not at all, or forward.
            let from = pos.step(cell, (facing + 2) & 3);
            if !open(from) || pos.cells[from] == HOLE {
                continue;
            }
            let d = self.need[state] + 1;
            for before in [(facing + 1) & 3, facing, (facing + 3) & 3] {
                self.reach(4 * from + usize::from(before), d);
            }
        }
    }

    fn reach(&mut self, state: usize, d: u16) {
        if self.need[state] == NEVER {
            self.need[state] = d;
            self.queue.push(state as u16);
        }
    }

    /// The moves a worm with its head on `cell`, facing `facing`, needs to reach the hole.
    pub fn need(&self, cell: usize, facing: u8) -> u16 {
        self.need[(4 * cell + usize::from(facing & 3)) & (4 * CELLS - 1)]
    }

    /// The moves `worm` (on the board) needs to reach the hole.
    pub fn worm_need(&self, worm: &WormState) -> u32 {
        u32::from(self.need(usize::from(worm.cells[0]), worm.facing))
    }

    /// The total need of each player's worms.
    pub fn needs(&self, pos: &Position) -> [u32; 2] {
        let mut sums = [0; 2];
        for worm in pos.worms[..pos.count].iter().filter(|w| w.alive) {
            sums[usize::from(worm.owner)] += self.worm_need(worm);
        }
        sums
    }

    /// The position's value for the player to move, in [`STEP`]s of the race, given the total
    /// needs of its players' worms (kept up to date by the search, move by move).
    pub fn evaluate(&self, pos: &Position, sums: [u32; 2]) -> i32 {
        let me = usize::from(pos.to_move);
        let race = (sums[1 - me] as i32 - sums[me] as i32) * STEP + TEMPO;
        let remaining = pos.limit.saturating_sub(pos.turn);
        // The player to move makes the 1st, 3rd, ... of the remaining turns: it finishes on turn
        // 2 * need - 1 from now, the other on 2 * need, if the turn limit lets them.
        let finish = [
            (sums[me] <= remaining.div_ceil(2)).then(|| (2 * sums[me]).saturating_sub(1)),
            (sums[1 - me] <= remaining / 2).then(|| 2 * sums[1 - me]),
        ];
        let lead = match finish {
            [Some(mine), Some(theirs)] if mine < theirs => 1,
            [Some(_), None] => 1,
            [_, Some(_)] => -1,
            [None, None] => {
                let seat_left = |seat: u8, moves: u32| {
                    let mut needs = [0u16; MAX_WORMS];
                    let mut count = 0;
                    for worm in pos.worms[..pos.count]
                        .iter()
                        .filter(|w| w.alive && w.owner == seat)
                    {
                        needs[count] = self.worm_need(worm) as u16;
                        count += 1;
                    }
                    left_at(&mut needs[..count], moves)
                };
                let mine = seat_left(pos.to_move, remaining.div_ceil(2));
                seat_left(pos.to_move ^ 1, remaining / 2) - mine
            }
        };
        race + WORM * lead
    }
}

/// How many of a player's worms, with these needs, are still out after `moves` moves, when it
/// brings the nearest home first.
fn left_at(needs: &mut [u16], moves: u32) -> i32 {
    needs.sort_unstable();
    let mut spent = 0u32;
    let home = needs
        .iter()
        .take_while(|&&d| {
            spent += u32::from(d);
            spent <= moves
        })
        .count();
    (needs.len() - home) as i32
}
