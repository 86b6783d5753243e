//! External program strategies, driven as real processes: the Python greedy bot plays Wormworld
//! through the text protocol, each hostile program ends its game with the right fault, a paused
//! program uses no CPU, a dropped one is gone, and other games' programs speak JSON Lines.

mod util;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use botbox::games::worms::{Game, IllegalMove, Map, Outcome, Seat, Verdict};
use botbox::play::worms_text::TextBot;
use botbox::runtime::{Fault, FaultKind, Limits, LoadError, Setup, Strategy};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use util::{at, scratch, test_limits};

const GREEDY: &str = "strategies/programs/worms/greedy.py";

fn load(path: &Path, limits: &Limits) -> Strategy {
    Strategy::load(path, limits).unwrap_or_else(|e| panic!("{} should load: {e}", path.display()))
}

fn tutorial() -> Map {
    Map::parse(&std::fs::read_to_string(at("examples/worms/tutorial.txt")).unwrap()).unwrap()
}

/// How a game between two program bots ended.
#[derive(Debug)]
enum End {
    Over(Outcome),
    Fault(Seat, Fault),
    Illegal(Seat, IllegalMove),
}

/// Plays a game of Wormworld on `map` between two programs, as a driver would: the engine checks
/// every move, the host passes for a player without one, and both bots hear of every turn.
fn duel(map: &Map, players: [&Strategy; 2]) -> End {
    let mut game = Game::new(map);
    let mut bots = Vec::new();
    for (seat, strategy) in players.into_iter().enumerate() {
        let instance = strategy
            .instantiate(&Setup::new("worms", 1, seat as u32))
            .expect("a program starts");
        match TextBot::start(instance, &game, seat) {
            Ok(bot) => bots.push(bot),
            Err(fault) => return End::Fault(seat, fault),
        }
    }
    while game.outcome().is_none() {
        let seat = game.to_move();
        let played = if game.legal_moves(seat).is_empty() {
            game.pass().expect("a player without moves may pass");
            None
        } else {
            let choice = match bots[seat].choose() {
                Ok(choice) => choice,
                Err(fault) => return End::Fault(seat, fault),
            };
            if let Err(illegal) = game.apply(choice) {
                return End::Illegal(seat, illegal);
            }
            Some(choice)
        };
        for bot in &mut bots {
            bot.record(seat, played);
        }
    }
    End::Over(game.outcome().unwrap())
}

/// The fault of a hostile program playing player 1 against the greedy bot on the tutorial map.
fn fault_of(fixture: &str, limits: &Limits) -> Fault {
    let hostile = load(
        &at(&format!("strategies/hostile/programs/{fixture}")),
        limits,
    );
    let greedy = load(&at(GREEDY), limits);
    match duel(&tutorial(), [&hostile, &greedy]) {
        End::Fault(0, fault) => fault,
        other => panic!("{fixture}: expected a fault of player 1, got {other:?}"),
    }
}

fn check(fixture: &str, kind: FaultKind, needles: &[&str]) {
    let fault = fault_of(fixture, &test_limits());
    assert_eq!(fault.kind, kind, "{fixture}: {fault}");
    for needle in needles {
        assert!(fault.message.contains(needle), "{fixture}: {fault}");
    }
}

#[test]
fn greedy_programs_play_a_whole_game_of_wormworld() {
    let greedy = load(&at(GREEDY), &test_limits());
    assert_eq!(greedy.kind(), "program");
    assert_eq!(greedy.name(), "greedy");
    match duel(&tutorial(), [&greedy, &greedy]) {
        // Player 1 moves first and needs four moves, like player 2: it gets there first.
        End::Over(outcome) => assert_eq!(outcome.result, Verdict::Win(0), "{outcome:?}"),
        other => panic!("the game did not end normally: {other:?}"),
    }
}

#[test]
fn programs_hear_of_passes_and_play_on() {
    // Player 2's worm is walled in until player 1's worm leaves the cell in front of it: two passes.
    let map = "turns 20\n..O..\n.....\n..#..\nbbbA.\n..#AA\nheads A:up b:right\n";
    let greedy = load(&at(GREEDY), &test_limits());
    match duel(&Map::parse(map).unwrap(), [&greedy, &greedy]) {
        End::Over(outcome) => assert_eq!(outcome.result, Verdict::Win(0), "{outcome:?}"),
        other => panic!("the game did not end normally: {other:?}"),
    }
}

#[test]
fn a_program_that_exits_crashes_with_its_status_and_last_words() {
    let crash = ["exited with status 3", "giving up"];
    check("crash.py", FaultKind::Crash, &crash);
    check("silent_exit.sh", FaultKind::Crash, &["status 0"]);
}

#[test]
fn a_program_that_sleeps_times_out() {
    let limits = Limits {
        move_time: Duration::from_millis(300),
        ..test_limits()
    };
    let fault = fault_of("sleeper.py", &limits);
    assert_eq!(fault.kind, FaultKind::Timeout, "{fault}");
    assert!(fault.message.contains("300 ms"), "{fault}");
}

