//! End-to-end tests of `botbox dice`, run as a user would run it.

mod util;

use serde_json::Value;
use util::{at, botbox, scratch, stderr, stdout};

/// Runs `botbox dice` with `args` and `--json`, checks it succeeded, and returns stdout and the JSON.
fn dice(name: &str, args: &[&str]) -> (String, Value) {
    let file = scratch(&format!("dice/{name}")).join("report.json");
    let mut all = vec!["dice"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--json", file.to_str().unwrap()]);
    let out = botbox(&all);
    assert!(out.status.success(), "{}", stderr(&out));
    let json = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    (stdout(&out), json)
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
