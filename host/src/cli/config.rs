//! Tournament files: a whole tournament in one TOML file (`botbox tournament FILE.toml`).
//!
//! ```toml
//! game = "worms"                 # any game `botbox games` lists
//! format = "round-robin"         # round-robin | gauntlet (two-player games)
//! games = 40                     # per pairing (20); bs: in all (1000); 2048: per entry (100)
//! seed = 1
//! jobs = 2
//! maps = ["../worms/"]           # worms: map files or directories; `turns = N` overrides limits
//!                                # dice: `dice = "FILE"`, `variant = "free"`, `die = [1, 2]`
//!                                # bs: `repeat = true` lets an entry sit at a table twice
//!                                # connect4: `variants = ["standard", "8x7-4"]`, `openings = 4`
//!                                # 2048: `variants = ["5x5"]` (the board, 4x4 by default)
//!
//! [limits]                       # all optional (`runtime::LimitSpec`); the command line's
//! fuel = 2000000000              # --fuel, --memory, ... flags override them
//! lua_budget = 20000000
//! memory_mib = 32
//! time_limit_ms = 10000
//! move_time_ms = 2000            # external programs
//! program_memory_mib = 256
//! compile_time_ms = 5000
//! log_kib = 64
//!
//! [[entries]]
//! path = "../../strategies/lua/worms/greedy.lua"
//! name = "greedy"                # optional: the file stem otherwise
//! params = { depth = 3 }         # optional
//!
//! [output]
//! json = "standings.json"
//! replay_dir = "replays/"
//! ```
//! Paths are relative to the file's directory. Unknown keys and bad values are errors naming the
//! file, the line and the key.

use std::path::{Path, PathBuf};

use crate::runtime::{LimitSpec, Params};
use crate::tournament::runner::{self, Entry, Format};
use anyhow::Context;
use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct File {
    /// Any registered game (`botbox games`).
    pub game: String,
    #[serde(default = "round_robin")]
    pub format: Format,
    pub games: Option<usize>,
    #[serde(default = "one")]
    pub seed: u64,
    pub jobs: Option<usize>,
    pub entries: Vec<EntrySpec>,
    #[serde(default)]
    pub limits: LimitSpec,
    /// Wormworld: map files or directories of `.txt` maps.
    #[serde(default)]
    pub maps: Vec<PathBuf>,
    /// Wormworld: overrides every map's turn limit.
    pub turns: Option<u32>,
    /// Dice: the dice file.
    pub dice: Option<PathBuf>,
    /// One variant, read as one of `variants` (dice: `free`, the only variant that takes
    /// strategies, and the one played when none is named).
    pub variant: Option<String>,
    /// Dice: the dice to use, numbered from 1.
    #[serde(default)]
    pub die: Vec<usize>,
    /// Connect Four: the variants by name (`botbox games`) or variant files, the first by default;
    /// 2048: the board size (`["5x5"]`).
    #[serde(default)]
    pub variants: Vec<String>,
    /// Connect Four and Wormworld: random opening plies, the same for both games of a pair.
    #[serde(default)]
    pub openings: u32,
    /// BS: whether an entry may sit at a table more than once.
    #[serde(default)]
    pub repeat: bool,
    /// Two entries of a two-player game: a sequential test, spelled as `--sprt` is
    /// (`"elo0=0,elo1=5,alpha=0.05,beta=0.05"`); `games` is then the most to play.
    pub sprt: Option<String>,
    #[serde(default)]
    pub output: Output,
}

fn round_robin() -> Format {
    Format::RoundRobin
}

