//! The game contract: what every game botbox hosts offers the rest of botbox, through one door.
//!
//! A game is registered as a [`Rules`] value (its name, seat count, variants and the functions a
//! strategy answers); [`Rules::start`] makes a seeded [`Match`], the state of one game, which says whose
//! decision it waits for, builds each seat's observation, decodes and checks an action, applies it, and
//! gives the outcome. Everything crosses as the game's JSON shape (the one strategies see, published in
//! `schemas/`), so a driver, a replay reader or the league needs no code of its own per game. Engines
//! keep their own fast paths (packed boards, bitboards) behind it; a game's hot loop may bypass the JSON
//! where a hosted fast path exists, but the JSON shape is the contract.
//!
//! Like the engines, a contract is pure: no I/O, deterministic from its seed. A variant that comes
//! from a file (a Wormworld map, a dice file) is read by the caller and handed over as text.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::Rng;

/// A seat at the table, counted from 0.
pub type SeatIndex = u32;

/// How many seats a game has: 2048 one, Wormworld, dice and Connect Four two, BS four.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seats {
    pub min: u32,
    pub max: u32,
}

impl Seats {
    pub const fn exactly(n: u32) -> Seats {
        Seats { min: n, max: n }
    }

    pub fn contains(self, n: u32) -> bool {
        (self.min..=self.max).contains(&n)
    }
}

impl std::fmt::Display for Seats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.min == self.max {
            write!(f, "{}", self.min)
        } else {
            write!(f, "{}-{}", self.min, self.max)
        }
    }
}

/// A named variant of a game: a board size, a map, a dice set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VariantInfo {
    pub name: String,
    /// One line for `botbox games`.
    pub description: String,
}

/// Which variant to start: a name the game knows, or a file's name and text (a map, a dice file) that
/// the caller read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    pub name: String,
    pub text: Option<String>,
}

impl Variant {
    /// A variant the game knows by name.
    pub fn named(name: &str) -> Variant {
        Variant {
            name: name.to_string(),
            text: None,
        }
    }
}

/// The decision a game waits for: which seat, and which of the strategy's functions answers it
/// (`choose_move` for most games; BS asks `play` and `call`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    pub seat: SeatIndex,
    pub function: &'static str,
}

/// How a game ended, per seat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// Each seat's points: 1, ½ and 0 for a two-player win, draw and loss; the score in 2048; 1 for
    /// the winner of a BS table.
    pub points: Vec<f64>,
    /// Each seat's place, 0 for the best; tied seats share a place.
    pub ranks: Vec<u32>,
    /// Why the game ended, in the game's words (`four-in-a-row`, `board-full`, `no moves left`).
    pub reason: String,
}

impl Outcome {
    /// A two-player result: `winner` gets 1 point and place 0, the other 0 and place 1; `None` is a
    /// draw (½ each, both place 0).
    pub fn two_player(winner: Option<SeatIndex>, reason: &str) -> Outcome {
        let (points, ranks) = match winner {
            Some(0) => (vec![1.0, 0.0], vec![0, 1]),
            Some(_) => (vec![0.0, 1.0], vec![1, 0]),
            None => (vec![0.5, 0.5], vec![0, 0]),
        };
        Outcome {
            points,
            ranks,
            reason: reason.to_string(),
        }
    }

    /// The winner: the one seat that placed first alone, in a game of more than one seat; `None`
    /// for a draw, a game void for the others, or a solo game.
    pub fn winner(&self) -> Option<usize> {
        let mut first = self.ranks.iter().enumerate().filter(|(_, r)| **r == 0);
        match (first.next(), first.next(), self.ranks.len()) {
            (Some((seat, _)), None, 2..) => Some(seat),
            _ => None,
        }
    }

    /// The places that follow from `points`, higher points ranking first, equal points sharing.
    pub fn ranks_from_points(points: &[f64]) -> Vec<u32> {
        points
            .iter()
            .map(|p| points.iter().filter(|q| *q > p).count() as u32)
            .collect()
    }
}

/// Why an action was refused. The message says what the strategy sent and what was expected, in the
/// game's words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Not the game's action shape (fault `bad-output`).
    Malformed(String),
    /// A well-formed action the rules forbid here (fault `illegal`).
    Illegal(String),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Malformed(m) | Refusal::Illegal(m) => f.write_str(m),
        }
    }
}

