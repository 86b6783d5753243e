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
        // Capture when you can, else move the piece furthest ahead (the first such, in order).
        let mut best = obs.legal.iter().find(|m| m.captures).unwrap_or(&obs.legal[0]);
        if !best.captures {
            for m in &obs.legal {
                if m.from > best.from {
                    best = m;
                }
            }
        }
        Move { from: best.from, to: best.to }
    }
}

botbox_sdk::export_strategy!(Bot);
