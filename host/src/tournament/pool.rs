//! Pool tournaments: games for a fixed number of seats (BS has four), each seating entries drawn at
//! random from a pool, scored by wins per game played.
//!
//! **Each game's table is a function of the run's seed and the game's number.** Game `i` is seeded
//! with `derive_seed(seed, i)`; its seating is drawn from a generator seeded
//! `derive_seed(game_seed, SEATING_STREAM)`: distinct entries (or, with `repeat`, any entries) in a
//! uniformly random order. Threads only decide where a game runs ([`run_indexed`]), so a run gives the
//! same report whatever `--jobs` is, and a game can be replayed alone from its number.
//!
//! **A fault voids the game for everyone else.** A game in which a seat faulted counts as a loss for
//! the faulting entry and not at all for the others (their `void` count grows instead). With
//! `repeat`, an entry seated twice in one game counts once per seat.
//!
//! The game itself is behind [`Table`]: the runner draws the seats, the game plays them and says who
//! won and why. [`Report`]s are computed from the game records alone.

use std::collections::BTreeMap;

use rand::RngExt;
use serde::{Deserialize, Serialize};

use super::arena::Entry;
use super::{run_indexed, stats};
use crate::games::{derive_seed, rng};
use crate::replay::{Replay, StrategyRef};
use crate::runtime::{Fault, FaultKind};

/// The stream of a game's seed that seats its players (the strategies' seeds use 1000 and up).
pub const SEATING_STREAM: u64 = 999;

/// A game for a fixed number of seats that the pool runner can play.
pub trait Table: Sync {
    /// The game's name in files (`bs`).
    fn game(&self) -> &str;
    /// Seats at every table; at least 1.
    fn seats(&self) -> usize;
    /// Plays one game between `players` (seat order); with `record`, also returns its replay.
    fn play(&self, game: &Seating, players: &[&Entry], record: bool) -> (Outcome, Option<Replay>);
}

/// One game of a run: its number, its seed and who sits where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seating {
    /// The game's number in the run, from 0.
    pub index: usize,
    pub seed: u64,
    /// The entries (indices into the pool) by seat: `seats[0]` moves first.
    pub seats: Vec<usize>,
}

/// How one game ended, as the game reports it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The winning seat, or `None` (no winner, or a void game).
    pub winner: Option<usize>,
    /// Why the game ended: the game's own reasons (BS: `won`, `round limit`), or `fault`.
    pub reason: String,
    /// Turns completed.
    pub turns: u32,
    /// Each seat's fault, if it faulted; any fault voids the game.
    pub faults: Vec<Option<Fault>>,
}

impl Outcome {
    pub fn is_void(&self) -> bool {
        self.faults.iter().any(Option::is_some)
    }
}

/// The shape of a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Plan {
    pub games: usize,
    pub seed: u64,
    /// Seats per game.
    pub seats: usize,
    /// Whether an entry may sit at one table more than once.
    pub repeat: bool,
}

/// Why a run cannot be planned.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    #[error("a pool needs at least one entry")]
    Empty,
    #[error("{seats} seats need {seats} distinct entries, the pool has {entries}")]
    TooFew { seats: usize, entries: usize },
}

impl Plan {
    pub fn check(&self, entries: usize) -> Result<(), PlanError> {
        if entries == 0 || self.seats == 0 {
            return Err(PlanError::Empty);
        }
        if !self.repeat && entries < self.seats {
            let seats = self.seats;
            return Err(PlanError::TooFew { seats, entries });
        }
        Ok(())
    }

    /// Game `index`'s seed and seating, drawn from a pool of `entries` (see the module's notes).
    pub fn seating(&self, index: usize, entries: usize) -> Seating {
        let seed = derive_seed(self.seed, index as u64);
        let mut draw = rng(derive_seed(seed, SEATING_STREAM));
        let seats = if self.repeat {
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
        };
        Seating { index, seed, seats }
    }
}

/// One game's result in a report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's number in the run, from 1 (as in replay file names).
    pub number: usize,
    pub seed: u64,
    /// The entries' names by seat.
    pub players: Vec<String>,
    /// The winner's name and seat, if someone won.
    pub winner: Option<String>,
    pub winner_seat: Option<usize>,
    pub reason: String,
    pub turns: u32,
    /// Each seat's fault, if any (the game is then void for the others).
    pub faults: Vec<Option<Fault>>,
}

impl GameRecord {
    fn is_void(&self) -> bool {
        self.faults.iter().any(Option::is_some)
    }
}

/// Games and wins, with the win rate and its 95% Wilson interval, in percent.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Score {
    pub games: usize,
    pub wins: usize,
    pub win_rate: f64,
    pub low: f64,
    pub high: f64,
}

