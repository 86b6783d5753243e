//! How dice looks (its [`View`], named by the registry): the dice replay reader (strict and free
//! rules), which re-rolls and re-plays each turn from the header's dice, its text and its frames.

use std::fmt::Write as _;

use crate::games::contract::Variant;
use crate::games::dice::{DiceRules, Position};
use crate::games::rng;
use crate::replay::ReplayFile;
use crate::runtime::Fault;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::view::frames::{Board, Frame};
use crate::view::games::GameView;
use crate::view::replay::{check_seats, difference, parse, print_logs, same_result};

/// A die as a dice replay's header gives it.
#[derive(Deserialize)]
struct DieParam {
    name: String,
    faces: Vec<u64>,
}

/// The parameters of a dice replay (`play::dice` writes them; [`from_contract`] makes them of the
/// free variant's contract replays, and the free variant's older replays have them).
#[derive(Deserialize)]
struct DiceParams {
    rules: String,
    dice: [DieParam; 2],
    a_starts: bool,
}

/// A dice replay recorded through the game contract (a line per choice, each with the turns it and
/// the rolls without a choice after it played), as this reader reads dice: a line per roll, the
/// dice named by their numbers in the file, the result as `winner`, `reason`, `turns` and `faults`.
/// Each choice's `logged` counts go to its roll. The contract's reader checks the moves first
/// ([`super::render`]); this one re-plays the rolls again.
pub fn from_contract(file: &ReplayFile) -> anyhow::Result<ReplayFile> {
    let h = &file.header;
    let hl = file.header_line;
    let variant: Variant = Variant {
        name: parse(file, hl, "params.variant", &h.params["variant"])?,
        text: parse(file, hl, "params.text", &h.params["text"])?,
    };
    let ([a, b], first) = DiceRules::setup(&variant).map_err(|e| file.bad(hl, e))?;
    let (_, numbers, _) = DiceRules::named(&variant);
    let die = |n: usize, faces: &[u64]| json!({ "name": format!("D{n}"), "faces": faces });
    let mut header = h.clone();
    header.params = json!({
        "rules": "free",
        "dice": [die(numbers[0], a.faces()), die(numbers[1], b.faces())],
        "a_starts": first == 0,
    });
    header.start = json!({ "places": [Position::START.places(0), Position::START.places(1)] });
    let mut turns = Vec::new();
    let mut turn_lines = Vec::new();
    let opening = h.start["opening"].as_array().cloned().unwrap_or_default();
    turn_lines.extend(opening.iter().map(|_| hl));
    turns.extend(opening);
    for (i, t) in file.turns.iter().enumerate() {
        let line = file.turn_line(i);
        let rolls = t["event"]["turns"]
            .as_array()
            .ok_or_else(|| file.bad(line, "event.turns is not a list of rolls"))?;
        for (k, roll) in rolls.iter().enumerate() {
            let mut roll = roll.clone();
            if k == 0
                && let Value::Object(fields) = &mut roll
            {
                if let Some(logged) = t.get("logged") {
                    fields.insert("logged".into(), logged.clone());
                }
                // The decision this roll answered, for the viewer's observation of it.
                fields.insert("decision".into(), (i + 1).into());
            }
            turns.push(roll);
            turn_lines.push(line);
        }
    }
    let end = file.end.clone().map(|mut end| {
        let e = &end.result["ending"];
        end.result = json!({
            "winner": e["winner"],
            "reason": e["reason"],
            "turns": e["turns"],
            "faults": e["faults"],
        });
        end
    });
    Ok(ReplayFile {
        path: file.path.clone(),
        header,
        turns,
        end,
        header_line: hl,
        turn_lines,
        end_line: file.end_line,
        cut: file.cut,
    })
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
pub fn print_dice(file: &ReplayFile, last: Option<usize>) -> anyhow::Result<String> {
    let mut text = String::new();
    let out = &mut text;
    use crate::games::dice::{Die, Game, Place, Position};
    use crate::play::dice::Turn;
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
    // A seat by its die, and in the free variant by its strategy too (`D1:frontmost`), so that two
    // strategies rolling the same die are told apart.
    let names: [String; 2] = [0, 1].map(|seat| {
        let die = &params.dice[seat].name;
        match h.strategies.get(seat).filter(|_| !strict) {
            Some(s) => format!("{die}:{}", s.name),
            None => die.clone(),
        }
    });
    let width = names[0].len().max(names[1].len());
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
            "turn {:>4}: {:<width$} rolls {:>2}: {:<18} {}",
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
                // A strategy that did not start faults at the set-up, even in a game its dice
                // decide before anyone is asked (a die without a 6): only a fault in play must come
                // before the end.
                let at_setup = [a, b].iter().all(|f| {
                    f.as_ref()
                        .is_none_or(|f| f.kind == crate::runtime::FaultKind::Load)
                });
                if game.outcome().is_some() && !at_setup {
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
                    return Err(crate::view::replay::not_over(file, line, game.turns()));
                };
                let reason = outcome.end.reason();
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
        writeln!(
            out,
            "the board after the last move (1 and 2 the pieces, A the start fields, o the ring, : \
             the goal lanes and the fields B):"
        )?;
        for row in text_board(&serde_json::to_value(places(&game))?) {
            writeln!(out, "{row}")?;
        }
        // The free variant's strategies: their logs, under their names.
        let strategies: Vec<&str> = h.strategies.iter().map(|s| s.name.as_str()).collect();
        print_logs(out, &strategies, &end.logs)?;
    }
    Ok(text)
}

