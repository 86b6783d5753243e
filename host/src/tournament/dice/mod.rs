//! Which die wins Mensch ärgere Dich nicht: every pair of dice plays seeded strict games, half with
//! each die starting, and the dice are ranked by their mean win rate against the others.
//!
//! **Results do not depend on the thread count.** Games come in pairs: game pair `k` of dice pair `p`
//! is seeded with `derive_seed(derive_seed(seed, p), k)` and played twice from that seed, once with
//! die A starting and once with die B starting, so each die starts exactly half the games. Game pairs
//! are grouped into batches of [`BATCH`] games, the unit of parallel work, and game `g` of a pair is
//! the same game whether the run fixes the count or samples to a precision.
//!
//! With a precision, a pair keeps playing batch after batch until the 95% Wilson interval of each of
//! its rates (A wins, B wins, draws) is at most that many percentage points either side. Batches are
//! planned ahead in rounds and run in parallel, but the stopping rule reads the finished batches of a
//! pair in order and discards any past the batch that met it: the games counted depend on the seed
//! alone.
//!
//! The ranking is by mean win rate over the opponents, draws counting as not won; the same mean with
//! draws as half a win is reported too, with the pairs of dice whose order it reverses. A die beats
//! another head to head when its win rate's interval lies wholly above its loss rate's.

use std::time::Instant;

use serde::Serialize;

use super::run_indexed;
use super::stats::wilson95;
use crate::games::dice::{Die, DrawReason, End, Outcome, Seat, play_strict};
use crate::games::{derive_seed, rng};

pub mod free;
mod report;

pub use report::{DiceReport, PairResult, Standing};

/// Games per batch (half with each die starting).
pub const BATCH: u64 = 2_000;
/// The finest precision accepted, in percentage points (about 38 million games per even pair).
pub const MIN_PRECISION: f64 = 0.01;
/// The coarsest precision accepted, in percentage points.
pub const MAX_PRECISION: f64 = 50.0;
/// The two-sided 95% quantile of the normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// How many games each pair plays.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Sampling {
    /// Exactly this many games per pair: an even number, half with each die starting.
    GamesPerPair(u64),
    /// Batches until every rate's 95% interval reaches at most this many percentage points either side.
    Precision(f64),
}

#[derive(Clone, Debug, Serialize)]
pub struct DiceConfig {
    pub seed: u64,
    pub sampling: Sampling,
    #[serde(skip)]
    pub jobs: usize,
}

/// A comparison that cannot be run as asked.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ConfigError {
    #[error("comparing dice needs at least two, not {count}")]
    TooFewDice { count: usize },
    #[error(
        "games per pair must be a positive even number, half with each die starting; not {games}"
    )]
    Games { games: u64 },
    #[error(
        "the precision must be from {MIN_PRECISION} to {MAX_PRECISION} percentage points, not {precision}"
    )]
    Precision { precision: f64 },
}

/// Progress of a run, for a progress bar: games planned (the total grows with a precision) and played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    Planned { games: u64 },
    Played { games: u64 },
}

/// What a set of games between die A (seat 0) and die B (seat 1) came to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    pub games: u64,
    /// Games started by die A and by die B: always equal.
    pub starts: [u64; 2],
    /// Games won by die A and by die B.
    pub wins: [u64; 2],
    pub draws: u64,
    /// The draws by reason.
    pub deadlocks: u64,
    pub endless_turns: u64,
    pub turn_caps: u64,
    /// Games won by the die that started.
    pub starter_wins: u64,
    /// Turns (rolls) over all games.
    pub turns: u64,
}

impl Tally {
    fn add(&mut self, outcome: Outcome, starter: Seat) {
        self.games += 1;
        self.starts[starter] += 1;
        self.turns += u64::from(outcome.turns);
        match outcome.end {
            End::Won(seat) => {
                self.wins[seat] += 1;
                self.starter_wins += u64::from(seat == starter);
            }
            End::Draw(reason) => {
                self.draws += 1;
                *match reason {
                    DrawReason::Deadlock => &mut self.deadlocks,
                    DrawReason::EndlessTurn => &mut self.endless_turns,
                    DrawReason::TurnCap => &mut self.turn_caps,
                } += 1;
            }
        }
    }

