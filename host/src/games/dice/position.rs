//! A position: where the pieces of both players stand, and the moves the rules allow from it.
//!
//! Each player's pieces are one bit mask over that player's own steps: bit `s` set means a piece on
//! step `s` (0 is A, 1..=39 the track, 40..=43 the goal a..d). A piece on B has no bit; the number
//! waiting is four minus the number of bits. A player's pieces are interchangeable, so a move is
//! named by where it starts. With this shape the pieces that can move `r` steps are one expression,
//! `occ & !(occ >> r)` limited to the steps that stay inside the goal, and the frontmost of them is
//! the highest bit: the strict rule costs a leading-zeros count.
//!
//! [`Position::moves`] is the free variant's list of legal moves, with the two obligations applied
//! first (a 6 brings a piece in; a piece on A leaves it while pieces wait on B). The strict rule is
//! [`Moves::frontmost`], the first entry of that list; nothing else in the engine decides a move.

use serde::{Deserialize, Serialize};

use super::Seat;
use super::die::{Die, SIX};

/// Pieces per player.
pub const PIECES: usize = 4;
/// Fields on the ring, and the first goal step (a).
pub const TRACK: u8 = 40;
/// The last goal step (d); no piece moves past it.
pub const LAST_STEP: u8 = 43;
/// Track fields between the two players' A fields.
pub const OFFSET: u8 = 20;
/// All four goal steps.
const GOAL: u64 = 0xF << TRACK;
/// Every step a piece can stand on.
const BOARD: u64 = (1 << (LAST_STEP + 1)) - 1;

/// Where one piece stands, in its owner's steps. `Waiting` (on B) sorts before every step, so the
/// frontmost piece is the largest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Place {
    Waiting,
    Step(u8),
}

/// One move: a piece from `from` to step `to` (a piece from B always goes to A, step 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Move {
    pub from: Place,
    pub to: u8,
}

/// A hand-built position the rules could never reach or hold.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("seat {seat} has a piece on step {step}, past the last goal field ({LAST_STEP})")]
    PastGoal { seat: Seat, step: u8 },
    #[error("seat {seat} has two pieces on step {step}")]
    Doubled { seat: Seat, step: u8 },
    #[error("seat {seat} has {count} pieces on the board; a player has {PIECES}")]
    TooMany { seat: Seat, count: usize },
    #[error("both players have a piece on track field {field}")]
    Shared { field: u8 },
}

/// The legal moves for one roll, frontmost first, without allocating. Bit 0 stands for bringing a
/// piece in from B, bit `s + 1` for moving the piece on step `s`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Moves {
    roll: u8,
    from: u64,
}

impl Moves {
    const NONE: Moves = Moves { roll: 0, from: 0 };

    pub fn is_empty(&self) -> bool {
        self.from == 0
    }

    pub fn len(&self) -> usize {
        self.from.count_ones() as usize
    }

    /// The move the strict rule makes: the frontmost piece that can move.
    #[inline]
    pub fn frontmost(&self) -> Option<Move> {
        (self.from != 0).then(|| self.decode(63 - self.from.leading_zeros() as u8))
    }

    /// Every legal move, frontmost first.
    pub fn iter(&self) -> impl Iterator<Item = Move> + '_ {
        (0..=LAST_STEP + 1)
            .rev()
            .filter(|bit| self.from >> bit & 1 == 1)
            .map(|bit| self.decode(bit))
    }

    pub fn contains(&self, mv: Move) -> bool {
        self.iter().any(|m| m == mv)
    }

    fn decode(&self, bit: u8) -> Move {
        match bit {
            0 => Move {
                from: Place::Waiting,
                to: 0,
            },
            _ => Move {
                from: Place::Step(bit - 1),
                to: bit - 1 + self.roll,
            },
        }
    }
}

/// Where both players' pieces stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    occ: [u64; 2],
}

impl Position {
    /// The setup: each player has one piece on A and three on B.
    pub const START: Position = Position { occ: [1, 1] };

    /// A position from each seat's pieces on the board (the rest wait on B), checked.
    pub fn from_steps(steps: [&[u8]; 2]) -> Result<Position, PositionError> {
        let mut occ = [0u64; 2];
        for (seat, list) in steps.iter().enumerate() {
            if list.len() > PIECES {
                let count = list.len();
                return Err(PositionError::TooMany { seat, count });
            }
            for &step in list.iter() {
                if step > LAST_STEP {
                    return Err(PositionError::PastGoal { seat, step });
                }
                if occ[seat] >> step & 1 == 1 {
                    return Err(PositionError::Doubled { seat, step });
                }
                occ[seat] |= 1 << step;
            }
        }
        for step in 0..TRACK {
            if occ[0] >> step & 1 == 1 && occ[1] >> opposite(step) & 1 == 1 {
                return Err(PositionError::Shared { field: step });
            }
        }
        Ok(Position { occ })
    }

