//! `botbox replay`: print a recorded game move by move.

use std::path::PathBuf;
use std::process::ExitCode;

use std::fmt::Write as _;
use std::io::IsTerminal as _;

use anyhow::{Context, bail};
use botbox::play::g2048::Turn;
use botbox::replay::{self, ReplayFile};

/// Print a recorded game (a replay file written with --replay-dir) move by move
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  botbox bench 2048 strategies/lua/g2048/corner.lua --games 3 --replay-dir replays/
  botbox replay replays/game-0001.jsonl
  botbox replay replays/game-0001.jsonl --last 5
  botbox replay replays/bs-0012.jsonl               # a BS game turn by turn, every card face up
  botbox replay replays/worms-0007.jsonl            # animated on a terminal: space, arrows, + and -
  botbox replay replays/worms-0007.jsonl --print    # every board as text")]
pub struct Args {
    /// The replay file (JSON Lines, see docs/replay-format.md)
    file: PathBuf,
    /// Print only the last N moves
    #[arg(long, value_name = "N")]
    last: Option<usize>,
    /// Print the game as text even on a terminal (Wormworld games are animated there by default)
    #[arg(long)]
    print: bool,
}

pub fn execute(args: Args) -> anyhow::Result<ExitCode> {
    let file = replay::read(&args.file)?;
    let mut out = String::new();
    match file.header.game.as_str() {
        "2048" => print_2048(&mut out, &file, args.last)?,
        "dice" => print_dice(&mut out, &file, args.last)?,
        "bs" => super::bs_view::print_replay(&mut out, &file, args.last)?,
        "worms" if !args.print && args.last.is_none() && std::io::stdout().is_terminal() => {
            super::worms_view::animate_replay(&file)?;
        }
        "worms" => super::worms_view::print_replay(&mut out, &file, args.last)?,
        _ => print_contract(&mut out, &file, args.last, &args.file)?,
    }
    super::print_report(out.trim_end())?;
    Ok(ExitCode::SUCCESS)
}

fn print_2048(out: &mut String, file: &ReplayFile, last: Option<usize>) -> anyhow::Result<()> {
    let h = &file.header;
    let who: Vec<String> = h
        .strategies
        .iter()
        .map(|s| format!("{} ({}, sha256 {:.12})", s.name, s.kind, s.sha256))
        .collect();
    writeln!(
        out,
        "2048 game {} seed {}  {}  {}",
        h.number,
        h.seed,
        h.params,
        who.join(", ")
    )?;
    let start: Vec<Vec<u32>> =
        serde_json::from_value(h.start["board"].clone()).context("reading the start board")?;
    let skip = last.map_or(0, |n| file.turns.len().saturating_sub(n));
    if skip == 0 {
        writeln!(out, "start")?;
        print_board(out, &start)?;
    }
    for (i, value) in file.turns.iter().enumerate().skip(skip) {
        let t: Turn = serde_json::from_value(value.clone())
            .with_context(|| format!("reading move {}", i + 1))?;
        let spawn = t.spawn.map_or(String::new(), |s| {
            format!(", {} at ({}, {})", s.value, s.cell[0], s.cell[1])
        });
        writeln!(
            out,
            "move {}: {} +{}{spawn}  score {}",
            t.n,
            t.action.name(),
            t.gained,
            t.score
        )?;
        print_board(out, &t.after)?;
    }
    match &file.end {
        Some(end) => {
            let r = &end.result;
            writeln!(
                out,
                "end: score {} after {} moves, largest tile {}",
                r["score"], r["moves"], r["max_tile"]
            )?;
            if !r["fault"].is_null() {
                writeln!(
                    out,
                    "fault: {}: {}",
                    r["fault"]["kind"].as_str().unwrap_or("?"),
                    r["fault"]["message"].as_str().unwrap_or("")
                )?;
            }
            for line in end.logs.iter().flatten() {
                writeln!(out, "  | {line}")?;
            }
        }
        None => writeln!(
            out,
            "(the replay ends without a result: the game was cut short)"
        )?,
    }
    Ok(())
}

fn print_board(out: &mut String, rows: &[Vec<u32>]) -> std::fmt::Result {
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .map(|v| {
                if *v == 0 {
                    format!("{:>6}", ".")
                } else {
                    format!("{v:>6}")
                }
            })
            .collect();
        writeln!(out, "  {}", cells.join(""))?;
    }
    Ok(())
}

