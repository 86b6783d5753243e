//! `botbox new <game> <dir>`: a starter bot for any registered game, in Lua, Rust or WAT, that builds
//! and plays wherever it is copied. The Rust starter carries its own copy of the guest SDK (the SDK is
//! not published), so it needs nothing of this repository.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::games::registry;
use anyhow::{Context, bail};

/// Create a starter bot for a game (Lua, Rust or WAT) that builds and plays anywhere
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  botbox new connect4 my-c4-bot                 # my-c4-bot/bot.lua
  botbox new bs my-bs-bot --lang rust           # a Rust crate with its own copy of the SDK
  botbox new 2048 my-2048 --lang wat            # hand-written WebAssembly text
  botbox check connect4 my-c4-bot/bot.lua       # then play it

The directory must not exist yet (or be empty). `botbox games` lists the games.")]
pub struct Args {
    /// The game (see `botbox games`)
    game: String,
    /// The directory to create
    dir: PathBuf,
    /// The language of the bot
    #[arg(long, value_enum, default_value_t = Lang::Lua)]
    lang: Lang,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Lang {
    Lua,
    Rust,
    Wat,
}

pub fn execute(args: Args) -> anyhow::Result<ExitCode> {
    let rules = registry::find(&args.game).map_err(anyhow::Error::msg)?;
    let game = rules.name();
    let dir = &args.dir;
    if dir.exists()
        && std::fs::read_dir(dir)
            .with_context(|| format!("reading {}", dir.display()))?
            .next()
            .is_some()
    {
        bail!(
            "{} exists and is not empty: give a new directory",
            dir.display()
        );
    }
    let files = match args.lang {
        Lang::Lua => vec![(PathBuf::from("bot.lua"), lua(game).to_string())],
        Lang::Wat => match game {
            "2048" => vec![(PathBuf::from("bot.wat"), WAT_2048.to_string())],
            _ => bail!(
                "there is no WAT starter for {game} yet (parsing JSON by hand is long): use --lang lua or --lang rust"
            ),
        },
        Lang::Rust => rust(game, &crate_name(dir)),
    };
    for (path, text) in &files {
        let path = dir.join(path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("creating {}", parent.display()))?;
        }
        std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
    }
    let bot = match args.lang {
        Lang::Lua => dir.join("bot.lua"),
        Lang::Wat => dir.join("bot.wat"),
        Lang::Rust => dir.clone(),
    };
    println!("created a {game} bot in {}", dir.display());
    if args.lang == Lang::Rust {
        println!(
            "  it builds with `cargo build --release --target wasm32-unknown-unknown` (add the target with\n  `rustup target add wasm32-unknown-unknown`); botbox builds it for you when given the directory"
        );
    }
    println!("next:\n  botbox check {game} {}", bot.display());
    println!("docs: docs/{game}.md (the rules), docs/lua-api.md (Lua), docs/wasm-abi.md (WASM)");
    Ok(ExitCode::SUCCESS)
}

/// A crate name from the directory's name: lowercase letters, digits and `-`.
fn crate_name(dir: &Path) -> String {
    let stem = dir
        .file_name()
        .map(|s| s.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    let name: String = stem
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let name = name.trim_matches('-').to_string();
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        format!("bot-{name}").trim_end_matches('-').to_string()
    } else {
        name
    }
}

fn lua(game: &str) -> &'static str {
    match game {
        "2048" => LUA_2048,
        "dice" => LUA_DICE,
        "bs" => LUA_BS,
        "worms" => LUA_WORMS,
        "connect4" => LUA_CONNECT4,
        _ => LUA_GENERIC,
    }
}

/// A Rust bot for a game whose strategies answer `choose_move`: the skeleton they share, with the
/// game's wire types (`botbox_sdk::<module>::{<action>, Observation}`) and the body of `choose_move`.
fn choose_move(what: &str, game: &str, module: &str, action: &str, body: &str) -> String {
    RUST_SKELETON
        .replace("{what}", what)
        .replace("{game}", game)
        .replace("{module}", module)
        .replace("{action}", action)
        .replace("{body}", body.trim_matches('\n'))
}

const RUST_SKELETON: &str = r#"//! {what} for botbox. Check it: `botbox check {game} .` (botbox builds the crate).

use botbox_sdk::{module}::{{action}, Observation};
use botbox_sdk::{Setup, Strategy};

pub struct Bot;

impl Strategy for Bot {
    type Observation = Observation;
    type Action = {action};

    fn new(_setup: &Setup) -> Self {
        Bot
    }

    fn choose_move(&mut self, obs: Observation) -> {action} {
{body}
    }
}

botbox_sdk::export_strategy!(Bot);
"#;