/// Dice: a roll at a time, the rolls without a choice included.
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
            true => print_dice(&from_contract(file)?, last),
            false => print_dice(file, last),
        }
    }

    fn frames(
        &self,
        file: &ReplayFile,
        contract: bool,
    ) -> anyhow::Result<(Vec<Frame>, Vec<Value>)> {
        let rolls = match contract {
            true => from_contract(file)?,
            false => file.clone(),
        };
        Ok((dice_frames(&rolls), rolls.turns))
    }
}

/// The ring of 40 fields on the board's 11 x 11 grid, as `[row, column]`, clockwise from seat 0's
/// start field A (the left arm's upper row); seat 1's A is 20 fields on, on the right arm.
const TRACK: [[usize; 2]; 40] = [
    [4, 0],
    [4, 1],
    [4, 2],
    [4, 3],
    [4, 4],
    [3, 4],
    [2, 4],
    [1, 4],
    [0, 4],
    [0, 5],
    [0, 6],
    [1, 6],
    [2, 6],
    [3, 6],
    [4, 6],
    [4, 7],
    [4, 8],
    [4, 9],
    [4, 10],
    [5, 10],
    [6, 10],
    [6, 9],
    [6, 8],
    [6, 7],
    [6, 6],
    [7, 6],
    [8, 6],
    [9, 6],
    [10, 6],
    [10, 5],
    [10, 4],
    [9, 4],
    [8, 4],
    [7, 4],
    [6, 4],
    [6, 3],
    [6, 2],
    [6, 1],
    [6, 0],
    [5, 0],
];

/// Each seat's goal fields a to d, from the field before its goal towards the middle.
const GOALS: [[[usize; 2]; 4]; 2] = [
    [[5, 1], [5, 2], [5, 3], [5, 4]],
    [[5, 9], [5, 8], [5, 7], [5, 6]],
];

/// Each seat's four fields B, where its pieces wait: seat 0's corner by its start, seat 1's by
/// its own.
const WAITING: [[[usize; 2]; 4]; 2] = [
    [[0, 0], [0, 1], [1, 0], [1, 1]],
    [[9, 9], [9, 10], [10, 9], [10, 10]],
];

/// The middle of the board, where the last roll is shown.
const MIDDLE: [usize; 2] = [5, 5];

/// Where step `step` of `seat` is on the grid (0 its field A, 40..43 its goal fields).
pub fn field(seat: usize, step: u64) -> Option<[usize; 2]> {
    match step {
        0..=39 => Some(TRACK[(step as usize + 20 * seat) % 40]),
        40..=43 => Some(GOALS[seat][step as usize - 40]),
        _ => None,
    }
}

