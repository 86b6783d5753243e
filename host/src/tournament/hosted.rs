//! Every game as the runner plays it ([`Playable`]): the two-player games Wormworld (over maps),
//! the free dice variant (over (die, strategy) entries) and any contract game ([`super::versus`]),
//! BS at pool tables, and 2048 as a solo series. Each is a thin door onto its `play` module.

use serde_json::json;

use super::runner::{Ending, Entry, Figures, Playable, Scheduled};
use crate::play::bs::Bs;
use crate::play::dice_free::DiceFree;
use crate::play::worms::Worms;
use crate::replay::Replay;
use crate::runtime::Strategy;

/// The two strategies of a two-player game, in seat order.
pub(super) fn two<'a>(players: &[&'a Entry]) -> [&'a Strategy; 2] {
    [&players[0].strategy, &players[1].strategy]
}

impl Playable for Worms {
    fn game(&self) -> &str {
        "worms"
    }

    fn seats(&self) -> usize {
        2
    }

    fn variants(&self) -> usize {
        self.maps.len()
    }

    fn variant_name(&self, variant: usize) -> String {
        self.maps[variant].name.clone()
    }

    fn setup(&self) -> String {
        Worms::setup(self)
    }

    fn play(&self, game: &Scheduled, players: &[&Entry], record: bool) -> (Ending, Option<Replay>) {
        let (index, seed, round) = (game.index, game.seed, game.round);
        Worms::play(self, index, seed, game.variant, round, two(players), record)
    }
}

impl Playable for DiceFree {
    fn game(&self) -> &str {
        "dice"
    }

    fn seats(&self) -> usize {
        2
    }

    fn variant_name(&self, _: usize) -> String {
        "free".into()
    }

    fn in_pairs(&self) -> bool {
        true
    }

    fn setup(&self) -> String {
        let dice: Vec<&[u64]> = self.dice.iter().map(|d| d.faces()).collect();
        format!(
            "free variant, dice {dice:?}, entries' dice {:?}",
            self.die_of
        )
    }

    fn play(&self, game: &Scheduled, players: &[&Entry], record: bool) -> (Ending, Option<Replay>) {
        let seats = [game.seats[0], game.seats[1]];
        DiceFree::play(self, game.index, seats, game.round, two(players), record)
    }
}

impl Playable for Bs {
    fn game(&self) -> &str {
        "bs"
    }

    fn seats(&self) -> usize {
        crate::games::bs::PLAYERS
    }

    fn play(&self, game: &Scheduled, players: &[&Entry], record: bool) -> (Ending, Option<Replay>) {
        let names: Vec<String> = players.iter().map(|e| e.name.clone()).collect();
        let strategies = std::array::from_fn(|s| &players[s].strategy);
        Bs::play(self, game.index, game.seed, strategies, &names, record)
    }
}

/// 2048 as a solo series on one board size: each game's score, largest tile and moves.
#[derive(Debug, Clone, Copy)]
pub struct Series2048 {
    /// The board's side, 3 to 8.
    pub size: usize,
}

impl Playable for Series2048 {
    fn game(&self) -> &str {
        "2048"
    }

    fn seats(&self) -> usize {
        1
    }

    fn variant_name(&self, _: usize) -> String {
        format!("{0}x{0}", self.size)
    }

    fn setup(&self) -> String {
        format!("size {}", self.size)
    }

    fn play(&self, game: &Scheduled, players: &[&Entry], record: bool) -> (Ending, Option<Replay>) {
        let strategy = &players[0].strategy;
        let (r, replay) =
            crate::play::g2048::play(strategy, self.size, game.index + 1, game.seed, record);
        let reason = match (&r.fault, r.capped) {
            (Some(_), _) => "fault",
            (None, true) => "move cap",
            (None, false) => "no moves left",
        };
        let ending = Ending {
            figures: Figures {
                score: Some(r.score as f64),
                details: Some(json!({ "max_tile": r.max_tile })),
                moves_sha256: None,
            },
            ..Ending::new(None, reason, r.moves, vec![r.fault])
        };
        (ending, replay)
    }
}
