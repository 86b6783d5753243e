//! The sequential test (`--sprt`): a match stops at the test's verdict, and where it stops depends
//! on the games alone, never on `--jobs`; runs it cannot judge are refused; `watch` tests a saved
//! version against the previous one head to head.

use std::io::BufRead as _;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::util::{self, botbox, run_json, scratch, stderr};

const EXPECTIMAX: &str = "strategies/lua/dice/expectimax.lua";
const FRONTMOST: &str = "strategies/lua/dice/frontmost.lua";
const RANDOM: &str = "strategies/lua/dice/random.lua";

/// Runs `args` with `--jobs JOBS --json` and replays into a directory of their own; the text, the
/// report, and how many replay files were written (each listed in the index beside them).
fn run(dir: &Path, args: &[&str], jobs: &str) -> (String, serde_json::Value, usize) {
    let dir = dir.join(format!("jobs-{jobs}"));
    std::fs::create_dir_all(&dir).unwrap();
    let replays = dir.join("replays");
    let mut all = args.to_vec();
    all.extend(["--jobs", jobs, "--replay-dir", replays.to_str().unwrap()]);
    let (text, report) = run_json(&dir, &all);
    let files = std::fs::read_dir(&replays)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension().unwrap() == "jsonl")
        .count();
    // The index lists the games kept, and no more.
    let game = report["game"].as_str().unwrap();
    let index = std::fs::read_to_string(replays.join(format!("{game}-index.tsv"))).unwrap();
    assert_eq!(index.lines().count(), files + 1, "{index}");
    (text, report, files)
}

/// Plays `args` with one and with two threads: the reports are identical, and the run stopped at a
/// verdict before its cap of games; returns the report and the text.
fn decided_the_same_whatever_jobs(name: &str, args: &[&str]) -> (serde_json::Value, String) {
    let dir = scratch(name);
    let (text, one, files) = run(&dir, args, "1");
    let (_, two, files_two) = run(&dir, args, "2");
    assert_eq!(
        one, two,
        "{name}: the reports differ between --jobs 1 and 2"
    );
    let sprt = &one["sprt"];
    let games = one["games"].as_array().unwrap().len();
    assert_eq!(
        sprt["games"], games,
        "{name}: the test counts every game played"
    );
    assert!(games < 20_000 && games % 2 == 0, "{name}: {games} games");
    assert_eq!(
        (files, files_two),
        (games, games),
        "{name}: one replay per game kept"
    );
    let (llr, lower, upper) = (
        sprt["llr"].as_f64().unwrap(),
        sprt["lower"].as_f64().unwrap(),
        sprt["upper"].as_f64().unwrap(),
    );
    match sprt["verdict"].as_str() {
        Some("H1") => assert!(llr >= upper, "{sprt}"),
        Some("H0") => assert!(llr <= lower, "{sprt}"),
        other => panic!("{name}: no verdict ({other:?}): {text}"),
    }
    let counted: u64 = ["ll", "ld", "dd", "wl", "wd", "ww"]
        .iter()
        .map(|k| sprt["penta"][k].as_u64().unwrap())
        .sum();
    assert_eq!(
        2 * counted as usize,
        games,
        "{name}: every pair counted once"
    );
    assert!(
        text.contains(&format!("after {games} games")) && text.contains("LLR"),
        "{name}: {text}"
    );
    (one, text)
}

#[test]
fn a_stronger_bot_is_accepted_as_stronger_and_the_match_stops_there() {
    let args = [
        "match",
        "dice",
        EXPECTIMAX,
        FRONTMOST,
        "--die",
        "1",
        "--sprt",
        "elo0=0,elo1=50,alpha=0.05,beta=0.05",
    ];
    let (report, text) = decided_the_same_whatever_jobs("sprt/h1", &args);
    assert_eq!(report["sprt"]["verdict"], "H1");
    assert!(
        text.contains("H1 accepted: D1:expectimax is stronger than D1:frontmost"),
        "{text}"
    );
}

#[test]
fn a_bot_against_itself_is_not_accepted_as_stronger() {
    let args = [
        "match",
        "dice",
        RANDOM,
        RANDOM,
        "--die",
        "1",
        "--seed",
        "3",
        "--sprt",
        "elo0=0,elo1=50",
    ];
    let (report, text) = decided_the_same_whatever_jobs("sprt/h0", &args);
    assert_eq!(report["sprt"]["verdict"], "H0");
    assert!(
        text.contains("H0 accepted: D1:random is not stronger"),
        "{text}"
    );
}

#[test]
fn a_tournament_of_two_entries_runs_the_test_on_any_contract_game() {
    let args = [
        "tournament",
        "connect4",
        "--players",
        "strategies/lua/connect4/random.lua",
        "strategies/lua/connect4/center.lua",
        "--openings",
        "2",
        "--sprt",
        "elo0=-20,elo1=20,model=logistic",
    ];
    let (report, _) = decided_the_same_whatever_jobs("sprt/connect4", &args);
    assert_eq!(report["sprt"]["verdict"], "H0");
    assert_eq!(report["sprt"]["model"], "logistic");
}