/// The files of a Rust starter crate: its manifest, its code, and its own copy of the SDK.
fn rust(game: &str, name: &str) -> Vec<(PathBuf, String)> {
    let code = match game {
        "dice" => choose_move("A dice bot (free variant)", game, "dice", "Move", RUST_DICE),
        "bs" => RUST_BS.to_string(),
        "worms" => choose_move("A Wormworld bot", game, "worms", "Move", RUST_WORMS),
        "connect4" => choose_move(
            "A Connect Four bot",
            game,
            "connect4",
            "Move",
            RUST_CONNECT4,
        ),
        _ => choose_move("A 2048 bot", "2048", "g2048", "Direction", RUST_2048),
    };
    let manifest = format!(
        "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n\
         [lib]\ncrate-type = [\"cdylib\", \"rlib\"]\n\n\
         [dependencies]\n# The botbox guest SDK, copied here by `botbox new` so the crate builds anywhere.\n\
         botbox-sdk = {{ path = \"botbox-sdk\" }}\n\n\
         # A workspace of its own: the crate builds wherever it is copied.\n[workspace]\n\n\
         [profile.release]\nopt-level = 3\nlto = true\npanic = \"abort\"\n"
    );
    let mut files = vec![
        (PathBuf::from("Cargo.toml"), manifest),
        (PathBuf::from("src/lib.rs"), code),
        (PathBuf::from(".gitignore"), "target/\n".to_string()),
        (
            PathBuf::from("botbox-sdk/Cargo.toml"),
            SDK_MANIFEST.to_string(),
        ),
    ];
    for (file, text) in SDK_SOURCES {
        files.push((PathBuf::from("botbox-sdk/src").join(file), text.to_string()));
    }
    files
}

const SDK_MANIFEST: &str = r#"[package]
name = "botbox-sdk"
description = "Guest SDK for botbox strategies (a copy made by `botbox new`)"
version = "0.1.0"
edition = "2024"
publish = false

[features]
default = []
schema = ["dep:schemars"]

[dependencies]
serde = { version = "1", features = ["derive"] }
serde_json = "1"
postcard = { version = "1.1", default-features = false, features = ["alloc"] }
schemars = { version = "1.2", optional = true }
"#;

/// The guest SDK's sources, as this botbox was built with them.
const SDK_SOURCES: [(&str, &str); 9] = [
    ("lib.rs", include_str!("../../../strategies/sdk/src/lib.rs")),
    ("abi.rs", include_str!("../../../strategies/sdk/src/abi.rs")),
    (
        "host.rs",
        include_str!("../../../strategies/sdk/src/host.rs"),
    ),
    (
        "g2048.rs",
        include_str!("../../../strategies/sdk/src/g2048.rs"),
    ),
    (
        "dice.rs",
        include_str!("../../../strategies/sdk/src/dice.rs"),
    ),
    ("bs.rs", include_str!("../../../strategies/sdk/src/bs.rs")),
    (
        "worms.rs",
        include_str!("../../../strategies/sdk/src/worms.rs"),
    ),
    (
        "connect4.rs",
        include_str!("../../../strategies/sdk/src/connect4.rs"),
    ),
    (
        "wire.rs",
        include_str!("../../../strategies/sdk/src/wire.rs"),
    ),
];

const WAT_2048: &str = include_str!("../../../strategies/wat/g2048/corner.wat");

const LUA_2048: &str = include_str!("../../../strategies/templates/2048.lua");

const LUA_DICE: &str = include_str!("../../../strategies/templates/dice.lua");

const LUA_BS: &str = include_str!("../../../strategies/templates/bs.lua");

const LUA_WORMS: &str = include_str!("../../../strategies/templates/worms.lua");

const LUA_CONNECT4: &str = include_str!("../../../strategies/templates/connect4.lua");

const LUA_GENERIC: &str = include_str!("../../../strategies/templates/generic.lua");

const RUST_2048: &str = r#"
        // The first legal of down, left, right, up: keeps big tiles in a corner.
        [Direction::Down, Direction::Left, Direction::Right, Direction::Up]
            .into_iter()
            .find(|d| obs.legal.contains(d))
            .unwrap_or(obs.legal[0])
"#;

const RUST_DICE: &str = r#"
        // Capture when possible, else the piece furthest ahead.
        let best = obs
            .legal
            .iter()
            .max_by_key(|m| (m.captures, m.from))
            .expect("asked only when there is a choice");
        Move { from: best.from, to: best.to }
"#;

const RUST_BS: &str = r#"//! A BS (Cheat) bot for botbox. Check it: `botbox check bs .` (botbox builds the crate).

use botbox_sdk::bs::{CallAction, CallObservation, PlayAction, PlayObservation};
use botbox_sdk::{BsStrategy, Setup};

pub struct Bot;

impl BsStrategy for Bot {
    fn new(_setup: &Setup) -> Self {
        Bot
    }

    fn play(&mut self, obs: PlayObservation) -> PlayAction {
        let mut cards: Vec<u32> = obs.hand.iter().copied().filter(|id| id / 4 == obs.rank).take(4).collect();
        if cards.is_empty() {
            cards.push(obs.hand[0]); // a lie: one card
        }
        cards
    }

    fn call(&mut self, obs: CallObservation) -> CallAction {
        obs.count >= 3
    }
}

botbox_sdk::export_bs_strategy!(Bot);
"#;

const RUST_WORMS: &str = r#"
        // The legal move of the worm whose head is nearest the hole.
        let distance = |m: &Move| {
            obs.worms
                .iter()
                .find(|w| w.id == m.worm)
                .map_or(u32::MAX, |w| w.cells[0][0].abs_diff(obs.hole[0]) + w.cells[0][1].abs_diff(obs.hole[1]))
        };
        *obs.legal.iter().min_by_key(|m| distance(m)).expect("asked only with a legal move")
"#;

const RUST_CONNECT4: &str = r#"
        // The open column nearest the centre.
        let centre = obs.columns as i64 - 1;
        let column = *obs
            .legal
            .iter()
            .min_by_key(|c| (2 * **c as i64 - centre).abs())
            .expect("asked only with an open column");
        Move { column }
"#;
