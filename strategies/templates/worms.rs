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
        // The move whose worm's new head lands nearest the hole (straight-line steps, walls
        // ignored; the first such).
        let mut best = obs.legal[0];
        let mut best_d = i64::MAX;
        for m in &obs.legal {
            let Some(w) = obs.worms.iter().find(|w| w.id == m.worm) else {
                continue;
            };
            let (dr, dc) = w.direction.turned(m.turn).delta();
            let row = w.cells[0][0] as i64 + dr as i64;
            let col = w.cells[0][1] as i64 + dc as i64;
            let d = (row - obs.hole[0] as i64).abs() + (col - obs.hole[1] as i64).abs();
            if d < best_d {
                (best, best_d) = (*m, d);
            }
        }
        best
    }
}

botbox_sdk::export_strategy!(Bot);
