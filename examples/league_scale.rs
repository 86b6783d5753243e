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
#[path = "league_scale/pg_stats.rs"]
mod pg_stats;
#[path = "league_scale/procfs.rs"]
mod procfs;
#[path = "league_scale/report.rs"]
mod report;

use std::path::{Path, PathBuf};
use std::process::Child;
use std::time::{Duration, Instant};

use clap::Parser;
use sqlx::{Connection, PgConnection};

use league::{pg_drop, pg_scratch, repo, serve, upload, user};
use pg_stats::{QUEUED, db_stats, league_counts, queued, statements_available};
use procfs::{clk_tck, cpu};
use report::{json, table};

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
