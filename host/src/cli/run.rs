//! What every run of games shares (`bench`, `match`, `tournament`, tournament files): the run flags,
//! loading the entries, running the schedule on the one runner with a progress bar and replay files,
//! hot reload, shards, and the report's tables for every kind of game.

use std::path::{Path, PathBuf};

use crate::reload::{self, Watcher};
use crate::replay::Replay;
use crate::runtime::Strategy;
use crate::tournament::live::Live;
use crate::tournament::runner::{
    self, Ending, Entry, Format, Plan, Playable, Report, Run, Scheduled, Shard,
};
use crate::tournament::sprt::{Sequential, Sprt, SprtReport};
use crate::tournament::summary::Score;
use anyhow::Context;
use comfy_table::Table;

use super::{right_align, table};

use super::limits::LimitArgs;

/// The flags of every run of games.
#[derive(Debug, Clone, clap::Args)]
pub struct RunArgs {
    /// Seed of the run: game i is seeded from (seed, i) alone
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub out: Outputs,
    #[command(flatten)]
    pub limits: LimitArgs,
}

/// Where a run's work goes: its threads, its report and its replays (a tournament file's `jobs` and
/// `[output]` give the defaults the command line overrides).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct Outputs {
    /// Games played at once (default: a tournament file's `jobs`, else the number of cores);
    /// results do not depend on it
    #[arg(long, value_parser = super::at_least_one)]
    pub jobs: Option<usize>,
    /// Also write the full report (standings, pairs, every game) as JSON to this file
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write every game's replay into this directory (<game>-0001.jsonl, ...), with an index of
    /// them (<game>-index.tsv: players, winner, end, faults)
    #[arg(long, value_name = "DIR")]
    pub replay_dir: Option<PathBuf>,
}

/// Loads the entries, named by their file stems (made unique where two share one).
pub fn load_entries(paths: &[PathBuf], limits: &LimitArgs) -> anyhow::Result<Vec<Entry>> {
    let strategies = paths
        .iter()
        .map(|p| super::load(p, limits).with_context(|| format!("entry {}", p.display())))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let names = runner::unique_names(&strategies);
    Ok(names
        .into_iter()
        .zip(strategies)
        .map(|(name, strategy)| Entry { name, strategy })
        .collect())
}

/// The flags only tournaments have: hot reload and shards.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct TournamentFlags {
    /// Hot reload: a saved change to an entry's file is loaded, smoke-tested and plays from the next
    /// game on, under its own name (stem@hash); a save that does not load keeps the old version
    #[arg(long, conflicts_with = "shard")]
    pub reload: bool,
    /// Play only part K of N of the games (as in 3/16), for `botbox merge` to combine
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
}

/// A sequential test on a two-player run of two entries (`match`, `tournament`).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct SprtArgs {
    /// Sequential test of the first strategy against the second, spelled as fastchess does
    /// (alpha and beta default to 0.05; model=normalized, the default, or logistic): pairs of
    /// games, sides swapped, until the log-likelihood ratio crosses a bound; --games is then the
    /// most to play (default 20000)
    #[arg(long, value_name = "elo0=E0,elo1=E1,alpha=A,beta=B")]
    pub sprt: Option<Sprt>,
}

/// The most games an SPRT plays when --games is not given.
pub const SPRT_CAP: usize = 20_000;

impl SprtArgs {
    /// The games to play: `given`, else 20 (or [`SPRT_CAP`] with --sprt, which plays pairs: an
    /// even number).
    pub fn games(&self, given: Option<usize>) -> anyhow::Result<usize> {
        match (given, self.sprt) {
            (None, None) => Ok(20),
            (None, Some(_)) => Ok(SPRT_CAP),
            (Some(n), Some(_)) if n % 2 == 1 => anyhow::bail!(
                "--games {n} is odd: --sprt plays games in pairs with the sides swapped"
            ),
            (Some(n), _) => Ok(n),
        }
    }
}

