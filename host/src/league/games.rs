//! What the league plays: each registered game's ladder set-up, an upload's checks, and one job played
//! into a record and a replay with the same runner code as local tournaments
//! ([`crate::tournament::runner`]). Pure of storage: the server and the workers hand it bytes.
//!
//! A stored game is a function of (engine version, game, variant, seed, the players' bytes, limits):
//! [`play`] names each strategy in the replay by its bot and content hash instead of the cache file
//! it was loaded from, so the same job played on any machine gives the same bytes, and `botbox
//! league verify` can compare them.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use anyhow::Context;

use crate::games::registry;
use crate::runtime::{LimitSpec, Strategy};
use crate::tournament::runner::{self, Entry, GameRecord, Playable, Scheduled};

/// A ladder's game, shared by the threads that play it.
pub use crate::tournament::setup::Game;

/// The largest WASM module the league takes.
pub const MAX_WASM_BYTES: usize = 4 << 20;

/// What an upload over [`MAX_WASM_BYTES`] is told (413).
pub fn too_large() -> String {
    format!("the upload is over {MAX_WASM_BYTES} bytes, the largest the league takes")
}
/// The largest Luau source the league takes.
pub const MAX_LUA_BYTES: usize = 512 << 10;

/// The limits league games are played under unless the server is told otherwise: the runtime's
/// defaults with a smaller fuel budget (0.5 s of a fast machine's work per decision, not 2 s), so
/// a bot that burns its budget costs the league little.
pub fn default_limits() -> LimitSpec {
    LimitSpec {
        fuel: Some(500_000_000),
        time_limit_ms: Some(5_000),
        ..LimitSpec::default()
    }
}

/// The games the league has ladders for: every registered game.
pub fn names() -> Vec<&'static str> {
    registry::names()
}

/// Players at every game of `game`'s ladder.
pub fn seats(game: &str) -> anyhow::Result<usize> {
    Ok(ladder(game, 0)?.seats())
}

/// The names of the variants `game`'s ladder cycles through, in order.
pub fn variant_names(game: &str) -> anyhow::Result<Vec<String>> {
    let ladder = ladder(game, 0)?;
    Ok((0..ladder.variants())
        .map(|v| ladder.variant_name(v))
        .collect())
}

/// `game`'s ladder set-up for a job seeded with `seed`, as the game's set-up has it
/// ([`crate::tournament::setup::SetUp::ladder`]): Wormworld on every built-in map, opened by random
/// moves; dice, free variant, both players rolling the same die of the bundled `wuerfel0` (the
/// variant picks which); any other game on its default variant (2048: the 4x4 board; BS: at
/// four-player tables), opened by random moves if its games would otherwise repeat.
pub fn ladder(game: &str, seed: u64) -> anyhow::Result<Game> {
    crate::tournament::setup::ladder(game, seed)
}

/// A version as a worker plays it.
#[derive(Clone, Debug)]
pub struct Player {
    /// The name the game's record and replay show: `bot@vN`.
    pub name: String,
    pub kind: String,
    pub sha256: String,
    pub source: Vec<u8>,
    /// The file name its owner uploaded it as, for messages ([`file_name`]).
    pub file_name: String,
}

/// The name an upload's messages give its file: the name its owner gave (`hunter.lua`, its last
/// path component, control characters made spaces, at most 100 characters), else the bot's name
/// with the kind's extension. Never a path on the server.
pub fn file_name(given: Option<&str>, bot: &str, kind: &str) -> String {
    let given = given
        .and_then(|g| g.rsplit(['/', '\\']).next())
        .map(|g| {
            g.chars()
                .take(100)
                .map(|c| if c.is_control() { ' ' } else { c })
                .collect::<String>()
        })
        .filter(|g| !g.trim().is_empty());
    given.unwrap_or_else(|| format!("{bot}.{}", if kind == "wasm" { "wasm" } else { "lua" }))
}

/// A local directory of strategy files, by content hash: what the runtime loads from.
/// Strategies loaded from it are kept, by content hash and limits, so a worker compiles a version
/// once, not once per game (a loaded strategy is shared by every game; each game has its own
/// instance).
#[derive(Clone, Debug)]
pub struct Cache {
    dir: PathBuf,
    loaded: Arc<Mutex<HashMap<Loaded, Strategy>>>,
}

