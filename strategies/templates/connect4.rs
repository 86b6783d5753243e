//! A Connect Four bot for botbox. Check it: `botbox check connect4 .` (botbox builds the crate).

use botbox_sdk::connect4::{Move, Observation};
use botbox_sdk::{Setup, Strategy};

pub struct Bot;

impl Strategy for Bot {
    type Observation = Observation;
    type Action = Move;

    fn new(_setup: &Setup) -> Self {
        Bot
    }

    fn choose_move(&mut self, obs: Observation) -> Move {
        // The open column nearest the centre.
        let centre = obs.columns as i64 - 1;
        let column = *obs
            .legal
            .iter()
            .min_by_key(|c| (2 * **c as i64 - centre).abs())
            .expect("asked only with an open column");
        Move { column }
    }
}

botbox_sdk::export_strategy!(Bot);
