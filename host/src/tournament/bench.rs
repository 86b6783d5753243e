//! The course's 2048 solver benchmark: a strategy plays a fixed series of seeded games and earns
//! `largest tile / 2048` points per game, capped at 100 in total.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde::Serialize;

use super::{run_indexed, stats};
use crate::games::derive_seed;
use crate::play::g2048::{GameRecord, play};
use crate::replay::StrategyRef;
use crate::runtime::{FaultKind, Limits, Strategy};

/// The tiles whose reach the summary reports.
pub const MILESTONES: [u32; 6] = [2048, 4096, 8192, 16384, 32768, 65536];
pub const POINTS_CAP: f64 = 100.0;

#[derive(Clone, Debug, Serialize)]
pub struct BenchConfig {
    pub games: usize,
    pub seed: u64,
    pub size: usize,
    #[serde(skip)]
    pub jobs: usize,
    #[serde(skip)]
    pub replay_dir: Option<PathBuf>,
}

impl Default for BenchConfig {
    fn default() -> Self {
        BenchConfig {
            games: 100,
            seed: 1,
            size: 4,
            jobs: 1,
            replay_dir: None,
        }
    }
}

/// Everything `botbox bench` reports, as its JSON.
#[derive(Clone, Debug, Serialize)]
pub struct BenchReport {
    pub strategy: StrategyRef,
    pub config: BenchConfig,
    pub limits: Limits,
    pub summary: Summary,
    /// Per-game results, in game order: identical for the same inputs whatever the thread count.
    pub games: Vec<GameRecord>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// Sum over games of largest tile / 2048, capped at 100.
    pub points: f64,
    /// For each milestone tile: how many games reached it.
    pub reached: BTreeMap<u32, usize>,
    pub mean_score: f64,
    pub median_score: f64,
    pub mean_moves: f64,
    pub total_moves: u64,
    pub largest_tile: u32,
    /// Games that ended with a fault, by kind.
    pub faults: BTreeMap<FaultKind, usize>,
    /// Moves per second of wall time over the whole run (all threads).
    pub moves_per_second: f64,
    /// Mean time of one decision, in microseconds.
    pub micros_per_move: f64,
    pub wall_seconds: f64,
}

/// Where game `game`'s replay goes.
pub fn replay_path(dir: &std::path::Path, game: usize) -> PathBuf {
    dir.join(format!("game-{game:04}.jsonl"))
}

/// Runs the benchmark. `done` is called after each game, for progress.
pub fn run(
    strategy: &Strategy,
    config: &BenchConfig,
    done: impl Fn(&GameRecord) + Sync,
) -> std::io::Result<BenchReport> {
    let started = Instant::now();
    let results = run_indexed(
        config.games,
        config.jobs,
        |i| {
            let number = i + 1;
            let seed = derive_seed(config.seed, i as u64);
            let (record, replay) = play(
                strategy,
                config.size,
                number,
                seed,
                config.replay_dir.is_some(),
            );
            match (replay, &config.replay_dir) {
                (Some(r), Some(dir)) => r.write(&replay_path(dir, number)).map(|()| record),
                _ => Ok(record),
            }
        },
        |r| {
            if let Ok(record) = r {
                done(record)
            }
        },
    );
    let games = results.into_iter().collect::<std::io::Result<Vec<_>>>()?;
    let summary = summarize(&games, started.elapsed());
    Ok(BenchReport {
        strategy: StrategyRef::of(strategy),
        config: config.clone(),
        limits: strategy.limits().clone(),
        summary,
        games,
    })
}

pub fn summarize(games: &[GameRecord], wall: Duration) -> Summary {
    let points: f64 = games.iter().map(|g| g.max_tile as f64 / 2048.0).sum();
    let scores: Vec<f64> = games.iter().map(|g| g.score as f64).collect();
    let moves: Vec<f64> = games.iter().map(|g| g.moves as f64).collect();
    let total_moves: u64 = games.iter().map(|g| g.moves as u64).sum();
    let thinking: Duration = games.iter().map(|g| g.time).sum();
    let mut faults = BTreeMap::new();
    for g in games {
        if let Some(f) = &g.fault {
            *faults.entry(f.kind).or_insert(0) += 1;
        }
    }
    let reached = MILESTONES
        .iter()
        .map(|&t| (t, games.iter().filter(|g| g.max_tile >= t).count()))
        .collect();
    Summary {
        points: points.min(POINTS_CAP),
        reached,
        mean_score: stats::mean(&scores),
        median_score: stats::median(&scores),
        mean_moves: stats::mean(&moves),
        total_moves,
        largest_tile: games.iter().map(|g| g.max_tile).max().unwrap_or(0),
        faults,
        moves_per_second: total_moves as f64 / wall.as_secs_f64().max(1e-9),
        micros_per_move: thinking.as_secs_f64() * 1e6 / (total_moves.max(1) as f64),
        wall_seconds: wall.as_secs_f64(),
    }
}
