//! `botbox match <game>` and `botbox tournament <game>`: every registered game, one set of flags.
//!
//! The games are subcommands made from the registry ([`GameCommand`]), so a new game is playable
//! (and listed in `--help`) the moment it is registered. The flags that set a game up (variants,
//! maps, dice, openings) are shared; a game refuses the ones it does not read ([`super::hosted`]).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::builder::StyledStr;
use clap::error::ErrorKind;
use clap::{ArgMatches, Command, FromArgMatches};

use crate::games::contract::Rules;
use crate::games::registry;
use crate::tournament::runner::{Entry, Format, Playable};

use super::run::{self, RunArgs};
use crate::tournament::setup::{self, Options};

/// A registered game with the flags of one command: `botbox match worms ...`.
pub struct GameCommand<A> {
    pub game: &'static dyn Rules,
    pub args: A,
}

impl<A: std::fmt::Debug> std::fmt::Debug for GameCommand<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameCommand")
            .field("game", &self.game.name())
            .field("args", &self.args)
            .finish()
    }
}

/// What a command says of itself for one game: its one-line help and its examples.
pub trait Describe {
    fn about(rules: &dyn Rules) -> String;
    fn examples(rules: &dyn Rules) -> String;
}

impl<A: clap::Args> FromArgMatches for GameCommand<A> {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let Some((name, sub)) = matches.subcommand() else {
            return Err(clap::Error::raw(
                ErrorKind::MissingSubcommand,
                format!("give a game: {}", registry::names().join(", ")),
            ));
        };
        let game =
            registry::find(name).map_err(|e| clap::Error::raw(ErrorKind::InvalidSubcommand, e))?;
        Ok(GameCommand {
            game,
            args: A::from_arg_matches(sub)?,
        })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl<A: clap::Args + Describe> clap::Subcommand for GameCommand<A> {
    fn augment_subcommands(cmd: Command) -> Command {
        registry::all().into_iter().fold(cmd, |cmd, rules| {
            // The game's own words go on after the flags, over the argument struct's doc.
            cmd.subcommand(
                A::augment_args(Command::new(rules.name()))
                    .about(StyledStr::from(A::about(rules)))
                    .after_help(StyledStr::from(A::examples(rules))),
            )
        })
    }

    fn augment_subcommands_for_update(cmd: Command) -> Command {
        Self::augment_subcommands(cmd)
    }

    fn has_subcommand(name: &str) -> bool {
        registry::find(name).is_ok()
    }
}

/// The flags that set a game up; each game reads those it has and refuses the others.
#[derive(Debug, Clone, clap::Args)]
pub struct SetupArgs {
    /// Variants by name, or variant files (`botbox games` lists them; 2048: the board size, 4x4)
    #[arg(long = "variant", value_name = "VARIANT")]
    variants: Vec<String>,
    /// Wormworld: map files, or directories of .txt maps (docs/worms-maps.md); rotated every two
    /// games
    #[arg(long = "map", visible_alias = "maps", num_args = 1.., value_name = "MAP")]
    maps: Vec<PathBuf>,
    /// Wormworld: override every map's turn limit
    #[arg(long, value_name = "N")]
    turns: Option<u32>,
    /// Dice: the dice file (default: the bundled examples/dice/wuerfel0.txt)
    #[arg(long, value_name = "FILE")]
    dice: Option<PathBuf>,
    /// Dice: use only these dice (numbered from 1 as in the file); repeatable
    #[arg(long = "die", value_name = "N")]
    die: Vec<usize>,
    /// Random opening moves (plies) before the bots play, drawn from --seed and the same for both
    /// games of a pair (sides swapped), as an opening book gives; 0 plays every game from the start
    #[arg(long, default_value_t = 0, value_name = "PLIES")]
    openings: u32,
}

impl SetupArgs {
    fn options(&self, seed: u64, sprt: &run::SprtArgs) -> Options {
        Options {
            one_pairing: sprt.sprt.is_some(),
            variants: self.variants.clone(),
            maps: self.maps.clone(),
            turns: self.turns,
            dice: self.dice.clone(),
            die: self.die.clone(),
            openings: self.openings,
            seed,
            entries_as_given: false,
        }
    }
}

/// Play games between strategies, one per seat
#[derive(Debug, clap::Args)]
pub struct MatchArgs {
    /// The strategies, one per seat (a .lua/.luau file, a .wasm or .wat module, a bot's directory
    /// (a kit from `botbox new`, built), or an executable program); a file given twice plays twice, as name-2
    #[arg(required = true, value_name = "STRATEGY")]
    players: Vec<PathBuf>,
    /// Number of games (default 20, 100 for tables of more than two; with --sprt, the most to play:
    /// 20000)
    #[arg(long, value_parser = super::at_least_one)]
    games: Option<usize>,
    #[command(flatten)]
    setup: SetupArgs,
    #[command(flatten)]
    sprt: run::SprtArgs,
    /// Wormworld: show every game on the board, live (plays one game at a time)
    #[arg(long)]
    live: bool,
    /// With --live: milliseconds between turns
    #[arg(long, default_value_t = 120, value_name = "MS")]
    delay: u64,
    #[command(flatten)]
    run: RunArgs,
}

/// Play a tournament and print standings with faults
#[derive(Debug, clap::Args)]
pub struct TournamentArgs {
    /// The entries (two-player games: at least two; tables: at least as many as the seats, or one
    /// with --repeat)
    #[arg(long, num_args = 1.., required = true, value_name = "STRATEGY")]
    players: Vec<PathBuf>,
    /// Games per pairing (default 20; with --sprt, the most to play: 20000); tables of more than
    /// two: games in all (default 1000)
    #[arg(long, value_parser = super::at_least_one)]
    games: Option<usize>,
    #[command(flatten)]
    setup: SetupArgs,
    #[command(flatten)]
    sprt: run::SprtArgs,
    /// Two-player games: round-robin, everyone against everyone; gauntlet, the first entry against
    /// each other one
    #[arg(long, value_enum, default_value_t = Format::RoundRobin)]
    format: Format,
    /// Tables of more than two: allow an entry to sit at a table more than once
    #[arg(long)]
    repeat: bool,
    #[command(flatten)]
    run: RunArgs,
    #[command(flatten)]
    flags: run::TournamentFlags,
}

/// How to spell a game's bundled bots in examples: its first bots, repeated to fill the seats.
fn bots(rules: &dyn Rules, n: usize) -> String {
    let bundled = rules.info().bots;
    (0..n)
        .map(|i| bundled[i % bundled.len()])
        .collect::<Vec<_>>()
        .join(" ")
}

/// The flags an example passes to set `rules` up (a map, a die), with a space before them.
fn setup_example(rules: &dyn Rules) -> String {
    match rules.info().setup_example {
        "" => String::new(),
        flags => format!(" {flags}"),
    }
}

impl Describe for MatchArgs {
    fn about(rules: &dyn Rules) -> String {
        match rules.seats().max {
            1 => format!("Play {} games with a strategy", rules.name()),
            2 => format!(
                "Play {} games between two strategies, sides swapped every game",
                rules.name()
            ),
            n => format!(
                "Play {} games between {} strategies, seated in a new random order every game",
                rules.name(),
                ["three", "four", "five", "six"]
                    .get(n as usize - 3)
                    .map_or_else(|| n.to_string(), |w| w.to_string())
            ),
        }
    }

