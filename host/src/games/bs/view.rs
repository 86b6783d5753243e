//! How BS looks (its [`View`], named by the registry). `botbox replay` tells a recorded game turn by
//! turn, with everything the host saw: the deal, each play (the cards, face up here), who wanted to
//! call, the chosen caller, the reveal, who took the pile and the reward card, the hand sizes after
//! each turn, and the end.
//!
//! Cards are written as their rank then a suit letter, `7h` for card 30 (rank 30 / 4 = 7, suit
//! 30 % 4 = 2 of `cdhs`), so a lie shows at a glance.

use std::fmt::Write as _;

use crate::games::bs::{Game, PLAYERS, ROUND_LIMIT, Resolution, Seat};
use crate::replay::ReplayFile;
use crate::runtime::Fault;
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::view::frames::{self, Board, Frame};
use crate::view::games::GameView;
use crate::view::replay::{check_seats, difference, parse, same_result};
use serde_json::Value;

mod table;
use table::{bs_frames, bs_move_frames, rank_name};

/// One turn of a BS replay: everything that happened, hidden cards included.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    /// The turn's number, from 1.
    pub n: u32,
    pub seat: Seat,
    /// The required (claimed) rank.
    pub rank: u32,
    /// The cards played, in pile order.
    pub cards: Vec<u32>,
    /// The seats that said yes to calling.
    pub callers: Vec<Seat>,
    /// The caller chosen among them.
    pub caller: Option<Seat>,
    /// Whether a played card was not of the required rank.
    pub lie: bool,
    /// Who took the pile, after a call.
    pub taker: Option<Seat>,
    /// How many cards the taker picked up.
    #[serde(default)]
    pub taken: u32,
    /// After a called lie, the caller's card that became the new pile.
    pub reward: Option<u32>,
    /// Every seat's hand size after the turn.
    pub hand_sizes: [u32; PLAYERS],
    /// The pile's size after the turn.
    pub pile: u32,
}

impl Turn {
    /// The replay line of the turn `r` resolved, with `game` as it stands after it.
    pub fn of(r: &Resolution, game: &Game) -> Turn {
        Turn {
            n: r.turn + 1,
            seat: r.player,
            rank: r.rank,
            cards: r.cards.iter().map(u32::from).collect(),
            callers: (0..PLAYERS).filter(|&s| r.callers[s]).collect(),
            caller: r.caller,
            lie: r.lie,
            taker: r.taker,
            taken: r.taken,
            reward: r.reward.map(u32::from),
            hand_sizes: game.hand_sizes(),
            pile: game.pile_len(),
        }
    }
}

/// A card as rank and suit letter: `0c` is card 0, `12s` card 51.
pub fn card(id: u32) -> String {
    format!("{}{}", id / 4, ['c', 'd', 'h', 's'][(id % 4) as usize])
}

fn cards(ids: &[u32]) -> String {
    ids.iter().map(|&c| card(c)).collect::<Vec<_>>().join(" ")
}

/// A card as the viewer shows it, as a player would name it: its rank (`2` to `10`, `J`, `Q`, `K`,
/// `A`, the names the claims use) and its suit (`♣♦♥♠`): `9♥` for card 30.
pub fn face(id: u32) -> String {
    let rank = rank_name(&serde_json::json!(id / 4));
    format!("{rank}{}", ['♣', '♦', '♥', '♠'][(id % 4) as usize])
}

/// Cards as the viewer shows them ([`face`]).
fn faces(ids: &[u32]) -> String {
    ids.iter().map(|&c| face(c)).collect::<Vec<_>>().join(" ")
}

