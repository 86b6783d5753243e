//! The league (issue 16): people upload WASM and Luau bots; the league checks them, plays them
//! against each other around the clock, rates them, and shows the ladders, the games and each
//! owner's own logs.
//!
//! - [`rating`] and [`matchmaker`] are pure: how a result moves ratings, who plays next.
//! - [`games`] is what the league plays: each game's ladder set-up, an upload's checks, a job played
//!   with the runner's code into a record and a replay that are the same bytes on every machine.
//! - [`store`] is the database (SQLite by default, PostgreSQL for several machines), [`worker`] the
//!   workers and housekeeping, [`server`] the HTTP API, [`client`] the CLI's side of it.
//!
//! [`serve`] runs the whole league in one process (the API, the matchmaker, the reaper and its own
//! workers); [`work`] runs workers alone against a shared PostgreSQL.

pub mod client;
pub mod games;
pub mod matchmaker;
pub mod pages;
pub mod rating;
pub mod server;
pub mod store;
pub mod worker;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use tokio::sync::watch;

pub use store::Store;

/// The engine that plays the league's games, recorded with every game.
pub const ENGINE: &str = concat!("botbox ", env!("CARGO_PKG_VERSION"));

/// `text` as a URL query value.
pub fn query_value(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// How `botbox league serve` runs.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    pub db: String,
    pub listen: SocketAddr,
    /// Where strategy files are cached for the runtime (by content hash).
    pub cache: PathBuf,
    /// Worker threads in this process (0: the games are played by `botbox league worker`s).
    pub workers: usize,
    pub seed: u64,
    pub queue: i64,
    /// Games each ladder may start per hour (0: as fast as the workers go).
    pub games_per_hour: u32,
    pub limits: crate::runtime::LimitSpec,
    pub rate: server::RateLimit,
    /// Failed authentications allowed per address and minute.
    pub auth_failures: u32,
    pub timeouts: server::Timeouts,
    /// Timeouts and caps of the connections.
    pub connections: server::listen::Listen,
    /// Whether session cookies are `Secure`.
    pub secure_cookies: bool,
    /// Replays are kept this long.
    pub keep: Duration,
    /// Replays take at most this many bytes (the oldest are dropped first, each bot's newest kept).
    pub replay_cap: Option<i64>,
    /// Who may sign up.
    pub signup: server::signup::Signup,
    /// Reverse proxies whose `X-Forwarded-For` is believed.
    pub trusted_proxies: Vec<server::proxy::Network>,
    pub lease: Duration,
    /// Upload checks at a time.
    pub checks: usize,
}

/// How `botbox league worker` runs.
#[derive(Clone, Debug)]
pub struct WorkConfig {
    pub db: String,
    pub cache: PathBuf,
    pub workers: usize,
    pub lease: Duration,
}

/// Raised on Ctrl-C or SIGTERM. The handlers are installed before this returns, so a signal that
/// comes as soon as the server says it listens stops it cleanly (installed in the task, they could
/// come after it and leave the signal's default action, death, in place).
fn shutdown_signal() -> watch::Receiver<bool> {
    use tokio::signal::unix::{SignalKind, signal};
    let (tx, rx) = watch::channel(false);
    let mut int = signal(SignalKind::interrupt()).expect("a SIGINT handler");
    let mut term = signal(SignalKind::terminate()).expect("a SIGTERM handler");
    tokio::spawn(async move {
        tokio::select! {
            _ = int.recv() => {},
            _ = term.recv() => {},
        }
        tracing::info!("shutting down: finishing the games in play");
        let _ = tx.send(true);
    });
    rx
}

/// "1 worker", "2 workers".
fn worker_count(n: usize) -> String {
    format!("{n} worker{}", if n == 1 { "" } else { "s" })
}

/// Logs to stderr, at `RUST_LOG`'s level (info by default), coloured only on a terminal.
pub fn init_tracing() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,sqlx=warn,tower_http=warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .try_init();
}

fn spawn_workers(
    store: &Store,
    cache: &games::Cache,
    n: usize,
    lease: Duration,
    shutdown: &watch::Receiver<bool>,
) -> Vec<tokio::task::JoinHandle<u64>> {
    (0..n)
        .map(|i| {
            let config = worker::WorkerConfig {
                name: worker::worker_name(i),
                lease,
                idle: Duration::from_millis(50),
            };
            tokio::spawn(worker::work(
                store.clone(),
                cache.clone(),
                config,
                shutdown.clone(),
            ))
        })
        .collect()
}

