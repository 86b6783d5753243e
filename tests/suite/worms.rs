//! End-to-end tests of `botbox match worms`, `botbox tournament worms` and Wormworld replays, run as
//! a user would run them.

use crate::util;

use serde_json::Value;
use util::{at, botbox, scratch, stderr, stdout};

const GREEDY: &str = "strategies/lua/worms/greedy.lua";
const RANDOM: &str = "strategies/lua/worms/random.lua";

/// [`util::run_json`] in the scratch directory `worms/NAME`.
fn run_json(name: &str, args: &[&str]) -> (String, Value) {
    util::run_json(&scratch(&format!("worms/{name}")), args)
}

#[test]
fn a_match_prints_standings_with_elo_and_writes_every_game() {
    let (text, json) = run_json(
        "match",
        &[
            "match",
            "worms",
            GREEDY,
            RANDOM,
            "--map",
            "examples/worms/arena.txt",
            "--games",
            "6",
        ],
    );
    for needle in ["worms match: 6 games", "greedy", "random", "Elo", "score"] {
        assert!(text.contains(needle), "missing {needle:?} in\n{text}");
    }
    let games = json["games"].as_array().unwrap();
    assert_eq!(games.len(), 6);
    assert_eq!(games[0]["players"], serde_json::json!(["greedy", "random"]));
    assert_eq!(games[1]["players"], serde_json::json!(["random", "greedy"]));
    let greedy = &json["standings"][0];
    assert_eq!(greedy["name"], "greedy", "greedy beats random:\n{text}");
    assert_eq!(greedy["games"], 6);
    assert_eq!(json["entries"][0]["sha256"].as_str().unwrap().len(), 64);
}

#[test]
fn the_same_seed_gives_identical_standings_whatever_the_thread_count() {
    let run = |jobs: &str| {
        run_json(
            &format!("jobs-{jobs}"),
            &[
                "tournament",
                "worms",
                "--players",
                GREEDY,
                RANDOM,
                GREEDY,
                "--maps",
                "examples/worms/tutorial.txt",
                "examples/worms/arena.txt",
                "--games",
                "4",
                "--seed",
                "11",
                "--jobs",
                jobs,
            ],
        )
        .1
    };
    let (one, two) = (run("1"), run("2"));
    assert_eq!(one["standings"], two["standings"]);
    assert_eq!(one["games"], two["games"]);
    assert_eq!(one["games"].as_array().unwrap().len(), 12);
    let names: Vec<&str> = one["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["greedy", "random", "greedy-2"],
        "repeated stems get numbered"
    );
}

#[test]
fn a_gauntlet_plays_the_candidate_against_each_other_entry() {
    let (_, json) = run_json(
        "gauntlet",
        &[
            "tournament",
            "worms",
            "--format",
            "gauntlet",
            "--players",
            RANDOM,
            GREEDY,
            GREEDY,
            "--maps",
            "examples/worms/tutorial.txt",
            "--games",
            "2",
        ],
    );
    let games = json["games"].as_array().unwrap();
    assert_eq!(games.len(), 4);
    assert!(games.iter().all(|g| {
        g["players"]
            .as_array()
            .unwrap()
            .contains(&Value::from("random"))
    }));
}

