//! `botbox match bs` and `botbox tournament bs`: BS tables of four, seated from a pool of strategies,
//! scored by wins per game played with 95% intervals, seat effects and faults.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::play::bs::Bs;
use crate::tournament::runner::{Format, Plan};

use super::run::{self, RunArgs};

/// Play BS games between four strategies, seated in a new random order every game
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  botbox match bs strategies/lua/bs/player1.lua strategies/lua/bs/player4.lua \\
      strategies/lua/bs/calculating_liar.lua my_bot.lua --games 1000
  botbox match bs my_bot.lua strategies/lua/bs/player1.lua strategies/lua/bs/player1.lua \\
      strategies/lua/bs/player1.lua --games 200 --replay-dir replays/

The same four strategies play every game (a file given twice plays twice, as name-2); the seats
are shuffled every game, seat 0 moves first. A strategy answers play(obs) and call(obs) and may
have observe(event); see docs/bs.md. A fault (an illegal play, an error, a timeout, garbage...) is a
loss for the faulting strategy and voids the game for the other three.")]
pub struct MatchArgs {
    /// The four strategies (Lua, WASM, a Rust crate, or a program speaking JSON Lines)
    #[arg(num_args = 4, required = true, value_name = "STRATEGY")]
    players: Vec<PathBuf>,
    /// Number of games
    #[arg(long, default_value_t = 100, value_parser = super::at_least_one)]
    games: usize,
    #[command(flatten)]
    run: RunArgs,
}

/// Play a BS tournament: every game seats four entries drawn at random from the pool
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  botbox tournament bs --players strategies/lua/bs/*.lua --games 10000 --jobs 2 --json bs.json
  botbox tournament bs --players my_bot.lua strategies/lua/bs/player1.lua --repeat --games 2000
  botbox tournament bs --players strategies/lua/bs/*.lua my_bot.wasm --games 500 \\
      --replay-dir replays/
  botbox tournament bs --players strategies/lua/bs/*.lua --games 100000 --shard 2/8 --json part-2.json
  botbox tournament bs --players my_bot.lua strategies/lua/bs/*.lua --games 100000 --reload

Each game draws four distinct entries from the pool (with --repeat, any four, so one bot can face
copies of another) and seats them in a random order. Game i and its seating are seeded from
(--seed, i) alone, so the results are identical whatever --jobs is. An entry's score is the share
of its games it won, with a 95% Wilson interval; the seat columns show its win rate from each seat.
A fault is a loss for the faulting entry and voids the game for the others (column void).")]
pub struct TournamentArgs {
    /// The pool (at least four entries, or one with --repeat)
    #[arg(long, num_args = 1.., required = true, value_name = "STRATEGY")]
    players: Vec<PathBuf>,
    /// Number of games
    #[arg(long, default_value_t = 1000, value_parser = super::at_least_one)]
    games: usize,
    /// Allow an entry to sit at a table more than once
    #[arg(long)]
    repeat: bool,
    #[command(flatten)]
    run: RunArgs,
    #[command(flatten)]
    flags: run::TournamentFlags,
}

pub fn execute_match(args: MatchArgs) -> anyhow::Result<ExitCode> {
    let entries = run::load_entries(&args.players, &args.run.limits)?;
    let plan = plan(args.games, false, args.run.seed);
    run::run_and_report(&Bs, &entries, plan, &args.run, &Default::default(), None)?;
    Ok(ExitCode::SUCCESS)
}

pub fn execute_tournament(args: TournamentArgs) -> anyhow::Result<ExitCode> {
    let entries = run::load_entries(&args.players, &args.run.limits)?;
    let plan = plan(args.games, args.repeat, args.run.seed);
    run::run_and_report(&Bs, &entries, plan, &args.run, &args.flags, None)?;
    Ok(ExitCode::SUCCESS)
}

/// `games` BS tables of four drawn from the entries.
pub fn plan(games: usize, repeat: bool, seed: u64) -> Plan {
    Plan {
        format: Format::Pool,
        games,
        seed,
        seats: crate::games::bs::PLAYERS,
        repeat,
    }
}