/// Runs `plan` with a progress bar, writes replays and the JSON, prints the tables under `title`
/// (`worms round robin`, say).
pub fn run_and_report<P: Playable + Clone + Send + 'static>(
    game: &P,
    entries: &[Entry],
    plan: Plan,
    run: &RunArgs,
    flags: &TournamentFlags,
    sprt: Option<Sprt>,
) -> anyhow::Result<Report> {
    if let Some(test) = &sprt {
        check_sprt(test, game.seats(), &plan, entries.len(), flags)?;
    }
    plan.check(game.game(), entries.len())
        .map_err(|e| match e {
            runner::PlanError::TooFew { .. } => anyhow::anyhow!(
                "{e}: give more entries, or let an entry sit at a table more than once (--repeat)"
            ),
            e => e.into(),
        })?;
    let jobs = super::jobs_or_cores(run.out.jobs);
    let dir = run.out.replay_dir.as_deref();
    let spec = Run {
        plan,
        shard: flags.shard,
        jobs,
        record: dir.is_some(),
    };
    let total = spec.count(entries.len());
    if total == 0 {
        anyhow::bail!("no games to play in shard {:?}", flags.shard);
    }
    let bar = match sprt {
        Some(_) => super::sprt_bar(total as u64),
        None => super::games_bar(total as u64),
    };
    let replay_error = std::sync::Mutex::new(None);
    let on_game = |scheduled: &Scheduled, _: &Ending, replay: Option<&Replay>| {
        if let (Some(dir), Some(replay)) = (dir, replay)
            && let Err(e) = write_replay(dir, game.game(), scheduled.index + 1, replay)
        {
            replay_error
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get_or_insert(e);
        }
        bar.inc(1);
    };
    super::prepare_output(run.out.json.as_deref())?;
    super::interruptible();
    let mut report = if flags.reload {
        let watcher = watch_entries(game, entries)?;
        let say = |message: &str| bar.suspend(|| eprintln!("{message}"));
        say(&format!(
            "watching {} files: saved changes play from the next game on",
            entries.len()
        ));
        let live = Live::new(entries, watcher, say);
        runner::run(game, &live, entries.len(), spec, on_game)?
    } else if let Some(test) = sprt {
        let mut sequential = Sequential::new(test, &entries[0].name, &entries[1].name);
        bar.set_message(sequential.report().llr_line());
        let until = |record: &runner::GameRecord| {
            let decided = sequential.push(record).is_some();
            bar.set_message(sequential.report().llr_line());
            decided
        };
        runner::run_until(game, entries, entries.len(), spec, on_game, until)?
    } else {
        runner::run(game, entries, entries.len(), spec, on_game)?
    };
    if let Some(test) = sprt {
        // From the records alone, as every summary is.
        report.sprt = Some(Sequential::of(
            test,
            &entries[0].name,
            &entries[1].name,
            &report.games,
        ));
        if let Some(dir) = dir {
            drop_replays_after(dir, game.game(), report.games.len());
        }
    }
    bar.finish_and_clear();
    if let Some(e) = replay_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    if let Some(dir) = dir {
        write_index(dir, game.game(), &report, flags.shard)?;
    }
    super::print_report(&render(&report))?;
    if let Some(path) = &run.out.json {
        super::write_json(path, &report)?;
    }
    Ok(report)
}

/// Refuses a sequential test on a run it cannot judge.
fn check_sprt(
    test: &Sprt,
    seats: usize,
    plan: &Plan,
    entries: usize,
    flags: &TournamentFlags,
) -> anyhow::Result<()> {
    anyhow::ensure!(
        seats == 2,
        "--sprt compares two players, and this game seats {seats}"
    );
    anyhow::ensure!(
        entries == 2,
        "--sprt {test} tests one strategy against another: it needs exactly two entries, and this \
         run has {entries} (for a candidate against a field, test it against each opponent in turn)"
    );
    anyhow::ensure!(
        flags.shard.is_none(),
        "--sprt decides where to stop from the games in order, so it cannot be played in --shard parts"
    );
    anyhow::ensure!(
        !flags.reload,
        "--sprt tests two fixed versions: it cannot be combined with --reload (`botbox watch` tests each saved version)"
    );
    anyhow::ensure!(
        plan.games.is_multiple_of(2),
        "--games {} is odd: --sprt plays games in pairs with the sides swapped",
        plan.games
    );
    Ok(())
}

/// Removes the replays of games played past a sequential test's verdict (under way when it came):
/// they are not in the report. Games are started in order, so they are numbered from `kept + 1` on.
fn drop_replays_after(dir: &Path, game: &str, kept: usize) {
    let mut number = kept + 1;
    while std::fs::remove_file(replay_path(dir, game, number)).is_ok() {
        number += 1;
    }
}

