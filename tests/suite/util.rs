//! Helpers that make the end-to-end tests read like a specification.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;
use std::time::Duration;

use botbox::runtime::Limits;

/// The repository's root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("host/ has a parent")
        .to_path_buf()
}

/// A path inside the repository.
pub fn at(relative: &str) -> PathBuf {
    repo().join(relative)
}

/// A fresh, empty scratch directory `target/test-scratch/NAME` (names are unique per test).
pub fn scratch(name: &str) -> PathBuf {
    let dir = at("target/test-scratch").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs the `botbox` binary from the repository root.
pub fn botbox(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_botbox"))
        .args(args)
        .current_dir(repo())
        .output()
        .expect("running botbox")
}

/// Runs botbox with `args` plus `--json DIR/report.json`, checks it succeeded, and returns stdout and
/// the report.
pub fn run_json(dir: &Path, args: &[&str]) -> (String, serde_json::Value) {
    let file = dir.join("report.json");
    let mut all = args.to_vec();
    all.extend_from_slice(&["--json", file.to_str().unwrap()]);
    let out = botbox(&all);
    // 1: the run went through but no game completed (every game faulted); the report is written.
    assert!(matches!(out.status.code(), Some(0 | 1)), "{}", stderr(&out));
    let json = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    (stdout(&out), json)
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A memory figure of a process in bytes, read from `/proc/PROCESS/status` (`process` is a pid or
/// `self`; `field` is `VmRSS`, `VmHWM`, ...): `None` once the process is gone.
pub fn proc_memory(process: &str, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{process}/status")).ok()?;
    let line = status
        .lines()
        .find(|l| l.split(':').next() == Some(field))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib << 10)
}

/// Limits small enough that a hostile strategy is stopped quickly, large enough for honest ones.
pub fn test_limits() -> Limits {
    Limits {
        fuel: 200_000_000,
        lua_budget: 2_000_000,
        wall: Duration::from_secs(3),
        ..Limits::default()
    }
}

/// Builds the Rust guest crates for wasm32 once per test run (in their own target directory, so the
/// outer cargo's lock is never contended) and returns the `.wasm` of `package`.
pub fn guest_wasm(package: &str) -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    let dir = BUILT.get_or_init(|| {
        let packages = [
            "g2048-expectimax",
            "g2048-first-legal",
            "worms-search",
            "bs-counter",
            "connect4-alphabeta",
        ];
        botbox::runtime::build_wasm_packages(&repo(), &packages, &repo().join("target/guests"))
            .unwrap_or_else(|e| panic!("building the guest strategies: {e}"))
    });
    dir.join(format!("{}.wasm", package.replace('-', "_")))
}

/// The `http://...` address a server child prints on its first line of standard output
/// (`botbox league serve`, `botbox view`).
pub fn announced_url(child: &mut std::process::Child) -> String {
    use std::io::BufRead;
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().expect("stdout is piped"))
        .read_line(&mut line)
        .unwrap();
    line.split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string()
}

/// Runs `sql` on the SQLite file `db` (a league's database, read from outside) and returns the rows
/// it selects, or how many it changed.
pub fn sqlite(db: &str, sql: &str) -> (Vec<sqlx::sqlite::SqliteRow>, u64) {
    use sqlx::Connection;
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(async {
            let mut conn = sqlx::SqliteConnection::connect(&format!("sqlite://{db}"))
                .await
                .unwrap();
            if sql.trim_start().to_uppercase().starts_with("SELECT") {
                (sqlx::query(sql).fetch_all(&mut conn).await.unwrap(), 0)
            } else {
                let done = sqlx::query(sql).execute(&mut conn).await.unwrap();
                (Vec::new(), done.rows_affected())
            }
        })
}

/// One game of 2048 as every command plays it (the game contract's one driver, through the game's
/// typed encoding): game number `number` (from 1; 0 is taken as 1) on the `size`x`size` board,
/// seeded with `seed`.
#[derive(Debug)]
pub struct Game2048 {
    pub fault: Option<botbox::runtime::Fault>,
    pub moves: u32,
    pub score: f64,
    pub ending: botbox::play::Ending,
}

/// Plays [`Game2048`], with its replay when `record`.
pub fn play_2048(
    strategy: &botbox::runtime::Strategy,
    size: usize,
    number: usize,
    seed: u64,
    record: bool,
) -> (Game2048, Option<botbox::replay::Replay>) {
    use botbox::tournament::runner::{Entry, Playable, Scheduled};
    let rules = botbox::games::registry::find("2048").unwrap();
    let variant = botbox::games::contract::Variant::named(&format!("{size}x{size}"));
    let game = botbox::tournament::versus::Versus::new(rules, vec![variant], 0, 0).unwrap();
    let entry = Entry {
        name: "bot".into(),
        strategy: strategy.clone(),
    };
    let scheduled = Scheduled {
        index: number.saturating_sub(1),
        seed,
        seats: vec![0],
        variant: 0,
        round: 0,
    };
    let (ending, replay) = game.play(&scheduled, &[&entry], record);
    let solo = Game2048 {
        fault: ending.faults[0].clone(),
        moves: ending.turns,
        score: ending.figures.score.unwrap_or(0.0),
        ending,
    };
    (solo, replay)
}