    /// The four pieces of `seat`, frontmost first.
    pub fn places(&self, seat: Seat) -> [Place; PIECES] {
        let mut places = [Place::Waiting; PIECES];
        let mut rest = self.occ[seat];
        for place in places.iter_mut() {
            if rest == 0 {
                break;
            }
            let step = 63 - rest.leading_zeros() as u8;
            *place = Place::Step(step);
            rest &= !(1 << step);
        }
        places
    }

    /// How many pieces of `seat` wait on B.
    pub fn waiting(&self, seat: Seat) -> usize {
        PIECES - self.occ[seat].count_ones() as usize
    }

    /// Whether `seat` has a piece on its step `step`.
    pub fn occupied(&self, seat: Seat, step: u8) -> bool {
        step <= LAST_STEP && self.occ[seat] >> step & 1 == 1
    }

    /// The legal moves of `seat` for `roll`, frontmost first (the free variant's list).
    ///
    /// Obligations come first and leave no choice: with a 6 and pieces on B, a piece is brought in,
    /// or, if an own piece stands on A, that piece moves on; with pieces on B, a piece on A moves
    /// whenever it can. When the obliged move is impossible, every piece that can move may.
    #[inline]
    pub fn moves(&self, seat: Seat, roll: u8) -> Moves {
        if roll == 0 || roll > LAST_STEP {
            return Moves::NONE;
        }
        let occ = self.occ[seat];
        let on_a = occ & 1 == 1;
        if !full(occ) {
            if roll == SIX && !on_a {
                return Moves { roll, from: 1 };
            }
            if on_a && occ >> roll & 1 == 0 {
                return Moves { roll, from: 2 };
            }
        }
        let reach = (1u64 << (LAST_STEP + 1 - roll)) - 1;
        Moves {
            roll,
            from: (occ & !(occ >> roll) & reach) << 1,
        }
    }

    /// The free variant's list of legal moves as a vector, frontmost first.
    pub fn legal_moves(&self, seat: Seat, roll: u8) -> Vec<Move> {
        self.moves(seat, roll).iter().collect()
    }

    /// Whether `mv` by `seat` would capture a foreign piece: it ends on the track where one stands.
    pub fn captures(&self, seat: Seat, mv: Move) -> bool {
        mv.to < TRACK && self.occ[seat ^ 1] >> opposite(mv.to) & 1 == 1
    }

    /// Makes `mv`, which must be legal, for `seat`; returns whether it captured a piece.
    #[inline]
    pub fn apply(&mut self, seat: Seat, mv: Move) -> bool {
        let from = match mv.from {
            Place::Waiting => 0,
            Place::Step(s) => 1 << s,
        };
        self.occ[seat] ^= from | 1 << mv.to;
        let captured = self.captures(seat, mv);
        if captured {
            self.occ[seat ^ 1] &= !(1 << opposite(mv.to));
        }
        captured
    }

    /// Whether all four pieces of `seat` are in its goal.
    #[inline]
    pub fn has_won(&self, seat: Seat) -> bool {
        self.occ[seat] == GOAL
    }

    /// Whether some face of `die` gives `seat` a legal move here. A player's moves depend on their
    /// own pieces only (foreign pieces never block), so `false` holds until their pieces change.
    ///
    /// An obliged move is always also a free move, so this asks only whether a 6 can bring a piece in
    /// or some piece has a free target step among its step plus each face.
    #[inline]
    pub fn can_move(&self, seat: Seat, die: &Die) -> bool {
        let occ = self.occ[seat];
        if die.has_six() && !full(occ) && occ & 1 == 0 {
            return true;
        }
        let mut rest = occ;
        while rest != 0 {
            if die.mover_mask() << rest.trailing_zeros() & !occ & BOARD != 0 {
                return true;
            }
            rest &= rest - 1;
        }
        false
    }
}

/// Whether all four pieces are on the board (no more than four bits are ever set, so clearing the
/// lowest three leaves something only if there were four).
#[inline]
fn full(occ: u64) -> bool {
    let three_cleared = occ & occ.wrapping_sub(1);
    let three_cleared = three_cleared & three_cleared.wrapping_sub(1);
    three_cleared & three_cleared.wrapping_sub(1) != 0
}

/// The other player's step for track step `step` (the A fields are [`OFFSET`] fields apart).
#[inline]
fn opposite(step: u8) -> u8 {
    (step + OFFSET) % TRACK
}

/// The ring field (0..40, field 0 being seat 0's A) of `seat`'s track step `step` (below 40).
pub fn field(seat: Seat, step: u8) -> u8 {
    debug_assert!(step < TRACK);
    (step + OFFSET * seat as u8) % TRACK
}
