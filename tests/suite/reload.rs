//! Hot reload with the real file watcher (inotify on Linux) on a scratch directory: an in-place write,
//! a rename-over save, a delete and re-create, a burst of saves and a save with a syntax error.

use crate::util;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use botbox::reload::{self, Reload, Watcher};
use botbox::runtime::{Limits, source_hash};
use util::scratch;

const WAIT: Duration = Duration::from_secs(10);

fn bot(version: u32) -> String {
    format!(
        "-- version {version}\nreturn {{ choose_move = function(obs) return obs.legal[1] end }}\n"
    )
}

/// A scratch directory with `bot.lua` at version 0, watched.
fn setup(name: &str) -> (PathBuf, Watcher) {
    let dir = scratch(&format!("reload/{name}"));
    let file = dir.join("bot.lua");
    std::fs::write(&file, bot(0)).unwrap();
    let hash = source_hash(bot(0).as_bytes());
    let watcher = reload::watch(&[(file.clone(), hash)], |_, path| {
        botbox::hosted::load(path, &Limits::default()).map_err(|e| e.to_string())
    })
    .unwrap();
    (file, watcher)
}

/// The next message, which must come within [`WAIT`].
fn next(watcher: &Watcher) -> Reload {
    watcher
        .next(WAIT)
        .expect("the watcher reports the save within 10 s")
}

fn assert_updated_to(message: Reload, content: &str) {
    match message {
        Reload::Updated { index, strategy } => {
            assert_eq!(index, 0);
            assert_eq!(strategy.hash(), source_hash(content.as_bytes()));
        }
        Reload::Failed { error, .. } => panic!("expected a new version, got: {error}"),
    }
}

fn quiet(watcher: &Watcher, for_: Duration) {
    let extra = watcher.next(for_);
    assert!(extra.is_none(), "no further message expected: {extra:?}");
}

#[test]
fn an_in_place_write_is_a_new_version() {
    let (file, watcher) = setup("in-place");
    std::fs::write(&file, bot(1)).unwrap();
    assert_updated_to(next(&watcher), &bot(1));
    quiet(&watcher, Duration::from_millis(800));
}

#[test]
fn a_rename_over_save_is_seen_and_the_watch_survives_it() {
    let (file, watcher) = setup("rename");
    for version in 1..=2 {
        let temp = file.with_file_name(".bot.lua.swp");
        std::fs::write(&temp, bot(version)).unwrap();
        std::fs::rename(&temp, &file).unwrap();
        assert_updated_to(next(&watcher), &bot(version));
    }
}

#[test]
fn a_deleted_file_changes_nothing_until_it_is_created_again() {
    let (file, watcher) = setup("delete");
    std::fs::remove_file(&file).unwrap();
    quiet(&watcher, Duration::from_millis(800));
    std::fs::write(&file, bot(3)).unwrap();
    assert_updated_to(next(&watcher), &bot(3));
}

#[test]
fn a_burst_of_twenty_saves_ends_on_the_last_version_in_few_reloads() {
    let (file, watcher) = setup("burst");
    for version in 1..=20 {
        std::fs::write(&file, bot(version)).unwrap();
        std::thread::sleep(Duration::from_millis(10));
    }
    let mut reloads = vec![next(&watcher)];
    let deadline = Instant::now() + Duration::from_secs(2);
    while let Some(m) = watcher.next(deadline.saturating_duration_since(Instant::now())) {
        reloads.push(m);
    }
    assert!(
        reloads.len() <= 5,
        "{} reloads for one burst",
        reloads.len()
    );
    assert_updated_to(reloads.pop().unwrap(), &bot(20));
}

#[test]
fn a_save_that_does_not_load_is_reported_with_file_and_line_and_a_fix_is_picked_up() {
    let (file, watcher) = setup("syntax");
    std::fs::write(
        &file,
        "return {\n  choose_move = function(obs)\n    return obs.legal[1\n  end,\n}\n",
    )
    .unwrap();
    match next(&watcher) {
        Reload::Failed { error, path, .. } => {
            assert_eq!(path.file_name(), file.file_name());
            assert!(error.contains("bot.lua:"), "names the file: {error}");
            assert!(
                error.contains(":3:") || error.contains(":4:"),
                "names the line: {error}"
            );
        }
        Reload::Updated { .. } => panic!("a file with a syntax error must not load"),
    }
    std::fs::write(&file, bot(5)).unwrap();
    assert_updated_to(next(&watcher), &bot(5));
    assert!(Path::new(&file).exists());
}

