//! BS (Cheat, "I Doubt It"), as specified in `docs/bs.md`: four players bluff about the rank of the
//! cards they put on a pile, and whoever empties their hand first wins.
//!
//! The rules, each with the place the engine implements it:
//! - 52 cards, ids 0..51, the rank of card `id` is `id / 4` ([`rank`]); shuffled with the game's own
//!   [`Rng`](crate::games::Rng) (a Fisher-Yates shuffle) and dealt one at a time round the table,
//!   seat 0 first, 13 to each seat ([`Game::new`]).
//! - A hand is ordered: the dealt order; playing cards removes them and keeps the order of the rest;
//!   picked-up cards are appended at the end in pile order, the bottom card first ([`Cards`]).
//! - Turns go round the seats 0, 1, 2, 3, 0, ...; the required rank is 0 on the first turn of every
//!   game and goes up by one each turn, wrapping from 12 to 0 ([`Game::required_rank`]).
//! - The player to move plays one or more distinct cards of their own hand; **(decided)** an empty
//!   play, an unknown id, a card not in the hand or the same card twice is refused with an
//!   [`Illegal`] error and changes nothing ([`Game::play`]). The cards go on top of the pile in the
//!   order the play lists them. The play is a lie if any card is not of the required rank.
//! - Every other player is asked independently whether to call; the mover's own answer does not
//!   count ([`Game::resolve`]). With one caller or more, one is chosen uniformly at random with the
//!   game's generator. After a lie, the liar takes the whole pile, then a card chosen uniformly at
//!   random from the caller's hand (again the game's generator) becomes the new pile, face down;
//!   after a true play the caller takes the whole pile. **(decided)** After a call the played cards
//!   are revealed to everyone ([`Event::Call`]); the reward card never is.
//! - After the turn, call included, a player with no cards wins at once; at most one player can
//!   ([`End::Won`]). After 1000 rounds (4000 turns) without a winner the game ends with none
//!   ([`End::RoundLimit`]).
//!
//! The order of the random draws, which replays depend on: the shuffle (51 draws) when the game is
//! made; then on each turn with a call, one draw among the callers (also when there is only one),
//! and after a lie one draw among the caller's cards. Nothing else draws.
//!
//! What each player may see is built here too ([`Game::play_observation`],
//! [`Game::call_observation`], and the public [`Event`]s of [`PlayInfo::event`] and
//! [`Resolution::event`]): a player's own hand, everyone's hand sizes, the pile's size, and the
//! cards of a called play. Each rule has a named test in `tests.rs`; `conformance.rs` plays seeded
//! random games checking the invariants (every card in exactly one place, at most one winner, every
//! game ends) and pins a golden game.
//!
//! | parameter | value |
//! | --- | --- |
//! | players | 4, seat 0 moves first |
//! | cards | 52: ranks 0..12, four of each; 13 dealt to each seat |
//! | round limit | 1000 rounds of four turns ([`ROUND_LIMIT`]) |

mod cards;
mod contract;
pub mod encoding;
mod game;
pub mod policy;
pub mod view;

#[cfg(test)]
mod conformance;
#[cfg(test)]
mod tests;

pub use botbox_sdk::bs::{CallObservation, Event, PlayObservation};
pub use cards::Cards;
pub use contract::{BsMatch, BsRules, RULES};
pub use game::{Game, PlayInfo, Resolution};

use serde::{Deserialize, Serialize};

/// A card's id, 0 to 51.
pub type Card = u8;
/// A seat, 0 to 3; seat 0 moves first.
pub type Seat = usize;

/// Players at a table.
pub const PLAYERS: usize = 4;
/// Cards in the deck.
pub const CARDS: usize = 52;
/// Distinct ranks.
pub const RANKS: u32 = 13;
/// Cards dealt to each seat.
pub const HAND: usize = CARDS / PLAYERS;
/// Rounds (one turn of each seat) after which a game ends without a winner.
pub const ROUND_LIMIT: u32 = 1000;
/// The same limit in turns.
pub const TURN_LIMIT: u32 = ROUND_LIMIT * PLAYERS as u32;

/// The rank of a card: `id / 4`.
pub fn rank(card: Card) -> u32 {
    u32::from(card) / 4
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum End {
    /// The seat emptied its hand.
    Won(Seat),
    /// 1000 rounds passed without a winner.
    RoundLimit,
}

impl End {
    pub fn winner(self) -> Option<Seat> {
        match self {
            End::Won(seat) => Some(seat),
            End::RoundLimit => None,
        }
    }

    /// The reason as tables and replays name it: `won` or `round limit`.
    pub fn reason(self) -> &'static str {
        match self {
            End::Won(_) => "won",
            End::RoundLimit => "round limit",
        }
    }
}

/// An action the rules refuse; the game is left as it was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    #[error("the game is over")]
    GameOver,
    #[error("the last play waits for the calls")]
    AwaitingCalls,
    #[error("no play waits for calls")]
    NoPlay,
    #[error("an empty play: a play puts at least one card on the pile")]
    Empty,
    #[error("card {card} does not exist (card ids are 0 to 51)")]
    NoSuchCard { card: u32 },
    #[error("card {card} is not in the player's hand")]
    NotHeld { card: u32 },
    #[error("card {card} is played twice")]
    Repeated { card: u32 },
}
