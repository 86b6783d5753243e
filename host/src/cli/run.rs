//! What every run of games shares (`bench`, `match`, `tournament`, tournament files): the run flags,
//! loading the entries, running the schedule on the one runner with a progress bar and replay files,
//! hot reload, shards, and the report's tables for every kind of game.

use std::path::{Path, PathBuf};

use crate::reload::{self, Watcher};
use crate::replay::Replay;
use crate::runtime::Strategy;
use crate::tournament::live::Live;
use crate::tournament::runner::{
    self, Ending, Entry, Plan, Playable, Report, Run, Scheduled, Shard,
};
use crate::tournament::sprt::{Sequential, Sprt};
use anyhow::Context;

use super::limits::LimitArgs;

mod tables;
pub use tables::render;

/// The flags of every run of games.
#[derive(Debug, Clone, clap::Args)]
pub struct RunArgs {
    /// Seed of the run: game i is seeded from (seed, i) alone
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub out: Outputs,
    #[command(flatten)]
    pub limits: LimitArgs,
}

/// Where a run's work goes: its threads, its report and its replays (a tournament file's `jobs` and
/// `[output]` give the defaults the command line overrides).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct Outputs {
    /// Games played at once (default: a tournament file's `jobs`, else the number of cores);
    /// results do not depend on it
    #[arg(long, value_parser = super::at_least_one)]
    pub jobs: Option<usize>,
    /// Also write the full report (standings, pairs, every game) as JSON to this file
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write every game's replay into this directory (<game>-0001.jsonl, ...), with an index of
    /// them (<game>-index.tsv: players, winner, end, faults)
    #[arg(long, value_name = "DIR")]
    pub replay_dir: Option<PathBuf>,
}

/// Loads the entries, named by their file stems (made unique where two share one).
pub fn load_entries(paths: &[PathBuf], limits: &LimitArgs) -> anyhow::Result<Vec<Entry>> {
    let strategies = paths
        .iter()
        .map(|p| super::load(p, limits).with_context(|| format!("entry {}", p.display())))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let names = runner::unique_names(&strategies);
    Ok(names
        .into_iter()
        .zip(strategies)
        .map(|(name, strategy)| Entry { name, strategy })
        .collect())
}

/// The flags only tournaments have: hot reload and shards.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct TournamentFlags {
    /// Hot reload: a saved change to an entry's file is loaded, smoke-tested and plays from the next
    /// game on, under its own name (stem@hash); a save that does not load keeps the old version
    #[arg(long, conflicts_with = "shard")]
    pub reload: bool,
    /// Play only part K of N of the games (as in 3/16), for `botbox merge` to combine
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
}

/// A sequential test on a two-player run of two entries (`match`, `tournament`).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct SprtArgs {
    /// Sequential test of the first strategy against the second, spelled as fastchess does
    /// (alpha and beta default to 0.05; model=normalized, the default, or logistic): pairs of
    /// games, sides swapped, until the log-likelihood ratio crosses a bound; --games is then the
    /// most to play (default 20000)
    #[arg(long, value_name = "elo0=E0,elo1=E1,alpha=A,beta=B")]
    pub sprt: Option<Sprt>,
}

/// The most games an SPRT plays when --games is not given.
pub const SPRT_CAP: usize = 20_000;

impl SprtArgs {
    /// The games to play: `given`, else 20 (or [`SPRT_CAP`] with --sprt, which plays pairs: an
    /// even number).
    pub fn games(&self, given: Option<usize>) -> anyhow::Result<usize> {
        match (given, self.sprt) {
            (None, None) => Ok(20),
            (None, Some(_)) => Ok(SPRT_CAP),
            (Some(n), Some(_)) if n % 2 == 1 => anyhow::bail!(
                "--games {n} is odd: --sprt plays games in pairs with the sides swapped"
            ),
            (Some(n), _) => Ok(n),
        }
    }
}

