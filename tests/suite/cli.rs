//! End-to-end tests of the `botbox` command line, run as a user would run it.

use crate::util;

use serde_json::Value;
use util::{at, botbox, guest_wasm, scratch, stderr, stdout};

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
        "mean score",
        "median",
        "2048 benchmark",
        "largest",
        "moves/game",
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
    let file = dir.join("2048-0002.jsonl");
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
    // Every game faulted: the report is written and shown, and the exit status says no game completed.
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stdout(&out).contains("fuel 3"), "{}", stdout(&out));
    assert_eq!(json(&file)["standings"][0]["faults"]["fuel"], 3);
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
    // The commands a help text lists: the lines under `Commands:` indented by exactly two spaces.
    fn commands(help: &str) -> Vec<String> {
        help.lines()
            .skip_while(|l| !l.starts_with("Commands:"))
            .skip(1)
            .take_while(|l| !l.is_empty())
            .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
            .filter_map(|l| l.split_whitespace().next().map(str::to_string))
            .filter(|c| c != "help")
            .collect()
    }
    let top = commands(&stdout(&botbox(&["--help"])));
    assert!(top.len() >= 12, "{top:?}");
    for sub in &top {
        let out = botbox(&[sub, "--help"]);
        assert!(out.status.success(), "{sub}");
        let help = stdout(&out);
        assert!(help.contains("Examples:"), "{sub} --help has no examples");
        for game in commands(&help) {
            let out = botbox(&[sub, &game, "--help"]);
            assert!(out.status.success(), "{sub} {game}");
            assert!(
                stdout(&out).contains("Examples:"),
                "{sub} {game} --help has no examples"
            );
        }
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
    let text = std::fs::read_to_string(replays.join("2048-0001.jsonl")).unwrap();
    let header: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(
        header["strategies"][0]["params"],
        serde_json::json!({"depth": 2, "name": "x y"})
    );
    let end: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(end["logs"][0][0], "depth\t2\tx y");
}

/// A bundled bot for each registered game, for the tests that loop over the registry. A game added to
/// the registry without one here fails `every_registered_game_has_a_bundled_bot_here`.
fn bundled_bot(game: &str) -> Option<&'static str> {
    Some(match game {
        "2048" => "strategies/lua/g2048/greedy.lua",
        "dice" => "strategies/lua/dice/safety_first.lua",
        "bs" => "strategies/lua/bs/player4.lua",
        "worms" => "strategies/lua/worms/greedy.lua",
        "connect4" => "strategies/lua/connect4/center.lua",
        _ => return None,
    })
}

/// The bot a test plays `game` with: one chosen above, or the first the game bundles.
fn bot_for(game: &Value) -> String {
    let name = game["name"].as_str().unwrap();
    bundled_bot(name).map_or_else(
        || game["bots"][0].as_str().unwrap().to_string(),
        str::to_string,
    )
}

