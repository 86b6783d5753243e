//! Hostile strategies: each fixture in strategies/hostile misbehaves in one way; each must end only its
//! own game, with the right fault kind, and never crash or hang the host.

mod util;

use std::path::Path;
use std::time::Duration;

use botbox::play::g2048::play;
use botbox::runtime::{Fault, FaultKind, Limits, LoadError, Strategy};
use util::{at, test_limits};

/// Loads a fixture and plays one game with it.
fn fault_of(path: &Path, limits: &Limits) -> Option<Fault> {
    let strategy = Strategy::load(path, limits)
        .unwrap_or_else(|e| panic!("{} should load: {e}", path.display()));
    let (record, _) = play(&strategy, 4, 1, 7, false);
    record.fault
}

fn check(fixture: &str, expected: &[FaultKind]) {
    let fault =
        fault_of(&at(fixture), &test_limits()).unwrap_or_else(|| panic!("{fixture}: no fault"));
    assert!(
        expected.contains(&fault.kind),
        "{fixture}: expected {expected:?}, got {fault}"
    );
}

#[test]
fn lua_endless_loops_spend_their_budget() {
    for name in [
        "endless_loop",
        "load_loop",
        "gc_finalizer_loop",
        "pcall_swallow",
        "xpcall_handler",
        "coroutine_loop",
        "sort_comparator_loop",
        "gsub_callback_loop",
    ] {
        check(
            &format!("strategies/hostile/lua/{name}.lua"),
            &[FaultKind::Budget],
        );
    }
}

#[test]
fn lua_memory_bombs_hit_the_cap() {
    check(
        "strategies/hostile/lua/memory_bomb.lua",
        &[FaultKind::Memory],
    );
    check(
        "strategies/hostile/lua/string_rep_bomb.lua",
        &[FaultKind::Memory],
    );
}

#[test]
fn lua_cannot_reach_outside_the_sandbox() {
    for name in [
        "os_execute",
        "io_open",
        "require",
        "bytecode",
        "debug_lib",
        "shared_globals",
    ] {
        check(
            &format!("strategies/hostile/lua/{name}.lua"),
            &[FaultKind::Error],
        );
    }
    assert!(!Path::new("/tmp/botbox-pwned").exists(), "os.execute ran");
}

#[test]
fn lua_errors_name_the_file_and_line() {
    let fault = fault_of(
        &at("strategies/hostile/lua/runtime_error.lua"),
        &test_limits(),
    )
    .expect("a fault");
    assert_eq!(fault.kind, FaultKind::Error);
    assert!(
        fault.message.contains("runtime_error.lua:5:"),
        "{}",
        fault.message
    );
}

#[test]
fn lua_unbounded_recursion_is_an_error_not_a_crash() {
    check(
        "strategies/hostile/lua/deep_recursion.lua",
        &[FaultKind::Error, FaultKind::Memory],
    );
}

#[test]
fn lua_bad_answers_are_recorded() {
    check(
        "strategies/hostile/lua/invalid_return.lua",
        &[FaultKind::BadOutput],
    );
    check(
        "strategies/hostile/lua/illegal_move.lua",
        &[FaultKind::Illegal, FaultKind::BadOutput],
    );
    check(
        "strategies/hostile/lua/tostring_loop.lua",
        &[FaultKind::Error, FaultKind::Budget],
    );
}

#[test]
fn lua_wall_clock_backstop_stops_what_the_budget_allows() {
    let limits = Limits {
        lua_budget: u64::MAX,
        wall: Duration::from_millis(200),
        ..test_limits()
    };
    let fault = fault_of(&at("strategies/hostile/lua/endless_loop.lua"), &limits).expect("a fault");
    assert_eq!(fault.kind, FaultKind::Timeout, "{fault}");
}

#[test]
fn wasm_faults_have_their_kinds() {
    let cases = [
        ("endless_loop", FaultKind::Fuel),
        ("grow_bomb", FaultKind::Memory),
        ("recursion", FaultKind::Trap),
        ("trap", FaultKind::Trap),
        ("garbage_output", FaultKind::BadOutput),
        ("out_of_bounds_output", FaultKind::BadOutput),
        ("init_fails", FaultKind::Load),
    ];
    for (name, kind) in cases {
        check(&format!("strategies/hostile/wasm/{name}.wat"), &[kind]);
    }
}

#[test]
fn wasm_wall_clock_backstop_stops_what_fuel_allows() {
    let limits = Limits {
        fuel: u64::MAX,
        wall: Duration::from_millis(200),
        ..test_limits()
    };
    let fault =
        fault_of(&at("strategies/hostile/wasm/endless_loop.wat"), &limits).expect("a fault");
    assert_eq!(fault.kind, FaultKind::Timeout, "{fault}");
}

#[test]
fn wasm_modules_importing_wasi_are_refused_naming_the_import() {
    match Strategy::load(
        &at("strategies/hostile/wasm/wasi_import.wat"),
        &test_limits(),
    ) {
        Err(e @ LoadError::ForbiddenImport { .. }) => {
            assert!(e.to_string().contains("wasi_snapshot_preview1."), "{e}");
        }
        other => panic!("expected a forbidden import, got {other:?}"),
    }
}

#[test]
fn malformed_wasm_is_refused_at_load() {
    let result = Strategy::load(
        &at("strategies/hostile/wasm/malformed.wasm"),
        &test_limits(),
    );
    assert!(
        matches!(result, Err(LoadError::InvalidModule { .. })),
        "{result:?}"
    );
}

#[test]
fn lua_syntax_errors_name_file_and_line() {
    let dir = util::scratch("hostile-syntax");
    let path = dir.join("broken.lua");
    std::fs::write(
        &path,
        "local M = {}\nfunction M.choose_move(obs)\n  return obs.legal[1\nend\nreturn M\n",
    )
    .unwrap();
    let err = Strategy::load(&path, &test_limits()).unwrap_err();
    assert!(matches!(err, LoadError::Syntax { .. }), "{err:?}");
    assert!(err.to_string().contains("broken.lua:"), "{err}");
}

#[cfg(target_os = "linux")]
#[test]
fn host_memory_stays_bounded_across_many_memory_bombs() {
    let strategy = Strategy::load(
        &at("strategies/hostile/lua/memory_bomb.lua"),
        &test_limits(),
    )
    .unwrap();
    let rss = || -> u64 {
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
        line.split_whitespace()
            .nth(1)
            .unwrap()
            .parse::<u64>()
            .unwrap()
            * 1024
    };
    let _ = play(&strategy, 4, 1, 1, false);
    let before = rss();
    for game in 0..30 {
        let (record, _) = play(&strategy, 4, game, game as u64, false);
        assert_eq!(record.fault.map(|f| f.kind), Some(FaultKind::Memory));
    }
    let grown = rss().saturating_sub(before);
    assert!(
        grown < 96 << 20,
        "resident memory grew by {} MiB over 30 bombs of 32 MiB",
        grown >> 20
    );
}