/// The board as it looks: the cross of 40 fields with both start fields A in their seat's colour,
/// the goal lanes, the four fields B in each corner, the pieces (`1` for seat 0, `2` for seat 1)
/// where the places put them, and the roll in the middle.
fn board(value: &Value, roll: Option<u64>) -> Board {
    Board::styled(cells(value, roll))
}

/// The cells of [`board`]: each a text and a look.
fn cells(value: &Value, roll: Option<u64>) -> Vec<Vec<(String, String)>> {
    let mut cells = vec![vec![(String::new(), "off".to_string()); 11]; 11];
    for [r, c] in TRACK {
        cells[r][c].1 = "field".into();
    }
    for seat in 0..2 {
        let look = format!("field start{}", seat + 1);
        let [r, c] = TRACK[20 * seat];
        cells[r][c].1 = look;
        for [r, c] in GOALS[seat] {
            cells[r][c].1 = format!("field goal{}", seat + 1);
        }
        for [r, c] in WAITING[seat] {
            cells[r][c].1 = format!("field goal{}", seat + 1);
        }
        let pieces = value[seat].as_array().cloned().unwrap_or_default();
        let mut waiting = WAITING[seat].iter();
        for piece in pieces {
            let at = match piece.get("step").and_then(Value::as_u64) {
                Some(step) => field(seat, step),
                None => waiting.next().copied(),
            };
            if let Some([r, c]) = at {
                let look = format!("{} p{}", cells[r][c].1, seat + 1);
                cells[r][c] = ((seat + 1).to_string(), look);
            }
        }
    }
    if let Some(face) = roll {
        let [r, c] = MIDDLE;
        cells[r][c] = (face.to_string(), "die".into());
    }
    cells
}

/// The board in text, a line per row of the grid: `1` and `2` the pieces, `A` the start fields, `o`
/// the ring's other fields, `:` the goal lanes and the fields B.
fn text_board(value: &Value) -> Vec<String> {
    cells(value, None)
        .into_iter()
        .map(|row| {
            let cell = |(text, look): (String, String)| match look.as_str() {
                _ if !text.is_empty() => text,
                "off" => " ".into(),
                l if l.contains("start") => "A".into(),
                l if l.contains("goal") => ":".into(),
                _ => "o".into(),
            };
            let row: Vec<String> = row.into_iter().map(cell).collect();
            format!("  {}", row.join(" ")).trim_end().to_string()
        })
        .collect()
}

/// A piece's place in words: B, A, a field of the track, or a goal field.
fn place_name(place: &Value) -> String {
    match place.get("step").and_then(Value::as_u64).or(place.as_u64()) {
        Some(0) => "A".into(),
        Some(step @ 1..=39) => format!("field {step}"),
        Some(step @ 40..=43) => format!("goal {}", ["a", "b", "c", "d"][step as usize - 40]),
        Some(step) => format!("step {step}"),
        None => "B".into(),
    }
}

pub(crate) fn dice_frames(file: &ReplayFile) -> Vec<Frame> {
    let mut frames = vec![Frame::new(
        0,
        None,
        "start",
        board(&file.header.start["places"], None),
    )];
    for (i, t) in file.turns.iter().enumerate() {
        let moved = match &t["move"] {
            Value::Null => "no piece can move".to_string(),
            m if m["from"].get("step").is_none() => "brings a piece in on A".to_string(),
            m => format!(
                "moves a piece from {} to {}",
                place_name(&m["from"]),
                place_name(&m["to"])
            ),
        };
        let captured = if t["captured"] == true {
            ", capturing a piece"
        } else {
            ""
        };
        frames.push(Frame::new(
            i + 1,
            t["seat"].as_u64().map(|s| s as usize),
            format!("rolls {}: {moved}{captured}", t["face"]),
            board(&t["places"], t["face"].as_u64()),
        ));
    }
    frames
}
