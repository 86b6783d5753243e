//! A Tron bot for botbox. Check it: `botbox check tron .` (botbox builds the crate).

use botbox_sdk::tron::{Move, Observation};
use botbox_sdk::{Setup, Strategy};

pub struct Bot;

impl Strategy for Bot {
    type Observation = Observation;
    type Action = Move;

    fn new(_setup: &Setup) -> Self {
        Bot
    }

    fn choose_move(&mut self, obs: Observation) -> Move {
        // The first direction whose cell is free (`.`): north, east, south, west.
        let free = |r: i64, c: i64| {
            r >= 0
                && c >= 0
                && obs
                    .rows
                    .get(r as usize)
                    .and_then(|row| row.as_bytes().get(c as usize))
                    == Some(&b'.')
        };
        let (r, c) = (obs.you[0] as i64, obs.you[1] as i64);
        Move::ALL
            .into_iter()
            .find(|m| {
                let (dr, dc) = m.delta();
                free(r + dr as i64, c + dc as i64)
            })
            .unwrap_or(Move::North)
    }
}

botbox_sdk::export_strategy!(Bot);
