//! `botbox match bs` and `botbox tournament bs`: BS tables of four, seated from a pool of strategies,
//! scored by wins per game played with 95% intervals, seat effects and faults.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use botbox::play::bs::Bs;
use botbox::replay::Replay;
use botbox::tournament::arena::Entry;
use botbox::tournament::pool::{self, Plan, PlanError, Report, Score};
use comfy_table::Table;

use super::{right_align, table};

use super::arena::{self, RunArgs};

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
}

pub fn execute_match(args: MatchArgs) -> anyhow::Result<ExitCode> {
    let entries = arena::load_entries(&args.players, &args.run.limits)?;
    run_and_report(&entries, args.games, false, &args.run, "match")?;
    Ok(ExitCode::SUCCESS)
}

pub fn execute_tournament(args: TournamentArgs) -> anyhow::Result<ExitCode> {
    let entries = arena::load_entries(&args.players, &args.run.limits)?;
    run_and_report(&entries, args.games, args.repeat, &args.run, "tournament")?;
    Ok(ExitCode::SUCCESS)
}

/// Plays the games with a progress bar, writes the replays and the JSON, prints the tables.
pub(super) fn run_and_report(
    entries: &[Entry],
    games: usize,
    repeat: bool,
    run: &RunArgs,
    what: &str,
) -> anyhow::Result<Report> {
    if games == 0 {
        anyhow::bail!("no games to play: --games must be at least 1");
    }
    let plan = Plan {
        games,
        seed: run.seed,
        seats: botbox::games::bs::PLAYERS,
        repeat,
    };
    plan.check(entries.len()).map_err(|e| match e {
        PlanError::TooFew { .. } => anyhow::anyhow!(
            "{e}: give more --players, or let an entry sit at a table more than once with --repeat"
        ),
        PlanError::Empty => e.into(),
    })?;
    super::prepare_output(run.json.as_deref())?;
    super::interruptible();
    let bar = super::games_bar(games as u64);
    let replay_error = std::sync::Mutex::new(None);
    let dir = run.replay_dir.as_deref();
    let report = pool::run(
        &Bs,
        entries,
        plan,
        super::jobs_or_cores(run.jobs),
        dir.is_some(),
        |seating, _, replay| {
            if let (Some(dir), Some(replay)) = (dir, replay)
                && let Err(e) = write_replay(dir, seating.index + 1, replay)
            {
                replay_error
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .get_or_insert(e);
            }
            bar.inc(1);
        },
    )?;
    bar.finish_and_clear();
    if let Some(e) = replay_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    super::print_report(&render(&report, what))?;
    if let Some(path) = &run.json {
        super::write_json(path, &report)?;
    }
    Ok(report)
}

fn write_replay(dir: &Path, number: usize, replay: &Replay) -> anyhow::Result<()> {
    let path = dir.join(format!("bs-{number:04}.jsonl"));
    replay
        .write(&path)
        .with_context(|| format!("writing {}", path.display()))
}

/// The standings, the seat effect, how the games ended, and the first faults.
pub fn render(r: &Report, what: &str) -> String {
    let mut out = format!(
        "bs {what}: {} games, a pool of {} entries{}, seed {}\n",
        r.games.len(),
        r.entries.len(),
        if r.plan.repeat {
            " (repeats allowed)"
        } else {
            ""
        },
        r.plan.seed,
    );
    out.push_str(&standings(r).to_string());
    out.push_str("\n\nBy seat, over the games that were not void (seat 0 moves first):\n");
    out.push_str(&seats(&r.seats).to_string());
    out.push_str(&format!(
        "\n\nEnds: {} won, {} without a winner (round limit), {} void",
        r.ends.won, r.ends.no_winner, r.ends.void
    ));
    let faults = r.games.iter().flat_map(|g| {
        g.faults
            .iter()
            .enumerate()
            .filter_map(move |(seat, f)| f.as_ref().map(|f| (g, seat, f)))
    });
    for (i, (g, seat, f)) in faults.take(5).enumerate() {
        if i == 0 {
            out.push_str(
                "\n\nFaults (a loss for the faulting entry, the game void for the others):",
            );
        }
        let name = &g.players[seat];
        out.push_str(&format!("\n  game {} ({name}, seat {seat}): {f}", g.number));
    }
    out
}

fn percent(s: &Score) -> String {
    if s.games == 0 {
        "-".into()
    } else {
        format!("{:.1}%", s.win_rate)
    }
}

fn interval(s: &Score) -> String {
    if s.games == 0 {
        "-".into()
    } else {
        format!("{:.1}–{:.1}", s.low, s.high)
    }
}

fn standings(r: &Report) -> Table {
    let seats = r.plan.seats;
    let mut header: Vec<String> = ["#", "entry", "games", "wins", "win %", "95% interval"]
        .map(String::from)
        .to_vec();
    header.extend((0..seats).map(|s| format!("seat {s}")));
    header.extend(["void", "faults"].map(String::from));
    let mut t = table(header);
    for (i, s) in r.standings.iter().enumerate() {
        let faults = super::fault_counts(&s.faults, "-");
        let mut row = vec![
            (i + 1).to_string(),
            s.name.clone(),
            s.score.games.to_string(),
            s.score.wins.to_string(),
            percent(&s.score),
            interval(&s.score),
        ];
        row.extend(s.by_seat.iter().map(percent));
        row.extend([s.void.to_string(), faults]);
        t.add_row(row);
    }
    let mut right = vec![0, 2, 3, 4, 5];
    right.extend(6..6 + seats + 1);
    right_align(&mut t, right);
    t
}

fn seats(scores: &[Score]) -> Table {
    let mut t = table(
        ["seat", "games", "wins", "win %", "95% interval"]
            .map(String::from)
            .to_vec(),
    );
    for (seat, s) in scores.iter().enumerate() {
        t.add_row(vec![
            seat.to_string(),
            s.games.to_string(),
            s.wins.to_string(),
            percent(s),
            interval(s),
        ]);
    }
    right_align(&mut t, 0..5);
    t
}
