//! A program's time per move is its own: time on a CPU and time it chose to wait, not the time a
//! busy machine kept it waiting for a CPU. Beside 8 busy processes (on a 2-core machine, a program
//! gets about a fifth of a core), an honest program is charged about what it is charged on a quiet
//! machine, and a program that spins or sleeps past its time faults at its time, not at the
//! wall-clock backstop.

use crate::util;

use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use botbox::runtime::program::BACKSTOP;
use botbox::runtime::{FaultKind, Instance, Limits, Setup, Strategy};
use serde_json::{Value, json};
use util::{scratch, test_limits};

/// A JSON Lines program that does what each call's argument says: `"work"` (about 80 ms of CPU on
/// these machines, then a 30 ms sleep), `"spin"` or `"sleep"` (forever), anything else nothing.
const WORKER: &str = r#"#!/usr/bin/env python3
import json, sys, time
for line in sys.stdin:
    request = json.loads(line)
    x = 0
    if request["arg"] == "work":
        for i in range(1500000):
            x += i
        time.sleep(0.03)
    elif request["arg"] == "spin":
        while True:
            x += 1
    elif request["arg"] == "sleep":
        time.sleep(60)
    print(json.dumps(x), flush=True)
"#;

/// Processes that keep a CPU busy each, killed when dropped.
struct Busy(Vec<Child>);

impl Busy {
    fn start(n: usize) -> Busy {
        let spin = || {
            Command::new("/bin/sh")
                .args(["-c", "while :; do :; done"])
                .spawn()
                .expect("sh starts")
        };
        Busy((0..n).map(|_| spin()).collect())
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

fn worker(limits: &Limits) -> Strategy {
    let path: PathBuf = scratch("program-time").join("worker.py");
    std::fs::write(&path, WORKER).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    botbox::hosted::load(&path, limits).unwrap()
}

/// Starts the worker for a game and gets its start-up out of the way.
fn started(strategy: &Strategy) -> Instance {
    let mut instance = strategy.instantiate(&Setup::new("dice", 1, 0)).unwrap();
    instance
        .call::<Value, Value>("choose_move", &json!("nothing"))
        .expect("the worker starts");
    instance
}

/// The worker's own time for each of `moves` moves of work, and the wall-clock time of them all.
fn charged(instance: &mut Instance, moves: usize) -> (Vec<Duration>, Duration) {
    let started = Instant::now();
    let times = (0..moves)
        .map(|_| {
            let before = instance.process().unwrap().time_used();
            instance
                .call::<Value, Value>("choose_move", &json!("work"))
                .expect("the work is well within its time");
            instance.process().unwrap().time_used() - before
        })
        .collect();
    (times, started.elapsed())
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

#[test]
fn programs_are_charged_their_own_time_not_the_machines_load() {
    let limits = Limits {
        move_time: Duration::from_millis(300),
        ..test_limits()
    };
    let strategy = worker(&limits);
    let mut honest = started(&strategy);
    let (quiet, quiet_wall) = charged(&mut honest, 5);
    let mut spinner = started(&strategy);
    let mut sleeper = started(&strategy);

    let busy = Busy::start(8);
    std::thread::sleep(Duration::from_millis(200));
    let (loaded, loaded_wall) = charged(&mut honest, 5);
    let (quiet, loaded) = (median(quiet), median(loaded));
    assert!(
        loaded < quiet * 3 / 2 + Duration::from_millis(30),
        "charged {loaded:?} a move beside 8 busy processes ({loaded_wall:?} of wall time for 5), \
         {quiet:?} on a quieter machine ({quiet_wall:?} for 5)"
    );

    // Beside the same load, a spinning and a sleeping program fault at their time, not at the
    // wall-clock backstop.
    let backstop = limits.move_time * BACKSTOP;
    for (instance, what) in [(&mut spinner, "spin"), (&mut sleeper, "sleep")] {
        let started = Instant::now();
        let fault = instance
            .call::<Value, Value>("choose_move", &json!(what))
            .unwrap_err();
        let took = started.elapsed();
        assert_eq!(fault.kind, FaultKind::Timeout, "{what}: {fault}");
        assert!(
            fault.message.contains("within 300 ms") && !fault.message.contains("backstop"),
            "{what}: {fault}"
        );
        assert!(took < backstop, "{what}: the fault came after {took:?}");
        let used = instance.process().unwrap().time_used();
        assert!(used >= limits.move_time, "{what}: charged only {used:?}");
    }
    drop(busy);
}