impl Score {
    fn new(wins: usize, games: usize) -> Score {
        let (low, high) = stats::wilson95(wins, games);
        let rate = if games == 0 {
            0.0
        } else {
            wins as f64 / games as f64
        };
        Score {
            games,
            wins,
            win_rate: 100.0 * rate,
            low: 100.0 * low,
            high: 100.0 * high,
        }
    }
}

/// One entry's line in the standings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standing {
    pub name: String,
    /// Games counted (void ones excluded, except those the entry faulted in), wins, win rate and
    /// interval.
    #[serde(flatten)]
    pub score: Score,
    /// The same by seat.
    pub by_seat: Vec<Score>,
    /// Games voided by another entry's fault.
    pub void: usize,
    /// Faults by kind (`"timeout"`, `"illegal"`, ...); every fault lost its game.
    pub faults: BTreeMap<FaultKind, usize>,
}

/// How the games ended.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Ends {
    pub won: usize,
    /// Games without a winner (BS: the round limit).
    pub no_winner: usize,
    pub void: usize,
}

/// Everything a run reports, as its JSON.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub game: String,
    pub plan: Plan,
    /// The pool, under the names the tables show, with the files' content hashes.
    pub entries: Vec<StrategyRef>,
    /// Best win rate first.
    pub standings: Vec<Standing>,
    /// Wins by seat over the games that were not void: the seat effect.
    pub seats: Vec<Score>,
    pub ends: Ends,
    pub games: Vec<GameRecord>,
}

/// Plays the run on `jobs` threads. `on_game` is called after each game (progress bars, replay
/// files), from the thread that played it, with its replay if `record` is set.
pub fn run<T: Table>(
    table: &T,
    entries: &[Entry],
    plan: Plan,
    jobs: usize,
    record: bool,
    on_game: impl Fn(&Seating, &Outcome, Option<&Replay>) + Sync,
) -> Result<Report, PlanError> {
    plan.check(entries.len())?;
    let outcomes = run_indexed(
        plan.games,
        jobs,
        |i| {
            let seating = plan.seating(i, entries.len());
            let players: Vec<&Entry> = seating.seats.iter().map(|&e| &entries[e]).collect();
            let (outcome, replay) = table.play(&seating, &players, record);
            on_game(&seating, &outcome, replay.as_ref());
            (seating, outcome)
        },
        |_| {},
    );
    let records: Vec<GameRecord> = outcomes
        .into_iter()
        .map(|(seating, outcome)| {
            let name = |e: usize| entries[e].name.clone();
            GameRecord {
                number: seating.index + 1,
                seed: seating.seed,
                players: seating.seats.iter().map(|&e| name(e)).collect(),
                winner: outcome.winner.map(|s| name(seating.seats[s])),
                winner_seat: outcome.winner,
                reason: outcome.reason,
                turns: outcome.turns,
                faults: outcome.faults,
            }
        })
        .collect();
    let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
    Ok(Report {
        game: table.game().to_string(),
        entries: entries
            .iter()
            .map(|e| StrategyRef {
                name: e.name.clone(),
                ..StrategyRef::of(&e.strategy)
            })
            .collect(),
        standings: standings(&names, plan.seats, &records),
        seats: seat_scores(plan.seats, &records),
        ends: ends(&records),
        plan,
        games: records,
    })
}

/// The standings, best win rate first (ties keep the pool's order).
pub fn standings(names: &[&str], seats: usize, records: &[GameRecord]) -> Vec<Standing> {
    let mut table: Vec<Standing> = names
        .iter()
        .map(|&name| {
            let (mut games, mut wins) = (vec![0; seats], vec![0; seats]);
            let (mut void, mut faults) = (0, BTreeMap::new());
            for record in records {
                let void_game = record.is_void();
                for (seat, player) in record.players.iter().enumerate() {
                    if player != name {
                        continue;
                    }
                    match &record.faults[seat] {
                        Some(fault) => *faults.entry(fault.kind).or_insert(0) += 1,
                        None if void_game => {
                            void += 1;
                            continue;
                        }
                        None => wins[seat] += usize::from(record.winner_seat == Some(seat)),
                    }
                    games[seat] += 1;
                }
            }
            let by_seat: Vec<Score> = (0..seats).map(|s| Score::new(wins[s], games[s])).collect();
            Standing {
                name: name.to_string(),
                score: Score::new(wins.iter().sum(), games.iter().sum()),
                by_seat,
                void,
                faults,
            }
        })
        .collect();
    table.sort_by(|a, b| b.score.win_rate.total_cmp(&a.score.win_rate));
    table
}

/// Each seat's wins over the games that were not void.
pub fn seat_scores(seats: usize, records: &[GameRecord]) -> Vec<Score> {
    let counted: Vec<&GameRecord> = records.iter().filter(|r| !r.is_void()).collect();
    (0..seats)
        .map(|s| {
            let wins = counted.iter().filter(|r| r.winner_seat == Some(s)).count();
            Score::new(wins, counted.len())
        })
        .collect()
}

