//! The game the runner still plays through a driver of its own ([`Playable`]): Wormworld (over
//! maps). Every other game is played through the contract ([`super::versus`]).

use super::runner::{Ending, Entry, Playable, Scheduled};
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
