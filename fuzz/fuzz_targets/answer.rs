//! A strategy's answer, decoded by each game: whatever a bot sends back (a Lua value turned to JSON, a
//! WASM module's or a program's output) reaches `Match::apply` as JSON.
//!
//! The input: byte 0 picks the game, byte 1 its variant, byte 2 how many random moves come first,
//! bytes 3..11 the seed; the rest is the answer. The answer is applied as JSON when it parses, and as a
//! JSON string of its text in any case. `apply` accepts or refuses (`Refusal`), never panics, and a
//! refused answer changes nothing. An answer that is accepted is sent again, a few times, as a bot
//! repeating itself would.
//!
//! The same bytes also go through every registered game's wire types (`GameInfo::wire`), as the host
//! transcodes what crosses to a module that chose postcard: the text as an observation's JSON to
//! postcard, the bytes as a postcard answer to JSON, and what decodes must encode again.

#![no_main]

use botbox::games::contract::{Match, Refusal};
use botbox::games::registry;
use libfuzzer_sys::fuzz_target;
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

/// `answer` through each game's wire types: as an observation's JSON into postcard, and as a
/// postcard answer into JSON; neither may panic, and a decoded observation decodes the same again.
fn wire(answer: &[u8], text: &str) {
    let json: Option<Value> = serde_json::from_str(text).ok();
    for decision in registry::all().iter().flat_map(|g| g.info().wire) {
        let _ = (decision.decode)(answer);
        if let Some(json) = &json {
            let mut once = Vec::new();
            if (decision.encode)(json, &mut once).is_ok() {
                let mut twice = Vec::new();
                (decision.encode)(json, &mut twice).expect("it encoded once");
                assert_eq!(once, twice, "{}: the same JSON, the same bytes", decision.stem);
            }
        }
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

    wire(answer, &text);

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