/// The games `botbox games --json` lists, with their JSON entries.
fn registered_games() -> Vec<Value> {
    let out = botbox(&["games", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let list: Value = serde_json::from_str(&stdout(&out)).unwrap();
    list.as_array().unwrap().clone()
}

#[test]
fn games_lists_every_game_with_its_seats_functions_variants_and_bots() {
    let games = registered_games();
    let names: Vec<&str> = games.iter().map(|g| g["name"].as_str().unwrap()).collect();
    assert_eq!(names[..5], ["2048", "dice", "bs", "worms", "connect4"]);
    for g in &games {
        assert!(g["seats"]["min"].as_u64().unwrap() >= 1, "{g}");
        assert!(!g["functions"].as_array().unwrap().is_empty(), "{g}");
        assert!(!g["variants"].as_array().unwrap().is_empty(), "{g}");
        for bot in g["bots"].as_array().unwrap() {
            assert!(at(bot.as_str().unwrap()).is_file(), "{g}");
        }
    }
    let out = botbox(&["games"]);
    let text = stdout(&out);
    for name in names {
        assert!(text.contains(name), "{name} missing from\n{text}");
    }
}

#[test]
fn check_plays_a_smoke_game_of_every_game_with_its_bundled_bot() {
    for g in registered_games() {
        let name = g["name"].as_str().unwrap();
        let bot = bot_for(&g);
        let out = botbox(&["check", name, &bot]);
        let text = stdout(&out);
        assert!(out.status.success(), "{name}: {text}{}", stderr(&out));
        assert!(
            text.contains("smoke game")
                && text.contains("result      ok")
                && text.contains("move 1 "),
            "{name}: {text}"
        );
    }
}

#[test]
fn check_shows_log_lines_beside_the_moves_and_the_fault_for_every_game() {
    let dir = scratch("check-every-game");
    // Answers garbage in every function a game may ask, after printing which one was asked.
    let bot = dir.join("garbage.lua");
    std::fs::write(
        &bot,
        "local M = {}\nprint('loaded')\nlocal function garbage(obs)\n  print('asked')\n  return {nonsense = true}\nend\n\
         M.choose_move = garbage\nM.play = garbage\nM.call = garbage\nreturn M\n",
    )
    .unwrap();
    for g in registered_games() {
        let name = g["name"].as_str().unwrap();
        let out = botbox(&["check", name, bot.to_str().unwrap()]);
        let text = stdout(&out);
        assert_eq!(out.status.code(), Some(1), "{name}: {text}{}", stderr(&out));
        assert!(
            text.contains("| loaded") && text.contains("| asked"),
            "{name}: the log is missing: {text}"
        );
        assert!(
            text.contains("FAULT") && text.contains("bad-output"),
            "{name}: {text}"
        );
    }
    // An endless loop ends by the budget, whatever the game.
    let looping = dir.join("loop.lua");
    std::fs::write(
        &looping,
        "local M = {}\nlocal function loop() while true do end end\nM.choose_move = loop\nM.play = loop\nM.call = loop\nreturn M\n",
    )
    .unwrap();
    for g in registered_games() {
        let name = g["name"].as_str().unwrap();
        let out = botbox(&[
            "check",
            name,
            looping.to_str().unwrap(),
            "--lua-budget",
            "100000",
        ]);
        let text = stdout(&out);
        assert_eq!(out.status.code(), Some(1), "{name}: {text}");
        assert!(
            text.contains("FAULT") && text.contains("budget"),
            "{name}: {text}"
        );
    }
}

#[test]
fn check_refuses_an_unknown_game_naming_the_games() {
    let out = botbox(&["check", "chess", "strategies/lua/g2048/greedy.lua"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("unknown game \"chess\"") && err.contains("connect4"),
        "{err}"
    );
    let out = botbox(&["tournament", "chess"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("unknown game \"chess\"") && !err.contains("No such file"),
        "{err}"
    );
    // A misspelt game is named as one, with the closest name, wherever a game is expected; not
    // taken for a tournament file whose flags are then unexpected.
    for args in [
        &["tournament", "wroms", "--players", "a.lua", "b.lua"][..],
        &["match", "wroms", "a.lua", "b.lua"],
        &["check", "wroms", "a.lua"],
    ] {
        let out = botbox(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert!(
            err.contains("unknown game \"wroms\" (did you mean worms?)")
                && !err.contains("--players"),
            "{args:?}: {err}"
        );
    }
}

/// `match` and `tournament` take one set of flags for every game; a game refuses the set-up flags
/// it does not read, and the seats it has decide how many strategies a match takes.
#[test]
fn match_and_tournament_refuse_what_a_game_does_not_use() {
    let c4 = [
        "strategies/lua/connect4/center.lua",
        "strategies/lua/connect4/random.lua",
    ];
    for (args, said) in [
        (
            [
                &["match", "connect4"][..],
                &c4,
                &["--map", "examples/worms/arena.txt"],
            ]
            .concat(),
            "connect4 does not use --map (it reads --variant, --openings)",
        ),
        (
            [&["match", "bs"][..], &c4].concat(),
            "bs is played by 4 players: give 4 strategies, not 2",
        ),
        (
            [
                &["tournament", "bs", "--players"][..],
                &c4,
                &["--openings", "2"],
            ]
            .concat(),
            "bs does not use --openings (bs has no set-up to choose)",
        ),
        (
            [&["match", "connect4"][..], &c4, &["--live"]].concat(),
            "connect4 has no live view",
        ),
        (
            [&["match", "dice"][..], &c4, &["--variant", "strict"]].concat(),
            "only the free variant",
        ),
    ] {
        let out = botbox(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert!(err.contains(said), "{args:?}: {err}");
    }
    // Every registered game is a subcommand of both, with its own examples.
    for command in ["match", "tournament"] {
        let help = stdout(&botbox(&[command, "--help"]));
        for game in ["2048", "dice", "bs", "worms", "connect4"] {
            assert!(help.contains(&format!("\n  {game} ")), "{command}: {help}");
        }
    }
    let help = stdout(&botbox(&["match", "worms", "--help"]));
    assert!(
        help.contains("botbox match worms strategies/lua/worms/greedy.lua")
            && help.contains("docs/worms.md"),
        "{help}"
    );
}

#[test]
fn counts_of_zero_are_refused_at_once() {
    for args in [
        &[
            "bench",
            "2048",
            "strategies/lua/g2048/greedy.lua",
            "--games",
            "0",
        ][..],
        &[
            "bench",
            "2048",
            "strategies/lua/g2048/greedy.lua",
            "--jobs",
            "0",
        ][..],
        &[
            "tournament",
            "bs",
            "--players",
            "strategies/lua/bs/player1.lua",
            "--games",
            "0",
        ][..],
    ] {
        let out = botbox(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).contains("at least 1"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    let out = botbox(&[
        "tournament",
        "dice",
        "--dice",
        "examples/dice/wuerfel0.txt",
        "--players",
        "strategies/lua/dice/frontmost.lua",
        "--games",
        "3",
    ]);
    // An odd count is played, as for every two-player game, with a note that it favours a side.
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("is odd"), "{}", stderr(&out));
}

#[test]
fn a_bench_where_every_game_faulted_exits_non_zero() {
    let out = botbox(&[
        "bench",
        "2048",
        "strategies/hostile/lua/endless_loop.lua",
        "--games",
        "2",
        "--lua-budget",
        "100000",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("no game completed"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn json_into_a_missing_directory_is_created_before_the_games() {
    let dir = scratch("json-missing-dir");
    let file = dir.join("not/yet/there.json");
    let out = botbox(&[
        "bench",
        "2048",
        "strategies/lua/g2048/first_legal.lua",
        "--games",
        "2",
        "--json",
        file.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(json(&file)["games"].is_array());
}

#[test]
fn garbage_wasm_bytes_and_a_missing_file_get_one_clear_line() {
    let dir = scratch("garbage-wasm");
    let file = dir.join("garbage.wasm");
    std::fs::write(&file, [0xffu8, 0xfe, 0x00, 0x01, 0x02]).unwrap();
    let out = botbox(&["check", "2048", file.to_str().unwrap()]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        err.contains("garbage.wasm")
            && err.contains("starts with ff fe 00 01")
            && !err.contains("utf-8"),
        "{err}"
    );
    let out = botbox(&["check", "2048", "no/such/bot.lua"]);
    let err = stderr(&out);
    assert_eq!(err.matches("No such file").count(), 1, "{err}");
}

#[test]
fn connect4_plays_matches_and_tournaments_the_same_at_any_job_count_and_in_shards() {
    let dir = scratch("connect4-tournament");
    let run = |name: &str, extra: &[&str]| -> Value {
        let file = dir.join(name);
        let mut args = vec![
            "tournament",
            "connect4",
            "--players",
            "strategies/lua/connect4/center.lua",
            "strategies/lua/connect4/random.lua",
            "strategies/lua/connect4/random.lua",
            "--games",
            "6",
            "--variant",
            "standard",
            "--variant",
            "6x5-4",
            "--seed",
            "5",
            "--json",
            file.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let out = botbox(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        let mut report = json(&file);
        // Timings differ from run to run; everything else is the same.
        report.as_object_mut().unwrap().remove("timing");
        report
    };
    let one = run("jobs1.json", &["--jobs", "1"]);
    let two = run("jobs2.json", &["--jobs", "2"]);
    assert_eq!(one, two);
    assert_eq!(one["games"].as_array().unwrap().len(), 18);
    // The same file twice gets two names; the standings name the bots.
    let text = serde_json::to_string(&one).unwrap();
    assert!(
        text.contains("random-2") && text.contains("center"),
        "{text:.600}"
    );
    // Two shards merged give the whole run's standings.
    run("part1.json", &["--shard", "1/2"]);
    run("part2.json", &["--shard", "2/2"]);
    let merged = dir.join("merged.json");
    let out = botbox(&[
        "merge",
        dir.join("part1.json").to_str().unwrap(),
        dir.join("part2.json").to_str().unwrap(),
        "--json",
        merged.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(json(&merged)["standings"], one["standings"]);
}

#[test]
fn a_connect4_replay_is_replayed_through_the_rules_and_a_forged_one_is_refused() {
    let dir = scratch("connect4-replay");
    let replays = dir.join("replays");
    let out = botbox(&[
        "match",
        "connect4",
        "strategies/lua/connect4/center.lua",
        "strategies/lua/connect4/random.lua",
        "--games",
        "2",
        "--replay-dir",
        replays.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let file = replays.join("connect4-0001.jsonl");
    let out = botbox(&["replay", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("move    1") && text.contains("end: points"),
        "{text}"
    );
    // Move 3 forged into another column: refused at its line (the header is line 1).
    let lines: Vec<String> = std::fs::read_to_string(&file)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let mut turn: Value = serde_json::from_str(&lines[3]).unwrap();
    let column = turn["action"].as_u64().unwrap();
    turn["action"] = serde_json::json!((column + 1) % 7);
    let mut forged = lines.clone();
    forged[3] = serde_json::to_string(&turn).unwrap();
    let bad = dir.join("forged.jsonl");
    std::fs::write(&bad, forged.join("\n") + "\n").unwrap();
    let out = botbox(&["replay", bad.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("forged.jsonl:4:"), "{}", stderr(&out));
}

#[test]
fn openings_start_both_games_of_a_pair_alike_and_the_report_counts_distinct_games() {
    let dir = scratch("connect4-openings");
    let replays = dir.join("replays");
    // A deterministic bot: the leftmost open column, always.
    let bot = dir.join("leftmost.lua");
    std::fs::write(
        &bot,
        "return { choose_move = function(obs) return obs.legal[1] end }\n",
    )
    .unwrap();
    let bot = bot.to_str().unwrap();
    let run = |openings: &str, name: &str| -> Value {
        let file = dir.join(name);
        let out = botbox(&[
            "match",
            "connect4",
            bot,
            bot,
            "--games",
            "6",
            "--openings",
            openings,
            "--replay-dir",
            replays.to_str().unwrap(),
            "--json",
            file.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        if openings == "0" {
            assert!(
                stdout(&out).contains("distinct games of 6"),
                "{}",
                stdout(&out)
            );
        }
        json(&file)
    };
    // Two copies of one deterministic bot: without openings, two distinct games (one per seat order).
    assert_eq!(run("0", "none.json")["distinct_games"], 2);
    let report = run("3", "three.json");
    assert!(report["distinct_games"].as_u64().unwrap() > 2, "{report}");
    let actions = |n: usize| -> Vec<Value> {
        let text = std::fs::read_to_string(replays.join(format!("connect4-{n:04}.jsonl"))).unwrap();
        text.lines()
            .skip(1)
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .filter(|t| t["opening"] == true)
            .map(|t| t["action"].clone())
            .collect()
    };
    assert_eq!(actions(1).len(), 3);
    assert_eq!(actions(1), actions(2), "a pair shares its opening");
    assert_ne!(actions(1), actions(3), "the next pair has another");
    let out = botbox(&[
        "replay",
        replays.join("connect4-0001.jsonl").to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out).matches("(opening)").count(),
        3,
        "{}",
        stdout(&out)
    );
}

#[test]
fn the_connect4_tournament_file_runs_and_match_dice_plays_through_the_contract() {
    let dir = scratch("connect4-toml");
    let file = dir.join("c4.json");
    let out = botbox(&[
        "tournament",
        "examples/tournaments/connect4.toml",
        "--json",
        file.to_str().unwrap(),
        "--replay-dir",
        dir.join("replays").to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report = json(&file);
    assert_eq!(report["game"], "connect4");
    assert_eq!(report["variants"], serde_json::json!(["standard", "8x7-4"]));
    assert_eq!(report["standings"].as_array().unwrap().len(), 3);
    let out = botbox(&[
        "match",
        "dice",
        "strategies/lua/dice/safety_first.lua",
        "strategies/lua/dice/frontmost.lua",
        "--games",
        "10",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("safety_first"), "{}", stdout(&out));
}

#[test]
fn new_makes_a_starter_bot_for_every_game_that_checks_clean() {
    let dir = scratch("new-bots");
    for g in registered_games() {
        let game = g["name"].as_str().unwrap();
        let bot_dir = dir.join(format!("lua-{game}"));
        let out = botbox(&["new", game, bot_dir.to_str().unwrap()]);
        assert!(out.status.success(), "{game}: {}", stderr(&out));
        let bot = bot_dir.join("bot.lua");
        let out = botbox(&["check", game, bot.to_str().unwrap()]);
        assert!(
            out.status.success() && stdout(&out).contains("result      ok"),
            "{game}: {}{}",
            stdout(&out),
            stderr(&out)
        );
    }
    // The Wormworld starter, the first bot a newcomer runs, does what it says (steers toward the
    // hole) and beats the random bot on the example maps.
    let worms = dir.join("lua-worms/bot.lua");
    let starter_dir = dir.join("worms-starter");
    std::fs::create_dir_all(&starter_dir).unwrap();
    let (_, report) = util::run_json(
        &starter_dir,
        &[
            "match",
            "worms",
            worms.to_str().unwrap(),
            "strategies/lua/worms/random.lua",
            "--map",
            "examples/worms/",
            "--games",
            "24",
        ],
    );
    let starter = &report["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "bot")
        .unwrap()
        .clone();
    let (wins, losses) = (
        starter["wins"].as_u64().unwrap(),
        starter["losses"].as_u64().unwrap(),
    );
    assert!(wins >= 12 && wins > 3 * losses, "{starter}");
    // A directory that is not empty is refused; so is an unknown language for a game.
    let out = botbox(&["new", "bs", dir.join("lua-bs").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("not empty"), "{}", stderr(&out));
    let out = botbox(&[
        "new",
        "worms",
        dir.join("w").to_str().unwrap(),
        "--lang",
        "cobol",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("assemblyscript"), "{}", stderr(&out));
    let out = botbox(&[
        "new",
        "2048",
        dir.join("wat").to_str().unwrap(),
        "--lang",
        "wat",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = botbox(&["check", "2048", dir.join("wat/bot.wat").to_str().unwrap()]);
    assert!(out.status.success(), "{}", stdout(&out));
}

#[test]
fn a_rust_starter_builds_outside_the_workspace_with_its_own_sdk() {
    let dir = scratch("new-rust");
    // Outside the repository's tree, so nothing of its workspace can help the crate build.
    let outside = std::env::temp_dir().join(format!("botbox-new-rust-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&outside);
    let target = dir.join("target");
    for game in ["connect4", "bs"] {
        let crate_dir = outside.join(format!("my-{game}-bot"));
        let out = botbox(&["new", game, crate_dir.to_str().unwrap(), "--lang", "rust"]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(crate_dir.join("botbox-sdk/src/lib.rs").is_file());
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_botbox"))
            .args(["check", game, crate_dir.to_str().unwrap()])
            .current_dir(&outside)
            .env("CARGO_TARGET_DIR", &target)
            .output()
            .unwrap();
        assert!(
            out.status.success() && stdout(&out).contains("result      ok"),
            "{game}: {}{}",
            stdout(&out),
            stderr(&out)
        );
    }
    // A compile error is shown as rustc wrote it, with the file and line.
    let broken = outside.join("my-connect4-bot/src/lib.rs");
    let code = std::fs::read_to_string(&broken).unwrap();
    std::fs::write(
        &broken,
        code.replace("Move { column }", "Move { column: \"x\" }"),
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_botbox"))
        .args([
            "check",
            "connect4",
            outside.join("my-connect4-bot").to_str().unwrap(),
        ])
        .env("CARGO_TARGET_DIR", &target)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("mismatched types") && stderr(&out).contains("src/lib.rs:"),
        "{}",
        stderr(&out)
    );
    let _ = std::fs::remove_dir_all(&outside);
}

/// A small deterministic generator (SplitMix64) for the mutation test: no new dependency.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// The JSON pointers of every number and string in `value` (the line's `type` left alone).
fn leaves(value: &Value, at: String, numbers: &mut Vec<String>, strings: &mut Vec<String>) {
    match value {
        Value::Number(_) => numbers.push(at),
        Value::String(_) if at != "/type" => strings.push(at),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                leaves(item, format!("{at}/{i}"), numbers, strings);
            }
        }
        Value::Object(fields) => {
            for (key, item) in fields {
                let key = key.replace('~', "~0").replace('/', "~1");
                leaves(item, format!("{at}/{key}"), numbers, strings);
            }
        }
        _ => {}
    }
}

/// `lines` with one seeded mutation: a number or a string changed, a line deleted, or two swapped.
fn mutate(lines: &[String], rng: &mut SplitMix) -> Vec<String> {
    let mut out = lines.to_vec();
    let i = rng.below(out.len());
    match rng.below(4) {
        kind @ (0 | 1) => {
            let mut line: Value = serde_json::from_str(&out[i]).unwrap();
            let (mut numbers, mut strings) = (Vec::new(), Vec::new());
            leaves(&line, String::new(), &mut numbers, &mut strings);
            let pointers = if kind == 0 { &numbers } else { &strings };
            if pointers.is_empty() {
                out.remove(i);
                return out;
            }
            let pointer = rng.pick(pointers).clone();
            let slot = line.pointer_mut(&pointer).unwrap();
            *slot = if kind == 0 {
                let was = slot.as_i64().unwrap_or(0);
                let choices: [Value; 16] = [
                    Value::from(-1),
                    Value::from(0),
                    Value::from(1),
                    Value::from(2),
                    Value::from(4),
                    Value::from(5),
                    Value::from(7),
                    Value::from(40),
                    Value::from(44),
                    Value::from(52),
                    Value::from(99),
                    Value::from(1u64 << 40),
                    Value::from(u64::MAX),
                    Value::from(was.saturating_add(1)),
                    Value::from(was.saturating_sub(1)),
                    Value::from(0.5),
                ];
                rng.pick(&choices).clone()
            } else {
                let was = slot.as_str().unwrap_or_default().to_string();
                let mut shorter = was.clone();
                shorter.pop();
                let choices = [
                    String::new(),
                    "x".into(),
                    "left".into(),
                    "up".into(),
                    "forward".into(),
                    "waiting".into(),
                    "strict".into(),
                    "free".into(),
                    "won".into(),
                    "fault".into(),
                    format!("{was}x"),
                    shorter,
                ];
                Value::from(rng.pick(&choices).clone())
            };
            out[i] = line.to_string();
        }
        2 => {
            out.remove(i);
        }
        _ => {
            let j = rng.below(out.len());
            out.swap(i, j);
        }
    }
    out
}

#[test]
fn mutated_replays_of_every_game_are_refused_at_their_line_and_never_panic() {
    let dir = scratch("replay-mutations");
    let d = |sub: &str| dir.join(sub).to_str().unwrap().to_string();
    let runs: [&[&str]; 6] = [
        &[
            "bench",
            "2048",
            "strategies/lua/g2048/greedy.lua",
            "--games",
            "1",
        ],
        &[
            "dice",
            "examples/dice/wuerfel0.txt",
            "--games-per-pair",
            "2",
        ],
        &[
            "tournament",
            "bs",
            "--players",
            "strategies/lua/bs/player1.lua",
            "strategies/lua/bs/player2.lua",
            "strategies/lua/bs/player3.lua",
            "strategies/lua/bs/calculating_liar.lua",
            "--games",
            "1",
        ],
        &[
            "match",
            "worms",
            "strategies/lua/worms/greedy.lua",
            "strategies/lua/worms/random.lua",
            "--map",
            "examples/worms/arena.txt",
            "--games",
            "1",
        ],
        &[
            "tournament",
            "dice",
            "--variant",
            "free",
            "--dice",
            "examples/dice/wuerfel0.txt",
            "--die",
            "1",
            "--die",
            "2",
            "--players",
            "strategies/lua/dice/frontmost.lua",
            "strategies/lua/dice/capture_first.lua",
            "--games",
            "2",
        ],
        &[
            "match",
            "connect4",
            "strategies/lua/connect4/center.lua",
            "strategies/lua/connect4/random.lua",
            "--games",
            "1",
        ],
    ];
    let names = ["2048", "dice", "bs", "worms", "dice-free", "connect4"];
    let files = [
        "2048-0001.jsonl",
        "dice-D1-D2-0001.jsonl",
        "bs-0001.jsonl",
        "worms-0001.jsonl",
        "dice-0001.jsonl",
        "connect4-0001.jsonl",
    ];
    // Mutations per replay: at least 100 for each of the four games with readers of their own.
    let counts = [110, 110, 110, 110, 40, 40];
    let replay = |file: &std::path::Path| botbox(&["replay", file.to_str().unwrap(), "--print"]);
    let (mut total, mut refused) = (0, 0);
    for (k, run) in runs.iter().enumerate() {
        let out_dir = d(names[k]);
        let mut args = run.to_vec();
        args.extend_from_slice(&["--replay-dir", &out_dir]);
        let out = botbox(&args);
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{args:?}: {}",
            stderr(&out)
        );
        let original = dir.join(names[k]).join(files[k]);
        let lines: Vec<String> = std::fs::read_to_string(&original)
            .unwrap()
            .lines()
            .map(String::from)
            .collect();
        let out = replay(&original);
        assert!(out.status.success(), "{}: {}", names[k], stderr(&out));
        let mutated = dir.join(format!("{}-mutated.jsonl", names[k]));
        let mut rng = SplitMix(0x0B07_B0C5 + k as u64);
        for n in 0..counts[k] {
            let text = mutate(&lines, &mut rng).join("\n") + "\n";
            std::fs::write(&mutated, &text).unwrap();
            let out = replay(&mutated);
            let err = stderr(&out);
            assert!(
                matches!(out.status.code(), Some(0 | 2)) && !err.contains("panicked"),
                "{} mutation {n}: status {:?}\n{err}\n{text}",
                names[k],
                out.status.code()
            );
            if out.status.code() == Some(2) {
                refused += 1;
                assert!(
                    err.contains("-mutated.jsonl:"),
                    "{} mutation {n}: the refusal names no line: {err}",
                    names[k]
                );
            }
            total += 1;
        }
    }
    assert!(total >= 400, "{total} mutations");
    assert!(
        refused * 2 > total,
        "only {refused} of {total} mutations were refused"
    );

    // One mutation per game that must be refused at its line: a seat out of range (2048 has no seat:
    // the new tile's cell out of the board).
    let forged: [(&str, &str, Value); 5] = [
        ("2048", "/event/spawn/cell", Value::from(99)),
        ("dice", "/seat", Value::from(2)),
        ("bs", "/seat", Value::from(4)),
        ("worms", "/seat", Value::from(2)),
        ("dice-free", "/seat", Value::from(7)),
    ];
    for (name, pointer, value) in forged {
        let k = names.iter().position(|n| *n == name).unwrap();
        let original = dir.join(name).join(files[k]);
        let mut lines: Vec<String> = std::fs::read_to_string(&original)
            .unwrap()
            .lines()
            .map(String::from)
            .collect();
        let mut turn: Value = serde_json::from_str(&lines[3]).unwrap();
        *turn.pointer_mut(pointer).unwrap() = value;
        lines[3] = turn.to_string();
        let bad = dir.join(format!("{name}-forged.jsonl"));
        std::fs::write(&bad, lines.join("\n") + "\n").unwrap();
        let out = replay(&bad);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(
            err.contains(&format!("{name}-forged.jsonl:4:")) && !err.contains("panicked"),
            "{name}: {err}"
        );
        assert_eq!(err.trim_end().lines().count(), 1, "{name}: one line: {err}");
    }
}

#[test]
fn a_tournament_files_limits_apply_and_the_command_line_overrides_them() {
    let dir = scratch("toml-limits");
    let file = dir.join("t.toml");
    let repo = util::repo();
    std::fs::write(
        &file,
        format!(
            "game = \"connect4\"\ngames = 2\n[limits]\nlua_budget = 200000\nlog_kib = 1\n\n\
             [[entries]]\npath = \"{}\"\n[[entries]]\npath = \"{}\"\n",
            repo.join("strategies/hostile/lua/endless_loop.lua")
                .display(),
            repo.join("strategies/lua/connect4/random.lua").display()
        ),
    )
    .unwrap();
    let run = |extra: &[&str]| -> Value {
        let report = dir.join("r.json");
        let mut args = vec![
            "tournament",
            file.to_str().unwrap(),
            "--json",
            report.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let out = botbox(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        json(&report)
    };
    let report = run(&[]);
    assert_eq!(
        report["limits"]["lua_budget"], 200000,
        "{}",
        report["limits"]
    );
    assert_eq!(report["limits"]["log_bytes"], 1024);
    let fault = report["games"][0]["faults"].to_string();
    assert!(fault.contains("200000 ticks"), "{fault}");
    let report = run(&["--lua-budget", "50000"]);
    assert_eq!(report["limits"]["lua_budget"], 50000);
    assert_eq!(
        report["limits"]["log_bytes"], 1024,
        "the file's other limits stay"
    );
}

#[test]
fn an_answer_of_the_wrong_shape_is_told_in_the_games_words() {
    let dir = scratch("wrong-shape");
    let bot = dir.join("nil.lua");
    std::fs::write(
        &bot,
        "return { choose_move = function(obs) return nil end }\n",
    )
    .unwrap();
    let report = dir.join("r.json");
    let out = botbox(&[
        "match",
        "worms",
        bot.to_str().unwrap(),
        "strategies/lua/worms/greedy.lua",
        "--map",
        "examples/worms/arena.txt",
        "--games",
        "1",
        "--json",
        report.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let fault = json(&report)["games"][0]["faults"][0]["message"].clone();
    let fault = fault.as_str().unwrap();
    assert!(
        fault.contains("returned null") && fault.contains("expected a move such as {\"worm\": 3"),
        "{fault}"
    );
}

#[test]
fn ctrl_c_finishes_the_games_in_progress_and_reports_those_played() {
    use nix::sys::signal::{Signal, kill};
    use nix::unistd::Pid;
    let dir = scratch("ctrl-c");
    let file = dir.join("partial.json");
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_botbox"))
        .args([
            "tournament",
            "connect4",
            "--players",
            "strategies/lua/connect4/center.lua",
            "strategies/lua/connect4/random.lua",
            "--games",
            "2000000",
            "--jobs",
            "2",
            "--json",
            file.to_str().unwrap(),
            "--replay-dir",
            dir.join("replays").to_str().unwrap(),
        ])
        .current_dir(util::repo())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Interrupt once games are being played (their replays appear), however slow the machine.
    let started = std::time::Instant::now();
    while !dir.join("replays/connect4-0010.jsonl").exists() {
        assert!(started.elapsed().as_secs() < 120, "no games were played");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    kill(Pid::from_raw(child.id() as i32), Signal::SIGINT).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    assert!(stdout(&out).contains("center"), "{}", stdout(&out));
    assert!(stderr(&out).contains("interrupted"), "{}", stderr(&out));
    let report = json(&file);
    let numbers: Vec<u64> = report["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["number"].as_u64().unwrap())
        .collect();
    assert!(!numbers.is_empty() && numbers.len() < 2_000_000);
    // The games played are the first ones of the schedule, as a shorter run would have played.
    assert_eq!(numbers, (1..=numbers.len() as u64).collect::<Vec<_>>());
    // The JSON says it is partial, beside the plan's number.
    assert_eq!(report["interrupted"], true);
    assert_eq!(report["games_played"].as_u64(), Some(numbers.len() as u64));
    assert_eq!(report["plan"]["games"].as_u64(), Some(2_000_000));
    // center.lua beats random.lua almost always: an unbounded Elo is told in words, never "inf".
    assert!(!stdout(&out).contains("inf"), "{}", stdout(&out));
}

/// A tournament file whose entry or map cannot be read names the line that gives it, as every
/// other error in the file does.
#[test]
fn a_missing_entry_or_map_in_a_tournament_file_names_its_line() {
    let dir = scratch("toml-lines");
    let greedy = at("strategies/lua/worms/greedy.lua");
    let file = dir.join("t3.toml");
    std::fs::write(
        &file,
        format!(
            "game = \"worms\"\nmaps = [\"{}\"]\n\n[[entries]]\npath = {:?}\n\n[[entries]]\n\
             name = \"two\"\npath = \"../worm.lua\"\n",
            at("examples/worms/arena.txt").display(),
            greedy.display().to_string()
        ),
    )
    .unwrap();
    let out = botbox(&["tournament", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("t3.toml:9: entries[1] (path = \"../worm.lua\")"),
        "{err}"
    );
    let file = dir.join("t4.toml");
    std::fs::write(
        &file,
        format!(
            "game = \"worms\"\n# the maps\nmaps = [\"../nomap.txt\"]\n\n[[entries]]\npath = {:?}\n\n\
             [[entries]]\npath = {:?}\n",
            greedy.display().to_string(),
            at("strategies/lua/worms/random.lua").display().to_string()
        ),
    )
    .unwrap();
    let out = botbox(&["tournament", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("t4.toml:3: maps: reading"), "{err}");
}

/// `check` shows some moves and elides the others: every move is either shown or counted in an
/// elision, also when a move the bot logged on comes between (the held-back tail counted too).
#[test]
fn check_accounts_for_every_move_it_elides() {
    let dir = scratch("check-elided");
    let bot = dir.join("talker.lua");
    std::fs::write(
        &bot,
        "local n = 0\nreturn { choose_move = function(obs)\n  n = n + 1\n  \
         if n % 9 == 0 then print('move ' .. n) end\n  return obs.legal[1]\nend }\n",
    )
    .unwrap();
    let out = botbox(&["check", "dice", bot.to_str().unwrap(), "--moves", "2"]);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}{}", stderr(&out));
    let shown = text.lines().filter(|l| l.starts_with("move ")).count();
    let elided: usize = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("... "))
        .filter_map(|l| l.split(' ').next()?.parse::<usize>().ok())
        .sum();
    let total: usize = text
        .lines()
        .find_map(|l| l.strip_prefix("smoke game  "))
        .and_then(|l| l.split(' ').next()?.parse().ok())
        .unwrap();
    assert!(elided > 0, "{text}");
    assert_eq!(shown + elided, total, "{text}");
    assert!(!text.contains(" 1 moves"), "{text}");
}
