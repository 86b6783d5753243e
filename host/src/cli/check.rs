//! `botbox check`: load a strategy, validate it, smoke-run it, and show the limits in force.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use botbox::games::derive_seed;
use botbox::play::g2048::play;
use botbox::runtime::Strategy;

use super::GameName;
use super::limits::LimitArgs;

/// Load a strategy, check it against the game's contract, play a smoke game and print its log and limits
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  botbox check strategies/lua/g2048/greedy.lua --game 2048
  botbox check my_bot.wasm --game 2048 --fuel 500000000
  botbox check strategies/rust/g2048-first-legal --game 2048

Exits with status 1 when the strategy faults, so it fits in a pre-commit hook or CI.")]
pub struct Args {
    /// The strategy: .lua, .wasm, .wat, or a Rust guest crate directory
    strategy: PathBuf,
    /// The game whose contract to check
    #[arg(long)]
    game: GameName,
    /// Seed of the smoke game
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    limits: LimitArgs,
}

pub fn execute(args: Args) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let strategy = super::load(&args.strategy, &args.limits)?;
    describe(&strategy, started.elapsed().as_secs_f64() * 1000.0);
    let GameName::G2048 = args.game;
    let started = Instant::now();
    let (record, replay) = play(&strategy, 4, 1, derive_seed(args.seed, 0), true);
    let wall = started.elapsed();
    println!(
        "smoke game  seed {}: {} moves, score {}, largest tile {} in {:.2} s ({:.1} µs per decision)",
        args.seed,
        record.moves,
        record.score,
        record.max_tile,
        wall.as_secs_f64(),
        record.time.as_secs_f64() * 1e6 / record.moves.max(1) as f64
    );
    let log = replay
        .and_then(|r| r.logs.into_iter().next())
        .unwrap_or_default();
    if !log.is_empty() {
        println!("log         {} lines:", log.len());
        for line in log.iter().take(20) {
            println!("  | {line}");
        }
    }
    match record.fault {
        None => {
            println!("result      ok");
            Ok(ExitCode::SUCCESS)
        }
        Some(fault) => {
            println!("result      FAULT after {} moves: {fault}", record.moves);
            Ok(ExitCode::from(1))
        }
    }
}

fn describe(s: &Strategy, load_ms: f64) {
    println!("strategy    {} ({})", s.path().display(), s.kind());
    println!("sha256      {}", s.hash());
    println!("loaded in   {load_ms:.1} ms");
    println!("limits      {}", s.limits());
}
