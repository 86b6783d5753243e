//! `botbox replay` for BS: a recorded game turn by turn, with everything the host saw: the deal, each
//! play (the cards, face up here), who wanted to call, the chosen caller, the reveal, who took the
//! pile and the reward card, the hand sizes after each turn, and the end.
//!
//! Cards are written as their rank then a suit letter, `7h` for card 30 (rank 30 / 4 = 7, suit
//! 30 % 4 = 2 of `cdhs`), so a lie shows at a glance.

use std::fmt::Write as _;

use anyhow::Context;
use botbox::games::bs::PLAYERS;
use botbox::play::bs::Turn;
use botbox::replay::ReplayFile;

/// A card as rank and suit letter: `0c` is card 0, `12s` card 51.
pub fn card(id: u32) -> String {
    format!("{}{}", id / 4, ['c', 'd', 'h', 's'][(id % 4) as usize])
}

fn cards(ids: &[u32]) -> String {
    ids.iter().map(|&c| card(c)).collect::<Vec<_>>().join(" ")
}

fn seats(list: &[usize]) -> String {
    list.iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// One turn as a line: the play, then the calls and what followed.
fn describe(t: &Turn, names: &[String]) -> String {
    let who = |s: usize| format!("seat {s} ({})", names[s]);
    let n = t.cards.len();
    let mut line = format!(
        "turn {:>4} (round {}, rank {:>2}): {} plays {n} card{} [{}]{}",
        t.n,
        (t.n - 1) / PLAYERS as u32 + 1,
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

/// Prints a BS replay: the table and the deal, every turn (or the last `last`), and the end.
pub fn print_replay(
    out: &mut String,
    file: &ReplayFile,
    last: Option<usize>,
) -> anyhow::Result<()> {
    let h = &file.header;
    let names: Vec<String> = h.strategies.iter().map(|s| s.name.clone()).collect();
    writeln!(out, "bs game {} seed {}", h.number, h.seed)?;
    let hands: Vec<Vec<u32>> =
        serde_json::from_value(h.start["hands"].clone()).context("reading the deal")?;
    for (seat, s) in h.strategies.iter().enumerate() {
        writeln!(
            out,
            "  seat {seat}: {} ({}, sha256 {:.12})",
            s.name, s.kind, s.sha256
        )?;
        if let Some(hand) = hands.get(seat) {
            writeln!(out, "          dealt {}", cards(hand))?;
        }
    }
    let skip = last.map_or(0, |n| file.turns.len().saturating_sub(n));
    for (i, value) in file.turns.iter().enumerate().skip(skip) {
        let t: Turn = serde_json::from_value(value.clone())
            .with_context(|| format!("reading turn {}", i + 1))?;
        writeln!(out, "{}", describe(&t, &names))?;
    }
    let Some(end) = &file.end else {
        writeln!(
            out,
            "(the replay ends without a result: the game was cut short)"
        )?;
        return Ok(());
    };
    let r = &end.result;
    let turns = r["turns"].as_u64().unwrap_or(0);
    match (r["reason"].as_str(), r["winner"].as_u64()) {
        (_, Some(seat)) => writeln!(
            out,
            "end: seat {seat} ({}) wins after {turns} turns",
            names.get(seat as usize).map_or("?", String::as_str)
        )?,
        (Some("fault"), _) => {
            writeln!(out, "end: void after {turns} turns")?;
            for (seat, fault) in r["faults"].as_array().into_iter().flatten().enumerate() {
                if !fault.is_null() {
                    writeln!(
                        out,
                        "  seat {seat} ({}) faulted: {}: {}",
                        names.get(seat).map_or("?", String::as_str),
                        fault["kind"].as_str().unwrap_or("?"),
                        fault["message"].as_str().unwrap_or("")
                    )?;
                }
            }
        }
        (reason, _) => writeln!(
            out,
            "end: no winner ({}) after {turns} turns",
            reason.unwrap_or("?")
        )?,
    }
    for (seat, log) in end.logs.iter().enumerate() {
        for line in log {
            writeln!(out, "  seat {seat} | {line}")?;
        }
    }
    Ok(())
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
