//! `botbox check <game> <bot>`: load a strategy, validate it, play a smoke game of any registered game
//! through the game contract, and show the moves with the bot's log lines between them, the fault
//! with its message if there is one, and the limits in force.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use crate::games::contract::{Rules, Variant};
use crate::games::{derive_seed, registry};
use crate::play::generic::{self, Player, Step};
use crate::runtime::Strategy;
use anyhow::Context;

use super::limits::LimitArgs;

/// Load a strategy, check it against a game's contract, play a smoke game and print its moves, log and limits
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  botbox check 2048 strategies/lua/g2048/greedy.lua
  botbox check connect4 my_bot.wasm --fuel 500000000 --against strategies/lua/connect4/center.lua
  botbox check bs my_bot.lua --games 3
  botbox check worms strategies/rust/worms-search --variant examples/worms/maze.txt
  botbox check dice my_bot.lua --seat 1

The other seats are played by the game's random player unless --against names bots for them.
Exits with status 1 when the strategy faults, so it fits in a pre-commit hook or CI.
`botbox games` lists the games and their variants.")]
pub struct Args {
    /// The game (see `botbox games`); or, in the older form `check <BOT> --game <GAME>`, the bot
    #[arg(value_name = "GAME")]
    first: String,
    /// The strategy: .lua, .wasm, .wat, a bot's directory (a kit from `botbox new`, built with its own tool), or an executable program
    #[arg(value_name = "BOT")]
    second: Option<PathBuf>,
    /// The game, in the older form of the command
    #[arg(long, hide = true)]
    game: Option<String>,
    /// A variant the game knows by name (`botbox games`), or a variant file (a map, a dice file)
    #[arg(long)]
    variant: Option<String>,
    /// The seat the bot plays, from 0
    #[arg(long, default_value_t = 0)]
    seat: u32,
    /// Bots for the other seats, in seat order (the rest are the game's random player)
    #[arg(long, value_name = "BOT")]
    against: Vec<PathBuf>,
    /// Smoke games to play
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    /// Moves shown at the start of each game (moves where the bot logged, and the last ones, are always shown)
    #[arg(long, default_value_t = 8)]
    moves: u32,
    /// Seed of the smoke games
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    limits: LimitArgs,
}

/// The last moves kept to show at the end of a game.
const TAIL: usize = 4;
/// Log lines printed per game at most (the runtime caps the log's bytes too).
const MAX_LOG_LINES: usize = 400;

pub fn execute(args: Args) -> anyhow::Result<ExitCode> {
    let (game, bot) = match (&args.second, &args.game) {
        (Some(bot), None) => (args.first.clone(), bot.clone()),
        (None, Some(game)) => (game.clone(), PathBuf::from(&args.first)),
        (Some(_), Some(_)) => anyhow::bail!("give the game once: `botbox check <GAME> <BOT>`"),
        (None, None) => anyhow::bail!(
            "give a game and a bot: `botbox check <GAME> <BOT>` (the games: {})",
            registry::names().join(", ")
        ),
    };
    let rules = registry::find(&game).map_err(anyhow::Error::msg)?;
    let variant = variant(rules, args.variant.as_deref())?;
    let seats = rules.seats().min.max(1 + args.against.len() as u32);
    anyhow::ensure!(
        rules.seats().contains(seats),
        "{} is played by {} players: --against gives {} others",
        rules.name(),
        rules.seats(),
        args.against.len()
    );
    anyhow::ensure!(
        args.seat < seats,
        "--seat {} is not a seat of {} (seats 0 to {})",
        args.seat,
        rules.name(),
        seats - 1
    );
    let started = Instant::now();
    let strategy = super::load(&bot, &args.limits)?;
    describe(&strategy, started.elapsed().as_secs_f64() * 1000.0);
    let others: Vec<Strategy> = args
        .against
        .iter()
        .map(|p| super::load(p, &args.limits))
        .collect::<anyhow::Result<_>>()?;
    let mut players = Vec::new();
    let mut others = others.iter();
    for seat in 0..seats {
        players.push(if seat == args.seat {
            Player::Bot(&strategy)
        } else {
            others.next().map_or(Player::Random, Player::Bot)
        });
    }
    let names: Vec<String> = players
        .iter()
        .enumerate()
        .map(|(seat, p)| match p {
            _ if seat as u32 == args.seat => format!("{} (checked)", strategy.name()),
            Player::Bot(s) => s.name().to_string(),
            Player::Random => "random".to_string(),
        })
        .collect();
    println!(
        "game        {}, variant {}, seats: {}",
        rules.name(),
        variant.name,
        names.join(", ")
    );
    let mut faulted = false;
    let mut won = 0;
    for g in 0..args.games {
        let seed = derive_seed(args.seed, u64::from(g));
        let (fault, winner) = smoke_game(rules, &variant, &players, seed, g, &args)?;
        faulted |= fault;
        won += usize::from(winner);
    }
    if args.games > 1 && seats > 1 {
        println!(
            "summary     seat {} won {won} of {} games ({:.0}%)",
            args.seat,
            args.games,
            100.0 * won as f64 / f64::from(args.games)
        );
    }
    Ok(if faulted {
        ExitCode::from(1)
    } else {
        println!("result      ok");
        ExitCode::SUCCESS
    })
}