/// Runs `plan` with a progress bar, writes replays and the JSON, prints the tables under `title`
/// (`worms round robin`, say).
pub fn run_and_report<P: Playable + Clone + Send + 'static>(
    game: &P,
    entries: &[Entry],
    plan: Plan,
    run: &RunArgs,
    flags: &TournamentFlags,
    sprt: Option<Sprt>,
) -> anyhow::Result<Report> {
    if let Some(test) = &sprt {
        check_sprt(test, game.seats(), &plan, entries.len(), flags)?;
    }
    plan.check(game.game(), entries.len())
        .map_err(|e| match e {
            runner::PlanError::TooFew { .. } => anyhow::anyhow!(
                "{e}: give more entries, or let an entry sit at a table more than once (--repeat)"
            ),
            e => e.into(),
        })?;
    let jobs = super::jobs_or_cores(run.out.jobs);
    let dir = run.out.replay_dir.as_deref();
    let spec = Run {
        plan,
        shard: flags.shard,
        jobs,
        record: dir.is_some(),
    };
    let total = spec.count(entries.len());
    if total == 0 {
        anyhow::bail!("no games to play in shard {:?}", flags.shard);
    }
    let bar = match sprt {
        Some(_) => super::sprt_bar(total as u64),
        None => super::games_bar(total as u64),
    };
    let replay_error = std::sync::Mutex::new(None);
    let on_game = |scheduled: &Scheduled, _: &Ending, replay: Option<&Replay>| {
        if let (Some(dir), Some(replay)) = (dir, replay)
            && let Err(e) = write_replay(dir, game.game(), scheduled.index + 1, replay)
        {
            replay_error
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get_or_insert(e);
        }
        bar.inc(1);
    };
    super::prepare_output(run.out.json.as_deref())?;
    super::interruptible();
    let mut report = if flags.reload {
        let watcher = watch_entries(game, entries)?;
        let say = |message: &str| bar.suspend(|| eprintln!("{message}"));
        say(&format!(
            "watching {} files: saved changes play from the next game on",
            entries.len()
        ));
        let live = Live::new(entries, watcher, say);
        runner::run(game, &live, entries.len(), spec, on_game)?
    } else if let Some(test) = sprt {
        let mut sequential = Sequential::new(test, &entries[0].name, &entries[1].name);
        bar.set_message(sequential.report().llr_line());
        let until = |record: &runner::GameRecord| {
            let decided = sequential.push(record).is_some();
            bar.set_message(sequential.report().llr_line());
            decided
        };
        runner::run_until(game, entries, entries.len(), spec, on_game, until)?
    } else {
        runner::run(game, entries, entries.len(), spec, on_game)?
    };
    if let Some(test) = sprt {
        // From the records alone, as every summary is.
        report.sprt = Some(Sequential::of(
            test,
            &entries[0].name,
            &entries[1].name,
            &report.games,
        ));
        if let Some(dir) = dir {
            drop_replays_after(dir, game.game(), report.games.len());
        }
    }
    bar.finish_and_clear();
    if let Some(e) = replay_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    if let Some(dir) = dir {
        write_index(dir, game.game(), &report, flags.shard)?;
    }
    super::print_report(&render(&report))?;
    if let Some(path) = &run.out.json {
        super::write_json(path, &report)?;
    }
    Ok(report)
}

/// Refuses a sequential test on a run it cannot judge.
fn check_sprt(
    test: &Sprt,
    seats: usize,
    plan: &Plan,
    entries: usize,
    flags: &TournamentFlags,
) -> anyhow::Result<()> {
    anyhow::ensure!(
        seats == 2,
        "--sprt compares two players, and this game seats {seats}"
    );
    anyhow::ensure!(
        entries == 2,
        "--sprt {test} tests one strategy against another: it needs exactly two entries, and this \
         run has {entries} (for a candidate against a field, test it against each opponent in turn)"
    );
    anyhow::ensure!(
        flags.shard.is_none(),
        "--sprt decides where to stop from the games in order, so it cannot be played in --shard parts"
    );
    anyhow::ensure!(
        !flags.reload,
        "--sprt tests two fixed versions: it cannot be combined with --reload (`botbox watch` tests each saved version)"
    );
    anyhow::ensure!(
        plan.games.is_multiple_of(2),
        "--games {} is odd: --sprt plays games in pairs with the sides swapped",
        plan.games
    );
    Ok(())
}

/// Removes the replays of games played past a sequential test's verdict (under way when it came):
/// they are not in the report. Games are started in order, so they are numbered from `kept + 1` on.
fn drop_replays_after(dir: &Path, game: &str, kept: usize) {
    let mut number = kept + 1;
    while std::fs::remove_file(replay_path(dir, game, number)).is_ok() {
        number += 1;
    }
}

