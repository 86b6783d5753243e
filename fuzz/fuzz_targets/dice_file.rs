//! Dice files (`docs/dice.md`), as a user hands them to `botbox dice` or a tournament file.
//!
//! Any text: `file::parse` returns the dice or an error naming the line, never panics. Dice that parse
//! play: a free dice game with the first two starts and plays random turns.

#![no_main]

use botbox::games::contract::{Rules, Variant};
use botbox::games::dice::{RULES, file};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(dice) = file::parse(text) else {
        return;
    };
    assert!(dice.len() >= 2, "a dice file has two dice or more");
    assert!(dice.iter().all(|d| !d.faces().is_empty()));
    // The last two dice, picked by name as a tournament does (`NAME:I,J`).
    let n = dice.len();
    let variant = Variant {
        name: format!("fuzz:{n},{}", n - 1),
        text: Some(text.to_string()),
    };
    let mut game = RULES
        .start(&variant, 2, 7)
        .expect("parsed dice start a game");
    let mut rng = botbox::games::rng(7);
    for _ in 0..64 {
        let Some(turn) = game.turn() else { break };
        let _ = game.observation(turn.seat);
        let action = game.random_action(&mut rng).expect("a turn has an action");
        game.apply(&action).expect("a random legal action applies");
    }
    let _ = (game.state(), game.outcome());
});
