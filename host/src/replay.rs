//! Replays: one game per file, in JSON Lines (`docs/replay-format.md`).
//!
//! The first line is a header (format name and version, game, parameters, seed, the strategies with
//! their content hashes, the limits and the start position); then one `turn` line per move, whose
//! fields are the game's own; the last line is the `end` with the result and the strategies' logs.
//! A reader refuses a file of another format or a newer version, naming the file and line.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::runtime::Strategy;

pub const FORMAT: &str = "botbox-replay";
pub const VERSION: u32 = 1;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    pub format: String,
    pub version: u32,
    pub game: String,
    /// The game's parameters (for 2048: the board size).
    pub params: Value,
    /// The game's number in its run, from 1.
    pub number: usize,
    pub seed: u64,
    pub strategies: Vec<StrategyRef>,
    pub limits: Value,
    /// The position before the first move.
    pub start: Value,
    /// Set for a game played on from a recorded one (`botbox replay --play-on`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub played_on: Option<PlayedOn>,
}

/// Where a game played on from a recorded one (`botbox replay --play-on`) comes from: its first
/// `recorded` moves are that game's, played again as they were (their turn lines say
/// `"recorded": true`), and the seats decided from the next.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayedOn {
    /// The recorded game's replay file, by name.
    pub from: String,
    /// How many of the first moves are the recorded game's.
    pub recorded: usize,
    /// Who played the recorded game, in seat order.
    pub strategies: Vec<StrategyRef>,
}

impl Header {
    /// The variant a replay written through the game contract names (`params.variant` and, for a
    /// variant from a file, `params.text`).
    pub fn variant(&self) -> crate::games::contract::Variant {
        crate::games::contract::Variant {
            name: self.params["variant"]
                .as_str()
                .unwrap_or_default()
                .to_string(),
            text: self.params["text"].as_str().map(str::to_string),
        }
    }
}

/// Which version of which strategy played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StrategyRef {
    pub name: String,
    pub path: String,
    pub kind: String,
    pub sha256: String,
    /// The parameters it was given (`--param`), if any.
    #[serde(default, skip_serializing_if = "botbox_sdk::Params::is_empty")]
    pub params: botbox_sdk::Params,
}

