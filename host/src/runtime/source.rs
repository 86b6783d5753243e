//! Reading strategy files: the kind by extension (or, for an external program, by its executable
//! bit), the content hash that names a version, and building a Rust guest crate directory into its
//! `.wasm` with cargo.

use std::io::Read;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest, Sha256};

use super::LoadError;

/// What a strategy file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceKind {
    Lua,
    Wasm,
    Wat,
    /// An executable file of any other name: an external program (see `docs/protocols/`).
    Program,
}

impl SourceKind {
    /// The kind a file's extension names; never [`SourceKind::Program`], which [`SourceKind::detect`]
    /// tells by the file's mode.
    pub fn of(path: &Path) -> Option<SourceKind> {
        match path.extension()?.to_str()? {
            "lua" | "luau" => Some(SourceKind::Lua),
            "wasm" => Some(SourceKind::Wasm),
            "wat" => Some(SourceKind::Wat),
            _ => None,
        }
    }

    /// The kind of the file at `path`: by its extension, else a program if it is a regular file that
    /// someone may execute.
    pub fn detect(path: &Path) -> Option<SourceKind> {
        SourceKind::of(path).or_else(|| {
            let meta = std::fs::metadata(path).ok()?;
            (meta.is_file() && meta.permissions().mode() & 0o111 != 0)
                .then_some(SourceKind::Program)
        })
    }
}

#[derive(Debug)]
pub(super) struct Source {
    pub kind: SourceKind,
    pub name: String,
    /// The path as the user wrote it, for messages (`strategies/lua/x.lua:12: ...`).
    pub display: String,
    /// The file's bytes; empty for a program, which is run, not compiled.
    pub bytes: Vec<u8>,
    pub hash: String,
}

/// Larger files are refused before any parsing: compile time grows with module size.
const MAX_BYTES: u64 = 16 << 20;

pub(super) fn read(path: &Path) -> Result<Source, LoadError> {
    // A path that is not there is said so, whatever its name (a directory too).
    if let Err(error) = std::fs::metadata(path) {
        return Err(LoadError::Read {
            path: path.to_path_buf(),
            error,
        });
    }
    let file = if path.is_dir() {
        super::kit::build_dir(path)?
    } else {
        path.to_path_buf()
    };
    let kind = SourceKind::detect(&file).ok_or_else(|| LoadError::UnknownKind {
        path: path.to_path_buf(),
    })?;
    let read_err = |error| LoadError::Read {
        path: file.clone(),
        error,
    };
    let (bytes, hash) = if kind == SourceKind::Program {
        (Vec::new(), sha256_file(&file).map_err(read_err)?)
    } else {
        let len = std::fs::metadata(&file).map_err(read_err)?.len();
        if len > MAX_BYTES {
            let e =
                std::io::Error::other(format!("{len} bytes is over the {MAX_BYTES}-byte limit"));
            return Err(read_err(e));
        }
        let bytes = std::fs::read(&file).map_err(read_err)?;
        let hash = sha256_hex(&bytes);
        (bytes, hash)
    };
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    Ok(Source {
        kind,
        name,
        // A directory's messages name the file it built into (`kit/bot.wat:3:7: ...`).
        display: file.display().to_string(),
        hash,
        bytes,
    })
}