    fn examples(rules: &dyn Rules) -> String {
        let (name, seats) = (rules.name(), rules.seats().max as usize);
        let setup = setup_example(rules);
        let mut text = format!(
            "{}\n\nExamples:\n  botbox match {name} {}{setup} --games 20\n  \
             botbox match {name} my_bot.lua {}{setup} --games 200 --json match.json \
             --replay-dir replays/",
            rules.title(),
            bots(rules, seats),
            bots(rules, seats.saturating_sub(1)),
        );
        if seats == 2 {
            text.push_str(&format!(
                "\n  botbox match {name} my_bot.lua {}{setup} --sprt elo0=0,elo1=20\n\n\
                 The games alternate sides (the first strategy moves first in odd-numbered games). \
                 A fault\n(error, budget, garbage, illegal move) loses the game; the table counts \
                 faults by kind.\n\nWith --sprt elo0=E0,elo1=E1,alpha=A,beta=B (fastchess's \
                 spelling) the games are played pair by pair\nuntil a sequential probability \
                 ratio test decides: H1, the first strategy is stronger by E1 Elo, or\nH0, it is \
                 not stronger than E0 (docs/tournaments.md).",
                bots(rules, 1)
            ));
        } else if seats > 2 {
            text.push_str(
                "\n\nThe same strategies play every game; the seats are shuffled every game, seat \
                 0 moves first.\nA fault is a loss for the faulting strategy and voids the game \
                 for the others.",
            );
        }
        text.push_str(&format!(
            "\n\nRules and observations: docs/{}.md.",
            rules.name()
        ));
        text
    }
}

impl Describe for TournamentArgs {
    fn about(rules: &dyn Rules) -> String {
        match rules.seats().max {
            1 => format!(
                "Play {} games with every entry and rank them by score",
                rules.name()
            ),
            2 => format!(
                "Play a {} round robin or gauntlet and print standings with Elo and faults",
                rules.name()
            ),
            _ => format!(
                "Play a {} tournament: every game seats entries drawn at random from the pool",
                rules.name()
            ),
        }
    }