impl StrategyRef {
    pub fn of(s: &Strategy) -> StrategyRef {
        StrategyRef {
            name: s.name().to_string(),
            path: s.path().display().to_string(),
            kind: s.kind().to_string(),
            sha256: s.hash().to_string(),
            params: s.params().clone(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct End {
    pub result: Value,
    /// Each strategy's log lines, in seat order.
    pub logs: Vec<Vec<String>>,
    /// Set when the replay reached its size cap ([`MAX_TURN_BYTES`]): the turns after the first
    /// `cut` were not recorded (the result is the whole game's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cut: Option<usize>,
}

/// The most bytes of turn lines one replay records (64 MiB). Only a solo game runs that long (2048 on
/// a big board, up to its move cap of a million moves); the turns past the cap are dropped, and the
/// end line says after how many turns the record stops.
pub const MAX_TURN_BYTES: usize = 64 << 20;

#[derive(Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum Line {
    Header(Header),
    Turn(Value),
    End(End),
}

/// A replay being recorded: the serialized lines so far.
#[derive(Debug, Clone)]
pub struct Replay {
    lines: Vec<String>,
    /// Each seat's strategy log, filled in when the game ends.
    pub logs: Vec<Vec<String>>,
    /// Bytes of turn lines so far, and the turns kept once the cap was reached.
    turn_bytes: usize,
    cut: Option<usize>,
    /// The cap on turn bytes: [`MAX_TURN_BYTES`].
    cap: usize,
    /// How many lines each seat had logged by the last turn that said so ([`Replay::turn_logged`]).
    logged: Vec<usize>,
}

impl Replay {
    pub fn new(header: Header) -> Replay {
        Replay {
            lines: vec![line(&Line::Header(header))],
            logs: Vec::new(),
            turn_bytes: 0,
            cut: None,
            cap: MAX_TURN_BYTES,
            logged: Vec::new(),
        }
    }

    pub fn turn<T: Serialize>(&mut self, turn: &T) {
        if self.cut.is_some() {
            return;
        }
        let value = serde_json::to_value(turn).expect("turns serialize to JSON objects");
        self.push_turn(value);
    }

    /// Records a turn and, when any seat logged since the last turn, how many lines each seat had
    /// logged by its end: the field `logged` (one count per seat), which ties every log line in the
    /// end line to the move that produced it. The counts are taken as the turn is recorded, so a
    /// line logged in between (while hearing of a move) counts with the next turn.
    pub fn turn_logged<T: Serialize>(&mut self, turn: &T, logged: &[usize]) {
        if self.cut.is_some() {
            return;
        }
        let mut value = serde_json::to_value(turn).expect("turns serialize to JSON objects");
        if self.logged.len() != logged.len() {
            self.logged = vec![0; logged.len()];
        }
        if logged != self.logged.as_slice() {
            self.logged.copy_from_slice(logged);
            if let Value::Object(fields) = &mut value {
                fields.insert("logged".into(), logged.into());
            }
        }
        self.push_turn(value);
    }

    fn push_turn(&mut self, value: Value) {
        let text = line(&Line::Turn(value));
        if self.turn_bytes + text.len() > self.cap {
            self.cut = Some(self.lines.len() - 1);
            return;
        }
        self.turn_bytes += text.len();
        self.lines.push(text);
    }

    /// The same replay with a smaller cap on its turn lines (tests).
    pub fn with_turn_cap(mut self, cap: usize) -> Replay {
        self.cap = cap;
        self
    }

    /// Ends the replay with the game's result and the strategies' logs.
    pub fn finish<R: Serialize>(&mut self, result: &R) {
        let result = serde_json::to_value(result).expect("results serialize");
        let end = End {
            result,
            logs: self.logs.clone(),
            cut: self.cut,
        };
        self.lines.push(line(&Line::End(end)));
    }

    /// The serialized lines so far.
    pub fn lines(&self) -> &[String] {
        &self.lines
    }

    /// Rewrites the header line: a league names each strategy by its bot and content hash instead
    /// of the cache file it was loaded from, so a replay is the same bytes on every machine.
    pub fn edit_header(&mut self, edit: impl FnOnce(&mut Header)) {
        if let Some(Ok(Line::Header(mut header))) =
            self.lines.first().map(|l| serde_json::from_str::<Line>(l))
        {
            edit(&mut header);
            self.lines[0] = line(&Line::Header(header));
        }
    }

    /// The replay's bytes, as [`Replay::write`] writes them.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.lines.iter().map(|l| l.len() + 1).sum());
        for l in &self.lines {
            out.extend_from_slice(l.as_bytes());
            out.push(b'\n');
        }
        out
    }

    /// Writes the replay to `path`, creating its directory.
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
        for l in &self.lines {
            writeln!(out, "{l}")?;
        }
        out.flush()
    }
}

fn line(l: &Line) -> String {
    serde_json::to_string(l).expect("replay lines serialize")
}

/// A replay read back from a file: its lines parsed, not yet believed. A reader re-plays the turns
/// through the game's engine and names the first line that does not follow ([`ReplayFile::bad`]).
#[derive(Debug, Clone)]
pub struct ReplayFile {
    /// The file it was read from, for messages.
    pub path: PathBuf,
    pub header: Header,
    pub turns: Vec<Value>,
    pub end: Option<End>,
    /// The line number (from 1) of the header, of each turn and of the end (blank lines are skipped,
    /// so these are not always consecutive).
    pub header_line: usize,
    pub turn_lines: Vec<usize>,
    pub end_line: Option<usize>,
    /// The line the file stops in the middle of, if it does (a game whose writer was stopped):
    /// the lines before it are read, and the readers show the game up to there.
    pub cut: Option<usize>,
}

impl ReplayFile {
    /// The line of turn `i` (from 0).
    pub fn turn_line(&self, i: usize) -> usize {
        self.turn_lines.get(i).copied().unwrap_or(self.header_line)
    }

    /// The line of the end, or the line after the last turn when there is none.
    pub fn end_line(&self) -> usize {
        self.end_line
            .unwrap_or_else(|| self.turn_lines.last().map_or(self.header_line, |l| l + 1))
    }

