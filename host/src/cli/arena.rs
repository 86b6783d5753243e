//! What `botbox match` and `botbox tournament` share across games: the run flags, loading the entries,
//! running the schedule with a progress bar and replay files, and the standings tables.

use std::path::{Path, PathBuf};

use anyhow::Context;
use botbox::reload::{self, Watcher};
use botbox::replay::Replay;
use botbox::runtime::Strategy;
use botbox::tournament::arena::{
    self, Duel, Ending, Entry, Format, Plan, Report, Scheduled, Shard,
};
use botbox::tournament::live::Live;
use comfy_table::Table;

use super::{right_align, table};

use super::limits::LimitArgs;

/// The flags of every run of games.
#[derive(Debug, Clone, clap::Args)]
pub struct RunArgs {
    /// Seed of the run: game i is seeded from (seed, i) alone
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once (default: the number of cores); results do not depend on it
    #[arg(long, value_parser = super::at_least_one)]
    pub jobs: Option<usize>,
    /// Also write the full report (standings, pairs, every game) as JSON to this file
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write every game's replay into this directory (<game>-0001.jsonl, ...)
    #[arg(long, value_name = "DIR")]
    pub replay_dir: Option<PathBuf>,
    #[command(flatten)]
    pub limits: LimitArgs,
}

/// Loads the entries, named by their file stems (made unique where two share one).
pub fn load_entries(paths: &[PathBuf], limits: &LimitArgs) -> anyhow::Result<Vec<Entry>> {
    let strategies = paths
        .iter()
        .map(|p| super::load(p, limits).with_context(|| format!("entry {}", p.display())))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let names = arena::unique_names(&strategies);
    Ok(names
        .into_iter()
        .zip(strategies)
        .map(|(name, strategy)| Entry { name, strategy })
        .collect())
}

/// The flags only tournaments have: hot reload and shards.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct TournamentFlags {
    /// Watch the entries' files: a saved change is loaded, smoke-tested and plays from the next game
    /// on, under its own name (stem@hash); a save that does not load keeps the old version playing
    #[arg(long, conflicts_with = "shard")]
    pub watch: bool,
    /// Play only part K of N of the games (as in 3/16), for `botbox merge` to combine
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
}

/// Runs the games with a progress bar, writes replays and the JSON, prints the tables.
pub fn run_and_report<D: Duel + Clone + Send + 'static>(
    duel: &D,
    entries: &[Entry],
    format: Format,
    games_per_pairing: usize,
    run: &RunArgs,
    flags: &TournamentFlags,
) -> anyhow::Result<Report> {
    let plan = Plan {
        format,
        games: games_per_pairing,
        seed: run.seed,
    };
    let total = arena::schedule(&plan, entries.len(), duel.variants())
        .iter()
        .filter(|g| flags.shard.is_none_or(|s| s.contains(g.index)))
        .count();
    if total == 0 {
        anyhow::bail!("no games to play: a run needs at least two entries and --games 1");
    }
    let bar = super::games_bar(total as u64);
    let replay_error = std::sync::Mutex::new(None);
    let dir = run.replay_dir.as_deref();
    let on_game = |game: &Scheduled, _: &Ending, replay: Option<&Replay>| {
        if let (Some(dir), Some(replay)) = (dir, replay)
            && let Err(e) = write_replay(dir, duel.game(), game.index + 1, replay)
        {
            replay_error.lock().unwrap().get_or_insert(e);
        }
        bar.inc(1);
    };
    super::prepare_output(run.json.as_deref())?;
    super::interruptible();
    let jobs = super::jobs_or_cores(run.jobs);
    let record = dir.is_some();
    let report = if flags.watch {
        let watcher = watch_entries(duel, entries)?;
        // Messages go to standard error above the bar (`println` would drop them without a terminal).
        let say = |message: &str| bar.suspend(|| eprintln!("{message}"));
        say(&format!(
            "watching {} files: saved changes play from the next game on",
            entries.len()
        ));
        let live = Live::new(entries, watcher, say);
        arena::run_part(
            duel,
            &live,
            entries.len(),
            plan,
            None,
            jobs,
            record,
            on_game,
        )
    } else {
        arena::run_part(
            duel,
            entries,
            entries.len(),
            plan,
            flags.shard,
            jobs,
            record,
            on_game,
        )
    };
    bar.finish_and_clear();
    if let Some(e) = replay_error.into_inner().unwrap() {
        return Err(e);
    }
    super::print_report(&render(&report))?;
    if let Some(path) = &run.json {
        super::write_json(path, &report)?;
    }
    Ok(report)
}

