//! A replay as the browser viewer draws it (`botbox view`): one frame per position, the start and
//! then after each move, computed here and not in JavaScript. The replay is first re-played through
//! its game's engine by the same reader as `botbox replay` ([`super::replay::render`]), so a file that does
//! not follow is refused before anything is drawn; boards the replay does not record (Wormworld,
//! games through the contract) come from that engine, so the viewer cannot drift from the rules.

use serde::Serialize;
use serde_json::Value;

use crate::replay::ReplayFile;

/// What the viewer page receives.
#[derive(Debug, Serialize)]
pub struct Viewer {
    pub format: String,
    pub version: u32,
    pub game: String,
    /// One line about the game: its number, seed and variant.
    pub title: String,
    /// The players in seat order.
    pub players: Vec<String>,
    /// The start, then the position after each move.
    pub frames: Vec<Frame>,
    /// How the game ended, in words (`None` for a replay without its end line).
    pub end: Option<String>,
    /// Each seat's log lines.
    pub logs: Vec<Vec<String>>,
    /// Each seat's fault, `kind: message`.
    pub faults: Vec<Option<String>>,
}

/// One position.
#[derive(Debug, Serialize)]
pub struct Frame {
    /// The move that led here, from 1 (0 for the start).
    pub n: usize,
    /// Who made that move.
    pub seat: Option<usize>,
    /// The move in words.
    pub text: String,
    pub board: Board,
    /// What only an omniscient viewer may see (BS: the cards played and who wanted to call).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hidden: Option<String>,
    /// The log lines the move produced, per seat (the last frame also takes the lines logged after
    /// the last recorded move, such as those of a decision that faulted).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub log: Vec<Logged>,
}

impl Frame {
    /// The position after move `n` (0: the start) by `seat`, described by `text`, with nothing
    /// hidden and no log lines yet ([`attach_logs`] adds those).
    fn new(n: usize, seat: Option<usize>, text: impl Into<String>, board: Board) -> Frame {
        Frame {
            n,
            seat,
            text: text.into(),
            board,
            hidden: None,
            log: Vec::new(),
        }
    }

    /// The same frame with what only an omniscient viewer may see.
    fn hiding(self, hidden: String) -> Frame {
        Frame {
            hidden: Some(hidden),
            ..self
        }
    }
}

/// Lines `from..to` of seat `seat`'s log ([`Viewer::logs`]).
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct Logged {
    pub seat: usize,
    pub from: usize,
    pub to: usize,
}

/// A board: a grid of cells (each a short text, empty for an empty cell) or lines of text.
#[derive(Debug, Serialize, PartialEq)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Board {
    Grid { rows: Vec<Vec<String>> },
    Lines { lines: Vec<String> },
}

/// The frames of a replay, after re-playing it through the engine.
pub fn frames(file: &ReplayFile) -> anyhow::Result<Viewer> {
    super::replay::render(file, Some(0))?;
    let h = &file.header;
    let contract = h.params.get("variant").is_some();
    let (mut frames, turns) = match super::games::find(&h.game) {
        Some(view) => view.frames(file, contract)?,
        None if contract => (contract_frames(file)?, file.turns.clone()),
        None => anyhow::bail!("no viewer for {} replays", h.game),
    };
    let result = file.end.as_ref().map(|e| &e.result);
    let faults = result
        .map(|r| {
            let list = r
                .get("faults")
                .or_else(|| r.get("ending").and_then(|e| e.get("faults")))
                .cloned()
                .or_else(|| r.get("fault").map(|f| Value::Array(vec![f.clone()])))
                .unwrap_or(Value::Null);
            list.as_array()
                .map(|a| {
                    a.iter()
                        .map(|f| {
                            (!f.is_null()).then(|| {
                                format!(
                                    "{}: {}",
                                    f["kind"].as_str().unwrap_or("fault"),
                                    f["message"].as_str().unwrap_or_default()
                                )
                            })
                        })
                        .collect()
                })
                .unwrap_or_default()
        })
        .unwrap_or_default();
    let logs = file
        .end
        .as_ref()
        .map(|e| e.logs.clone())
        .unwrap_or_default();
    attach_logs(&mut frames, &turns, &logs);
    Ok(Viewer {
        format: h.format.clone(),
        version: h.version,
        game: h.game.clone(),
        title: format!("{} game {} (seed {})", h.game, h.number, h.seed),
        players: player_names(file),
        frames,
        end: result.map(describe_end),
        logs,
        faults,
    })
}

