//! How far the league scales on PostgreSQL (issue 34, part 1; BENCHMARKS.md and docs/deploy.md use
//! its figures): for each game and each count of worker processes, a real league on a scratch
//! database, and what each game costs the workers, the server and PostgreSQL.
//!
//! ```sh
//! cargo build --release
//! bash .ci/postgres                     # as root: PostgreSQL with pg_stat_statements preloaded
//! cargo run --release --example league_scale -- postgres://botbox:botbox@127.0.0.1:5432/postgres \
//!     [--games worms,bs] [--workers 1,2,4] [--seconds 30] [--warmup 5] [--claims connect4] [--json FILE]
//! ```
//!
//! (`--owners N` puts more bots on each ladder; `--synchronous-commit off` sets it on the scratch
//! databases; `--help` lists the rest.)
//!
//! Each run is a scratch database, `botbox league serve --workers 0` (it serves, matches and reaps;
//! it plays nothing), four owners (`--owners`) who upload two strong and two weak bundled Lua bots
//! of the game (BS: `player1` to `player4`), and N separate `botbox league worker --workers 1`
//! processes. After the warm-up (at least `--warmup` seconds and a first recorded game) a window of
//! `--seconds` is measured:
//!
//! - games recorded (rows of `results`) and job claims (the sum of `jobs.attempts`: every claim adds
//!   one) in the window, per second;
//! - CPU seconds (utime + stime from `/proc/PID/stat`) of the worker processes, of the server, and
//!   of PostgreSQL (every process whose `comm` is `postgres`, see [`postgres_ticks`]), per game;
//! - the statements PostgreSQL executed for the league's database (`pg_stat_statements`, their
//!   `calls`; without the extension only the transactions, `pg_stat_database.xact_commit`), the WAL
//!   it wrote (`pg_current_wal_lsn`) and the database's growth (`pg_database_size`), per game.
//!
//! `--claims GAME` adds a run per worker count of a game whose games are nearly free (random bots on
//! all four owners' seats; Connect Four by default, `none` for none): there the workers wait for
//! nothing but the database, so its claims per second are the queue's rate at saturation (a queue
//! of `--claims-queue` jobs, so that the matchmaker keeps up; "queue empty" says if it did not).
//!
//! The bench reads PostgreSQL's statistics over a connection to the admin database, so its own
//! reads are not counted as the league's; the few reads of the league's database it makes inside
//! the window (the queue's length, once a second) are subtracted. WAL is the whole cluster's (the
//! other databases are idle during a run, but not necessarily on a shared machine: the machine's
//! CPU not accounted for by the league is shown as "other").

#[path = "common/league.rs"]
mod league;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Child;
use std::time::{Duration, Instant};

use clap::Parser;
use sqlx::{Connection, PgConnection, Row};

use league::{pg_drop, pg_scratch, repo, serve, upload, user};

/// The league on PostgreSQL with 1, 2, 4... worker processes per game: games per second, CPU per
/// game in the workers, the server and PostgreSQL, statements and bytes per game, claims per second
#[derive(Debug, Parser)]
struct Args {
    /// The admin URL: a role that may create databases, on the database it connects to
    admin: String,
    /// Games whose ladders are measured (worms, bs, connect4, tron, dice, 2048; `none`)
    #[arg(long, value_delimiter = ',', default_value = "worms,bs")]
    games: Vec<String>,
    /// Counts of worker processes
    #[arg(long, value_delimiter = ',', default_value = "1,2,4")]
    workers: Vec<usize>,
    /// The measured window of each run, in seconds
    #[arg(long, default_value_t = 30)]
    seconds: u64,
    /// The warm-up before it, in seconds (the workers compile the bots and play a first game)
    #[arg(long, default_value_t = 5)]
    warmup: u64,
    /// The game played with random bots alone for the claims at saturation (`none`: no such runs)
    #[arg(long, default_value = "connect4")]
    claims: String,
    /// Jobs the matchmaker keeps waiting per ladder (`league serve --queue`)
    #[arg(long, default_value_t = 64)]
    queue: usize,
    /// The same for the claims runs: the matchmaker tops the queue up every 100 ms, so a queue of
    /// Q caps the claims at about 10 Q a second
    #[arg(long, default_value_t = 256)]
    claims_queue: usize,
    /// Owners on the ladder, each with one bot: the game's four bots in turn (more owners, more
    /// bots: fewer games that lock the same ratings at once)
    #[arg(long, default_value_t = 4)]
    owners: usize,
    /// `synchronous_commit` of the scratch databases (`ALTER DATABASE ... SET`): `off` lets a
    /// commit return before its WAL is flushed; PostgreSQL's default, `on`, when not given
    #[arg(long, value_name = "SETTING")]
    synchronous_commit: Option<String>,
    /// Also write the results as JSON here
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
}