fn one() -> u64 {
    1
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EntrySpec {
    pub path: PathBuf,
    pub name: Option<String>,
    #[serde(default)]
    pub params: Params,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Output {
    pub json: Option<PathBuf>,
    pub replay_dir: Option<PathBuf>,
}

/// A tournament file, read and checked, with its paths made relative to where botbox runs.
#[derive(Debug)]
pub struct Loaded {
    pub path: PathBuf,
    pub file: File,
    /// The file's text, for the lines messages name.
    pub text: String,
}

/// The line (from 1) where `key = ...` is set in `text`, at or after line `from` (from 0), as
/// `:LINE` for a message; empty when the key is not there.
fn key_line(text: &str, key: &str, from: usize) -> String {
    text.lines()
        .enumerate()
        .skip(from)
        .find(|(_, l)| {
            l.trim_start()
                .strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with('='))
        })
        .map_or(String::new(), |(i, _)| format!(":{}", i + 1))
}

impl Loaded {
    /// `path.display():LINE` for the line where `key` is set (`entry`: in the entry-th
    /// `[[entries]]` table).
    pub fn at(&self, key: &str, entry: Option<usize>) -> String {
        let from = entry.map_or(0, |n| {
            self.text
                .lines()
                .enumerate()
                .filter(|(_, l)| l.trim() == "[[entries]]")
                .nth(n)
                .map_or(usize::MAX, |(i, _)| i)
        });
        format!("{}{}", self.path.display(), key_line(&self.text, key, from))
    }

    /// `relative` resolved against the tournament file's directory.
    pub fn resolve(&self, relative: &Path) -> PathBuf {
        self.path
            .parent()
            .unwrap_or_else(|| Path::new("."))
            .join(relative)
    }

    /// Loads every entry with `limits` (the file's, under the command line's) and the entry's
    /// parameters; names from `name` or the file stems, made unique.
    pub fn entries(&self, limits: &LimitSpec) -> anyhow::Result<Vec<Entry>> {
        let limits = limits.limits();
        let mut strategies = Vec::new();
        for (i, spec) in self.file.entries.iter().enumerate() {
            let path = self.resolve(&spec.path);
            let strategy = crate::hosted::load(&path, &limits)
                .with_context(|| {
                    format!(
                        "{}: entries[{i}] (path = {:?})",
                        self.at("path", Some(i)),
                        spec.path.display().to_string()
                    )
                })?
                .with_params(spec.params.clone());
            strategies.push(strategy);
        }
        let stems = runner::unique_names(&strategies);
        let mut entries: Vec<Entry> = Vec::new();
        for ((spec, strategy), stem) in self.file.entries.iter().zip(strategies).zip(stems) {
            let name = spec.name.clone().unwrap_or(stem);
            if entries.iter().any(|e| e.name == name) {
                anyhow::bail!(
                    "{}: two entries are named {name:?}; give them different `name`s",
                    self.path.display()
                );
            }
            entries.push(Entry { name, strategy });
        }
        if entries.is_empty() {
            anyhow::bail!(
                "{}: a tournament needs at least one [[entries]] (two for a game of two players)",
                self.path.display()
            );
        }
        Ok(entries)
    }
}

/// Reads a tournament file; errors name the file, the line and column, and the key.
pub fn read(path: &Path) -> anyhow::Result<Loaded> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    Ok(Loaded {
        path: path.to_path_buf(),
        file: parse(&text, path)?,
        text,
    })
}

/// A tournament file's text, checked as [`read`] checks a file (`path` names it in messages).
pub fn parse(text: &str, path: &Path) -> anyhow::Result<File> {
    let file: File = toml::from_str(text).map_err(|e| {
        let at = e
            .span()
            .map(|span| {
                let before = &text[..span.start.min(text.len())];
                let line = before.matches('\n').count() + 1;
                let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
                let source = text.lines().nth(line - 1).unwrap_or_default().trim();
                (
                    format!(":{line}:{column}"),
                    format!("\n  {line} | {source}"),
                )
            })
            .unwrap_or_default();
        anyhow::anyhow!("{}{}: {}{}", path.display(), at.0, e.message(), at.1)
    })?;
    if let Err(e) = crate::games::registry::find(&file.game) {
        let line = key_line(text, "game", 0);
        anyhow::bail!("{}{line}: game = {:?}: {e}", path.display(), file.game);
    }
    Ok(file)
}

