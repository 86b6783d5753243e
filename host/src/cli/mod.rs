//! The subcommands, one file each. Each has `--help` with examples and an `execute` function.

mod bench;
mod board_view;
mod check;
mod dice;
mod limits;
mod play;
mod replay;
mod schemas;

use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

#[derive(Debug, Parser)]
#[command(
    name = "botbox",
    version,
    about = "Run untrusted game strategies (Lua or WebAssembly) under limits: benchmarks, checks and replays",
    after_help = "Examples:\n  botbox bench 2048 strategies/lua/g2048/corner.lua\n  botbox check my_bot.lua --game 2048\n  botbox play 2048 --undo 5\n  botbox replay replays/game-0001.jsonl\n\nDocs: docs/lua-api.md (Lua strategies), docs/wasm-abi.md (WASM strategies)"
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    Bench(bench::Args),
    Check(check::Args),
    Dice(dice::Args),
    Play(play::PlayArgs),
    WatchPlay(play::WatchArgs),
    Replay(replay::Args),
    Schemas(schemas::Args),
}

/// The games botbox knows, as named on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GameName {
    #[value(name = "2048")]
    G2048,
}

pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Bench(args) => bench::execute(args),
        Command::Check(args) => check::execute(args),
        Command::Dice(args) => dice::execute(args),
        Command::Play(args) => play::execute_play(args),
        Command::WatchPlay(args) => play::execute_watch(args),
        Command::Replay(args) => replay::execute(args),
        Command::Schemas(args) => schemas::execute(args),
    }
}

/// Loads a strategy with the limits and parameters of the command line.
fn load(
    path: &std::path::Path,
    args: &limits::LimitArgs,
) -> anyhow::Result<botbox::runtime::Strategy> {
    use anyhow::Context;
    let strategy =
        botbox::runtime::Strategy::load(path, &args.limits()).context("cannot load strategy")?;
    Ok(strategy.with_params(args.params()))
}

/// `--jobs`, or one game thread per core when it is not given.
fn jobs_or_cores(jobs: Option<usize>) -> usize {
    jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The progress bar of a run of games (drawn only on a terminal; its length may grow as work is planned).
fn games_bar(games: u64) -> indicatif::ProgressBar {
    let template = "{spinner} {human_pos}/{human_len} games [{elapsed_precise}] {wide_bar} {per_sec} eta {eta}";
    indicatif::ProgressBar::new(games)
        .with_style(indicatif::ProgressStyle::with_template(template).expect("a valid template"))
}

/// Writes a report as pretty JSON to `path` (`--json`).
fn write_json(path: &std::path::Path, report: &impl serde::Serialize) -> anyhow::Result<()> {
    use anyhow::Context;
    let text = serde_json::to_string_pretty(report)?;
    std::fs::write(path, text + "\n").with_context(|| format!("writing {}", path.display()))
}
