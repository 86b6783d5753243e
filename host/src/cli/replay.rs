//! `botbox replay`: print a recorded game move by move.
//!
//! Replays are re-played, not believed: every reader starts the game's engine from the header (seed,
//! board size, dice, map, deal, variant), makes each recorded move in it, and refuses the first line
//! that does not follow with `FILE:LINE: what is wrong`; the views then print what the engine
//! produced. Text the engine cannot check (strategy names, hashes, limits, fault messages, logs) is
//! shown as recorded.

use std::path::PathBuf;
use std::process::ExitCode;

use std::fmt::Write as _;
use std::io::IsTerminal as _;

use anyhow::bail;
use botbox::games::rng;
use botbox::replay::{self, ReplayFile};
use botbox::runtime::Fault;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest as _, Sha256};

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
    // Games recorded through the game contract (`tournament::versus`: `match connect4`, `match dice`)
    // name a variant; the older writers of 2048, dice, BS and Wormworld have readers of their own.
    let contract = file.header.params.get("variant").is_some();
    match file.header.game.as_str() {
        _ if contract => print_contract(&mut out, &file, args.last)?,
        "2048" => print_2048(&mut out, &file, args.last)?,
        "dice" => print_dice(&mut out, &file, args.last)?,
        "bs" => super::bs_view::print_replay(&mut out, &file, args.last)?,
        "worms" if !args.print && args.last.is_none() && std::io::stdout().is_terminal() => {
            super::worms_view::animate_replay(&file)?;
        }
        "worms" => super::worms_view::print_replay(&mut out, &file, args.last)?,
        _ => print_contract(&mut out, &file, args.last)?,
    }
    super::print_report(out.trim_end())?;
    Ok(ExitCode::SUCCESS)
}

/// A JSON value on one line, cut to a readable length.
pub(super) fn short(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(120) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text,
    }
}

/// Where the recorded `recorded` and the engine's `replayed` differ, naming the first field that
/// does (`None` when they are the same).
pub(super) fn difference<T: Serialize>(recorded: &T, replayed: &T) -> Option<String> {
    let recorded = serde_json::to_value(recorded).unwrap_or(Value::Null);
    let replayed = serde_json::to_value(replayed).unwrap_or(Value::Null);
    if recorded == replayed {
        return None;
    }
    if let (Value::Object(r), Value::Object(e)) = (&recorded, &replayed) {
        for (key, engine) in e {
            let said = r.get(key).unwrap_or(&Value::Null);
            if said != engine {
                return Some(format!(
                    "`{key}` is {}, the engine's is {}",
                    short(said),
                    short(engine)
                ));
            }
        }
    }
    Some(format!(
        "{} is not the engine's {}",
        short(&recorded),
        short(&replayed)
    ))
}

/// Reads `value` (a part of line `line`) as a `T`, or says what is wrong with it.
pub(super) fn parse<T: DeserializeOwned>(
    file: &ReplayFile,
    line: usize,
    what: &str,
    value: &Value,
) -> anyhow::Result<T> {
    T::deserialize(value).map_err(|e| file.bad(line, format!("{what}: {e}")).into())
}

