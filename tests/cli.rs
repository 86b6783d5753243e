//! End-to-end tests of the `botbox` command line, run as a user would run it.

mod util;

use serde_json::Value;
use util::{botbox, guest_wasm, scratch, stderr, stdout};

fn json(path: &std::path::Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn bench_prints_the_table() {
    let out = botbox(&[
        "bench",
        "2048",
        "strategies/lua/g2048/corner.lua",
        "--games",
        "10",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    for needle in [
        "points",
        "reached 2048",
        "score mean / median",
        "moves per second",
        "time per move",
        "faults",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in\n{text}");
    }
}

#[test]
fn bench_results_do_not_depend_on_the_thread_count() {
    let dir = scratch("jobs");
    let games = |jobs: &str| {
        let file = dir.join(format!("jobs-{jobs}.json"));
        let out = botbox(&[
            "bench",
            "2048",
            "strategies/lua/g2048/greedy.lua",
            "--games",
            "12",
            "--seed",
            "5",
            "--jobs",
            jobs,
            "--json",
            file.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        json(&file)["games"].clone()
    };
    let one = games("1");
    assert_eq!(one.as_array().unwrap().len(), 12);
    assert_eq!(one, games("3"));
}

#[test]
fn replays_are_written_and_printed() {
    let dir = scratch("replays");
    let out = botbox(&[
        "bench",
        "2048",
        "strategies/lua/g2048/corner.lua",
        "--games",
        "2",
        "--replay-dir",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let file = dir.join("game-0002.jsonl");
    let lines: Vec<Value> = std::fs::read_to_string(&file)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["type"], "header");
    assert_eq!(
        lines[0]["strategies"][0]["sha256"].as_str().unwrap().len(),
        64
    );
    assert_eq!(lines[1]["type"], "turn");
    assert_eq!(lines.last().unwrap()["type"], "end");
    let printed = botbox(&["replay", file.to_str().unwrap()]);
    assert!(printed.status.success(), "{}", stderr(&printed));
    let text = stdout(&printed);
    assert!(
        text.contains("move 1:") && text.contains("end: score"),
        "{text}"
    );
}

#[test]
fn a_broken_replay_is_named_with_its_line() {
    let dir = scratch("bad-replay");
    let file = dir.join("bad.jsonl");
    std::fs::write(&file, "{\"type\":\"turn\"}\n").unwrap();
    let out = botbox(&["replay", file.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("bad.jsonl:1:"), "{}", stderr(&out));
}

#[test]
fn check_reports_limits_and_a_clean_smoke_game() {
    let out = botbox(&["check", "strategies/lua/g2048/greedy.lua", "--game", "2048"]);
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("limits") && text.contains("fuel") && text.contains("result      ok"),
        "{text}"
    );
}

#[test]
fn check_fails_with_the_fault_of_a_hostile_strategy() {
    let out = botbox(&[
        "check",
        "strategies/hostile/lua/endless_loop.lua",
        "--game",
        "2048",
        "--lua-budget",
        "100000",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("FAULT") && stdout(&out).contains("budget"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn check_shows_what_the_strategy_printed() {
    let dir = scratch("printing");
    let bot = dir.join("printer.lua");
    let source = "local M = {}\nprint('hello from', 'lua', 42)\nfunction M.choose_move(obs)\n  print('move', obs.moves)\n  return obs.legal[1]\nend\nreturn M\n";
    std::fs::write(&bot, source).unwrap();
    let out = botbox(&["check", bot.to_str().unwrap(), "--game", "2048"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("| hello from\tlua\t42") && text.contains("| move\t0"),
        "{text}"
    );
}

#[test]
fn different_seeds_give_different_games_and_equal_seeds_equal_ones() {
    let dir = scratch("seeds");
    let run = |seed: &str, name: &str| {
        let file = dir.join(name);
        let out = botbox(&[
            "bench",
            "2048",
            "strategies/lua/g2048/random.lua",
            "--games",
            "4",
            "--seed",
            seed,
            "--json",
            file.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        json(&file)["games"].clone()
    };
    assert_eq!(run("9", "a.json"), run("9", "b.json"));
    assert_ne!(run("9", "a.json"), run("10", "c.json"));
}

#[test]
fn a_missing_strategy_is_a_clear_error() {
    let out = botbox(&["bench", "2048", "nowhere/bot.lua", "--games", "1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("nowhere/bot.lua"), "{}", stderr(&out));
}

#[test]
fn hostile_strategies_fault_only_their_own_games_and_bench_finishes() {
    let dir = scratch("hostile-bench");
    let file = dir.join("r.json");
    let out = botbox(&[
        "bench",
        "2048",
        "strategies/hostile/wasm/endless_loop.wat",
        "--games",
        "3",
        "--fuel",
        "1000000",
        "--json",
        file.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("fuel 3"), "{}", stdout(&out));
    assert_eq!(json(&file)["summary"]["faults"]["fuel"], 3);
}

#[test]
fn wasm_strategies_from_rust_and_wat_play() {
    let wasm = guest_wasm("g2048-first-legal");
    let out = botbox(&["bench", "2048", wasm.to_str().unwrap(), "--games", "5"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("faults") && stdout(&out).contains("none"),
        "{}",
        stdout(&out)
    );
    let out = botbox(&[
        "bench",
        "2048",
        "strategies/wat/g2048/corner.wat",
        "--games",
        "5",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("none"), "{}", stdout(&out));
}

#[test]
fn every_subcommand_has_examples_in_its_help() {
    for sub in ["bench", "check", "replay", "schemas"] {
        let out = botbox(&[sub, "--help"]);
        assert!(out.status.success());
        assert!(
            stdout(&out).contains("Examples:"),
            "{sub} --help has no examples"
        );
    }
}

#[test]
fn parameters_reach_the_strategy_and_the_replay() {
    let dir = scratch("params");
    let bot = dir.join("tuned.lua");
    let source = "local M = {}\nlocal pick = 1\nfunction M.init(setup)\n  print('depth', setup.params.depth, setup.params.name)\n  pick = setup.params.depth\nend\nfunction M.choose_move(obs)\n  return obs.legal[math.min(pick, #obs.legal)]\nend\nreturn M\n";
    std::fs::write(&bot, source).unwrap();
    let replays = dir.join("replays");
    let out = botbox(&[
        "bench",
        "2048",
        bot.to_str().unwrap(),
        "--games",
        "1",
        "--param",
        "depth=2",
        "--param",
        "name=x y",
        "--replay-dir",
        replays.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(replays.join("game-0001.jsonl")).unwrap();
    let header: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(
        header["strategies"][0]["params"],
        serde_json::json!({"depth": 2, "name": "x y"})
    );
    let end: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(end["logs"][0][0], "depth\t2\tx y");
}