/// What the registry lists of a game, as data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameInfo {
    /// The name on the command line and in files: `2048`, `dice`, `bs`, `worms`, `connect4`.
    pub name: &'static str,
    /// One line for `botbox games`.
    pub title: &'static str,
    pub seats: Seats,
    /// The functions a strategy for this game answers; a notification (BS `observe`) is optional.
    pub functions: &'static [&'static str],
    /// The bundled bots, as paths from the repository's root, at least one per seat: the examples
    /// of `--help` and the tests that play every game by every command.
    pub bots: &'static [&'static str],
    /// The flags an example passes to set the game up (Wormworld: a map), or none.
    pub setup_example: &'static str,
    /// The starter bots `botbox new` writes, per language (`strategies/templates/`).
    pub templates: Templates,
    /// The bundled bot a new upload plays its smoke game against on the league (its name and
    /// source), for a game of more than one seat.
    pub sparring: Option<(&'static str, &'static str)>,
    /// The SDK's types of each function's observation and answer, where the game has them: its
    /// schemas in `schemas/` and the postcard form a WASM module may choose. A game without them
    /// crosses as free JSON.
    pub wire: &'static [WireDecision],
}

/// A game's starter bots, one per language it has one in: Lua source, a Rust crate's `src/lib.rs`
/// (over the guest SDK), WebAssembly text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Templates {
    pub lua: Option<&'static str>,
    pub rust: Option<&'static str>,
    pub wat: Option<&'static str>,
    /// The starters in the languages with an SDK folder of their own (`strategies/c`, `zig`,
    /// `assemblyscript`), whose game file (`<game>.h`, `.zig`, `.ts`) `botbox new` copies beside.
    pub c: Option<&'static str>,
    pub zig: Option<&'static str>,
    pub assemblyscript: Option<&'static str>,
}

/// One function's wire types, as the SDK defines them (`botbox_sdk`): the observation a strategy
/// receives and the answer it returns, with their JSON Schemas (published as
/// `schemas/<stem>.observation.json` and `.action.json`, a notification's as `<stem>.json`) and
/// their postcard form (`docs/wasm-abi.md`, "Encodings"), which the runtimes reach through these
/// function pointers without knowing the game.
#[derive(Clone, Copy)]
pub struct WireDecision {
    pub function: &'static str,
    /// The schema files' name without `.json`: `connect4`, `bs.play`, `bs.event`.
    pub stem: &'static str,
    pub observation: fn() -> schemars::Schema,
    /// The answer's schema; `None` for a notification, whose answer is ignored.
    pub action: Option<fn() -> schemars::Schema>,
    /// Whether the observation has a postcard form (`botbox_sdk::Wire::BINARY`): only then does a
    /// module that chose postcard get it (every game's types have one today).
    pub binary: bool,
    /// Appends the postcard form of the observation, given as its JSON.
    pub encode: fn(&Value, &mut Vec<u8>) -> Result<(), String>,
    /// Decodes a postcard answer into its JSON.
    pub decode: fn(&[u8]) -> Result<Value, String>,
}

impl std::fmt::Debug for WireDecision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WireDecision")
            .field("function", &self.function)
            .field("stem", &self.stem)
            .finish_non_exhaustive()
    }
}

impl PartialEq for WireDecision {
    fn eq(&self, other: &Self) -> bool {
        (self.function, self.stem) == (other.function, other.stem)
    }
}

impl Eq for WireDecision {}

impl WireDecision {
    /// A decision: observation `O`, answer `A`.
    pub const fn of<O, A>(function: &'static str, stem: &'static str) -> WireDecision
    where
        O: botbox_sdk::Wire + schemars::JsonSchema,
        A: botbox_sdk::Wire + schemars::JsonSchema,
    {
        WireDecision {
            function,
            stem,
            observation: schema::<O>,
            action: Some(schema::<A>),
            binary: O::BINARY,
            encode: encode::<O>,
            decode: decode::<A>,
        }
    }

    /// A notification: payload `O`, its answer ignored.
    pub const fn notice<O>(function: &'static str, stem: &'static str) -> WireDecision
    where
        O: botbox_sdk::Wire + schemars::JsonSchema,
    {
        WireDecision {
            function,
            stem,
            observation: schema::<O>,
            action: None,
            binary: O::BINARY,
            encode: encode::<O>,
            decode: decode::<()>,
        }
    }
}

fn schema<T: schemars::JsonSchema>() -> schemars::Schema {
    schemars::schema_for!(T)
}

fn encode<T: botbox_sdk::Wire>(json: &Value, out: &mut Vec<u8>) -> Result<(), String> {
    let typed = T::deserialize(json).map_err(|e| e.to_string())?;
    typed.to_binary(out)
}

fn decode<T: botbox_sdk::Wire>(bytes: &[u8]) -> Result<Value, String> {
    let typed = T::from_binary(bytes)?;
    serde_json::to_value(typed).map_err(|e| e.to_string())
}

/// `value` as JSON for a refusal's message, cut to a readable length (200 characters).
pub fn shown(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(200) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text,
    }
}

