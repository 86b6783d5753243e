//! Mensch ärgere Dich nicht, free variant: what a strategy sees after its roll and what it answers.
//!
//! The rules are in `docs/dice.md`. Under the free variant (the manufacturer's
//! original rule) the player chooses which piece to move; captures are not compulsory, but the
//! obligations stay: a 6 brings a piece in while pieces wait, a piece on A leaves it while pieces
//! wait, and a player who can move must. The host asks only when there is a choice: with no legal
//! move the roll is lost, and a single legal move is played for the player.
//!
//! Places are counted in the player's own **steps**: `-1` is waiting off the board (B), `0` is the
//! start field A, `1..=39` the track, `40..=43` the goal fields a..d. The opponent's pieces are given
//! in *their* steps; a track step `s` of the opponent (`0..=39`) is the asker's step `(s + 20) % 40`.
//!
//! An observation for seat 0 after rolling a 6:
//! ```json
//! {"you":0,"turn":7,"face":6,"steps":6,
//!  "die":[1,2,3,4,5,6],"opponent_die":[1,1,1,6,6,6],
//!  "mine":[12,0,-1,-1],"theirs":[3,-1,-1,-1],"theirs_on_my_track":[23],
//!  "legal":[{"from":12,"to":18,"captures":false},{"from":0,"to":6,"captures":false}]}
//! ```
//! The answer names one of the legal moves (extra fields are ignored):
//! ```json
//! {"from":12,"to":18}
//! ```

use serde::{Deserialize, Serialize};

/// The step of a piece waiting off the board (on B).
pub const WAITING: i32 = -1;
/// The start field A.
pub const START: i32 = 0;
/// The first goal field (a); the track is `1..GOAL`.
pub const GOAL: i32 = 40;
/// The last goal field (d).
pub const LAST: i32 = 43;

/// A move: the piece on step `from` (`-1` for a piece brought in from B) to step `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Move {
    /// Where the piece stands, in the mover's steps: `-1` (B), `0` (A), `1..=43`.
    pub from: i32,
    /// Where it lands: `0..=43`.
    pub to: i32,
}

/// A legal move as the observation lists it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct LegalMove {
    pub from: i32,
    pub to: i32,
    /// Whether the move lands on an opponent's piece on the track, sending it back to B.
    pub captures: bool,
}

impl LegalMove {
    pub fn to_move(self) -> Move {
        Move {
            from: self.from,
            to: self.to,
        }
    }
}

/// What a dice strategy answers.
pub type Action = Move;

/// The answer's shape in words, for messages to a bot author.
pub const EXPECTED: &str = "a move {\"from\": STEP, \"to\": STEP} from the observation's legal list, from -1 for a piece waiting on B";

/// What a strategy sees after its roll, when it has a choice between two or more moves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Observation {
    /// The seat asked: 0 plays die A, 1 die B. Seat 1's A is 20 track fields after seat 0's.
    pub you: u32,
    /// Rolls so far in the game, both players', this one not counted.
    pub turn: u32,
    /// The face rolled.
    pub face: u64,
    /// The steps it moves (the face, or 44 for a face too large to move anything).
    pub steps: u32,
    /// The faces of the asker's die; each comes up with equal chance.
    pub die: Vec<u64>,
    /// The faces of the opponent's die.
    pub opponent_die: Vec<u64>,
    /// The asker's four pieces in their steps, frontmost first (`-1` waiting on B).
    pub mine: Vec<i32>,
    /// The opponent's four pieces in the opponent's steps, frontmost first.
    pub theirs: Vec<i32>,
    /// The opponent's pieces on the shared track (their steps `0..=39`) as the asker's steps, so a
    /// move to one of these captures it.
    pub theirs_on_my_track: Vec<i32>,
    /// The legal moves, frontmost piece first. The strict rule always takes the first.
    pub legal: Vec<LegalMove>,
}

impl Observation {
    /// The opponent's track step `step` (`0..=39`) as the asker's step.
    pub fn to_my_steps(step: i32) -> i32 {
        (step + 20) % GOAL
    }
}