#[test]
fn replays_record_the_map_and_every_turn_and_print_turn_by_turn() {
    let dir = scratch("worms/replays");
    let (_, json) = run_json(
        "replays-run",
        &[
            "match",
            "worms",
            GREEDY,
            RANDOM,
            "--map",
            "examples/worms/tutorial.txt",
            "--games",
            "2",
            "--replay-dir",
            dir.to_str().unwrap(),
        ],
    );
    let file = dir.join("worms-0002.jsonl");
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let header = &lines[0];
    assert_eq!(header["type"], "header");
    assert_eq!(header["game"], "worms");
    assert_eq!(header["params"]["variant"], "tutorial");
    assert!(
        header["params"]["text"]
            .as_str()
            .unwrap()
            .contains("...O...")
    );
    assert_eq!(
        header["strategies"][0]["name"], "random",
        "game 2 swaps the sides"
    );
    let end = lines.last().unwrap();
    assert_eq!(end["type"], "end");
    assert_eq!(end["result"]["ending"]["turns"], json["games"][1]["turns"]);
    // A line per move; every turn, passes included, when read as Wormworld.
    let replay = botbox::replay::read(&file).unwrap();
    let turns = botbox::games::worms::view::from_contract(&replay)
        .unwrap()
        .turns;
    assert_eq!(lines.len(), 2 + replay.turns.len());
    assert_eq!(
        turns.len() as u64,
        end["result"]["ending"]["turns"].as_u64().unwrap()
    );

    // The index beside the replays: a line per game, its file, players in seat order and result.
    let index = std::fs::read_to_string(dir.join("worms-index.tsv")).unwrap();
    let rows: Vec<Vec<&str>> = index.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(
        rows[0],
        [
            "file", "variant", "players", "winner", "ended", "turns", "faults"
        ]
    );
    assert_eq!(rows.len(), 3, "{index}");
    assert_eq!(rows[2][0], "worms-0002.jsonl");
    assert_eq!(rows[2][1], "tutorial");
    assert_eq!(rows[2][2], "random, greedy");
    assert_eq!(rows[2][4], json["games"][1]["reason"].as_str().unwrap());
    assert_eq!(rows[2][5], json["games"][1]["turns"].to_string());

    let out = botbox(&["replay", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let shown = stdout(&out);
    assert!(shown.contains("worms game 2"), "{shown}");
    assert!(
        shown.contains("turn 1: player 1 (random) moves worm"),
        "{shown}"
    );
    assert!(shown.contains('['), "the last move is marked:\n{shown}");
    assert!(
        shown
            .trim_end()
            .ends_with(json["games"][1]["reason"].as_str().unwrap()),
        "{shown}"
    );
}

#[test]
fn watching_without_a_terminal_prints_every_board() {
    let out = botbox(&[
        "match",
        "worms",
        GREEDY,
        RANDOM,
        "--map",
        "examples/worms/tutorial.txt",
        "--games",
        "1",
        "--live",
        "--delay",
        "0",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("game 1/1 on tutorial"), "{text}");
    assert!(text.contains(" O"), "the hole is drawn:\n{text}");
    assert!(text.contains("1 games watched"), "{text}");
}

#[test]
fn a_broken_map_is_named_with_its_line_and_column() {
    let dir = scratch("worms/bad-map");
    let map = dir.join("bad.txt");
    std::fs::write(&map, "turns 10\n..O..\n.AAA?\n").unwrap();
    let out = botbox(&[
        "match",
        "worms",
        GREEDY,
        RANDOM,
        "--map",
        map.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("bad.txt:3:5"), "{err}");
    assert!(at("examples/worms/arena.txt").exists());
}

#[test]
fn misbehaving_programs_lose_only_their_own_games_with_the_reason_in_the_standings() {
    let (text, json) = run_json(
        "hostile-programs",
        &[
            "tournament",
            "worms",
            "--players",
            GREEDY,
            "strategies/programs/worms/greedy.py",
            "strategies/hostile/programs/crash.py",
            "strategies/hostile/programs/sleeper.py",
            "strategies/hostile/programs/garbage.py",
            "strategies/hostile/programs/illegal.py",
            "--maps",
            "examples/worms/tutorial.txt",
            "--games",
            "2",
            "--move-time",
            "300",
            "--jobs",
            "2",
        ],
    );
    let standing = |name: &str| {
        json["standings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name)
            .unwrap_or_else(|| panic!("no {name} in\n{text}"))
            .clone()
    };
    for (name, kind) in [
        ("crash", "crash"),
        ("sleeper", "timeout"),
        ("garbage", "bad-output"),
        ("illegal", "illegal"),
    ] {
        let s = standing(name);
        assert_eq!(s["faults"].as_object().unwrap().len(), 1, "{name}: {s}");
        assert!(s["faults"][kind].as_u64().unwrap() >= 4, "{name}: {s}");
    }
    // The well-behaved bots lose nothing to the misbehaving ones and fault nowhere. Two files
    // share the stem `greedy`: their names tell them apart.
    for name in ["greedy.lua", "greedy.py"] {
        let s = standing(name);
        assert_eq!(s["faults"], serde_json::json!({}), "{name}: {s}");
    }
    for p in json["pairs"].as_array().unwrap() {
        if p["a"].as_str().unwrap().starts_with("greedy")
            && !p["b"].as_str().unwrap().starts_with("greedy")
        {
            assert_eq!(p["wins"], 2, "{p}");
        }
    }
    assert!(
        text.contains("crash: the program exited with status 3"),
        "{text}"
    );
}

#[test]
fn four_merged_shards_give_the_whole_runs_report_byte_for_byte() {
    let dir = scratch("worms/shards");
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let run = |extra: &[&str], json: &str| {
        let mut args = vec![
            "tournament",
            "worms",
            "--players",
            GREEDY,
            RANDOM,
            GREEDY,
            "--maps",
            "examples/worms/tutorial.txt",
            "examples/worms/arena.txt",
            "--games",
            "6",
            "--seed",
            "3",
        ];
        args.extend_from_slice(extra);
        let json = path(json);
        args.extend_from_slice(&["--json", &json]);
        let out = botbox(&args);
        assert!(out.status.success(), "{}", stderr(&out));
    };
    run(&[], "whole.json");
    for k in 1..=4 {
        run(&["--shard", &format!("{k}/4")], &format!("part-{k}.json"));
    }
    // The parts in any order.
    let parts = ["part-3.json", "part-1.json", "part-4.json", "part-2.json"].map(path);
    let mut args = vec!["merge"];
    args.extend(parts.iter().map(String::as_str));
    let merged = path("merged.json");
    args.extend_from_slice(&["--json", &merged]);
    let out = botbox(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let whole = std::fs::read(path("whole.json")).unwrap();
    assert_eq!(
        std::fs::read(&merged).unwrap(),
        whole,
        "merged differs from whole"
    );

    // A missing part, or a part from another configuration, is refused.
    let out = botbox(&["merge", &parts[0], &parts[1]]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("shards missing"), "{}", stderr(&out));
    run(&["--shard", "2/4", "--turns", "30"], "other.json");
    let out = botbox(&[
        "merge",
        &parts[0],
        &parts[1],
        &parts[2],
        &path("other.json"),
    ]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("different configurations"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_tournament_file_runs_and_its_mistakes_are_named_with_file_line_and_key() {
    let dir = scratch("worms/toml");
    let file = dir.join("league.toml");
    let repo = util::repo();
    let r = |p: &str| repo.join(p).display().to_string();
    std::fs::write(
        &file,
        format!(
            "game = \"worms\"\ngames = 2\nseed = 4\nmaps = [{:?}]\n\n[[entries]]\npath = {:?}\n\n[[entries]]\npath = {:?}\nname = \"rnd\"\n\n[output]\njson = \"out.json\"\n",
            r("examples/worms/tutorial.txt"),
            r(GREEDY),
            r(RANDOM)
        ),
    )
    .unwrap();
    let out = botbox(&["tournament", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("out.json")).unwrap()).unwrap();
    assert_eq!(json["games"].as_array().unwrap().len(), 2);
    assert_eq!(json["entries"][1]["name"], "rnd");

    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "game = \"worms\"\ngames = 2\nsede = 4\n").unwrap();
    let out = botbox(&["tournament", bad.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("bad.toml:3:1") && err.contains("unknown field `sede`"),
        "{err}"
    );

    std::fs::write(&bad, "game = \"worms\"\ngames = \"many\"\n").unwrap();
    let err = stderr(&botbox(&["tournament", bad.to_str().unwrap()]));
    assert!(
        err.contains("bad.toml:2:9") && err.contains("games = \"many\""),
        "{err}"
    );
}

#[test]
fn the_example_tournament_files_run() {
    let dir = scratch("worms/examples");
    // A small shard of each keeps the test short; the paths in the files must all resolve.
    for (name, shard) in [("worms-league.toml", "1/18"), ("dice-free.toml", "1/100")] {
        let json = dir.join(format!("{name}.json"));
        let file = format!("examples/tournaments/{name}");
        let out = botbox(&[
            "tournament",
            &file,
            "--shard",
            shard,
            "--json",
            json.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        let report: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        assert!(!report["games"].as_array().unwrap().is_empty(), "{name}");
    }
}

#[test]
fn openings_give_deterministic_bots_distinct_games_and_the_report_counts_them() {
    let dir = util::scratch("worms-openings");
    let bot = dir.join("first.lua");
    std::fs::write(
        &bot,
        "return { choose_move = function(obs) return obs.legal[1] end }\n",
    )
    .unwrap();
    let bot = bot.to_str().unwrap();
    let run = |openings: &str| -> serde_json::Value {
        let file = dir.join(format!("o{openings}.json"));
        let replays = dir.join(format!("replays-{openings}"));
        let out = util::botbox(&[
            "tournament",
            "worms",
            "--players",
            bot,
            bot,
            "--maps",
            "examples/worms/arena.txt",
            "--games",
            "8",
            "--openings",
            openings,
            "--json",
            file.to_str().unwrap(),
            "--replay-dir",
            replays.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", util::stderr(&out));
        // Every replay re-plays, openings included.
        let replay = replays.join("worms-0003.jsonl");
        let shown = util::botbox(&["replay", replay.to_str().unwrap(), "--print"]);
        assert!(shown.status.success(), "{}", util::stderr(&shown));
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap()
    };
    // One bot that always takes the first legal move: one game per side order, played four times.
    assert_eq!(run("0")["distinct_games"], 2);
    assert!(run("6")["distinct_games"].as_u64().unwrap() > 2);
    let first = std::fs::read_to_string(dir.join("replays-6/worms-0001.jsonl")).unwrap();
    let second = std::fs::read_to_string(dir.join("replays-6/worms-0002.jsonl")).unwrap();
    let opening = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.contains("\"opening\":true"))
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                v["move"].to_string()
            })
            .collect()
    };
    assert_eq!(opening(&first).len(), 6);
    assert_eq!(
        opening(&first),
        opening(&second),
        "a pair shares its opening"
    );
}

#[test]
fn a_replay_shows_what_each_bot_logged() {
    let dir = util::scratch("worms-replay-logs");
    let bot = dir.join("talker.lua");
    std::fs::write(
        &bot,
        "return { choose_move = function(obs) print('thinking about turn', obs.turn) return obs.legal[1] end }\n",
    )
    .unwrap();
    let replays = dir.join("replays");
    let out = util::botbox(&[
        "match",
        "worms",
        bot.to_str().unwrap(),
        "strategies/lua/worms/greedy.lua",
        "--map",
        "examples/worms/arena.txt",
        "--games",
        "1",
        "--replay-dir",
        replays.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", util::stderr(&out));
    let shown = util::botbox(&[
        "replay",
        replays.join("worms-0001.jsonl").to_str().unwrap(),
        "--print",
    ]);
    let text = util::stdout(&shown);
    assert!(
        text.contains("log of seat 0 (talker)") && text.contains("| thinking about turn\t0"),
        "{text}"
    );
}
