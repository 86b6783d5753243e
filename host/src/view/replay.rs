//! A replay as text, move by move: what `botbox replay` prints, and the check the viewer's frames
//! start from.
//!
//! Replays are re-played, not believed: every reader starts the game's engine from the header (seed,
//! board size, dice, map, deal, variant), makes each recorded move in it, and refuses the first line
//! that does not follow with `FILE:LINE: what is wrong`; the views then print what the engine
//! produced. Text the engine cannot check (strategy names, hashes, limits, fault messages, logs) is
//! shown as recorded.

pub(crate) mod contract;

use std::fmt::Write as _;

use crate::replay::ReplayFile;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// A replay re-played through its game's engine and printed (its last `last` turns, if given); the
/// first line that does not follow is refused with `FILE:LINE`.
pub fn render(file: &ReplayFile, last: Option<usize>) -> anyhow::Result<String> {
    // Games recorded through the game contract (`tournament::versus`) name a variant, and the
    // contract's reader checks their moves first; a game's own view (`view::games`) then tells
    // them, as it tells the game's older replays.
    let contract = file.header.params.get("variant").is_some();
    let from = played_on(file)?;
    let text = match contract {
        true => Some(contract::print_contract(file, last)?),
        false => None,
    };
    let mut text = match (super::games::find(&file.header.game), text) {
        (Some(view), _) => view.text(file, contract, last)?,
        (None, Some(text)) => text,
        (None, None) => contract::print_contract(file, last)?,
    };
    if let Some(from) = from {
        // Said first, under the game's title line.
        let at = text.find('\n').map_or(text.len(), |i| i + 1);
        text.insert_str(at, &format!("{from}\n"));
    }
    if let Some(line) = file.cut {
        writeln!(
            text,
            "the file stops in the middle of line {line}: the game is shown up to there ({} \
             turns; its end was not recorded)",
            file.turns.len()
        )?;
    }
    Ok(text)
}

/// For a game played on from a recorded one (`botbox replay --play-on`), where it comes from in
/// words; its turn lines must say which moves are the recorded game's (the first ones) and no
/// other. `None` for any other game.
pub fn played_on(file: &ReplayFile) -> anyhow::Result<Option<String>> {
    let Some(on) = &file.header.played_on else {
        return Ok(None);
    };
    let at = |i: usize| format!("{}:{}", file.path.display(), file.turn_line(i));
    for (i, t) in file.turns.iter().enumerate() {
        let marked = t.get("recorded") == Some(&Value::Bool(true));
        anyhow::ensure!(
            marked == (i < on.recorded),
            "{}: move {} is {}marked recorded, but the header says the first {} moves are the \
             recorded game's",
            at(i),
            i + 1,
            if marked { "" } else { "not " },
            on.recorded
        );
    }
    let names: Vec<&str> = on.strategies.iter().map(|s| s.name.as_str()).collect();
    Ok(Some(match on.recorded {
        0 => format!(
            "played on from {} ({}) at its first move",
            on.from,
            names.join(" vs ")
        ),
        n => format!(
            "played on from {} ({}): moves 1 to {n} as recorded there",
            on.from,
            names.join(" vs ")
        ),
    }))
}

/// A JSON value on one line, cut to a readable length.
pub(crate) fn short(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(120) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text,
    }
}

/// Where the recorded `recorded` and the engine's `replayed` differ, naming the first field that
/// does (`None` when they are the same).
pub(crate) fn difference<T: Serialize>(recorded: &T, replayed: &T) -> Option<String> {
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
pub(crate) fn parse<T: DeserializeOwned>(
    file: &ReplayFile,
    line: usize,
    what: &str,
    value: &Value,
) -> anyhow::Result<T> {
    T::deserialize(value).map_err(|e| file.bad(line, format!("{what}: {e}")).into())
}

/// Refuses an end line whose result (winner, reason, turns) is not what re-playing the game gave.
pub(crate) fn same_result<T: PartialEq + std::fmt::Debug>(
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
/// The error for an end line that claims a game over (without a fault) the engine has not ended.
pub(crate) fn not_over(file: &ReplayFile, line: usize, turns: u32) -> anyhow::Error {
    file.bad(
        line,
        format!("the game ends without a fault after turn {turns}, which does not end it"),
    )
    .into()
}

pub(crate) fn check_seats(file: &ReplayFile, expected: usize) -> anyhow::Result<()> {
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

/// Each seat's log from a replay's end line (its first 40 lines), under the seat's name.
pub(crate) fn print_logs(
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
