//! Wormworld map text (`docs/worms-maps.md`), as a user hands it to `--map` or a tournament file.
//!
//! Any text: `Map::parse` returns a map or an error, never panics. A map that parses is valid, so it
//! also prints and re-parses to the same map, and a game on it starts and plays a few random turns.

#![no_main]

use botbox::games::contract::{Rules, Variant};
use botbox::games::worms::{Map, RULES};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(map) = Map::parse(text) else {
        return;
    };
    let printed = map.to_string();
    assert_eq!(
        Map::parse(&printed).as_ref(),
        Ok(&map),
        "a printed map re-parses to itself:\n{printed}"
    );
    let variant = Variant {
        name: "fuzz".into(),
        text: Some(text.to_string()),
    };
    let mut game = RULES.start(&variant, 2, 1).expect("a valid map starts");
    let mut rng = botbox::games::rng(1);
    for _ in 0..64 {
        let Some(turn) = game.turn() else { break };
        let _ = game.observation(turn.seat);
        let action = game.random_action(&mut rng).expect("a turn has an action");
        game.apply(&action).expect("a random legal action applies");
    }
    let _ = game.state();
});