/// A loaded strategy's key: its content hash, its limits (as JSON) and the file name its messages
/// give it.
type Loaded = (String, String, String);

/// Loaded strategies kept at most (the oldest are dropped past it).
const MAX_LOADED: usize = 256;

impl Cache {
    pub fn new(dir: &Path) -> anyhow::Result<Cache> {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        Ok(Cache {
            dir: dir.to_path_buf(),
            loaded: Arc::default(),
        })
    }

    /// [`Cache::load`], once per (bytes, limits, name).
    fn strategy(
        &self,
        kind: &str,
        bytes: &[u8],
        limits: &LimitSpec,
        name: &str,
    ) -> anyhow::Result<Result<Strategy, String>> {
        let key = (
            crate::runtime::source_hash(bytes),
            serde_json::to_string(limits).expect("limits serialize"),
            name.to_string(),
        );
        if let Some(s) = self.loaded.lock().expect("not poisoned").get(&key) {
            return Ok(Ok(s.clone()));
        }
        let loaded = self.load(kind, bytes, limits, name)?;
        if let Ok(s) = &loaded {
            let mut map = self.loaded.lock().expect("not poisoned");
            if map.len() >= MAX_LOADED {
                map.clear();
            }
            map.insert(key, s.clone());
        }
        Ok(loaded)
    }

    /// Loads Luau `source` once, for the playground: from a file of its own that is gone again
    /// when it is loaded, so nothing of it stays on the server.
    fn load_once(
        &self,
        source: &[u8],
        limits: &LimitSpec,
        name: &str,
    ) -> anyhow::Result<Result<Strategy, String>> {
        let path = self.dir.join(format!(
            "playground-{}-{}.lua",
            std::process::id(),
            random_u64()
        ));
        std::fs::write(&path, source).with_context(|| format!("writing {}", path.display()))?;
        let loaded = crate::hosted::load_as(&path, name, &limits.limits())
            .map_err(|e| e.to_string().replace(&path.display().to_string(), name));
        let _ = std::fs::remove_file(&path);
        Ok(loaded)
    }

    /// The file holding `bytes` (written once, atomically), named by its hash and kind.
    fn file(&self, kind: &str, bytes: &[u8]) -> anyhow::Result<PathBuf> {
        let sha = crate::runtime::source_hash(bytes);
        let ext = if kind == "wasm" { "wasm" } else { "lua" };
        let path = self.dir.join(format!("{sha}.{ext}"));
        if !path.exists() {
            let tmp = self.dir.join(format!("{sha}.{}.tmp", std::process::id()));
            std::fs::write(&tmp, bytes).with_context(|| format!("writing {}", tmp.display()))?;
            std::fs::rename(&tmp, &path).with_context(|| format!("writing {}", path.display()))?;
        }
        Ok(path)
    }

    /// Loads `bytes` of `kind` as a strategy under `limits`, named `name` in its messages.
    fn load(
        &self,
        kind: &str,
        bytes: &[u8],
        limits: &LimitSpec,
        name: &str,
    ) -> anyhow::Result<Result<Strategy, String>> {
        let path = self.file(kind, bytes)?;
        Ok(
            crate::hosted::load_as(&path, name, &limits.limits()).map_err(|e| {
                // A message about reading the file would name the cache; the owner knows the upload.
                e.to_string().replace(&path.display().to_string(), name)
            }),
        )
    }
}

/// Refuses an upload that is a program: by the file name its owner gave (an extension other than
/// `.lua`, `.luau` or `.wasm`), or by its bytes ([`kind_of`]).
pub fn refuse_programs(file: Option<&str>, bytes: &[u8]) -> Result<(), String> {
    let extension = file
        .and_then(|f| std::path::Path::new(f).extension())
        .map(|e| e.to_string_lossy().to_lowercase());
    if let Some(e) = extension.filter(|e| !matches!(e.as_str(), "lua" | "luau" | "wasm")) {
        return Err(format!(
            "a .{e} file: the league does not run programs; it takes .wasm modules and .lua files"
        ));
    }
    kind_of(bytes).map(|_| ())
}

