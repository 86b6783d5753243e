//! `botbox replay`: print a recorded game move by move.
//!
//! The readers and their text are the library's (`crate::view::replay`): replays are re-played, not
//! believed.

use std::path::PathBuf;
use std::process::ExitCode;

use std::io::IsTerminal as _;

use crate::replay;
use crate::view::replay::render;

/// Print a recorded game (a replay file written with --replay-dir) move by move
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  botbox bench 2048 strategies/lua/g2048/corner.lua --games 3 --replay-dir replays/
  botbox replay replays/2048-0001.jsonl
  botbox replay replays/2048-0001.jsonl --last 5
  botbox replay replays/bs-0012.jsonl               # a BS game turn by turn, every card face up
  botbox replay replays/worms-0007.jsonl            # animated on a terminal: space, arrows, + and -
  botbox replay replays/worms-0007.jsonl --print    # every board as text
  botbox replay replays/connect4-0003.jsonl --seat 0 --turn 31 --with my_bot_v2.lua
  botbox replay replays/connect4-0003.jsonl --seat 0 --with my_bot_v2.lua   # every turn of seat 0
  botbox replay replays/connect4-0003.jsonl --seat 0 --turn 31 --with my_bot_v2.lua \
      --play-on --against strategies/lua/connect4/random.lua     # writes connect4-0003.on-31.jsonl

With --with, the seat's observations are rebuilt from the replay and given to the other bot (every
earlier one too, in order, so the state it keeps between turns is its own); the recorded moves are
played on whatever it answers. With --play-on, the game leaves its recorded path at move N (without
--turn, at the first move where the bot chooses differently): the bot takes its seat, the --against
bots the others, and the new game is written as a replay whose first moves are marked recorded.")]
pub struct Args {
    /// The replay file (JSON Lines, see docs/replay-format.md)
    file: PathBuf,
    /// Print only the last N moves
    #[arg(long, value_name = "N")]
    last: Option<usize>,
    /// Print the game as text even on a terminal (Wormworld games are animated there by default)
    #[arg(long)]
    print: bool,
    /// Decide the seat's turns again with this bot (.lua, .wasm, .wat, a bot's directory or a program)
    /// and show where it chooses differently
    #[arg(long = "with", value_name = "BOT", requires = "seat")]
    with: Option<PathBuf>,
    /// The seat whose turns --with decides again (from 0)
    #[arg(long, value_name = "S", requires = "with")]
    seat: Option<u32>,
    /// Only this move (its number in `botbox replay FILE`)
    #[arg(long, value_name = "N", requires = "with")]
    turn: Option<usize>,
    /// Play the game on from move N (--turn) with the bot in its seat and the --against bots in
    /// the others, and write it as a new replay
    #[arg(long, requires = "with", requires = "against")]
    play_on: bool,
    /// The bots in the other seats with --play-on: one for all of them, or one each in seat order
    #[arg(long, value_name = "BOT", num_args = 1.., requires = "play_on")]
    against: Vec<PathBuf>,
    /// Where --play-on writes the new replay [default: FILE's name with .on-N before .jsonl, beside it]
    #[arg(long, value_name = "FILE", requires = "play_on")]
    out: Option<PathBuf>,
    #[command(flatten)]
    limits: super::limits::LimitArgs,
}

