//! `botbox match <game>` and `botbox tournament <game>` for a two-player game that has no commands of
//! its own: the registry's game played through the contract (`tournament::versus`), with everything
//! the arena runner gives (round robin or gauntlet, Elo, faults, `--jobs`, `--shard`, replays).

use std::path::PathBuf;
use std::process::ExitCode;

use crate::games::contract::{Rules, Variant};
use crate::games::registry;
use crate::tournament::runner::Format;
use crate::tournament::versus::Versus;
use anyhow::Context;

use super::run::{self, RunArgs};

/// Play games between two strategies, sides swapped every game
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  botbox match connect4 strategies/rust/connect4-alphabeta strategies/lua/connect4/center.lua --games 20
  botbox match connect4 my_bot.lua strategies/lua/connect4/random.lua --variant 8x7-4 --variant standard
  botbox match connect4 strategies/rust/connect4-alphabeta strategies/lua/connect4/center.lua --games 200 --openings 4
  botbox match dice strategies/lua/dice/expectimax.lua strategies/lua/dice/frontmost.lua --variant loaded --games 200
  botbox match connect4 my_bot.lua strategies/lua/connect4/center.lua --openings 4 --sprt elo0=0,elo1=20

The games alternate sides (the first strategy moves first in odd-numbered games) and rotate the
variants every two games. Deterministic bots play the same game again and again: --openings N starts
each pair of games from N random moves, and the report says how many distinct games were played. A fault (error, budget, garbage, illegal move) loses the game.
`botbox games` lists the variants.

With --sprt elo0=E0,elo1=E1,alpha=A,beta=B (fastchess's spelling) the games are played pair by pair
until a sequential probability ratio test decides: H1, the first strategy is stronger by E1 Elo, or
H0, it is not stronger than E0; the log-likelihood ratio and its bounds show while it runs, and the
report (and --json) gives the verdict, the LLR and the pairs (docs/tournaments.md).")]
pub struct MatchArgs {
    /// The first strategy
    first: PathBuf,
    /// The second strategy
    second: PathBuf,
    /// Variants by name, or variant files (default: the game's first variant)
    #[arg(long = "variant", value_name = "VARIANT")]
    variants: Vec<String>,
    /// Number of games (default 20; with --sprt, the most to play: 20000)
    #[arg(long, value_parser = super::at_least_one)]
    games: Option<usize>,
    #[command(flatten)]
    sprt: run::SprtArgs,
    #[command(flatten)]
    openings: OpeningArgs,
    #[command(flatten)]
    run: RunArgs,
}

/// Play a round robin or gauntlet and print standings with Elo and faults
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  botbox tournament connect4 --players strategies/lua/connect4/*.lua strategies/rust/connect4-alphabeta
  botbox tournament connect4 --format gauntlet --players my_bot.lua strategies/lua/connect4/*.lua \\
      --games 40 --jobs 2 --json standings.json --replay-dir replays/
  botbox tournament connect4 --players my_bot.lua strategies/lua/connect4/center.lua --openings 4 \\
      --sprt elo0=0,elo1=20,alpha=0.05,beta=0.05 --games 4000

Every pairing plays --games games, sides swapped every game and variants rotated every two. Game i
is seeded from (--seed, i) alone, so the results are identical whatever --jobs is. --sprt takes
exactly two entries and stops at the test's verdict, the same whatever --jobs is.")]
pub struct TournamentArgs {
    /// The entries (at least two)
    #[arg(long, num_args = 1.., required = true, value_name = "STRATEGY")]
    players: Vec<PathBuf>,
    /// Variants by name, or variant files (default: the game's first variant)
    #[arg(long = "variant", value_name = "VARIANT")]
    variants: Vec<String>,
    /// Games per pairing (default 20; with --sprt, the most to play: 20000)
    #[arg(long, value_parser = super::at_least_one)]
    games: Option<usize>,
    #[command(flatten)]
    sprt: run::SprtArgs,
    /// round-robin: everyone against everyone; gauntlet: the first entry against each other one
    #[arg(long, value_enum, default_value_t = Format::RoundRobin)]
    format: Format,
    #[command(flatten)]
    openings: OpeningArgs,
    #[command(flatten)]
    run: RunArgs,
    #[command(flatten)]
    flags: run::TournamentFlags,
}

/// Start variety for deterministic games.
#[derive(Debug, Clone, clap::Args)]
pub(super) struct OpeningArgs {
    /// Random opening moves (plies) before the bots play, drawn from --seed and the same for both
    /// games of a pair (sides swapped), as an opening book gives; 0 plays every game from the start
    #[arg(long, default_value_t = 0, value_name = "PLIES")]
    pub(super) openings: u32,
}

pub fn execute_match(game: &str, args: MatchArgs) -> anyhow::Result<ExitCode> {
    let duel = duel(game, &args.variants, args.openings.openings, args.run.seed)?;
    let entries = run::load_entries(&[args.first, args.second], &args.run.limits)?;
    let games = args.sprt.games(args.games)?;
    let plan = run::two_players(Format::RoundRobin, games, args.run.seed);
    let flags = Default::default();
    run::run_and_report(&duel, &entries, plan, &args.run, &flags, args.sprt.sprt)?;
    Ok(ExitCode::SUCCESS)
}

pub fn execute_tournament(game: &str, args: TournamentArgs) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(
        args.players.len() >= 2,
        "a tournament needs at least two --players"
    );
    let duel = duel(game, &args.variants, args.openings.openings, args.run.seed)?;
    let entries = run::load_entries(&args.players, &args.run.limits)?;
    let games = args.sprt.games(args.games)?;
    let plan = run::two_players(args.format, games, args.run.seed);
    run::run_and_report(
        &duel,
        &entries,
        plan,
        &args.run,
        &args.flags,
        args.sprt.sprt,
    )?;
    Ok(ExitCode::SUCCESS)
}

/// The registered game over the variants given (names or files), or its default.
pub fn duel(game: &str, given: &[String], openings: u32, seed: u64) -> anyhow::Result<Versus> {
    let rules: &'static dyn Rules = registry::find(game).map_err(anyhow::Error::msg)?;
    let variants = if given.is_empty() {
        vec![registry::default_variant(rules)]
    } else {
        given
            .iter()
            .map(|v| variant(v))
            .collect::<anyhow::Result<_>>()?
    };
    Versus::new(rules, variants, openings, seed).map_err(|e| anyhow::anyhow!("{game}: {e}"))
}

/// A variant by name, or read from a file when one of that name exists.
pub fn variant(given: &str) -> anyhow::Result<Variant> {
    let path = std::path::Path::new(given);
    if !path.is_file() {
        return Ok(Variant::named(given));
    }
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let name = path
        .file_stem()
        .map_or_else(|| given.to_string(), |s| s.to_string_lossy().into_owned());
    Ok(Variant {
        name,
        text: Some(text),
    })
}