/// The four owners' bots of a game's ladder (paths under strategies/lua/), strong ones first.
fn ladder_bots(game: &str) -> [&'static str; 4] {
    match game {
        "worms" => [
            "worms/greedy",
            "worms/greedy",
            "worms/random",
            "worms/random",
        ],
        "bs" => ["bs/player1", "bs/player2", "bs/player3", "bs/player4"],
        "connect4" => [
            "connect4/center",
            "connect4/center",
            "connect4/random",
            "connect4/random",
        ],
        "tron" => ["tron/space", "tron/space", "tron/random", "tron/random"],
        "dice" => [
            "dice/expectimax",
            "dice/expectimax",
            "dice/random",
            "dice/random",
        ],
        "2048" => [
            "g2048/corner",
            "g2048/corner",
            "g2048/random",
            "g2048/random",
        ],
        other => panic!("no bots for {other}: worms, bs, connect4, tron, dice or 2048"),
    }
}

/// A run's ladder: the game and its owners' bots.
#[derive(Clone, Debug)]
struct Setup {
    /// The name in the table.
    label: String,
    game: String,
    bots: Vec<String>,
    /// The claims run (random bots alone).
    claims: bool,
}

fn setups(args: &Args) -> Vec<Setup> {
    let mut out: Vec<Setup> = args
        .games
        .iter()
        .filter(|g| g.as_str() != "none")
        .map(|g| Setup {
            label: g.clone(),
            game: g.clone(),
            bots: (0..args.owners)
                .map(|i| ladder_bots(g)[i % 4].to_string())
                .collect(),
            claims: false,
        })
        .collect();
    if args.claims != "none" {
        let random = ladder_bots(&args.claims)[3].to_string();
        assert!(
            random.ends_with("/random"),
            "no random bot for {}",
            args.claims
        );
        out.push(Setup {
            label: format!("{} random (claims)", args.claims),
            game: args.claims.clone(),
            bots: vec![random; args.owners],
            claims: true,
        });
    }
    out
}

// ---- CPU from /proc ----

/// Clock ticks per second, the unit of /proc's CPU times.
fn clk_tck() -> f64 {
    let out = std::process::Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .expect("getconf CLK_TCK");
    String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .expect("CLK_TCK is a number")
}

/// A process's parent, its own CPU ticks (utime + stime, all its threads) and its waited-for
/// children's (cutime + cstime), from /proc/PID/stat; `None` once it is gone.
fn proc_stat(pid: u32) -> Option<(u32, u64, u64)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name is in parentheses and may hold spaces: the fields follow the last ')'.
    let fields: Vec<&str> = text.rsplit_once(')')?.1.split_whitespace().collect();
    let n = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok());
    // fields[0] is field 3 of proc(5) (state): ppid is field 4, utime..cstime fields 14 to 17.
    Some((n(1)? as u32, n(11)? + n(12)?, n(13)? + n(14)?))
}

fn ticks(pid: u32) -> u64 {
    proc_stat(pid).map_or(0, |(_, own, _)| own)
}

fn comm(pid: u32) -> Option<String> {
    std::fs::read_to_string(format!("/proc/{pid}/comm"))
        .ok()
        .map(|c| c.trim().to_string())
}

