//! Playing: whose roll it is, what follows a roll, and how a game ends.
//!
//! One function, [`after`], holds the turn rules (a 6 rolls again, a win ends the game, a deadlock or
//! an endless turn is a draw). Both ways of playing go through it: [`play_strict`], the fast loop the
//! rankings run millions of times, and [`Game`], the step-by-step game that replays and strategies
//! drive one roll at a time. Given the same generator and the frontmost choice they play the same game.

use serde::Serialize;

use super::Seat;
use super::die::{Die, SIX};
use super::position::{Move, Moves, Position};
use crate::games::Rng;

/// The last guard against a game that never ends: after this many turns (rolls) it is a draw. Games
/// between ordinary dice take a few hundred; only dice built to stall come near it.
pub const TURN_CAP: u32 = 100_000;

/// Why a game ended without a winner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DrawReason {
    /// Neither player can move with any face of their die, so nothing can ever change.
    Deadlock,
    /// The player to move can move with no face and rolls only 6s, so they would roll forever.
    EndlessTurn,
    /// [`TURN_CAP`] turns passed.
    TurnCap,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum End {
    Won(Seat),
    Draw(DrawReason),
}

impl End {
    /// The end as replays and reports name it: `won`, or the draw's reason (`deadlock`,
    /// `endless_turn`, `turn_cap`).
    pub fn reason(&self) -> String {
        match self {
            End::Won(_) => "won".to_string(),
            End::Draw(why) => serde_json::to_value(why)
                .ok()
                .and_then(|v| v.as_str().map(String::from))
                .unwrap_or_default(),
        }
    }
}

/// A finished game: how it ended and after how many turns (one turn is one roll; a 6 gives its
/// player the next turn too).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Outcome {
    pub end: End,
    pub turns: u32,
}

impl Outcome {
    pub fn winner(&self) -> Option<Seat> {
        match self.end {
            End::Won(seat) => Some(seat),
            End::Draw(_) => None,
        }
    }
}

/// What follows a roll: another roll by someone, or the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Next {
    Roll(Seat),
    End(End),
}

/// The turn rules, applied after `seat` rolled `roll` and moved (or could not): a win ends the game,
/// a player who cannot move may have reached a draw ([`stalled`]), and otherwise a 6, used or not,
/// rolls again.
#[inline(always)]
pub(crate) fn after(
    position: &Position,
    dice: [&Die; 2],
    seat: Seat,
    roll: u8,
    moved: bool,
) -> Next {
    if moved {
        if position.has_won(seat) {
            return Next::End(End::Won(seat));
        }
    } else if let Some(reason) = stalled(position, dice, seat) {
        return Next::End(End::Draw(reason));
    }
    Next::Roll(if roll == SIX { seat } else { seat ^ 1 })
}

/// Whether the game is stuck for good now that `seat` could not move. If `seat` can move with no
/// face and neither can the other player, it is a deadlock; if `seat` can move with no face and
/// rolls only 6s, their turn never ends. Kept out of line: most turns move.
#[inline(never)]
fn stalled(position: &Position, dice: [&Die; 2], seat: Seat) -> Option<DrawReason> {
    if position.can_move(seat, dice[seat]) {
        None
    } else if !position.can_move(seat ^ 1, dice[seat ^ 1]) {
        Some(DrawReason::Deadlock)
    } else if dice[seat].only_sixes() {
        Some(DrawReason::EndlessTurn)
    } else {
        None
    }
}

/// Plays one game under the strict rule, die A in seat 0 and die B in seat 1, to its end.
pub fn play_strict(die_a: &Die, die_b: &Die, a_starts: bool, rng: &mut Rng) -> Outcome {
    let dice = [die_a, die_b];
    let mut position = Position::START;
    let mut seat = first(a_starts);
    for turn in 1..=TURN_CAP {
        let roll = dice[seat].roll(rng);
        let mv = position.moves(seat, roll).frontmost();
        if let Some(mv) = mv {
            position.apply(seat, mv);
        }
        match after(&position, dice, seat, roll, mv.is_some()) {
            Next::Roll(next) => seat = next,
            Next::End(end) => return Outcome { end, turns: turn },
        }
    }
    Outcome {
        end: End::Draw(DrawReason::TurnCap),
        turns: TURN_CAP,
    }
}

fn first(a_starts: bool) -> Seat {
    if a_starts { 0 } else { 1 }
}

/// One roll: the face as the die shows it and the steps it moves (faces above 43 move nothing).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Roll {
    pub face: u64,
    pub steps: u8,
}