    fn examples(rules: &dyn Rules) -> String {
        let (name, seats) = (rules.name(), rules.seats().max as usize);
        let setup = setup_example(rules);
        // The bundled bots' folder, as a shell glob.
        let all = rules.info().bots[0].rsplit_once('/').map_or_else(
            || rules.info().bots.join(" "),
            |(dir, _)| format!("{dir}/*.lua"),
        );
        let mut text = format!(
            "{}\n\nExamples:\n  botbox tournament {name} --players {all}{setup}\n  \
             botbox tournament {name} --players my_bot.lua {all}{setup} --jobs 2 \
             --json standings.json --replay-dir replays/\n  \
             botbox tournament {name} --players {all}{setup} --shard 2/8 --json part-2.json\n  \
             botbox tournament {name} --players my_bot.lua {all}{setup} --reload",
            rules.title()
        );
        text.push_str(match seats {
            2 => {
                "\n\nEvery pairing plays --games games, sides swapped every game. Deterministic \
                 bots play the same\ngame again and again: --openings N starts each pair of games \
                 from N random moves, and the\nreport counts the distinct games. --sprt takes \
                 exactly two entries."
            }
            1 => "\n\nEvery entry plays --games games; the report gives each one's mean score.",
            _ => {
                "\n\nEach game draws distinct entries from the pool (with --repeat, any, so one \
                 bot can face copies\nof another) and seats them in a random order. A fault is a \
                 loss for the faulting entry and\nvoids the game for the others (column void)."
            }
        });
        text.push_str(
            "\n\nGame i is seeded from (--seed, i) alone, so the results are identical whatever \
             --jobs is.",
        );
        text
    }
}

/// `botbox match <game>`.
pub fn execute_match(command: GameCommand<MatchArgs>) -> anyhow::Result<ExitCode> {
    let GameCommand { game: rules, args } = command;
    let seats = rules.seats().max as usize;
    let given = args.players.len();
    anyhow::ensure!(
        if seats == 1 {
            given >= 1
        } else {
            given == seats
        },
        "{} is played by {seats} players: give {seats} strategies, not {given} (a file may be \
         given twice)",
        rules.name()
    );
    let options = args.setup.options(args.run.seed, &args.sprt);
    let (game, entries) = entries(rules, &args.players, &options, &args.run)?;
    let games = games(&game, args.games, &args.sprt, 100)?;
    if args.live {
        anyhow::ensure!(
            args.sprt.sprt.is_none(),
            "--live shows games one by one and does not run --sprt"
        );
        return super::worms::live(
            rules.name(),
            &options,
            &entries,
            games,
            &args.run,
            args.delay,
        );
    }
    let plan = setup::plan(&game, Format::RoundRobin, games, args.run.seed, false);
    let flags = Default::default();
    run::run_and_report(&game, &entries, plan, &args.run, &flags, args.sprt.sprt)?;
    Ok(ExitCode::SUCCESS)
}

/// `botbox tournament <game>`.
pub fn execute_tournament(command: GameCommand<TournamentArgs>) -> anyhow::Result<ExitCode> {
    let GameCommand { game: rules, args } = command;
    let seats = rules.seats().max as usize;
    let options = args.setup.options(args.run.seed, &args.sprt);
    let (game, entries) = entries(rules, &args.players, &options, &args.run)?;
    // Entries, not files: one dice strategy with two dice is two entries.
    anyhow::ensure!(
        seats == 1 || entries.len() >= 2,
        "a tournament needs at least two --players"
    );
    let games = games(&game, args.games, &args.sprt, 1000)?;
    let plan = setup::plan(&game, args.format, games, args.run.seed, args.repeat);
    run::run_and_report(
        &game,
        &entries,
        plan,
        &args.run,
        &args.flags,
        args.sprt.sprt,
    )?;
    Ok(ExitCode::SUCCESS)
}

/// The strategies at `players` loaded, and the game set up for them by `options`.
fn entries(
    rules: &dyn Rules,
    players: &[PathBuf],
    options: &Options,
    run: &RunArgs,
) -> anyhow::Result<(setup::Game, Vec<Entry>)> {
    let strategies = run::load_entries(players, &run.limits)?;
    setup::build(rules.name(), options, strategies)
}

/// The games to play: as given, or 20 (`table` for tables of more than two seats; with `--sprt`,
/// the most to play, which must be even). An odd number for a two-player game is played, with a
/// note that it favours one side (every game of every two-player game swaps sides).
fn games(
    game: &setup::Game,
    given: Option<usize>,
    sprt: &run::SprtArgs,
    table: usize,
) -> anyhow::Result<usize> {
    let games = match given {
        None if game.seats() > 2 && sprt.sprt.is_none() => table,
        given => sprt.games(given)?,
    };
    // Two-player pairings swap sides every game: an odd count favours one side, in every game.
    if game.seats() == 2 && !games.is_multiple_of(2) {
        eprintln!(
            "note: --games {games} is odd, so in each pairing the first entry moves first once \
             more than the second; an even number balances the sides"
        );
    }
    Ok(games)
}