/// PostgreSQL's CPU ticks so far: every live process whose `comm` is `postgres` (the postmaster,
/// its background processes and the backends) counts its own utime + stime, and each postmaster
/// (a `postgres` process whose parent is not one) also its cutime + cstime, which hold the CPU of
/// its children that have exited (backends come and go: a connection closed in the window would
/// otherwise take its CPU with it). Sampled at both ends of the window, the difference is the CPU
/// PostgreSQL spent in it: a backend alive at the start and gone at the end is counted live first,
/// then in full in its postmaster's cutime. A process that exits between the reads of one sample
/// can be counted twice or not at all; the league's pools keep their connections, so that is rare.
fn postgres_ticks() -> u64 {
    let mut procs: Vec<(u32, u32, u64, u64)> = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse().ok()) else {
            continue;
        };
        if comm(pid).as_deref() != Some("postgres") {
            continue;
        }
        if let Some((ppid, own, children)) = proc_stat(pid) {
            procs.push((pid, ppid, own, children));
        }
    }
    let postgres: std::collections::HashSet<u32> = procs.iter().map(|p| p.0).collect();
    procs
        .iter()
        .map(|&(_, ppid, own, children)| {
            own + if postgres.contains(&ppid) {
                0
            } else {
                children
            }
        })
        .sum()
}

/// The machine's busy ticks (all cores) from /proc/stat: user, nice, system, irq, softirq, steal.
fn machine_busy_ticks() -> u64 {
    let text = std::fs::read_to_string("/proc/stat").unwrap();
    let cpu: Vec<u64> = text
        .lines()
        .next()
        .unwrap()
        .split_whitespace()
        .skip(1)
        .map(|f| f.parse().unwrap_or(0))
        .collect();
    [0, 1, 2, 5, 6, 7]
        .iter()
        .map(|&i| cpu.get(i).copied().unwrap_or(0))
        .sum()
}

/// CPU ticks of everything measured, at one moment.
#[derive(Clone, Copy, Debug, Default)]
struct Cpu {
    workers: u64,
    server: u64,
    postgres: u64,
    bench: u64,
    machine: u64,
}

fn cpu(workers: &[Child], server: u32) -> Cpu {
    Cpu {
        workers: workers.iter().map(|w| ticks(w.id())).sum(),
        server: ticks(server),
        postgres: postgres_ticks(),
        bench: ticks(std::process::id()),
        machine: machine_busy_ticks(),
    }
}

// ---- PostgreSQL's statistics ----

/// A statement's count and time in the executor.
#[derive(Clone, Debug, Default)]
struct Statement {
    calls: i64,
    ms: f64,
    text: String,
}

/// PostgreSQL's counters for the league's database, at one moment.
#[derive(Clone, Debug, Default)]
struct DbStats {
    /// By `queryid` (empty without pg_stat_statements).
    statements: HashMap<i64, Statement>,
    /// Entries pg_stat_statements has evicted (a window that loses some undercounts).
    dealloc: i64,
    transactions: i64,
    wal_bytes: i64,
    size: i64,
    /// Backends connected to the league's database (the server's and the workers' pools).
    connections: i64,
}

/// Whether `pg_stat_statements` can be read over `admin`, trying `CREATE EXTENSION` once; the
/// reason if not.
async fn statements_available(admin: &mut PgConnection) -> Result<(), String> {
    let probe = "SELECT count(*) FROM pg_stat_statements";
    if sqlx::query(probe).fetch_one(&mut *admin).await.is_ok() {
        return Ok(());
    }
    // As a role that may (a superuser): .ci/postgres makes it in the admin database itself.
    let _ = sqlx::query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        .execute(&mut *admin)
        .await;
    match sqlx::query(probe).fetch_one(&mut *admin).await {
        Ok(_) => Ok(()),
        Err(e) => Err(e.to_string()),
    }
}

async fn db_stats(admin: &mut PgConnection, db: &str, statements: bool) -> DbStats {
    let mut out = DbStats::default();
    if statements {
        let rows = sqlx::query(
            "SELECT queryid, sum(calls)::bigint, sum(total_exec_time)::float8, min(query) \
             FROM pg_stat_statements \
             WHERE dbid = (SELECT oid FROM pg_database WHERE datname = $1) AND queryid IS NOT NULL \
             GROUP BY queryid",
        )
        .bind(db)
        .fetch_all(&mut *admin)
        .await
        .unwrap();
        for r in rows {
            out.statements.insert(
                r.get(0),
                Statement {
                    calls: r.get(1),
                    ms: r.get(2),
                    text: r.get::<Option<String>, _>(3).unwrap_or_default(),
                },
            );
        }
        out.dealloc = sqlx::query("SELECT dealloc FROM pg_stat_statements_info")
            .fetch_one(&mut *admin)
            .await
            .map_or(0, |r| r.get(0));
    }
    let row = sqlx::query(
        "SELECT (SELECT xact_commit FROM pg_stat_database WHERE datname = $1), \
         pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint, pg_database_size($1), \
         (SELECT count(*) FROM pg_stat_activity WHERE datname = $1)",
    )
    .bind(db)
    .fetch_one(&mut *admin)
    .await
    .unwrap();
    out.transactions = row.get(0);
    out.wal_bytes = row.get(1);
    out.size = row.get(2);
    out.connections = row.get(3);
    out
}

