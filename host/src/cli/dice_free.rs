//! `botbox tournament dice --variant free`: (die, strategy) entries play Mensch ärgere Dich nicht
//! under the manufacturer's original rule, where the player chooses which piece to move.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::play::dice_free::DiceFree;
use crate::tournament::runner::{Entry, Format};

use super::run::{self, RunArgs};

/// The rules a dice tournament plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Variant {
    /// The manufacturer's original rule: the player chooses which piece moves (captures optional)
    Free,
}

/// Pit (die, strategy) entries against each other under the free variant and print standings
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  botbox tournament dice --variant free --dice examples/dice/wuerfel0.txt \\
      --players strategies/lua/dice/*.lua --games 2000
  botbox tournament dice --variant free --dice examples/dice/wuerfel0.txt --die 1 --die 2 \\
      --players strategies/lua/dice/frontmost.lua strategies/lua/dice/expectimax.lua --games 1000 --jobs 2

Every strategy plays with every die (or the dice chosen with --die): an entry is a die and a
strategy, named like D2:capture_first. Every two entries play --games games, each starting half of
them. A strategy is asked only when it has a choice (two or more legal moves); see docs/dice.md for the
observation. Games between different dice are seeded exactly as `botbox dice --seed S` seeds them, so
a strategy that always takes the frontmost move reproduces the strict ranking's results.")]
pub struct TournamentArgs {
    /// The rules: only `free` leaves a choice to strategies (the strict rule is `botbox dice`)
    #[arg(long, value_enum, default_value = "free")]
    variant: Variant,
    #[command(flatten)]
    dice: DiceArgs,
    /// The strategies (Lua, WASM, Rust crate, or a program speaking JSON Lines)
    #[arg(long, num_args = 1.., required = true, value_name = "STRATEGY")]
    players: Vec<PathBuf>,
    /// Games per pairing of entries (even: each starts half; default 20, with --sprt the most to
    /// play: 20000)
    #[arg(long, value_parser = super::at_least_one)]
    games: Option<usize>,
    #[command(flatten)]
    sprt: run::SprtArgs,
    /// round-robin: every entry against every other; gauntlet: the first entry against each other
    #[arg(long, value_enum, default_value_t = Format::RoundRobin)]
    format: Format,
    #[command(flatten)]
    run: RunArgs,
    #[command(flatten)]
    flags: run::TournamentFlags,
}

/// The dice of a dice run: `botbox match dice`, `botbox tournament dice`, `botbox watch --game dice`.
#[derive(Debug, Clone, clap::Args)]
pub struct DiceArgs {
    /// The dice file (default: the bundled examples/dice/wuerfel0.txt)
    #[arg(long, value_name = "FILE")]
    pub dice: Option<PathBuf>,
    /// Use only these dice (numbered from 1 as in the file); repeatable
    #[arg(long = "die", value_name = "N")]
    pub die: Vec<usize>,
}

/// Play dice games (the free variant) between two strategies, sides swapped every game
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  botbox match dice strategies/lua/dice/expectimax.lua strategies/lua/dice/frontmost.lua --die 1 --games 200
  botbox match dice my_bot.lua strategies/lua/dice/capture_first.lua --dice examples/dice/loaded.txt --die 2
  botbox match dice strategies/lua/dice/expectimax.lua strategies/lua/dice/frontmost.lua --die 1 --sprt elo0=0,elo1=50

Each strategy plays with each chosen die (all of the file's when no --die is given), as entries
named like D1:frontmost; every two entries play --games games, each starting half of them. The two
games of a pair roll the same dice with the sides swapped.

With --sprt elo0=E0,elo1=E1,alpha=A,beta=B (fastchess's spelling) the games are played pair by pair
until a sequential probability ratio test decides: H1, the first strategy is stronger by E1 Elo, or
H0, it is not stronger than E0; the log-likelihood ratio and its bounds show while it runs, and the
report (and --json) gives the verdict, the LLR and the pairs (docs/tournaments.md). It needs one die (--die N).")]
pub struct MatchArgs {
    /// The first strategy
    first: PathBuf,
    /// The second strategy
    second: PathBuf,
    #[command(flatten)]
    dice: DiceArgs,
    /// Games per pairing of entries (even: each starts half; default 20, with --sprt the most to
    /// play: 20000)
    #[arg(long, value_parser = super::at_least_one)]
    games: Option<usize>,
    #[command(flatten)]
    sprt: run::SprtArgs,
    #[command(flatten)]
    run: RunArgs,
}

pub fn execute_match(args: MatchArgs) -> anyhow::Result<ExitCode> {
    let games = args.sprt.games(args.games)?;
    even(games)?;
    let strategies = run::load_entries(&[args.first, args.second], &args.run.limits)?;
    let (duel, entries) = lineup(&args.dice, &strategies, args.run.seed)?;
    one_die_for_sprt(&args.sprt, &duel)?;
    let plan = run::two_players(Format::RoundRobin, games, args.run.seed);
    let flags = Default::default();
    run::run_and_report(&duel, &entries, plan, &args.run, &flags, args.sprt.sprt)?;
    Ok(ExitCode::SUCCESS)
}

/// A sequential test compares two strategies on one die: every strategy plays every chosen die, so
/// more than one die makes more than two entries.
fn one_die_for_sprt(sprt: &run::SprtArgs, duel: &DiceFree) -> anyhow::Result<()> {
    let mut dice = duel.die_of.clone();
    dice.dedup();
    anyhow::ensure!(
        sprt.sprt.is_none() || dice.len() == 1,
        "--sprt compares two strategies on one die: choose it with --die N (this run uses {} dice)",
        dice.len()
    );
    Ok(())
}

/// Every pairing plays an even number of games, each entry starting half.
fn even(games: usize) -> anyhow::Result<()> {
    anyhow::ensure!(
        games.is_multiple_of(2),
        "--games {games} is odd: every pairing plays an even number of games, each entry starting half",
    );
    Ok(())
}

pub fn execute_tournament(args: TournamentArgs) -> anyhow::Result<ExitCode> {
    let Variant::Free = args.variant;
    let games = args.sprt.games(args.games)?;
    even(games)?;
    let strategies = run::load_entries(&args.players, &args.run.limits)?;
    let (duel, entries) = lineup(&args.dice, &strategies, args.run.seed)?;
    one_die_for_sprt(&args.sprt, &duel)?;
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

/// The free variant's entries: every strategy with every chosen die (numbered from 1; all when
/// none are chosen), die-major, so every pairing's first entry has the lower die, as `botbox dice`
/// seats them.
/// The dice of `args` and how to name their file in messages.
pub fn read(args: &DiceArgs) -> anyhow::Result<(Vec<crate::games::dice::Die>, String)> {
    Ok(match &args.dice {
        Some(path) => (super::dice::read_dice(path)?, path.display().to_string()),
        None => {
            let text = crate::games::dice::bundled("wuerfel0").expect("bundled");
            let dice = crate::games::dice::file::parse(text).expect("the bundled dice parse");
            (dice, "the bundled wuerfel0".to_string())
        }
    })
}

/// Die `n` (numbered from 1) of a file of `count` dice, as an index.
pub fn die_index(n: usize, count: usize, file: &str) -> anyhow::Result<usize> {
    if n == 0 || n > count {
        anyhow::bail!("die {n}: {file} has dice 1 to {count}");
    }
    Ok(n - 1)
}

pub fn lineup(
    args: &DiceArgs,
    strategies: &[Entry],
    seed: u64,
) -> anyhow::Result<(DiceFree, Vec<Entry>)> {
    let (dice, file) = read(args)?;
    let mut chosen = Vec::new();
    for &n in &args.die {
        let d = die_index(n, dice.len(), &file)?;
        if !chosen.contains(&d) {
            chosen.push(d);
        }
    }
    if chosen.is_empty() {
        chosen = (0..dice.len()).collect();
    }
    chosen.sort();
    let mut entries = Vec::new();
    let mut die_of = Vec::new();
    for &d in &chosen {
        for s in strategies {
            entries.push(Entry {
                name: format!("D{}:{}", d + 1, s.name),
                strategy: s.strategy.clone(),
            });
            die_of.push(d);
        }
    }
    if entries.len() < 2 {
        anyhow::bail!("a tournament needs at least two entries: give more dice or more strategies");
    }
    Ok((DiceFree { dice, die_of, seed }, entries))
}
