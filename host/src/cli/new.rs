//! `botbox new <game> <dir>`: a starter kit for any registered game, in Lua, Rust, C, Zig,
//! AssemblyScript or WAT: a directory that builds with its language's own tool, holds a bot that
//! plays legal moves (the same rule in every language) and a README on building, checking, playing
//! and uploading it. Each kit carries its own copy of the language's SDK (the SDKs are not
//! published), so it needs nothing of this repository; `botbox check <game> <dir>` builds it.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::games::registry;
use anyhow::{Context, bail};

/// Create a starter kit for a game (Lua, Rust, C, Zig, AssemblyScript or WAT) that builds and plays anywhere
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  botbox new connect4 my-c4-bot                       # my-c4-bot/bot.lua
  botbox new bs my-bs-bot --lang rust                 # a Rust crate with its own copy of the SDK
  botbox new worms my-worms --lang c                  # bot.c, the C SDK's headers, build.sh
  botbox new tron my-tron --lang zig                  # build.zig, src/bot.zig and the Zig SDK
  botbox new dice my-dice --lang assemblyscript       # package.json, assembly/index.ts and the SDK
  botbox new 2048 my-2048 --lang wat                  # hand-written WebAssembly text
  botbox check connect4 my-c4-bot                     # then check it: botbox builds the directory

The directory must not exist yet (or be empty). `botbox games` lists the games; docs/bots/ has a page
per language.")]
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
pub enum Lang {
    Lua,
    Rust,
    C,
    Zig,
    #[value(alias = "as", alias = "ts")]
    Assemblyscript,
    Wat,
}

impl Lang {
    pub const ALL: [Lang; 6] = [
        Lang::Lua,
        Lang::Rust,
        Lang::C,
        Lang::Zig,
        Lang::Assemblyscript,
        Lang::Wat,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Lang::Lua => "Lua",
            Lang::Rust => "Rust",
            Lang::C => "C",
            Lang::Zig => "Zig",
            Lang::Assemblyscript => "AssemblyScript",
            Lang::Wat => "WAT",
        }
    }

    /// The flag's value.
    pub fn flag(self) -> &'static str {
        match self {
            Lang::Lua => "lua",
            Lang::Rust => "rust",
            Lang::C => "c",
            Lang::Zig => "zig",
            Lang::Assemblyscript => "assemblyscript",
            Lang::Wat => "wat",
        }
    }

    /// The game's starter in this language, as the registry lists it.
    pub fn starter(self, templates: &crate::games::contract::Templates) -> Option<&'static str> {
        match self {
            Lang::Lua => templates.lua,
            Lang::Rust => templates.rust,
            Lang::C => templates.c,
            Lang::Zig => templates.zig,
            Lang::Assemblyscript => templates.assemblyscript,
            Lang::Wat => templates.wat,
        }
    }

    /// The kit's folder in `strategies/` (its SDK, and `kit/`: the build files and README).
    fn folder(self) -> &'static include_dir::Dir<'static> {
        match self {
            Lang::Lua => &LUA,
            Lang::Rust => &RUST,
            Lang::C => &C,
            Lang::Zig => &ZIG,
            Lang::Assemblyscript => &ASSEMBLYSCRIPT,
            Lang::Wat => &WAT,
        }
    }

    /// Where the starter goes in the kit, and where the SDK's core and the game's file go (for
    /// the languages with an SDK folder): `(bot, sdk folder, core, the game file's extension)`.
    fn layout(
        self,
    ) -> (
        &'static str,
        Option<(&'static str, &'static str, &'static str)>,
    ) {
        match self {
            Lang::Lua => ("bot.lua", None),
            Lang::Rust => ("src/lib.rs", None),
            Lang::C => ("bot.c", Some(("", "botbox.h", "h"))),
            Lang::Zig => ("src/bot.zig", Some(("src", "botbox.zig", "zig"))),
            Lang::Assemblyscript => ("assembly/index.ts", Some(("assembly", "botbox.ts", "ts"))),
            Lang::Wat => ("bot.wat", None),
        }
    }

    /// How the kit is built, in words for the next steps (`{{dir}}` is the kit).
    fn build(self) -> Option<&'static str> {
        match self {
            Lang::Lua | Lang::Wat => None,
            Lang::Rust => Some(
                "cd {{dir}} && cargo build --release --target wasm32-unknown-unknown   (rustup target add wasm32-unknown-unknown)",
            ),
            Lang::C => Some("sh {{dir}}/build.sh   (clang and wasm-ld: apt-get install clang lld)"),
            Lang::Zig => Some(
                "cd {{dir}} && zig build   (or python3 -m ziglang build, after pip install ziglang)",
            ),
            Lang::Assemblyscript => {
                Some("cd {{dir}} && npm install && npm run build   (Node.js with npm)")
            }
        }
    }
}

