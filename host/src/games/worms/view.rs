//! How Wormworld looks (its [`View`], named by the registry): a replay re-played through the engine
//! (`botbox replay`), the reader the text view, the viewer's frames and the terminal animation
//! (`cli/worms_view.rs`) draw from.

use crate::games::contract::Variant;
use crate::games::worms::{Game, Map, Move, Seat, Verdict, WormsRules};
use crate::replay::ReplayFile;
use crate::runtime::Fault;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::view::frames::{Board, Frame};
use crate::view::games::GameView;
use crate::view::replay::{check_seats, difference, parse, same_result};

/// One turn of a Wormworld replay as this reader reads it: a move or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    /// The turn's number, from 1.
    pub n: u32,
    pub seat: Seat,
    /// The move, or `null` when the host passed for a player with no legal move.
    #[serde(rename = "move")]
    pub mv: Option<Move>,
    /// Whether the moved worm fell into the hole.
    #[serde(default)]
    pub fell: bool,
    /// A move of the random opening (`--openings`), not the strategy's.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub opening: bool,
}

/// A Wormworld replay recorded through the game contract (a line per move, each with the passes
/// after it), as this reader reads Wormworld: a line per turn, passes included (the engine's
/// passes for a seat with no legal move, made again here), the map's name, turn limit and text,
/// and the result as the game's ending. Each move keeps its `logged` counts. The contract's reader
/// checks the moves first ([`super::render`]); [`replayed`] re-plays the turns again.
pub fn from_contract(file: &ReplayFile) -> anyhow::Result<ReplayFile> {
    let h = &file.header;
    let hl = file.header_line;
    let variant = Variant {
        name: parse(file, hl, "params.variant", &h.params["variant"])?,
        text: parse(file, hl, "params.text", &h.params["text"])?,
    };
    let map = WormsRules::map(&variant).map_err(|e| file.bad(hl, e))?;
    let mut game = Game::new(&map);
    let mut turns = Vec::new();
    let mut turn_lines = Vec::new();
    // The passes for the seats to move that cannot, told on `line`.
    let pass_stuck = |game: &mut Game, turns: &mut Vec<Value>, lines: &mut Vec<usize>, line| {
        while !game.is_over() && game.legal_moves(game.to_move()).is_empty() {
            let seat = game.to_move();
            game.pass().expect("a player without legal moves may pass");
            let pass = Turn {
                n: game.turn(),
                seat,
                mv: None,
                fell: false,
                opening: false,
            };
            turns.push(serde_json::to_value(pass).expect("turns serialize"));
            lines.push(line);
        }
    };
    pass_stuck(&mut game, &mut turns, &mut turn_lines, hl);
    for (i, t) in file.turns.iter().enumerate() {
        let line = file.turn_line(i);
        let mv: Move = parse(file, line, "action", &t["action"])?;
        let seat = game.to_move();
        let before = game.worms_left(seat);
        game.apply(mv)
            .map_err(|e| file.bad(line, format!("turn {}: {e}", game.turn() + 1)))?;
        let turn = Turn {
            n: game.turn(),
            seat,
            mv: Some(mv),
            fell: game.worms_left(seat) < before,
            opening: t["opening"] == true,
        };
        let mut turn = serde_json::to_value(turn).expect("turns serialize");
        if let Value::Object(fields) = &mut turn {
            if let Some(logged) = t.get("logged") {
                fields.insert("logged".into(), logged.clone());
            }
            // The decision, for the viewer's observation of it.
            fields.insert("decision".into(), (i + 1).into());
        }
        turns.push(turn);
        turn_lines.push(line);
        pass_stuck(&mut game, &mut turns, &mut turn_lines, line);
    }
    let mut header = h.clone();
    header.params = json!({
        "map": variant.name,
        "turn_limit": map.turns(),
        "text": map.to_string(),
    });
    header.start = json!({ "board": map.rows() });
    let end = file.end.clone().map(|mut end| {
        end.result = end.result["ending"].clone();
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

/// The end of a Wormworld replay, as `play::Ending` records it.
#[derive(Deserialize)]
struct End {
    winner: Option<usize>,
    reason: String,
    turns: u32,
    faults: [Option<Fault>; 2],
}

/// A Wormworld replay re-played: every position (the start, then after each turn), the turns as the
/// engine played them, and the end as a line of text (`None` when the replay has no end line).
#[derive(Debug)]
pub struct Replayed {
    pub games: Vec<Game>,
    pub turns: Vec<Turn>,
    pub end: Option<String>,
}

/// Re-plays a Wormworld replay, believing none of it: the map is parsed from the header's text (its
/// turn limit and start board must be the header's), each turn must be the turn of the seat to move,
/// numbered next, with a legal move (or a pass when that seat has none) and the recorded fall, and
/// the end must be the engine's, or a fault in a game still going with the winner the fault gives.
pub fn replayed(file: &ReplayFile) -> anyhow::Result<Replayed> {
    let h = &file.header;
    let hl = file.header_line;
    check_seats(file, 2)?;
    let text: String = parse(file, hl, "params.text (the map)", &h.params["text"])?;
    let map = Map::parse(&text).map_err(|e| file.bad(hl, format!("the replay's map: {e}")))?;
    let turn_limit: u32 = parse(file, hl, "params.turn_limit", &h.params["turn_limit"])?;
    if turn_limit != map.turns() {
        return Err(file
            .bad(
                hl,
                format!(
                    "params.turn_limit is {turn_limit}, the map's is {}",
                    map.turns()
                ),
            )
            .into());
    }
    let board: Vec<String> = parse(file, hl, "start.board", &h.start["board"])?;
    if board != map.rows() {
        return Err(file.bad(hl, "start.board is not the map's board").into());
    }
    let names = replay_names(file);
    let mut game = Game::new(&map);
    let mut games = vec![game.clone()];
    let mut turns = Vec::new();
    for (i, value) in file.turns.iter().enumerate() {
        let line = file.turn_line(i);
        let recorded: Turn = parse(file, line, "not a Wormworld turn", value)?;
        let (n, seat) = (game.turn() + 1, game.to_move());
        let before = game.worms_left(seat);
        match recorded.mv {
            Some(mv) => game.apply(mv),
            None => game.pass(),
        }
        .map_err(|e| file.bad(line, format!("turn {n} (player {}): {e}", seat + 1)))?;
        let turn = Turn {
            n,
            seat,
            mv: recorded.mv,
            fell: game.worms_left(seat) < before,
            // Whether the move was drawn for the opening cannot be re-played; it is only shown.
            opening: recorded.opening,
        };
        if let Some(what) = difference(&recorded, &turn) {
            return Err(file
                .bad(line, format!("turn {n} does not follow: {what}"))
                .into());
        }
        games.push(game.clone());
        turns.push(turn);
    }
    let end = match &file.end {
        None => None,
        Some(end) => {
            let line = file.end_line();
            let r: End = parse(file, line, "not a Wormworld result", &end.result)?;
            let expected = match (&r.faults, game.outcome()) {
                ([None, None], None) => {
                    return Err(crate::view::replay::not_over(file, line, game.turn()));
                }
                ([None, None], Some(outcome)) => {
                    let winner = match outcome.result {
                        Verdict::Win(seat) => Some(seat),
                        Verdict::Draw => None,
                    };
                    (winner, outcome.reason.name())
                }
                // A fault ends a game still going; at the set-up (no turn yet) whatever the map.
                (_, Some(_)) if game.turn() > 0 => {
                    return Err(file
                        .bad(
                            line,
                            "a fault after the game was over (no move was asked for)",
                        )
                        .into());
                }
                ([Some(_), None], _) => (Some(1), "fault"),
                ([None, Some(_)], _) => (Some(0), "fault"),
                // Both at the set-up: a draw in the older replays; through the contract the first
                // seat forfeits (the other wins).
                ([Some(_), Some(_)], _) if game.turn() == 0 => {
                    (r.winner.filter(|&w| w == 1), "fault")
                }
                ([Some(_), Some(_)], _) => {
                    return Err(file.bad(line, "both players fault after the set-up").into());
                }
            };
            let said = (r.winner, r.reason.as_str(), r.turns);
            let engine = (expected.0, expected.1, game.turn());
            same_result(file, line, &said, &engine)?;
            let faults: String = r
                .faults
                .iter()
                .flatten()
                .map(|f| format!("; {}: {}", Value::from(f.kind.name()), f.message))
                .collect();
            let verdict = match engine.0 {
                Some(seat) => format!("{} (player {}) wins", names[seat], seat + 1),
                None => "draw".into(),
            };
            Some(format!("{verdict}: {}{faults}", engine.1))
        }
    };
    Ok(Replayed { games, turns, end })
}

pub fn replay_names(file: &ReplayFile) -> [String; 2] {
    let name = |i: usize| {
        file.header
            .strategies
            .get(i)
            .map_or_else(|| format!("player {}", i + 1), |s| s.name.clone())
    };
    [name(0), name(1)]
}

pub fn end_text(end: Option<&str>) -> String {
    end.map_or_else(
        || "the replay has no end line: the game was cut short".into(),
        str::to_string,
    )
}

/// Prints a Wormworld replay as text: the board after each turn (the last `last` turns if given).
pub fn print_replay(file: &ReplayFile, last: Option<usize>) -> anyhow::Result<String> {
    let mut text = String::new();
    let out = &mut text;
    use std::fmt::Write as _;
    let Replayed { games, turns, end } = replayed(file)?;
    let names = replay_names(file);
    let h = &file.header;
    writeln!(
        out,
        "worms game {} seed {} on {}: {} (player 1, uppercase) vs {} (player 2, lowercase)",
        h.number,
        h.seed,
        h.params["map"].as_str().unwrap_or("?"),
        names[0],
        names[1]
    )?;
    let from = last.map_or(0, |n| turns.len().saturating_sub(n));
    if from == 0 {
        writeln!(out, "\nstart")?;
        for line in board_text(&games[0], None) {
            writeln!(out, "{line}")?;
        }
    }
    for (i, turn) in turns.iter().enumerate().skip(from) {
        writeln!(out, "\n{}", describe(Some(turn), &names))?;
        for line in board_text(&games[i + 1], Some(turn)) {
            writeln!(out, "{line}")?;
        }
    }
    writeln!(out, "\n{}", end_text(end.as_deref()))?;
    if let Some(recorded) = &file.end {
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        crate::view::replay::print_logs(out, &names, &recorded.logs)?;
    }
    Ok(text)
}

/// One cell of the board as the view draws it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    Free,
    Obstacle,
    Hole,
    Worm {
        letter: char,
        seat: usize,
        /// The way the worm faces, on its head cell.
        head: Option<botbox_sdk::worms::Direction>,
    },
}

/// The arrow a head is drawn with: the way the worm faces.
pub fn arrow(direction: botbox_sdk::worms::Direction) -> char {
    use botbox_sdk::worms::Direction;
    match direction {
        Direction::Up => '↑',
        Direction::Right => '→',
        Direction::Down => '↓',
        Direction::Left => '←',
    }
}

/// The board's cells and which worm moved last (its head is marked).
pub fn cells(game: &Game) -> Vec<Vec<Cell>> {
    let rows = game.board().rows();
    let mut grid: Vec<Vec<Cell>> = rows
        .iter()
        .map(|row| {
            row.chars()
                .map(|c| match c {
                    '#' => Cell::Obstacle,
                    'O' => Cell::Hole,
                    '.' => Cell::Free,
                    letter => Cell::Worm {
                        letter,
                        seat: usize::from(letter.is_ascii_lowercase()),
                        head: None,
                    },
                })
                .collect()
        })
        .collect();
    for worm in game.observation(0).worms {
        let [r, c] = worm.head();
        if let Cell::Worm { head, .. } = &mut grid[r as usize][c as usize] {
            *head = Some(worm.direction);
        }
    }
    grid
}

/// The head cell of the worm `turn` moved, if it is still on the board.
pub fn last_head(game: &Game, turn: Option<&Turn>) -> Option<[u32; 2]> {
    let mv = turn?.mv?;
    let obs = game.observation(0);
    obs.worms.iter().find(|w| w.id == mv.worm).map(|w| w.head())
}

/// The board as plain text: the map's characters, the last moved head in brackets.
pub fn board_text(game: &Game, turn: Option<&Turn>) -> Vec<String> {
    let marked = last_head(game, turn);
    cells(game)
        .iter()
        .enumerate()
        .map(|(r, row)| {
            row.iter()
                .enumerate()
                .map(|(c, cell)| {
                    let ch = match *cell {
                        Cell::Free => '.',
                        Cell::Obstacle => '#',
                        Cell::Hole => 'O',
                        Cell::Worm { letter, .. } => letter,
                    };
                    if marked == Some([r as u32, c as u32]) {
                        format!("[{ch}]")
                    } else {
                        format!(" {ch} ")
                    }
                })
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .collect()
}

/// What a turn did, for the status line.
pub fn describe(turn: Option<&Turn>, names: &[String; 2]) -> String {
    match turn {
        None => "start".into(),
        Some(t) => {
            let who = format!("player {} ({})", t.seat + 1, names[t.seat]);
            match t.mv {
                None => format!("turn {}: {who} passes", t.n),
                Some(mv) => format!(
                    "turn {}: {who} moves worm {} {}{}",
                    t.n,
                    mv.worm,
                    mv.turn.name(),
                    if t.fell { " into the hole" } else { "" }
                ),
            }
        }
    }
}

/// Wormworld: a turn at a time, the passes for a seat with no legal move included.
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
            true => print_replay(&from_contract(file)?, last),
            false => print_replay(file, last),
        }
    }

    fn frames(
        &self,
        file: &ReplayFile,
        contract: bool,
    ) -> anyhow::Result<(Vec<Frame>, Vec<Value>)> {
        let turns = match contract {
            true => from_contract(file)?,
            false => file.clone(),
        };
        Ok((worms_frames(&turns)?, turns.turns))
    }
}

pub(crate) fn worms_frames(file: &ReplayFile) -> anyhow::Result<Vec<Frame>> {
    let replayed = replayed(file)?;
    // Walls and the hole by their look, each side's worms in its colour, heads drawn as the arrow
    // of the way they face.
    let board = |g: &crate::games::worms::Game| {
        Board::styled(
            cells(g)
                .into_iter()
                .map(|row| {
                    row.into_iter()
                        .map(|cell| match cell {
                            Cell::Free => (String::new(), String::new()),
                            Cell::Obstacle => (String::new(), "wall".into()),
                            Cell::Hole => ("O".into(), "hole".into()),
                            Cell::Worm {
                                letter,
                                seat,
                                head: None,
                            } => (letter.to_string(), format!("p{}", seat + 1)),
                            Cell::Worm {
                                seat,
                                head: Some(d),
                                ..
                            } => (arrow(d).to_string(), format!("p{} head", seat + 1)),
                        })
                        .collect()
                })
                .collect(),
        )
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
