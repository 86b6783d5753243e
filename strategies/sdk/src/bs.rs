//! BS (Cheat, "I Doubt It"): what a strategy sees and answers at a four-player table.
//!
//! The rules are in `docs/bs.md`. Every physical card has an **id** from 0 to 51 and its rank is
//! `id / 4` (integer division): ids 0-3 are the four cards of rank 0, ids 48-51 those of rank 12.
//! Hands are lists of ids **in hand order**: the dealt order, removals keeping the order of the rest,
//! picked-up cards appended at the end in pile order. Seats are counted from 0; turns go round
//! 0, 1, 2, 3, 0, ...; the required rank starts at 0 each game and goes up by one every turn,
//! wrapping from 12 to 0.
//!
//! A strategy has up to three functions:
//! - `play(obs: PlayObservation) -> [card ids]`: the cards to put on the pile, claimed to be of the
//!   required rank. One or more distinct cards from the hand; anything else is an illegal play.
//! - `call(obs: CallObservation) -> bool`: whether to call "BS" on the play just made.
//! - `observe(event: Event)` (optional): the public events, in order, as everyone at the table sees
//!   them, up to the turn that decides the game. Its answer is ignored (WASM and programs answer
//!   any JSON value, such as `null`).
//!
//! A play observation, for seat 2 on turn 3 (rank 2):
//! ```json
//! {"you":2,"players":["player1","hoarder","my_bot","player4"],"round":0,"turn":2,"rank":2,
//!  "hand":[8,9,40,13,51,0,22,30,31,17,44,6,27],"hand_sizes":[12,11,13,13],"pile":2}
//! ```
//! The answer, the card ids to play: `[8, 9]`.

use serde::{Deserialize, Serialize};

/// The number of cards, ranks and players.
pub const CARDS: u32 = 52;
pub const RANKS: u32 = 13;
pub const PLAYERS: usize = 4;

/// The rank of card `id`.
pub fn rank(id: u32) -> u32 {
    id / 4
}

/// What a strategy sees when it must play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PlayObservation {
    /// The asker's seat, 0 to 3.
    pub you: u32,
    /// The strategies' names by seat.
    pub players: Vec<String>,
    /// Rounds completed so far (a round is one turn of each seat); the game ends without a winner
    /// after 1000.
    pub round: u32,
    /// Turns played so far in the game, all seats', this one not counted: the turn's number from 0.
    pub turn: u32,
    /// The required rank: the played cards are claimed to be of this rank.
    pub rank: u32,
    /// The asker's hand: card ids in hand order.
    pub hand: Vec<u32>,
    /// Every seat's hand size, by seat.
    pub hand_sizes: Vec<u32>,
    /// Cards on the discard pile.
    pub pile: u32,
}

/// The cards to play: one or more distinct ids from the hand.
pub type PlayAction = Vec<u32>;

/// What a strategy sees when asked whether to call "BS" on another player's play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CallObservation {
    /// The asker's seat, 0 to 3.
    pub you: u32,
    /// The strategies' names by seat.
    pub players: Vec<String>,
    /// Rounds completed so far.
    pub round: u32,
    /// The turn's number, from 0.
    pub turn: u32,
    /// The seat that played.
    pub player: u32,
    /// The claimed rank (the required rank of the turn).
    pub rank: u32,
    /// How many cards were played (always true).
    pub count: u32,
    /// The player's hand size after the play.
    pub player_hand: u32,
    /// Cards on the pile, the played ones included.
    pub pile: u32,
    /// The asker's hand: card ids in hand order.
    pub hand: Vec<u32>,
    /// Every seat's hand size after the play, by seat.
    pub hand_sizes: Vec<u32>,
}

/// Whether to call "BS".
pub type CallAction = bool;

/// A public event, as every player sees it. JSON: an object with a `"type"`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// `player` put `count` cards on the pile, claiming rank `rank`.
    Play {
        turn: u32,
        player: u32,
        rank: u32,
        count: u32,
        /// The player's hand size after the play.
        hand_size: u32,
        /// The pile's size after the play.
        pile: u32,
    },
    /// Nobody called on the last play.
    NoCall { turn: u32, player: u32 },
    /// `caller` was chosen among those who called. The played cards were turned face up.
    Call {
        turn: u32,
        player: u32,
        caller: u32,
        /// Whether the play was a lie (some card not of the claimed rank).
        lie: bool,
        /// The played cards, revealed.
        cards: Vec<u32>,
        /// Who took the whole pile: the liar, or the caller of a true play.
        taker: u32,
        /// How many cards the taker picked up.
        taken: u32,
        /// After a lie, the caller put one random card of their own face down as the new pile.
        reward: bool,
    },
    /// A round (one turn of each seat) ended; `round` rounds are complete.
    RoundEnd { round: u32 },
}