// Each language's folder, as this botbox was built with it (the `include_dir` crate embeds them).
static LUA: include_dir::Dir<'static> =
    include_dir::include_dir!("$CARGO_MANIFEST_DIR/../strategies/lua/kit");
static RUST: include_dir::Dir<'static> =
    include_dir::include_dir!("$CARGO_MANIFEST_DIR/../strategies/rust/kit");
static C: include_dir::Dir<'static> =
    include_dir::include_dir!("$CARGO_MANIFEST_DIR/../strategies/c");
static ZIG: include_dir::Dir<'static> =
    include_dir::include_dir!("$CARGO_MANIFEST_DIR/../strategies/zig");
static ASSEMBLYSCRIPT: include_dir::Dir<'static> =
    include_dir::include_dir!("$CARGO_MANIFEST_DIR/../strategies/assemblyscript");
static WAT: include_dir::Dir<'static> =
    include_dir::include_dir!("$CARGO_MANIFEST_DIR/../strategies/wat/kit");

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
    let files = kit(game, args.lang, &rules.info().templates, dir)?;
    for (path, text) in &files {
        let path = dir.join(path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("creating {}", parent.display()))?;
        }
        std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
        #[cfg(unix)]
        if path.extension().is_some_and(|e| e == "sh") {
            use std::os::unix::fs::PermissionsExt as _;
            let _ = std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755));
        }
    }
    let shown = dir.display().to_string();
    let (bot, _) = args.lang.layout();
    println!(
        "created a {game} bot in {} ({}, {})",
        shown,
        args.lang.name(),
        dir.join(bot).display()
    );
    let target = match args.lang {
        Lang::Lua => dir.join("bot.lua").display().to_string(),
        Lang::Wat => dir.join("bot.wat").display().to_string(),
        _ => shown.clone(),
    };
    match args.lang.build() {
        Some(build) => {
            println!("next (botbox builds it):\n  botbox check {game} {target}");
            println!(
                "to build it yourself:\n  {}",
                build.replace("{{dir}}", &shown)
            );
        }
        None => println!("next:\n  botbox check {game} {target}"),
    }
    println!(
        "docs: {}/README.md, docs/{game}.md (the rules), docs/bots/{}.md",
        shown,
        args.lang.flag()
    );
    Ok(ExitCode::SUCCESS)
}

/// The files of `game`'s kit in `lang`, for the directory `dir`: the starter, the SDK's core and
/// the game's file where the language has an SDK folder (the Rust crate: its manifest and its copy
/// of the SDK), and every file of the folder's `kit/` with `{{game}}` and `{{dir}}` filled in.
pub fn kit(
    game: &str,
    lang: Lang,
    templates: &crate::games::contract::Templates,
    dir: &Path,
) -> anyhow::Result<Vec<(PathBuf, String)>> {
    let Some(starter) = lang.starter(templates) else {
        let has: Vec<String> = Lang::ALL
            .into_iter()
            .filter(|l| l.starter(templates).is_some())
            .map(|l| format!("--lang {}", l.flag()))
            .collect();
        bail!(
            "there is no {} starter for {game}: it has {}",
            lang.name(),
            has.join(", ")
        );
    };
    let fill = |text: &str| {
        text.replace("{{game}}", game)
            .replace("{{dir}}", &dir.display().to_string())
    };
    let (bot, sdk) = lang.layout();
    let mut files = match lang {
        Lang::Rust => rust(starter, &crate_name(dir)),
        _ => vec![(PathBuf::from(bot), starter.to_string())],
    };
    let folder = lang.folder();
    if let Some((sdk_dir, core, ext)) = sdk {
        for name in [core.to_string(), format!("{game}.{ext}")] {
            let file = folder
                .get_file(&name)
                .with_context(|| format!("the {} SDK has no {name}", lang.name()))?;
            let text = file.contents_utf8().context("the SDK's files are UTF-8")?;
            files.push((Path::new(sdk_dir).join(&name), text.to_string()));
        }
    }
    // The kit's build files and README: `kit/` in a language's SDK folder, the folder itself else.
    let kit = folder.get_dir("kit").unwrap_or(folder);
    for file in kit.files() {
        let name = file.path().strip_prefix(kit.path()).unwrap_or(file.path());
        let text = file.contents_utf8().context("the kit's files are UTF-8")?;
        files.push((name.to_path_buf(), fill(text)));
    }
    Ok(files)
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