/// The whole league in one process, until Ctrl-C or SIGTERM.
pub async fn serve(config: ServeConfig) -> anyhow::Result<()> {
    let store = Store::open(&config.db).await?;
    let cache = games::Cache::new(&config.cache)?;
    let shutdown = shutdown_signal();
    let limits = serde_json::to_string(&config.limits).expect("limits serialize");
    let housekeeping = vec![
        tokio::spawn(worker::matchmake(
            store.clone(),
            worker::MatchConfig {
                seed: config.seed,
                queue: config.queue,
                limits,
                every: Duration::from_millis(100),
                games_per_hour: config.games_per_hour,
            },
            shutdown.clone(),
        )),
        tokio::spawn(worker::reap(
            store.clone(),
            Duration::from_secs(2).min(config.lease / 2),
            shutdown.clone(),
        )),
        tokio::spawn(worker::retain(
            store.clone(),
            config.keep,
            config.replay_cap,
            shutdown.clone(),
        )),
    ];
    let workers = spawn_workers(&store, &cache, config.workers, config.lease, &shutdown);
    let strikes = Arc::new(server::identity::Strikes::new(config.auth_failures));
    let credentials = tokio::spawn(worker::credentials(
        store.clone(),
        strikes.clone(),
        shutdown.clone(),
    ));
    let state = server::AppState {
        store: store.clone(),
        cache,
        limits: config.limits.clone(),
        checks: Arc::new(tokio::sync::Semaphore::new(config.checks.max(1))),
        strikes: strikes.clone(),
        secure_cookies: config.secure_cookies,
        games_per_hour: config.games_per_hour,
        replay_cap: config.replay_cap,
        signup: config.signup,
        open_signups: Arc::default(),
        trusted_proxies: Arc::new(config.trusted_proxies.clone()),
        playground: Arc::default(),
    };
    let app = server::router(state, config.rate, config.timeouts);
    let connections = config.connections.fit_file_limit();
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .with_context(|| format!("listening on {}", config.listen))?;
    let address = listener.local_addr()?;
    tracing::info!(
        "connections: at most {} ({} per address), headers within {:?}, idle keep-alive {:?}; \
         requests within {:?}, uploads within {:?}",
        connections.max_connections,
        connections.max_per_peer,
        connections.header_timeout,
        connections.idle_timeout,
        config.timeouts.request,
        config.timeouts.upload
    );
    // The line scripts and tests wait for.
    println!(
        "league listening on http://{address} (database {}, {})",
        config.db,
        worker_count(config.workers)
    );
    server::listen::serve(listener, app, connections, shutdown.clone()).await;
    let mut games = 0;
    for w in workers {
        games += w.await.unwrap_or(0);
    }
    for h in housekeeping {
        let _ = h.await;
    }
    let _ = credentials.await;
    store.close().await;
    eprintln!("league stopped; this process recorded {games} games");
    Ok(())
}

/// Workers alone, until Ctrl-C or SIGTERM.
pub async fn work(config: WorkConfig) -> anyhow::Result<()> {
    let store = Store::open(&config.db).await?;
    let cache = games::Cache::new(&config.cache)?;
    let shutdown = shutdown_signal();
    let reaper = tokio::spawn(worker::reap(
        store.clone(),
        Duration::from_secs(2).min(config.lease / 2),
        shutdown.clone(),
    ));
    println!(
        "league worker: {} on {}",
        worker_count(config.workers),
        config.db
    );
    let workers = spawn_workers(&store, &cache, config.workers, config.lease, &shutdown);
    let mut games = 0;
    for w in workers {
        games += w.await.unwrap_or(0);
    }
    let _ = reaper.await;
    store.close().await;
    eprintln!("workers stopped; they recorded {games} games");
    Ok(())
}

/// Re-plays stored game `id` here and compares its record and replay with the stored ones, byte for
/// byte. Returns a line describing the agreement, or an error naming what differs.
pub async fn verify(store: &Store, cache: &games::Cache, id: i64) -> anyhow::Result<String> {
    let stored = store
        .result(id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("no game {id} in the database"))?;
    if stored.engine != ENGINE {
        anyhow::bail!(
            "game {id} was played by {}, this is {ENGINE}: re-play it with that version",
            stored.engine
        );
    }
    let mut players = Vec::new();
    for &v in &stored.players {
        players.push(worker::player(store, v).await?);
    }
    let spec = games::Spec {
        id: stored.job,
        game: stored.game.clone(),
        variant: stored.variant_index,
        seed: stored.seed,
        limits: stored.limits.clone(),
    };
    let cache = cache.clone();
    let outcome =
        tokio::task::spawn_blocking(move || games::play(&cache, &spec, &players)).await??;
    let record = serde_json::to_string(&outcome.record)?;
    let was = serde_json::to_string(&stored.record)?;
    anyhow::ensure!(
        record == was,
        "game {id}: the result differs\n stored:   {was}\n replayed: {record}"
    );
    let sha = crate::runtime::source_hash(&outcome.replay);
    anyhow::ensure!(
        sha == stored.replay_sha256,
        "game {id}: the replay differs (stored SHA-256 {}, replayed {sha})",
        stored.replay_sha256
    );
    if let Some(bytes) = store.replay(id).await? {
        anyhow::ensure!(
            bytes == outcome.replay,
            "game {id}: the stored replay's bytes differ from the re-played ones"
        );
    }
    Ok(format!(
        "game {id} ({}, {}): result and replay agree ({} turns, replay {})",
        stored.game,
        stored.record.players.join(" vs "),
        outcome.record.turns,
        &sha[..12]
    ))
}
