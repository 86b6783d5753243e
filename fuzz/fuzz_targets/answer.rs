//! A strategy's answer, decoded by each game: whatever a bot sends back (a Lua value turned to JSON, a
//! WASM module's or a program's output) reaches `Match::apply` as JSON.
//!
//! The input: byte 0 picks the game, byte 1 its variant, byte 2 how many random moves come first,
//! bytes 3..11 the seed; the rest is the answer. The answer is applied as JSON when it parses, and as a
//! JSON string of its text in any case. `apply` accepts or refuses (`Refusal`), never panics, and a
//! refused answer changes nothing. An answer that is accepted is sent again, a few times, as a bot
//! repeating itself would.
//!
//! The same text is also decoded as the SDK's wire types (answers and observations), as a Rust
//! strategy decodes what crosses the boundary; what decodes re-encodes to the same value.

#![no_main]

use botbox::games::contract::{Match, Refusal};
use botbox::games::registry;
use botbox_sdk::{bs, connect4, dice, g2048, worms};
use libfuzzer_sys::fuzz_target;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Applies `action`; a refusal must leave the game as it was.
fn apply(game: &mut dyn Match, action: &Value) -> bool {
    let (state, moves, turn) = (game.state(), game.moves(), game.turn());
    match game.apply(action) {
        Ok(_) => {
            let _ = game.take_notices();
            true
        }
        Err(Refusal::Malformed(m) | Refusal::Illegal(m)) => {
            assert!(!m.is_empty(), "a refusal says why");
            assert_eq!(game.state(), state, "a refused action changes nothing");
            assert_eq!(game.moves(), moves);
            assert_eq!(game.turn(), turn);
            false
        }
    }
}

/// Decodes `text` as `T`; what decodes must re-encode to the same value.
fn wire<T: DeserializeOwned + Serialize + PartialEq + std::fmt::Debug>(text: &str) {
    if let Ok(value) = serde_json::from_str::<T>(text) {
        let again = serde_json::to_string(&value).expect("wire types serialize");
        let back: T = serde_json::from_str(&again).expect("wire types re-decode");
        assert_eq!(back, value);
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 11 {
        return;
    }
    let (head, answer) = data.split_at(11);
    let games = registry::all();
    let rules = games[usize::from(head[0]) % games.len()];
    let variants = rules.variants();
    let variant = &variants[usize::from(head[1]) % variants.len()];
    let before = usize::from(head[2] % 64);
    let seed = u64::from_le_bytes(head[3..11].try_into().expect("8 bytes"));
    let text = String::from_utf8_lossy(answer);

    wire::<g2048::Direction>(&text);
    wire::<worms::Move>(&text);
    wire::<dice::Move>(&text);
    wire::<connect4::Move>(&text);
    wire::<bs::PlayAction>(&text);
    wire::<bs::CallAction>(&text);
    wire::<g2048::Observation>(&text);
    wire::<worms::Observation>(&text);
    wire::<dice::Observation>(&text);
    wire::<connect4::Observation>(&text);
    wire::<bs::PlayObservation>(&text);
    wire::<bs::CallObservation>(&text);
    wire::<bs::Event>(&text);

    let variant = botbox::games::contract::Variant::named(&variant.name);
    let mut game = rules
        .start(&variant, rules.seats().min, seed)
        .expect("a listed variant starts");
    let mut rng = botbox::games::rng(seed);
    for _ in 0..before {
        let Some(action) = game.random_action(&mut rng) else {
            break;
        };
        assert!(apply(game.as_mut(), &action), "a random action is legal");
    }
    let mut answers = vec![Value::String(text.to_string())];
    if let Ok(value) = serde_json::from_str::<Value>(&text) {
        answers.insert(0, value);
    }
    for action in &answers {
        for _ in 0..8 {
            if let Some(turn) = game.turn() {
                let _ = game.observation(turn.seat);
            }
            if !apply(game.as_mut(), action) {
                break;
            }
        }
    }
    if game.turn().is_none() {
        assert!(
            game.outcome().is_some(),
            "a game that is over has an outcome"
        );
    }
});
