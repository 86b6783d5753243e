//! How 2048 looks (its [`View`], named by the registry): the replay reader, which re-plays each move
//! on the engine from the header's size and seed, the text `botbox replay` prints and the viewer's
//! frames.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::games::g2048::{Direction, Game, Step};
use crate::replay::ReplayFile;
use crate::runtime::Fault;

use crate::view::frames::{Board, Frame, grid_of_numbers};
use crate::view::games::GameView;
use crate::view::replay::{check_seats, difference, parse, short};
use serde_json::Value;

/// One move of a 2048 replay.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Turn {
    pub n: u32,
    pub before: Vec<Vec<u32>>,
    pub action: Direction,
    pub gained: u32,
    /// The spawned tile: `[row, col]` (1-based) and value.
    pub spawn: Option<Spawn>,
    pub after: Vec<Vec<u32>>,
    pub score: u64,
}

impl Turn {
    /// The turn `game` just made: `action` on the board `before`, with the engine's `step`.
    pub fn after(game: &Game, before: Vec<Vec<u32>>, action: Direction, step: &Step) -> Turn {
        let size = game.size();
        Turn {
            n: game.moves(),
            before,
            action,
            gained: step.gained,
            spawn: step.spawned.map(|(cell, value)| Spawn {
                cell: [cell / size + 1, cell % size + 1],
                value,
            }),
            after: game.board_values(),
            score: game.score(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Spawn {
    pub cell: [usize; 2],
    pub value: u32,
}

/// A 2048 replay recorded through the game contract (a line per move: the direction, the merge
/// score and the new tile), as this reader reads 2048: each move with the boards before and after
/// and the score, re-made in the engine from the header's board size and seed; the result as the
/// bench records one game. The contract's reader checks the moves first ([`super::render`]).
pub fn from_contract(file: &ReplayFile) -> anyhow::Result<ReplayFile> {
    let h = &file.header;
    let size = h.start["size"].as_u64().unwrap_or(0) as usize;
    let mut game =
        Game::new(size, h.seed).map_err(|e| file.bad(file.header_line, e.to_string()))?;
    let mut turns = Vec::with_capacity(file.turns.len());
    for (i, t) in file.turns.iter().enumerate() {
        let line = file.turn_line(i);
        let action = t["action"]
            .as_str()
            .and_then(Direction::from_name)
            .ok_or_else(|| file.bad(line, format!("{} is not a direction", t["action"])))?;
        let before = game.board_values();
        let step = game
            .step(action)
            .map_err(|_| file.bad(line, format!("{} changes nothing", action.name())))?;
        let mut turn = serde_json::to_value(Turn::after(&game, before, action, &step))?;
        if let Some(logged) = t.get("logged") {
            turn["logged"] = logged.clone();
        }
        // The decision, for the viewer's observation of it.
        turn["decision"] = (i + 1).into();
        turns.push(turn);
    }
    let mut header = h.clone();
    header.params = json!({ "size": size });
    header.start = json!({ "board": h.start["board"] });
    let end = file.end.clone().map(|mut end| {
        let e = &end.result["ending"];
        end.result = json!({
            "game": h.number,
            "seed": h.seed,
            "score": e["score"].as_f64().unwrap_or(0.0) as u64,
            "moves": e["turns"],
            "max_tile": e["details"]["max_tile"],
            "fault": e["faults"][0],
            "capped": e["reason"] == "move cap",
        });
        end
    });
    Ok(ReplayFile {
        path: file.path.clone(),
        header,
        turns,
        end,
        header_line: file.header_line,
        turn_lines: file.turn_lines.clone(),
        end_line: file.end_line,
        cut: file.cut,
    })
}

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
pub fn print_2048(file: &ReplayFile, last: Option<usize>) -> anyhow::Result<String> {
    let mut text = String::new();
    let out = &mut text;
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
    // The bot's log lines go beside the move whose decision wrote them (a turn records how many
    // lines there were by then, when that changed); those of the moves not shown are skipped.
    let log: &[String] = file
        .end
        .as_ref()
        .and_then(|e| e.logs.first())
        .map_or(&[], Vec::as_slice);
    let (mut told, mut logged) = (0, 0);
    for (i, value) in file.turns.iter().enumerate() {
        if let Some(n) = value["logged"].get(0).and_then(serde_json::Value::as_u64) {
            logged = (n as usize).min(log.len());
        }
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
            told = logged;
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
        for line in log.get(told..logged).unwrap_or_default() {
            writeln!(out, "  | {line}")?;
        }
        told = told.max(logged);
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
            // What was logged after the last recorded move (a decision that faulted, say).
            for line in log.get(told..).unwrap_or_default() {
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

/// 2048: a move per turn, with the boards before and after and the new tile.
#[derive(Debug)]
pub struct View;

impl GameView for View {
    fn text(
        &self,
        file: &ReplayFile,
        contract: bool,
        last: Option<usize>,
    ) -> anyhow::Result<String> {
        match contract {
            true => print_2048(&from_contract(file)?, last),
            false => print_2048(file, last),
        }
    }

    fn frames(
        &self,
        file: &ReplayFile,
        contract: bool,
    ) -> anyhow::Result<(Vec<Frame>, Vec<Value>)> {
        let frames = match contract {
            true => g2048_frames(&from_contract(file)?),
            false => g2048_frames(file),
        };
        Ok((frames, file.turns.clone()))
    }
}

pub(crate) fn g2048_frames(file: &ReplayFile) -> Vec<Frame> {
    let mut frames = vec![Frame::new(
        0,
        None,
        "start",
        tiles(&file.header.start["board"]),
    )];
    for (i, t) in file.turns.iter().enumerate() {
        frames.push(Frame::new(
            i + 1,
            Some(0),
            format!(
                "{} +{} (score {})",
                t["action"].as_str().unwrap_or("?"),
                t["gained"],
                t["score"]
            ),
            tiles(&t["after"]),
        ));
    }
    frames
}

/// A board's tiles, each coloured by its value (`v2` ... `v2048`, `vbig` beyond).
fn tiles(rows: &serde_json::Value) -> Board {
    let Board::Grid { rows, .. } = grid_of_numbers(rows) else {
        unreachable!("a grid of numbers is a grid")
    };
    let look = |text: &str| match text.parse::<u64>() {
        Ok(v) if v <= 2048 => format!("v{v}"),
        Ok(_) => "vbig".to_string(),
        Err(_) => String::new(),
    };
    Board::styled(
        rows.into_iter()
            .map(|row| {
                row.into_iter()
                    .map(|t| {
                        let l = look(&t);
                        (t, l)
                    })
                    .collect()
            })
            .collect(),
    )
}