pub fn execute(args: Args) -> anyhow::Result<ExitCode> {
    let file = replay::read(&args.file)?;
    if let (Some(bot), Some(seat)) = (&args.with, args.seat) {
        render(&file, Some(0))?;
        let strategy = super::load(bot, &args.limits)?;
        if args.play_on {
            return play_on(&file, seat, &strategy, &args);
        }
        let decisions = crate::play::whatif::decide_again(&file, seat, &strategy, args.turn)?;
        let names: Vec<&str> = file
            .header
            .strategies
            .iter()
            .map(|s| s.name.as_str())
            .collect();
        super::print_report(
            what_if(
                &decisions,
                seat,
                names.get(seat as usize).copied(),
                strategy.name(),
                args.turn,
            )
            .trim_end(),
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    let animate = !args.print && args.last.is_none() && std::io::stdout().is_terminal();
    if file.header.game == crate::games::contract::Rules::name(&crate::games::worms::RULES)
        && animate
    {
        // Checked as `botbox replay` checks it, then animated turn by turn (passes included).
        render(&file, Some(0))?;
        let file = match file.header.params.get("variant") {
            Some(_) => crate::games::worms::view::from_contract(&file)?,
            None => file,
        };
        super::worms_view::animate_replay(&file)?;
        return Ok(ExitCode::SUCCESS);
    }
    let out = render(&file, args.last)?;
    super::print_report(out.trim_end())?;
    Ok(ExitCode::SUCCESS)
}

/// `--play-on`: the game played on from `--turn` (or the first move where the bot differs), written
/// beside the replay.
fn play_on(
    file: &replay::ReplayFile,
    seat: u32,
    strategy: &crate::runtime::Strategy,
    args: &Args,
) -> anyhow::Result<ExitCode> {
    let from = match args.turn {
        Some(n) => n,
        None => {
            let decisions = crate::play::whatif::decide_again(file, seat, strategy, None)?;
            match decisions.iter().find(|d| d.differs()) {
                Some(d) => d.turn,
                None => {
                    println!(
                        "{} in seat {seat} chooses as recorded at every turn: the game would go \
                         as it went (give --turn N to play on from a move anyway)",
                        strategy.name()
                    );
                    return Ok(ExitCode::SUCCESS);
                }
            }
        }
    };
    let against = args
        .against
        .iter()
        .map(|p| super::load(p, &args.limits))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let against: Vec<&crate::runtime::Strategy> = against.iter().collect();
    let onward = crate::play::whatif::play_on(file, seat, strategy, &against, from)?;
    let out = match &args.out {
        Some(out) => out.clone(),
        None => {
            let stem = file
                .path
                .file_stem()
                .map_or_else(|| "replay".into(), |s| s.to_string_lossy().into_owned());
            file.path.with_file_name(format!("{stem}.on-{from}.jsonl"))
        }
    };
    onward
        .replay
        .write(&out)
        .map_err(|e| anyhow::anyhow!("{}: {e}", out.display()))?;
    // Read back and re-played, as `botbox replay` would.
    let written = replay::read(&out)?;
    render(&written, Some(0))?;
    let names = crate::view::frames::player_names(&written);
    let ending = &onward.ending;
    let result = match ending.winner {
        Some(w) => format!(
            "{} (seat {w}) won: {}",
            names.get(w).map_or("?", String::as_str),
            ending.reason
        ),
        None => format!("no winner: {}", ending.reason),
    };
    println!(
        "played on from move {from}: {}, then {} in seat {seat} against {}",
        match onward.recorded {
            0 => "no move as recorded".to_string(),
            n => format!("moves 1 to {n} as recorded"),
        },
        strategy.name(),
        against
            .iter()
            .map(|s| s.name())
            .collect::<Vec<_>>()
            .join(", ")
    );
    println!(
        "{result} after {} moves; wrote {}",
        written.turns.len(),
        out.display()
    );
    println!("  botbox replay {0}\n  botbox view {0}", out.display());
    Ok(ExitCode::SUCCESS)
}

/// The decisions of `--with` in words: one turn side by side, or where the new bot differs.
fn what_if(
    decisions: &[crate::play::whatif::Decision],
    seat: u32,
    recorded: Option<&str>,
    new: &str,
    turn: Option<usize>,
) -> String {
    use std::fmt::Write as _;
    let recorded = recorded.unwrap_or("?");
    let short = |v: &serde_json::Value| {
        let text = v.to_string();
        match text.char_indices().nth(100) {
            Some((at, _)) => format!("{}...", &text[..at]),
            None => text,
        }
    };
    let answer = |d: &crate::play::whatif::Decision| match &d.answer {
        Ok(v) => short(v),
        Err(f) => format!("fault {:?}: {}", f.kind, f.message),
    };
    let mut out = String::new();
    if turn.is_some() {
        for d in decisions {
            let _ = writeln!(
                out,
                "move {} of seat {seat} ({}): `{}` saw",
                d.turn, recorded, d.function
            );
            let _ = writeln!(out, "  {}", d.observation);
            let _ = writeln!(out, "recorded ({recorded}): {}", short(&d.recorded));
            let mark = if d.differs() {
                "   <- differs"
            } else {
                "   (the same)"
            };
            let _ = writeln!(
                out,
                "new ({new}):{} {}{mark}",
                " ".repeat(recorded.len().saturating_sub(new.len())),
                answer(d)
            );
            for line in &d.log {
                let _ = writeln!(out, "  | {line}");
            }
        }
        return out;
    }
    let differ: Vec<&crate::play::whatif::Decision> =
        decisions.iter().filter(|d| d.differs()).collect();
    let at: Vec<String> = differ.iter().map(|d| d.turn.to_string()).collect();
    let _ = writeln!(
        out,
        "{new} in seat {seat} (recorded: {recorded}) differs at {} of {} turns{}",
        differ.len(),
        decisions.len(),
        if at.is_empty() {
            String::new()
        } else {
            format!(": {}", at.join(", "))
        }
    );
    for d in &differ {
        let _ = writeln!(
            out,
            "move {}: recorded {}, new {}",
            d.turn,
            short(&d.recorded),
            answer(d)
        );
    }
    let _ = writeln!(
        out,
        "(the new bot was given every observation of seat {seat} in order, and the game went on as \
         recorded; --turn N shows one turn whole, with the bot's log)"
    );
    out
}
