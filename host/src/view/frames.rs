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
    /// Seats whose log lines this viewer may not see (a league game of another owner's bot): the
    /// page says so rather than "no log lines".
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub logs_hidden: Vec<bool>,
    /// The site around the page, when one serves it (the league): its navigation bar and a link
    /// per seat to its bot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub site: Option<Site>,
    /// Set when frames carry what their seat saw ([`observe`]): how the page's command to decide
    /// such a turn again names the replay.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub observed: Option<Observed>,
}

/// How a page's `botbox replay FILE --seat S --turn N --with BOT` names the replay.
#[derive(Debug, Serialize, Default)]
pub struct Observed {
    /// The file, as a shell word (`None`: the file opened in the page, or no command at all when
    /// the page was not opened from a file and `fetch` is `None` too).
    pub replay: Option<String>,
    /// A command that fetches the file first (a league game: `botbox league replay ID`).
    pub fetch: Option<String>,
}

/// What the seat saw when it made a move: the observation its strategy received.
#[derive(Debug, Serialize)]
pub struct Asked {
    /// The move's number in the replay (`botbox replay --turn`).
    pub turn: usize,
    pub seat: usize,
    /// The function it was asked (`choose_move`, BS's `play` or `call`).
    pub function: String,
    pub observation: Value,
}

/// The most bytes of observations one page carries (16 MiB): past it, later moves have none.
const MAX_OBSERVED: usize = 16 << 20;

/// Puts on each frame what the seat that made its move saw (rebuilt by re-playing `file`, the
/// replay the frames were drawn from), for the seats `visible` says this page may show: a
/// league page shows only its viewer's own seats, since an observation holds what only its seat
/// may see (a BS hand). A replay from before its game went through the contract has none.
pub fn observe(
    viewer: &mut Viewer,
    file: &ReplayFile,
    visible: &dyn Fn(usize) -> bool,
    observed: Observed,
) -> anyhow::Result<()> {
    let seen = crate::play::whatif::observations(file)?;
    if seen.is_empty() {
        return Ok(());
    }
    let mut bytes = 0;
    for frame in &mut viewer.frames {
        let Some(Some(s)) = frame.turn.and_then(|n| seen.get(n - 1)) else {
            continue;
        };
        if !visible(s.seat as usize) {
            continue;
        }
        bytes += s.observation.to_string().len();
        if bytes > MAX_OBSERVED {
            break;
        }
        frame.asked = Some(Asked {
            turn: frame.turn.unwrap_or_default(),
            seat: s.seat as usize,
            function: s.function.to_string(),
            observation: s.observation.clone(),
        });
    }
    viewer.observed = Some(observed);
    Ok(())
}

/// `text` as one word for a POSIX shell: as it is when it needs no quoting, else in single quotes.
pub fn shell_word(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._-/+:@,=".contains(c));
    match plain {
        true => text.to_string(),
        false => format!("'{}'", text.replace('\'', "'\\''")),
    }
}

/// The links of a site around the viewer (the league's).
#[derive(Debug, Serialize, Default)]
pub struct Site {
    /// The navigation bar, left to right.
    pub nav: Vec<Link>,
    /// A link per seat, in seat order, with the name the page shows for it ("hunter v3 by alice").
    pub players: Vec<Link>,
    /// Links under the title (the game's ladder).
    pub around: Vec<Link>,
}

/// A link of the site: a path on it (always starting with `/`) and its text.
#[derive(Debug, Serialize)]
pub struct Link {
    pub text: String,
    pub href: String,
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
    /// The replay's move (from 1) that a strategy decided to lead here, if one did.
    #[serde(skip)]
    pub turn: Option<usize>,
    /// What that seat saw ([`observe`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub asked: Option<Asked>,
}

impl Frame {
    /// The position after move `n` (0: the start) by `seat`, described by `text`, with nothing
    /// hidden and no log lines yet ([`attach_logs`] adds those).
    pub fn new(n: usize, seat: Option<usize>, text: impl Into<String>, board: Board) -> Frame {
        Frame {
            n,
            seat,
            text: text.into(),
            board,
            hidden: None,
            log: Vec::new(),
            turn: None,
            asked: None,
        }
    }

