//! `botbox watch`: the bot author's loop. Plays batches of games with the bot against a chosen
//! opponent or field (or the 2048 benchmark), and on every save starts over with the new version.
//! In a two-player game the new version then plays the previous one head to head, pair by pair,
//! under a sequential test (`tournament::sprt`) until it says whether the new one is better; in
//! other games its score is shown next to the previous version's, with 95% intervals and whether
//! the difference is significant.

use std::io::IsTerminal as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use crate::reload::{self, Reload};
use crate::runtime::Strategy;
use crate::tournament::runner::{self, Entry, Format, GameRecord, Playable, Run};
use crate::tournament::sprt::{Hypothesis, Sequential, Sprt};
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
  botbox watch my_dice_bot.lua --game dice --vs strategies/lua/dice/frontmost.lua --sprt elo0=0,elo1=50

On a terminal each version has one line, updated after every batch (in a log, a line per batch): the
current version's score so far against the opponents, with its 95% interval.

Two-player games: a saved version plays the previous version head to head, in pairs of games with the
sides swapped, under a sequential probability ratio test (--sprt, by default elo0=0,elo1=20 in
normalized Elo), showing the log-likelihood ratio and its bounds, until the test decides: \"v3 is better
than v2 (H1 accepted) after 86 games\" or \"v3 is not better than v2 (H0 accepted)\". Looking at a
95% interval after every batch would call noise a difference far more often than 5% of the time;
the test keeps its error rates (alpha, beta) however often it looks. Then the new version plays the
opponents again. A save during a test starts a new one against the version just saved before it.

Other games: a new version plays the same games (same seeds) as the previous one did, and its score is
shown next to the previous version's; the difference is called significant when its 95% interval
excludes 0. A save that does not load or faults in a smoke game is reported and the current version
goes on. Once a version has played --rest-after games (1000 by default) against the opponents, with no
head-to-head test running, watch says so and rests, playing nothing and using no CPU until the next save.
Stop with Ctrl-C, or give --batches.")]
pub struct Args {
    /// The bot being developed (.lua, .wasm, .wat, a program, or a bot's directory: rebuilt on every save of its sources)
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
    /// Dice: the die (numbered from 1) both players use (default 1)
    #[arg(long, value_name = "N")]
    die: Option<usize>,
    /// Connect Four: the variants by name or file (`botbox games`), the first by default; 2048: the
    /// board size (5x5)
    #[arg(long = "variant", value_name = "NAME|FILE")]
    variants: Vec<String>,
    /// Connect Four: random opening plies, the same for both games of a pair
    #[arg(long, default_value_t = 0, value_name = "PLIES")]
    openings: u32,
    /// Games per opponent per batch (BS, 2048: games per batch; a head-to-head test: games per
    /// batch, rounded up to pairs)
    #[arg(long, default_value_t = 4)]
    batch: usize,
    /// Two-player games: the sequential test a saved version plays against the previous one
    /// (fastchess's spelling; alpha, beta 0.05 unless given; model=normalized or logistic)
    #[arg(
        long,
        value_name = "elo0=E0,elo1=E1,alpha=A,beta=B",
        default_value = "elo0=0,elo1=20"
    )]
    sprt: Sprt,
    /// Stop after this many batches in all (default: run until interrupted)
    #[arg(long, value_name = "N")]
    batches: Option<usize>,
    /// Rest once a version has played this many games against the opponents (and no head-to-head
    /// test is running): nothing is played, and no CPU used, until the next save; 0 never rests
    #[arg(long, default_value_t = 1000, value_name = "GAMES")]
    rest_after: usize,
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

/// The rounds of every pairing in the plans `watch` plays in batches: more than any session plays.
const ROUNDS: usize = 1 << 32;