/// The SHA-256 of a file of any size (a program's binary may be large), read in chunks.
fn sha256_file(path: &Path) -> std::io::Result<String> {
    let mut file = std::fs::File::open(path)?;
    let mut hasher = Sha256::new();
    let mut chunk = vec![0; 64 << 10];
    loop {
        match file.read(&mut chunk)? {
            0 => break,
            n => hasher.update(&chunk[..n]),
        }
    }
    Ok(hex(&hasher.finalize()))
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// Bytes (a digest) as lowercase hex.
pub fn hex(digest: &[u8]) -> String {
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// The compiler errors in cargo's JSON messages, as rustc rendered them.
fn rendered_errors(stdout: &str) -> String {
    stdout
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|m| m["reason"] == "compiler-message" && m["message"]["level"] == "error")
        .filter_map(|m| m["message"]["rendered"].as_str().map(str::to_string))
        .collect()
}

/// The target strategies are compiled for.
pub const WASM_TARGET: &str = "wasm32-unknown-unknown";

/// Builds the Rust guest crate in `dir` for wasm32 in release mode and returns the path of its `.wasm`.
/// Needs `cargo` on the PATH; the wasm32 target is added with rustup when it is missing.
pub fn build_rust_crate(dir: &Path) -> Result<PathBuf, LoadError> {
    let fail = |message: String| LoadError::Build {
        path: dir.to_path_buf(),
        message,
    };
    let manifest = dir.join("Cargo.toml");
    if !manifest.is_file() {
        return Err(fail("no Cargo.toml in this directory".into()));
    }
    let args = [
        "--message-format=json".into(),
        "--manifest-path".into(),
        manifest.into_os_string(),
    ];
    let stdout = cargo_build_wasm(&args, None).map_err(fail)?;
    wasm_artifact(&stdout)
        .ok_or_else(|| fail("cargo built no .wasm file (is crate-type \"cdylib\" set?)".into()))
}

/// Builds `packages` of the cargo workspace at `workspace` for wasm32 in release mode, into
/// `target_dir`, and returns the directory that holds their `.wasm` files. The tests and benchmarks
/// build the bundled Rust strategies this way (in a target directory of their own, so the outer
/// cargo's lock is never contended).
pub fn build_wasm_packages(
    workspace: &Path,
    packages: &[&str],
    target_dir: &Path,
) -> Result<PathBuf, LoadError> {
    let mut args = vec![
        "--manifest-path".into(),
        workspace.join("Cargo.toml").into_os_string(),
    ];
    args.extend(packages.iter().flat_map(|p| ["-p".into(), (*p).into()]));
    cargo_build_wasm(&args, Some(target_dir)).map_err(|message| LoadError::Build {
        path: workspace.to_path_buf(),
        message,
    })?;
    Ok(target_dir.join(WASM_TARGET).join("release"))
}

/// Runs `cargo build --release --target wasm32-unknown-unknown ARGS` and returns its standard output.
/// If the target is missing (rust-toolchain.toml names it, but rustup 1.28+ adds targets only when it
/// installs a toolchain), adds it with rustup and tries once more.
fn cargo_build_wasm(
    args: &[std::ffi::OsString],
    target_dir: Option<&Path>,
) -> Result<String, String> {
    let run = || {
        let mut cmd = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
        cmd.args(["build", "--release", "--quiet", "--target", WASM_TARGET])
            .args(args);
        if let Some(dir) = target_dir {
            cmd.env("CARGO_TARGET_DIR", dir);
        }
        cmd.output().map_err(|e| format!("cannot run cargo: {e}"))
    };
    let mut output = run()?;
    let missing_target = |o: &std::process::Output| {
        target_missing(
            &String::from_utf8_lossy(&o.stdout),
            &String::from_utf8_lossy(&o.stderr),
        )
    };
    if !output.status.success() && missing_target(&output) {
        eprintln!(
            "note: the {WASM_TARGET} target is not installed; adding it with `rustup target add \
             {WASM_TARGET}` and building again"
        );
        let _ = Command::new("rustup")
            .args(["target", "add", WASM_TARGET])
            .output();
        output = run()?;
    }
    if !output.status.success() {
        // With `--message-format=json`, rustc's own messages are JSON on standard output: show the
        // errors as rustc rendered them (file, line, the code and the hint), then cargo's summary.
        let rendered = rendered_errors(&String::from_utf8_lossy(&output.stdout));
        let mut message = String::from_utf8_lossy(&output.stderr).trim().to_string();
        if !rendered.is_empty() {
            message = format!("{}\n{message}", rendered.trim_end());
        }
        if missing_target(&output) {
            message.push_str("\nhint: run `rustup target add wasm32-unknown-unknown`");
        }
        return Err(message);
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// Whether a failed build failed for want of the wasm32 target: rustc's note says so on standard
/// error, or, with `--message-format=json`, inside its JSON messages on standard output (where
/// the error itself reads "can't find crate for `std`").
fn target_missing(stdout: &str, stderr: &str) -> bool {
    let note = format!("the `{WASM_TARGET}` target may not be installed");
    stderr.contains(&note) || stdout.contains(&note)
}

/// The last `.wasm` file among cargo's `compiler-artifact` messages.
fn wasm_artifact(messages: &str) -> Option<PathBuf> {
    messages
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|m| m["reason"] == "compiler-artifact")
        .flat_map(|m| m["filenames"].as_array().cloned().unwrap_or_default())
        .filter_map(|f| f.as_str().map(PathBuf::from))
        .rfind(|f| f.extension().is_some_and(|e| e == "wasm"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// rustc's message when the target is missing, as cargo prints it with `--message-format=json`
    /// (on standard output; standard error says only that the crate did not compile) and without.
    #[test]
    fn a_missing_target_is_recognised_in_json_messages_and_plain_ones() {
        let json = r#"{"reason":"compiler-message","message":{"rendered":"error[E0463]: can't find crate for `std`\n  |\n  = note: the `wasm32-unknown-unknown` target may not be installed\n  = help: consider downloading the target with `rustup target add wasm32-unknown-unknown`\n\n","children":[{"level":"note","message":"the `wasm32-unknown-unknown` target may not be installed"}],"level":"error","message":"can't find crate for `std`"}}"#;
        let stderr = "error: could not compile `tgt` (lib) due to 1 previous error";
        assert!(target_missing(json, stderr));
        let plain = "error[E0463]: can't find crate for `std`\n  = note: the `wasm32-unknown-unknown` target may not be installed";
        assert!(target_missing("", plain));
        // Another target, or another error, is not this one.
        assert!(!target_missing(
            &json.replace("unknown-unknown", "wasip1"),
            stderr
        ));
        assert!(!target_missing(
            "",
            "error[E0425]: cannot find value `x` in this scope"
        ));
    }

    #[test]
    fn kinds_come_from_extensions() {
        let check =
            |p: &str, k: Option<SourceKind>| assert_eq!(SourceKind::of(Path::new(p)), k, "{p}");
        check("a/b.lua", Some(SourceKind::Lua));
        check("b.luau", Some(SourceKind::Lua));
        check("b.wasm", Some(SourceKind::Wasm));
        check("b.wat", Some(SourceKind::Wat));
        check("b.py", None);
        check("b", None);
    }

    #[test]
    fn executables_are_programs_unless_their_extension_says_otherwise() {
        let dir = std::env::temp_dir().join(format!("botbox-source-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let make = |name: &str, mode: u32| {
            let file = dir.join(name);
            std::fs::write(&file, "#!/bin/sh\n").unwrap();
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(mode)).unwrap();
            file
        };
        assert_eq!(
            SourceKind::detect(&make("bot", 0o755)),
            Some(SourceKind::Program)
        );
        assert_eq!(
            SourceKind::detect(&make("bot.py", 0o700)),
            Some(SourceKind::Program)
        );
        assert_eq!(SourceKind::detect(&make("plain.py", 0o644)), None);
        assert_eq!(
            SourceKind::detect(&make("x.lua", 0o755)),
            Some(SourceKind::Lua)
        );
        assert_eq!(SourceKind::detect(&dir), None);
        assert_eq!(
            sha256_file(&make("abc", 0o755)).unwrap(),
            sha256_hex(b"#!/bin/sh\n")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_wasm_artifact_is_found_among_cargo_messages() {
        let msgs = r#"{"reason":"compiler-artifact","filenames":["/t/libserde.rlib"]}
{"reason":"compiler-artifact","filenames":["/t/x.rlib","/t/wasm32-unknown-unknown/release/x.wasm"]}
{"reason":"build-finished","success":true}"#;
        assert_eq!(
            wasm_artifact(msgs),
            Some(PathBuf::from("/t/wasm32-unknown-unknown/release/x.wasm"))
        );
        assert_eq!(wasm_artifact("{\"reason\":\"build-finished\"}"), None);
    }

    #[test]
    fn hashes_are_sha256_hex() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
