//! `botbox watch`: the bot author's loop. Plays batches of games with the bot against a chosen
//! opponent or field (or the 2048 benchmark), and on every save starts over with the new version,
//! showing its score next to the previous version's, with 95% intervals and whether the difference
//! is significant.

use std::io::IsTerminal as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use crate::reload::{self, Reload};
use crate::runtime::Strategy;
use crate::tournament::runner::{self, Entry, Format, GameRecord, Playable, Run};
use anyhow::Context;

use super::limits::LimitArgs;
use super::run::smoke;

/// Evaluate a bot continuously; every save restarts the evaluation with the new version
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  botbox watch my_bot.lua --game worms --vs strategies/lua/worms/greedy.lua --map examples/worms/arena.txt
  botbox watch my_bot.lua --game worms --vs strategies/lua/worms/*.lua --map examples/worms/
  botbox watch my_dice_bot.lua --game dice --vs strategies/lua/dice/frontmost.lua --dice examples/dice/wuerfel0.txt --die 1
  botbox watch my_bot.lua --game 2048 --batch 10
  botbox watch my_bot.lua --game bs --vs strategies/lua/bs/player1.lua strategies/lua/bs/player4.lua \\
      strategies/lua/bs/calculating_liar.lua --batch 50
  botbox watch my_bot.lua --game connect4 --vs strategies/lua/connect4/center.lua --openings 4

On a terminal each version has one line, updated after every batch (in a log, a line per batch): the
current version's score so far with its 95% interval, the previous version's, and their difference. A
new version plays the same games (same seeds) as the previous one did, so the comparison is fair; the difference is called significant when its 95% interval excludes
0. A save that does not load or faults in a smoke game is reported and the current version goes on.
Stop with Ctrl-C, or give --batches.")]
pub struct Args {
    /// The bot being developed (a file: .lua, .wasm, .wat, or a program)
    bot: PathBuf,
    /// The game: any that `botbox games` lists
    #[arg(long, value_parser = super::game_name)]
    game: String,
    /// The opponent(s): the bot plays each of them
    #[arg(long, num_args = 1.., value_name = "STRATEGY")]
    vs: Vec<PathBuf>,
    /// Wormworld: map files or directories
    #[arg(long = "map", visible_alias = "maps", num_args = 1.., value_name = "MAP")]
    maps: Vec<PathBuf>,
    /// Dice: the dice file (default: the bundled examples/dice/wuerfel0.txt)
    #[arg(long, value_name = "FILE")]
    dice: Option<PathBuf>,
    /// Dice: the die (numbered from 1) both players use
    #[arg(long, default_value_t = 1, value_name = "N")]
    die: usize,
    /// Connect Four: the variants by name or file (`botbox games`), the first by default; 2048: the
    /// board size (5x5)
    #[arg(long = "variant", value_name = "NAME|FILE")]
    variants: Vec<String>,
    /// Connect Four: random opening plies, the same for both games of a pair
    #[arg(long, default_value_t = 0, value_name = "PLIES")]
    openings: u32,
    /// Games per opponent per batch (BS, 2048: games per batch)
    #[arg(long, default_value_t = 4)]
    batch: usize,
    /// Stop after this many batches in all (default: run until interrupted)
    #[arg(long, value_name = "N")]
    batches: Option<usize>,
    /// Seed of the evaluation: batch k of every version plays the same games
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once (default: the number of cores)
    #[arg(long, value_parser = super::at_least_one)]
    jobs: Option<usize>,
    #[command(flatten)]
    limits: LimitArgs,
}

/// The per-game scores of one version, from 0 (lost) to 1 (won); 2048: largest tile / 2048.
#[derive(Debug, Default, Clone)]
struct Tally {
    name: String,
    scores: Vec<f64>,
}

impl Tally {
    fn mean(&self) -> f64 {
        crate::tournament::stats::mean(&self.scores)
    }

    /// The standard error of the mean.
    fn stderr(&self) -> f64 {
        let n = self.scores.len() as f64;
        if n < 2.0 {
            return f64::INFINITY;
        }
        let m = self.mean();
        let var = self.scores.iter().map(|s| (s - m).powi(2)).sum::<f64>() / (n - 1.0);
        // Scores in [0, 1] that are all equal so far (every game lost, say) still leave doubt: the
        // variance is at least that of one game going the other way (Agresti-Coull style).
        let shrunk = (self.scores.iter().sum::<f64>() + 0.5) / (n + 1.0);
        let floor = if self.scores.iter().all(|s| (0.0..=1.0).contains(s)) {
            shrunk * (1.0 - shrunk)
        } else {
            0.0
        };
        (var.max(floor) / n).sqrt()
    }
}

const Z: f64 = 1.959_963_984_540_054;

/// Batches of games of the bot against its opponents: a gauntlet for two players, tables of the
/// game's seats for more (the bot and opponents drawn from `--vs`), a series for a solo game.
struct Eval {
    game: std::sync::Arc<dyn Playable + Send + Sync>,
    opponents: Vec<Entry>,
    seed: u64,
    games: usize,
    jobs: usize,
}

impl Eval {
    /// The bot's scores in batch `batch`, in game order: 1 won, 1/2 drawn, 0 lost (games of more
    /// than two seats: won or not, void games left out); solo games: 2048's points (largest tile /
    /// 2048), or the game's score.
    fn batch(&self, bot: &Strategy, batch: usize) -> Vec<f64> {
        let mut entries = vec![Entry {
            name: "bot".into(),
            strategy: bot.clone(),
        }];
        let seats = self.game.seats();
        if seats > 1 {
            entries.extend(self.opponents.iter().cloned());
        }
        let seed = crate::games::derive_seed(self.seed, batch as u64);
        let repeat = entries.len() < seats;
        let plan = super::hosted::plan(&self.game, Format::Gauntlet, self.games, seed, repeat);
        let run = Run {
            plan,
            shard: None,
            jobs: self.jobs,
            record: false,
        };
        let Ok(report) = runner::run(&self.game, &entries[..], entries.len(), run, |_, _, _| {})
        else {
            return Vec::new();
        };
        let solo = |g: &GameRecord| match self.game.game() {
            "2048" => super::bench::max_tile(g) as f64 / 2048.0,
            _ => g.figures.score.unwrap_or(0.0),
        };
        report
            .games
            .iter()
            .filter(|g| !g.is_void())
            .flat_map(|g| {
                let seats: Vec<usize> = (0..g.players.len())
                    .filter(|&s| g.players[s] == "bot")
                    .collect();
                seats
                    .into_iter()
                    .map(move |s| match (g.players.len(), g.winner_seat) {
                        (1, _) => solo(g),
                        (_, _) if g.faults[s].is_some() => 0.0,
                        (2, None) => 0.5,
                        (_, w) => f64::from(u8::from(w == Some(s))),
                    })
            })
            .collect()
    }

    fn validate(&self, bot: &Strategy) -> Result<(), String> {
        smoke(&self.game, bot)
    }

    /// "score" for games between players, "points/game" for 2048, "score" for other solo games.
    fn unit(&self) -> (&'static str, f64) {
        match (self.game.seats(), self.game.game()) {
            (1, "2048") => ("points/game", 1.0),
            (1, _) => ("score", 1.0),
            (2, _) => ("score", 100.0),
            _ => ("win %", 100.0),
        }
    }
}

pub fn execute(args: Args) -> anyhow::Result<ExitCode> {
    let jobs = super::jobs_or_cores(args.jobs);
    let strategies = if args.vs.is_empty() {
        Vec::new()
    } else {
        super::run::load_entries(&args.vs, &args.limits)?
    };
    let options = super::hosted::Options {
        variants: args.variants.clone(),
        maps: args.maps.clone(),
        turns: None,
        dice: args.dice.clone(),
        die: vec![args.die],
        openings: args.openings,
        seed: args.seed,
    };
    // Dice: every entry plays the chosen die; the bot is entry 0 of each batch, the opponents follow.
    let game: super::hosted::Game = match args.game.as_str() {
        "dice" => {
            let (dice, file) = super::dice_free::read(&super::dice_free::DiceArgs {
                dice: args.dice.clone(),
                die: Vec::new(),
            })?;
            let die = super::dice_free::die_index(args.die, dice.len(), &file).context("--die")?;
            std::sync::Arc::new(crate::play::dice_free::DiceFree {
                dice,
                die_of: vec![die; 1 + strategies.len()],
                seed: args.seed,
            })
        }
        _ => super::hosted::build(&args.game, &options, strategies.clone())?.0,
    };
    let opponents = if game.seats() == 1 {
        Vec::new()
    } else if strategies.is_empty() {
        anyhow::bail!("--vs: give the opponent(s) the bot plays");
    } else {
        strategies
    };
    let eval = Eval {
        game,
        opponents,
        seed: args.seed,
        games: args.batch,
        jobs,
    };
    let limits = args.limits.limits();
    let params = args.limits.params();
    let mut bot = super::load(&args.bot, &args.limits)?;
    eval.validate(&bot)
        .map_err(|e| anyhow::anyhow!("{}: {e}", args.bot.display()))?;
    let watcher = reload::watch(
        &[(args.bot.clone(), bot.hash().to_string())],
        move |_, path| {
            Strategy::load(path, &limits)
                .map(|s| s.with_params(params.clone()))
                .map_err(|e| e.to_string())
        },
    )
    .context("watching the bot's file")?;
    let version = |s: &Strategy, n: usize| format!("v{n} {}@{}", s.name(), &s.hash()[..8]);
    let mut number = 1;
    let mut current = Tally {
        name: version(&bot, number),
        ..Tally::default()
    };
    let mut previous: Option<Tally> = None;
    println!(
        "watching {}: playing batches; save the file to try a new version (Ctrl-C stops)",
        args.bot.display()
    );
    // On a terminal each version's status is one line, rewritten after every batch; elsewhere (a
    // log, a pipe) every batch adds its line.
    let status = Status {
        terminal: std::io::stdout().is_terminal(),
    };
    let mut batch = 0;
    for _ in 0..args.batches.unwrap_or(usize::MAX) {
        for message in watcher.pending() {
            status.end_line();
            match message {
                Reload::Updated { strategy, .. } => match eval.validate(&strategy) {
                    Ok(()) => {
                        number += 1;
                        bot = strategy;
                        let next = Tally {
                            name: version(&bot, number),
                            ..Tally::default()
                        };
                        println!("saved: {} starts over", next.name);
                        previous = Some(std::mem::replace(&mut current, next));
                        batch = 0;
                    }
                    Err(e) => println!("saved, but not used: {e}; {} goes on", current.name),
                },
                Reload::Failed { error, .. } => {
                    println!("saved, but not used: {error}\n  {} goes on", current.name)
                }
            }
        }
        current.scores.extend(eval.batch(&bot, batch));
        batch += 1;
        status.show(&line(&current, previous.as_ref(), eval.unit()));
    }
    status.end_line();
    // The watcher is dropped here; waiting a moment lets a last event settle in tests.
    std::thread::sleep(Duration::from_millis(10));
    Ok(ExitCode::SUCCESS)
}

/// Where the status lines go.
struct Status {
    terminal: bool,
}

impl Status {
    /// Shows the current version's status: in place on a terminal, as a new line elsewhere.
    fn show(&self, text: &str) {
        use std::io::Write as _;
        if self.terminal {
            print!("\r\x1b[2K{text}");
            let _ = std::io::stdout().flush();
        } else {
            println!("{text}");
        }
    }

    /// Ends the line being rewritten, so that what follows starts on its own.
    fn end_line(&self) {
        if self.terminal {
            println!();
        }
    }
}

/// One status line: the current version, the previous one, and the difference.
fn line(current: &Tally, previous: Option<&Tally>, (unit, scale): (&str, f64)) -> String {
    let show = |t: &Tally| {
        let half = Z * t.stderr() * scale;
        let half = if half.is_finite() {
            format!("± {half:.1}")
        } else {
            "± ?".into()
        };
        format!(
            "{}: {} games, {unit} {:.1} {half}",
            t.name,
            t.scores.len(),
            t.mean() * scale
        )
    };
    let mut out = show(current);
    if let Some(p) = previous {
        let diff = (current.mean() - p.mean()) * scale;
        let half = Z * (current.stderr().powi(2) + p.stderr().powi(2)).sqrt() * scale;
        let verdict = if !half.is_finite() {
            "too few games to tell"
        } else if diff.abs() > half {
            if diff > 0.0 {
                "better (significant at 95%)"
            } else {
                "worse (significant at 95%)"
            }
        } else {
            "no significant difference yet"
        };
        let half = if half.is_finite() {
            format!("{half:.1}")
        } else {
            "?".into()
        };
        out.push_str(&format!(
            "  |  previous {}  |  difference {diff:+.1} ± {half}: {verdict}",
            show(p)
        ));
    }
    out
}
