//! `botbox replay`: print a recorded game move by move.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use botbox::play::g2048::Turn;
use botbox::replay::{self, ReplayFile};

/// Print a recorded game (a replay file written with --replay-dir) move by move
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  botbox bench 2048 strategies/lua/g2048/corner.lua --games 3 --replay-dir replays/
  botbox replay replays/game-0001.jsonl
  botbox replay replays/game-0001.jsonl --last 5")]
pub struct Args {
    /// The replay file (JSON Lines, see docs/replay-format.md)
    file: PathBuf,
    /// Print only the last N moves
    #[arg(long, value_name = "N")]
    last: Option<usize>,
}

pub fn execute(args: Args) -> anyhow::Result<ExitCode> {
    let file = replay::read(&args.file)?;
    match file.header.game.as_str() {
        "2048" => print_2048(&file, args.last)?,
        other => bail!(
            "{}: replays of game {other:?} cannot be shown yet",
            args.file.display()
        ),
    }
    Ok(ExitCode::SUCCESS)
}

fn print_2048(file: &ReplayFile, last: Option<usize>) -> anyhow::Result<()> {
    let h = &file.header;
    let who: Vec<String> = h
        .strategies
        .iter()
        .map(|s| format!("{} ({}, sha256 {:.12})", s.name, s.kind, s.sha256))
        .collect();
    println!(
        "2048 game {} seed {}  {}  {}",
        h.number,
        h.seed,
        h.params,
        who.join(", ")
    );
    let start: Vec<Vec<u32>> =
        serde_json::from_value(h.start["board"].clone()).context("reading the start board")?;
    let skip = last.map_or(0, |n| file.turns.len().saturating_sub(n));
    if skip == 0 {
        println!("start");
        print_board(&start);
    }
    for (i, value) in file.turns.iter().enumerate().skip(skip) {
        let t: Turn = serde_json::from_value(value.clone())
            .with_context(|| format!("reading move {}", i + 1))?;
        let spawn = t.spawn.map_or(String::new(), |s| {
            format!(", {} at ({}, {})", s.value, s.cell[0], s.cell[1])
        });
        println!(
            "move {}: {} +{}{spawn}  score {}",
            t.n,
            t.action.name(),
            t.gained,
            t.score
        );
        print_board(&t.after);
    }
    match &file.end {
        Some(end) => {
            let r = &end.result;
            println!(
                "end: score {} after {} moves, largest tile {}",
                r["score"], r["moves"], r["max_tile"]
            );
            if !r["fault"].is_null() {
                println!(
                    "fault: {}: {}",
                    r["fault"]["kind"].as_str().unwrap_or("?"),
                    r["fault"]["message"].as_str().unwrap_or("")
                );
            }
            for line in end.logs.iter().flatten() {
                println!("  | {line}");
            }
        }
        None => println!("(the replay ends without a result: the game was cut short)"),
    }
    Ok(())
}

fn print_board(rows: &[Vec<u32>]) {
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
        println!("  {}", cells.join(""));
    }
}
