//! Any registered game, scheduled by the runner through the game contract: round robins,
//! gauntlets, Elo, shards and replays for two players, pool tables for more (BS), for a game with
//! no code of its own here. Each game is played by [`crate::play::generic`], through the game's
//! typed encoding where it has one.
//!
//! A game whose entries bring part of its set-up with them (dice: each entry plays a die of its own)
//! is set out game by game by an [`Arrange`]: the variant, the seed and who sits where follow from
//! the entries who play.

use std::sync::Arc;

use crate::games::contract::{Rules, Variant};
use crate::play::generic::{self, Opening, Player, Step};
use crate::play::record::{Turns, header, recorded};
use crate::replay::Replay;
use crate::runtime::Strategy;
use crate::tournament::runner::{Ending, Entry, Playable, Scheduled};

/// A registered game over a list of variants, at two seats if it can be played by two, else at
/// its fewest.
#[derive(Clone)]
pub struct Versus {
    pub rules: &'static dyn Rules,
    /// Players at every game.
    pub seats: usize,
    pub variants: Vec<Variant>,
    /// Random opening moves before the strategies play (0: none), the same for both games of a pair.
    pub openings: u32,
    /// The run's seed, from which the openings are drawn.
    pub seed: u64,
    /// Sets out each game from its entries, instead of `variants` and the runner's seed and seats.
    pub arrange: Option<Arc<dyn Arrange + Send + Sync>>,
}

/// How the games of entries that bring part of the set-up with them are set out.
pub trait Arrange: std::fmt::Debug {
    /// How many variants the runner cycles through.
    fn variants(&self) -> usize;
    /// A variant's name for tables and JSON.
    fn variant_name(&self, variant: usize) -> String;
    /// The set-up as text, for a report's hash ([`Playable::setup`]).
    fn setup(&self) -> String;
    /// The variant, seed and seats of `game`.
    fn arrange(&self, game: &Scheduled) -> Arranged;
}

/// One game set out by an [`Arrange`].
#[derive(Clone, Debug)]
pub struct Arranged {
    pub variant: Variant,
    pub seed: u64,
    /// The runner's seat (an index into `Scheduled::seats`) that plays each of the game's seats.
    pub seats: Vec<usize>,
}

impl std::fmt::Debug for Versus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Versus")
            .field("game", &self.rules.name())
            .field("variants", &self.variants)
            .field("openings", &self.openings)
            .field("arrange", &self.arrange)
            .finish()
    }
}

impl Versus {
    /// The game over `variants`; every variant is started once here, so a bad one is refused before
    /// any game is scheduled.
    pub fn new(
        rules: &'static dyn Rules,
        variants: Vec<Variant>,
        openings: u32,
        seed: u64,
    ) -> Result<Versus, String> {
        let seats = if rules.seats().contains(2) {
            2
        } else {
            rules.seats().min
        };
        if variants.is_empty() {
            return Err("no variants".into());
        }
        for v in &variants {
            rules.start(v, seats, 0).map(drop)?;
        }
        Ok(Versus {
            rules,
            seats: seats as usize,
            variants,
            openings,
            seed,
            arrange: None,
        })
    }

    /// Two-seat games of `rules` set out by `arrange`; the first game of every variant is set out
    /// and started here, so a bad set-up is refused before any game is scheduled.
    pub fn arranged(
        rules: &'static dyn Rules,
        arrange: Arc<dyn Arrange + Send + Sync>,
    ) -> Result<Versus, String> {
        for variant in 0..arrange.variants() {
            let game = Scheduled {
                index: 0,
                seed: 0,
                seats: vec![0, 0],
                variant,
                round: 0,
            };
            rules
                .start(&arrange.arrange(&game).variant, 2, 0)
                .map(drop)?;
        }
        Ok(Versus {
            rules,
            seats: 2,
            variants: Vec::new(),
            openings: 0,
            seed: 0,
            arrange: Some(arrange),
        })
    }
}

impl Playable for Versus {
    fn game(&self) -> &str {
        self.rules.name()
    }

    fn seats(&self) -> usize {
        self.seats
    }

    fn variants(&self) -> usize {
        match &self.arrange {
            Some(a) => a.variants(),
            None => self.variants.len(),
        }
    }

    fn variant_name(&self, variant: usize) -> String {
        match &self.arrange {
            Some(a) => a.variant_name(variant),
            None => self.variants[variant].name.clone(),
        }
    }

    /// The variants' set-up and, for a game that would otherwise repeat, the openings.
    fn setup(&self) -> String {
        if let Some(a) = &self.arrange {
            return a.setup();
        }
        let variants = self.variants.iter().map(|v| self.rules.setup_text(v));
        let openings = self
            .rules
            .repeats()
            .then(|| format!("openings {}\n", self.openings));
        variants.chain(openings).collect()
    }

    fn play(&self, game: &Scheduled, players: &[&Entry], record: bool) -> (Ending, Option<Replay>) {
        let arranged = match &self.arrange {
            Some(a) => a.arrange(game),
            None => Arranged {
                variant: self.variants[game.variant].clone(),
                seed: game.seed,
                seats: (0..players.len()).collect(),
            },
        };
        let (variant, seed) = (&arranged.variant, arranged.seed);
        // The entries in the game's seats.
        let players: Vec<&Entry> = arranged.seats.iter().map(|&s| players[s]).collect();
        let strategies: Vec<&Strategy> = players.iter().map(|e| &e.strategy).collect();
        // A game of more than two seats shows its players by their entries' names.
        let names: Vec<String> = if self.seats > 2 {
            players.iter().map(|e| e.name.clone()).collect()
        } else {
            Vec::new()
        };
        let mut turns = Turns::new(self.seats);
        let seats: Vec<Player> = strategies.iter().map(|s| Player::Bot(s)).collect();
        let opening = Opening::for_pair(self.openings, self.seed, game.round);
        let mut record_turn = |step: &Step| turns.push(step);
        let played = generic::play(
            self.rules,
            variant,
            &seats,
            &names,
            seed,
            opening,
            record,
            record.then_some(&mut record_turn as &mut dyn FnMut(&Step)),
        )
        .expect("the variants were started when the run was set up");
        let number = game.index + 1;
        let header = record.then(|| {
            header(
                self.rules,
                variant,
                &strategies,
                &names,
                number,
                seed,
                played.start.clone(),
            )
        });
        let (ending, replay) = recorded(played, header, turns);
        // Back from the game's seats to the runner's.
        let mut faults = vec![None; ending.faults.len()];
        for (seat, fault) in ending.faults.iter().enumerate() {
            faults[arranged.seats[seat]] = fault.clone();
        }
        let ending = Ending {
            winner: ending.winner.map(|s| arranged.seats[s]),
            faults,
            ..ending
        };
        (ending, replay)
    }
}