fn ends(records: &[GameRecord]) -> Ends {
    let mut ends = Ends::default();
    for r in records {
        match (r.is_void(), r.winner_seat) {
            (true, _) => ends.void += 1,
            (false, Some(_)) => ends.won += 1,
            (false, None) => ends.no_winner += 1,
        }
    }
    ends
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(repeat: bool) -> Plan {
        Plan {
            games: 100,
            seed: 7,
            seats: 4,
            repeat,
        }
    }

    #[test]
    fn seatings_are_distinct_entries_in_random_order_from_the_games_number_alone() {
        let plan = plan(false);
        let mut firsts = [0; 6];
        for i in 0..600 {
            let s = plan.seating(i, 6);
            assert_eq!(s, plan.seating(i, 6), "a pure function of the number");
            assert_eq!(s.seed, derive_seed(7, i as u64));
            let mut sorted = s.seats.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), 4, "{:?}", s.seats);
            assert!(s.seats.iter().all(|&e| e < 6));
            firsts[s.seats[0]] += 1;
        }
        // Each entry sits first in about a sixth of the games (100 each; 5 standard deviations).
        assert!(
            firsts.iter().all(|&n| (55..=145).contains(&n)),
            "{firsts:?}"
        );
        let orders: std::collections::HashSet<Vec<usize>> =
            (0..200).map(|i| plan.seating(i, 4).seats).collect();
        assert_eq!(orders.len(), 24, "a pool of four is seated in every order");
    }

    #[test]
    fn repeated_entries_are_allowed_only_when_asked_for() {
        assert_eq!(
            plan(false).check(3),
            Err(PlanError::TooFew {
                seats: 4,
                entries: 3
            })
        );
        assert_eq!(plan(true).check(0), Err(PlanError::Empty));
        assert_eq!(plan(true).check(2), Ok(()));
        let seats: Vec<Vec<usize>> = (0..50).map(|i| plan(true).seating(i, 2).seats).collect();
        assert!(
            seats
                .iter()
                .all(|s| s.len() == 4 && s.iter().all(|&e| e < 2))
        );
        assert!(
            seats
                .iter()
                .any(|s| s.iter().filter(|&&e| e == 0).count() >= 2)
        );
    }

    fn record(players: [&str; 4], winner: Option<usize>, fault: Option<usize>) -> GameRecord {
        let mut faults = vec![None; 4];
        if let Some(seat) = fault {
            faults[seat] = Some(Fault::new(FaultKind::Illegal, "played [99]"));
        }
        GameRecord {
            number: 1,
            seed: 0,
            players: players.map(String::from).to_vec(),
            winner: winner.map(|s| players[s].to_string()),
            winner_seat: winner,
            reason: "r".into(),
            turns: 1,
            faults,
        }
    }

    #[test]
    fn standings_count_wins_per_seat_and_void_games_apart() {
        let records = [
            record(["a", "b", "c", "d"], Some(0), None),
            record(["b", "a", "d", "c"], Some(1), None),
            record(["a", "b", "c", "d"], None, None),
            record(["d", "c", "b", "a"], None, Some(2)),
        ];
        let table = standings(&["a", "b", "c", "d"], 4, &records);
        let a = &table[0];
        assert_eq!((a.name.as_str(), a.score.games, a.score.wins), ("a", 3, 2));
        assert!((a.score.win_rate - 200.0 / 3.0).abs() < 1e-9);
        assert!(a.score.low < a.score.win_rate && a.score.win_rate < a.score.high);
        assert_eq!((a.void, a.by_seat[0].wins, a.by_seat[1].wins), (1, 1, 1));
        let b = table.iter().find(|s| s.name == "b").unwrap();
        assert_eq!((b.score.games, b.score.wins, b.void), (4, 0, 0));
        assert_eq!(b.faults.get(&FaultKind::Illegal), Some(&1));
        assert_eq!(
            b.by_seat[2].games, 1,
            "the faulting seat's game is its loss"
        );
        let seats = seat_scores(4, &records);
        assert_eq!(
            seats.iter().map(|s| s.wins).collect::<Vec<_>>(),
            [1, 1, 0, 0]
        );
        assert_eq!(seats[0].games, 3);
        let e = ends(&records);
        assert_eq!((e.won, e.no_winner, e.void), (2, 1, 1));
    }

    #[test]
    fn an_entry_seated_twice_counts_once_per_seat() {
        let records = [record(["a", "a", "b", "b"], Some(1), None)];
        let table = standings(&["a", "b"], 4, &records);
        assert_eq!((table[0].score.games, table[0].score.wins), (2, 1));
        assert_eq!((table[1].score.games, table[1].score.wins), (2, 0));
    }
}