/// Watches the entries' files: each saved version is loaded with the entry's limits and
/// parameters and smoke-tested ([`smoke`]), on the watcher's loader thread.
pub fn watch_entries<P: Playable + Clone + Send + 'static>(
    game: &P,
    entries: &[Entry],
) -> anyhow::Result<Watcher> {
    let files: Vec<(PathBuf, String)> = entries
        .iter()
        .map(|e| {
            (
                e.strategy.path().to_path_buf(),
                e.strategy.hash().to_string(),
            )
        })
        .collect();
    let templates: Vec<Entry> = entries.to_vec();
    let game = game.clone();
    reload::watch(&files, move |index, path| {
        let old = &templates[index].strategy;
        let strategy = crate::hosted::load(path, old.limits())
            .map_err(|e| e.to_string())?
            .with_params(old.params().clone());
        smoke(&game, &strategy)?;
        Ok(strategy)
    })
    .context("watching the entries' files")
}

/// One game of `strategy` in every seat, on the first variant: an error if it faults.
pub fn smoke<P: Playable + ?Sized>(game: &P, strategy: &Strategy) -> Result<(), String> {
    let entry = Entry {
        name: strategy.name().to_string(),
        strategy: strategy.clone(),
    };
    let seats = game.seats();
    let scheduled = Scheduled {
        index: 0,
        seed: 0,
        seats: vec![0; seats],
        variant: 0,
        round: 0,
    };
    let players = vec![&entry; seats];
    let (ending, _) = game.play(&scheduled, &players, false);
    match ending.faults.iter().flatten().next() {
        Some(fault) if seats > 1 => Err(format!("the smoke game against itself faulted: {fault}")),
        Some(fault) => Err(format!("the smoke game faulted: {fault}")),
        None => Ok(()),
    }
}

/// The index of a run's replays in `dir`, beside them: `<game>-index.tsv` (`<game>-index-K-of-N.tsv`
/// for shard K of N), a line per game with its file, variant, players in seat order, winner (a solo
/// game's score), how it ended, its turns and its faults, so the game an entry lost or faulted in
/// is found with `grep`.
fn write_index(
    dir: &Path,
    game: &str,
    report: &Report,
    shard: Option<Shard>,
) -> anyhow::Result<()> {
    let name = match shard {
        Some(s) => format!("{game}-index-{}-of-{}.tsv", s.index, s.count),
        None => format!("{game}-index.tsv"),
    };
    // A tab or a line break in a name would break the table.
    let cell = |text: &str| text.replace(['\t', '\n', '\r'], " ");
    let mut text = String::from("file\tvariant\tplayers\twinner\tended\tturns\tfaults\n");
    for g in &report.games {
        let file = replay_path(Path::new(""), game, g.number);
        let faults: Vec<String> = g
            .faults
            .iter()
            .enumerate()
            .filter_map(|(seat, f)| {
                f.as_ref()
                    .map(|f| format!("seat {seat}: {}", f.kind.name()))
            })
            .collect();
        let players: Vec<String> = g.players.iter().map(|p| cell(p)).collect();
        text.push_str(&format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
            file.display(),
            cell(&g.variant),
            players.join(", "),
            match (&g.winner, g.figures.score) {
                (Some(winner), _) => cell(winner),
                (None, Some(score)) if g.players.len() == 1 => format!("score {score}"),
                (None, _) => "-".to_string(),
            },
            cell(&g.reason),
            g.turns,
            if faults.is_empty() {
                "-".to_string()
            } else {
                faults.join(", ")
            },
        ));
    }
    let path = dir.join(name);
    std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))
}

/// Where game `number`'s replay goes in `dir`: `<game>-0001.jsonl` for every game.
pub fn replay_path(dir: &Path, game: &str, number: usize) -> PathBuf {
    dir.join(format!("{game}-{number:04}.jsonl"))
}

fn write_replay(dir: &Path, game: &str, number: usize, replay: &Replay) -> anyhow::Result<()> {
    let path = replay_path(dir, game, number);
    replay
        .write(&path)
        .with_context(|| format!("writing {}", path.display()))
}