/// Starts watching the entries' files. A new version is loaded with the entry's limits and
/// parameters and smoke-tested: one game against itself on the first variant, without a fault.
pub fn watch_entries<D: Duel + Clone + Send + 'static>(
    duel: &D,
    entries: &[Entry],
) -> anyhow::Result<Watcher> {
    // A crate directory is watched like a file but never read as one: it is not reloaded.
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
    let duel = duel.clone();
    reload::watch(&files, move |index, path| {
        let old = &templates[index].strategy;
        let strategy = Strategy::load(path, old.limits())
            .map_err(|e| e.to_string())?
            .with_params(old.params().clone());
        smoke(&duel, &strategy)?;
        Ok(strategy)
    })
    .context("watching the entries' files")
}

/// One game of `strategy` against itself on the first variant; a fault is the error.
pub fn smoke<D: Duel>(duel: &D, strategy: &Strategy) -> Result<(), String> {
    let entry = Entry {
        name: strategy.name().to_string(),
        strategy: strategy.clone(),
    };
    let game = Scheduled {
        index: 0,
        seed: 0,
        seats: [0, 1],
        variant: 0,
        round: 0,
    };
    let (ending, _) = duel.play(&game, [&entry, &entry], false);
    match ending.faults.iter().flatten().next() {
        Some(fault) => Err(format!("the smoke game against itself faulted: {fault}")),
        None => Ok(()),
    }
}

fn write_replay(dir: &Path, game: &str, number: usize, replay: &Replay) -> anyhow::Result<()> {
    let path = dir.join(format!("{game}-{number:04}.jsonl"));
    replay
        .write(&path)
        .with_context(|| format!("writing {}", path.display()))
}

/// The standings, the pairwise results when more than one pair met, and the first faults.
pub fn render(r: &Report) -> String {
    let mut out = format!(
        "{} {}: {} games, {} per pairing, seed {}, {} {}\n",
        r.game,
        match r.plan.format {
            Format::RoundRobin if r.entries.len() == 2 => "match",
            Format::RoundRobin => "round robin",
            Format::Gauntlet => "gauntlet",
        },
        r.games.len(),
        r.plan.games,
        r.plan.seed,
        r.variants.len(),
        if r.variants.len() == 1 {
            format!("variant ({})", r.variants[0])
        } else {
            format!("variants ({})", r.variants.join(", "))
        },
    );
    out.push_str(&standings(r).to_string());
    if let Some(distinct) = r.distinct_games.filter(|d| *d < r.games.len()) {
        let games = r.games.len();
        // A few repeats are chance; many mean deterministic bots replaying the same games.
        let warning = if distinct * 10 < games * 9 {
            ": the same games were played again, so the intervals above are narrower than the \
             evidence (start each pair of games from random moves with --openings)"
        } else {
            ""
        };
        out.push_str(&format!(
            "\n\n{distinct} distinct games of {games}{warning}"
        ));
    }
    if r.pairs.len() > 1 {
        out.push_str("\n\nPairs (the first entry's results against the second):\n");
        out.push_str(&pairs(r).to_string());
    }
    let mut shown = 0;
    for g in &r.games {
        for (seat, fault) in g.faults.iter().enumerate() {
            if let Some(f) = fault
                && shown < 5
            {
                if shown == 0 {
                    out.push_str("\n\nFaults (each lost its game):");
                }
                shown += 1;
                let name = &g.players[seat];
                out.push_str(&format!("\n  game {} ({name}): {f}", g.number));
            }
        }
    }
    out
}

fn elo(elo: Option<f64>, margin: Option<f64>, score: f64) -> String {
    match (elo, margin) {
        (Some(e), Some(m)) => format!("{e:+.0} ± {m:.0}"),
        (Some(e), None) => format!("{e:+.0} ± inf"),
        (None, _) if score >= 100.0 => "+inf".into(),
        (None, _) if score <= 0.0 => "-inf".into(),
        (None, _) => "-".into(),
    }
}

fn standings(r: &Report) -> Table {
    let mut t = table(vec![
        "#", "entry", "games", "wins", "draws", "losses", "score", "Elo", "faults",
    ]);
    for (i, s) in r.standings.iter().enumerate() {
        let faults = super::fault_counts(&s.faults, "-");
        t.add_row(vec![
            (i + 1).to_string(),
            s.name.clone(),
            s.games.to_string(),
            s.wins.to_string(),
            s.draws.to_string(),
            s.losses.to_string(),
            format!("{:.1}%", s.score),
            elo(s.elo, s.elo_margin, s.score),
            faults,
        ]);
    }
    right_align(&mut t, [0, 2, 3, 4, 5, 6, 7]);
    t
}

fn pairs(r: &Report) -> Table {
    let mut t = table(vec![
        "entry", "opponent", "wins", "draws", "losses", "score", "Elo",
    ]);
    for p in &r.pairs {
        t.add_row(vec![
            p.a.clone(),
            p.b.clone(),
            p.wins.to_string(),
            p.draws.to_string(),
            p.losses.to_string(),
            format!("{:.1}%", p.score),
            elo(p.elo, p.elo_margin, p.score),
        ]);
    }
    right_align(&mut t, [2, 3, 4, 5, 6]);
    t
}