/// Games recorded, job claims so far, and jobs waiting, in the league's database.
async fn league_counts(conn: &mut PgConnection) -> (i64, i64, i64) {
    let row = sqlx::query(
        "SELECT (SELECT count(*) FROM results), \
         (SELECT coalesce(sum(attempts), 0)::bigint FROM jobs), \
         (SELECT count(*) FROM jobs WHERE state = 'queued')",
    )
    .fetch_one(conn)
    .await
    .unwrap();
    (row.get(0), row.get(1), row.get(2))
}

/// The bench's read of the queue inside the window: a statement of a shape the league never runs,
/// so that its calls can be told from the league's and taken off.
const QUEUED: &str = "SELECT count(*) FROM jobs WHERE state = $1 AND id >= $2";

async fn queued(conn: &mut PgConnection) -> i64 {
    sqlx::query(QUEUED)
        .bind("queued")
        .bind(0_i64)
        .fetch_one(conn)
        .await
        .unwrap()
        .get(0)
}

// ---- one run ----

/// What one run measured.
#[derive(Clone, Debug)]
struct Measured {
    label: String,
    game: String,
    claims_run: bool,
    workers: usize,
    seconds: f64,
    games: i64,
    claims: i64,
    cpu: [f64; 5],
    /// Statements and transactions of the league's database in the window (the bench's own
    /// subtracted); statements are `None` without pg_stat_statements.
    statements: Option<i64>,
    transactions: i64,
    wal_bytes: i64,
    size_bytes: i64,
    /// Connections to the league's database at the window's end, the bench's own one aside.
    connections: i64,
    /// The statements by kind: (text, calls, executor ms), most calls first.
    by_statement: Vec<(String, i64, f64)>,
    /// pg_stat_statements evicted entries in the window.
    evicted: i64,
    /// Samples of the queue's length, and how many found it empty.
    queue_samples: i64,
    queue_empty: i64,
}

impl Measured {
    fn per_game(&self, x: f64) -> f64 {
        x / self.games.max(1) as f64
    }
    fn games_per_second(&self) -> f64 {
        self.games as f64 / self.seconds
    }
    fn claims_per_second(&self) -> f64 {
        self.claims as f64 / self.seconds
    }
    /// CPU ms per game: workers, server, PostgreSQL.
    fn ms_per_game(&self, which: usize) -> f64 {
        self.per_game(self.cpu[which]) * 1e3
    }
    /// PostgreSQL's share of the CPU the league spent per game (workers, server and PostgreSQL).
    fn postgres_share(&self) -> f64 {
        self.cpu[2] / (self.cpu[0] + self.cpu[1] + self.cpu[2]).max(1e-9)
    }
}

/// The worker processes of a run, killed when dropped (at its end, or when the bench fails).
#[derive(Debug)]
struct Workers(Vec<Child>);

impl Drop for Workers {
    fn drop(&mut self) {
        for w in &mut self.0 {
            let _ = w.kill();
            let _ = w.wait();
        }
    }
}

struct Ctx<'a> {
    args: &'a Args,
    dir: &'a Path,
    rt: &'a tokio::runtime::Runtime,
    admin: &'a mut PgConnection,
    statements: bool,
    clk: f64,
}

