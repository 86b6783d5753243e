//! A 2048 bot for botbox. Check it: `botbox check 2048 .` (botbox builds the crate).

use botbox_sdk::g2048::{Direction, Observation};
use botbox_sdk::{Setup, Strategy};

pub struct Bot;

impl Strategy for Bot {
    type Observation = Observation;
    type Action = Direction;

    fn new(_setup: &Setup) -> Self {
        Bot
    }

    fn choose_move(&mut self, obs: Observation) -> Direction {
        // The first legal of down, left, right, up: keeps big tiles in a corner.
        [Direction::Down, Direction::Left, Direction::Right, Direction::Up]
            .into_iter()
            .find(|d| obs.legal.contains(d))
            .unwrap_or(obs.legal[0])
    }
}

botbox_sdk::export_strategy!(Bot);
