//! Each game's glue to the runtimes, beside the game and outside `runtime/`, which knows no game:
//! how the game's observations and answers cross ([`crate::runtime::Payload`], [`Answer`]: the JSON
//! shape, or a faster path that builds the same Lua table), and what a game adds to every strategy's
//! environment ([`Extension`]: 2048's Lua module and WASM imports). Adding a game adds a line here
//! if it has a fast path or a host module, and nothing if its wire types cross as JSON.

pub mod bs;
pub mod g2048;

use crate::runtime::{Answer, Extension, Payload};

/// Every game's additions to the runtimes; the runtimes read this list ([`crate::runtime::Extension`]).
pub static EXTENSIONS: [&dyn Extension; 1] = [&g2048::G2048];

impl Payload for botbox_sdk::worms::Observation {}
impl Answer for botbox_sdk::worms::Move {
    const EXPECTED: &'static str = botbox_sdk::worms::EXPECTED;
}

impl Payload for botbox_sdk::connect4::Observation {}
impl Answer for botbox_sdk::connect4::Move {
    const EXPECTED: &'static str = botbox_sdk::connect4::EXPECTED;
}

impl Payload for botbox_sdk::dice::Observation {}
impl Answer for botbox_sdk::dice::Move {
    const EXPECTED: &'static str = botbox_sdk::dice::EXPECTED;
}
