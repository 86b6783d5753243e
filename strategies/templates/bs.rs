//! A BS (Cheat) bot for botbox. Check it: `botbox check bs .` (botbox builds the crate).

use botbox_sdk::bs::{CallAction, CallObservation, PlayAction, PlayObservation};
use botbox_sdk::{BsStrategy, Setup};

pub struct Bot;

impl BsStrategy for Bot {
    fn new(_setup: &Setup) -> Self {
        Bot
    }

    fn play(&mut self, obs: PlayObservation) -> PlayAction {
        let mut cards: Vec<u32> = obs.hand.iter().copied().filter(|id| id / 4 == obs.rank).take(4).collect();
        if cards.is_empty() {
            cards.push(obs.hand[0]); // a lie: one card
        }
        cards
    }

    fn call(&mut self, obs: CallObservation) -> CallAction {
        obs.count >= 3
    }
}

botbox_sdk::export_bs_strategy!(Bot);
