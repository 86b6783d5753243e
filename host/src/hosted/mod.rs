//! What the games' glue to the runtimes shares, outside `runtime/`, which knows no game. A game's own
//! glue lives in its folder (`games/<game>/encoding.rs`, named by its registry entry): how its
//! observations and answers cross ([`crate::runtime::Payload`], [`Answer`]: the JSON shape, or a
//! faster path that builds the same Lua table), what it adds to every strategy's environment
//! ([`Extension`]: 2048's Lua module and WASM imports), and its typed encoding ([`Encoding`]: its
//! seats asked and answered with the game's own types through the contract, rather than its JSON).
//! Here: the [`Encoding`] trait, the list of extensions handed to the runtimes ([`extensions`],
//! with [`load`]), and the wire types that cross as the SDK says.

use std::any::Any;
use std::path::Path;
use std::sync::LazyLock;

use serde_json::Value;

use crate::games::contract::{Refusal, SeatIndex, Turn};
use crate::runtime::{
    Answer, Extension, Fault, Instance, Limits, LoadError, Payload, Strategy, Transcoder, payload,
};

/// The typed encoding of the game named `game`, if it has one (its registry entry says).
pub fn encoding(game: &str) -> Option<&'static dyn Encoding> {
    crate::games::registry::game(game).and_then(|g| g.encoding)
}

/// A game's typed path through the contract, for speed: the one driver (`play::generic`) asks a
/// strategy's seat and applies its answer through it when the game's match shows its typed face
/// ([`crate::games::contract::Match::typed`]), and goes by JSON otherwise (the random player, a
/// game without one). It must play the same game as the JSON: the same observations (the payloads'
/// tables and bytes are the JSON shape, as tests in each game's module check), the same refusals and
/// the same events.
pub trait Encoding: Sync {
    /// Asks `instance` for the decision `turn` of the match `game` (its typed face) and applies the
    /// answer. The action and the replay event come back as JSON only when `record` (else `null`).
    fn decide(
        &self,
        game: &mut dyn Any,
        turn: Turn,
        instance: &mut Instance,
        record: bool,
    ) -> Result<Decided, Failed>;

    /// Sets the seats up before the first move (Wormworld sends programs their start position) and
    /// returns the faults of those that could not be; nothing by default.
    fn begin(&self, game: &mut dyn Any, seats: &mut dyn Listeners) -> Vec<(SeatIndex, Fault)> {
        let _ = (game, seats);
        Vec::new()
    }

    /// Whether the strategy `instance` learns the moves made while it was not asked by itself, when
    /// it is next asked (Wormworld's programs are told every move since their last), so that a game
    /// played on from a recorded one ([`crate::play::generic::play_on`]) need not show it each
    /// observation it missed; no by default.
    fn tells_missed_moves(&self, instance: &mut Instance) -> bool {
        let _ = instance;
        false
    }

    /// Asks `instance` (one that [`Encoding::tells_missed_moves`]) for the decision `turn` of
    /// `game` without making it, as the action's JSON: how a recorded game's turn is decided again
    /// (`crate::play::whatif`). Only a game whose encoding tells missed moves has it.
    fn ask_aside(
        &self,
        game: &mut dyn Any,
        turn: Turn,
        instance: &mut Instance,
    ) -> Result<Value, Fault> {
        let _ = (game, turn, instance);
        Err(Fault::new(
            crate::runtime::FaultKind::Error,
            "this game asks its strategies through their observations",
        ))
    }

    /// Whether the game tells seats anything between their decisions (BS's events); the driver
    /// asks [`Encoding::notify`] after every move only if so. Most games tell nothing (the default).
    fn notifies(&self) -> bool {
        false
    }

    /// Tells the seats that listen the notices the last move made, and clears them; nothing by
    /// default, for a game that does not notify.
    fn notify(
        &self,
        game: &mut dyn Any,
        seats: &mut dyn Listeners,
    ) -> Result<(), (SeatIndex, Fault)> {
        let _ = (game, seats);
        Ok(())
    }
}