/// One turn of a [`Game`]: who rolled what, the move it caused (if any), and the end it brought.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Turn {
    pub seat: Seat,
    pub roll: Roll,
    pub mv: Option<Move>,
    pub captured: bool,
    pub end: Option<End>,
}

/// A move the game refuses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    #[error("the game is over")]
    Over,
    #[error("no roll to move by: roll first")]
    NoRoll,
    #[error("{mv:?} is not a legal move for a roll of {steps}")]
    NotLegal { mv: Move, steps: u8 },
    #[error("a roll of {steps} leaves a legal move, so the player may not pass")]
    MustMove { steps: u8 },
}

/// A game played one roll at a time: roll, look at the legal moves, play one of them.
#[derive(Clone, Debug)]
pub struct Game {
    dice: [Die; 2],
    position: Position,
    to_move: Seat,
    turns: u32,
    roll: Option<Roll>,
    end: Option<End>,
    rng: Rng,
}

impl Game {
    /// A game at the setup, die A in seat 0 and die B in seat 1, rolling with `rng`.
    pub fn new(die_a: Die, die_b: Die, a_starts: bool, rng: Rng) -> Game {
        Game {
            dice: [die_a, die_b],
            position: Position::START,
            to_move: first(a_starts),
            turns: 0,
            roll: None,
            end: None,
            rng,
        }
    }

    pub fn die(&self, seat: Seat) -> &Die {
        &self.dice[seat]
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The seat that rolls next (or has rolled and must move).
    pub fn to_move(&self) -> Seat {
        self.to_move
    }

    /// Turns played so far.
    pub fn turns(&self) -> u32 {
        self.turns
    }

    /// The roll waiting for a move, if any.
    pub fn pending(&self) -> Option<Roll> {
        self.roll
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.end.map(|end| Outcome {
            end,
            turns: self.turns,
        })
    }

    /// Rolls the die of the player to move; a roll already waiting for its move is returned again.
    pub fn roll(&mut self) -> Result<Roll, IllegalMove> {
        if self.end.is_some() {
            return Err(IllegalMove::Over);
        }
        let die = &self.dice[self.to_move];
        let roll = *self.roll.get_or_insert_with(|| {
            let i = die.throw(&mut self.rng);
            Roll {
                face: die.faces()[i],
                steps: die.steps(i),
            }
        });
        Ok(roll)
    }

    /// The legal moves for the waiting roll, frontmost first (none before a roll).
    pub fn moves(&self) -> Moves {
        let steps = self.roll.map_or(0, |r| r.steps);
        self.position.moves(self.to_move, steps)
    }

    /// [`Game::moves`] as a vector: the choices of the free variant.
    pub fn legal_moves(&self) -> Vec<Move> {
        self.moves().iter().collect()
    }

    /// Plays `mv` for the waiting roll; `None` passes, which is legal only when no move is.
    pub fn play(&mut self, mv: Option<Move>) -> Result<Turn, IllegalMove> {
        let roll = self.roll.ok_or(if self.end.is_some() {
            IllegalMove::Over
        } else {
            IllegalMove::NoRoll
        })?;
        self.check(mv, roll.steps)?;
        let seat = self.to_move;
        let captured = mv.is_some_and(|mv| self.position.apply(seat, mv));
        self.roll = None;
        self.turns += 1;
        let dice = [&self.dice[0], &self.dice[1]];
        match after(&self.position, dice, seat, roll.steps, mv.is_some()) {
            Next::End(end) => self.end = Some(end),
            Next::Roll(_) if self.turns >= TURN_CAP => {
                self.end = Some(End::Draw(DrawReason::TurnCap));
            }
            Next::Roll(next) => self.to_move = next,
        }
        Ok(Turn {
            seat,
            roll,
            mv,
            captured,
            end: self.end,
        })
    }

    fn check(&self, mv: Option<Move>, steps: u8) -> Result<(), IllegalMove> {
        let moves = self.position.moves(self.to_move, steps);
        match mv {
            Some(mv) if !moves.contains(mv) => Err(IllegalMove::NotLegal { mv, steps }),
            None if !moves.is_empty() => Err(IllegalMove::MustMove { steps }),
            _ => Ok(()),
        }
    }

    /// One turn under the strict rule: roll, then move the frontmost piece that can move.
    pub fn step_strict(&mut self) -> Result<Turn, IllegalMove> {
        self.roll()?;
        let mv = self.moves().frontmost();
        self.play(mv)
    }

    /// Plays the strict rule to the end.
    pub fn finish_strict(&mut self) -> Outcome {
        while self.step_strict().is_ok() {}
        self.outcome().expect("a game ends")
    }
}
