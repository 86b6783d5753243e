//! A dice bot (free variant) for botbox. Check it: `botbox check dice .` (botbox builds the crate).

use botbox_sdk::dice::{Move, Observation};
use botbox_sdk::{Setup, Strategy};

pub struct Bot;

impl Strategy for Bot {
    type Observation = Observation;
    type Action = Move;

    fn new(_setup: &Setup) -> Self {
        Bot
    }

    fn choose_move(&mut self, obs: Observation) -> Move {
        // Capture when possible, else the piece furthest ahead.
        let best = obs
            .legal
            .iter()
            .max_by_key(|m| (m.captures, m.from))
            .expect("asked only when there is a choice");
        Move { from: best.from, to: best.to }
    }
}

botbox_sdk::export_strategy!(Bot);
