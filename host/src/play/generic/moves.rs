//! [`Moves`]: how the driver counts, hashes and traces each move of a game.

use serde_json::Value;
use sha2::{Digest, Sha256};

use super::{Agent, Played, Step, new_lines};
use crate::games::contract::Turn;

/// Counts, hashes and traces the moves of a game: the one step its opening, its recorded moves and
/// its seats' decisions share.
pub(super) struct Moves<'t> {
    /// The moves' SHA-256 so far, for a game that repeats ([`Rules::repeats`]).
    pub(super) hash: Option<Sha256>,
    pub(super) trace: Option<&'t mut dyn FnMut(&Step)>,
    /// Whether a traced move carries the lines its seat logged meanwhile.
    pub(super) record: bool,
}

/// Which kind of move [`Moves::made`] counts.
#[derive(Clone, Copy)]
pub(super) enum Made {
    Opening,
    /// A recorded game's move played again (one of its opening's, or decided there).
    Recorded {
        opening: bool,
    },
    /// A seat's decision, or its fault taken as its move.
    Decided {
        fault: bool,
    },
}

impl Moves<'_> {
    /// Counts the move, hashes it, and traces it, in a recorded game with the lines the seat's
    /// `agent` logged since its last move (read only when traced).
    #[inline]
    pub(super) fn made(
        &mut self,
        played: &mut Played,
        turn: Turn,
        action: Value,
        event: Value,
        made: Made,
        agent: Option<&mut Agent>,
    ) {
        played.moves += 1;
        if let Some(hash) = &mut self.hash {
            hash.update(action.to_string().as_bytes());
        }
        let Some(trace) = self.trace.as_mut() else {
            return;
        };
        let (opening, fault, recorded) = match made {
            Made::Opening => (true, false, false),
            Made::Recorded { opening } => (opening, false, true),
            Made::Decided { fault } => (false, fault, false),
        };
        trace(&Step {
            n: played.moves,
            seat: turn.seat,
            function: turn.function,
            action,
            event,
            log: match agent {
                Some(agent) if self.record => new_lines(agent),
                _ => Vec::new(),
            },
            opening,
            fault,
            recorded,
        });
    }
}