#[test]
fn garbage_and_unasked_lines_are_bad_output() {
    check("garbage.py", FaultKind::BadOutput, &["I move the worm"]);
    check("chatter.py", FaultKind::BadOutput, &["not asked"]);
}

#[test]
fn an_illegal_move_parses_and_the_engine_refuses_it() {
    let hostile = load(
        &at("strategies/hostile/programs/illegal.py"),
        &test_limits(),
    );
    let greedy = load(&at(GREEDY), &test_limits());
    match duel(&tutorial(), [&hostile, &greedy]) {
        End::Illegal(0, IllegalMove::NotYours { worm: 1, seat: 0 }) => {}
        other => panic!("expected player 1's illegal move of worm 1, got {other:?}"),
    }
}

#[test]
fn a_memory_hog_stops_at_its_data_limit() {
    let limits = Limits {
        program_memory: 64 << 20,
        ..test_limits()
    };
    let fault = fault_of("memory_hog.py", &limits);
    assert_eq!(fault.kind, FaultKind::Crash, "{fault}");
    assert!(fault.message.contains("MemoryError"), "{fault}");
}

/// Writes an executable script into a scratch directory of its own.
fn script(name: &str, text: &str) -> PathBuf {
    let file = scratch(&format!("programs-{name}")).join(name);
    std::fs::write(&file, text).unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o755)).unwrap();
    file
}

/// The state letter and CPU ticks (user + system) of a process, from `/proc/PID/stat`.
fn state_and_ticks(pid: u32) -> (char, u64) {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..].split(' ').collect();
    let ticks = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    (fields[0].chars().next().unwrap(), ticks)
}

#[test]
fn a_program_is_paused_until_asked_and_gone_once_dropped() {
    let spinner = script("spin.sh", "#!/bin/sh\nwhile :; do :; done\n");
    let strategy = load(&spinner, &test_limits());
    let mut instance = strategy.instantiate(&Setup::new("worms", 1, 0)).unwrap();
    let pid = instance.process().expect("a program").id();
    std::thread::sleep(Duration::from_millis(50));
    let (state, before) = state_and_ticks(pid);
    std::thread::sleep(Duration::from_millis(200));
    let (_, after) = state_and_ticks(pid);
    assert_eq!(
        (state, after),
        ('T', before),
        "paused: no CPU while waiting"
    );
    drop(instance);
    assert!(
        !Path::new(&format!("/proc/{pid}")).exists(),
        "killed and reaped"
    );
}

const ECHO: &str = r#"#!/usr/bin/env python3
import json, os, sys
setup = None
for line in sys.stdin:
    request = json.loads(line)
    if request["call"] == "init":
        setup = request["arg"]
        print("ok", flush=True)
    elif request["call"] == "garbage":
        print("not json", flush=True)
    else:
        env = json.loads(os.environ["BOTBOX_SETUP"])
        print(json.dumps({"echo": request, "setup": setup, "env": env}), flush=True)
"#;

#[test]
fn other_games_speak_json_lines() {
    let echo = load(&script("echo.py", ECHO), &test_limits());
    let mut instance = echo.instantiate(&Setup::new("dice", 7, 1)).unwrap();
    let answer: Value = instance.call("choose_move", &json!({"roll": 6})).unwrap();
    let setup = json!({"game": "dice", "seed": 7, "seat": 1});
    let expected =
        json!({"echo": {"call": "choose_move", "arg": {"roll": 6}}, "setup": setup, "env": setup});
    assert_eq!(answer, expected);
    let fault = instance
        .call::<Value, Value>("garbage", &json!(null))
        .unwrap_err();
    assert_eq!(fault.kind, FaultKind::BadOutput, "{fault}");
    assert!(fault.message.contains("\"not json\""), "{fault}");
}

const FIRST_LEGAL_2048: &str = r#"#!/usr/bin/env python3
import json, sys
for line in sys.stdin:
    request = json.loads(line)
    if request["call"] == "init":
        print("ok", flush=True)
    else:
        print(json.dumps(request["arg"]["legal"][0]), flush=True)
"#;

#[test]
fn a_json_lines_program_plays_a_whole_game_of_2048() {
    let program = load(&script("first_legal.py", FIRST_LEGAL_2048), &test_limits());
    let (record, _) = botbox::play::g2048::play(&program, 4, 1, 7, false);
    assert_eq!(record.fault, None);
    assert!(record.moves > 20, "{record:?}");
}

#[test]
fn programs_are_executable_files_hashed_by_their_bytes() {
    let greedy = load(&at(GREEDY), &test_limits());
    let bytes = std::fs::read(at(GREEDY)).unwrap();
    let hash: String = Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(greedy.hash(), hash);
    let plain = scratch("programs-plain").join("plain.py");
    std::fs::write(&plain, "print('hi')\n").unwrap();
    match Strategy::load(&plain, &test_limits()) {
        Err(LoadError::UnknownKind { .. }) => {}
        other => panic!("a file that is not executable is no program: {other:?}"),
    }
}