/// A game as the registry lists it.
pub trait Rules: Send + Sync {
    /// The game's name, title, seats and functions.
    fn info(&self) -> &'static GameInfo;
    /// The name on the command line and in files: `2048`, `dice`, `bs`, `worms`, `connect4`.
    fn name(&self) -> &'static str {
        self.info().name
    }
    /// One line for `botbox games`.
    fn title(&self) -> &'static str {
        self.info().title
    }
    fn seats(&self) -> Seats {
        self.info().seats
    }
    /// The functions a strategy for this game answers, the first being the one every strategy must
    /// have; further ones are optional notifications (BS `observe`).
    fn functions(&self) -> &'static [&'static str] {
        self.info().functions
    }
    /// The variants the game knows by name; the first is the default.
    fn variants(&self) -> Vec<VariantInfo>;
    /// A new game of `variant` for `seats` players, seeded with `seed`. The error says what was wrong
    /// with the variant (an unknown name, a bad file with its line).
    fn start(&self, variant: &Variant, seats: u32, seed: u64) -> Result<Box<dyn Match>, String>;
    /// Whether two games can go the same way move for move (no chance but the openings, as in
    /// Connect Four), so that a report counts the distinct games by the hash of their moves. A game
    /// dealt or rolled from its seed (BS) says no, and its moves are not hashed.
    fn repeats(&self) -> bool {
        true
    }
    /// A variant's set-up as text, for the hash a report keeps of what its games were played on
    /// (two shards of one run must agree on it): by default the variant's name and its file's text.
    fn setup_text(&self, variant: &Variant) -> String {
        format!(
            "variant {}\n{}\n",
            variant.name,
            variant.text.as_deref().unwrap_or("")
        )
    }
}

/// One game in progress, seen through the contract. Not `Send` on purpose: a game runs on one thread.
pub trait Match {
    /// The decision the game waits for, or `None` once it is over. Chance events (a spawn, a roll)
    /// happen inside [`Match::apply`] or before the first turn, drawn from the game's seed.
    fn turn(&self) -> Option<Turn>;
    /// What `seat` may see now, as the JSON the strategy receives.
    fn observation(&self, seat: SeatIndex) -> Value;
    /// Decodes, checks and applies the action of the seat whose turn it is. Returns the replay event
    /// of the move (the action and what chance did after it); an action that is refused changes
    /// nothing.
    fn apply(&mut self, action: &Value) -> Result<Value, Refusal>;
    /// Notifications the last [`Match::apply`] produced for seats to hear: `(seat, function, payload)`,
    /// e.g. BS's `observe` of a play or a resolution, each seat's own view. A driver calls them only
    /// on strategies that have the function; their answers are ignored. Taking them empties the list.
    fn take_notices(&mut self) -> Vec<(SeatIndex, &'static str, Value)> {
        Vec::new()
    }
    /// A legal action for the seat whose turn it is, drawn with `rng`: the random bot of the
    /// conformance suite and the bundled opponent of last resort. `None` when the game is over.
    fn random_action(&self, rng: &mut Rng) -> Option<Value>;
    /// The outcome once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// The outcome when `seat` is at fault, one rule for every game unless its rules say otherwise
    /// (a 2048 game keeps its score): the faulting seat loses and places last. With two seats the
    /// other wins; with more, the game is **void for the others**: it counts for none of them, so
    /// no seat gets a point and they share the first place (BS, `docs/bs.md`; the runner's
    /// `GameRecord::is_void` and the league's ratings leave such a game out for them).
    fn forfeit_outcome(&self, seat: SeatIndex, reason: &str) -> Outcome {
        let n = self.seat_count();
        let points: Vec<f64> = (0..n)
            .map(|s| if s != seat && n == 2 { 1.0 } else { 0.0 })
            .collect();
        let last = n.saturating_sub(1);
        let ranks = (0..n).map(|s| if s == seat { last } else { 0 }).collect();
        Outcome {
            points,
            ranks,
            reason: reason.to_string(),
        }
    }
    /// A seat's fault as its move, in a game of simultaneous moves; `None` (the default) for the
    /// game to end at once by [`Match::forfeit`].
    ///
    /// A game of simultaneous moves (every seat decides on the same position, as in Tron) asks the
    /// seats of a round one after another through [`Match::turn`] and holds their answers until
    /// the round is complete: [`Match::apply`] of a held answer returns its event and changes
    /// nothing any seat observes, and the last answer of the round resolves it. Its rules may say
    /// what a fault does to the round (Tron: the seat crashes that turn, and if the other crashes
    /// too the game is a draw); such a game takes the fault here as the seat's move, returns its
    /// event, and never asks that seat again. The driver records the fault either way.
    fn fault_move(&mut self, seat: SeatIndex) -> Option<Value> {
        let _ = seat;
        None
    }
    /// Ends the game with [`Match::forfeit_outcome`]: `turn` is `None` from then on, and `outcome`
    /// gives that outcome. Every game gets this from [`with_forfeits`], the one place it is kept.
    fn forfeit(&mut self, seat: SeatIndex, reason: &str) -> Outcome {
        self.forfeit_outcome(seat, reason)
    }
    fn seat_count(&self) -> u32;
    /// Actions applied so far through [`Match::apply`] (the decisions of seats, not the passes or
    /// forced moves a game makes by itself).
    fn moves(&self) -> u32;
    /// The game's length in its own words, for reports: its turns (BS: one turn is a play and its
    /// three calls), by default its [`Match::moves`].
    fn turns(&self) -> u32 {
        self.moves()
    }
    /// What a report keeps of a finished game beyond its points (2048: the largest tile); `None`
    /// (the default) for nothing.
    fn details(&self) -> Option<Value> {
        None
    }
    /// Names the seats by their entries' names, for a game whose observations show them (BS's
    /// `players`); before the first turn. By default the names are not shown and this does nothing.
    fn name_seats(&mut self, names: &[String]) {
        let _ = names;
    }
    /// The SHA-256 of the game's moves as the game itself hashes them (Wormworld: five bytes a turn,
    /// passes included), for a game that keeps its own; `None` (the default) lets the driver hash
    /// the actions' JSON. Asked only of a game that repeats ([`Rules::repeats`]).
    fn moves_sha256(&self) -> Option<String> {
        None
    }
    /// The game itself, for its typed encoding: the game's glue (`crate::hosted`) may ask a seat
    /// and apply its answer with the game's own types instead of their JSON, which is faster and
    /// must be the same game (same observations, same refusals, same events). `None` (the default)
    /// for a game that crosses as JSON only.
    fn typed(&mut self) -> Option<&mut dyn std::any::Any> {
        None
    }
    /// The full state as JSON, hidden information included, for replays' omniscient view and for the
    /// conformance suite's "same seed, same game". Never shown to a strategy.
    fn state(&self) -> Value;
}