fn seats(list: &[usize]) -> String {
    list.iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// One turn as a line: the play, then the calls and what followed.
fn describe(t: &Turn, names: &[String]) -> String {
    let who = |s: usize| format!("seat {s} ({})", names.get(s).map_or("?", String::as_str));
    let n = t.cards.len();
    let mut line = format!(
        "turn {:>4} (round {}, rank {:>2}): {} plays {n} card{} [{}]{}",
        t.n,
        t.n.saturating_sub(1) / PLAYERS as u32 + 1,
        t.rank,
        who(t.seat),
        if n == 1 { "" } else { "s" },
        cards(&t.cards),
        if t.lie { ", a lie" } else { "" },
    );
    match (t.caller, t.taker) {
        (Some(caller), Some(taker)) => {
            let verdict = if t.lie { "right" } else { "wrong" };
            line.push_str(&format!(
                "\n      callers: {}; seat {caller} calls, {verdict}: seat {taker} takes {} card{}",
                seats(&t.callers),
                t.taken,
                if t.taken == 1 { "" } else { "s" },
            ));
            if let Some(reward) = t.reward {
                line.push_str(&format!(
                    "; seat {caller} puts {} down as the new pile",
                    card(reward)
                ));
            }
        }
        _ => line.push_str("; no call"),
    }
    let sizes: Vec<String> = t.hand_sizes.iter().map(u32::to_string).collect();
    line.push_str(&format!(
        "\n      hands {}, pile {}",
        sizes.join(" "),
        t.pile
    ));
    line
}

/// The end of a BS replay, as `tournament::pool::Outcome` records it.
#[derive(Deserialize)]
struct End {
    winner: Option<usize>,
    reason: String,
    turns: u32,
    faults: [Option<Fault>; PLAYERS],
}

/// A BS replay recorded through the game contract (a line per play and per call), as this reader
/// reads BS: a line per turn, the whole turn that the event of its last call records, at that
/// call's line; the header's deal from the start state; the result as the game's ending. The
/// contract's reader checks the moves first ([`super::render`]).
pub fn from_contract(file: &ReplayFile) -> ReplayFile {
    let mut turns = Vec::new();
    let mut turn_lines = Vec::new();
    for (i, t) in file.turns.iter().enumerate() {
        if let Some(turn) = t["event"].get("turn") {
            turns.push(turn.clone());
            turn_lines.push(file.turn_line(i));
        }
    }
    let mut header = file.header.clone();
    header.params = json!({ "players": PLAYERS, "round_limit": ROUND_LIMIT });
    header.start = json!({ "hands": file.header.start["hands"] });
    let end = file.end.clone().map(|mut end| {
        end.result = end.result["ending"].clone();
        end
    });
    ReplayFile {
        path: file.path.clone(),
        header,
        turns,
        end,
        header_line: file.header_line,
        turn_lines,
        end_line: file.end_line,
        cut: file.cut,
    }
}

/// Prints a BS replay: the table and the deal, every turn (or the last `last`), and the end.
///
/// The game is re-played, not believed: it is dealt again from the header's seed (the recorded deal
/// must be that deal), each turn's cards are played by the seat to move and its callers' calls
/// resolved in the engine (a card the seat does not hold, a caller out of range, another caller
/// drawn, another reward card, other hand sizes: the line is refused), and the end must be the
/// engine's, or a fault in a game still going (which voids it). What is printed is the engine's.
pub fn print_replay(file: &ReplayFile, last: Option<usize>) -> anyhow::Result<String> {
    let mut text = String::new();
    let out = &mut text;
    let h = &file.header;
    let hl = file.header_line;
    check_seats(file, PLAYERS)?;
    let players: usize = parse(file, hl, "params.players", &h.params["players"])?;
    let round_limit: u32 = parse(file, hl, "params.round_limit", &h.params["round_limit"])?;
    if (players, round_limit) != (PLAYERS, ROUND_LIMIT) {
        return Err(file
            .bad(
                hl,
                format!(
                    "{players} players and a round limit of {round_limit}: BS is played by \
                     {PLAYERS} with a limit of {ROUND_LIMIT} rounds"
                ),
            )
            .into());
    }
    let mut game = Game::new(h.seed);
    let deal: Vec<Vec<u32>> = (0..PLAYERS)
        .map(|s| game.hand(s).iter().map(u32::from).collect())
        .collect();
    let hands: Vec<Vec<u32>> = parse(file, hl, "start.hands", &h.start["hands"])?;
    if hands != deal {
        return Err(file
            .bad(
                hl,
                format!("start.hands is not the deal of seed {}", h.seed),
            )
            .into());
    }
    let names: Vec<String> = h.strategies.iter().map(|s| s.name.clone()).collect();
    writeln!(out, "bs game {} seed {}", h.number, h.seed)?;
    for (seat, s) in h.strategies.iter().enumerate() {
        writeln!(
            out,
            "  seat {seat}: {} ({}, sha256 {:.12})",
            s.name, s.kind, s.sha256
        )?;
        writeln!(out, "          dealt {}", cards(&deal[seat]))?;
    }
    let skip = last.map_or(0, |n| file.turns.len().saturating_sub(n));
    for (i, value) in file.turns.iter().enumerate() {
        let line = file.turn_line(i);
        let recorded: Turn = parse(file, line, "not a BS turn", value)?;
        let (turn, seat) = (game.turn() + 1, game.to_move());
        game.play(&recorded.cards).map_err(|e| {
            file.bad(
                line,
                format!(
                    "turn {turn}: seat {seat} cannot play {:?}: {e}",
                    recorded.cards
                ),
            )
        })?;
        let mut calls = [false; PLAYERS];
        for &caller in &recorded.callers {
            match calls.get_mut(caller) {
                Some(call) => *call = true,
                None => {
                    return Err(file
                        .bad(
                            line,
                            format!("turn {turn}: caller {caller} is not a seat (0 to 3)"),
                        )
                        .into());
                }
            }
        }
        let resolution = game
            .resolve(calls)
            .map_err(|e| file.bad(line, e.to_string()))?;
        let t = Turn::of(&resolution, &game);
        if let Some(what) = difference(&recorded, &t) {
            return Err(file
                .bad(line, format!("turn {turn} does not follow: {what}"))
                .into());
        }
        if i >= skip {
            writeln!(out, "{}", describe(&t, &names))?;
        }
        if game.is_over() && i + 1 < file.turns.len() {
            return Err(file
                .bad(file.turn_line(i + 1), "a turn after the game ended")
                .into());
        }
    }
    let Some(end) = &file.end else {
        writeln!(
            out,
            "(the replay ends without a result: the game was cut short)"
        )?;
        return Ok(text);
    };
    let line = file.end_line();
    let r: End = parse(file, line, "not a BS result", &end.result)?;
    let faulted = r.faults.iter().any(Option::is_some);
    let expected = match game.end() {
        _ if faulted && game.is_over() => {
            return Err(file
                .bad(
                    line,
                    "a fault after the game was over (no move was asked for)",
                )
                .into());
        }
        _ if faulted => (None, "fault"),
        Some(end) => (end.winner(), end.reason()),
        None => {
            return Err(file
                .bad(
                    line,
                    format!(
                        "the game ends without a fault after turn {}, which does not end it",
                        game.turn()
                    ),
                )
                .into());
        }
    };
    let said = (r.winner, r.reason.as_str(), r.turns);
    let engine = (expected.0, expected.1, game.turn());
    same_result(file, line, &said, &engine)?;
    let turns = engine.2;
    match engine.0 {
        Some(seat) => writeln!(
            out,
            "end: seat {seat} ({}) wins after {turns} turns",
            names.get(seat).map_or("?", String::as_str)
        )?,
        None if faulted => {
            writeln!(out, "end: void after {turns} turns")?;
            for (seat, fault) in r.faults.iter().enumerate() {
                if let Some(fault) = fault {
                    writeln!(
                        out,
                        "  seat {seat} ({}) faulted: {}: {}",
                        names.get(seat).map_or("?", String::as_str),
                        fault.kind,
                        fault.message
                    )?;
                }
            }
        }
        None => writeln!(out, "end: no winner ({}) after {turns} turns", engine.1)?,
    }
    for (seat, log) in end.logs.iter().enumerate() {
        for line in log {
            writeln!(out, "  seat {seat} | {line}")?;
        }
    }
    Ok(text)
}

/// BS: told a whole turn (a play and its calls) at a time; drawn a frame per play and per call.
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
            true => print_replay(&from_contract(file), last),
            false => print_replay(file, last),
        }
    }

    fn frames(
        &self,
        file: &ReplayFile,
        contract: bool,
    ) -> anyhow::Result<(Vec<Frame>, Vec<Value>)> {
        let frames = match contract {
            true => bs_move_frames(file),
            false => bs_frames(file),
        };
        Ok((frames, file.turns.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards_show_rank_and_suit() {
        assert_eq!(
            [0, 30, 51].map(card),
            ["0c".to_string(), "7h".into(), "12s".into()]
        );
    }
}