/// The seats' strategies as a notice reaches them.
pub trait Listeners {
    /// The strategy in `seat` if it has the function `function` (a notice is passed only to those
    /// that do; the random player has none).
    fn listener(&mut self, seat: SeatIndex, function: &'static str) -> Option<&mut Instance>;
    /// The strategy in `seat`, whatever functions it has (`None` for the random player).
    fn instance(&mut self, seat: SeatIndex) -> Option<&mut Instance>;
}

/// A decision made and applied through an [`Encoding`].
#[derive(Debug)]
pub struct Decided {
    /// The answer and the move's replay event, as JSON when recorded (else `null`).
    pub action: Value,
    pub event: Value,
}

/// Why a decision through an [`Encoding`] did not apply.
#[derive(Debug)]
pub enum Failed {
    /// The strategy faulted (its limits, an error, an answer of the wrong shape).
    Fault(Fault),
    /// The game refused the answer, as [`crate::games::contract::Match::apply`] would have.
    Refused(Refusal),
}

/// Every game's additions to the runtimes (each registered game's [`Extension`], and [`Wires`]),
/// handed to them with each strategy loaded ([`crate::runtime::Extensions`]).
pub fn extensions() -> crate::runtime::Extensions {
    static EXTENSIONS: LazyLock<Vec<&'static dyn Extension>> = LazyLock::new(|| {
        let games = crate::games::registry::games().iter();
        games
            .filter_map(|g| g.extension)
            .chain([&Wires as &dyn Extension])
            .collect()
    });
    &EXTENSIONS
}

/// Loads a strategy with every game's extensions ([`Strategy::load`]): how botbox loads one.
pub fn load(path: &Path, limits: &Limits) -> Result<Strategy, LoadError> {
    Strategy::load(path, limits, extensions())
}

/// [`load`], naming the file `display` in its messages ([`Strategy::load_as`]).
pub fn load_as(path: &Path, display: &str, limits: &Limits) -> Result<Strategy, LoadError> {
    Strategy::load_as(path, display, limits, extensions())
}

/// The typed wire pair of each decision of the games that have one, for modules that chose postcard
/// ([`Transcoder`]): each game declares them with its rules (`GameInfo::wire`). Games without them,
/// and types without a postcard form, cross as JSON.
#[derive(Debug)]
struct Wires;

impl Extension for Wires {
    fn transcoder(&self, game: &str, function: &str) -> Option<Transcoder> {
        let rules = crate::games::registry::find(game).ok()?;
        let decision = rules
            .info()
            .wire
            .iter()
            .find(|d| d.function == function && d.binary)?;
        Some(Transcoder {
            encode: decision.encode,
            decode: decision.decode,
        })
    }
}

/// A wire type that crosses as the SDK says: its JSON shape for Lua, postcard or JSON for WASM.
macro_rules! wire_payload {
    ($($ty:ty),* $(,)?) => {$(
        impl Payload for $ty {
            fn to_binary(&self, out: &mut Vec<u8>) -> Option<Result<(), String>> {
                payload::binary(self, out)
            }
        }
    )*};
}

/// An answer that decodes as the SDK says, named in the game's words when it is wrong.
macro_rules! wire_answer {
    ($($ty:ty => $expected:expr),* $(,)?) => {$(
        impl Answer for $ty {
            const EXPECTED: &'static str = $expected;

            fn from_binary(bytes: &[u8]) -> Option<Result<Self, String>> {
                payload::from_binary(bytes)
            }
        }
    )*};
}

wire_payload!(
    botbox_sdk::worms::Observation,
    botbox_sdk::connect4::Observation,
    botbox_sdk::dice::Observation,
);

