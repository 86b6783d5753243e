//! The games the runner still plays through drivers of their own ([`Playable`]): the two-player
//! games Wormworld (over maps) and the free dice variant (over (die, strategy) entries). Every other
//! game is played through the contract ([`super::versus`]). Each is a thin door onto its `play`
//! module.

use super::runner::{Ending, Entry, Playable, Scheduled};
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
