//! `botbox dice`: which die wins Mensch ärgere Dich nicht. Every pair of dice from a dice file plays
//! strict games, and the report ranks the dice, shows who beats whom, and names the winner.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::games::dice::{Die, file};
use crate::tournament::dice::{self, DiceConfig, DiceReport, PairResult, Progress, Rate, Sampling};
use anyhow::Context;
use comfy_table::Table;

use super::{right_align, table};

/// Rank dice by how often they win Mensch ärgere Dich nicht (strict rules): every pair, with 95% intervals
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  botbox dice examples/dice/wuerfel0.txt
  botbox dice my_dice.txt --precision 0.2 --jobs 2 --json dice.json
  botbox dice examples/dice/wuerfel0.txt --games-per-pair 100000 --seed 5

A dice file gives the number of dice on its first line, then one line per die: the number of faces and
the faces (whole numbers that may repeat, be 0 or exceed 6):
  2
  6 1 2 3 4 5 6
  6 1 1 1 6 6 6
With --replay-dir, the first games of every pair are recorded: botbox replay DIR/dice-D1-D2-0001.jsonl.
Games come in pairs from one seed, once with each die starting. Dice are ranked by their mean win rate
against the others; a die beats another head to head when the 95% intervals of its win and loss rates do
not overlap. The same --seed gives the same results whatever --jobs is. Rules: docs/dice.md.")]
pub struct Args {
    /// The dice file
    file: PathBuf,
    /// Play each pair until every rate's 95% interval is at most P percentage points either side
    #[arg(long, value_name = "P", default_value_t = 0.5)]
    precision: f64,
    /// Play exactly N games per pair instead (even: half with each die starting)
    #[arg(long, value_name = "N", conflicts_with = "precision")]
    games_per_pair: Option<u64>,
    /// Seed of the run: game pair k of dice pair p is seeded from (seed, p, k)
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads (default: the number of cores)
    #[arg(long, value_parser = super::at_least_one)]
    jobs: Option<usize>,
    /// Also write the full report as JSON to this file
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Write replays of the first games of every pair into this directory (see --replays-per-pair)
    #[arg(long, value_name = "DIR")]
    replay_dir: Option<PathBuf>,
    /// How many games of each pair --replay-dir keeps
    #[arg(long, value_name = "N", default_value_t = 2, requires = "replay_dir")]
    replays_per_pair: u64,
}

