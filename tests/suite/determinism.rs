//! Same bytes, same seed, same game (issue 19): Luau bots whose choices follow what Luau derives from
//! object identity (the order of table, function, thread, buffer and userdata keys, the names
//! `tostring` gives) play the same games in every run, in a new process each time, at one and two
//! jobs; their replays are byte for byte the same; `tostring` shows no address. WASM bots likewise.
//!
//! Before botbox's Luau (vendor/luau0-src/BOTBOX.md) hashed objects by address, the first of these
//! runs gave mean 2048 scores of 1287.6, 903.2 and 1255.8 in three runs of one command: addresses
//! change with ASLR in every process, so three processes agreeing is not luck.

use crate::util;

use std::path::Path;

use serde_json::Value;
use util::{run_json, scratch};

const FIRST_KEY: &str = "strategies/determinism/first_key.lua";
const IDENTITY: &str = "strategies/determinism/identity.lua";

/// A report without what may change from run to run (timings).
fn results(report: &Value) -> Value {
    serde_json::json!({
        "games": report["games"],
        "standings": report["standings"],
        "summary": report["summary"].as_object().map(|summary| {
            summary
                .iter()
                .filter(|(key, _)| !["time", "second", "per_"].iter().any(|t| key.contains(t)))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect::<serde_json::Map<_, _>>()
        }),
    })
}

/// Every replay in `dir` (the `.jsonl` files; the index beside them is not one), by name, with
/// its bytes.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut all: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "jsonl"))
        })
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    all.sort();
    all
}

/// Runs `args` (a botbox command line without `--jobs`, `--json` and `--replay-dir`) three times at
/// one job and once at two, each in its own process, and checks that the reports (timings aside) and
/// the replays are the same. Returns the first report and the replays.
fn same_in_every_run(name: &str, args: &[&str]) -> (Value, Vec<(String, Vec<u8>)>) {
    let mut reports = Vec::new();
    let mut replays = Vec::new();
    for (run, jobs) in ["1", "1", "1", "2"].iter().enumerate() {
        let dir = scratch(&format!("determinism/{name}/{run}"));
        let replay_dir = dir.join("replays");
        let mut all = args.to_vec();
        all.extend_from_slice(&["--jobs", jobs, "--replay-dir", replay_dir.to_str().unwrap()]);
        let (_, report) = run_json(&dir, &all);
        reports.push(results(&report));
        replays.push(files(&replay_dir));
    }
    for (run, report) in reports.iter().enumerate().skip(1) {
        assert_eq!(
            &reports[0],
            report,
            "{name}: run {run} (jobs {}) differs from run 0",
            if run == 3 { 2 } else { 1 }
        );
        assert_eq!(
            replays[0], replays[run],
            "{name}: the replays of run {run} differ from run 0's"
        );
    }
    assert!(!replays[0].is_empty(), "{name}: no replay was written");
    (reports.remove(0), replays.remove(0))
}

/// No `0x…` and no run of 8 or more hexadecimal digits with a letter among them: what an address
/// printed by `tostring` looked like.
fn assert_no_address(name: &str, text: &str) {
    assert!(!text.contains("0x"), "{name}: an address in {text}");
    for word in text.split(|c: char| !c.is_ascii_alphanumeric()) {
        let hex = word.len() >= 8
            && word.chars().all(|c| c.is_ascii_hexdigit())
            && word.chars().any(|c| c.is_ascii_alphabetic());
        assert!(!hex, "{name}: {word} looks like an address");
    }
}

/// The log lines the strategies printed (every `logs` in the replays), one per line.
fn logged(replays: &[(String, Vec<u8>)]) -> String {
    fn strings(value: &Value, into: &mut Vec<String>) {
        match value {
            Value::String(s) => into.push(s.clone()),
            Value::Array(items) => items.iter().for_each(|v| strings(v, into)),
            _ => {}
        }
    }
    let mut lines = Vec::new();
    for (_, bytes) in replays {
        for line in String::from_utf8_lossy(bytes).lines() {
            let event: Value = serde_json::from_str(line).expect("a replay line is JSON");
            strings(&event["logs"], &mut lines);
        }
    }
    let text = lines.join("\n");
    assert!(
        text.contains("table: "),
        "the identity bot's log lines are in the replays: {text}"
    );
    text
}

#[test]
fn the_bot_of_the_issue_plays_the_same_2048_games_in_every_run() {
    let (report, _) = same_in_every_run(
        "first-key",
        &["bench", "2048", FIRST_KEY, "--games", "20", "--seed", "1"],
    );
    // Not a degenerate bot that always plays one move: its games differ from each other.
    let scores: Vec<_> = report["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["score"].clone())
        .collect();
    assert!(
        scores.iter().any(|s| s != &scores[0]),
        "all 20 games scored the same: {scores:?}"
    );
}

/// [`same_in_every_run`] for a command with the identity bot, whose log lines must hold no address.
fn identity_bot_plays_the_same(game: &str, args: &[&str]) {
    let (_, replays) = same_in_every_run(&format!("identity-{game}"), args);
    assert_no_address(game, &logged(&replays));
}

#[test]
fn a_bot_led_by_identities_plays_the_same_2048_games_in_every_run() {
    identity_bot_plays_the_same(
        "2048",
        &["bench", "2048", IDENTITY, "--games", "6", "--seed", "3"],
    );
}

#[test]
fn a_bot_led_by_identities_plays_the_same_wormworld_games_in_every_run() {
    identity_bot_plays_the_same(
        "worms",
        &[
            "tournament",
            "worms",
            "--players",
            IDENTITY,
            "strategies/lua/worms/greedy.lua",
            IDENTITY,
            "--maps",
            "examples/worms/tutorial.txt",
            "--games",
            "2",
            "--seed",
            "4",
        ],
    );
}

#[test]
fn a_bot_led_by_identities_plays_the_same_bs_games_in_every_run() {
    identity_bot_plays_the_same(
        "bs",
        &[
            "tournament",
            "bs",
            "--players",
            IDENTITY,
            "strategies/lua/bs/player1.lua",
            "strategies/lua/bs/player_conman.lua",
            "strategies/lua/bs/hoarder.lua",
            "--games",
            "8",
            "--seed",
            "5",
        ],
    );
}

#[test]
fn wasm_bots_play_the_same_games_in_every_run() {
    same_in_every_run(
        "wasm-2048",
        &[
            "bench",
            "2048",
            "strategies/wat/g2048/corner.wat",
            "--games",
            "10",
            "--seed",
            "6",
        ],
    );
}