/// The report's tables: Elo standings and pairs for two players, win rates by seat for more, the
/// score's spread for solo games; then the first faults.
pub fn render(r: &Report) -> String {
    let kind = match r.plan.format {
        Format::RoundRobin if r.entries.len() == 2 => "match",
        Format::RoundRobin => "round robin",
        Format::Gauntlet => "gauntlet",
        Format::Pool if r.entries.len() == r.plan.seats && !r.plan.repeat => "match",
        Format::Pool => "tournament",
        Format::Series => "series",
    };
    let per = match r.plan.format {
        _ if r.sprt.is_some() => format!(", SPRT with at most {}", r.plan.games),
        Format::Pool => String::new(),
        Format::Series => format!(", {} per entry", r.plan.games),
        _ => format!(", {} per pairing", r.plan.games),
    };
    let variants = if r.variants.len() == 1 {
        format!("variant ({})", r.variants[0])
    } else {
        format!("{} variants ({})", r.variants.len(), r.variants.join(", "))
    };
    let mut out = format!(
        "{} {kind}: {} games{per}, seed {}, {variants}{}\n",
        r.game,
        r.games.len(),
        r.plan.seed,
        if r.plan.repeat {
            ", repeats allowed"
        } else {
            ""
        },
    );
    match r.plan.seats {
        2 => duel(r, &mut out),
        1 => {
            out.push_str(&solo(r).to_string());
            let rules = crate::games::registry::find(&r.game).ok();
            if let Some(figures) = rules.and_then(|g| crate::tournament::setup::of(g).figures(r)) {
                out.push_str(&super::bench::render_figures(&figures));
            }
        }
        _ => pool(r, &mut out),
    }
    if let Some(test) = &r.sprt {
        out.push_str(&sprt(test, r.plan.games));
    }
    let faults = r.games.iter().flat_map(|g| {
        g.faults
            .iter()
            .enumerate()
            .filter_map(move |(seat, f)| f.as_ref().map(|f| (g, seat, f)))
    });
    for (i, (g, seat, f)) in faults.take(5).enumerate() {
        if i == 0 {
            out.push_str(match r.plan.seats {
                1 | 2 => "\n\nFaults (each lost its game):",
                _ => "\n\nFaults (a loss for the faulting entry, the game void for the others):",
            });
        }
        let name = &g.players[seat];
        let turns = match g.turns {
            1 => "after 1 turn".to_string(),
            n => format!("after {n} turns"),
        };
        out.push_str(&format!(
            "\n  game {} ({name}, seat {seat}), {turns}: {f}",
            g.number
        ));
    }
    out
}

/// A sequential test's lines: its parameters, LLR and bounds, pairs and verdict.
fn sprt(t: &SprtReport, cap: usize) -> String {
    let verdict = match t.verdict {
        Some(_) => format!("{} after {} games", t.conclusion(), t.games),
        None if t.games >= cap => format!("undecided: the cap of {cap} games (--games) came first"),
        None => format!("undecided: the run stopped after {} games", t.games),
    };
    format!(
        "\n\nSPRT {}: {}\n{}\n{verdict}",
        t.test,
        t.llr_line(),
        t.penta_line()
    )
}

fn duel(r: &Report, out: &mut String) {
    out.push_str(&standings(r).to_string());
    if let Some(distinct) = r.summary.distinct_games.filter(|d| *d < r.games.len()) {
        let games = r.games.len();
        let warning = if distinct * 10 < games * 9 {
            ": the same games were played again, so the intervals above are narrower than the \
             evidence (start each pair of games from random moves with --openings)"
        } else {
            ""
        };
        out.push_str(&format!(
            "\n\n{distinct} distinct games of {games}{warning}"
        ));
    }
    if r.summary.pairs.len() > 1 {
        out.push_str("\n\nPairs (the first entry's results against the second):\n");
        out.push_str(&pairs(r).to_string());
    }
}

/// The cells of a win-draw-loss record: wins, draws, losses, score and Elo.
fn results(
    wins: usize,
    draws: usize,
    losses: usize,
    score: f64,
    elo_diff: Option<f64>,
    margin: Option<f64>,
) -> [String; 5] {
    [
        wins.to_string(),
        draws.to_string(),
        losses.to_string(),
        format!("{score:.1}%"),
        elo(elo_diff, margin, score, wins + draws + losses),
    ]
}

/// The Elo cell, in words where the figure is unbounded: a score of 100% or 0% has no finite Elo,
/// and an interval that reaches them no finite margin (JSON has `null` there).
fn elo(elo: Option<f64>, margin: Option<f64>, score: f64, games: usize) -> String {
    match (elo, margin) {
        (Some(e), Some(m)) => format!("{e:+.0} ± {m:.0}"),
        (Some(e), None) => format!("{e:+.0}, margin unbounded"),
        (None, _) if games == 0 => "no games".into(),
        (None, _) if score >= 100.0 => "all won: unbounded".into(),
        (None, _) if score <= 0.0 => "all lost: unbounded".into(),
        (None, _) => "-".into(),
    }
}