/// Ties each seat's log lines to the moves that produced them, from the turns' `logged` counts
/// (how many lines each seat had logged by that turn, `docs/replay-format.md`). Counts beyond the
/// log (a league replay without another owner's lines) or going back are ignored; what no turn
/// claims goes with the last frame.
fn attach_logs(frames: &mut [Frame], turns: &[Value], logs: &[Vec<String>]) {
    let mut before = vec![0; logs.len()];
    let claim = |frame: &mut Frame, seat: usize, before: &mut usize, count: usize| {
        let to = count.min(logs[seat].len());
        if to > *before {
            frame.log.push(Logged {
                seat,
                from: *before,
                to,
            });
            *before = to;
        }
    };
    for (i, frame) in frames.iter_mut().enumerate().skip(1) {
        let Some(counts) = turns.get(i - 1).and_then(|t| t["logged"].as_array()) else {
            continue;
        };
        for (seat, count) in counts.iter().enumerate().take(logs.len()) {
            if let Some(count) = count.as_u64() {
                claim(frame, seat, &mut before[seat], count as usize);
            }
        }
    }
    if let Some(last) = frames.last_mut() {
        for (seat, before) in before.iter_mut().enumerate() {
            claim(last, seat, before, usize::MAX);
        }
    }
}

/// The players' names in seat order.
fn player_names(file: &ReplayFile) -> Vec<String> {
    file.header
        .strategies
        .iter()
        .map(|s| s.name.clone())
        .collect()
}

fn describe_end(result: &Value) -> String {
    let r = result.get("ending").unwrap_or(result);
    let mut parts = Vec::new();
    if let Some(w) = r.get("winner") {
        parts.push(match w.as_u64() {
            Some(seat) => format!("seat {seat} won"),
            None => "no winner".to_string(),
        });
    }
    if let Some(reason) = r.get("reason").and_then(Value::as_str) {
        parts.push(reason.to_string());
    }
    if let Some(score) = r.get("score") {
        parts.push(format!("score {score}"));
    }
    if let Some(tile) = r.get("max_tile") {
        parts.push(format!("largest tile {tile}"));
    }
    if parts.is_empty() {
        result.to_string()
    } else {
        parts.join(", ")
    }
}

fn grid_of_numbers(rows: &Value) -> Board {
    let rows = rows
        .as_array()
        .map(|rows| {
            rows.iter()
                .map(|row| {
                    row.as_array()
                        .map(|cells| {
                            cells
                                .iter()
                                .map(|c| match c.as_u64() {
                                    Some(0) => String::new(),
                                    Some(v) => v.to_string(),
                                    None if c.is_null() => String::new(),
                                    None => {
                                        c.as_str().map_or_else(|| c.to_string(), str::to_string)
                                    }
                                })
                                .collect()
                        })
                        .unwrap_or_default()
                })
                .collect()
        })
        .unwrap_or_default();
    Board::Grid { rows }
}

pub(super) fn g2048_frames(file: &ReplayFile) -> Vec<Frame> {
    let mut frames = vec![Frame::new(
        0,
        None,
        "start",
        grid_of_numbers(&file.header.start["board"]),
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
            grid_of_numbers(&t["after"]),
        ));
    }
    frames
}

fn places(value: &Value, names: &[String]) -> Board {
    let lines = value
        .as_array()
        .map(|seats| {
            seats
                .iter()
                .enumerate()
                .map(|(seat, pieces)| {
                    let pieces: Vec<String> = pieces
                        .as_array()
                        .map(|p| {
                            p.iter()
                                .map(|piece| match piece.get("step") {
                                    Some(step) => format!("step {step}"),
                                    None => piece.as_str().unwrap_or("?").to_string(),
                                })
                                .collect()
                        })
                        .unwrap_or_default();
                    let name = names.get(seat).map_or("?", String::as_str);
                    format!("seat {seat} ({name}): {}", pieces.join(", "))
                })
                .collect()
        })
        .unwrap_or_default();
    Board::Lines { lines }
}

pub(super) fn dice_frames(file: &ReplayFile) -> Vec<Frame> {
    let names = player_names(file);
    let mut frames = vec![Frame::new(
        0,
        None,
        "start",
        places(&file.header.start["places"], &names),
    )];
    for (i, t) in file.turns.iter().enumerate() {
        let moved = match &t["move"] {
            Value::Null => "no piece can move".to_string(),
            m => format!("{} → {}", m["from"], m["to"]),
        };
        let captured = if t["captured"] == true {
            ", captures"
        } else {
            ""
        };
        frames.push(Frame::new(
            i + 1,
            t["seat"].as_u64().map(|s| s as usize),
            format!("rolls {}: {moved}{captured}", t["face"]),
            places(&t["places"], &names),
        ));
    }
    frames
}