#[test]
fn a_tournament_file_carries_its_test_and_the_command_line_overrides_it() {
    let file = "examples/tournaments/sprt-dice.toml";
    let (report, text) = decided_the_same_whatever_jobs("sprt/file", &["tournament", file]);
    assert_eq!(report["sprt"]["verdict"], "H1");
    assert_eq!(report["sprt"]["elo1"], 50.0);
    assert!(text.contains("H1 accepted"), "{text}");
    let dir = scratch("sprt/file-override");
    let (_, report) = run_json(&dir, &["tournament", file, "--sprt", "elo0=0,elo1=20"]);
    assert_eq!(report["sprt"]["elo1"], 20.0);
    // A test the file spells wrong is refused before any game, naming the file and the value.
    let bad = dir.join("bad.toml");
    let repo = util::repo().display().to_string();
    let text = std::fs::read_to_string(util::repo().join(file))
        .unwrap()
        .replace("elo1=50", "elo1=fifty")
        .replace("\"../../", &format!("\"{repo}/"))
        .replace("\"../", &format!("\"{repo}/examples/"));
    std::fs::write(&bad, text).unwrap();
    let out = botbox(&["tournament", bad.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("bad.toml: sprt = ") && err.contains("elo1=fifty is not a number"),
        "{err}"
    );
}

#[test]
fn a_run_that_reaches_its_cap_says_it_is_undecided() {
    let dir = scratch("sprt/cap");
    let args = [
        "match",
        "dice",
        RANDOM,
        RANDOM,
        "--die",
        "1",
        "--games",
        "10",
        "--sprt",
        "elo0=0,elo1=5",
    ];
    let (text, report) = run_json(&dir, &args);
    assert_eq!(report["games"].as_array().unwrap().len(), 10);
    assert_eq!(report["sprt"]["verdict"], serde_json::Value::Null);
    assert!(
        text.contains("undecided: the cap of 10 games (--games) came first"),
        "{text}"
    );
}

#[test]
fn runs_the_test_cannot_judge_are_refused_with_the_reason() {
    let worms = [
        "--map",
        "examples/worms/arena.txt",
        "--sprt",
        "elo0=0,elo1=5",
    ];
    let cases: [(Vec<&str>, &str); 6] = [
        (
            vec![
                "match",
                "dice",
                RANDOM,
                FRONTMOST,
                "--sprt",
                "elo0=0,elo1=5",
            ],
            "choose it with --die N",
        ),
        (
            vec![
                "tournament",
                "dice",
                "--players",
                RANDOM,
                FRONTMOST,
                EXPECTIMAX,
                "--die",
                "1",
                "--sprt",
                "elo0=0,elo1=5",
            ],
            "needs exactly two entries, and this run has 3",
        ),
        (
            vec![
                "match",
                "dice",
                RANDOM,
                FRONTMOST,
                "--die",
                "1",
                "--games",
                "7",
                "--sprt",
                "elo0=0,elo1=5",
            ],
            "--games 7 is odd",
        ),
        (
            [
                &[
                    "tournament",
                    "worms",
                    "--players",
                    "strategies/lua/worms/greedy.lua",
                ][..],
                &["strategies/lua/worms/random.lua", "--shard", "1/2"],
                &worms,
            ]
            .concat(),
            "cannot be played in --shard parts",
        ),
        (
            vec![
                "match",
                "dice",
                RANDOM,
                FRONTMOST,
                "--die",
                "1",
                "--sprt",
                "elo0=5,elo1=0",
            ],
            "elo0=5 must be below elo1=0",
        ),
        (
            vec![
                "match",
                "dice",
                RANDOM,
                FRONTMOST,
                "--die",
                "1",
                "--sprt",
                "elo0=0,elo=5",
            ],
            "unknown key \"elo\"",
        ),
    ];
    for (args, reason) in cases {
        let out = botbox(&args);
        assert!(!out.status.success(), "{args:?} ran");
        assert!(stderr(&out).contains(reason), "{args:?}: {}", stderr(&out));
    }
}

/// Reads `child`'s stdout lines until one contains `wanted`, for at most `within`.
/// The lines a child writes to its piped standard output, as they come, read on a thread of
/// their own.
pub(crate) fn stdout_lines(child: &mut std::process::Child) -> std::sync::mpsc::Receiver<String> {
    let stdout = child.stdout.take().expect("a piped stdout");
    let (send, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines() {
            if send.send(line.unwrap_or_default()).is_err() {
                break;
            }
        }
    });
    lines
}

pub(crate) fn wait_for_line(
    lines: &std::sync::mpsc::Receiver<String>,
    wanted: &str,
    within: Duration,
) -> String {
    let deadline = Instant::now() + within;
    let mut seen = String::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match lines.recv_timeout(left) {
            Ok(line) if line.contains(wanted) => return line,
            Ok(line) => seen.push_str(&(line + "\n")),
            Err(_) => panic!("no line with {wanted:?} within {within:?}; saw:\n{seen}"),
        }
    }
}

#[test]
fn watch_tests_a_saved_version_against_the_previous_one_head_to_head() {
    let dir = scratch("sprt/watch");
    let file = dir.join("bot.lua");
    std::fs::copy(util::at(FRONTMOST), &file).unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_botbox"))
        .current_dir(util::repo())
        .args([
            "watch",
            file.to_str().unwrap(),
            "--game",
            "dice",
            "--vs",
            RANDOM,
        ])
        .args([
            "--die",
            "1",
            "--batch",
            "8",
            "--batches",
            "2000",
            "--jobs",
            "1",
        ])
        .args(["--sprt", "elo0=0,elo1=50"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let lines = stdout_lines(&mut child);
    wait_for_line(&lines, "v1 bot@", Duration::from_secs(30));
    std::thread::sleep(Duration::from_millis(300));
    std::fs::copy(util::at(EXPECTIMAX), &file).unwrap();
    let start = wait_for_line(&lines, "saved: v2", Duration::from_secs(30));
    assert!(start.contains("head to head"), "{start}");
    let progress = wait_for_line(&lines, "LLR", Duration::from_secs(60));
    assert!(
        progress.contains("v2 bot@") && progress.contains("vs v1 bot@"),
        "{progress}"
    );
    let verdict = wait_for_line(&lines, "accepted", Duration::from_secs(120));
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        verdict.starts_with("v2 is better than v1 (H1 accepted) after "),
        "{verdict}"
    );
}