fn standings(r: &Report) -> Table {
    let mut t = table(vec![
        "#", "entry", "games", "wins", "draws", "losses", "score", "Elo", "faults",
    ]);
    for (i, s) in r.summary.standings.iter().enumerate() {
        let faults = super::fault_counts(&s.faults, "-");
        let mut row = vec![(i + 1).to_string(), s.name.clone(), s.games.to_string()];
        row.extend(results(
            s.wins,
            s.draws,
            s.losses,
            s.score,
            s.elo,
            s.elo_margin,
        ));
        row.push(faults);
        t.add_row(row);
    }
    right_align(&mut t, [0, 2, 3, 4, 5, 6, 7]);
    t
}

fn pairs(r: &Report) -> Table {
    let mut t = table(vec![
        "entry", "opponent", "wins", "draws", "losses", "score", "Elo",
    ]);
    for p in &r.summary.pairs {
        let mut row = vec![p.a.clone(), p.b.clone()];
        row.extend(results(
            p.wins,
            p.draws,
            p.losses,
            p.score,
            p.elo,
            p.elo_margin,
        ));
        t.add_row(row);
    }
    right_align(&mut t, [2, 3, 4, 5, 6]);
    t
}

/// Solo games: each entry's score, mean with its 95% margin and median, and its faults.
fn solo(r: &Report) -> Table {
    let mut t = table(vec![
        "#",
        "entry",
        "games",
        "mean score",
        "95% margin",
        "median",
        "faults",
    ]);
    for (i, s) in r.summary.standings.iter().enumerate() {
        t.add_row(vec![
            (i + 1).to_string(),
            s.name.clone(),
            s.games.to_string(),
            format!("{:.1}", s.mean_score.unwrap_or(0.0)),
            format!("± {:.1}", s.score_margin.unwrap_or(0.0)),
            format!("{:.1}", s.median_score.unwrap_or(0.0)),
            super::fault_counts(&s.faults, "none"),
        ]);
    }
    right_align(&mut t, [0, 2, 3, 4, 5]);
    t
}

/// Games of more than two seats: win rates with intervals, by seat, and how the games ended.
fn pool(r: &Report, out: &mut String) {
    let seats = r.plan.seats;
    let mut header: Vec<String> = ["#", "entry", "games", "wins", "win %", "95% interval"]
        .map(String::from)
        .to_vec();
    header.extend((0..seats).map(|s| format!("seat {s}")));
    header.extend(["void", "faults"].map(String::from));
    let mut t = table(header);
    for (i, s) in r.summary.standings.iter().enumerate() {
        let faults = super::fault_counts(&s.faults, "-");
        let all = s.win_score();
        let mut row = vec![
            (i + 1).to_string(),
            s.name.clone(),
            s.games.to_string(),
            s.wins.to_string(),
            percent(&all),
            interval(&all),
        ];
        row.extend(s.by_seat.iter().map(percent));
        row.extend([s.void.to_string(), faults]);
        t.add_row(row);
    }
    let mut right = vec![0, 2, 3, 4, 5];
    right.extend(6..6 + seats + 1);
    right_align(&mut t, right);
    out.push_str(&t.to_string());
    out.push_str("\n\nBy seat, over the games no fault ended (seat 0 moves first):\n");
    let mut t = table(
        ["seat", "games", "wins", "win %", "95% interval"]
            .map(String::from)
            .to_vec(),
    );
    for (seat, s) in r.summary.seats.iter().enumerate() {
        t.add_row(vec![
            seat.to_string(),
            s.games.to_string(),
            s.wins.to_string(),
            percent(s),
            interval(s),
        ]);
    }
    right_align(&mut t, 0..5);
    out.push_str(&t.to_string());
    let e = &r.summary.ends;
    out.push_str(&format!(
        "\n\nEnds: {} won, {} without a winner, {} ended by a fault",
        e.won, e.no_winner, e.faulted
    ));
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

#[cfg(test)]
mod tests {
    /// Unbounded figures are told in words, never as infinities.
    #[test]
    fn an_unbounded_elo_is_told_in_words() {
        let cases = [
            ((Some(120.4), Some(35.2), 66.7, 30), "+120 ± 35"),
            ((Some(400.0), None, 91.0, 11), "+400, margin unbounded"),
            ((None, None, 100.0, 8), "all won: unbounded"),
            ((None, None, 0.0, 8), "all lost: unbounded"),
            ((None, None, 0.0, 0), "no games"),
        ];
        for ((elo, margin, score, games), want) in cases {
            assert_eq!(super::elo(elo, margin, score, games), want);
        }
    }
}