/// Batch `batch` of `plan` (a plan of [`ROUNDS`] rounds per pairing): rounds `batch * size` to
/// `(batch + 1) * size` of every pairing. Batches go on where the last stopped, so each plays new
/// games (a game seeded by its round alone, such as dice, would otherwise play the same games in
/// every batch), and batch k is the same games for every version.
fn batch_games(
    plan: &runner::Plan,
    entries: usize,
    variants: usize,
    batch: usize,
    size: usize,
) -> Vec<runner::Scheduled> {
    let pairings = plan.len(entries) / plan.games;
    (0..pairings)
        .flat_map(|p| {
            (batch * size..(batch + 1) * size)
                .map(move |r| plan.game(p * plan.games + r, entries, variants))
        })
        .collect()
}

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
        let repeat = entries.len() < seats;
        let plan =
            crate::tournament::setup::plan(&self.game, Format::Gauntlet, ROUNDS, self.seed, repeat);
        let games = batch_games(
            &plan,
            entries.len(),
            self.game.variants(),
            batch,
            self.games,
        );
        let run = Run {
            plan,
            shard: None,
            jobs: self.jobs,
            record: false,
        };
        let count = entries.len();
        let Ok(report) = runner::run_games_until(
            &self.game,
            &entries[..],
            count,
            run,
            games,
            |_, _, _| {},
            |_| false,
        ) else {
            return Vec::new();
        };
        let setup = crate::games::registry::find(self.game.game())
            .ok()
            .map(crate::tournament::setup::of);
        let solo = |g: &GameRecord| setup.map_or(0.0, |s| s.solo_figure(g));
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
                        (2, _) => g.points(s),
                        (_, _) if g.faults[s].is_some() => 0.0,
                        (_, w) => f64::from(u8::from(w == Some(s))),
                    })
            })
            .collect()
    }

    fn validate(&self, bot: &Strategy) -> Result<(), String> {
        smoke(&self.game, bot)
    }

    /// A solo game's own unit (2048: "points/game", the largest tile / 2048; else "score"), "score"
    /// for games between players, "win %" at tables.
    fn unit(&self) -> (&'static str, f64) {
        let rules = crate::games::registry::find(self.game.game());
        match self.game.seats() {
            1 => (
                rules.map_or("score", |r| crate::tournament::setup::of(r).solo_unit()),
                1.0,
            ),
            2 => ("score", 100.0),
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
    let options = crate::tournament::setup::Options {
        variants: args.variants.clone(),
        maps: args.maps.clone(),
        turns: None,
        dice: args.dice.clone(),
        die: args.die.into_iter().collect(),
        openings: args.openings,
        seed: args.seed,
        one_pairing: false,
        // The bot is entry 0 of each batch and the opponents follow, each under its own name (dice:
        // all on one die).
        entries_as_given: true,
    };
    let game = crate::tournament::setup::build(&args.game, &options, strategies.clone())?.0;
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
            crate::hosted::load(path, &limits)
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
    // Two-player games: the head-to-head test of the newest version against the one before it.
    let head_to_head = eval.game.seats() == 2;
    let mut test: Option<HeadToHead> = None;
    // A version that has its answer rests: it waits for the next save instead of playing on.
    let mut resting = false;
    let mut batches = 0;
    while batches < args.batches.unwrap_or(usize::MAX) {
        let messages = if resting {
            // Blocks, using no CPU, until the file changes.
            let first = std::iter::repeat_with(|| watcher.next(Duration::from_secs(3600)))
                .flatten()
                .next();
            first.into_iter().chain(watcher.pending()).collect()
        } else {
            watcher.pending()
        };
        for message in messages {
            status.end_line();
            match message {
                Reload::Updated { strategy, .. } => match eval.validate(&strategy) {
                    Ok(()) => {
                        number += 1;
                        let next = Tally {
                            name: version(&strategy, number),
                            ..Tally::default()
                        };
                        if let Some(t) = test.take() {
                            println!("{}", t.abandoned());
                        }
                        if head_to_head {
                            println!(
                                "saved: {} plays {} head to head (SPRT {})",
                                next.name, current.name, args.sprt
                            );
                            let old = Entry {
                                name: current.name.clone(),
                                strategy: bot.clone(),
                            };
                            let new = Entry {
                                name: next.name.clone(),
                                strategy: strategy.clone(),
                            };
                            test = Some(HeadToHead::new(args.sprt, new, old));
                        } else {
                            println!("saved: {} starts over", next.name);
                        }
                        bot = strategy;
                        previous = Some(std::mem::replace(&mut current, next));
                        batch = 0;
                        resting = false;
                    }
                    Err(e) => println!("saved, but not used: {e}; {} goes on", current.name),
                },
                Reload::Failed { error, .. } => {
                    println!("saved, but not used: {error}\n  {} goes on", current.name)
                }
            }
        }
        if test.is_none() && args.rest_after > 0 && current.scores.len() >= args.rest_after {
            if !resting {
                status.end_line();
                println!(
                    "{}: {} games played (--rest-after {}): resting until the next save",
                    current.name,
                    current.scores.len(),
                    args.rest_after
                );
                resting = true;
            }
            continue;
        }
        batches += 1;
        if let Some(t) = &mut test {
            t.batch(&eval, args.batch);
            status.show(&t.line());
            if let Some(verdict) = t.verdict() {
                status.end_line();
                println!("{verdict}");
                test = None;
            }
            continue;
        }
        current.scores.extend(eval.batch(&bot, batch));
        batch += 1;
        // Two-player versions are compared head to head, not by their scores against the field.
        let shown = if head_to_head {
            None
        } else {
            previous.as_ref()
        };
        status.show(&line(&current, shown, eval.unit()));
    }
    status.end_line();
    // The watcher is dropped here; waiting a moment lets a last event settle in tests.
    std::thread::sleep(Duration::from_millis(10));
    Ok(ExitCode::SUCCESS)
}

/// A new version against the previous one, pair by pair, until the sequential test decides.
struct HeadToHead {
    /// The new version, then the previous one.
    entries: [Entry; 2],
    test: Sequential,
    /// Batches played.
    batches: usize,
}

impl HeadToHead {
    fn new(sprt: Sprt, new: Entry, old: Entry) -> HeadToHead {
        HeadToHead {
            test: Sequential::new(sprt, &new.name, &old.name),
            entries: [new, old],
            batches: 0,
        }
    }

    /// Plays the next batch of `size` games (rounded up to pairs), stopping at the verdict: one
    /// long run of pairs, played a batch at a time.
    fn batch(&mut self, eval: &Eval, size: usize) {
        let size = size.max(1).next_multiple_of(2);
        let plan = crate::tournament::setup::plan(
            &eval.game,
            Format::RoundRobin,
            ROUNDS,
            eval.seed,
            false,
        );
        let games = batch_games(&plan, 2, eval.game.variants(), self.batches, size);
        self.batches += 1;
        let run = Run {
            plan,
            shard: None,
            jobs: eval.jobs,
            record: false,
        };
        let test = &mut self.test;
        let until = |g: &GameRecord| test.push(g).is_some();
        let entries = &self.entries[..];
        // The plan was made for two entries of a two-player game, so it cannot be refused.
        let _ = runner::run_games_until(&eval.game, entries, 2, run, games, |_, _, _| {}, until);
    }

    /// `v3 vs v2: 24 games, LLR 0.53 (-2.94, 2.94), pairs [...]`.
    fn line(&self) -> String {
        let r = self.test.report();
        format!(
            "{} vs {}: {} games, {}, {}",
            r.first,
            r.second,
            r.games,
            r.llr_line(),
            r.penta_line()
        )
    }

    /// The verdict in words, once there is one.
    fn verdict(&self) -> Option<String> {
        let r = self.test.report();
        let (new, old) = (short(&r.first), short(&r.second));
        let games = r.games;
        Some(match r.verdict? {
            Hypothesis::H1 => {
                format!(
                    "{new} is better than {old} (H1 accepted) after {games} games: {}",
                    r.llr_line()
                )
            }
            Hypothesis::H0 => format!(
                "{new} is not better than {old} (H0 accepted) after {games} games: {}",
                r.llr_line()
            ),
        })
    }

    /// What an unfinished test had shown when a newer save replaced it.
    fn abandoned(&self) -> String {
        let r = self.test.report();
        format!(
            "{} vs {}: undecided after {} games ({}), replaced by the new save",
            short(&r.first),
            short(&r.second),
            r.games,
            r.llr_line()
        )
    }
}

/// A version's number alone (`v3` of `v3 bot@1a2b3c4d`).
fn short(name: &str) -> &str {
    name.split(' ').next().unwrap_or(name)
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