/// Refuses an end line whose result (winner, reason, turns) is not what re-playing the game gave.
pub(super) fn same_result<T: PartialEq + std::fmt::Debug>(
    file: &ReplayFile,
    line: usize,
    said: &T,
    engine: &T,
) -> anyhow::Result<()> {
    if said != engine {
        return Err(file
            .bad(
                line,
                format!(
                    "the result (winner, reason, turns) {said:?} is not the re-played game's \
                     {engine:?}"
                ),
            )
            .into());
    }
    Ok(())
}
/// Checks that the header names `expected` strategies (the game's seats).
pub(super) fn check_seats(file: &ReplayFile, expected: usize) -> anyhow::Result<()> {
    let n = file.header.strategies.len();
    if n != expected {
        return Err(file
            .bad(
                file.header_line,
                format!("the header names {n} strategies; this game has {expected}"),
            )
            .into());
    }
    Ok(())
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
fn print_2048(out: &mut String, file: &ReplayFile, last: Option<usize>) -> anyhow::Result<()> {
    use botbox::games::g2048::Game;
    use botbox::play::g2048::{Spawn, Turn};
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
        let size = game.size();
        let t = Turn {
            n: game.moves(),
            before,
            action: recorded.action,
            gained: step.gained,
            spawn: step.spawned.map(|(cell, value)| Spawn {
                cell: [cell / size + 1, cell % size + 1],
                value,
            }),
            after: game.board_values(),
            score: game.score(),
        };
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
            let capped = r.capped && game.moves() >= botbox::games::g2048::MOVE_CAP;
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

/// A die as a dice replay's header gives it.
#[derive(Deserialize)]
struct DieParam {
    name: String,
    faces: Vec<u64>,
}

/// The parameters of a dice replay (`play::dice` and `play::dice_free` write them).
#[derive(Deserialize)]
struct DiceParams {
    rules: String,
    dice: [DieParam; 2],
    a_starts: bool,
}

/// The end of a dice replay; `faults` only in the free variant.
#[derive(Deserialize)]
struct DiceEnd {
    winner: Option<usize>,
    reason: String,
    turns: u32,
    #[serde(default)]
    faults: Option<[Option<Fault>; 2]>,
}

/// A dice replay (strict or free rules), re-played: a game is started from the header's dice, seed
/// and starting die, every turn rolls the engine's die (the face must be the recorded one) and plays
/// the recorded move (under the strict rule the frontmost, the only legal choice), which must be
/// legal and give the recorded capture and places; the end must be the engine's (or, in the free
/// variant, a fault in a game still going, with the winner the fault gives). What is printed is the
/// engine's.
fn print_dice(out: &mut String, file: &ReplayFile, last: Option<usize>) -> anyhow::Result<()> {
    use botbox::games::dice::{Die, End, Game, Place, Position};
    use botbox::play::dice::Turn;
    let h = &file.header;
    let hl = file.header_line;
    let params: DiceParams = parse(file, hl, "params", &h.params)?;
    let strict = match params.rules.as_str() {
        "strict" => true,
        "free" => false,
        other => {
            return Err(file
                .bad(
                    hl,
                    format!("params.rules is {other:?}, not \"strict\" or \"free\""),
                )
                .into());
        }
    };
    check_seats(file, if strict { 0 } else { 2 })?;
    let die = |i: usize| {
        Die::new(params.dice[i].faces.clone())
            .map_err(|e| file.bad(hl, format!("params.dice[{i}]: {e}")))
    };
    let mut game = Game::new(die(0)?, die(1)?, params.a_starts, rng(h.seed));
    let places = |game: &Game| [game.position().places(0), game.position().places(1)];
    let start: [[Place; 4]; 2] = parse(file, hl, "start.places", &h.start["places"])?;
    if start != [Position::START.places(0), Position::START.places(1)] {
        return Err(file
            .bad(
                hl,
                "start.places is not the start (every piece waiting on B)",
            )
            .into());
    }
    let names = [params.dice[0].name.as_str(), params.dice[1].name.as_str()];
    writeln!(
        out,
        "dice game {} seed {}: {} {} against {} {}, {} starts",
        h.number,
        h.seed,
        names[0],
        serde_json::json!(params.dice[0].faces),
        names[1],
        serde_json::json!(params.dice[1].faces),
        names[usize::from(!params.a_starts)]
    )?;
    let step_name = |s: u8| match s {
        0 => "A".to_string(),
        s if s >= 40 => ["a", "b", "c", "d"]
            .get(usize::from(s - 40))
            .map_or_else(|| format!("?{s}"), |g| g.to_string()),
        s => s.to_string(),
    };
    let show = |places: &[[Place; 4]; 2]| -> String {
        let side = |ps: &[Place; 4]| {
            ps.iter()
                .map(|p| match p {
                    Place::Waiting => "B".to_string(),
                    Place::Step(s) => step_name(*s),
                })
                .collect::<Vec<_>>()
                .join(" ")
        };
        format!(
            "{}: {}  |  {}: {}",
            names[0],
            side(&places[0]),
            names[1],
            side(&places[1])
        )
    };
    let skip = last.map_or(0, |n| file.turns.len().saturating_sub(n));
    for (i, value) in file.turns.iter().enumerate() {
        let line = file.turn_line(i);
        let recorded: Turn = parse(file, line, "not a dice turn", value)?;
        let roll = game
            .roll()
            .map_err(|_| file.bad(line, "a turn after the game ended"))?;
        let mv = if strict {
            game.moves().frontmost()
        } else {
            recorded.mv
        };
        let played = game.play(mv).map_err(|e| {
            file.bad(
                line,
                format!(
                    "turn {}: seat {} rolled {}: {e}",
                    game.turns() + 1,
                    game.to_move(),
                    roll.face
                ),
            )
        })?;
        let t = Turn {
            n: game.turns(),
            seat: played.seat,
            face: played.roll.face,
            mv: played.mv,
            captured: played.captured,
            places: places(&game),
        };
        if let Some(what) = difference(&recorded, &t) {
            return Err(file
                .bad(line, format!("turn {} does not follow: {what}", t.n))
                .into());
        }
        if i < skip {
            continue;
        }
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
            names[t.seat],
            t.face,
            what,
            show(&t.places)
        )?;
    }
    if let Some(end) = &file.end {
        let line = file.end_line();
        let r: DiceEnd = parse(file, line, "not a dice result", &end.result)?;
        let expected = match (strict, &r.faults) {
            (true, Some(_)) => {
                return Err(file.bad(line, "faults in a game of the strict rule").into());
            }
            (false, None) => {
                return Err(file
                    .bad(line, "the free variant's result has no faults")
                    .into());
            }
            (false, Some([a, b])) if a.is_some() || b.is_some() => {
                if game.outcome().is_some() {
                    return Err(file
                        .bad(
                            line,
                            "a fault after the game was over (no move was asked for)",
                        )
                        .into());
                }
                let winner = match (a, b) {
                    (Some(_), None) => Some(1),
                    (None, Some(_)) => Some(0),
                    _ => None,
                };
                (winner, "fault".to_string())
            }
            _ => {
                let Some(outcome) = game.outcome() else {
                    return Err(file
                        .bad(
                            line,
                            format!(
                                "the game ends without a fault after turn {}, which does not \
                                 end it",
                                game.turns()
                            ),
                        )
                        .into());
                };
                let reason = match outcome.end {
                    End::Won(_) => "won".to_string(),
                    End::Draw(why) => serde_json::to_value(why)
                        .ok()
                        .and_then(|v| v.as_str().map(String::from))
                        .unwrap_or_default(),
                };
                (outcome.winner(), reason)
            }
        };
        let said = (r.winner, r.reason.clone(), r.turns);
        let engine = (expected.0, expected.1, game.turns());
        same_result(file, line, &said, &engine)?;
        match engine.0 {
            Some(seat) => writeln!(out, "end: {} wins after {} turns", names[seat], engine.2)?,
            None => writeln!(out, "end: draw ({}) after {} turns", engine.1, engine.2)?,
        }
        // The free variant's strategies: their logs, under their names.
        let strategies: Vec<&str> = h.strategies.iter().map(|s| s.name.as_str()).collect();
        print_logs(out, &strategies, &end.logs)?;
    }
    Ok(())
}

/// Any registered game's replay, re-played through the game contract: each recorded action is applied
/// to a new game with the recorded seed and variant, and the first one that does not follow (not that
/// seat's turn, refused, or a different event than recorded) is refused with its line.
fn print_contract(out: &mut String, file: &ReplayFile, last: Option<usize>) -> anyhow::Result<()> {
    use botbox::games::contract::Variant;
    let h = &file.header;
    let at = |line: usize| format!("{}:{line}", file.path.display());
    let rules = botbox::games::registry::find(&h.game)
        .map_err(|e| anyhow::anyhow!("{}: {e}", at(file.header_line)))?;
    let variant = Variant {
        name: h.params["variant"].as_str().unwrap_or_default().to_string(),
        text: h.params["text"].as_str().map(str::to_string),
    };
    let mut game = rules
        .start(&variant, h.strategies.len() as u32, h.seed)
        .map_err(|e| anyhow::anyhow!("{}: {e}", at(file.header_line)))?;
    if h.start != game.state() {
        bail!(
            "{}: the start position is not the one variant {} and seed {} give",
            at(file.header_line),
            variant.name,
            h.seed
        );
    }
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
        let line = file.turn_line(i);
        let Some(expected) = game.turn() else {
            bail!("{}: a move after the game ended", at(line));
        };
        if turn["n"].as_u64() != Some(i as u64 + 1) {
            bail!(
                "{}: the move is numbered {}; it is move {}",
                at(line),
                turn["n"],
                i + 1
            );
        }
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
    let ended = game.outcome();
    if let Some(end) = &file.end {
        // The game's own end, or the forfeit of the first seat that faulted (at the set-up or on
        // its move); the result says which.
        let line = at(file.end_line());
        let ending = &end.result["ending"];
        let faults: Vec<Option<Fault>> = serde_json::from_value(ending["faults"].clone())
            .map_err(|e| anyhow::anyhow!("{line}: the result's faults: {e}"))?;
        if faults.len() != names.len() {
            bail!("{line}: {} faults for {} seats", faults.len(), names.len());
        }
        let outcome = match (faults.iter().position(Option::is_some), game.outcome()) {
            (None, Some(outcome)) => outcome,
            (None, None) => bail!(
                "{line}: the game ends without a fault after move {}, which does not end it",
                file.turns.len()
            ),
            (Some(_), Some(_)) => {
                bail!("{line}: a fault after the game was over (no move was asked for)")
            }
            (Some(seat), None) => game.forfeit(seat as u32, "fault"),
        };
        let engine = serde_json::to_value(&outcome).unwrap_or(Value::Null);
        if end.result["outcome"] != engine {
            bail!(
                "{line}: the recorded outcome {} is not the re-played game's {}",
                short(&end.result["outcome"]),
                short(&engine)
            );
        }
        let p = &outcome.points;
        let winner = match p.as_slice() {
            [a, b] if a > b => Value::from(0),
            [a, b] if b > a => Value::from(1),
            _ => Value::Null,
        };
        if ending["winner"] != winner || ending["reason"] != outcome.reason.as_str() {
            bail!(
                "{line}: the result's winner {} and reason {} are not the outcome's ({winner}, {})",
                ending["winner"],
                ending["reason"],
                outcome.reason
            );
        }
        let hash: String = file
            .turns
            .iter()
            .fold(Sha256::new(), |h, t| {
                h.chain_update(t["action"].to_string())
            })
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        if !ending["moves_sha256"].is_null() && ending["moves_sha256"] != hash.as_str() {
            bail!("{line}: moves_sha256 is not the hash of the recorded moves ({hash})");
        }
        if ending["turns"].as_u64() != Some(file.turns.len() as u64) {
            bail!(
                "{line}: the result counts {} moves; the replay has {}",
                ending["turns"],
                file.turns.len()
            );
        }
    }
    match (&file.end, ended) {
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

/// Each seat's log from a replay's end line (its first 40 lines), under the seat's name.
pub(super) fn print_logs(
    out: &mut String,
    names: &[&str],
    logs: &[Vec<String>],
) -> std::fmt::Result {
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