/// Watches the entries' files: each saved version is loaded with the entry's limits and
/// parameters and smoke-tested ([`smoke`]), on the watcher's loader thread.
pub fn watch_entries<P: Playable + Clone + Send + 'static>(
    game: &P,
    entries: &[Entry],
) -> anyhow::Result<Watcher> {
    let files: Vec<(PathBuf, String)> = entries
        .iter()
        .map(|e| {
            (
                e.strategy.path().to_path_buf(),
                e.strategy.hash().to_string(),
            )
        })
        .collect();
    let templates: Vec<Entry> = entries.to_vec();
    let game = game.clone();
    reload::watch(&files, move |index, path| {
        let old = &templates[index].strategy;
        let strategy = crate::hosted::load(path, old.limits())
            .map_err(|e| e.to_string())?
            .with_params(old.params().clone());
        smoke(&game, &strategy)?;
        Ok(strategy)
    })
    .context("watching the entries' files")
}

/// One game of `strategy` in every seat, on the first variant: an error if it faults.
pub fn smoke<P: Playable + ?Sized>(game: &P, strategy: &Strategy) -> Result<(), String> {
    let entry = Entry {
        name: strategy.name().to_string(),
        strategy: strategy.clone(),
    };
    let seats = game.seats();
    let scheduled = Scheduled {
        index: 0,
        seed: 0,
        seats: vec![0; seats],
        variant: 0,
        round: 0,
    };
    let players = vec![&entry; seats];
    let (ending, _) = game.play(&scheduled, &players, false);
    match ending.faults.iter().flatten().next() {
        Some(fault) if seats > 1 => Err(format!("the smoke game against itself faulted: {fault}")),
        Some(fault) => Err(format!("the smoke game faulted: {fault}")),
        None => Ok(()),
    }
}

/// The index of a run's replays in `dir`, beside them: `<game>-index.tsv` (`<game>-index-K-of-N.tsv`
/// for shard K of N), a line per game with its file, variant, players in seat order, winner (a solo
/// game's score), how it ended, its turns and its faults, so the game an entry lost or faulted in
/// is found with `grep`.
fn write_index(
    dir: &Path,
    game: &str,
    report: &Report,
    shard: Option<Shard>,
) -> anyhow::Result<()> {
    let name = match shard {
        Some(s) => format!("{game}-index-{}-of-{}.tsv", s.index, s.count),
        None => format!("{game}-index.tsv"),
    };
    // A tab or a line break in a name would break the table.
    let cell = |text: &str| text.replace(['\t', '\n', '\r'], " ");
    let mut text = String::from("file\tvariant\tplayers\twinner\tended\tturns\tfaults\n");
    for g in &report.games {
        let file = replay_path(Path::new(""), game, g.number);
        let faults: Vec<String> = g
            .faults
            .iter()
            .enumerate()
            .filter_map(|(seat, f)| {
                f.as_ref()
                    .map(|f| format!("seat {seat}: {}", f.kind.name()))
            })
            .collect();
        let players: Vec<String> = g.players.iter().map(|p| cell(p)).collect();
        text.push_str(&format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
            file.display(),
            cell(&g.variant),
            players.join(", "),
            match (&g.winner, g.figures.score) {
                (Some(winner), _) => cell(winner),
                (None, Some(score)) if g.players.len() == 1 => format!("score {score}"),
                (None, _) => "-".to_string(),
            },
            cell(&g.reason),
            g.turns,
            if faults.is_empty() {
                "-".to_string()
            } else {
                faults.join(", ")
            },
        ));
    }
    let path = dir.join(name);
    std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))
}

/// Where game `number`'s replay goes in `dir`: `<game>-0001.jsonl` for every game.
pub fn replay_path(dir: &Path, game: &str, number: usize) -> PathBuf {
    dir.join(format!("{game}-{number:04}.jsonl"))
}

fn write_replay(dir: &Path, game: &str, number: usize, replay: &Replay) -> anyhow::Result<()> {
    let path = replay_path(dir, game, number);
    replay
        .write(&path)
        .with_context(|| format!("writing {}", path.display()))
}