/// What the command line may override in a tournament file.
#[derive(Debug, Clone, clap::Args)]
pub struct Overrides {
    #[command(flatten)]
    pub out: super::run::Outputs,
    #[command(flatten)]
    pub flags: super::run::TournamentFlags,
    /// Limits over the file's `[limits]`
    #[command(flatten)]
    pub limits: LimitSpec,
    /// A sequential test over the file's `sprt`
    #[command(flatten)]
    pub sprt: super::run::SprtArgs,
}

/// `botbox tournament FILE.toml`.
pub fn execute(path: &Path, overrides: Overrides) -> anyhow::Result<std::process::ExitCode> {
    let loaded = read(path)?;
    let f = &loaded.file;
    let limits = f.limits.and(&overrides.limits);
    let entries = loaded.entries(&limits)?;
    let run = super::run::RunArgs {
        seed: f.seed,
        out: super::run::Outputs {
            jobs: overrides.out.jobs.or(f.jobs),
            json: overrides
                .out
                .json
                .or_else(|| f.output.json.as_ref().map(|p| loaded.resolve(p))),
            replay_dir: overrides
                .out
                .replay_dir
                .or_else(|| f.output.replay_dir.as_ref().map(|p| loaded.resolve(p))),
        },
        limits: super::limits::LimitArgs::from_spec(limits),
    };
    anyhow::ensure!(
        run.out.jobs != Some(0),
        "{}: jobs = 0: at least one game must run at a time",
        path.display()
    );
    anyhow::ensure!(
        f.games != Some(0),
        "{}: games = 0: a tournament plays at least one game",
        path.display()
    );
    let flags = &overrides.flags;
    let in_file = |what: &str| format!("{}: {what}", loaded.at(what, None));
    let options = crate::tournament::setup::Options {
        variants: f
            .variant
            .iter()
            .chain(&f.variants)
            .map(|v| {
                let file = loaded.resolve(Path::new(v));
                if file.is_file() {
                    file.display().to_string()
                } else {
                    v.clone()
                }
            })
            .collect(),
        maps: f.maps.iter().map(|m| loaded.resolve(m)).collect(),
        turns: f.turns,
        dice: f.dice.as_ref().map(|d| loaded.resolve(d)),
        die: f.die.clone(),
        openings: f.openings,
        seed: f.seed,
        one_pairing: overrides.sprt.sprt.is_some() || f.sprt.is_some(),
        entries_as_given: false,
    };
    let (game, entries) = crate::tournament::setup::build(&f.game, &options, entries)
        .with_context(|| {
            let rules = crate::games::registry::find(&f.game).ok();
            in_file(rules.map_or("variants", |r| crate::tournament::setup::of(r).file_key()))
        })?;
    let sprt = match (overrides.sprt.sprt, &f.sprt) {
        (Some(test), _) => Some(test),
        (None, Some(text)) => Some(
            text.parse::<crate::tournament::sprt::Sprt>()
                .map_err(|e| anyhow::anyhow!("{}: sprt = {text:?}: {e}", path.display()))?,
        ),
        (None, None) => None,
    };
    let games = match (f.games, sprt) {
        (Some(n), Some(_)) if n % 2 == 1 => anyhow::bail!(
            "{}: games = {n} is odd: a sequential test plays games in pairs with the sides swapped",
            path.display()
        ),
        (Some(n), _) => n,
        (None, Some(_)) => super::run::SPRT_CAP,
        (None, None) => match game.seats() {
            1 => 100,
            2 => 20,
            _ => 1000,
        },
    };
    let plan = crate::tournament::setup::plan(&game, f.format, games, f.seed, f.repeat);
    super::run::run_and_report(&game, &entries, plan, &run, flags, sprt)?;
    Ok(std::process::ExitCode::SUCCESS)
}
