//! End-to-end tests of `botbox tournament bs`, `botbox match bs` and BS replays, run as a user would
//! run them. Small bots are written into scratch directories: the example bots of
//! `strategies/lua/bs/` are other people's and may change.

use crate::util;

use std::path::{Path, PathBuf};

use serde_json::Value;
use util::{botbox, run_json, scratch, stderr, stdout};

/// Player1 of the contest: all cards of the rank, else the oldest card; calls claims of 3 or more.
const PLAYER1: &str = r#"
local M = {}
function M.play(obs)
  local cards = {}
  for _, id in ipairs(obs.hand) do
    if id // 4 == obs.rank then cards[#cards + 1] = id end
  end
  if #cards == 0 then cards[1] = obs.hand[1] end
  return cards
end
function M.call(obs) return obs.count >= 3 end
return M
"#;

/// Player3: all cards of the rank, else the two oldest; never calls.
const PLAYER3: &str = r#"
local M = {}
function M.play(obs)
  local cards = {}
  for _, id in ipairs(obs.hand) do
    if id // 4 == obs.rank then cards[#cards + 1] = id end
  end
  if #cards == 0 then cards = {obs.hand[1], obs.hand[2]} end
  return cards
end
function M.call(obs) return false end
return M
"#;

/// Calls at random with the seeded `math.random`; plays one random card.
const RANDOM: &str = r#"
local M = {}
function M.play(obs) return {obs.hand[math.random(#obs.hand)]} end
function M.call(obs) return math.random() < 0.3 end
return M
"#;

/// Player1 that also listens: it checks that it heard every play before its own, and that a call
/// reveals exactly as many cards as were played.
const LISTENER: &str = r#"
local M = {}
local plays, last_count = 0, 0
function M.observe(event)
  if event.type == "play" then
    plays += 1
    last_count = event.count
  elseif event.type == "call" then
    assert(#event.cards == last_count, "a call reveals the played cards")
  end
end
function M.play(obs)
  assert(plays == obs.turn, "heard " .. plays .. " plays before turn " .. obs.turn)
  local cards = {}
  for _, id in ipairs(obs.hand) do
    if id // 4 == obs.rank then cards[#cards + 1] = id end
  end
  if #cards == 0 then cards[1] = obs.hand[1] end
  return cards
end
function M.call(obs)
  assert(plays == obs.turn + 1, "the play event comes before the question")
  return obs.count >= 3
end
return M
"#;

/// Plays a card it does not hold.
const THIEF: &str = r#"
local M = {}
function M.play(obs)
  local held = {}
  for _, id in ipairs(obs.hand) do held[id] = true end
  for id = 0, 51 do
    if not held[id] then return {id} end
  end
end
function M.call(obs) return false end
return M
"#;

/// Returns nothing from `play`.
const SILENT: &str = r#"
local M = {}
function M.play(obs) end
function M.call(obs) return false end
return M
"#;

/// Loops forever when asked whether to call.
const LOOPER: &str = r#"
local M = {}
function M.play(obs) return {obs.hand[1]} end
function M.call(obs) while true do end end
return M
"#;

/// Writes `bots` (name, source) into a scratch directory and returns their paths.
fn write_bots(dir: &Path, bots: &[(&str, &str)]) -> Vec<PathBuf> {
    bots.iter()
        .map(|(name, source)| {
            let path = dir.join(format!("{name}.lua"));
            std::fs::write(&path, source).unwrap();
            path
        })
        .collect()
}

fn paths(bots: &[PathBuf]) -> Vec<&str> {
    bots.iter().map(|p| p.to_str().unwrap()).collect()
}

fn standing<'a>(json: &'a Value, name: &str) -> &'a Value {
    json["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("no {name} in the standings"))
}

fn tournament(dir: &Path, bots: &[PathBuf], extra: &[&str]) -> (String, Value) {
    let mut args = vec!["tournament", "bs", "--players"];
    args.extend(paths(bots));
    args.extend_from_slice(extra);
    run_json(dir, &args)
}

#[test]
fn a_tournament_seats_four_of_the_pool_and_reports_standings_with_intervals() {
    let dir = scratch("bs/tournament");
    let bots = write_bots(
        &dir,
        &[
            ("player1", PLAYER1),
            ("player3", PLAYER3),
            ("random", RANDOM),
            ("listener", LISTENER),
            ("player1b", PLAYER1),
        ],
    );
    let (text, json) = tournament(&dir, &bots, &["--games", "60", "--jobs", "2"]);
    for needle in [
        "bs tournament: 60 games",
        "win %",
        "95% interval",
        "seat 0",
        "Ends:",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in\n{text}");
    }
    let games = json["games"].as_array().unwrap();
    assert_eq!(games.len(), 60);
    for g in games {
        let mut players: Vec<&str> = g["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap())
            .collect();
        players.sort();
        players.dedup();
        assert_eq!(players.len(), 4, "four distinct entries: {g}");
    }
    let wins: u64 = json["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["wins"].as_u64().unwrap())
        .sum();
    let ends = &json["ends"];
    assert_eq!(ends["faulted"], 0, "{text}");
    assert_eq!(wins, ends["won"].as_u64().unwrap());
    let seated: u64 = json["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["games"].as_u64().unwrap())
        .sum();
    assert_eq!(seated, 4 * 60);
    let p1 = standing(&json, "player1");
    let (low, rate, high) = (
        p1["low"].as_f64().unwrap(),
        p1["win_rate"].as_f64().unwrap(),
        p1["high"].as_f64().unwrap(),
    );
    assert!(low <= rate && rate <= high, "{p1}");
    assert_eq!(p1["by_seat"].as_array().unwrap().len(), 4);
    assert_eq!(json["seats"].as_array().unwrap().len(), 4);
    assert_eq!(json["entries"][0]["sha256"].as_str().unwrap().len(), 64);
    assert_eq!(standing(&json, "listener")["faults"], serde_json::json!({}));
}

#[test]
fn the_same_seed_gives_the_same_report_whatever_the_thread_count() {
    let dir = scratch("bs/jobs");
    let bots = write_bots(
        &dir,
        &[
            ("a", PLAYER1),
            ("b", PLAYER3),
            ("c", RANDOM),
            ("d", LISTENER),
        ],
    );
    let run = |jobs: &str| {
        let sub = dir.join(format!("jobs-{jobs}"));
        std::fs::create_dir_all(&sub).unwrap();
        tournament(
            &sub,
            &bots,
            &["--games", "40", "--seed", "9", "--jobs", jobs],
        )
        .1
    };
    let (one, two) = (run("1"), run("2"));
    assert_eq!(one["standings"], two["standings"]);
    assert_eq!(one["games"], two["games"]);
    assert_ne!(
        run("1")["games"],
        tournament(&dir, &bots, &["--games", "40", "--seed", "10"]).1["games"],
        "another seed plays other games"
    );
}

#[test]
fn misbehaving_bots_lose_their_games_void_them_for_the_others_and_the_run_goes_on() {
    let dir = scratch("bs/hostile");
    let bots = write_bots(
        &dir,
        &[
            ("player1", PLAYER1),
            ("player3", PLAYER3),
            ("thief", THIEF),
            ("silent", SILENT),
            ("looper", LOOPER),
        ],
    );
    let (text, json) = tournament(
        &dir,
        &bots,
        &["--games", "30", "--jobs", "2", "--lua-budget", "100000"],
    );
    for (name, kind) in [
        ("thief", "illegal"),
        ("silent", "bad-output"),
        ("looper", "budget"),
    ] {
        let s = standing(&json, name);
        let faults = s["faults"].as_object().unwrap();
        assert_eq!(faults.len(), 1, "{name}: {s}");
        assert!(faults[kind].as_u64().unwrap() >= 1, "{name}: {s}");
        assert_eq!(s["wins"], 0, "{name}: {s}");
    }
    for name in ["player1", "player3"] {
        let s = standing(&json, name);
        assert_eq!(s["faults"], serde_json::json!({}), "{name}: {s}");
        assert!(s["void"].as_u64().unwrap() >= 1, "{name}: {s}");
    }
    let void = json["ends"]["faulted"].as_u64().unwrap();
    assert!(void >= 20, "most tables seat a misbehaving bot: {void}");
    let games = json["games"].as_array().unwrap();
    assert_eq!(games.len(), 30, "the tournament finished");
    let voided = games.iter().find(|g| g["reason"] == "fault").unwrap();
    assert_eq!(voided["winner"], Value::Null);
    assert!(
        text.contains("Faults (a loss for the faulting entry"),
        "{text}"
    );
    // Each fault line says how far its game had gone.
    let line = text.lines().find(|l| l.starts_with("  game ")).unwrap();
    assert!(
        line.contains(" turns: ") || line.contains(" turn: "),
        "{line}"
    );
    assert!(
        text.contains("card"),
        "the illegal play is explained:\n{text}"
    );
}

#[test]
fn a_match_shuffles_the_four_seats_and_its_replays_print_turn_by_turn() {
    let dir = scratch("bs/match");
    let bots = write_bots(
        &dir,
        &[
            ("p1", PLAYER1),
            ("p3", PLAYER3),
            ("rnd", RANDOM),
            ("ear", LISTENER),
        ],
    );
    let replays = dir.join("replays");
    let mut args = vec!["match", "bs"];
    args.extend(paths(&bots));
    args.extend_from_slice(&["--games", "8", "--replay-dir", replays.to_str().unwrap()]);
    let (text, json) = run_json(&dir, &args);
    assert!(text.contains("bs match: 8 games"), "{text}");
    let games = json["games"].as_array().unwrap();
    let firsts: std::collections::HashSet<&str> = games
        .iter()
        .map(|g| g["players"][0].as_str().unwrap())
        .collect();
    assert!(firsts.len() > 1, "the seats change between games");
    let file = replays.join("bs-0003.jsonl");
    let lines: Vec<Value> = std::fs::read_to_string(&file)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let header = &lines[0];
    assert_eq!(header["game"], "bs");
    let hands = header["start"]["hands"].as_array().unwrap();
    assert!(
        hands.iter().all(|h| h.as_array().unwrap().len() == 13),
        "{header}"
    );
    assert_eq!(header["strategies"][0]["name"], games[2]["players"][0]);
    let end = lines.last().unwrap();
    assert_eq!(end["type"], "end");
    assert_eq!(end["result"]["ending"]["turns"], games[2]["turns"]);
    // A line per play and per call; the last call of a turn records the whole turn.
    let turns = whole_turns(&lines);
    assert_eq!(
        turns.len() as u64,
        end["result"]["ending"]["turns"].as_u64().unwrap()
    );
    assert_eq!(lines.len(), 2 + 4 * turns.len(), "{end}");
    assert_eq!(lines[1]["function"], "play");
    assert_eq!(lines[2]["function"], "call");
    let turn = &turns[0];
    for field in [
        "n", "seat", "rank", "cards", "callers", "caller", "lie", "taker", "reward",
    ] {
        assert!(turn.get(field).is_some(), "turn lines have {field}: {turn}");
    }

    let out = botbox(&["replay", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let shown = stdout(&out);
    assert!(shown.contains("bs game 3"), "{shown}");
    assert!(shown.contains("dealt"), "{shown}");
    assert!(
        shown.contains("turn    1 (round 1, rank  0): seat 0"),
        "{shown}"
    );
    assert!(shown.contains("hands "), "{shown}");
    let winner = games[2]["winner"].as_str();
    let last = shown.trim_end().lines().last().unwrap().to_string();
    match winner {
        Some(name) => assert!(last.contains(&format!("({name}) wins")), "{last}"),
        None => assert!(last.contains("no winner"), "{last}"),
    }
}

#[test]
fn a_pool_too_small_for_a_table_is_refused_unless_repeats_are_allowed() {
    let dir = scratch("bs/repeat");
    let bots = write_bots(&dir, &[("a", PLAYER1), ("b", PLAYER3)]);
    let mut args = vec!["tournament", "bs", "--players"];
    args.extend(paths(&bots));
    args.extend_from_slice(&["--games", "5"]);
    let out = botbox(&args);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--repeat"), "{}", stderr(&out));
    let (_, json) = tournament(&dir, &bots, &["--games", "20", "--repeat"]);
    let seated: u64 = json["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["games"].as_u64().unwrap())
        .sum();
    assert_eq!(seated, 80, "every seat counts, copies included");
    assert_eq!(json["plan"]["repeat"], true);
}

/// A WAT strategy that answers `play` with a card that does not exist and never calls; with
/// `observe` exported too when asked.
fn wat_bot(observe: bool) -> String {
    let observe = if observe {
        r#"(func (export "observe") (param i32 i32) (result i64)
             (i64.or (i64.shl (i64.const 48) (i64.const 32)) (i64.const 4)))"#
    } else {
        ""
    };
    format!(
        r#"(module
  (memory (export "memory") 1)
  (data (i32.const 16) "[99]")
  (data (i32.const 32) "false")
  (data (i32.const 48) "null")
  (func (export "botbox_alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "botbox_init") (param i32 i32) (result i32) (i32.const 0))
  (func (export "play") (param i32 i32) (result i64)
    (i64.or (i64.shl (i64.const 16) (i64.const 32)) (i64.const 4)))
  (func (export "call") (param i32 i32) (result i64)
    (i64.or (i64.shl (i64.const 32) (i64.const 32)) (i64.const 5)))
  {observe})"#
    )
}

#[test]
fn observe_is_called_only_where_a_strategy_has_it() {
    use botbox::runtime::Setup;
    let dir = scratch("bs/has-function");
    let cases = [
        ("listener.lua", LISTENER.to_string(), true),
        ("player1.lua", PLAYER1.to_string(), false),
        ("observer.wat", wat_bot(true), true),
        ("deaf.wat", wat_bot(false), false),
    ];
    for (file, source, expected) in cases {
        let path = dir.join(file);
        std::fs::write(&path, source).unwrap();
        let strategy = botbox::hosted::load(&path, &util::test_limits()).unwrap();
        let mut instance = strategy.instantiate(&Setup::new("bs", 1, 0)).unwrap();
        assert_eq!(instance.has_function("observe"), expected, "{file}");
        assert!(
            instance.has_function("play") && instance.has_function("call"),
            "{file}"
        );
        assert!(!instance.has_function("choose_move"), "{file}");
    }
}

#[test]
fn a_wasm_bot_plays_through_the_same_contract_and_its_illegal_play_is_a_fault() {
    let dir = scratch("bs/wasm");
    let mut bots = write_bots(&dir, &[("a", PLAYER1), ("b", PLAYER3), ("c", LISTENER)]);
    let wat = dir.join("cheat.wat");
    std::fs::write(&wat, wat_bot(true)).unwrap();
    bots.push(wat);
    let (_, json) = tournament(&dir, &bots, &["--games", "6"]);
    let cheat = standing(&json, "cheat");
    assert_eq!(
        cheat["faults"],
        serde_json::json!({"illegal": 6}),
        "{cheat}"
    );
    let fault = &json["games"][0]["faults"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| !f.is_null())
        .unwrap()["message"];
    assert_eq!(
        fault,
        "played [99]: card 99 does not exist (card ids are 0 to 51)"
    );
    // The listener heard every event the WASM bot did not break: it never faulted.
    assert_eq!(standing(&json, "c")["faults"], serde_json::json!({}));
}

/// Through BS's fast call path too, an error names the strategy's line and lists only its frames.
#[test]
fn a_lua_error_in_play_names_the_strategys_line_and_frames_only() {
    let dir = scratch("bs/error_frames");
    let broken = "local M = {}\n\
                  local function pick(hand) return hand.missing.card end\n\
                  function M.play(obs)\n\
                  \x20 return {pick(obs)}\n\
                  end\n\
                  function M.call(obs) error(\"no\", 2) end\n\
                  return M\n";
    let bots = write_bots(
        &dir,
        &[
            ("a", PLAYER1),
            ("b", PLAYER1),
            ("c", PLAYER1),
            ("broken", broken),
        ],
    );
    let (_, json) = tournament(&dir, &bots, &["--games", "2"]);
    let message = json["games"][0]["faults"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| !f.is_null())
        .unwrap()["message"]
        .as_str()
        .unwrap()
        .to_string();
    let first = message.lines().next().unwrap();
    assert!(
        first == "no" || first.ends_with("broken.lua:2: attempt to index nil with 'card'"),
        "{message}"
    );
    if first != "no" {
        assert!(
            message.contains("broken.lua:4: in function 'play'"),
            "{message}"
        );
    }
    assert!(!message.contains("botbox"), "{message}");
}

/// Player1 as a program speaking JSON Lines; it logs every event it is sent on standard error.
const PROGRAM: &str = r#"#!/usr/bin/env python3
import json
import sys

for line in sys.stdin:
    request = json.loads(line)
    call, arg = request["call"], request["arg"]
    if call == "init":
        print("ok", flush=True)
    elif call == "play":
        same = [c for c in arg["hand"] if c // 4 == arg["rank"]]
        print(json.dumps(same or arg["hand"][:1]), flush=True)
    elif call == "call":
        print(json.dumps(arg["count"] >= 3), flush=True)
    elif call == "observe":
        print("heard", arg["type"], file=sys.stderr, flush=True)
        print("null", flush=True)
"#;

#[test]
fn a_program_plays_over_json_lines_and_is_sent_every_event() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("bs/program");
    let mut bots = write_bots(&dir, &[("a", PLAYER1), ("b", PLAYER3), ("c", LISTENER)]);
    let program = dir.join("p1.py");
    std::fs::write(&program, PROGRAM).unwrap();
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
    bots.push(program);
    let replays = dir.join("replays");
    let (_, json) = tournament(
        &dir,
        &bots,
        &["--games", "3", "--replay-dir", replays.to_str().unwrap()],
    );
    assert_eq!(standing(&json, "p1")["faults"], serde_json::json!({}));
    assert_eq!(json["ends"]["faulted"], 0);
    let text = std::fs::read_to_string(replays.join("bs-0001.jsonl")).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let seat = lines[0]["strategies"]
        .as_array()
        .unwrap()
        .iter()
        .position(|s| s["name"] == "p1")
        .unwrap();
    let log = &lines.last().unwrap()["logs"][seat];
    let heard: Vec<&str> = log
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert!(
        heard.contains(&"heard play") && heard.contains(&"heard round_end"),
        "{heard:?}"
    );
}

#[test]
fn the_example_pool_file_reproduces_the_contests_ranking() {
    let dir = scratch("bs/example-file");
    let (_, json) = run_json(&dir, &["tournament", "examples/tournaments/bs-pool.toml"]);
    assert_eq!(json["games"].as_array().unwrap().len(), 10_000);
    let order = [
        "player_conman",
        "calculating_liar",
        "player4",
        "player1",
        "player3",
        "player2",
        "hoarder",
    ];
    // Each place is clearly separated: its 95% interval lies above the next one's.
    for pair in order.windows(2) {
        let (above, below) = (standing(&json, pair[0]), standing(&json, pair[1]));
        assert!(
            above["low"].as_f64().unwrap() > below["high"].as_f64().unwrap(),
            "{} {} above {} {}",
            pair[0],
            above["win_rate"],
            pair[1],
            below["win_rate"]
        );
    }
    assert!(standing(&json, "hoarder")["win_rate"].as_f64().unwrap() < 0.5);
}

/// `java.util.Random` as the Java specification defines it, on a 64-bit integer: the reference for
/// the Luau port in `strategies/lua/bs/player2.lua`.
struct JavaRandom(u64);

impl JavaRandom {
    const MULTIPLIER: u64 = 0x5DEECE66D;
    const MASK: u64 = (1 << 48) - 1;

    fn new(seed: u64) -> JavaRandom {
        JavaRandom((seed ^ Self::MULTIPLIER) & Self::MASK)
    }

    /// `next(bits)`, unsigned (Java casts it to `int`, which changes only `bits == 32`).
    fn next(&mut self, bits: u32) -> u64 {
        self.0 = self.0.wrapping_mul(Self::MULTIPLIER).wrapping_add(0xB) & Self::MASK;
        self.0 >> (48 - bits)
    }

    fn next_double(&mut self) -> f64 {
        let high = self.next(26);
        ((high << 27) + self.next(27)) as f64 * 2f64.powi(-53)
    }
}

/// Checks `draws` against `expected`, naming the first draw that differs.
fn same_draws<T: PartialEq + std::fmt::Debug>(draws: &[T], expected: &[T], what: &str) {
    assert_eq!(draws.len(), expected.len(), "{what}: how many draws");
    if let Some(i) = (0..draws.len()).find(|&i| draws[i] != expected[i]) {
        panic!(
            "{what}: draw {i} is {:?}, java.util.Random's is {:?}",
            draws[i], expected[i]
        );
    }
}

#[test]
fn the_rust_reference_gives_javas_known_values() {
    // new Random(0).nextInt(), new Random(42).nextInt(), new Random(0).nextDouble() in Java.
    assert_eq!(JavaRandom::new(0).next(32) as u32 as i32, -1155484576);
    assert_eq!(JavaRandom::new(42).next(32) as u32 as i32, -1170105035);
    assert_eq!(JavaRandom::new(0).next_double(), 0.730967787376657);
}

#[test]
fn player2s_generator_draws_what_java_util_random_draws() {
    use botbox::runtime::Setup;
    let path = util::at("strategies/lua/bs/player2.lua");
    let strategy = botbox::hosted::load(&path, &util::test_limits()).unwrap();
    let mut instance = strategy.instantiate(&Setup::new("bs", 1, 0)).unwrap();
    const COUNT: usize = 5000;
    let seeds = [
        20,
        0,
        1,
        42,
        0x5DEECE66D,
        (1 << 48) - 1,
        1 << 48,
        (1 << 53) - 1,
    ];
    for seed in seeds {
        let request = serde_json::json!({"seed": seed, "count": COUNT});
        let draws: Value = instance.call("java_random_draws", &request).unwrap();
        let draws: Vec<f64> = serde_json::from_value(draws).unwrap();
        let mut java = JavaRandom::new(seed);
        let expected: Vec<f64> = (0..COUNT).map(|_| java.next_double()).collect();
        same_draws(
            &draws,
            &expected,
            &format!("nextDouble() after seed {seed}"),
        );
        for bits in [1, 26, 27, 31, 32] {
            let request = serde_json::json!({"seed": seed, "count": COUNT, "bits": bits});
            let draws: Value = instance.call("java_random_draws", &request).unwrap();
            let draws: Vec<u64> = serde_json::from_value(draws).unwrap();
            let mut java = JavaRandom::new(seed);
            let expected: Vec<u64> = (0..COUNT).map(|_| java.next(bits)).collect();
            same_draws(
                &draws,
                &expected,
                &format!("next({bits}) after seed {seed}"),
            );
        }
    }
}

#[test]
fn player2_makes_the_contests_calls_the_same_in_every_game() {
    // docs/bs.md (Player2): `new Random(20)` per game, `nextDouble() < 0.2`, the first 20 decisions `...CC...C...........`.
    const SPEC: &str = "...CC...C...........";
    let mut java = JavaRandom::new(20);
    let sequence: Vec<bool> = (0..1000).map(|_| java.next_double() < 0.2).collect();
    let shown: String = sequence[..20]
        .iter()
        .map(|&c| if c { 'C' } else { '.' })
        .collect();
    assert_eq!(shown, SPEC);

    let dir = scratch("bs/player2-sequence");
    let mut bots = write_bots(&dir, &[("p1", PLAYER1), ("p3", PLAYER3), ("rnd", RANDOM)]);
    bots.insert(1, util::at("strategies/lua/bs/player2.lua"));
    let replays = dir.join("replays");
    let mut args = vec!["match", "bs"];
    args.extend(paths(&bots));
    args.extend_from_slice(&["--games", "12", "--replay-dir", replays.to_str().unwrap()]);
    let (_, json) = run_json(&dir, &args);
    assert_eq!(json["ends"]["faulted"], 0);
    let mut longest = 0;
    for game in 1..=12 {
        let file = replays.join(format!("bs-{game:04}.jsonl"));
        let lines: Vec<Value> = std::fs::read_to_string(&file)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let seat = lines[0]["strategies"]
            .as_array()
            .unwrap()
            .iter()
            .position(|s| s["name"] == "player2")
            .unwrap() as u64;
        // Player2 is asked on every turn of another seat; `callers` holds the seats that said yes.
        let calls: Vec<bool> = whole_turns(&lines)
            .iter()
            .filter(|t| t["seat"] != seat)
            .map(|l| {
                l["callers"]
                    .as_array()
                    .unwrap()
                    .contains(&Value::from(seat))
            })
            .collect();
        assert_eq!(calls, sequence[..calls.len()], "game {game}");
        longest = longest.max(calls.len());
    }
    assert!(
        longest >= SPEC.len(),
        "the longest game asked Player2 {longest} times"
    );
}

/// The whole turns of a BS replay: a line per play and per call, the last call of each turn
/// recording the turn (the cards, the callers, the caller, who took the pile).
fn whole_turns(lines: &[Value]) -> Vec<Value> {
    lines
        .iter()
        .filter(|l| l["type"] == "turn")
        .filter_map(|l| l["event"].get("turn").cloned())
        .collect()
}
