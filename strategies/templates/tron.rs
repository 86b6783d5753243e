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
        // A wall hugger: among the moves that do not crash, the one whose new cell touches the
        // most walls (the first such of north, east, south, west).
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
        let (mut best, mut most) = (Move::North, -1);
        for m in Move::ALL {
            let (dr, dc) = m.delta();
            let (r, c) = (r + dr as i64, c + dc as i64);
            if !free(r, c) {
                continue;
            }
            let walls = Move::ALL
                .into_iter()
                .filter(|e| {
                    let (er, ec) = e.delta();
                    !free(r + er as i64, c + ec as i64)
                })
                .count() as i64;
            if walls > most {
                (best, most) = (m, walls);
            }
        }
        best
    }
}

botbox_sdk::export_strategy!(Bot);
