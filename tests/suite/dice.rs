//! End-to-end tests of `botbox dice`, run as a user would run it.

use crate::util;

use serde_json::Value;
use util::{at, botbox, run_json, scratch, stderr, stdout};

/// Runs `botbox dice` with `args` and `--json`, checks it succeeded, and returns stdout and the JSON.
fn dice(name: &str, args: &[&str]) -> (String, Value) {
    run_json(
        &scratch(&format!("dice/{name}")),
        &[&["dice"], args].concat(),
    )
}

#[test]
fn the_competition_example_names_its_winner() {
    let (text, json) = dice(
        "wuerfel0",
        &["examples/dice/wuerfel0.txt", "--games-per-pair", "2000"],
    );
    for needle in [
        "mean win %",
        "Win % of the row die against the column die",
        "Every pair, with 95% intervals",
        "No game was drawn",
        "D2 (1 1 1 6 6 6) beats every other die head to head.",
        "The die that wins most is D2 (1 1 1 6 6 6)",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in\n{text}");
    }
    let pairs = json["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 15);
    for p in pairs {
        assert_eq!(p["games"], 2000);
        assert_eq!(p["starts"], serde_json::json!([1000, 1000]));
    }
    assert_eq!(json["head_to_head"], 1);
    assert_eq!(json["standings"][0]["die"], 1);
    // The die without a 6 (D3) wins nothing.
    assert_eq!(json["standings"][5]["die"], 2);
    assert_eq!(json["standings"][5]["mean_win"], 0.0);
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let run = |jobs: &str| {
        let args = [
            "examples/dice/loaded.txt",
            "--precision",
            "2",
            "--seed",
            "3",
            "--jobs",
            jobs,
        ];
        let (_, json) = dice(&format!("jobs-{jobs}"), &args);
        (json["pairs"].clone(), json["standings"].clone())
    };
    assert_eq!(run("1"), run("3"));
}

#[test]
fn draws_are_reported_with_their_reasons() {
    let (text, json) = dice(
        "stalling",
        &["examples/dice/stalling.txt", "--games-per-pair", "200"],
    );
    assert!(text.contains("in a deadlock"), "{text}");
    assert!(text.contains("in an endless turn of 6s"), "{text}");
    // The die of only 6s draws every game: against the ordinary die too.
    assert_eq!(json["pairs"][0]["endless_turns"], 200);
    assert_eq!(json["head_to_head"], Value::Null);
}

#[test]
fn a_broken_dice_file_is_refused_with_its_line() {
    let dir = scratch("dice/broken");
    let cases = [
        (
            "2\n6 1 2 3 4 5\n1 6\n",
            "line 2: the die announces 6 faces but lists 5",
        ),
        (
            "1\n6 1 2 3 4 5 6\n",
            "line 1: comparing dice needs at least two, but the file announces 1",
        ),
        ("2\n1 6\n1 six\n", "line 3: \"six\" is not a whole number"),
    ];
    for (i, (text, message)) in cases.iter().enumerate() {
        let file = dir.join(format!("broken-{i}.txt"));
        std::fs::write(&file, text).unwrap();
        let out = botbox(&["dice", file.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2));
        assert!(stderr(&out).contains(message), "{}", stderr(&out));
    }
}

#[test]
fn a_fixed_count_and_a_precision_cannot_both_be_asked_for() {
    let out = botbox(&[
        "dice",
        "examples/dice/wuerfel0.txt",
        "--precision",
        "1",
        "--games-per-pair",
        "100",
    ]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("cannot be used with"),
        "{}",
        stderr(&out)
    );
    let out = botbox(&[
        "dice",
        "examples/dice/wuerfel0.txt",
        "--games-per-pair",
        "7",
    ]);
    assert!(
        stderr(&out).contains("positive even number"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn help_shows_examples() {
    let text = stdout(&botbox(&["dice", "--help"]));
    assert!(
        text.contains("botbox dice examples/dice/wuerfel0.txt"),
        "{text}"
    );
    assert!(text.contains("--games-per-pair"), "{text}");
}

#[test]
fn replays_record_the_first_games_of_every_pair_and_print() {
    let dir = scratch("dice/replays");
    let replays = dir.join("games");
    let out = botbox(&[
        "dice",
        "examples/dice/no-six.txt",
        "--games-per-pair",
        "200",
        "--replay-dir",
        replays.to_str().unwrap(),
        "--replays-per-pair",
        "2",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let files: Vec<_> = std::fs::read_dir(&replays)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    let pairs = {
        let text = std::fs::read_to_string(at("examples/dice/no-six.txt")).unwrap();
        let n: usize = text.split_whitespace().next().unwrap().parse().unwrap();
        n * (n - 1) / 2
    };
    assert_eq!(files.len(), 2 * pairs, "{files:?}");
    let shown = botbox(&[
        "replay",
        replays.join("dice-D1-D2-0002.jsonl").to_str().unwrap(),
    ]);
    assert!(shown.status.success(), "{}", stderr(&shown));
    let text = stdout(&shown);
    assert!(
        text.contains("D2 starts"),
        "game 2 of a pair is started by die B:\n{text}"
    );
    assert!(
        text.contains("turn    1:") && text.contains("end: "),
        "{text}"
    );
}

/// Runs `botbox tournament dice --variant free` with `args` and `--json`, checks it succeeded, and
/// returns stdout and the JSON report.
fn free(name: &str, args: &[&str]) -> (String, Value) {
    let command = ["tournament", "dice", "--variant", "free"];
    run_json(
        &scratch(&format!("dice-free/{name}")),
        &[&command, args].concat(),
    )
}

/// The die index (0-based) of a free-variant entry named like `D3:frontmost`.
fn die_of(entry: &Value) -> u64 {
    let name = entry.as_str().unwrap();
    let number = name.strip_prefix('D').unwrap().split(':').next().unwrap();
    number.parse::<u64>().unwrap() - 1
}

#[test]
fn the_frontmost_strategy_reproduces_the_strict_rankings_results() {
    let (_, strict) = dice(
        "strict-seed-5",
        &[
            "examples/dice/wuerfel0.txt",
            "--games-per-pair",
            "200",
            "--seed",
            "5",
        ],
    );
    let (_, tournament) = free(
        "frontmost-seed-5",
        &[
            "--dice",
            "examples/dice/wuerfel0.txt",
            "--players",
            "strategies/lua/dice/frontmost.lua",
            "--games",
            "200",
            "--seed",
            "5",
        ],
    );
    let strict_pairs = strict["pairs"].as_array().unwrap();
    let free_pairs = tournament["pairs"].as_array().unwrap();
    assert_eq!(strict_pairs.len(), 15);
    assert_eq!(free_pairs.len(), 15);
    for p in strict_pairs {
        let (a, b) = (p["a"].as_u64().unwrap(), p["b"].as_u64().unwrap());
        let q = free_pairs
            .iter()
            .find(|q| die_of(&q["a"]) == a && die_of(&q["b"]) == b)
            .unwrap_or_else(|| panic!("no tournament pair for dice {a} and {b}"));
        let strict_wdl = (&p["wins"][0], &p["draws"], &p["wins"][1]);
        let free_wdl = (&q["wins"], &q["draws"], &q["losses"]);
        assert_eq!(strict_wdl, free_wdl, "dice {a} and {b}: {p} against {q}");
        // Game for game: the turns played add up to the same total.
        let turns: u64 = tournament["games"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|g| {
                let mut d = [die_of(&g["players"][0]), die_of(&g["players"][1])];
                d.sort();
                d == [a, b]
            })
            .map(|g| g["turns"].as_u64().unwrap())
            .sum();
        assert_eq!(p["turns"].as_u64().unwrap(), turns, "dice {a} and {b}");
    }
}

#[test]
fn the_example_strategies_play_without_faults() {
    let players = [
        "strategies/lua/dice/frontmost.lua",
        "strategies/lua/dice/capture_first.lua",
        "strategies/lua/dice/safety_first.lua",
        "strategies/lua/dice/expectimax.lua",
    ];
    let mut args = vec![
        "--dice",
        "examples/dice/wuerfel0.txt",
        "--die",
        "1",
        "--die",
        "2",
        "--games",
        "4",
        "--jobs",
        "2",
        // expectimax compares its own move generator with the host's legal moves at every decision
        // and raises an error (a fault) on any difference.
        "--param",
        "check=true",
        "--players",
    ];
    args.extend_from_slice(&players);
    let (text, json) = free("examples", &args);
    let standings = json["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 8, "{text}");
    assert_eq!(json["games"].as_array().unwrap().len(), 28 * 4);
    for s in standings {
        assert_eq!(s["faults"], serde_json::json!({}), "{text}");
        assert_eq!(s["games"], 7 * 4);
    }
    assert!(text.contains("D2:capture_first"), "{text}");

    // Dice with a 0, faces past the goal and a face that jumps straight into it: expectimax's move
    // generator still agrees with the host's at every decision.
    let dir = scratch("dice-free/odd-dice");
    let odd = dir.join("odd.txt");
    std::fs::write(
        &odd,
        "3\n6 1 2 3 4 5 6\n8 0 6 6 13 40 43 44 100\n5 1 6 20 39 41\n",
    )
    .unwrap();
    let (text, json) = free(
        "odd",
        &[
            "--dice",
            odd.to_str().unwrap(),
            "--players",
            "strategies/lua/dice/expectimax.lua",
            "--games",
            "6",
            "--jobs",
            "2",
            "--param",
            "check=true",
        ],
    );
    for s in json["standings"].as_array().unwrap() {
        assert_eq!(s["faults"], serde_json::json!({}), "{text}");
    }
}

#[test]
fn an_answer_that_is_not_a_legal_move_loses_as_illegal() {
    let dir = scratch("dice-free/illegal-strategy");
    let bad = dir.join("bad.lua");
    // One step further than the frontmost move: a move of the wrong length, never legal.
    std::fs::write(
        &bad,
        "return { choose_move = function(obs)\n\
         \treturn { from = obs.legal[1].from, to = obs.legal[1].to + 1 }\n\
         end }\n",
    )
    .unwrap();
    let (text, json) = free(
        "illegal",
        &[
            "--dice",
            "examples/dice/wuerfel0.txt",
            "--die",
            "1",
            "--players",
            bad.to_str().unwrap(),
            "strategies/lua/dice/frontmost.lua",
            "--games",
            "4",
        ],
    );
    let standings = json["standings"].as_array().unwrap();
    let bad = standings.iter().find(|s| s["name"] == "D1:bad").unwrap();
    let good = standings
        .iter()
        .find(|s| s["name"] == "D1:frontmost")
        .unwrap();
    assert_eq!(bad["losses"], 4, "{text}");
    assert_eq!(bad["faults"], serde_json::json!({"illegal": 4}), "{text}");
    assert_eq!(good["wins"], 4, "{text}");
    assert_eq!(good["faults"], serde_json::json!({}), "{text}");
    for g in json["games"].as_array().unwrap() {
        assert_eq!(g["reason"], "fault");
        assert_eq!(g["winner"], "D1:frontmost");
    }
    assert!(text.contains("not among the legal moves"), "{text}");
}

#[test]
fn a_free_dice_replay_shows_what_each_bot_logged() {
    let dir = util::scratch("dice-replay-logs");
    let bot = dir.join("talker.lua");
    std::fs::write(
        &bot,
        "return { choose_move = function(obs) print('face', obs.face) return { from = obs.legal[1].from, to = obs.legal[1].to } end }\n",
    )
    .unwrap();
    let replays = dir.join("replays");
    let out = util::botbox(&[
        "tournament",
        "dice",
        "--dice",
        "examples/dice/wuerfel0.txt",
        "--die",
        "1",
        "--players",
        bot.to_str().unwrap(),
        "strategies/lua/dice/frontmost.lua",
        "--games",
        "2",
        "--replay-dir",
        replays.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", util::stderr(&out));
    let shown = util::botbox(&["replay", replays.join("dice-0001.jsonl").to_str().unwrap()]);
    let text = util::stdout(&shown);
    assert!(
        text.contains("log of seat") && text.contains("talker") && text.contains("| face\t"),
        "{text}"
    );
    // Both roll die 1: each seat is named by its die and its strategy (issue 32).
    assert!(
        text.contains("D1:talker") && text.contains("D1:frontmost") && text.contains(" starts"),
        "{text}"
    );
    // It ends with the last board: the cross of 11 rows, both start fields, and every piece of
    // both seats (waiting, on the track or home) once.
    let board: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("the board after the last move"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .collect();
    assert_eq!(board.len(), 11, "{text}");
    let count = |c: char| board.iter().map(|l| l.matches(c).count()).sum::<usize>();
    assert_eq!((count('1'), count('2')), (4, 4), "{text}");
    assert!(
        count('A') <= 2 && count('o') + count('A') + count('1') + count('2') >= 40,
        "{text}"
    );
}

/// An odd number of games is played for dice as for every two-player game, with a note that it
/// favours one side; `--sprt` still refuses it, since it scores pairs of games.
#[test]
fn an_odd_game_count_is_played_with_a_note_in_every_two_player_game() {
    for args in [
        &[
            "match",
            "dice",
            "strategies/lua/dice/random.lua",
            "strategies/lua/dice/frontmost.lua",
        ][..],
        &[
            "match",
            "connect4",
            "strategies/lua/connect4/random.lua",
            "strategies/lua/connect4/center.lua",
        ],
    ] {
        let out = util::botbox(&[args, &["--games", "3"]].concat());
        assert!(out.status.success(), "{args:?}: {}", util::stderr(&out));
        let err = util::stderr(&out);
        assert!(
            err.contains("note: --games 3 is odd") && err.contains("moves first once more"),
            "{args:?}: {err}"
        );
        assert!(
            util::stdout(&out).contains("3 per pairing"),
            "{}",
            util::stdout(&out)
        );
        let even = util::botbox(&[args, &["--games", "2"]].concat());
        assert!(
            !util::stderr(&even).contains("is odd"),
            "{}",
            util::stderr(&even)
        );
    }
}

/// A bot that does not start faults at the set-up, even in a game its die decides before anyone
/// is asked (die 3 of wuerfel0 has no 6, so no piece ever leaves B): the replay reads, and the
/// viewer draws it.
#[test]
fn a_setup_fault_in_a_game_decided_before_any_choice_replays() {
    let dir = scratch("dice-setup-fault");
    let empty = dir.join("empty.lua");
    std::fs::write(&empty, "\n").unwrap();
    let (empty_s, dir_s) = (empty.display().to_string(), dir.display().to_string());
    let frontmost = at("strategies/lua/dice/frontmost.lua")
        .display()
        .to_string();
    let out = botbox(&[
        "match",
        "dice",
        &empty_s,
        &frontmost,
        "--die",
        "3",
        "--games",
        "1",
        "--replay-dir",
        &dir_s,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let file = dir.join("dice-0001.jsonl").display().to_string();
    let text = stdout(&botbox(&["replay", &file]));
    assert!(text.contains("wins after"), "{text}");
    let page = dir.join("page.html").display().to_string();
    let out = botbox(&["view", &file, "--html", &page]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