/// A game inside the one rule every game shares: once a seat forfeits, the game is over with the
/// game's [`Match::forfeit_outcome`], refuses further actions and has nothing more to tell.
/// Every game's [`Rules::start`] returns its match wrapped in it.
pub fn with_forfeits<M: Match + 'static>(game: M) -> Box<dyn Match> {
    Box::new(Forfeits {
        game,
        forfeited: None,
    })
}

struct Forfeits<M> {
    game: M,
    forfeited: Option<Outcome>,
}

impl<M: Match> Match for Forfeits<M> {
    fn turn(&self) -> Option<Turn> {
        self.forfeited.is_none().then(|| self.game.turn()).flatten()
    }

    fn observation(&self, seat: SeatIndex) -> Value {
        self.game.observation(seat)
    }

    fn apply(&mut self, action: &Value) -> Result<Value, Refusal> {
        match &self.forfeited {
            Some(o) => Err(Refusal::Illegal(format!("the game is over ({})", o.reason))),
            None => self.game.apply(action),
        }
    }

    fn take_notices(&mut self) -> Vec<(SeatIndex, &'static str, Value)> {
        let notices = self.game.take_notices();
        if self.forfeited.is_some() {
            return Vec::new();
        }
        notices
    }

    fn random_action(&self, rng: &mut Rng) -> Option<Value> {
        self.forfeited
            .is_none()
            .then(|| self.game.random_action(rng))
            .flatten()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.forfeited.clone().or_else(|| self.game.outcome())
    }

    fn forfeit_outcome(&self, seat: SeatIndex, reason: &str) -> Outcome {
        self.game.forfeit_outcome(seat, reason)
    }

    fn fault_move(&mut self, seat: SeatIndex) -> Option<Value> {
        if self.forfeited.is_some() {
            return None;
        }
        self.game.fault_move(seat)
    }

    fn forfeit(&mut self, seat: SeatIndex, reason: &str) -> Outcome {
        let outcome = self.game.forfeit_outcome(seat, reason);
        self.forfeited = Some(outcome.clone());
        outcome
    }

    fn seat_count(&self) -> u32 {
        self.game.seat_count()
    }

    fn moves(&self) -> u32 {
        self.game.moves()
    }

    fn turns(&self) -> u32 {
        self.game.turns()
    }

    fn details(&self) -> Option<Value> {
        self.game.details()
    }

    fn moves_sha256(&self) -> Option<String> {
        self.game.moves_sha256()
    }

    fn name_seats(&mut self, names: &[String]) {
        self.game.name_seats(names);
    }

    fn typed(&mut self) -> Option<&mut dyn std::any::Any> {
        if self.forfeited.is_some() {
            return None;
        }
        self.game.typed()
    }

    fn state(&self) -> Value {
        let mut state = self.game.state();
        if let Value::Object(fields) = &mut state {
            let reason = self.forfeited.as_ref().map(|o| o.reason.clone());
            fields.insert("forfeited".into(), Value::from(reason));
        }
        state
    }
}