/// A BS rank's name: `2` to `10`, `J`, `Q`, `K`, `A`.
fn rank_name(rank: &Value) -> &'static str {
    const RANKS: [&str; 13] = [
        "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A",
    ];
    rank.as_u64()
        .and_then(|r| RANKS.get(r as usize))
        .copied()
        .unwrap_or("?")
}

/// BS recorded through its contract: a frame per play and per call. A play shows the claim and the
/// table with the cards on the pile; a call what the seat answered (hidden: only an omniscient
/// viewer sees who wanted to call); the last call of a turn the whole turn, as [`bs_frames`] draws
/// it.
pub(super) fn bs_move_frames(file: &ReplayFile) -> Vec<Frame> {
    let names = player_names(file);
    let turns = super::replay::bs::from_contract(file);
    let mut whole = bs_frames(&turns).into_iter();
    let mut frames = vec![whole.next().expect("the deal's frame")];
    let mut sizes = vec![13u64; crate::games::bs::PLAYERS];
    let mut pile = 0u64;
    let table = |sizes: &[u64], pile: u64| bs_table(&names, sizes, pile);
    for (i, t) in file.turns.iter().enumerate() {
        let (n, seat) = (i + 1, t["seat"].as_u64().map(|s| s as usize));
        let event = &t["event"];
        if let Some(turn) = event.get("turn") {
            let Some(mut frame) = whole.next() else { break };
            frame.n = n;
            frame.seat = seat;
            sizes = turn["hand_sizes"]
                .as_array()
                .map(|a| a.iter().filter_map(Value::as_u64).collect())
                .unwrap_or_default();
            pile = turn["pile"].as_u64().unwrap_or(0);
            frames.push(frame);
        } else if let Some(cards) = event["play"].as_array() {
            let played: Vec<String> = cards
                .iter()
                .filter_map(Value::as_u64)
                .map(|c| super::replay::bs::card(c as u32))
                .collect();
            if let Some(s) = seat.and_then(|s| sizes.get_mut(s)) {
                *s = s.saturating_sub(played.len() as u64);
            }
            pile += played.len() as u64;
            let rank = rank_name(&event["rank"]);
            frames.push(
                Frame::new(
                    n,
                    seat,
                    format!("claims {} × {rank}", played.len()),
                    table(&sizes, pile),
                )
                .hiding(format!("played {}", played.join(" "))),
            );
        } else {
            frames.push(
                Frame::new(n, seat, "answers whether to call", table(&sizes, pile)).hiding(
                    format!(
                        "wants to call: {}",
                        if event["call"] == true { "yes" } else { "no" }
                    ),
                ),
            );
        }
    }
    frames
}

/// A BS table: each seat's hand size, then the pile's.
fn bs_table(names: &[String], sizes: &[u64], pile: u64) -> Board {
    let mut lines: Vec<String> = sizes
        .iter()
        .enumerate()
        .map(|(s, n)| format!("seat {s} ({}): {n} cards", names[s]))
        .collect();
    lines.push(format!("pile: {pile} cards"));
    Board::Lines { lines }
}

pub(super) fn bs_frames(file: &ReplayFile) -> Vec<Frame> {
    let names = player_names(file);
    let table = |sizes: &[u64], pile: u64| bs_table(&names, sizes, pile);
    let mut frames = vec![Frame::new(0, None, "the deal", table(&[13, 13, 13, 13], 0))];
    for (i, t) in file.turns.iter().enumerate() {
        let sizes: Vec<u64> = t["hand_sizes"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_u64).collect())
            .unwrap_or_default();
        let cards: Vec<String> = t["cards"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_u64)
                    .map(|c| super::replay::bs::card(c as u32))
                    .collect()
            })
            .unwrap_or_default();
        let rank = rank_name(&t["rank"]);
        let call = match t["caller"].as_u64() {
            Some(c) => format!(
                "; seat {c} calls: {} takes {} cards",
                t["taker"], t["taken"]
            ),
            None => String::new(),
        };
        frames.push(
            Frame::new(
                i + 1,
                t["seat"].as_u64().map(|s| s as usize),
                format!("claims {} × {rank}{call}", cards.len()),
                table(&sizes, t["pile"].as_u64().unwrap_or(0)),
            )
            .hiding(format!(
                "played {}{}; wanted to call: {}",
                cards.join(" "),
                if t["lie"] == true { " (a lie)" } else { "" },
                t["callers"]
            )),
        );
    }
    frames
}

