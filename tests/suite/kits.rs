//! Every game's starter kit in every language (`botbox new <game> <dir> --lang ...`): it builds
//! with its language's own tool, `botbox check` builds and passes it, it decides exactly as the Lua
//! starter does on a recorded game (so its SDK reads every observation and writes every answer
//! right), it beats the game's random player in a 20-game match, and a league takes its upload.
//!
//! The toolchains come from the registries (`.ci/run` installs them): clang and lld from Debian,
//! Zig from PyPI (`ziglang`), AssemblyScript from npm, Rust's wasm32 target from rustup. A language
//! whose tool is missing is skipped with the reason, unless `BOTBOX_REQUIRE_KITS` is set.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

use crate::util::{at, botbox, scratch, stdout};

/// The languages `botbox new` knows, as its `--lang` takes them.
const LANGS: [&str; 6] = ["lua", "rust", "c", "zig", "assemblyscript", "wat"];

/// Runs `program args` in `dir`; its output.
fn run_in(dir: &Path, program: &str, args: &[&str], env: &[(&str, &Path)]) -> Output {
    let mut command = Command::new(program);
    command.args(args).current_dir(dir);
    for (key, value) in env {
        command.env(key, value);
    }
    command
        .output()
        .unwrap_or_else(|e| panic!("{program} {args:?} in {}: {e}", dir.display()))
}

