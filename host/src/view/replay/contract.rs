//! The reader of replays written through the game contract (Connect Four, `match dice`): each
//! recorded action is applied to a new game of the registered game.

use std::fmt::Write as _;

use crate::replay::ReplayFile;
use crate::runtime::Fault;
use anyhow::bail;
use serde_json::Value;
use sha2::{Digest as _, Sha256};

use super::{print_logs, short};

/// Makes a recorded turn of `seat` on `game`: its action, or, for a turn marked `"fault": true`, the
/// fault the game took as the seat's move in a round of simultaneous moves. Returns the event;
/// the error says why the turn does not follow. The reader and the viewer's frames both re-play
/// with it.
pub(crate) fn apply_turn(
    game: &mut dyn crate::games::contract::Match,
    seat: u32,
    turn: &Value,
) -> Result<Value, String> {
    if turn["fault"] == true {
        if !turn["action"].is_null() {
            return Err("a fault taken as a move has no action".into());
        }
        return game
            .fault_move(seat)
            .ok_or_else(|| "a fault recorded as a move, which the game does not take".into());
    }
    game.apply(&turn["action"])
        .map_err(|e| format!("the recorded action does not follow: {e}"))
}

/// Any registered game's replay, re-played through the game contract: each recorded action is applied
/// to a new game with the recorded seed and variant, and the first one that does not follow (not that
/// seat's turn, refused, or a different event than recorded) is refused with its line.
pub(crate) fn print_contract(file: &ReplayFile, last: Option<usize>) -> anyhow::Result<String> {
    let mut text = String::new();
    let out = &mut text;
    let h = &file.header;
    let at = |line: usize| format!("{}:{line}", file.path.display());
    let rules = crate::games::registry::find(&h.game)
        .map_err(|e| anyhow::anyhow!("{}: {e}", at(file.header_line)))?;
    let variant = h.variant();
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
    let mut fault_moves: Vec<usize> = Vec::new();
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
        if turn["fault"] == true {
            fault_moves.push(expected.seat as usize);
        }
        let event = apply_turn(game.as_mut(), expected.seat, turn)
            .map_err(|e| anyhow::anyhow!("{}: {e}", at(line)))?;
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
            } else if turn["recorded"] == true {
                "  (recorded)"
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
            // Faults the game took as moves: the game's own end says what they did.
            (Some(_), Some(outcome))
                if faults
                    .iter()
                    .enumerate()
                    .all(|(s, f)| f.is_none() || fault_moves.contains(&s)) =>
            {
                outcome
            }
            // A strategy that did not start faults at the set-up, even in a game decided before
            // anyone is asked (dice with a die that has no 6): the driver forfeits it there.
            (Some(seat), Some(_))
                if file.turns.is_empty()
                    && faults
                        .iter()
                        .flatten()
                        .all(|f| f.kind == crate::runtime::FaultKind::Load) =>
            {
                game.forfeit(seat as u32, "fault")
            }
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
        let winner = outcome.winner().map_or(Value::Null, Value::from);
        if ending["winner"] != winner || ending["reason"] != outcome.reason.as_str() {
            bail!(
                "{line}: the result's winner {} and reason {} are not the outcome's ({winner}, {})",
                ending["winner"],
                ending["reason"],
                outcome.reason
            );
        }
        // The game's own hash of its moves where it keeps one (Wormworld), else the driver's.
        let hash: String = game.moves_sha256().unwrap_or_else(|| {
            file.turns
                .iter()
                .fold(Sha256::new(), |h, t| {
                    h.chain_update(t["action"].to_string())
                })
                .finalize()
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect()
        });
        if !ending["moves_sha256"].is_null() && ending["moves_sha256"] != hash.as_str() {
            bail!("{line}: moves_sha256 is not the hash of the recorded moves ({hash})");
        }
        // The game's length in its own words: its moves, or its turns (BS: a play and its calls).
        if ending["turns"].as_u64() != Some(u64::from(game.turns())) {
            bail!(
                "{line}: the result counts {} turns; the re-played game has {}",
                ending["turns"],
                game.turns()
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
    Ok(text)
}
