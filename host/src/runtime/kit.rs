//! Building a bot's directory into its module, with the directory's own tool: a Rust crate
//! (`Cargo.toml`), a Zig kit (`build.zig`), an AssemblyScript kit (`package.json`), a C kit
//! (`build.sh`), or a WAT or Lua kit (`bot.wat`, `bot.lua`: nothing to build). `botbox new` writes such directories;
//! `botbox check`, `match` and the other commands take them as they take a file. The tool's own
//! messages are the error when the build fails; a missing tool is named with how to install it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use super::LoadError;

/// The kinds of directory a bot may be, in the order they are looked for.
const KINDS: &str = "Cargo.toml (Rust), build.zig (Zig), package.json (AssemblyScript), build.sh \
                     (C), bot.wat (WAT) or bot.lua (Lua)";

/// The module the bot directory `dir` builds into (or its `bot.wat`), built now.
pub fn build_dir(dir: &Path) -> Result<PathBuf, LoadError> {
    let fail = |message: String| LoadError::Build {
        path: dir.to_path_buf(),
        message,
    };
    if dir.join("Cargo.toml").is_file() {
        return super::source::build_rust_crate(dir);
    }
    if dir.join("build.zig").is_file() {
        let zig = zig().ok_or_else(|| {
            fail(
                "it is a Zig kit, and no Zig is installed: `pip install ziglang` (then botbox \
                  runs `python3 -m ziglang`), or a `zig` 0.17 on the PATH"
                    .into(),
            )
        })?;
        let mut build = zig;
        build.arg("build").current_dir(dir);
        run(&mut build, "zig build").map_err(fail)?;
        return found(dir, &["zig-out/bin/bot.wasm"]).map_err(fail);
    }
    if dir.join("package.json").is_file() {
        if !tool("npm", &["--version"]) {
            return Err(fail(
                "it is an AssemblyScript kit, and npm is not installed: install Node.js with npm \
                 (`apt-get install nodejs npm`)"
                    .into(),
            ));
        }
        if !dir.join("node_modules").is_dir() {
            let mut install = Command::new("npm");
            install
                .args(["install", "--no-audit", "--no-fund", "--loglevel=error"])
                .current_dir(dir);
            run(&mut install, "npm install").map_err(fail)?;
        }
        let mut build = Command::new("npm");
        build.args(["run", "--silent", "build"]).current_dir(dir);
        run(&mut build, "npm run build").map_err(fail)?;
        return found(dir, &["build/bot.wasm"]).map_err(fail);
    }
    if dir.join("build.sh").is_file() {
        // The kit's script names what it is missing itself (clang, wasm-ld).
        let mut build = Command::new("sh");
        build.arg("build.sh").current_dir(dir);
        run(&mut build, "sh build.sh").map_err(fail)?;
        return found(dir, &["bot.wasm"]).map_err(fail);
    }
    for file in ["bot.wat", "bot.lua"] {
        if dir.join(file).is_file() {
            return Ok(dir.join(file));
        }
    }
    Err(fail(format!(
        "not a bot's directory: it has none of {KINDS} (`botbox new <game> <dir> --lang ...` \
         writes one)"
    )))
}

/// Zig as this machine has it: a `zig` on the PATH, else PyPI's `ziglang` through Python.
fn zig() -> Option<Command> {
    if tool("zig", &["version"]) {
        return Some(Command::new("zig"));
    }
    tool("python3", &["-m", "ziglang", "version"]).then(|| {
        let mut c = Command::new("python3");
        c.args(["-m", "ziglang"]);
        c
    })
}

/// Whether `program args` runs and succeeds.
fn tool(program: &str, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Runs a build command; its output is the error when it fails.
fn run(command: &mut Command, name: &str) -> Result<Output, String> {
    // A first build can take a minute (Zig builds its build runner once per machine).
    if let Some(dir) = command.get_current_dir() {
        eprintln!("building {} ({name})", dir.display());
    }
    let output = command
        .output()
        .map_err(|e| format!("cannot run `{name}`: {e}"))?;
    if output.status.success() {
        return Ok(output);
    }
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    Err(format!(
        "`{name}` failed ({}):\n{}",
        output.status,
        text.trim_end()
    ))
}

/// The first of `candidates` (relative to `dir`) that the build made.
fn found(dir: &Path, candidates: &[&str]) -> Result<PathBuf, String> {
    candidates
        .iter()
        .map(|c| dir.join(c))
        .find(|p| p.is_file())
        .ok_or_else(|| {
            format!(
                "the build succeeded but made no {}",
                candidates.join(" or ")
            )
        })
}