/// What kind of strategy `bytes` are: a WASM module (by its magic number) or Luau source (UTF-8).
pub fn kind_of(bytes: &[u8]) -> Result<&'static str, String> {
    if bytes.is_empty() {
        return Err("the upload is empty".into());
    }
    if bytes.starts_with(b"\0asm") {
        if bytes.len() > MAX_WASM_BYTES {
            return Err(format!(
                "the module is {} bytes; the league takes WASM modules up to {} bytes",
                bytes.len(),
                MAX_WASM_BYTES
            ));
        }
        return Ok("wasm");
    }
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Err(
            "neither a WASM module (no \\0asm header) nor Luau source (not UTF-8); the league \
             takes .wasm modules and .lua files, not programs"
                .into(),
        );
    };
    if text.trim_start().starts_with("(module") {
        return Err("WebAssembly text: compile it to a .wasm module first".into());
    }
    if bytes.starts_with(b"#!") || bytes.starts_with(b"\x7fELF") {
        return Err(
            "the league does not run programs: upload a .wasm module or a .lua file".into(),
        );
    }
    if bytes.len() > MAX_LUA_BYTES {
        return Err(format!(
            "the source is {} bytes; the league takes Luau files up to {} bytes",
            bytes.len(),
            MAX_LUA_BYTES
        ));
    }
    Ok("lua")
}

/// Checks an upload for `game`: its kind and size, that it loads (WASM compiled here with its
/// imports checked against the ABI; Luau compiled in the sandbox), and a smoke game under `limits`
/// against a bundled bot (alone for a solo game) in which it must not fault. The error is the
/// reason, for the uploader.
pub fn check(
    cache: &Cache,
    game: &str,
    bytes: &[u8],
    limits: &LimitSpec,
    (bot, given_name): (&str, Option<&str>),
) -> anyhow::Result<Result<crate::league::store::Checked, String>> {
    let kind = match kind_of(bytes) {
        Ok(kind) => kind,
        Err(e) => return Ok(Err(e)),
    };
    let file_name = file_name(given_name, bot, kind);
    let strategy = match cache.load(kind, bytes, limits, &file_name)? {
        Ok(s) => s,
        Err(e) => return Ok(Err(e)),
    };
    let ladder = ladder(game, 1)?;
    let seats = ladder.seats();
    let mut entries = vec![Entry {
        name: "upload".into(),
        strategy,
    }];
    if seats > 1 {
        let (name, source) = registry::find(game)
            .map_err(anyhow::Error::msg)?
            .info()
            .sparring
            .with_context(|| format!("no sparring bot for {game}"))?;
        let partner = cache
            .strategy("lua", source.as_bytes(), limits, &format!("{name}.lua"))?
            .map_err(|e| anyhow::anyhow!("the bundled {name}: {e}"))?;
        for _ in 1..seats {
            entries.push(Entry {
                name: name.into(),
                strategy: partner.clone(),
            });
        }
    }
    let players: Vec<&Entry> = entries.iter().collect();
    let scheduled = Scheduled {
        index: 0,
        seed: 1,
        seats: (0..seats).collect(),
        variant: 0,
        round: 0,
    };
    let (ending, _) = ladder.play(&scheduled, &players, false);
    if let Some(Some(fault)) = ending.faults.first() {
        return Ok(Err(format!(
            "the smoke game ({game}, {}) faulted: {:?}: {}",
            ladder.variant_name(0),
            fault.kind,
            fault.message
        )));
    }
    Ok(Ok(crate::league::store::Checked {
        kind: kind.into(),
        sha256: crate::runtime::source_hash(bytes),
        bytes: bytes.to_vec(),
        file_name,
    }))
}

/// One job as a worker plays it.
#[derive(Clone, Debug)]
pub struct Spec {
    pub id: i64,
    pub game: String,
    pub variant: usize,
    pub seed: u64,
    /// The limits, a [`LimitSpec`] in JSON.
    pub limits: String,
}