    /// The same frame with what only an omniscient viewer may see.
    pub fn hiding(self, hidden: String) -> Frame {
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
    Grid {
        rows: Vec<Vec<String>>,
        /// Each cell's look, by the viewer's names (`wall`, `p1`, `p2`, `head`, `win`, `v2048`, ...;
        /// several separated by spaces; empty for a plain cell), when the game gives them: the same
        /// shape as `rows`.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        styles: Vec<Vec<String>>,
    },
    Lines {
        lines: Vec<String>,
    },
    /// A table of text with a header row (BS: a row per seat); cells styled `secret` are shown
    /// only to an omniscient viewer.
    Table {
        header: Vec<String>,
        rows: Vec<Vec<String>>,
        styles: Vec<Vec<String>>,
    },
}

impl Board {
    /// A grid of cells as text alone.
    pub fn grid(rows: Vec<Vec<String>>) -> Board {
        Board::Grid {
            rows,
            styles: Vec::new(),
        }
    }

    /// A grid of cells, each a text and a look ([`Board::Grid`]'s `styles`).
    pub fn styled(cells: Vec<Vec<(String, String)>>) -> Board {
        let (rows, styles) = cells.into_iter().map(|row| row.into_iter().unzip()).unzip();
        Board::Grid { rows, styles }
    }
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
    // The move each frame shows: a game's own turns say which (`decision`), the contract's are the
    // moves themselves.
    if contract {
        for (frame, t) in frames.iter_mut().skip(1).zip(&turns) {
            frame.turn = t["decision"]
                .as_u64()
                .or_else(|| t.get("function").and(t["n"].as_u64()))
                .map(|n| n as usize);
        }
    }
    let from = super::replay::played_on(file)?;
    if let Some(on) = &h.played_on {
        // A frame with no move of its own (a roll without a choice) goes with the move before it,
        // and those before any move with the first.
        let mut current = 1;
        for frame in frames.iter_mut().skip(1) {
            current = frame.turn.unwrap_or(current);
            if current <= on.recorded {
                frame.text.push_str(" (recorded)");
            }
        }
    }
    Ok(Viewer {
        format: h.format.clone(),
        version: h.version,
        game: h.game.clone(),
        title: match from {
            Some(from) => format!("{} game {} (seed {}), {from}", h.game, h.number, h.seed),
            None => format!("{} game {} (seed {})", h.game, h.number, h.seed),
        },
        players: player_names(file),
        frames,
        end: result.map(|r| describe_end(r, &player_names(file))),
        logs,
        faults,
        logs_hidden: Vec::new(),
        site: None,
        observed: None,
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
/// The players' names in seat order.
pub fn player_names(file: &ReplayFile) -> Vec<String> {
    file.header
        .strategies
        .iter()
        .map(|s| s.name.clone())
        .collect()
}

/// How the game ended, in words, with the winner by name: "frontmost (seat 0) won: all worms
/// home", "no moves left, score 1404".
fn describe_end(result: &Value, names: &[String]) -> String {
    let r = result.get("ending").unwrap_or(result);
    let mut parts = Vec::new();
    let reason = r.get("reason").and_then(Value::as_str);
    let winner = match r.get("winner").map(Value::as_u64) {
        Some(Some(seat)) => Some(format!(
            "{} (seat {seat}) won",
            names.get(seat as usize).map_or("?", String::as_str)
        )),
        // A game between players without a winner is a draw; a solo game has none to name.
        Some(None) if names.len() > 1 => Some("a draw".to_string()),
        Some(None) => None,
        None => None,
    };
    // "won" says nothing the winner does not.
    match (winner, reason.filter(|r| *r != "won")) {
        (Some(w), Some(reason)) => parts.push(format!("{w}: {reason}")),
        (Some(w), None) => parts.push(w),
        (None, Some(reason)) => parts.push(reason.to_string()),
        (None, None) => {}
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

/// A grid of numbers (0 and `null` empty), as a board.
pub fn grid_of_numbers(rows: &Value) -> Board {
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
    Board::grid(rows)
}

fn contract_frames(file: &ReplayFile) -> anyhow::Result<Vec<Frame>> {
    let h = &file.header;
    let rules = crate::games::registry::find(&h.game).map_err(anyhow::Error::msg)?;
    let variant = h.variant();
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
