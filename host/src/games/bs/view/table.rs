//! BS as the viewer draws it: the table after every play, call and whole turn, each seat's hand and
//! the pile dealt and played again by the engine, face up for an omniscient viewer only.

use super::*;

/// A BS rank's name: `2` to `10`, `J`, `Q`, `K`, `A`.
pub(super) fn rank_name(rank: &Value) -> &'static str {
    const RANKS: [&str; 13] = [
        "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A",
    ];
    rank.as_u64()
        .and_then(|r| RANKS.get(r as usize))
        .copied()
        .unwrap_or("?")
}

/// Every seat's hand and the pile, face up, at the deal and after each whole turn, as the engine
/// deals and plays them from the replay's seed and turns (the replay was checked before).
fn tables(file: &ReplayFile) -> Vec<Table> {
    let mut game = Game::new(file.header.seed);
    let mut tables = vec![Table::of(&game)];
    for value in &file.turns {
        let Ok(t) = Turn::deserialize(value) else {
            break;
        };
        if game.play(&t.cards).is_err() {
            break;
        }
        let mut calls = [false; PLAYERS];
        for &c in &t.callers {
            if let Some(call) = calls.get_mut(c) {
                *call = true;
            }
        }
        if game.resolve(calls).is_err() {
            break;
        }
        tables.push(Table::of(&game));
    }
    tables
}

/// The cards on the table: every seat's hand and the pile.
#[derive(Clone, Debug)]
struct Table {
    hands: Vec<Vec<u32>>,
    pile: Vec<u32>,
}

impl Table {
    fn of(game: &Game) -> Table {
        Table {
            hands: (0..PLAYERS)
                .map(|s| game.hand(s).iter().map(u32::from).collect())
                .collect(),
            pile: game.pile().iter().map(u32::from).collect(),
        }
    }

    /// `seat` plays `cards` from its hand onto the pile.
    fn play(&mut self, seat: usize, cards: &[u32]) {
        if let Some(hand) = self.hands.get_mut(seat) {
            hand.retain(|c| !cards.contains(c));
        }
        self.pile.extend_from_slice(cards);
    }

    /// The table as the viewer draws it: a row per seat (its name, its number of cards, its hand
    /// face up, which only an omniscient viewer sees), then the pile's; the seat to act marked.
    fn board(&self, names: &[String], acting: Option<usize>) -> Board {
        let mut rows = Vec::new();
        let mut styles = Vec::new();
        for (s, hand) in self.hands.iter().enumerate() {
            let mut sorted = hand.clone();
            sorted.sort_unstable();
            rows.push(vec![
                format!("seat {s}: {}", names.get(s).map_or("?", String::as_str)),
                format!("{} cards", hand.len()),
                faces(&sorted),
            ]);
            let seat_look = match acting == Some(s) {
                true => format!("p{} acting", s % 2 + 1),
                false => format!("p{}", s % 2 + 1),
            };
            styles.push(vec![seat_look, String::new(), "secret".into()]);
        }
        rows.push(vec![
            "pile".into(),
            format!("{} cards", self.pile.len()),
            faces(&self.pile),
        ]);
        styles.push(vec!["pile".into(), String::new(), "secret".into()]);
        Board::Table {
            header: vec!["seat".into(), "holds".into(), "cards (face up)".into()],
            rows,
            styles,
        }
    }
}

/// BS recorded through its contract: a frame per play and per call. A play shows the claim and the
/// table with the cards on the pile; a call what the seat answered (hidden: only an omniscient
/// viewer sees who wanted to call); the last call of a turn the whole turn, as [`bs_frames`] draws
/// it.
pub(crate) fn bs_move_frames(file: &ReplayFile) -> Vec<Frame> {
    let names = frames::player_names(file);
    let turns = from_contract(file);
    let mut whole = bs_frames(&turns).into_iter();
    let mut frames = vec![whole.next().expect("the deal's frame")];
    let mut tables = tables(&turns).into_iter();
    let mut table = tables.next().expect("the deal");
    for (i, t) in file.turns.iter().enumerate() {
        let (n, seat) = (i + 1, t["seat"].as_u64().map(|s| s as usize));
        let event = &t["event"];
        if event.get("turn").is_some() {
            // The whole turn, told by the seat that played it (the last answer is a caller's).
            let Some(mut frame) = whole.next() else { break };
            frame.n = n;
            if let Some(next) = tables.next() {
                table = next;
            }
            frames.push(frame);
        } else if let Some(played) = event["play"].as_array() {
            let played: Vec<u32> = played
                .iter()
                .filter_map(Value::as_u64)
                .map(|c| c as u32)
                .collect();
            if let Some(s) = seat {
                table.play(s, &played);
            }
            let rank = rank_name(&event["rank"]);
            frames.push(
                Frame::new(
                    n,
                    seat,
                    format!("claims {} × {rank}", played.len()),
                    table.board(&names, seat),
                )
                .hiding(format!("played {}", faces(&played))),
            );
        } else {
            frames.push(
                Frame::new(
                    n,
                    seat,
                    "answers whether to call",
                    table.board(&names, seat),
                )
                .hiding(format!(
                    "wants to call: {}",
                    if event["call"] == true { "yes" } else { "no" }
                )),
            );
        }
    }
    frames
}

/// BS a whole turn at a time (a play and its calls), the table after it.
pub(crate) fn bs_frames(file: &ReplayFile) -> Vec<Frame> {
    let names = frames::player_names(file);
    let tables = tables(file);
    let mut frames = vec![Frame::new(
        0,
        None,
        "the deal",
        tables[0].board(&names, None),
    )];
    for (i, t) in file.turns.iter().enumerate() {
        let played: Vec<u32> = t["cards"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_u64)
                    .map(|c| c as u32)
                    .collect()
            })
            .unwrap_or_default();
        let rank = rank_name(&t["rank"]);
        let call = match t["caller"].as_u64() {
            Some(c) => format!(
                "; {} calls{}: {} takes {} cards",
                names.get(c as usize).map_or("?", String::as_str),
                if t["lie"] == true {
                    " a lie"
                } else {
                    " the truth"
                },
                names
                    .get(t["taker"].as_u64().unwrap_or(9) as usize)
                    .map_or("?", String::as_str),
                t["taken"]
            ),
            None => "; nobody calls".to_string(),
        };
        let seat = t["seat"].as_u64().map(|s| s as usize);
        let Some(table) = tables.get(i + 1) else {
            break;
        };
        let callers: Vec<&str> = t["callers"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_u64)
                    .map(|c| names.get(c as usize).map_or("?", String::as_str))
                    .collect()
            })
            .unwrap_or_default();
        frames.push(
            Frame::new(
                i + 1,
                seat,
                format!("claims {} × {rank}{call}", played.len()),
                table.board(&names, seat),
            )
            .hiding(format!(
                "played {}{}; wanted to call: {}",
                faces(&played),
                if t["lie"] == true { " (a lie)" } else { "" },
                if callers.is_empty() {
                    "nobody".to_string()
                } else {
                    callers.join(", ")
                }
            )),
        );
    }
    frames
}
