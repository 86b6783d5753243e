//! The subcommands, one file each. Each has `--help` with examples and an `execute` function.

mod arena;
mod bench;
mod board_view;
mod check;
pub mod config;
mod dice;
mod games;
mod help;
mod league;
mod limits;
mod merge;
mod new;
mod play;
mod replay;
mod report;
mod run;
mod schemas;
mod view;
mod watch;
mod worms;
mod worms_view;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(
    name = "botbox",
    version,
    about = "Run untrusted game strategies (Lua or WebAssembly) under limits: benchmarks, checks and replays",
    after_help = "Examples:\n  botbox bench 2048 strategies/lua/g2048/corner.lua\n  botbox check 2048 my_bot.lua\n  botbox games\n  botbox play 2048 --undo 5\n  botbox replay replays/2048-0001.jsonl\n\nDocs: docs/lua-api.md (Lua strategies), docs/wasm-abi.md (WASM strategies)"
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
    Games(games::Args),
    League(league::Args),
    Match(MatchArgs),
    Merge(merge::Args),
    New(new::Args),
    Tournament(Box<TournamentArgs>),
    Play(play::PlayArgs),
    #[command(alias = "watch-play")]
    Show(play::WatchArgs),
    Replay(replay::Args),
    Report(report::Args),
    Schemas(schemas::Args),
    View(view::Args),
    Watch(watch::Args),
}

/// Play games between strategies (one per seat) and print the results and faults
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  botbox match worms strategies/lua/worms/greedy.lua my_bot.wasm --map examples/worms/arena.txt --games 20
  botbox match worms ./my_bot_program strategies/lua/worms/random.lua --map examples/worms/maze.txt --live
  botbox match connect4 my_bot.lua strategies/lua/connect4/center.lua --openings 4 --sprt elo0=0,elo1=20
  botbox match bs my_bot.lua strategies/lua/bs/player1.lua strategies/lua/bs/player4.lua \\
      strategies/lua/bs/calculating_liar.lua --games 1000

`botbox match GAME --help` shows a game's flags and examples; `botbox games` lists the games.")]
#[command(subcommand_value_name = "GAME")]
struct MatchArgs {
    #[command(subcommand)]
    game: arena::GameCommand<arena::MatchArgs>,
}