wire_answer!(
    botbox_sdk::worms::Move => botbox_sdk::worms::EXPECTED,
    botbox_sdk::connect4::Move => botbox_sdk::connect4::EXPECTED,
    botbox_sdk::dice::Move => botbox_sdk::dice::EXPECTED,
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::contract::Variant;
    use crate::games::{registry, rng};

    /// Every observation, notification and random answer of seeded games of every variant crosses
    /// to postcard and back to the very same JSON: the typed wire pairs hold all the contract sends.
    #[test]
    fn the_contract_json_survives_postcard_in_every_game_with_a_wire_pair() {
        let mut crossed = std::collections::BTreeMap::<&str, usize>::new();
        for rules in registry::all() {
            for variant in rules.variants() {
                let seats = rules.seats().min;
                let Ok(mut game) = rules.start(&Variant::named(&variant.name), seats, 7) else {
                    continue;
                };
                let mut rng = rng(11);
                let mut calls = Vec::new();
                while let Some(turn) = game.turn() {
                    calls.push((turn.function, game.observation(turn.seat)));
                    let action = game.random_action(&mut rng).expect("a legal action");
                    if let Some(t) = Wires.transcoder(rules.name(), turn.function) {
                        let bytes = typed_bytes(&action, rules.name(), turn.function);
                        assert_eq!((t.decode)(&bytes).unwrap(), action);
                        *crossed.entry(rules.name()).or_default() += 1;
                    }
                    game.apply(&action).unwrap();
                    calls.extend(game.take_notices().into_iter().map(|(_, f, v)| (f, v)));
                    if game.moves() > 400 {
                        break;
                    }
                }
                for (function, json) in calls {
                    let Some(t) = Wires.transcoder(rules.name(), function) else {
                        continue;
                    };
                    let mut bytes = Vec::new();
                    (t.encode)(&json, &mut bytes).unwrap();
                    assert_eq!(back_to_json(&bytes, rules.name(), function), json);
                    *crossed.entry(rules.name()).or_default() += 1;
                }
            }
        }
        let games: Vec<&str> = crossed.keys().copied().collect();
        assert_eq!(games, ["2048", "bs", "connect4", "dice", "tron", "worms"]);
        assert!(crossed.values().all(|&n| n > 50), "{crossed:?}");
    }

    /// An answer's postcard form, from its JSON, through its typed wire type.
    fn typed_bytes(answer: &serde_json::Value, game: &str, function: &str) -> Vec<u8> {
        use botbox_sdk::{Wire, bs, connect4, dice, g2048, tron, worms};
        fn bytes<T: Wire>(json: &serde_json::Value) -> Vec<u8> {
            let mut out = Vec::new();
            T::deserialize(json).unwrap().to_binary(&mut out).unwrap();
            out
        }
        match (game, function) {
            ("2048", _) => bytes::<g2048::Direction>(answer),
            ("worms", _) => bytes::<worms::Move>(answer),
            ("dice", _) => bytes::<dice::Move>(answer),
            ("connect4", _) => bytes::<connect4::Move>(answer),
            ("tron", _) => bytes::<tron::Move>(answer),
            ("bs", "play") => bytes::<bs::PlayAction>(answer),
            ("bs", "call") => bytes::<bs::CallAction>(answer),
            other => panic!("no answer type for {other:?}"),
        }
    }

    /// An observation's postcard form decoded by its typed wire type, as JSON.
    fn back_to_json(bytes: &[u8], game: &str, function: &str) -> serde_json::Value {
        use botbox_sdk::{Wire, bs, connect4, dice, g2048, tron, worms};
        fn json<T: Wire>(bytes: &[u8]) -> serde_json::Value {
            serde_json::to_value(T::from_binary(bytes).unwrap()).unwrap()
        }
        match (game, function) {
            ("2048", _) => json::<g2048::Observation>(bytes),
            ("worms", _) => json::<worms::Observation>(bytes),
            ("dice", _) => json::<dice::Observation>(bytes),
            ("connect4", _) => json::<connect4::Observation>(bytes),
            ("tron", _) => json::<tron::Observation>(bytes),
            ("bs", "play") => json::<bs::PlayObservation>(bytes),
            ("bs", "call") => json::<bs::CallObservation>(bytes),
            ("bs", "observe") => json::<bs::Event>(bytes),
            other => panic!("no observation type for {other:?}"),
        }
    }
}