fn measure(ctx: &mut Ctx, setup: &Setup, n: usize) -> Measured {
    let (args, dir, rt) = (ctx.args, ctx.dir, ctx.rt);
    let name = format!(
        "botbox_scale_{}_{}{n}",
        setup.game,
        if setup.claims { "claims_" } else { "" }
    );
    let db = pg_scratch(&args.admin, &name);
    if let Some(setting) = &args.synchronous_commit {
        assert!(
            setting
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_'),
            "synchronous_commit: on, off, local, remote_write or remote_apply"
        );
        league::pg_execute(
            &args.admin,
            &format!("ALTER DATABASE {name} SET synchronous_commit = {setting}"),
        );
    }
    let queue = if setup.claims {
        args.claims_queue
    } else {
        args.queue
    };
    let server = serve(dir, &db, 0, queue);
    for (i, bot) in setup.bots.iter().enumerate() {
        let token = user(&db, &format!("o{i}"), dir);
        let source = std::fs::read(repo().join(format!("strategies/lua/{bot}.lua"))).unwrap();
        let bot_name = format!("b{i}_{}", bot.rsplit('/').next().unwrap());
        let status = upload(&server.url, &token, &bot_name, &setup.game, source);
        assert_eq!(status, 201, "uploading {bot} for {}", setup.game);
    }
    let workers = Workers(
        (0..n)
            .map(|w| league::worker(&db, &dir.join(format!("cache{w}"))))
            .collect(),
    );
    let mut conn = rt.block_on(PgConnection::connect(&db)).unwrap();

    // Warm-up: the bots compiled, the first games recorded, the pools' connections open.
    let started = Instant::now();
    std::thread::sleep(Duration::from_secs(args.warmup));
    while rt.block_on(league_counts(&mut conn)).0 == 0 {
        assert!(
            started.elapsed() < Duration::from_secs(args.warmup + 60),
            "{} with {n} workers: no game recorded in {} s",
            setup.label,
            args.warmup + 60
        );
        std::thread::sleep(Duration::from_millis(200));
    }

    // The start: the league's counts (read before the statistics, so not counted), the CPU, then
    // PostgreSQL's statistics over the admin connection. The end reads them in the reverse order.
    let (games0, claims0, _) = rt.block_on(league_counts(&mut conn));
    let t0 = Instant::now();
    let cpu0 = cpu(&workers.0, server.child.id());
    let db0 = rt.block_on(db_stats(ctx.admin, &name, ctx.statements));
    let (mut samples, mut empty) = (0, 0);
    let end = t0 + Duration::from_secs(args.seconds);
    while Instant::now() + Duration::from_secs(1) < end {
        std::thread::sleep(Duration::from_secs(1));
        samples += 1;
        if rt.block_on(queued(&mut conn)) == 0 {
            empty += 1;
        }
    }
    std::thread::sleep(end.saturating_duration_since(Instant::now()));
    let db1 = rt.block_on(db_stats(ctx.admin, &name, ctx.statements));
    let cpu1 = cpu(&workers.0, server.child.id());
    let seconds = t0.elapsed().as_secs_f64();
    let (games1, claims1, _) = rt.block_on(league_counts(&mut conn));

    drop(workers);
    drop(server);
    rt.block_on(conn.close()).ok();
    pg_drop(&args.admin, &name);

    let clk = ctx.clk;
    let secs = |a: u64, b: u64| b.saturating_sub(a) as f64 / clk;
    let league_cpu = [
        secs(cpu0.workers, cpu1.workers),
        secs(cpu0.server, cpu1.server),
        secs(cpu0.postgres, cpu1.postgres),
        secs(cpu0.bench, cpu1.bench),
    ];
    let machine = secs(cpu0.machine, cpu1.machine);
    let other = (machine - league_cpu.iter().sum::<f64>()).max(0.0);
    let mut by_statement: Vec<(String, i64, f64)> = db1
        .statements
        .iter()
        .map(|(id, s)| {
            let before = db0.statements.get(id).cloned().unwrap_or_default();
            let text = s.text.split_whitespace().collect::<Vec<_>>().join(" ");
            (text, s.calls - before.calls, s.ms - before.ms)
        })
        .filter(|s| s.1 > 0)
        .collect();
    // The bench's reads of the queue (one statement and one transaction each) are not the league's.
    let ours = by_statement.iter().position(|s| s.0 == QUEUED);
    match ours {
        Some(i) => {
            by_statement.remove(i);
        }
        None if ctx.statements && samples > 0 => {
            println!(
                "  (the bench's {samples} reads of the queue were not found among the statements)"
            )
        }
        None => {}
    }
    by_statement.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let statements = ctx
        .statements
        .then(|| by_statement.iter().map(|s| s.1).sum::<i64>());
    Measured {
        label: setup.label.clone(),
        game: setup.game.clone(),
        claims_run: setup.claims,
        workers: n,
        seconds,
        games: games1 - games0,
        claims: claims1 - claims0,
        cpu: [
            league_cpu[0],
            league_cpu[1],
            league_cpu[2],
            league_cpu[3],
            other,
        ],
        statements,
        transactions: db1.transactions - db0.transactions - samples,
        wal_bytes: db1.wal_bytes - db0.wal_bytes,
        size_bytes: db1.size - db0.size,
        connections: db1.connections - 1,
        by_statement,
        evicted: db1.dealloc - db0.dealloc,
        queue_samples: samples,
        queue_empty: empty,
    }
}

