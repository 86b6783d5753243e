//! `botbox match worms` and `botbox tournament worms`: Wormworld games between strategies on maps.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::games::worms::Map;
use crate::play::worms::{NamedMap, Worms};
use crate::tournament::runner::Format;
use anyhow::Context;

use super::run::{self, RunArgs};

/// Play Wormworld games between two strategies, maps rotated and sides swapped
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  botbox match worms strategies/lua/worms/greedy.lua strategies/lua/worms/random.lua --map examples/worms/arena.txt --games 20
  botbox match worms strategies/programs/worms/greedy.py strategies/lua/worms/random.lua --map examples/worms/maze.txt --live
  botbox match worms strategies/rust/worms-search strategies/lua/worms/greedy.lua --map examples/worms/ --games 200 --json match.json
  botbox match worms my_bot.lua strategies/lua/worms/greedy.lua --map examples/worms/ --openings 6 --sprt elo0=0,elo1=20

A strategy is a .lua/.luau file, a .wasm or .wat module, a Rust guest crate directory, or an executable
program speaking the text protocol of docs/protocols/worms.md. The games alternate sides (the first
strategy moves first in odd-numbered games) and change map every two games. A fault (error, timeout,
crash, garbage, illegal move) loses the game; the table counts faults by kind.

With --sprt elo0=E0,elo1=E1,alpha=A,beta=B (fastchess's spelling) the games are played pair by pair
until a sequential probability ratio test decides: H1, the first strategy is stronger by E1 Elo, or
H0, it is not stronger than E0; the log-likelihood ratio and its bounds show while it runs, and the
report (and --json) gives the verdict, the LLR and the pairs (docs/tournaments.md).")]
pub struct MatchArgs {
    /// The first strategy
    first: PathBuf,
    /// The second strategy
    second: PathBuf,
    #[command(flatten)]
    maps: MapArgs,
    /// Number of games (default 20; with --sprt, the most to play: 20000)
    #[arg(long, value_parser = super::at_least_one)]
    games: Option<usize>,
    #[command(flatten)]
    sprt: run::SprtArgs,
    /// Show every game on the board, live (plays one game at a time)
    #[arg(long)]
    live: bool,
    /// With --live: milliseconds between turns
    #[arg(long, default_value_t = 120, value_name = "MS")]
    delay: u64,
    #[command(flatten)]
    openings: super::versus::OpeningArgs,
    #[command(flatten)]
    run: RunArgs,
}

/// Play a Wormworld round robin or gauntlet and print standings with Elo and faults
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  botbox tournament worms --players strategies/lua/worms/*.lua strategies/rust/worms-search --maps examples/worms/
  botbox tournament worms --players strategies/lua/worms/*.lua strategies/programs/worms/greedy.py \\
      --maps examples/worms/ --games 40 --jobs 2 --json standings.json --replay-dir replays/
  botbox tournament worms --format gauntlet --players my_bot.lua strategies/lua/worms/*.lua --maps examples/worms/arena.txt
  botbox tournament worms --players strategies/lua/worms/greedy.lua strategies/rust/worms-search --maps examples/worms/ --openings 6

Every pairing plays --games games: the map changes every two games and the sides swap every game.
Two fixed bots play one game per map and side again and again: --openings N starts each pair of games
from N random moves, and the report counts the distinct games.
Game i is seeded from (--seed, i) alone, so the results are identical whatever --jobs is. The Elo
column is the difference to the entry's opponents its score implies, with a 95% margin.")]
pub struct TournamentArgs {
    /// The entries (at least two)
    #[arg(long, num_args = 1.., required = true, value_name = "STRATEGY")]
    players: Vec<PathBuf>,
    #[command(flatten)]
    maps: MapArgs,
    /// Games per pairing (default 20; with --sprt, the most to play: 20000)
    #[arg(long, value_parser = super::at_least_one)]
    games: Option<usize>,
    #[command(flatten)]
    sprt: run::SprtArgs,
    /// round-robin: everyone against everyone; gauntlet: the first entry against each other one
    #[arg(long, value_enum, default_value_t = Format::RoundRobin)]
    format: Format,
    #[command(flatten)]
    openings: super::versus::OpeningArgs,
    #[command(flatten)]
    run: RunArgs,
    #[command(flatten)]
    flags: run::TournamentFlags,
}

#[derive(Debug, Clone, clap::Args)]
struct MapArgs {
    /// Map files, or directories of .txt maps (format: docs/worms-maps.md)
    #[arg(long = "map", visible_alias = "maps", num_args = 1.., required = true, value_name = "MAP")]
    maps: Vec<PathBuf>,
    /// Override every map's turn limit
    #[arg(long, value_name = "N")]
    turns: Option<u32>,
}

pub fn execute_match(args: MatchArgs) -> anyhow::Result<ExitCode> {
    let maps = load_maps(&args.maps)?;
    let entries = run::load_entries(&[args.first, args.second], &args.run.limits)?;
    let duel = Worms {
        maps,
        openings: Some((args.openings.openings, args.run.seed)),
    };
    let games = args.sprt.games(args.games)?;
    if args.live {
        anyhow::ensure!(
            args.sprt.sprt.is_none(),
            "--live shows games one by one and does not run --sprt"
        );
        return super::worms_view::live_match(&duel, &entries, games, &args.run, args.delay);
    }
    let plan = run::two_players(Format::RoundRobin, games, args.run.seed);
    let flags = Default::default();
    run::run_and_report(&duel, &entries, plan, &args.run, &flags, args.sprt.sprt)?;
    Ok(ExitCode::SUCCESS)
}

pub fn execute_tournament(args: TournamentArgs) -> anyhow::Result<ExitCode> {
    if args.players.len() < 2 {
        anyhow::bail!("a tournament needs at least two --players");
    }
    let maps = load_maps(&args.maps)?;
    let entries = run::load_entries(&args.players, &args.run.limits)?;
    let duel = Worms {
        maps,
        openings: Some((args.openings.openings, args.run.seed)),
    };
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

/// Reads the maps: files as given, directories as their `.txt` files in name order.
fn load_maps(args: &MapArgs) -> anyhow::Result<Vec<NamedMap>> {
    load_maps_from(&args.maps, args.turns)
}

/// Reads the maps at `paths` (files, or directories of `.txt` maps), with `turns` overriding their
/// turn limits.
pub fn load_maps_from(paths: &[PathBuf], turns: Option<u32>) -> anyhow::Result<Vec<NamedMap>> {
    if paths.is_empty() {
        anyhow::bail!("no maps: give at least one map file or directory");
    }
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(path)
                .with_context(|| format!("reading {}", path.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.extension().is_some_and(|e| e == "txt"))
                .collect();
            found.sort();
            if found.is_empty() {
                anyhow::bail!("{}: no .txt maps in this directory", path.display());
            }
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    files
        .iter()
        .map(|file| {
            let map = read_map(file)?;
            let map = match turns {
                Some(turns) => map.with_turns(turns),
                None => map,
            };
            let name = file.file_stem().map_or_else(
                || file.display().to_string(),
                |s| s.to_string_lossy().into(),
            );
            Ok(NamedMap { name, map })
        })
        .collect()
}

/// Reads one map; an error names the file, line and column.
pub fn read_map(file: &Path) -> anyhow::Result<Map> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    Map::parse(&text)
        .map_err(|e| anyhow::anyhow!("{}:{}:{}: {}", file.display(), e.line, e.column, e.problem))
}
