//! What the league's measurements share (`league_load`, `league_scale`): the real `botbox` binary
//! serving a league on loopback, its users and uploads, and PostgreSQL scratch databases. Included by
//! each example with `#[path = "common/league.rs"] mod league;`, so an example that needs only some
//! of it leaves the rest unused.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

pub fn binary() -> PathBuf {
    let bin = repo().join("target/release/botbox");
    assert!(bin.exists(), "build it first: cargo build --release");
    bin
}

/// A `botbox league serve` process, killed when dropped.
#[derive(Debug)]
pub struct Server {
    pub child: Child,
    pub url: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `botbox league serve` on `db` in `dir` with `workers` embedded workers and `queue` jobs kept
/// waiting per ladder, unpaced and without rate limits; returns once it listens.
pub fn serve(dir: &Path, db: &str, workers: usize, queue: usize) -> Server {
    let mut child = Command::new(binary())
        .args(["league", "serve", "--db", db, "--listen", "127.0.0.1:0"])
        .args(["--games-per-hour", "0"])
        .args(["--workers", &workers.to_string()])
        .args(["--queue", &queue.to_string()])
        .args(["--rate", "1000000", "--burst", "1000000", "--checks", "2"])
        .args(["--max-connections-per-address", "1024"])
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("the server did not say where it listens: {line:?}"))
        .to_string();
    Server { child, url }
}

/// A separate `botbox league worker --workers 1` process on `db`, caching strategies in `cache`.
pub fn worker(db: &str, cache: &Path) -> Child {
    Command::new(binary())
        .args(["league", "worker", "--db", db, "--workers", "1"])
        .args(["--cache", cache.to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// Adds user `name` to the league on `db`; returns its token.
pub fn user(db: &str, name: &str, dir: &Path) -> String {
    let out = Command::new(binary())
        .args(["league", "user", "add", name, "--db", db])
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "user add {name}: {out:?}");
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// Uploads `body` as a new version of bot `name` for `game`; returns the HTTP status.
pub fn upload(url: &str, token: &str, name: &str, game: &str, body: Vec<u8>) -> u16 {
    reqwest::blocking::Client::new()
        .post(format!("{url}/api/v1/bots/{name}/versions?game={game}"))
        .bearer_auth(token)
        .timeout(Duration::from_secs(600))
        .body(body)
        .send()
        .unwrap()
        .status()
        .as_u16()
}

/// The games the league has recorded (`/api/v1/status`).
pub fn games(url: &str) -> i64 {
    let status: serde_json::Value = reqwest::blocking::get(format!("{url}/api/v1/status"))
        .unwrap()
        .json()
        .unwrap();
    status["games"].as_i64().unwrap()
}

/// Runs `sql` on the database at `url`.
pub fn pg_execute(url: &str, sql: &str) {
    use sqlx::Connection;
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(async {
            let mut conn = sqlx::PgConnection::connect(url).await.unwrap();
            sqlx::query(sql).execute(&mut conn).await.unwrap();
        });
}

/// The URL of database `name` on the server of `admin` (a URL ending in `/database`).
pub fn pg_database_url(admin: &str, name: &str) -> String {
    let base = admin.rsplit_once('/').unwrap().0;
    format!("{base}/{name}")
}

/// A fresh scratch database `name` (dropped first if a run before left it); returns its URL.
pub fn pg_scratch(admin: &str, name: &str) -> String {
    pg_drop(admin, name);
    pg_execute(admin, &format!("CREATE DATABASE {name}"));
    pg_database_url(admin, name)
}

/// Drops database `name`, closing its connections.
pub fn pg_drop(admin: &str, name: &str) {
    pg_execute(
        admin,
        &format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
    );
}