pub fn execute(args: Args) -> anyhow::Result<ExitCode> {
    let dice = read_dice(&args.file)?;
    let sampling = match args.games_per_pair {
        Some(games) => Sampling::GamesPerPair(games),
        None => Sampling::Precision(args.precision),
    };
    super::prepare_output(args.json.as_deref())?;
    super::interruptible();
    let jobs = super::jobs_or_cores(args.jobs);
    let config = DiceConfig {
        seed: args.seed,
        sampling,
        jobs,
    };
    let bar = super::games_bar(0);
    let report = dice::run(&dice, &config, |p| match p {
        Progress::Planned { games } => bar.inc_length(games),
        Progress::Played { games } => bar.inc(games),
    })
    .context("comparing the dice")?;
    bar.finish_and_clear();
    super::print_report(&render(&report, &args.file))?;
    if let Some(path) = &args.json {
        super::write_json(path, &report)?;
    }
    if let Some(dir) = &args.replay_dir {
        let written = write_replays(&dice, args.seed, args.replays_per_pair, dir)?;
        println!(
            "wrote {written} replays into {} (botbox replay FILE shows one)",
            dir.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Records the first `per_pair` games of every pair, as the ranking played them.
fn write_replays(dice: &[Die], seed: u64, per_pair: u64, dir: &Path) -> anyhow::Result<usize> {
    let mut written = 0;
    for (p, (a, b)) in dice::dice_pairs(dice.len()).into_iter().enumerate() {
        let pair_seed = crate::games::derive_seed(seed, p as u64);
        for g in 0..per_pair {
            let path = dir.join(format!("dice-D{}-D{}-{:04}.jsonl", a + 1, b + 1, g + 1));
            let replay = crate::play::dice::record(dice, (a, b), pair_seed, g);
            replay
                .write(&path)
                .with_context(|| format!("writing {}", path.display()))?;
            written += 1;
        }
    }
    Ok(written)
}

pub fn read_dice(path: &Path) -> anyhow::Result<Vec<Die>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    file::parse(&text).with_context(|| format!("reading the dice file {}", path.display()))
}

/// The whole report: what was run, the ranking, the matrix, every pair, and what it means.
fn render(r: &DiceReport, path: &Path) -> String {
    [
        header(r, path),
        ranking(r).to_string(),
        "Win % of the row die against the column die".to_string(),
        matrix(r).to_string(),
        "Every pair, with 95% intervals".to_string(),
        pairs(r).to_string(),
        conclusion(r),
    ]
    .join("\n\n")
}

/// A die's short name: D1, D2, ... in file order.
fn name(die: usize) -> String {
    format!("D{}", die + 1)
}

/// A die's faces, shortened past a dozen.
fn faces(die: &Die) -> String {
    let f = die.faces();
    if f.len() <= 12 {
        return die.to_string();
    }
    let head: Vec<String> = f[..8].iter().map(u64::to_string).collect();
    format!(
        "{} … {} ({} faces)",
        head.join(" "),
        f[f.len() - 1],
        f.len()
    )
}

/// A die's name and faces: `D2 (1 1 1 6 6 6)`.
fn labelled(r: &DiceReport, die: usize) -> String {
    format!("{} ({})", name(die), faces(&r.dice[die]))
}

fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn header(r: &DiceReport, path: &Path) -> String {
    let how = match r.config.sampling {
        Sampling::GamesPerPair(n) => format!("{} games per pair", thousands(n)),
        Sampling::Precision(p) => format!("each pair until its rates are known to ±{p} points"),
    };
    format!(
        "{}: {} dice, {} pairs, {} games ({how}, seed {}) in {:.2} s, {} games per second",
        path.display(),
        r.dice.len(),
        r.pairs.len(),
        thousands(r.games),
        r.config.seed,
        r.wall_seconds,
        thousands(r.games_per_second as u64),
    )
}

fn ranking(r: &DiceReport) -> Table {
    let mut t = table(
        [
            "rank",
            "die",
            "faces",
            "mean win %",
            "draws as half a win %",
            "draws %",
            "beats head to head",
        ]
        .map(String::from)
        .to_vec(),
    );
    for (rank, s) in r.standings.iter().enumerate() {
        let beats: Vec<String> = s.beats.iter().map(|&d| name(d)).collect();
        t.add_row(vec![
            (rank + 1).to_string(),
            name(s.die),
            faces(&r.dice[s.die]),
            format!(
                "{:.2} ± {:.2}",
                100.0 * s.mean_win,
                100.0 * s.mean_win_half_width
            ),
            format!("{:.2}", 100.0 * s.mean_score),
            format!("{:.2}", 100.0 * s.mean_draw),
            if beats.is_empty() {
                "none".into()
            } else {
                beats.join(" ")
            },
        ]);
    }
    right_align(&mut t, 3..6);
    t
}

fn matrix(r: &DiceReport) -> Table {
    let n = r.dice.len();
    let mut t = table(
        std::iter::once("row vs column".to_string())
            .chain((0..n).map(name))
            .collect(),
    );
    for (i, row) in r.matrix.iter().enumerate() {
        let cells = row
            .iter()
            .map(|c| c.map_or("—".into(), |w| format!("{:.1}", 100.0 * w)));
        t.add_row(std::iter::once(name(i)).chain(cells).collect::<Vec<_>>());
    }
    right_align(&mut t, 1..n + 1);
    t
}

fn rate(r: Rate) -> String {
    format!(
        "{:.2} [{:.2}, {:.2}]",
        100.0 * r.share,
        100.0 * r.low,
        100.0 * r.high
    )
}

fn pairs(r: &DiceReport) -> Table {
    let mut t = table(
        [
            "die A",
            "die B",
            "games",
            "A wins %",
            "B wins %",
            "draws %",
            "starter wins %",
            "turns per game",
        ]
        .map(String::from)
        .to_vec(),
    );
    for p in &r.pairs {
        let games = p.tally.games.max(1) as f64;
        t.add_row(vec![
            name(p.a),
            name(p.b),
            thousands(p.tally.games),
            rate(p.a_wins),
            rate(p.b_wins),
            rate(p.draws_rate),
            format!("{:.1}", 100.0 * p.tally.starter_wins as f64 / games),
            format!("{:.0}", p.tally.turns as f64 / games),
        ]);
    }
    right_align(&mut t, 2..8);
    t
}

/// What the numbers say, in sentences: draws, head to head, and the die that wins most.
fn conclusion(r: &DiceReport) -> String {
    [draws_note(r), head_to_head_note(r), winner_note(r)].join("\n")
}

fn draws_note(r: &DiceReport) -> String {
    let draws: u64 = r.pairs.iter().map(|p| p.tally.draws).sum();
    if draws == 0 {
        return "No game was drawn, so how draws are counted does not matter.".into();
    }
    let reasons = draw_reasons(&r.pairs);
    if r.draw_reversals.is_empty() {
        return format!(
            "{} games were drawn ({reasons}); counting draws as half a win instead of a loss gives the same ranking.",
            thousands(draws)
        );
    }
    let swaps: Vec<String> = r
        .draw_reversals
        .iter()
        .map(|[x, y]| format!("{} falls behind {}", name(*x), name(*y)))
        .collect();
    format!(
        "{} games were drawn ({reasons}). The ranking depends on how draws count: with draws as half a win, {}.",
        thousands(draws),
        swaps.join(", ")
    )
}

fn draw_reasons(pairs: &[PairResult]) -> String {
    let sum = |f: fn(&PairResult) -> u64| pairs.iter().map(f).sum::<u64>();
    let parts = [
        (sum(|p| p.tally.deadlocks), "in a deadlock"),
        (sum(|p| p.tally.endless_turns), "in an endless turn of 6s"),
        (sum(|p| p.tally.turn_caps), "at the turn cap"),
    ];
    let named: Vec<String> = parts
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{} {what}", thousands(*n)))
        .collect();
    named.join(", ")
}

fn head_to_head_note(r: &DiceReport) -> String {
    match r.head_to_head {
        Some(d) => format!("{} beats every other die head to head.", labelled(r, d)),
        None => {
            let leader = &r.standings[0];
            let unbeaten: Vec<String> = (0..r.dice.len())
                .filter(|&d| d != leader.die && !leader.beats.contains(&d))
                .map(name)
                .collect();
            format!(
                "No die beats every other die head to head; even the leader {} does not clearly beat {}.",
                name(leader.die),
                unbeaten.join(", ")
            )
        }
    }
}

fn winner_note(r: &DiceReport) -> String {
    let first = &r.standings[0];
    let pct = |s: &dice::Standing| {
        format!(
            "{:.2}% ± {:.2}",
            100.0 * s.mean_win,
            100.0 * s.mean_win_half_width
        )
    };
    let versus = match r.standings.get(1) {
        Some(second) if r.clear_leader => {
            format!(
                ", clearly ahead of {} with {}",
                name(second.die),
                pct(second)
            )
        }
        Some(second) => format!(
            ", but not clearly ahead of {} with {}: a smaller --precision would separate them",
            name(second.die),
            pct(second)
        ),
        None => String::new(),
    };
    format!(
        "The die that wins most is {}: it wins {} of its games against the other dice on average{versus}.",
        labelled(r, first.die),
        pct(first)
    )
}
