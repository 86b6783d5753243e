//! The shape of a run ([`Plan`]) and its four formats: which entries play each numbered game,
//! with its seed, seats, variant and round ([`schedule`]).

use rand::RngExt;
use serde::{Deserialize, Serialize};

use super::Scheduled;
use crate::games::{derive_seed, rng};

/// The stream of a game's seed that seats a pool's players (the strategies' seeds use 1000 and up).
pub const SEATING_STREAM: u64 = 999;

/// Who plays whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Every entry against every other.
    RoundRobin,
    /// The first entry (the candidate) against each of the others (the field).
    Gauntlet,
    /// Tables of the game's seat count, drawn from the entries at random for every game.
    Pool,
    /// Each entry alone, game after game (a solo game's benchmark).
    Series,
}

/// The shape of a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    pub format: Format,
    /// Games per pairing (round robin, gauntlet), per entry (series), or in all (pool).
    pub games: usize,
    pub seed: u64,
    /// Players at every game.
    #[serde(default = "two")]
    pub seats: usize,
    /// Pool: whether an entry may sit at one table more than once.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub repeat: bool,
}

fn two() -> usize {
    2
}

/// Why a run cannot be planned.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    #[error("no games to play: a run needs at least one entry and --games 1")]
    Empty,
    #[error("{format} is for games of {wanted} players; {game} seats {seats}")]
    Format {
        format: &'static str,
        wanted: &'static str,
        game: String,
        seats: usize,
    },
    #[error(
        "a game of {seats} seats needs {seats} distinct entries, there are {entries} (or let an entry sit twice)"
    )]
    TooFew { seats: usize, entries: usize },
}

impl Plan {
    /// Whether `entries` entries can play this plan for a game of `game` with `seats` seats.
    pub fn check(&self, game: &str, entries: usize) -> Result<(), PlanError> {
        let format = |format, wanted| PlanError::Format {
            format,
            wanted,
            game: game.to_string(),
            seats: self.seats,
        };
        match self.format {
            Format::RoundRobin if self.seats != 2 => return Err(format("a round robin", "two")),
            Format::Gauntlet if self.seats != 2 => return Err(format("a gauntlet", "two")),
            Format::Series if self.seats != 1 => return Err(format("a series", "one")),
            _ => {}
        }
        if entries == 0 || self.games == 0 || self.seats == 0 {
            return Err(PlanError::Empty);
        }
        let distinct = match self.format {
            Format::Pool => !self.repeat,
            Format::RoundRobin | Format::Gauntlet => true,
            Format::Series => false,
        };
        if distinct && entries < self.seats {
            let seats = self.seats;
            return Err(PlanError::TooFew { seats, entries });
        }
        Ok(())
    }

    /// A pool game's seating, drawn from a pool of `entries` (see the module's notes).
    fn seating(&self, seed: u64, entries: usize) -> Vec<usize> {
        let mut draw = rng(derive_seed(seed, SEATING_STREAM));
        if self.repeat {
            (0..self.seats)
                .map(|_| draw.random_range(0..entries))
                .collect()
        } else {
            // The first `seats` steps of a Fisher-Yates shuffle: a uniform ordered sample.
            let mut pool: Vec<usize> = (0..entries).collect();
            for k in 0..self.seats {
                let j = draw.random_range(k..entries);
                pool.swap(k, j);
            }
            pool.truncate(self.seats);
            pool
        }
    }

    /// How many games the run has, for `entries` entries (`usize::MAX` past it: a plan read from
    /// an edited report may ask for any number).
    pub fn len(&self, entries: usize) -> usize {
        let pairings = match self.format {
            Format::RoundRobin => entries.saturating_mul(entries.saturating_sub(1)) / 2,
            Format::Gauntlet => entries.saturating_sub(1),
            Format::Pool => 1,
            Format::Series => entries,
        };
        pairings.saturating_mul(self.games)
    }

    /// Game `index` of the run: its seed, seats, variant and round.
    pub fn game(&self, index: usize, entries: usize, variants: usize) -> Scheduled {
        let seed = derive_seed(self.seed, index as u64);
        let variants = variants.max(1);
        let per = self.games.max(1);
        let (seats, round, variant) = match self.format {
            Format::RoundRobin | Format::Gauntlet => {
                let (pairing, round) = (index / per, index % per);
                let (a, b) = match self.format {
                    Format::Gauntlet => (0, pairing + 1),
                    _ => nth_pair(pairing, entries),
                };
                let seats = if round % 2 == 0 {
                    vec![a, b]
                } else {
                    vec![b, a]
                };
                (seats, round, (round / 2) % variants)
            }
            Format::Pool => (self.seating(seed, entries), index, index % variants),
            Format::Series => (vec![index / per], index % per, (index % per) % variants),
        };
        Scheduled {
            index,
            seed,
            seats,
            variant,
            round,
        }
    }
}

/// The `k`-th pair `(a, b)`, `a < b`, of `entries` entries in the order `(0,1), (0,2), ..., (1,2), ...`.
fn nth_pair(mut k: usize, entries: usize) -> (usize, usize) {
    for a in 0..entries {
        let after = entries - a - 1;
        if k < after {
            return (a, a + 1 + k);
        }
        k -= after;
    }
    unreachable!("pairing {k} is beyond the schedule")
}

/// Every game of a run, in number order.
pub fn schedule(plan: &Plan, entries: usize, variants: usize) -> Vec<Scheduled> {
    (0..plan.len(entries))
        .map(|i| plan.game(i, entries, variants))
        .collect()
}
