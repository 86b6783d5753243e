//! External program strategies, driven as real processes: the Python greedy bot plays Wormworld
//! through the text protocol, each hostile program ends its game with the right fault, a paused
//! program uses no CPU, a dropped one is gone, and other games' programs speak JSON Lines. Programs
//! that fork escapees (a double-forked daemon, a child in a session or process group of its own)
//! have them paused between moves and killed at the end, in a cgroup and in the subreaper fallback
//! alike.

use crate::util;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use botbox::games::worms::encoding::text::TextBot;
use botbox::games::worms::{Game, IllegalMove, Map, Outcome, Seat, Verdict};
use botbox::runtime::program::{self, CONTAINMENT_VAR, Containment};
use botbox::runtime::{Fault, FaultKind, Limits, LoadError, Params, Setup, Strategy};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use util::{at, scratch, test_limits};

const GREEDY: &str = "strategies/programs/worms/greedy.py";

fn load(path: &Path, limits: &Limits) -> Strategy {
    botbox::hosted::load(path, limits)
        .unwrap_or_else(|e| panic!("{} should load: {e}", path.display()))
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
    duel_with(map, players, &Params::new())
}

/// [`duel`], with `params` in both players' setups.
fn duel_with(map: &Map, players: [&Strategy; 2], params: &Params) -> End {
    let mut game = Game::new(map);
    let mut bots = Vec::new();
    for (seat, strategy) in players.into_iter().enumerate() {
        let mut setup = Setup::new("worms", 1, seat as u32);
        setup.params = params.clone();
        let instance = strategy.instantiate(&setup).expect("a program starts");
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
    let file = scratch(&format!("programs-{name}{}", forced_suffix())).join(name);
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
    // Stopped (`T`, the subreaper fallback's SIGSTOP) or frozen (`S`, in a frozen cgroup).
    assert!(
        matches!(state, 'T' | 'S') && after == before,
        "paused: no CPU while waiting ({state}, {before} then {after} ticks)"
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
    let (record, _) = crate::util::play_2048(&program, 4, 1, 7, false);
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
    match botbox::hosted::load(&plain, &test_limits()) {
        Err(LoadError::UnknownKind { .. }) => {}
        other => panic!("a file that is not executable is no program: {other:?}"),
    }
}

/// The hostile programs that leave their process group, each one way (`strategies/hostile/README.md`).
const ESCAPING: [&str; 3] = ["double_fork", "setsid", "setpgid"];

/// Time enough for a first move that starts two Python interpreters, on a loaded machine.
fn escapee_limits() -> Limits {
    Limits {
        move_time: Duration::from_secs(10),
        ..test_limits()
    }
}

/// The setup parameter that tells an escaping fixture where its escapee writes its id and counter.
fn escapee_params(dir: &Path) -> Params {
    let mut params = Params::new();
    params.insert("escapee_dir".into(), json!(dir.to_str().unwrap()));
    params
}

/// The process id a fixture's process wrote to `DIR/KIND.SUFFIX`, waiting for it a little.
fn written_pid(dir: &Path, kind: &str, suffix: &str) -> u32 {
    let file = dir.join(format!("{kind}.{suffix}"));
    for _ in 0..200 {
        if let Some(pid) = std::fs::read_to_string(&file)
            .ok()
            .and_then(|t| t.trim().parse().ok())
        {
            return pid;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("{kind}: no process id in {}", file.display());
}

/// What the escapee of `kind` counted so far (it counts every 2 ms while it runs).
fn count(dir: &Path, kind: &str) -> u64 {
    let text = std::fs::read_to_string(dir.join(format!("{kind}.count"))).unwrap();
    text.trim().parse().unwrap()
}

/// The processes, other than zombies, with `arg` as one of their arguments, as `ps` would show
/// them.
fn processes_with(arg: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        if cmdline.split(|&b| b == 0).any(|a| a == arg.as_bytes()) {
            let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            let pid = entry.file_name().to_string_lossy().into_owned();
            found.push(format!("{pid}: {cmdline}"));
        }
    }
    found
}

/// The state letter and parent of a process, or `None` if there is no such process.
fn state_and_parent(pid: u32) -> Option<(char, u32)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let fields: Vec<&str> = stat[stat.rfind(')')? + 2..].split(' ').collect();
    Some((fields[0].chars().next()?, fields[1].parse().ok()?))
}

/// Asserts that nothing the fixture of `kind` started is left: no process with its scratch
/// directory as an argument, and neither its escapee nor (for the double fork) the middle
/// process alive or a zombie of this host. A zombie of `init` is dead, and `init`'s to reap.
fn assert_nothing_left(dir: &Path, kind: &str) {
    let mut pids = vec![("escapee", written_pid(dir, kind, "pid"))];
    if kind == "double_fork" {
        pids.push(("middle process", written_pid(dir, kind, "middle")));
    }
    for (what, pid) in pids {
        match state_and_parent(pid) {
            None => {}
            Some(('Z', parent)) => assert_ne!(
                parent,
                std::process::id(),
                "{kind}: the {what} {pid} was left a zombie of the host"
            ),
            // Its id given to another process since?
            Some(state) => assert!(
                processes_with(dir.to_str().unwrap()).is_empty(),
                "{kind}: the {what} {pid} is still there ({state:?})"
            ),
        }
    }
    let left = processes_with(dir.to_str().unwrap());
    assert!(left.is_empty(), "{kind}: left behind: {left:?}");
}

/// Whether `CONTAINMENT_VAR` forces the subreaper fallback on this test process.
fn forced() -> bool {
    std::env::var(CONTAINMENT_VAR).is_ok_and(|v| v == "subreaper")
}

/// For the names of scratch directories: the forced run goes on beside the other one.
fn forced_suffix() -> &'static str {
    if forced() { "-subreaper" } else { "" }
}

/// The containment the tests expect: the one `CONTAINMENT_VAR` forces, if it does.
fn check_containment() {
    if forced() {
        assert_eq!(program::containment(), Containment::Subreaper);
    }
}

#[test]
fn escapees_are_killed_with_their_game() {
    check_containment();
    let greedy = load(&at(GREEDY), &escapee_limits());
    for kind in ESCAPING {
        let dir = scratch(&format!("programs-escape-{kind}{}", forced_suffix()));
        let path = at(&format!("strategies/hostile/programs/{kind}.py"));
        let hostile = load(&path, &escapee_limits());
        match duel_with(&tutorial(), [&hostile, &greedy], &escapee_params(&dir)) {
            // It plays as greedy does, and moves first.
            End::Over(outcome) => assert_eq!(outcome.result, Verdict::Win(0), "{kind}"),
            other => panic!("{kind}: the game did not end normally: {other:?}"),
        }
        assert_nothing_left(&dir, kind);
    }
}

#[test]
fn escapees_are_paused_between_moves() {
    check_containment();
    let game = Game::new(&tutorial());
    for kind in ESCAPING {
        let dir = scratch(&format!("programs-pause-{kind}{}", forced_suffix()));
        let path = at(&format!("strategies/hostile/programs/{kind}.py"));
        let hostile = load(&path, &escapee_limits());
        let mut setup = Setup::new("worms", 1, 0);
        setup.params = escapee_params(&dir);
        let instance = hostile.instantiate(&setup).unwrap();
        let mut bot = TextBot::start(instance, &game, 0).unwrap();
        // Its first move: the program forks, waits until the escapee has counted, and answers.
        bot.choose().unwrap();
        let pid = written_pid(&dir, kind, "pid");
        let before = count(&dir, kind);
        std::thread::sleep(Duration::from_millis(300));
        let after = count(&dir, kind);
        assert!(before >= 2, "{kind}: the escapee counted {before}");
        assert_eq!(
            before, after,
            "{kind}: the escapee {pid} went on counting while its program was paused"
        );
        drop(bot);
        assert_nothing_left(&dir, kind);
    }
}

#[test]
fn containment_is_a_cgroup_where_the_machine_offers_one() {
    let root = std::fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(2) == Some("0"));
    // A writable cgroup2 mount, and root to write in it (as on the CI machine).
    let cgroup2 = std::fs::read_to_string("/proc/self/mountinfo")
        .unwrap()
        .lines()
        .any(|l| {
            l.contains(" - cgroup2 ") && l.split(' ').nth(5).is_some_and(|o| o.starts_with("rw"))
        });
    let expected = if forced() || !(root && cgroup2) {
        Containment::Subreaper
    } else {
        Containment::Cgroup
    };
    assert_eq!(program::containment(), expected);
}

/// The tests above, and the pause of a plain program, in a test process of their own where the
/// host is forced to the subreaper fallback.
#[test]
fn the_subreaper_fallback_contains_escapees_too() {
    if std::env::var_os(CONTAINMENT_VAR).is_some() {
        return;
    }
    let tests = [
        "programs::escapees_are_killed_with_their_game",
        "programs::escapees_are_paused_between_moves",
        "programs::a_program_is_paused_until_asked_and_gone_once_dropped",
        "programs::containment_is_a_cgroup_where_the_machine_offers_one",
    ];
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        // One at a time, beside the other tests of this process.
        .args(["--exact", "--test-threads=1"])
        .args(tests)
        .env(CONTAINMENT_VAR, "subreaper")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains(&format!("{} passed", tests.len())),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
