//! `botbox bench`: the 2048 solver benchmark.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use botbox::tournament::bench::{self, BenchConfig, BenchReport, MILESTONES, POINTS_CAP};
use comfy_table::{Table, presets::UTF8_FULL_CONDENSED};

use super::GameName;
use super::limits::LimitArgs;

/// Run a strategy on the fixed 100-game 2048 benchmark and print points, milestones, scores, speed and faults
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  botbox bench 2048 strategies/lua/g2048/corner.lua
  botbox bench 2048 strategies/lua/g2048/expectimax.lua --games 20 --jobs 2
  botbox bench 2048 strategies/rust/g2048-expectimax --games 100 --seed 1 --json results.json
  botbox bench 2048 my_bot.wasm --games 20 --replay-dir replays/ && botbox replay replays/game-0001.jsonl

A strategy is a .lua/.luau file, a .wasm or .wat module, or a Rust guest crate directory (built with cargo).
Points: the sum over games of largest tile / 2048, capped at 100. The same --seed gives the same
per-game results whatever --jobs is.")]
pub struct Args {
    /// The game (only 2048 has a solver benchmark)
    game: GameName,
    /// The strategy: .lua, .wasm, .wat, or a Rust guest crate directory
    strategy: PathBuf,
    /// Number of games
    #[arg(long, default_value_t = 100, value_parser = super::at_least_one)]
    games: usize,
    /// Seed of the series: game i is seeded from (seed, i)
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Board side (3 to 8)
    #[arg(long, default_value_t = 4)]
    size: usize,
    /// Games played at once (default: the number of cores)
    #[arg(long, value_parser = super::at_least_one)]
    jobs: Option<usize>,
    /// Also write the full report as JSON to this file
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Write every game's replay into this directory (game-0001.jsonl, ...)
    #[arg(long, value_name = "DIR")]
    replay_dir: Option<PathBuf>,
    #[command(flatten)]
    limits: LimitArgs,
}

pub fn execute(args: Args) -> anyhow::Result<ExitCode> {
    botbox::games::g2048::check_size(args.size).context("--size")?;
    super::prepare_output(args.json.as_deref())?;
    super::interruptible();
    let strategy = super::load(&args.strategy, &args.limits)?;
    let jobs = super::jobs_or_cores(args.jobs);
    let config = BenchConfig {
        games: args.games,
        seed: args.seed,
        size: args.size,
        jobs,
        replay_dir: args.replay_dir,
    };
    let bar = super::games_bar(args.games as u64);
    let report = bench::run(&strategy, &config, |_| bar.inc(1)).context("writing replays")?;
    bar.finish_and_clear();
    super::print_report(&render(&report))?;
    if let Some(path) = &args.json {
        super::write_json(path, &report)?;
    }
    if !report.games.is_empty() && report.games.iter().all(|g| g.fault.is_some()) {
        eprintln!(
            "error: no game completed: the strategy faulted in all {} games (see the first fault above)",
            report.games.len()
        );
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

fn percent(count: usize, of: usize) -> String {
    format!("{:.0}% ({count})", 100.0 * count as f64 / of.max(1) as f64)
}

/// The report as a two-column table a person reads top to bottom.
fn render(r: &BenchReport) -> String {
    let s = &r.summary;
    let n = r.games.len();
    let mut t = Table::new();
    t.load_style(UTF8_FULL_CONDENSED);
    t.set_header(vec![
        "2048 benchmark".to_string(),
        format!("{} ({})", r.strategy.name, r.strategy.kind),
    ]);
    t.add_row(vec![
        "games".into(),
        format!(
            "{n} (seed {}, {}x{})",
            r.config.seed, r.config.size, r.config.size
        ),
    ]);
    t.add_row(vec![
        "points".into(),
        format!("{:.2} / {POINTS_CAP}", s.points),
    ]);
    for tile in MILESTONES {
        t.add_row(vec![
            format!("reached {tile}"),
            percent(s.reached[&tile], n),
        ]);
    }
    t.add_row(vec!["largest tile".into(), s.largest_tile.to_string()]);
    t.add_row(vec![
        "score mean / median".into(),
        format!("{:.0} / {:.0}", s.mean_score, s.median_score),
    ]);
    t.add_row(vec![
        "moves per game".into(),
        format!("{:.1}", s.mean_moves),
    ]);
    t.add_row(vec![
        "moves per second".into(),
        format!("{:.0}", s.moves_per_second),
    ]);
    t.add_row(vec![
        "time per move".into(),
        format!("{:.1} µs", s.micros_per_move),
    ]);
    let faults = super::fault_counts(&s.faults, "none");
    t.add_row(vec!["faults".into(), faults]);
    t.add_row(vec!["wall time".into(), format!("{:.2} s", s.wall_seconds)]);
    let mut out = t.to_string();
    if let Some(g) = r.games.iter().find(|g| g.fault.is_some()) {
        let f = g.fault.as_ref().expect("found by its fault");
        out.push_str(&format!("\nfirst fault, game {}: {f}", g.game));
    }
    out
}