    fn merge(&mut self, other: &Tally) {
        self.games += other.games;
        for seat in 0..2 {
            self.starts[seat] += other.starts[seat];
            self.wins[seat] += other.wins[seat];
        }
        self.draws += other.draws;
        self.deadlocks += other.deadlocks;
        self.endless_turns += other.endless_turns;
        self.turn_caps += other.turn_caps;
        self.starter_wins += other.starter_wins;
        self.turns += other.turns;
    }

    /// The widest 95% half-width among the win, loss and draw rates, as a share.
    fn widest_half_width(&self) -> f64 {
        [self.wins[0], self.wins[1], self.draws]
            .iter()
            .map(|&c| Rate::of(c, self.games).half_width())
            .fold(0.0, f64::max)
    }
}

/// A share with its 95% Wilson interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Rate {
    pub share: f64,
    pub low: f64,
    pub high: f64,
}

impl Rate {
    pub fn of(count: u64, n: u64) -> Rate {
        let (low, high) = wilson95(count as usize, n as usize);
        let share = if n == 0 { 0.0 } else { count as f64 / n as f64 };
        Rate { share, low, high }
    }

    pub fn half_width(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
}

/// Plays games `first..first + count` of a dice pair: game `g` is game pair `g / 2`, die A starting
/// when `g` is even.
pub fn play_games(a: &Die, b: &Die, pair_seed: u64, first: u64, count: u64) -> Tally {
    let mut tally = Tally::default();
    for g in first..first + count {
        let a_starts = g % 2 == 0;
        let outcome = play_strict(a, b, a_starts, &mut rng(derive_seed(pair_seed, g / 2)));
        tally.add(outcome, if a_starts { 0 } else { 1 });
    }
    tally
}

/// One batch of work: batch `batch` of dice pair `pair`.
#[derive(Clone, Copy, Debug)]
struct Job {
    pair: usize,
    batch: u64,
    games: u64,
}

pub use crate::games::dice::dice_pairs;

/// Plays every pair of `dice` as `config` says and ranks them.
pub fn run(
    dice: &[Die],
    config: &DiceConfig,
    progress: impl Fn(Progress) + Sync,
) -> Result<DiceReport, ConfigError> {
    check(dice, config.sampling)?;
    let started = Instant::now();
    let pairs = dice_pairs(dice.len());
    let play = |jobs: &[Job]| {
        progress(Progress::Planned {
            games: jobs.iter().map(|j| j.games).sum(),
        });
        run_indexed(
            jobs.len(),
            config.jobs,
            |i| {
                let Job { pair, batch, games } = jobs[i];
                let (a, b) = pairs[pair];
                let seed = derive_seed(config.seed, pair as u64);
                play_games(&dice[a], &dice[b], seed, batch * BATCH, games)
            },
            |t| progress(Progress::Played { games: t.games }),
        )
    };
    let (tallies, simulated) = match config.sampling {
        Sampling::GamesPerPair(games) => fixed(pairs.len(), games, play),
        Sampling::Precision(points) => precise(pairs.len(), points / 100.0, config.jobs, play),
    };
    let wall = started.elapsed().as_secs_f64();
    Ok(DiceReport::new(
        dice.to_vec(),
        config.clone(),
        tallies,
        simulated,
        wall,
    ))
}

fn check(dice: &[Die], sampling: Sampling) -> Result<(), ConfigError> {
    if dice.len() < 2 {
        return Err(ConfigError::TooFewDice { count: dice.len() });
    }
    match sampling {
        Sampling::GamesPerPair(games) if games == 0 || games % 2 == 1 => {
            Err(ConfigError::Games { games })
        }
        Sampling::Precision(precision) if !(MIN_PRECISION..=MAX_PRECISION).contains(&precision) => {
            Err(ConfigError::Precision { precision })
        }
        _ => Ok(()),
    }
}

/// Exactly `games` per pair, in batches; returns the tallies and the games simulated.
fn fixed(pairs: usize, games: u64, play: impl Fn(&[Job]) -> Vec<Tally>) -> (Vec<Tally>, u64) {
    let jobs: Vec<Job> = (0..pairs)
        .flat_map(|pair| {
            (0..games.div_ceil(BATCH)).map(move |batch| Job {
                pair,
                batch,
                games: BATCH.min(games - batch * BATCH),
            })
        })
        .collect();
    let mut tallies = vec![Tally::default(); pairs];
    for (job, tally) in jobs.iter().zip(play(&jobs)) {
        tallies[job.pair].merge(&tally);
    }
    (tallies, games * pairs as u64)
}

/// Batches until every pair's rates are within `precision` (a share) either side; returns the tallies
/// and the games simulated, discarded batches included.
fn precise(
    pairs: usize,
    precision: f64,
    jobs: usize,
    play: impl Fn(&[Job]) -> Vec<Tally>,
) -> (Vec<Tally>, u64) {
    let mut tallies = vec![Tally::default(); pairs];
    let mut next = vec![0u64; pairs];
    let mut done = vec![false; pairs];
    let mut simulated = 0;
    // The first round gives every thread work even when there are fewer pairs than threads.
    let mut first_round = Some(jobs.div_ceil(pairs).max(1) as u64);
    loop {
        let plan: Vec<Job> = (0..pairs)
            .filter(|&p| !done[p])
            .flat_map(|pair| {
                let ahead =
                    first_round.unwrap_or_else(|| batches_wanted(&tallies[pair], precision));
                (next[pair]..next[pair] + ahead).map(move |batch| Job {
                    pair,
                    batch,
                    games: BATCH,
                })
            })
            .collect();
        if plan.is_empty() {
            return (tallies, simulated);
        }
        first_round = None;
        simulated += plan.len() as u64 * BATCH;
        for (job, tally) in plan.iter().zip(play(&plan)) {
            if done[job.pair] {
                continue;
            }
            tallies[job.pair].merge(&tally);
            next[job.pair] = job.batch + 1;
            done[job.pair] = tallies[job.pair].widest_half_width() <= precision;
        }
    }
}

/// How many more batches a pair probably needs to reach `precision`, by the normal approximation
/// from its rates so far (at least one).
fn batches_wanted(t: &Tally, precision: f64) -> u64 {
    let n = t.games.max(1) as f64;
    let spread = [t.wins[0], t.wins[1], t.draws]
        .iter()
        .map(|&c| {
            let p = c as f64 / n;
            p * (1.0 - p)
        })
        .fold(0.0, f64::max);
    let needed = Z95 * Z95 * spread / (precision * precision);
    (((needed - n) / BATCH as f64).ceil() as u64).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two even dice and one without a 6.
    fn three_dice() -> Vec<Die> {
        vec![
            Die::standard(),
            Die::standard(),
            Die::new(vec![1, 2, 3, 4]).unwrap(),
        ]
    }

    fn config(sampling: Sampling, jobs: usize) -> DiceConfig {
        DiceConfig {
            seed: 9,
            sampling,
            jobs,
        }
    }

    fn tallies(dice: &[Die], sampling: Sampling, jobs: usize) -> Vec<Tally> {
        let r = run(dice, &config(sampling, jobs), |_| {}).unwrap();
        r.pairs.iter().map(|p| p.tally).collect()
    }

    #[test]
    fn results_do_not_depend_on_the_thread_count() {
        let dice = three_dice();
        for sampling in [Sampling::GamesPerPair(4_100), Sampling::Precision(2.0)] {
            let one = tallies(&dice, sampling, 1);
            for jobs in [2, 5] {
                let many = tallies(&dice, sampling, jobs);
                assert_eq!(one, many, "{sampling:?}, {jobs} jobs");
            }
        }
    }

    #[test]
    fn each_die_starts_exactly_half_the_games() {
        for t in tallies(&three_dice(), Sampling::GamesPerPair(4_100), 2) {
            assert_eq!((t.games, t.starts), (4_100, [2_050, 2_050]));
            assert_eq!(t.wins[0] + t.wins[1] + t.draws, 4_100);
        }
    }

    #[test]
    fn sampling_to_a_precision_meets_it_and_plays_the_same_games_as_a_fixed_count() {
        let dice = three_dice();
        let precise = tallies(&dice, Sampling::Precision(1.0), 2);
        for (pair, ((a, b), t)) in dice_pairs(3).into_iter().zip(&precise).enumerate() {
            assert!(t.widest_half_width() <= 0.01, "{t:?}");
            assert_eq!(t.games % BATCH, 0);
            let seed = derive_seed(9, pair as u64);
            assert_eq!(*t, play_games(&dice[a], &dice[b], seed, 0, t.games));
        }
        // A die without a 6 is settled after one batch; the even pair needs far more.
        let games: Vec<u64> = precise.iter().map(|t| t.games).collect();
        assert!(games[0] > 4 * BATCH && games[1] == BATCH, "{games:?}");
    }

    #[test]
    fn runs_that_cannot_be_made_are_refused() {
        use ConfigError::*;
        let refused = |dice: usize, sampling| {
            let dice = vec![Die::standard(); dice];
            run(&dice, &config(sampling, 1), |_| {}).unwrap_err()
        };
        assert_eq!(
            refused(1, Sampling::GamesPerPair(2)),
            TooFewDice { count: 1 }
        );
        assert_eq!(refused(2, Sampling::GamesPerPair(0)), Games { games: 0 });
        assert_eq!(refused(2, Sampling::GamesPerPair(7)), Games { games: 7 });
        assert_eq!(
            refused(2, Sampling::Precision(0.0)),
            Precision { precision: 0.0 }
        );
        assert_eq!(
            refused(2, Sampling::Precision(51.0)),
            Precision { precision: 51.0 }
        );
    }

    /// A report from the results of pairs (0,1), (0,2), (1,2), each written `A-B/games` (wins of the
    /// pair's first and second die; the rest drawn).
    fn report(results: &str) -> DiceReport {
        let tally = |text: &str| {
            let (wins, games) = text.split_once('/').unwrap();
            let (a, b) = wins.split_once('-').unwrap();
            let [a, b, games] = [a, b, games].map(|n| n.parse::<u64>().unwrap());
            Tally {
                games,
                wins: [a, b],
                draws: games - a - b,
                ..Tally::default()
            }
        };
        let tallies = results.split_whitespace().map(tally).collect();
        DiceReport::new(
            three_dice(),
            config(Sampling::GamesPerPair(2), 1),
            tallies,
            0,
            1.0,
        )
    }

    /// Results, the order, the head-to-head winner, reversals by draws as half wins, clear leader?
    type RankingCase<'a> = (&'a str, [usize; 3], Option<usize>, &'a [[usize; 2]], bool);

    #[test]
    fn the_ranking_names_the_head_to_head_winner_and_the_effect_of_draws() {
        #[rustfmt::skip]
        let cases: &[RankingCase] = &[
            // Die 0 beats both clearly; no draws.
            ("6000-4000/10000 9000-1000/10000 7000-3000/10000", [0, 1, 2], Some(0), &[], true),
            // A cycle: 0 beats 1, 1 beats 2, 2 beats 0. Nobody beats everyone.
            ("7000-3000/10000 3000-7000/10000 7100-2900/10000", [1, 0, 2], None, &[], false),
            // Die 1 wins less often than die 0 but draws often: half wins put it ahead.
            ("4000-3000/10000 6000-4000/10000 6000-1000/10000", [0, 1, 2], Some(0), &[[0, 1]], true),
            // Too few games to tell: 0 leads on the numbers, but neither head to head nor clearly.
            ("11-9/20 11-9/20 10-10/20", [0, 1, 2], None, &[], false),
        ];
        for (results, order, winner, reversed, clear) in cases {
            let r = report(results);
            let ranked: Vec<usize> = r.standings.iter().map(|s| s.die).collect();
            assert_eq!(ranked, order, "{results}");
            assert_eq!(r.head_to_head, *winner, "{results}");
            assert_eq!(r.draw_reversals, *reversed, "{results}");
            assert_eq!(r.clear_leader, *clear, "{results}");
        }
    }

    #[test]
    fn the_matrix_reads_row_against_column() {
        let r = report("60-30/100 90-10/100 20-70/100");
        assert_eq!(r.matrix[0], [None, Some(0.6), Some(0.9)]);
        assert_eq!(r.matrix[1], [Some(0.3), None, Some(0.2)]);
        assert_eq!(r.matrix[2], [Some(0.1), Some(0.7), None]);
        let s = &r.standings[0];
        assert_eq!(s.die, 0);
        assert!((s.mean_win - 0.75).abs() < 1e-12 && (s.mean_score - 0.775).abs() < 1e-12);
    }
}