fn print_dice(out: &mut String, file: &ReplayFile, last: Option<usize>) -> anyhow::Result<()> {
    use botbox::games::dice::Place;
    use botbox::play::dice::Turn;
    let h = &file.header;
    let dice = &h.params["dice"];
    let name = |seat: usize| dice[seat]["name"].as_str().unwrap_or("?").to_string();
    let starter = if h.params["a_starts"] == true {
        name(0)
    } else {
        name(1)
    };
    writeln!(
        out,
        "dice game {} seed {}: {} {} against {} {}, {} starts",
        h.number,
        h.seed,
        name(0),
        dice[0]["faces"],
        name(1),
        dice[1]["faces"],
        starter
    )?;
    let show = |places: &[[Place; 4]; 2]| -> String {
        let side = |ps: &[Place; 4]| {
            ps.iter()
                .map(|p| match p {
                    Place::Waiting => "B".to_string(),
                    Place::Step(0) => "A".to_string(),
                    Place::Step(s) if *s >= 40 => {
                        ["a", "b", "c", "d"][(*s - 40) as usize].to_string()
                    }
                    Place::Step(s) => s.to_string(),
                })
                .collect::<Vec<_>>()
                .join(" ")
        };
        format!(
            "{}: {}  |  {}: {}",
            name(0),
            side(&places[0]),
            name(1),
            side(&places[1])
        )
    };
    let skip = last.map_or(0, |n| file.turns.len().saturating_sub(n));
    for (i, value) in file.turns.iter().enumerate().skip(skip) {
        let t: Turn = serde_json::from_value(value.clone())
            .with_context(|| format!("reading turn {}", i + 1))?;
        let what = match t.mv {
            None => "no move".to_string(),
            Some(m) => format!(
                "{} -> {}{}",
                match m.from {
                    Place::Waiting => "B".into(),
                    Place::Step(s) => s.to_string(),
                },
                m.to,
                if t.captured { ", captures" } else { "" }
            ),
        };
        writeln!(
            out,
            "turn {:>4}: {} rolls {:>2}: {:<18} {}",
            t.n,
            name(t.seat as usize),
            t.face,
            what,
            show(&t.places)
        )?;
    }
    if let Some(end) = &file.end {
        let r = &end.result;
        match r["winner"].as_u64() {
            Some(seat) => writeln!(
                out,
                "end: {} wins after {} turns",
                name(seat as usize),
                r["turns"]
            )?,
            None => writeln!(
                out,
                "end: draw ({}) after {} turns",
                r["reason"].as_str().unwrap_or("?"),
                r["turns"]
            )?,
        }
    }
    Ok(())
}

/// Any registered game's replay, re-played through the game contract: each recorded action is applied
/// to a new game with the recorded seed and variant, and the first one that does not follow (not that
/// seat's turn, refused, or a different event than recorded) is refused with its line.
fn print_contract(
    out: &mut String,
    file: &ReplayFile,
    last: Option<usize>,
    path: &std::path::Path,
) -> anyhow::Result<()> {
    use botbox::games::contract::Variant;
    let h = &file.header;
    let at = |line: usize| format!("{}:{line}", path.display());
    let rules =
        botbox::games::registry::find(&h.game).map_err(|e| anyhow::anyhow!("{}: {e}", at(1)))?;
    let variant = Variant {
        name: h.params["variant"].as_str().unwrap_or_default().to_string(),
        text: h.params["text"].as_str().map(str::to_string),
    };
    let mut game = rules
        .start(&variant, h.strategies.len() as u32, h.seed)
        .map_err(|e| anyhow::anyhow!("{}: {e}", at(1)))?;
    let names: Vec<&str> = h.strategies.iter().map(|s| s.name.as_str()).collect();
    writeln!(
        out,
        "{} game {} (seed {}, variant {}): {}",
        h.game,
        h.number,
        h.seed,
        variant.name,
        names.join(" vs ")
    )?;
    let skip = last.map_or(0, |n| file.turns.len().saturating_sub(n));
    for (i, turn) in file.turns.iter().enumerate() {
        let line = i + 2;
        let Some(expected) = game.turn() else {
            bail!("{}: a move after the game ended", at(line));
        };
        let seat = turn["seat"].as_u64();
        if seat != Some(u64::from(expected.seat)) || turn["function"] != expected.function {
            bail!(
                "{}: the move of seat {} ({}) does not follow: it is seat {}'s turn to {}",
                at(line),
                turn["seat"],
                turn["function"],
                expected.seat,
                expected.function
            );
        }
        let event = game.apply(&turn["action"]).map_err(|e| {
            anyhow::anyhow!("{}: the recorded action does not follow: {e}", at(line))
        })?;
        if event != turn["event"] {
            bail!(
                "{}: the recorded event is not what the action does ({event})",
                at(line)
            );
        }
        let _ = game.take_notices();
        if i >= skip {
            let who = names.get(expected.seat as usize).copied().unwrap_or("?");
            let opening = if turn["opening"] == true {
                "  (opening)"
            } else {
                ""
            };
            writeln!(
                out,
                "move {:>4}  seat {} ({who}) {} {}{opening}",
                i + 1,
                expected.seat,
                expected.function,
                turn["action"]
            )?;
        }
    }
    match (&file.end, game.outcome()) {
        (Some(end), Some(outcome)) => writeln!(
            out,
            "end: points {:?}, ended by {}",
            outcome.points, outcome.reason
        )
        .and_then(|()| print_logs(out, &names, &end.logs))?,
        (Some(end), None) => writeln!(out, "end: {}", end.result)
            .and_then(|()| print_logs(out, &names, &end.logs))?,
        (None, _) => writeln!(out, "(the replay has no end line: the game was cut short)")?,
    }
    Ok(())
}

fn print_logs(out: &mut String, names: &[&str], logs: &[Vec<String>]) -> std::fmt::Result {
    for (seat, lines) in logs.iter().enumerate() {
        if lines.is_empty() {
            continue;
        }
        let who = names.get(seat).copied().unwrap_or("?");
        writeln!(out, "log of seat {seat} ({who}), {} lines:", lines.len())?;
        for l in lines.iter().take(40) {
            writeln!(out, "  | {l}")?;
        }
    }
    Ok(())
}