/// Plays one smoke game and prints it; whether the checked bot faulted, and whether it won.
fn smoke_game(
    rules: &dyn Rules,
    variant: &Variant,
    players: &[Player],
    seed: u64,
    index: u32,
    args: &Args,
) -> anyhow::Result<(bool, bool)> {
    let checked = args.seat;
    let mut tail: VecDeque<String> = VecDeque::new();
    let mut skipped = 0usize;
    let mut log_lines = 0usize;
    let started = Instant::now();
    println!("--- game {} (seed {seed})", index + 1);
    let played = generic::play(
        rules,
        variant,
        players,
        &[],
        seed,
        None,
        true,
        Some(&mut |step: &Step| {
            let line = format!(
                "move {:<6} seat {} {:<11} {}",
                step.n,
                step.seat,
                step.function,
                compact(&step.action)
            );
            let logged = step.seat == checked && !step.log.is_empty();
            if step.n <= args.moves || logged {
                // The moves held back for the end are elided too when a logged move comes first.
                skipped += tail.len();
                tail.clear();
                if skipped > 0 {
                    println!("  ... {}", plural(skipped, "move"));
                    skipped = 0;
                }
                println!("{line}");
            } else {
                tail.push_back(line);
                if tail.len() > TAIL {
                    tail.pop_front();
                    skipped += 1;
                }
            }
            if step.seat == checked {
                for l in &step.log {
                    if log_lines < MAX_LOG_LINES {
                        println!("  | {l}");
                    }
                    log_lines += 1;
                }
            }
        }),
    )
    .map_err(anyhow::Error::msg)
    .with_context(|| format!("starting {} on variant {}", rules.name(), variant.name))?;
    if skipped > 0 {
        println!("  ... {}", plural(skipped, "move"));
    }
    for line in &tail {
        println!("{line}");
    }
    // Lines logged after the last shown move (a fault's last words, or at load time of a bot that
    // never moved).
    let whole = &played.logs[checked as usize];
    if whole.len() > log_lines {
        for l in whole.iter().skip(log_lines) {
            if log_lines < MAX_LOG_LINES {
                println!("  | {l}");
            }
            log_lines += 1;
        }
    }
    if log_lines > MAX_LOG_LINES {
        println!("  | ... {} more log lines", log_lines - MAX_LOG_LINES);
    }
    let wall = started.elapsed();
    let points: Vec<String> = played
        .outcome
        .points
        .iter()
        .map(|p| format!("{p}"))
        .collect();
    let seat = checked as usize;
    // With more than two seats a fault voids the game for the others (the contract's one rule).
    let void = if played.outcome.ranks.len() > 2 && played.faults.iter().any(Option::is_some) {
        " (void for the other seats)"
    } else {
        ""
    };
    // A solo game's points are its score ("score" is the game's score everywhere); between
    // players, each seat's share of the game's points.
    let result = match points.as_slice() {
        [score] => format!("score {score}"),
        _ => format!("points [{}]", points.join(", ")),
    };
    println!(
        "smoke game  {} moves, {result}, place {} of {}, ended by {}{void}, in {:.2} s ({:.1} µs per decision of the bot)",
        played.moves,
        played.outcome.ranks[seat] + 1,
        played.outcome.ranks.len(),
        played.outcome.reason,
        wall.as_secs_f64(),
        played.time[seat].as_secs_f64() * 1e6 / f64::from(played.decisions[seat].max(1))
    );
    let lines = whole.len();
    println!(
        "log         {lines} line{}",
        if lines == 1 { "" } else { "s" }
    );
    for (s, fault) in played.faults.iter().enumerate() {
        if let Some(fault) = fault {
            let who = if s == seat {
                "FAULT".to_string()
            } else {
                format!("seat {s} faulted")
            };
            println!("result      {who} after {} moves: {fault}", played.moves);
        }
    }
    Ok((
        played.faults[seat].is_some(),
        played.outcome.winner() == Some(seat),
    ))
}

/// The variant to play: a name the game knows, a file's text, or the default.
fn variant(rules: &dyn Rules, given: Option<&str>) -> anyhow::Result<Variant> {
    match given {
        Some(given) => crate::tournament::setup::variant(given),
        None => Ok(registry::default_variant(rules)),
    }
}

/// A JSON value on one line, cut to a readable width.
fn compact(value: &serde_json::Value) -> String {
    let text = value.to_string();
    if text.len() > 100 {
        let cut = (0..=100)
            .rev()
            .find(|&i| text.is_char_boundary(i))
            .unwrap_or(0);
        format!("{}... ({} bytes)", &text[..cut], text.len())
    } else {
        text
    }
}

fn describe(s: &Strategy, load_ms: f64) {
    println!("strategy    {} ({})", s.path().display(), s.kind());
    println!("sha256      {}", s.hash());
    println!("loaded in   {load_ms:.1} ms");
    let limits = s.limits().to_string();
    let clauses: Vec<&str> = limits.split(", ").collect();
    let width = super::text_width().map_or(100, usize::from);
    println!("{}", super::wrapped("limits      ", &clauses, width));
}

/// `n` and the noun, plural unless `n` is 1: "1 move", "5 moves".
fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}
