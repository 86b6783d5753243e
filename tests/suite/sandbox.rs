//! The sandbox against code that knows the contract (strategies/hostile/README.md): nothing survives
//! a game, every C library call is bounded, garbage is not a fault, the deterministic limits decide
//! whatever the machine's load, and messages stay small.

use crate::util;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::util::play_2048 as play;
use botbox::runtime::{FaultKind, Limits};
use serde_json::Value;
use util::{at, botbox, run_json, scratch, stderr, test_limits};

const CARRIER: &str = "strategies/hostile/lua/carry_state.lua";
const WASM_CARRIER: &str = "strategies/hostile/wasm/carry_state.wat";
const LUA_LOOP: &str = "strategies/hostile/lua/endless_loop.lua";
const WASM_LOOP: &str = "strategies/hostile/wasm/endless_loop.wat";
const GREEDY_WORMS: &str = "strategies/lua/worms/greedy.lua";

/// Every fault recorded in a report's games, as (game index, fault) pairs; reports name them
/// `fault` (one strategy) or `faults` (one per seat).
fn faults(report: &Value) -> Vec<String> {
    let mut found = Vec::new();
    for (i, game) in report["games"].as_array().unwrap().iter().enumerate() {
        for key in ["fault", "faults"] {
            match &game[key] {
                Value::Null => {}
                Value::Array(list) if list.iter().all(Value::is_null) => {}
                Value::Object(map) if map.is_empty() => {}
                other => found.push(format!("game {i}: {other}")),
            }
        }
    }
    found
}

/// Plays one 2048 game with a fixture under `limits` and returns its fault kind.
fn fault_kind(fixture: &str, limits: &Limits) -> Option<FaultKind> {
    let strategy = botbox::hosted::load(&at(fixture), limits)
        .unwrap_or_else(|e| panic!("{fixture} should load: {e}"));
    let (record, _) = play(&strategy, 4, 1, 7, false);
    record.fault.map(|f| f.kind)
}

#[test]
fn nothing_a_lua_strategy_writes_in_one_game_is_seen_in_the_next_in_any_game() {
    // One thread, so that every game after the first runs on a reused Luau state.
    let runs: [(&str, Vec<&str>); 4] = [
        (
            "2048",
            vec!["bench", "2048", CARRIER, "--games", "6", "--jobs", "1"],
        ),
        (
            "worms",
            vec![
                "match",
                "worms",
                CARRIER,
                GREEDY_WORMS,
                "--map",
                "examples/worms/tutorial.txt",
                "--games",
                "4",
                "--jobs",
                "1",
            ],
        ),
        (
            "dice",
            vec![
                "tournament",
                "dice",
                "--variant",
                "free",
                "--dice",
                "examples/dice/wuerfel0.txt",
                "--players",
                CARRIER,
                "strategies/lua/dice/frontmost.lua",
                "--games",
                "4",
                "--jobs",
                "1",
            ],
        ),
        (
            "bs",
            vec![
                "tournament",
                "bs",
                "--players",
                CARRIER,
                CARRIER,
                CARRIER,
                CARRIER,
                "--games",
                "6",
                "--jobs",
                "1",
            ],
        ),
    ];
    for (game, args) in runs {
        let (text, report) = run_json(&scratch(&format!("sandbox/carry-{game}")), &args);
        assert_eq!(faults(&report), Vec::<String>::new(), "{game}:\n{text}");
        assert!(
            report["games"].as_array().unwrap().len() >= 4,
            "{game}: {text}"
        );
    }
}

#[test]
fn a_wasm_strategy_gets_a_fresh_instance_every_game() {
    let dir = scratch("sandbox/carry-wasm");
    let (text, report) = run_json(
        &dir,
        &["bench", "2048", WASM_CARRIER, "--games", "6", "--jobs", "1"],
    );
    assert_eq!(faults(&report), Vec::<String>::new(), "{text}");
}

/// Eight processes that keep both cores busy until dropped.
struct Busy(Vec<Child>);