/// A played job: its record and its replay (the bytes a stored game keeps).
#[derive(Clone, Debug)]
pub struct Outcome {
    pub record: GameRecord,
    pub replay: Vec<u8>,
}

/// Plays a job between `players` (seat order), as the runner plays a tournament's game.
pub fn play(cache: &Cache, job: &Spec, players: &[Player]) -> anyhow::Result<Outcome> {
    let limits: LimitSpec = serde_json::from_str(&job.limits)
        .with_context(|| format!("job {}: its limits {}", job.id, job.limits))?;
    let ladder = ladder(&job.game, job.seed)?;
    anyhow::ensure!(
        players.len() == ladder.seats(),
        "job {}: {} players for {} seats",
        job.id,
        players.len(),
        ladder.seats()
    );
    anyhow::ensure!(
        job.variant < ladder.variants(),
        "job {}: {} has no variant {}",
        job.id,
        job.game,
        job.variant
    );
    let entries = players
        .iter()
        .map(|p| {
            let strategy = cache
                .strategy(&p.kind, &p.source, &limits, &p.file_name)?
                .map_err(|e| anyhow::anyhow!("{}: {e}", p.name))?;
            Ok(Entry {
                name: p.name.clone(),
                strategy,
            })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let seated: Vec<&Entry> = entries.iter().collect();
    let scheduled = Scheduled {
        index: usize::try_from(job.id - 1).context("job ids start at 1")?,
        seed: job.seed,
        seats: (0..players.len()).collect(),
        variant: job.variant,
        round: 0,
    };
    let (ending, replay) = ladder.play(&scheduled, &seated, true);
    let mut replay = replay.context("the game kept no replay")?;
    replay.edit_header(|header| {
        for (s, p) in header.strategies.iter_mut().zip(players) {
            s.name = p.name.clone();
            s.path = format!("league:{}", p.sha256);
        }
    });
    let record = runner::record(&*ladder, &scheduled, &entries, ending);
    Ok(Outcome {
        record,
        replay: replay.to_bytes(),
    })
}

/// A playground game: how it ended and the viewer's page of it.
#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
pub struct PlaygroundGame {
    /// The game's number, from 1.
    pub number: usize,
    /// The seat the bot played.
    pub seat: usize,
    /// How it ended, in words.
    pub end: String,
    /// The bot's fault, if it faulted: `kind: message`.
    pub fault: Option<String>,
    /// The replay viewer's page of the game, with the bot's log lines (its `print`s).
    pub page: String,
}

/// The name a playground bot's messages give it.
pub const PLAYGROUND_FILE: &str = "playground.lua";

/// A ladder bot a playground bot plays against: its name in the games, and its stored version.
#[derive(Debug, Clone)]
pub struct Opponent {
    pub name: String,
    pub kind: String,
    pub source: Vec<u8>,
    pub file_name: String,
}

/// Plays up to `games` unrated games of the Luau `source` against `opponent` (a ladder bot) or
/// the game's sparring bot (every other seat), the seats taking turns, on the ladder's set-up with
/// seeds of `seed`; stops starting games after `budget`. Nothing is kept: the replays come back as
/// viewer pages, with the playground bot's log lines and faults only (a ladder bot's are its
/// owner's). The error is for the author: the source does not load (its line), or the game has no
/// bot to play against.
pub fn playground(
    cache: &Cache,
    game: &str,
    (source, opponent): (&[u8], Option<&Opponent>),
    limits: &LimitSpec,
    (games, seed, budget): (usize, u64, std::time::Duration),
) -> anyhow::Result<Result<Vec<PlaygroundGame>, String>> {
    let started = std::time::Instant::now();
    let bot = match cache.load_once(source, limits, PLAYGROUND_FILE)? {
        Ok(s) => s,
        Err(e) => return Ok(Err(e)),
    };
    let rules = registry::find(game).map_err(anyhow::Error::msg)?;
    let seats = ladder(game, seed)?.seats();
    let sparring = match (seats, opponent, rules.info().sparring) {
        (1, _, _) => None,
        (_, Some(o), _) => Some((
            o.name.clone(),
            cache
                .strategy(&o.kind, &o.source, limits, &o.file_name)?
                .map_err(|e| anyhow::anyhow!("{}: {e}", o.name))?,
        )),
        (_, None, Some((name, text))) => Some((
            name.to_string(),
            cache
                .strategy("lua", text.as_bytes(), limits, &format!("{name}.lua"))?
                .map_err(|e| anyhow::anyhow!("the bundled {name}: {e}"))?,
        )),
        (_, None, None) => return Ok(Err(format!("{game} has no bot to play against"))),
    };
    let mut played = Vec::new();
    for i in 0..games {
        if i > 0 && started.elapsed() >= budget {
            break;
        }
        let game_seed = crate::games::derive_seed(seed, i as u64);
        let setup = ladder(game, game_seed)?;
        let seat = i % seats;
        let entries: Vec<Entry> = (0..seats)
            .map(|s| match (&sparring, s == seat) {
                (Some((name, partner)), false) => Entry {
                    name: name.clone(),
                    strategy: partner.clone(),
                },
                _ => Entry {
                    name: "your bot".into(),
                    strategy: bot.clone(),
                },
            })
            .collect();
        let players: Vec<&Entry> = entries.iter().collect();
        let scheduled = Scheduled {
            index: i,
            seed: game_seed,
            seats: (0..seats).collect(),
            variant: (game_seed % setup.variants().max(1) as u64) as usize,
            round: 0,
        };
        let (ending, replay) = setup.play(&scheduled, &players, true);
        let mut replay = replay.context("the game kept no replay")?;
        // Named as the games name them; no path on the server in the page.
        replay.edit_header(|header| {
            for ((s, e), seat_index) in header.strategies.iter_mut().zip(&entries).zip(0..) {
                s.name = e.name.clone();
                s.path = match seat_index == seat {
                    true => PLAYGROUND_FILE.to_string(),
                    false => format!("league:{}", e.strategy.hash()),
                };
            }
        });
        let text = String::from_utf8_lossy(&replay.to_bytes()).into_owned();
        // Another owner's bot keeps its log lines and fault messages, as on a game's page.
        let text = match opponent {
            Some(_) => super::server::played::redact_replay(&text, |s| s == seat),
            None => text,
        };
        let fault = ending
            .faults
            .get(seat)
            .cloned()
            .flatten()
            .map(|f| format!("{:?}: {}", f.kind, f.message));
        // A game the viewer cannot draw is told in words rather than failing the whole run.
        // What the bot saw at each of its moves is shown beside it (a ladder opponent's is its
        // owner's); the game is no file the user has, so the page has no command to copy.
        let viewer = crate::replay::parse(&text)
            .map_err(|e| anyhow::anyhow!("{e}"))
            .and_then(|file| {
                let mut viewer = crate::view::frames::frames(&file)?;
                let visible = |s: usize| opponent.is_none() || s == seat;
                crate::view::frames::observe(&mut viewer, &file, &visible, Default::default())?;
                Ok(viewer)
            });
        let mut viewer = match viewer {
            Ok(v) => v,
            Err(e) => {
                let why = format!("{e:#}");
                played.push(PlaygroundGame {
                    number: i + 1,
                    seat,
                    end: ending.reason.clone(),
                    fault,
                    page: maud::html! {
                        (maud::DOCTYPE)
                        html lang="en" { body { p { "This game cannot be drawn: " (why) } } }
                    }
                    .into_string(),
                });
                continue;
            }
        };
        viewer.title = format!("playground game {}: {}", i + 1, rules.name());
        if opponent.is_some() {
            viewer.logs_hidden = (0..seats).map(|s| s != seat).collect();
        }
        played.push(PlaygroundGame {
            number: i + 1,
            seat,
            end: viewer.end.clone().unwrap_or_default(),
            fault,
            page: crate::view::page::html(Some(&viewer)),
        });
    }
    Ok(Ok(played))
}

/// A number from the operating system's random source.
pub fn random_u64() -> u64 {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).expect("the operating system's random source");
    u64::from_le_bytes(bytes)
}