    /// `message` about `line` of this file, shown as `FILE:LINE: message`.
    pub fn bad(&self, line: usize, message: impl Into<String>) -> ReplayError {
        ReplayError::Bad {
            path: self.path.clone(),
            line,
            message: message.into(),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("cannot read {}: {error}", path.display())]
    Io {
        path: PathBuf,
        /// Not a `source`: the message already says it, and a chain would say it twice.
        error: std::io::Error,
    },
    #[error("{}:{line}: {message}", path.display())]
    Bad {
        path: PathBuf,
        line: usize,
        message: String,
    },
}

/// Reads and checks a replay file.
pub fn read(path: &Path) -> Result<ReplayFile, ReplayError> {
    let text = std::fs::read_to_string(path).map_err(|error| ReplayError::Io {
        path: path.to_path_buf(),
        error,
    })?;
    match parse(&text) {
        Ok(file) => Ok(ReplayFile {
            path: path.to_path_buf(),
            ..file
        }),
        Err(ReplayError::Bad { line, message, .. }) => Err(ReplayError::Bad {
            path: path.to_path_buf(),
            line,
            message,
        }),
        Err(e) => Err(e),
    }
}

/// Checks a replay's text, as [`read`] does a file's; the result's path (and an error's) is empty.
pub fn parse(text: &str) -> Result<ReplayFile, ReplayError> {
    let path = Path::new("");
    let bad = |line: usize, message: String| ReplayError::Bad {
        path: path.to_path_buf(),
        line,
        message,
    };
    let (mut header, mut turns, mut end) = (None, Vec::new(), None);
    let (mut header_line, mut turn_lines, mut end_line) = (1, Vec::new(), None);
    let last = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, _)| i)
        .last();
    let mut cut = None;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        let parsed: Line = match serde_json::from_str(line) {
            Ok(parsed) => parsed,
            // The last line, cut off where its JSON is still open, after the header: the file
            // stops in the middle of a line; what comes before it is the game so far.
            Err(e)
                if Some(i) == last
                    && e.classify() == serde_json::error::Category::Eof
                    && !text.ends_with('\n')
                    && header.is_some() =>
            {
                cut = Some(n);
                break;
            }
            // A replay line is one line: its column, not serde's "line 1".
            Err(e) => {
                let message = e.to_string();
                let message = match message.rfind(" at line ") {
                    Some(at) => format!("{} (column {})", &message[..at], e.column()),
                    None => message,
                };
                return Err(bad(n, format!("not a replay line: {message}")));
            }
        };
        match (parsed, &header, &end) {
            (Line::Header(h), None, _) => {
                if h.format != FORMAT || h.version > VERSION {
                    return Err(bad(
                        n,
                        format!(
                            "format {} version {} is not {FORMAT} version <= {VERSION}",
                            h.format, h.version
                        ),
                    ));
                }
                header = Some(h);
                header_line = n;
            }
            (Line::Header(_), Some(_), _) => return Err(bad(n, "a second header".into())),
            (_, None, _) => return Err(bad(n, "the first line must be the header".into())),
            (_, Some(_), Some(_)) => return Err(bad(n, "a line after the end".into())),
            (Line::Turn(t), Some(_), None) => {
                turns.push(t);
                turn_lines.push(n);
            }
            (Line::End(e), Some(_), None) => {
                end = Some(e);
                end_line = Some(n);
            }
        }
    }
    let header = header.ok_or_else(|| bad(1, "empty file".into()))?;
    Ok(ReplayFile {
        path: path.to_path_buf(),
        header,
        turns,
        end,
        header_line,
        turn_lines,
        end_line,
        cut,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replay_over_its_size_cap_keeps_its_first_turns_and_says_where_it_stops() {
        let header = Header {
            format: FORMAT.into(),
            version: VERSION,
            game: "2048".into(),
            params: serde_json::json!({ "size": 4 }),
            number: 1,
            seed: 1,
            strategies: Vec::new(),
            limits: Value::Null,
            start: Value::Null,
            played_on: None,
        };
        let mut replay = Replay::new(header).with_turn_cap(300);
        for n in 0..20 {
            replay.turn(&serde_json::json!({ "n": n, "pad": "x".repeat(40) }));
        }
        replay.finish(&serde_json::json!({ "moves": 20 }));
        let lines = replay.lines();
        let kept = lines.len() - 2;
        assert!((1..20).contains(&kept), "{kept} turns kept");
        let turn_bytes: usize = lines[1..=kept].iter().map(String::len).sum();
        assert!(turn_bytes <= 300, "{turn_bytes}");
        let dir = std::env::temp_dir().join(format!("botbox-replay-cap-{}", std::process::id()));
        let path = dir.join("capped.jsonl");
        replay.write(&path).unwrap();
        let file = read(&path).unwrap();
        assert_eq!(file.turns.len(), kept);
        assert_eq!(file.end.unwrap().cut, Some(kept));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A file that stops in the middle of its last line (its writer was stopped) is read up to
    /// there, and says where it stops; a broken line anywhere else is refused, its column named
    /// once (not as serde's "line 1").
    #[test]
    fn a_file_cut_in_its_last_line_reads_up_to_there() {
        let header = Header {
            format: FORMAT.into(),
            version: VERSION,
            game: "connect4".into(),
            params: serde_json::json!({ "variant": "standard", "text": null }),
            number: 1,
            seed: 1,
            strategies: Vec::new(),
            limits: Value::Null,
            start: Value::Null,
            played_on: None,
        };
        let mut replay = Replay::new(header);
        for n in 1..=3 {
            replay.turn(&serde_json::json!({ "n": n, "action": 3 }));
        }
        let whole = replay.lines().join("\n") + "\n";
        let cut = &whole[..whole.len() - 8];
        let file = parse(cut).unwrap();
        assert_eq!((file.turns.len(), file.cut), (2, Some(4)));
        assert!(parse(&whole).unwrap().cut.is_none());
        // The same cut line followed by another line is a broken line, refused.
        let err = parse(&format!("{cut}\n{{\"type\":\"turn\",\"n\":4}}\n"))
            .err()
            .unwrap()
            .to_string();
        assert!(
            err.contains(":4: not a replay line") && err.contains("(column "),
            "{err}"
        );
        assert!(!err.contains("line 1 column"), "{err}");
    }
}