fn ok(out: &Output, what: &str) {
    assert!(
        out.status.success(),
        "{what}: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Whether `program args` runs and succeeds here.
fn works(program: &str, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Zig as the kits find it: a `zig` on the PATH, else PyPI's through Python.
fn zig() -> Option<Vec<&'static str>> {
    if works("zig", &["version"]) {
        return Some(vec!["zig"]);
    }
    works("python3", &["-m", "ziglang", "version"]).then(|| vec!["python3", "-m", "ziglang"])
}

/// Why `lang`'s kits cannot be built here, if they cannot.
fn missing(lang: &str) -> Option<&'static str> {
    match lang {
        "c" if !works("clang", &["--version"]) || !works("wasm-ld", &["--version"]) => {
            Some("clang and wasm-ld (apt-get install clang lld)")
        }
        "zig" if zig().is_none() => Some("Zig (pip install ziglang)"),
        "assemblyscript" if !works("npm", &["--version"]) => Some("npm (Node.js 20 or newer)"),
        _ => None,
    }
}

/// The game's Lua starter's game, recorded, and the seats it sat in.
fn recorded(game: &str, dir: &Path) -> (PathBuf, Vec<usize>) {
    let path = |p: &str| at(p).display().to_string();
    let lua = path(&format!("strategies/templates/{game}.lua"));
    let random = path(&format!("strategies/lua/{game}/random.lua"));
    let replays = dir.join("replays").display().to_string();
    let mut args: Vec<String> = match game {
        "2048" => vec!["bench".into(), "2048".into(), lua.clone()],
        "bs" => {
            let mut a = vec![
                "tournament".into(),
                "bs".into(),
                "--players".into(),
                lua.clone(),
            ];
            a.extend((1..=3).map(|i| path(&format!("strategies/lua/bs/player{i}.lua"))));
            a
        }
        "worms" => vec![
            "match".into(),
            "worms".into(),
            lua.clone(),
            random,
            "--map".into(),
            path("examples/worms/arena.txt"),
        ],
        _ => vec!["match".into(), game.into(), lua.clone(), random],
    };
    args.extend([
        "--games".into(),
        "1".into(),
        "--replay-dir".into(),
        replays.clone(),
    ]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    ok(&botbox(&args), &format!("{args:?}"));
    with_seats(
        &Path::new(&replays).join(format!("{game}-0001.jsonl")),
        &lua,
    )
}

/// The replay and the seats `lua` sat in.
fn with_seats(file: &Path, lua: &str) -> (PathBuf, Vec<usize>) {
    let replay = botbox::replay::read(file).unwrap();
    let seats = replay
        .header
        .strategies
        .iter()
        .enumerate()
        .filter(|(_, s)| s.path == lua)
        .map(|(seat, _)| seat)
        .collect();
    (file.to_path_buf(), seats)
}

/// Builds the kit in `dir` with its language's own tool; the module it makes (the source itself
/// for Lua and WAT).
fn build(lang: &str, game: &str, dir: &Path, shared: &Path) -> PathBuf {
    match lang {
        "lua" => dir.join("bot.lua"),
        "wat" => dir.join("bot.wat"),
        "c" => {
            ok(&run_in(dir, "sh", &["build.sh"], &[]), "sh build.sh");
            dir.join("bot.wasm")
        }
        "zig" => {
            let zig = zig().unwrap();
            let mut args = zig[1..].to_vec();
            args.push("build");
            ok(&run_in(dir, zig[0], &args, &[]), "zig build");
            dir.join("zig-out/bin/bot.wasm")
        }
        "assemblyscript" => {
            // One `npm install` serves every kit (the same package.json but for the name): the
            // others link its node_modules.
            let modules = shared.join("node_modules");
            if modules.is_dir() {
                std::os::unix::fs::symlink(&modules, dir.join("node_modules")).unwrap();
            } else {
                ok(
                    &run_in(dir, "npm", &["install", "--no-audit", "--no-fund"], &[]),
                    "npm install",
                );
                std::fs::rename(dir.join("node_modules"), &modules).unwrap();
                std::os::unix::fs::symlink(&modules, dir.join("node_modules")).unwrap();
            }
            ok(&run_in(dir, "npm", &["run", "build"], &[]), "npm run build");
            dir.join("build/bot.wasm")
        }
        "rust" => {
            // One target directory for every kit's crate, so the SDK's dependencies build once.
            let target = shared.join("cargo-target");
            let out = run_in(
                dir,
                "cargo",
                &[
                    "build",
                    "--release",
                    "--quiet",
                    "--target",
                    "wasm32-unknown-unknown",
                ],
                &[("CARGO_TARGET_DIR", &target)],
            );
            ok(&out, "cargo build");
            let name = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
            let name = name
                .lines()
                .find_map(|l| l.strip_prefix("name = \""))
                .unwrap()
                .trim_end_matches('"')
                .replace('-', "_");
            target.join(format!("wasm32-unknown-unknown/release/{name}.wasm"))
        }
        other => panic!("no build for {other} ({game})"),
    }
}

/// The kit's module against the game's random player, 20 games: what it won, in words, and
/// whether that is more than half (for 2048: more than half of the games reach a 256 tile, and the
/// largest tiles average 256 or more).
fn against_random(game: &str, module: &Path, dir: &Path) -> (String, bool) {
    let m = module.to_str().unwrap();
    let random = at(&format!("strategies/lua/{game}/random.lua"));
    let random = random.to_str().unwrap();
    let report = dir.join("report.json");
    let report_s = report.to_str().unwrap();
    let maps = at("examples/worms");
    match game {
        "2048" => {
            let out = botbox(&["bench", "2048", m, "--games", "20", "--json", report_s]);
            ok(&out, "bench 2048");
            let r: Value =
                serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
            let tiles: Vec<u64> = r["games"]
                .as_array()
                .unwrap()
                .iter()
                .map(|g| g["details"]["max_tile"].as_u64().unwrap())
                .collect();
            assert_eq!(tiles.len(), 20, "2048: {r}");
            let reached = tiles.iter().filter(|&&t| t >= 256).count();
            let mean = tiles.iter().sum::<u64>() / 20;
            (
                format!("{reached} of 20 reach 256, largest tile {mean} on average"),
                reached > 10 && mean >= 256,
            )
        }
        "bs" => {
            let out = botbox(&["check", "bs", m, "--games", "20"]);
            ok(&out, "check bs");
            let first = stdout(&out).matches("place 1 of").count();
            (format!("first in {first} of 20"), first > 10)
        }
        _ => {
            let mut args = vec![
                "match", game, m, random, "--games", "20", "--json", report_s,
            ];
            if game == "worms" {
                args.extend(["--maps", maps.to_str().unwrap()]);
            }
            if game == "dice" {
                // Both with the bundled file's first die, the common one (1 to 6).
                args.extend(["--die", "1"]);
            }
            let out = botbox(&args);
            ok(&out, &format!("{args:?}"));
            let r: Value =
                serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
            let own = r["standings"]
                .as_array()
                .unwrap()
                .iter()
                .find(|s| !s["name"].as_str().unwrap().contains("random"))
                .unwrap()
                .clone();
            let (wins, faults) = (own["wins"].as_u64().unwrap(), &own["faults"]);
            assert!(
                faults.as_object().is_none_or(|f| f.is_empty()),
                "{game}: faults {faults}"
            );
            (format!("won {wins} of 20"), wins > 10)
        }
    }
}

#[test]
fn every_game_has_a_starter_kit_in_every_language_that_builds_plays_and_uploads() {
    let dir = scratch("kits");
    let require = std::env::var_os("BOTBOX_REQUIRE_KITS").is_some();
    let langs: Vec<&str> = LANGS
        .into_iter()
        .filter(|lang| match missing(lang) {
            Some(what) => {
                assert!(!require, "BOTBOX_REQUIRE_KITS is set but {what} is missing");
                eprintln!("kits: {lang} skipped, it needs {what}");
                false
            }
            None => true,
        })
        .collect();
    let league =
        crate::league::League::start(&dir, dir.join("league.db").to_str().unwrap(), 1, &[]);
    let token = league.user("kits");
    let games: Value = serde_json::from_str(&stdout(&botbox(&["games", "--json"]))).unwrap();
    let mut table = Vec::new();
    for g in games.as_array().unwrap() {
        let game = g["name"].as_str().unwrap();
        // The registry lists a kit in every language for every game.
        assert_eq!(g["kits"], serde_json::json!(LANGS), "{game}'s kits");
        let (replay, seats) = recorded(game, &dir.join(game));
        assert!(!seats.is_empty(), "{game}: the Lua starter sat nowhere");
        let replay_s = replay.to_str().unwrap();
        for lang in &langs {
            let kit = dir.join(format!("{game}-{lang}"));
            let kit_s = kit.to_str().unwrap();
            ok(
                &botbox(&["new", game, kit_s, "--lang", lang]),
                &format!("new {game} --lang {lang}"),
            );
            assert!(kit.join("README.md").is_file(), "{game} {lang}: a README");
            let module = build(lang, game, &kit, &dir);
            assert!(
                module.is_file(),
                "{game} {lang}: {} built",
                module.display()
            );
            // botbox builds the directory itself, as a user checks it.
            let checked = botbox(&["check", game, kit_s, "--games", "3"]);
            ok(&checked, &format!("check {game} {lang}"));
            assert!(stdout(&checked).contains("result      ok"), "{game} {lang}");
            // The same choices as the Lua starter at every turn of its seats.
            let m = module.to_str().unwrap();
            for seat in &seats {
                let seat = seat.to_string();
                let again = botbox(&["replay", replay_s, "--seat", &seat, "--with", m]);
                ok(&again, &format!("replay --with {game} {lang}"));
                assert!(
                    stdout(&again).contains(" differs at 0 of "),
                    "{game} {lang}, seat {seat}: {}",
                    stdout(&again)
                );
            }
            let (said, beats) = against_random(game, &module, &kit);
            assert!(beats, "{game} {lang} against random: {said}");
            // A league takes it (the directory, built by the client; WAT compiled by it).
            let name = format!("kit-{game}-{lang}");
            let up = botbox(&[
                "league",
                "upload",
                kit_s,
                "--game",
                game,
                "--name",
                &name,
                "--server",
                &league.url,
                "--token",
                &token,
            ]);
            ok(&up, &format!("upload {game} {lang}"));
            assert!(stdout(&up).contains("is on the"), "{}", stdout(&up));
            let size = std::fs::metadata(&module).map(|m| m.len()).unwrap_or(0);
            table.push(format!("{game:9} {lang:15} {said:20} {size} bytes"));
        }
    }
    eprintln!("{}", table.join("\n"));
    league.stop();
}