/// Play a tournament between many strategies and print standings with Elo and faults
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  botbox tournament worms --players strategies/lua/worms/*.lua my_bot.wasm --maps examples/worms/ \\
      --games 40 --jobs 2 --json standings.json --replay-dir replays/
  botbox tournament dice --variant free --dice examples/dice/wuerfel0.txt \\
      --players strategies/lua/dice/*.lua --games 2000
  botbox tournament bs --players strategies/lua/bs/*.lua --games 10000 --jobs 2 --json bs.json")]
#[command(
    args_conflicts_with_subcommands = true,
    subcommand_value_name = "GAME|FILE.toml"
)]
struct TournamentArgs {
    #[command(subcommand)]
    game: Option<arena::GameCommand<arena::TournamentArgs>>,
    /// A tournament file (TOML: game, entries, format, games, seed, limits, maps or dice, output);
    /// see examples/tournaments/
    #[arg(value_name = "FILE.toml")]
    file: Option<std::path::PathBuf>,
    #[command(flatten)]
    overrides: config::Overrides,
}

/// The game of a command only 2048 has (`bench`, `play`, `show`): its name as the registry spells
/// it, and any other game refused with the reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct G2048Only;

fn g2048_only(text: &str) -> Result<G2048Only, String> {
    use crate::games::contract::Rules as _;
    let name = crate::games::g2048::RULES.name();
    let rules = crate::games::registry::find(text)?;
    match rules.name() == name {
        true => Ok(G2048Only),
        false => Err(format!(
            "{} has no such command: only {name} has a benchmark and a terminal game",
            rules.name()
        )),
    }
}

/// Parses the command line. Where `match` or `tournament` expects a game, a name the registry does
/// not know is said to be one, with the closest name, before clap reads it as a file (`tournament
/// wroms --players ...` would otherwise be told `--players` is unexpected).
pub fn parse() -> Cli {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if let [_, command, game, ..] = args.as_slice()
        && let (Some(command @ ("match" | "tournament")), Some(game)) =
            (command.to_str(), game.to_str())
        && !game.starts_with('-')
        && game != "help"
        && let Err(unknown) = crate::games::registry::find(game)
    {
        let path = std::path::Path::new(game);
        let a_file = command == "tournament" && (path.exists() || path.extension().is_some());
        if !a_file {
            eprintln!("error: {unknown}; see `botbox {command} --help`");
            std::process::exit(2);
        }
    }
    // Every subcommand's examples fitted to an 80-column terminal before clap reads the arguments.
    use clap::{CommandFactory, FromArgMatches};
    let matches = help::fit(Cli::command())
        .try_get_matches_from(args)
        .unwrap_or_else(|e| e.exit());
    Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
}

pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Bench(args) => bench::execute(args),
        Command::Check(args) => check::execute(args),
        Command::Dice(args) => dice::execute(args),
        Command::Games(args) => games::execute(args),
        Command::League(args) => league::execute(args),
        Command::Merge(args) => merge::execute(args),
        Command::New(args) => new::execute(args),
        Command::Match(MatchArgs { game }) => arena::execute_match(game),
        Command::Tournament(args) => tournament(*args),
        Command::Play(args) => play::execute_play(args),
        Command::Show(args) => play::execute_watch(args),
        Command::Replay(args) => replay::execute(args),
        Command::Report(args) => report::execute(args),
        Command::Schemas(args) => schemas::execute(args),
        Command::View(args) => view::execute(args),
        Command::Watch(args) => watch::execute(args),
    }
}

/// `botbox tournament`: a game with its flags, or a tournament file.
fn tournament(args: TournamentArgs) -> anyhow::Result<ExitCode> {
    let TournamentArgs {
        game,
        file,
        overrides,
    } = args;
    match (game, file) {
        (Some(game), _) => arena::execute_tournament(game),
        (None, Some(file)) if !file.exists() && file.extension().is_none() => {
            anyhow::bail!(
                "unknown game {:?}: `botbox tournament` runs a game ({}) or a tournament file \
                 (FILE.toml)",
                file.display().to_string(),
                crate::games::registry::names().join(", ")
            )
        }
        (None, Some(file)) => config::execute(&file, overrides),
        (None, None) => anyhow::bail!(
            "give a game ({}) with its flags, or a tournament file: see `botbox tournament --help`",
            crate::games::registry::names().join(", ")
        ),
    }
}

/// Loads a strategy with the limits and parameters of the command line.
fn load(
    path: &std::path::Path,
    args: &limits::LimitArgs,
) -> anyhow::Result<crate::runtime::Strategy> {
    use anyhow::Context;
    let strategy = crate::hosted::load(path, &args.limits()).context("cannot load strategy")?;
    Ok(strategy.with_params(args.params()))
}

/// Makes the run that follows stop cleanly on Ctrl-C: the first one lets the games in progress finish
/// and reports those played (standings, JSON, replays); a second one quits at once.
fn interruptible() {
    static INSTALL: std::sync::Once = std::sync::Once::new();
    INSTALL.call_once(|| {
        let result = ctrlc::set_handler(|| {
            if crate::tournament::stopped() {
                eprintln!("\ninterrupted again: quitting without a report");
                std::process::exit(130);
            }
            crate::tournament::stop();
            eprintln!(
                "\ninterrupted: finishing the games in progress, then reporting the games played \
                 (Ctrl-C again to quit now)"
            );
        });
        if let Err(e) = result {
            eprintln!("warning: Ctrl-C will end the run without a report ({e})");
        }
    });
}

/// The exit status of a run that Ctrl-C cut short, after saying so; `None` if it ran to the end.
pub fn interrupted() -> Option<ExitCode> {
    crate::tournament::stopped().then(|| {
        eprintln!(
            "interrupted: the results above are of the games played before Ctrl-C (the JSON too)"
        );
        ExitCode::from(130)
    })
}

/// A game's name as `botbox games` lists it, checked against the registry.
fn game_name(text: &str) -> Result<String, String> {
    crate::games::registry::find(text).map(|r| r.name().to_string())
}

/// A count of at least one (`--games`, `--jobs`): zero games or zero threads is a mistake, said at once.
fn at_least_one(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("must be at least 1".to_string()),
        Ok(n) => Ok(n),
        Err(e) => Err(e.to_string()),
    }
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

/// A progress bar for a sequential test: the LLR and its bounds after the games.
fn sprt_bar(games: u64) -> indicatif::ProgressBar {
    let template =
        "{spinner} {human_pos}/{human_len} games at most [{elapsed_precise}] {per_sec}  {msg}";
    indicatif::ProgressBar::new(games)
        .with_style(indicatif::ProgressStyle::with_template(template).expect("a valid template"))
}

/// Makes sure a report can be written to `path` (`--json`) before any game is played: its directory
/// is created, and the file opened for writing, so a typo fails at once, not after the run.
fn prepare_output(path: Option<&std::path::Path>) -> anyhow::Result<()> {
    use anyhow::Context;
    let Some(path) = path else { return Ok(()) };
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// Writes a report as pretty JSON to `path` (`--json`). A run that Ctrl-C cut short says so: its
/// report gets `"interrupted": true` and, beside the plan's number, `"games_played"`.
fn write_json(path: &std::path::Path, report: &impl serde::Serialize) -> anyhow::Result<()> {
    use anyhow::Context;
    let text = if crate::tournament::stopped() {
        let mut value = serde_json::to_value(report)?;
        if let Some(fields) = value.as_object_mut() {
            let played = fields.get("games").and_then(|g| g.as_array()).map(Vec::len);
            fields.insert("interrupted".into(), true.into());
            if let Some(played) = played {
                fields.insert("games_played".into(), played.into());
            }
        }
        serde_json::to_string_pretty(&value)?
    } else {
        serde_json::to_string_pretty(report)?
    };
    std::fs::write(path, text + "\n").with_context(|| format!("writing {}", path.display()))
}

/// Prints a report to standard output; a reader that stops early (`| head`) is not an error.
fn print_report(text: &str) -> anyhow::Result<()> {
    use anyhow::Context;
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match writeln!(out, "{text}").and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(e).context("writing to standard output")
        }
        _ => Ok(()),
    }
}

/// A table in the style of every report (`comfy-table`, condensed UTF-8 borders), its cells wrapped
/// to fit [`text_width`] when it is wider.
fn table<T: Into<comfy_table::Cell>>(header: Vec<T>) -> comfy_table::Table {
    let mut t = comfy_table::Table::new();
    t.load_style(comfy_table::presets::UTF8_FULL_CONDENSED);
    t.set_content_arrangement(comfy_table::ContentArrangement::Dynamic);
    if let Some(width) = text_width() {
        t.set_width(width);
    }
    t.set_header(header);
    t
}

/// The width to lay text out for: the terminal's when standard output is one, else `COLUMNS` when
/// it is set; `None` (no limit) for output to a file or a pipe.
fn text_width() -> Option<u16> {
    use std::io::IsTerminal;
    if std::io::stdout().is_terminal()
        && let Ok((width, _)) = ratatui::crossterm::terminal::size()
    {
        return Some(width);
    }
    std::env::var("COLUMNS").ok()?.trim().parse().ok()
}

/// `items` joined by `, ` after `label`, wrapped to `width` columns with each further line indented
/// to the first item, never breaking an item.
fn wrapped(label: &str, items: &[&str], width: usize) -> String {
    let indent = " ".repeat(label.chars().count());
    let mut out = label.to_string();
    let mut line = label.chars().count();
    for (i, item) in items.iter().enumerate() {
        let last = i + 1 == items.len();
        let piece = if last {
            item.to_string()
        } else {
            format!("{item},")
        };
        let fits = line + piece.chars().count() < width;
        if i > 0 && fits {
            out.push(' ');
            line += 1;
        } else if i > 0 {
            out.push('\n');
            out.push_str(&indent);
            line = indent.len();
        }
        out.push_str(&piece);
        line += piece.chars().count();
    }
    out
}

/// Right-aligns the numeric `columns` of a table.
fn right_align(t: &mut comfy_table::Table, columns: impl IntoIterator<Item = usize>) {
    for c in columns {
        if let Some(col) = t.column_mut(c) {
            col.set_cell_alignment(comfy_table::CellAlignment::Right);
        }
    }
}

/// Fault counts by kind as a table cell, `timeout 2, crash 1`; `none` when there are none.
fn fault_counts(
    faults: &std::collections::BTreeMap<crate::runtime::FaultKind, usize>,
    none: &str,
) -> String {
    if faults.is_empty() {
        return none.to_string();
    }
    let kinds: Vec<String> = faults.iter().map(|(k, n)| format!("{k} {n}")).collect();
    kinds.join(", ")
}
