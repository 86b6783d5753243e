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