// ---- the report ----

fn thousands(x: f64) -> String {
    let n = x.round() as i64;
    let digits = n.abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0 { format!("-{out}") } else { out }
}

/// Games per second of the same setup with one worker process, if it was measured.
fn one_worker_rate(all: &[Measured], m: &Measured) -> Option<f64> {
    all.iter()
        .find(|o| o.label == m.label && o.workers == 1)
        .map(Measured::games_per_second)
}

fn table(all: &[Measured], cores: usize) -> String {
    let header = [
        "game",
        "workers",
        "games",
        "games/s",
        "vs 1 worker",
        "claims/s",
        "worker CPU ms/game",
        "server CPU ms/game",
        "PostgreSQL CPU ms/game",
        "PostgreSQL share",
        "statements/game",
        "transactions/game",
        "WAL bytes/game",
        "DB growth bytes/game",
        "connections",
        "machine busy",
        "other CPU s",
        "queue empty",
    ];
    let mut rows: Vec<Vec<String>> = vec![header.iter().map(ToString::to_string).collect()];
    for m in all {
        rows.push(vec![
            m.label.clone(),
            m.workers.to_string(),
            format!("{} in {:.1} s", m.games, m.seconds),
            format!("{:.1}", m.games_per_second()),
            one_worker_rate(all, m)
                .map_or("-".into(), |r| format!("{:.2}x", m.games_per_second() / r)),
            format!("{:.1}", m.claims_per_second()),
            format!("{:.2}", m.ms_per_game(0)),
            format!("{:.2}", m.ms_per_game(1)),
            format!("{:.2}", m.ms_per_game(2)),
            format!("{:.0}%", m.postgres_share() * 100.0),
            m.statements
                .map_or("n/a".into(), |s| format!("{:.1}", m.per_game(s as f64))),
            format!("{:.1}", m.per_game(m.transactions as f64)),
            thousands(m.per_game(m.wal_bytes as f64)),
            thousands(m.per_game(m.size_bytes as f64)),
            m.connections.to_string(),
            format!(
                "{:.0}% of {cores} cores",
                (m.cpu.iter().sum::<f64>()) / m.seconds / cores as f64 * 100.0
            ),
            format!("{:.1}", m.cpu[4]),
            format!("{} of {}", m.queue_empty, m.queue_samples),
        ]);
    }
    let widths: Vec<usize> = (0..header.len())
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap())
        .collect();
    let line = |r: &Vec<String>| {
        let cells: Vec<String> = r
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect();
        format!("| {} |", cells.join(" | "))
    };
    let mut out = line(&rows[0]);
    out.push('\n');
    let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
    out.push_str(&format!("|-{}-|\n", rule.join("-|-")));
    for r in &rows[1..] {
        out.push_str(&line(r));
        out.push('\n');
    }
    out
}