#[test]
fn a_tournament_with_watch_plays_a_saved_version_from_the_next_game_on() {
    let dir = scratch("reload/tournament");
    let file = dir.join("bot.lua");
    let random = std::fs::read_to_string(util::at("strategies/lua/worms/random.lua")).unwrap();
    let greedy = std::fs::read_to_string(util::at("strategies/lua/worms/greedy.lua")).unwrap();
    std::fs::write(&file, &random).unwrap();
    let json = dir.join("standings.json");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_botbox"))
        .current_dir(util::repo())
        .args(["tournament", "worms", "--players", file.to_str().unwrap()])
        .args([
            "strategies/lua/worms/random.lua",
            "--maps",
            "examples/worms/tutorial.txt",
        ])
        .args([
            "--games",
            "2000",
            "--jobs",
            "1",
            "--reload",
            "--json",
            json.to_str().unwrap(),
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until the watcher is up (its first message), then save the new version.
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut first = String::new();
    std::io::BufRead::read_line(&mut stderr, &mut first).unwrap();
    assert!(first.contains("watching"), "{first}");
    std::thread::sleep(Duration::from_millis(300));
    std::fs::write(&file, &greedy).unwrap();
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut rest).unwrap();
    assert!(child.wait().unwrap().success(), "{rest}");
    assert!(rest.contains("reloaded"), "{rest}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let new_name = format!("bot@{}", &source_hash(greedy.as_bytes())[..8]);
    let names: Vec<&str> = report["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["bot", "random", new_name.as_str()]);
    let games = report["games"].as_array().unwrap();
    let played = |name: &str| {
        games
            .iter()
            .filter(|g| g["players"].as_array().unwrap().iter().any(|p| p == name))
            .count()
    };
    assert!(
        played("bot") > 0 && played(&new_name) > 0,
        "both versions played"
    );
    // Old and new never mix: each game names one version, with its hash.
    let greedy_hash = source_hash(greedy.as_bytes());
    for g in games {
        for (seat, name) in g["players"].as_array().unwrap().iter().enumerate() {
            if name == new_name.as_str() {
                assert_eq!(g["sha256"][seat], greedy_hash.as_str());
            }
        }
    }
    // Once the new version plays, every later game uses it.
    let first_new = games
        .iter()
        .position(|g| {
            g["players"]
                .as_array()
                .unwrap()
                .iter()
                .any(|p| p == new_name.as_str())
        })
        .unwrap();
    assert!(
        games[first_new..].iter().all(|g| !g["players"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p == "bot"))
    );
}

/// A new Connect Four WAT kit in `reload/<name>/kit`, its module, and a watcher on it that loads
/// each new version.
fn watched_kit(name: &str) -> (PathBuf, botbox::runtime::Strategy, Watcher) {
    let kit = scratch(&format!("reload/{name}")).join("kit");
    let out = util::botbox(&["new", "connect4", kit.to_str().unwrap(), "--lang", "wat"]);
    assert!(out.status.success(), "{out:?}");
    let module = botbox::hosted::load(&kit, &Limits::default()).unwrap();
    let watcher = reload::watch(&[(kit.clone(), module.hash().to_string())], |_, path| {
        botbox::hosted::load(path, &Limits::default()).map_err(|e| e.to_string())
    })
    .unwrap();
    (kit, module, watcher)
}

/// A bot's directory (a starter kit) is watched whole: a save in one of its source folders is a new
/// version, built again by `load`; a save of what its build makes is not; a save that does not
/// build is reported with the tool's message.
#[test]
fn a_kit_directory_is_watched_whole_and_built_again() {
    let (kit, module, watcher) = watched_kit("kit");
    // What a build would make is not a source: nothing happens.
    std::fs::write(kit.join("bot.wasm"), b"\0asm").unwrap();
    quiet(&watcher, Duration::from_secs(1));
    // A change to the bot's text is a new version.
    let text = std::fs::read_to_string(kit.join("bot.wat")).unwrap();
    std::fs::write(kit.join("bot.wat"), format!(";; version 2\n{text}")).unwrap();
    match next(&watcher) {
        Reload::Updated { strategy, .. } => {
            assert_ne!(strategy.hash(), module.hash(), "the new text's module")
        }
        other => panic!("{other:?}"),
    }
    // One that does not compile is reported, naming the file.
    std::fs::write(kit.join("bot.wat"), "(module (func $f (unknown))").unwrap();
    match next(&watcher) {
        Reload::Failed { error, .. } => assert!(error.contains("bot.wat"), "{error}"),
        other => panic!("{other:?}"),
    }
}

/// A folder made in a watched kit is watched from then on: a file saved in it later, or in a
/// folder made inside it, is a new version (the sources' hash changed), and so is each later write
/// of that file; an empty folder is not.
#[test]
fn a_kits_new_folder_is_watched_from_then_on() {
    let (kit, _, watcher) = watched_kit("kit-folders");
    std::fs::create_dir(kit.join("lib")).unwrap();
    quiet(&watcher, Duration::from_secs(1));
    // A file made in it (the folder's parent may see the folder change), then written again in
    // place (only a watch on the folder itself sees that).
    std::fs::write(kit.join("lib/notes.txt"), "one").unwrap();
    assert!(matches!(next(&watcher), Reload::Updated { .. }));
    std::fs::write(kit.join("lib/notes.txt"), "two").unwrap();
    assert!(matches!(next(&watcher), Reload::Updated { .. }));
    std::fs::create_dir(kit.join("lib/deeper")).unwrap();
    quiet(&watcher, Duration::from_secs(1));
    std::fs::write(kit.join("lib/deeper/more.txt"), "three").unwrap();
    assert!(matches!(next(&watcher), Reload::Updated { .. }));
    std::fs::write(kit.join("lib/deeper/more.txt"), "four").unwrap();
    assert!(matches!(next(&watcher), Reload::Updated { .. }));
}