pub(super) fn worms_frames(file: &ReplayFile) -> anyhow::Result<Vec<Frame>> {
    let replayed = super::replay::worms::replayed(file)?;
    let board = |g: &crate::games::worms::Game| Board::Grid {
        rows: g
            .observation(0)
            .board
            .iter()
            .map(|row| {
                row.chars()
                    .map(|c| {
                        if c == '.' {
                            String::new()
                        } else {
                            c.to_string()
                        }
                    })
                    .collect()
            })
            .collect(),
    };
    let mut frames = Vec::with_capacity(replayed.games.len());
    for (i, game) in replayed.games.iter().enumerate() {
        let (seat, text) = match file.turns.get(i.wrapping_sub(1)).filter(|_| i > 0) {
            Some(t) => {
                let text = match &t["move"] {
                    Value::Null => "passes".to_string(),
                    m => format!(
                        "worm {} {}{}",
                        m["worm"],
                        m["turn"].as_str().unwrap_or("?"),
                        if t["fell"] == true { ", falls in" } else { "" }
                    ),
                };
                (t["seat"].as_u64().map(|s| s as usize), text)
            }
            None => (None, "start".to_string()),
        };
        frames.push(Frame::new(i, seat, text, board(game)));
    }
    Ok(frames)
}

/// Connect Four: the grid at the start and after every move, seat 0's discs `X` and seat 1's `O`,
/// the winning four marked `[X]`.
pub(super) fn connect4_frames(file: &ReplayFile) -> anyhow::Result<Vec<Frame>> {
    use super::replay::connect4::{disc, grids};
    let board = |grid: &super::replay::connect4::Grid| Board::Grid {
        rows: grid
            .rows
            .iter()
            .enumerate()
            .map(|(r, row)| {
                row.iter()
                    .enumerate()
                    .map(|(c, &mark)| match (mark, grid.winning(r, c)) {
                        (0, _) => String::new(),
                        (m, true) => format!("[{}]", disc(m)),
                        (m, false) => disc(m).to_string(),
                    })
                    .collect()
            })
            .collect(),
    };
    let grids = grids(file)?;
    let mut frames = vec![Frame::new(0, None, "start", board(&grids[0]))];
    for (i, (t, grid)) in file.turns.iter().zip(&grids[1..]).enumerate() {
        let seat = t["seat"].as_u64().map(|s| s as usize);
        let opening = if t["opening"] == true {
            " (opening)"
        } else {
            ""
        };
        let text = format!(
            "{} drops in column {}{opening}",
            disc(seat.map_or(0, |s| s as u64 + 1)),
            t["action"]
        );
        frames.push(Frame::new(i + 1, seat, text, board(grid)));
    }
    Ok(frames)
}

fn contract_frames(file: &ReplayFile) -> anyhow::Result<Vec<Frame>> {
    use crate::games::contract::Variant;
    let h = &file.header;
    let rules = crate::games::registry::find(&h.game).map_err(anyhow::Error::msg)?;
    let variant = Variant {
        name: h.params["variant"].as_str().unwrap_or_default().to_string(),
        text: h.params["text"].as_str().map(str::to_string),
    };
    let mut game = rules
        .start(&variant, h.strategies.len() as u32, h.seed)
        .map_err(anyhow::Error::msg)?;
    let board = |state: &Value| match state.get("board") {
        Some(rows) if rows.is_array() => grid_of_numbers(rows),
        _ => Board::Lines {
            lines: serde_json::to_string_pretty(state)
                .unwrap_or_default()
                .lines()
                .map(str::to_string)
                .collect(),
        },
    };
    let mut frames = vec![Frame::new(0, None, "start", board(&game.state()))];
    for (i, t) in file.turns.iter().enumerate() {
        let seat = t["seat"].as_u64().unwrap_or_default() as u32;
        super::replay::contract::apply_turn(game.as_mut(), seat, t)
            .map_err(|e| anyhow::anyhow!("move {}: {e}", i + 1))?;
        let _ = game.take_notices();
        frames.push(Frame::new(
            i + 1,
            t["seat"].as_u64().map(|s| s as usize),
            format!(
                "{} {}{}",
                t["function"].as_str().unwrap_or("?"),
                if t["fault"] == true {
                    "fault".to_string()
                } else {
                    t["action"].to_string()
                },
                if t["opening"] == true {
                    " (opening)"
                } else {
                    ""
                }
            ),
            board(&game.state()),
        ));
    }
    Ok(frames)
}
