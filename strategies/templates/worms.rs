//! A Wormworld bot for botbox. Check it: `botbox check worms .` (botbox builds the crate).

use botbox_sdk::worms::{Move, Observation};
use botbox_sdk::{Setup, Strategy};

pub struct Bot;

impl Strategy for Bot {
    type Observation = Observation;
    type Action = Move;

    fn new(_setup: &Setup) -> Self {
        Bot
    }

    fn choose_move(&mut self, obs: Observation) -> Move {
        // The legal move of the worm whose head is nearest the hole.
        let distance = |m: &Move| {
            obs.worms
                .iter()
                .find(|w| w.id == m.worm)
                .map_or(u32::MAX, |w| w.cells[0][0].abs_diff(obs.hole[0]) + w.cells[0][1].abs_diff(obs.hole[1]))
        };
        *obs.legal.iter().min_by_key(|m| distance(m)).expect("asked only with a legal move")
    }
}

botbox_sdk::export_strategy!(Bot);