impl Busy {
    fn start() -> Busy {
        Busy(
            (0..8)
                .map(|_| {
                    Command::new("sh")
                        .args(["-c", "while :; do :; done"])
                        .stdin(Stdio::null())
                        .spawn()
                        .expect("starting a busy process")
                })
                .collect(),
        )
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The parts of a report that must not depend on threads or load (timings are left out).
fn results(report: &Value) -> Value {
    serde_json::json!({
        "games": report["games"],
        "standings": report["standings"],
        "summary_faults": report["summary"]["faults"],
    })
}

#[test]
fn results_are_the_same_whatever_the_thread_count_and_the_load() {
    // Carriers and endless loops (Luau and WASM, ended by budget and fuel).
    let worms = |name: &str, jobs: &str| {
        let (_, report) = run_json(
            &scratch(&format!("sandbox/load/{name}")),
            &[
                "tournament",
                "worms",
                "--players",
                CARRIER,
                GREEDY_WORMS,
                LUA_LOOP,
                WASM_LOOP,
                "--maps",
                "examples/worms/tutorial.txt",
                "--games",
                "2",
                "--seed",
                "5",
                "--jobs",
                jobs,
                // Fuel of the tightest loop costs about 0.9 s of CPU and the Lua budget 0.5 s:
                // beside 8 busy processes on 2 cores both take longer than the 2 s time limit in
                // wall time, which decided these games before the limit counted CPU time.
                "--fuel",
                "400000000",
                "--time-limit",
                "2000",
            ],
        );
        results(&report)
    };
    let bench = |name: &str, file: &str, jobs: &str| {
        let (_, report) = run_json(
            &scratch(&format!("sandbox/load/{name}")),
            &["bench", "2048", file, "--games", "4", "--jobs", jobs],
        );
        results(&report)
    };
    let quiet = (
        worms("quiet-1", "1"),
        bench("quiet-lua", CARRIER, "1"),
        bench("quiet-wasm", WASM_CARRIER, "1"),
    );
    let two = (
        worms("quiet-2", "2"),
        bench("quiet-lua-2", CARRIER, "2"),
        bench("quiet-wasm-2", WASM_CARRIER, "2"),
    );
    assert_eq!(quiet, two, "--jobs 1 and --jobs 2 differ");
    let faults = quiet.0["games"].to_string();
    assert!(
        faults.contains("\"budget\"") && faults.contains("\"fuel\""),
        "the loops end by budget and fuel: {faults}"
    );
    assert!(!faults.contains("\"timeout\""), "{faults}");
    let busy = Busy::start();
    let loaded = (
        worms("busy-2", "2"),
        bench("busy-lua", CARRIER, "2"),
        bench("busy-wasm", WASM_CARRIER, "2"),
    );
    drop(busy);
    assert_eq!(quiet, loaded, "a busy machine changed the results");
}

#[test]
fn every_sized_library_call_is_charged_to_the_budget() {
    for name in [
        "table_move_huge",
        "string_rep_loop",
        "buffer_fill_loop",
        "sort_huge",
        "pattern_backtrack",
        "plain_find_quadratic",
        "pattern_balance_scan",
    ] {
        let fixture = format!("strategies/hostile/lua/{name}.lua");
        // The default limits: the budget, not the time backstop, must end these.
        let limits = Limits::default();
        let start = Instant::now();
        let kind = fault_kind(&fixture, &limits);
        let took = start.elapsed();
        assert_eq!(kind, Some(FaultKind::Budget), "{fixture} after {took:?}");
        assert!(
            took < limits.wall * 3 / 2,
            "{fixture} ran {took:?}, over 1.5 times the time limit"
        );
    }
}

#[test]
fn garbage_is_not_live_memory_for_a_whole_game() {
    // Three times a 4 MiB cap in garbage at every decision of a whole game.
    let limits = Limits {
        memory: 4 << 20,
        ..Limits::default()
    };
    let strategy = botbox::hosted::load(&at("strategies/hostile/lua/garbage_churn.lua"), &limits)
        .expect("loads")
        .with_params(
            [("mib".to_string(), serde_json::json!(12))]
                .into_iter()
                .collect(),
        );
    let (record, _) = play(&strategy, 4, 1, 3, false);
    assert_eq!(record.fault, None, "{record:?}");
    assert!(record.moves > 50, "a whole game: {record:?}");
}

#[test]
fn a_thousand_games_of_garbage_churn_have_no_fault_and_a_growing_live_set_still_faults() {
    let dir = scratch("sandbox/churn");
    let (text, report) = run_json(
        &dir,
        &[
            "bench",
            "2048",
            "strategies/hostile/lua/garbage_churn.lua",
            "--games",
            "1000",
            "--memory",
            "1",
            "--param",
            "mib=0.25",
        ],
    );
    assert_eq!(faults(&report), Vec::<String>::new(), "{text}");
    assert_eq!(report["games"].as_array().unwrap().len(), 1000);
    assert_eq!(
        fault_kind(
            "strategies/hostile/lua/growing_live_set.lua",
            &test_limits()
        ),
        Some(FaultKind::Memory)
    );
}

/// Peak resident memory of a running process, polled until it exits; the exit status.
fn peak_rss(mut child: Child) -> (u64, std::process::ExitStatus) {
    let pid = child.id().to_string();
    let mut peak = 0;
    loop {
        if let Some(hwm) = util::proc_memory(&pid, "VmHWM") {
            peak = peak.max(hwm);
        }
        if let Some(status) = child.try_wait().unwrap() {
            return (peak, status);
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn a_hundred_games_of_a_12_mb_error_keep_the_host_and_the_report_small() {
    let dir = scratch("sandbox/huge-error");
    let json = dir.join("report.json");
    let child = Command::new(env!("CARGO_BIN_EXE_botbox"))
        .args([
            "bench",
            "2048",
            "strategies/hostile/lua/huge_error.lua",
            "--games",
            "100",
            "--json",
            json.to_str().unwrap(),
        ])
        .current_dir(util::repo())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let (peak, status) = peak_rss(child);
    // Every game faulted, so the bench says no game completed.
    assert_eq!(status.code(), Some(1));
    assert!(peak < 100 << 20, "peak RSS {} MiB", peak >> 20);
    let size = std::fs::metadata(&json).unwrap().len();
    assert!(size < 1 << 20, "report of {size} bytes");
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let fault = &report["games"][0]["faults"][0];
    assert_eq!(fault["kind"], "error");
    let message = fault["message"].as_str().unwrap();
    assert!(message.len() <= 4096, "{}", message.len());
    assert!(message.contains("bytes in all]"), "{message:.200}");
}

#[test]
fn long_answers_and_log_lines_are_cut() {
    let fault = {
        let strategy = botbox::hosted::load(
            &at("strategies/hostile/lua/huge_answer.lua"),
            &test_limits(),
        )
        .unwrap();
        play(&strategy, 4, 1, 1, false).0.fault.unwrap()
    };
    assert_eq!(fault.kind, FaultKind::BadOutput);
    assert!(fault.message.len() <= 4096, "{}", fault.message.len());
    let out = botbox(&[
        "check",
        "strategies/hostile/lua/huge_log.lua",
        "--game",
        "2048",
    ]);
    let text = util::stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    // At most the log's cap per game (64 KiB), each line cut to 4 KiB.
    assert!(text.len() < 80 << 10, "check printed {} bytes", text.len());
    assert!(text.contains("bytes in all]"), "{text:.400}");
}

#[test]
fn a_lua_source_over_the_cap_is_refused_before_parsing() {
    let dir = scratch("sandbox/source-cap");
    let file = dir.join("huge.lua");
    let mut source = "return { choose_move = function(obs) return obs.legal[1] end }\n".to_string();
    source.push_str(&"-- padding\n".repeat(200_000));
    std::fs::write(&file, source).unwrap();
    let error = botbox::hosted::load(Path::new(&file), &Limits::default()).unwrap_err();
    assert!(error.to_string().contains("over the limit"), "{error}");
}
