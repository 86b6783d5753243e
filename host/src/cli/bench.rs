//! `botbox bench`: the 2048 solver benchmark.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use crate::games::contract::Variant;
use crate::tournament::runner::{Format, Plan};
use crate::tournament::versus::Versus;
use anyhow::Context;

use super::G2048Only;
use super::run::{self, RunArgs};

/// Run a strategy on the fixed 100-game 2048 benchmark and print points, milestones, scores, speed and faults
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  botbox bench 2048 strategies/lua/g2048/corner.lua
  botbox bench 2048 strategies/lua/g2048/expectimax.lua --games 20 --jobs 2
  botbox bench 2048 strategies/rust/g2048-expectimax --games 100 --seed 1 --json results.json
  botbox bench 2048 my_bot.wasm --games 20 --replay-dir replays/ && botbox replay replays/2048-0001.jsonl
  botbox bench 2048 strategies/lua/g2048/corner.lua strategies/lua/g2048/greedy.lua --games 50
  botbox bench 2048 my_bot.lua --games 1000 --shard 1/4 --json part-1.json   (then botbox merge)

A strategy is a .lua/.luau file, a .wasm or .wat module, or a bot's directory (a kit from `botbox new`,
built with its own tool: cargo, build.sh, zig build, npm run build).
Points: the sum over games of largest tile / 2048, capped at 100. The same --seed gives the same
per-game results whatever --jobs is.")]
pub struct Args {
    /// The game (only 2048 has a solver benchmark)
    #[arg(value_parser = super::g2048_only, value_name = "GAME")]
    game: G2048Only,
    /// The strategies, each playing the same series: .lua, .wasm, .wat, or a bot's directory (built)
    #[arg(required = true, value_name = "STRATEGY")]
    strategies: Vec<PathBuf>,
    /// Number of games per strategy
    #[arg(long, default_value_t = 100, value_parser = super::at_least_one)]
    games: usize,
    /// Board side (3 to 8)
    #[arg(long, default_value_t = 4)]
    size: usize,
    #[command(flatten)]
    run: RunArgs,
    #[command(flatten)]
    flags: run::TournamentFlags,
}

pub fn execute(args: Args) -> anyhow::Result<ExitCode> {
    crate::games::g2048::check_size(args.size).context("--size")?;
    let entries = run::load_entries(&args.strategies, &args.run.limits)?;
    let plan = Plan {
        format: Format::Series,
        games: args.games,
        seed: args.run.seed,
        seats: 1,
        repeat: false,
    };
    let rules = &crate::games::g2048::RULES;
    let board = Variant::named(&format!("{0}x{0}", args.size));
    let game = Versus::new(rules, vec![board], 0, args.run.seed).map_err(anyhow::Error::msg)?;
    let started = Instant::now();
    let report = run::run_and_report(&game, &entries, plan, &args.run, &args.flags, None)?;
    let wall = started.elapsed().as_secs_f64();
    let moves: u64 = report.games.iter().map(|g| u64::from(g.turns)).sum();
    eprintln!(
        "{moves} moves in {wall:.2} s: {:.0} moves per second on {} threads",
        moves as f64 / wall.max(1e-9),
        super::jobs_or_cores(args.run.out.jobs)
    );
    if !report.games.is_empty() && report.games.iter().all(|g| g.faults[0].is_some()) {
        eprintln!(
            "error: no game completed: every game faulted ({} games; see the first fault above)",
            report.games.len()
        );
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// A report's game figures table (2048: the benchmark's points and milestones), drawn as a table
/// under its title.
pub fn render_figures(f: &crate::tournament::setup::Figures) -> String {
    let mut t = super::table(f.header.clone());
    for row in &f.rows {
        t.add_row(row.clone());
    }
    super::right_align(&mut t, 1..f.header.len());
    format!("\n\n{}\n{t}", f.title)
}
