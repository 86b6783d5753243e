//! The 2048 replay reader: re-plays each move on the engine from the header's size and seed.

use std::fmt::Write as _;

use crate::replay::ReplayFile;
use crate::runtime::Fault;
use serde::Deserialize;

use super::{check_seats, difference, parse, short};

/// The result of a 2048 game as the bench records it.
#[derive(Deserialize)]
struct Result2048 {
    game: usize,
    seed: u64,
    score: u64,
    moves: u32,
    max_tile: u32,
    fault: Option<Fault>,
    /// The game stopped at the move cap with moves left.
    #[serde(default)]
    capped: bool,
}

/// A 2048 replay, re-played: the game is started from the header's size and seed (the start board
/// must be the one it deals), every recorded move is made in the engine and must give the recorded
/// merge score, new tile, boards and score, and the end must be the engine's (score, moves, largest
/// tile; a game that ended without a fault has no legal move left). What is printed is the engine's.
pub(super) fn print_2048(file: &ReplayFile, last: Option<usize>) -> anyhow::Result<String> {
    let mut text = String::new();
    let out = &mut text;
    use crate::games::g2048::Game;
    use crate::play::g2048::Turn;
    let h = &file.header;
    let hl = file.header_line;
    check_seats(file, 1)?;
    let size: usize = parse(file, hl, "params.size", &h.params["size"])?;
    let mut game =
        Game::new(size, h.seed).map_err(|e| file.bad(hl, format!("params.size: {e}")))?;
    let start: Vec<Vec<u32>> = parse(file, hl, "start.board", &h.start["board"])?;
    if start != game.board_values() {
        return Err(file
            .bad(
                hl,
                format!(
                    "the start board is not the one seed {} deals ({})",
                    h.seed,
                    short(&serde_json::json!(game.board_values()))
                ),
            )
            .into());
    }
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
    let skip = last.map_or(0, |n| file.turns.len().saturating_sub(n));
    if skip == 0 {
        writeln!(out, "start")?;
        print_board(out, &game.board_values())?;
    }
    for (i, value) in file.turns.iter().enumerate() {
        let line = file.turn_line(i);
        let recorded: Turn = parse(file, line, "not a 2048 move", value)?;
        if game.is_over() {
            return Err(file.bad(line, "a move after the game ended").into());
        }
        let before = game.board_values();
        let step = game.step(recorded.action).map_err(|_| {
            file.bad(
                line,
                format!(
                    "move {}: {} changes nothing on the board (legal: {})",
                    game.moves() + 1,
                    recorded.action.name(),
                    game.legal()
                        .iter()
                        .map(|d| d.name())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )
        })?;
        let t = Turn::after(&game, before, recorded.action, &step);
        if let Some(what) = difference(&recorded, &t) {
            return Err(file
                .bad(line, format!("move {} does not follow: {what}", t.n))
                .into());
        }
        if i < skip {
            continue;
        }
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
        Some(end) if end.cut.is_some() => {
            let line = file.end_line();
            let r: Result2048 = parse(file, line, "not a 2048 result", &end.result)?;
            if end.cut != Some(file.turns.len()) || r.moves as usize <= file.turns.len() {
                return Err(file
                    .bad(
                        line,
                        format!(
                            "the end says the record was cut after {:?} moves, but {} were recorded \
                             of a game of {} moves",
                            end.cut,
                            file.turns.len(),
                            r.moves
                        ),
                    )
                    .into());
            }
            writeln!(
                out,
                "(the replay reached its size cap and records the first {} moves; the game went on)\n\
                 end: score {} after {} moves, largest tile {} (as the game reported them)",
                file.turns.len(),
                r.score,
                r.moves,
                r.max_tile
            )?;
        }
        Some(end) => {
            let line = file.end_line();
            let r: Result2048 = parse(file, line, "not a 2048 result", &end.result)?;
            let said = (r.game, r.seed, r.score, r.moves, r.max_tile);
            let engine = (
                h.number,
                h.seed,
                game.score(),
                game.moves(),
                game.max_tile(),
            );
            if said != engine {
                return Err(file
                    .bad(
                        line,
                        format!(
                            "the result (game, seed, score, moves, largest tile) {said:?} is not \
                             the re-played game's {engine:?}"
                        ),
                    )
                    .into());
            }
            let capped = r.capped && game.moves() >= crate::games::g2048::MOVE_CAP;
            match (&r.fault, game.is_over()) {
                (None, false) if !capped => {
                    return Err(file
                        .bad(
                            line,
                            "the game ends without a fault, yet it has legal moves left",
                        )
                        .into());
                }
                (Some(_), true) => {
                    return Err(file
                        .bad(
                            line,
                            "a fault after the game was over (no move was asked for)",
                        )
                        .into());
                }
                _ => {}
            }
            writeln!(
                out,
                "end: score {} after {} moves, largest tile {}",
                game.score(),
                game.moves(),
                game.max_tile()
            )?;
            if let Some(fault) = &r.fault {
                writeln!(out, "fault: {}: {}", fault.kind, fault.message)?;
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
    Ok(text)
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