fn json(all: &[Measured], args: &Args, counted_by: &str, cores: usize, clk: f64) -> String {
    let runs: Vec<serde_json::Value> = all
        .iter()
        .map(|m| {
            serde_json::json!({
                "label": m.label,
                "game": m.game,
                "claims_run": m.claims_run,
                "workers": m.workers,
                "seconds": m.seconds,
                "games": m.games,
                "games_per_second": m.games_per_second(),
                "vs_one_worker": one_worker_rate(all, m).map(|r| m.games_per_second() / r),
                "claims": m.claims,
                "claims_per_second": m.claims_per_second(),
                "cpu_seconds": {
                    "workers": m.cpu[0], "server": m.cpu[1], "postgres": m.cpu[2],
                    "bench": m.cpu[3], "other": m.cpu[4],
                },
                "cpu_ms_per_game": {
                    "workers": m.ms_per_game(0), "server": m.ms_per_game(1),
                    "postgres": m.ms_per_game(2),
                },
                "postgres_share": m.postgres_share(),
                "statements": m.statements,
                "statements_per_game": m.statements.map(|s| m.per_game(s as f64)),
                "transactions": m.transactions,
                "transactions_per_game": m.per_game(m.transactions as f64),
                "wal_bytes_per_game": m.per_game(m.wal_bytes as f64),
                "db_growth_bytes_per_game": m.per_game(m.size_bytes as f64),
                "connections": m.connections,
                "statements_evicted": m.evicted,
                "queue_samples": m.queue_samples,
                "queue_empty": m.queue_empty,
                "by_statement": m.by_statement.iter().map(|(text, calls, ms)| serde_json::json!({
                    "statement": text,
                    "calls": calls,
                    "calls_per_game": m.per_game(*calls as f64),
                    "executor_ms_per_game": m.per_game(*ms),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let out = serde_json::json!({
        "bench": "examples/league_scale.rs",
        "cores": cores,
        "clk_tck": clk,
        "seconds": args.seconds,
        "warmup": args.warmup,
        "queue": args.queue,
        "owners": args.owners,
        "synchronous_commit": args.synchronous_commit.as_deref().unwrap_or("on (default)"),
        "claims_queue": args.claims_queue,
        "queries_counted_by": counted_by,
        "runs": runs,
    });
    serde_json::to_string_pretty(&out).unwrap()
}

fn main() {
    let args = Args::parse();
    let dir = repo().join("target/league-scale");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let mut admin = rt.block_on(PgConnection::connect(&args.admin)).unwrap();
    let statements = match rt.block_on(statements_available(&mut admin)) {
        Ok(()) => true,
        Err(why) => {
            println!(
                "pg_stat_statements cannot be read ({why}): statements per game are not \
                 counted, transactions are (pg_stat_database.xact_commit). `bash .ci/postgres` \
                 as root preloads it."
            );
            false
        }
    };
    let counted_by = if statements {
        "pg_stat_statements (calls) and pg_stat_database (xact_commit)"
    } else {
        "pg_stat_database (xact_commit) only"
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let clk = clk_tck();
    let mut ctx = Ctx {
        args: &args,
        dir: &dir,
        rt: &rt,
        admin: &mut admin,
        statements,
        clk,
    };
    let mut all: Vec<Measured> = Vec::new();
    for setup in setups(&args) {
        for &n in &args.workers {
            let m = measure(&mut ctx, &setup, n);
            println!(
                "{} with {n} worker process{}: {} games in {:.1} s = {:.1} games/s, {:.1} claims/s; \
                 CPU per game: workers {:.2} ms, server {:.2} ms, PostgreSQL {:.2} ms ({:.0}%)",
                m.label,
                if n == 1 { "" } else { "es" },
                m.games,
                m.seconds,
                m.games_per_second(),
                m.claims_per_second(),
                m.ms_per_game(0),
                m.ms_per_game(1),
                m.ms_per_game(2),
                m.postgres_share() * 100.0
            );
            if m.evicted > 0 {
                println!(
                    "  pg_stat_statements evicted {} entries in the window: statements undercounted",
                    m.evicted
                );
            }
            if m.games == 0 {
                println!("  no game in the window: the figures per game are not meaningful");
            }
            if all.iter().all(|o| o.label != m.label) && statements {
                println!(
                    "  statements per game, by kind (the first run of {}):",
                    m.label
                );
                for (text, calls, ms) in m.by_statement.iter().take(14) {
                    let short: String = text.chars().take(96).collect();
                    println!(
                        "    {:>7.2} calls {:>7.3} ms  {short}",
                        m.per_game(*calls as f64),
                        m.per_game(*ms)
                    );
                }
            }
            all.push(m);
        }
    }
    println!();
    println!(
        "league_scale: {} s windows after {} s warm-up, {} owners, queue {} per ladder ({} for \
         claims), synchronous_commit {}, {cores} cores; statements counted by {counted_by}",
        args.seconds,
        args.warmup,
        args.owners,
        args.queue,
        args.claims_queue,
        args.synchronous_commit.as_deref().unwrap_or("on")
    );
    print!("{}", table(&all, cores));
    if let Some(path) = &args.json {
        std::fs::write(path, json(&all, &args, counted_by, cores, clk)).unwrap();
        println!("wrote {}", path.display());
    }
}
