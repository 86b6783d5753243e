//! The league under load, measured (issue 16; BENCHMARKS.md records the results): concurrent uploads,
//! ladder requests per second, and games per hour with one and two workers.
//!
//! ```sh
//! cargo build --release && cargo run --release --example league_load                   # SQLite
//! cargo run --release --example league_load -- postgres://botbox:botbox@127.0.0.1/postgres
//! ```
//! With a PostgreSQL URL (of a role that may create databases) the games-per-hour part runs the
//! workers as separate `botbox league worker` processes on a scratch database, as a league on several
//! machines does; without one it runs the embedded league's worker threads on a SQLite file. Every
//! answer is checked, not only counted.

#[path = "common/league.rs"]
mod league;

use std::process::Child;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use league::{games, repo, serve, upload, user};

fn main() {
    let pg_admin = std::env::args().nth(1);
    let dir = repo().join("target/league-load");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let greedy = std::fs::read(repo().join("strategies/lua/worms/greedy.lua")).unwrap();

    // 1. Concurrent uploads: 50 users upload a bot each at once (distinct bytes, so each is
    //    compiled and smoke-tested), on the embedded SQLite league.
    let db = dir.join("load.db").display().to_string();
    let server = serve(&dir, &db, 0, 32);
    let tokens: Vec<String> = (0..50).map(|i| user(&db, &format!("u{i}"), &dir)).collect();
    let start = Instant::now();
    let handles: Vec<_> = tokens
        .iter()
        .enumerate()
        .map(|(i, token)| {
            let (url, token) = (server.url.clone(), token.clone());
            let mut bytes = greedy.clone();
            bytes.extend_from_slice(format!("\n-- upload {i}\n").as_bytes());
            std::thread::spawn(move || {
                let t = Instant::now();
                let status = upload(&url, &token, &format!("bot{i}"), "worms", bytes);
                (status, t.elapsed())
            })
        })
        .collect();
    let mut latencies = Vec::new();
    for h in handles {
        let (status, took) = h.join().unwrap();
        assert_eq!(status, 201);
        latencies.push(took);
    }
    let all = start.elapsed();
    latencies.sort();
    println!(
        "uploads: 50 concurrent, all 201, in {:.2} s ({:.1} uploads/s); latency median {:.0} ms, max {:.0} ms",
        all.as_secs_f64(),
        50.0 / all.as_secs_f64(),
        latencies[25].as_secs_f64() * 1e3,
        latencies[49].as_secs_f64() * 1e3
    );

    // 2. Ladder requests: 8 clients for 5 s, every answer checked (50 rows, best first).
    let count = Arc::new(AtomicU64::new(0));
    let deadline = Instant::now() + Duration::from_secs(5);
    let clients: Vec<_> = (0..8)
        .map(|_| {
            let (url, count) = (server.url.clone(), count.clone());
            std::thread::spawn(move || {
                let client = reqwest::blocking::Client::new();
                while Instant::now() < deadline {
                    let ladder: serde_json::Value = client
                        .get(format!("{url}/api/v1/ladders/worms"))
                        .send()
                        .unwrap()
                        .json()
                        .unwrap();
                    let rows = ladder["rows"].as_array().unwrap();
                    assert_eq!(rows.len(), 50);
                    count.fetch_add(1, Ordering::Relaxed);
                }
            })
        })
        .collect();
    for c in clients {
        c.join().unwrap();
    }
    let n = count.load(Ordering::Relaxed);
    println!(
        "ladder: {n} correct answers in 5 s from 8 clients = {:.0} requests/s",
        n as f64 / 5.0
    );
    drop(server);

    // 3. Games per hour with 1 and 2 workers (Wormworld, greedy and random bots of four owners).
    let random = std::fs::read(repo().join("strategies/lua/worms/random.lua")).unwrap();
    let mut per_hour = Vec::new();
    for workers in [1, 2] {
        let (db, _guard) = match &pg_admin {
            Some(admin) => {
                let name = format!("botbox_load_{workers}");
                (league::pg_scratch(admin, &name), Some(name))
            }
            None => (
                dir.join(format!("games{workers}.db")).display().to_string(),
                None,
            ),
        };
        let embedded = if pg_admin.is_some() { 0 } else { workers };
        let server = serve(&dir, &db, embedded, 32);
        let tokens: Vec<String> = (0..4).map(|i| user(&db, &format!("o{i}"), &dir)).collect();
        for (i, token) in tokens.iter().enumerate() {
            let bytes = if i % 2 == 0 {
                greedy.clone()
            } else {
                random.clone()
            };
            assert_eq!(
                upload(&server.url, token, &format!("w{i}"), "worms", bytes),
                201
            );
        }
        let mut separate: Vec<Child> = Vec::new();
        if pg_admin.is_some() {
            for w in 0..workers {
                separate.push(league::worker(&db, &dir.join(format!("cache{w}"))));
            }
        }
        std::thread::sleep(Duration::from_secs(3));
        let (g0, t0) = (games(&server.url), Instant::now());
        std::thread::sleep(Duration::from_secs(30));
        let (g1, t1) = (games(&server.url), t0.elapsed());
        let rate = (g1 - g0) as f64 / t1.as_secs_f64() * 3600.0;
        println!(
            "games: {workers} worker(s) on {}: {} games in {:.1} s = {rate:.0} games/hour",
            if pg_admin.is_some() {
                "PostgreSQL"
            } else {
                "SQLite"
            },
            g1 - g0,
            t1.as_secs_f64()
        );
        per_hour.push(rate);
        for mut w in separate {
            let _ = w.kill();
            let _ = w.wait();
        }
        drop(server);
        if let (Some(admin), Some(name)) = (&pg_admin, _guard) {
            league::pg_drop(admin, &name);
        }
    }
    println!(
        "games: 2 workers / 1 worker = {:.2}x",
        per_hour[1] / per_hour[0]
    );
}
