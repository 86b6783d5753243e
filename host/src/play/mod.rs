//! Playing one game between a rules engine and strategy instances. This is where the two meet: the
//! engine decides what is legal, the strategy only ever sees its observation, and every fault ends
//! the game with its reason recorded.

pub mod dice;
pub mod generic;
pub mod record;
pub mod whatif;

use serde::{Deserialize, Serialize};

use crate::runtime::Fault;

/// How one game ended, as the game reports it: what a replay's end line and a report's game record
/// are made from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ending {
    /// The winning seat, or `None` (a draw, no winner, a solo game).
    pub winner: Option<usize>,
    /// Why the game ended, e.g. `all worms home`, `turn limit`, `fault`.
    pub reason: String,
    pub turns: u32,
    /// The fault of each seat, if it faulted: it lost the game, and with more than two seats the
    /// game is void for the others.
    pub faults: Vec<Option<Fault>>,
    /// What else the game reports: the moves' hash, a solo score, its own figures.
    #[serde(flatten)]
    pub figures: Figures,
}

/// What a game reports of one game beyond who won and why, kept in its record as it is.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Figures {
    /// The SHA-256 of the game's moves, where the game keeps it: equal for two games that went
    /// the same way, so a report can say how many distinct games were played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves_sha256: Option<String>,
    /// A solo game's score (2048: the score), summarised as a mean with its interval.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    /// The game's own figures (2048: the largest tile).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub details: Option<serde_json::Value>,
}

impl Ending {
    /// An ending with no figures.
    pub fn new(
        winner: Option<usize>,
        reason: impl Into<String>,
        turns: u32,
        faults: Vec<Option<Fault>>,
    ) -> Ending {
        Ending {
            winner,
            reason: reason.into(),
            turns,
            faults,
            figures: Figures::default(),
        }
    }
}
