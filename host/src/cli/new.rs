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

impl Lang {
    fn name(self) -> &'static str {
        match self {
            Lang::Lua => "Lua",
            Lang::Rust => "Rust",
            Lang::Wat => "WAT",
        }
    }
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
    let templates = rules.info().templates;
    let template = match args.lang {
        Lang::Lua => templates.lua,
        Lang::Rust => templates.rust,
        Lang::Wat => templates.wat,
    };
    let Some(template) = template else {
        let has: Vec<&str> = [
            ("lua", templates.lua),
            ("rust", templates.rust),
            ("wat", templates.wat),
        ]
        .into_iter()
        .filter_map(|(lang, t)| t.map(|_| lang))
        .collect();
        bail!(
            "there is no {} starter for {game}: it has {}",
            args.lang.name(),
            has.iter()
                .map(|l| format!("--lang {l}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    };
    let files = match args.lang {
        Lang::Lua => vec![(PathBuf::from("bot.lua"), template.to_string())],
        Lang::Wat => vec![(PathBuf::from("bot.wat"), template.to_string())],
        Lang::Rust => rust(template, &crate_name(dir)),
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

/// The files of a Rust starter crate: its manifest, its code, and its own copy of the SDK.
fn rust(code: &str, name: &str) -> Vec<(PathBuf, String)> {
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
        (PathBuf::from("src/lib.rs"), code.to_string()),
        (PathBuf::from(".gitignore"), "target/\n".to_string()),
        (
            PathBuf::from("botbox-sdk/Cargo.toml"),
            SDK_MANIFEST.to_string(),
        ),
    ];
    for file in SDK_SOURCES.files() {
        let text = file.contents_utf8().expect("the SDK's sources are UTF-8");
        files.push((
            PathBuf::from("botbox-sdk/src").join(file.path()),
            text.to_string(),
        ));
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

/// The guest SDK's sources, as this botbox was built with them: every file of `strategies/sdk/src`,
/// so a game's SDK module comes along without a line here (the `include_dir` crate embeds the
/// folder).
static SDK_SOURCES: include_dir::Dir<'static> =
    include_dir::include_dir!("$CARGO_MANIFEST_DIR/../strategies/sdk/src");
