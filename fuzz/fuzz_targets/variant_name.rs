//! Variant names (`--variant`, a tournament's `variants`): a board size `NxN` for 2048, a Connect Four
//! shape, a dice file with `NAME:I,J` picking two dice, a built-in map's name. Any text: every game's
//! `Rules::start` returns a game or an error, never panics, and a game it starts takes a random move.

#![no_main]

use botbox::games::contract::Variant;
use botbox::games::registry;
use libfuzzer_sys::fuzz_target;

/// A dice file with three dice, for names that pick dice by number.
const DICE: &str = "3\n6 1 2 3 4 5 6\n6 1 1 1 6 6 6\n4 1 2 3 4\n";

fuzz_target!(|data: &[u8]| {
    let Ok(name) = std::str::from_utf8(data) else {
        return;
    };
    let mut rng = botbox::games::rng(3);
    for rules in registry::all() {
        for text in [None, Some(DICE.to_string())] {
            let variant = Variant {
                name: name.to_string(),
                text,
            };
            for seats in 0..=rules.seats().max + 1 {
                if let Ok(mut game) = rules.start(&variant, seats, 3)
                    && let Some(action) = game.random_action(&mut rng)
                {
                    game.apply(&action).expect("a random legal action applies");
                }
            }
        }
    }
});
