//! Workers and the league's housekeeping: a worker leases a job, plays it with the runner's code
//! ([`super::games::play`]) on a blocking thread while a heartbeat renews its lease, and records the
//! result; the matchmaker keeps every ladder's queue filled; the reaper puts expired leases back in
//! the queue; the retention drops old replays. All of them stop when the shutdown signal is raised,
//! a worker after the game it is playing (whose lease it gives back if it cannot finish).

use std::collections::HashMap;
use std::time::Duration;

use tokio::sync::watch;

use super::games::{self, Cache, Player, Spec};
use super::matchmaker::{self, Candidate, Need};
use super::server::identity;
use super::store::{Completed, Job, NewJob, Played, Store};
use crate::games::derive_seed;

/// How a worker runs.
#[derive(Clone, Debug)]
pub struct WorkerConfig {
    /// The worker's name in the jobs table (host and process, and its number).
    pub name: String,
    /// A lease's length; heartbeats renew it every third of it.
    pub lease: Duration,
    /// How long to wait for a job when the queue is empty.
    pub idle: Duration,
}

/// `host:pid:n`, a worker's name.
pub fn worker_name(n: usize) -> String {
    let host = std::fs::read_to_string("/etc/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_else(|_| "localhost".into());
    format!("{host}:{}:{n}", std::process::id())
}

/// Plays jobs until `shutdown` says stop; returns how many games it recorded.
pub async fn work(
    store: Store,
    cache: Cache,
    config: WorkerConfig,
    mut shutdown: watch::Receiver<bool>,
) -> u64 {
    let mut players: HashMap<i64, Player> = HashMap::new();
    let mut recorded = 0;
    while !*shutdown.borrow() {
        let job = match store.claim(&config.name, config.lease).await {
            Ok(Some(job)) => job,
            Ok(None) => {
                let _ = tokio::time::timeout(config.idle, shutdown.changed()).await;
                continue;
            }
            Err(e) => {
                tracing::warn!(worker = %config.name, "claiming a job: {e}");
                let _ = tokio::time::timeout(config.idle * 5, shutdown.changed()).await;
                continue;
            }
        };
        match play_job(&store, &cache, &config, &job, &mut players).await {
            Ok(Completed::Recorded(id)) => {
                recorded += 1;
                tracing::debug!(worker = %config.name, job = job.id, game = id, "recorded");
            }
            Ok(Completed::AlreadyDone) => {
                tracing::info!(worker = %config.name, job = job.id, "the job had a result already")
            }
            Ok(Completed::Repeat(game)) => {
                tracing::debug!(worker = %config.name, job = job.id, game, "a repeat: not stored")
            }
            Err(e) => {
                tracing::error!(worker = %config.name, job = job.id, "{e:#}");
                let _ = store.fail(job.id, &format!("{e:#}")).await;
            }
        }
    }
    if let Ok(n) = store.release(&config.name).await
        && n > 0
    {
        tracing::info!(worker = %config.name, "gave {n} leases back");
    }
    recorded
}

async fn play_job(
    store: &Store,
    cache: &Cache,
    config: &WorkerConfig,
    job: &Job,
    players: &mut HashMap<i64, Player>,
) -> anyhow::Result<Completed> {
    let mut seated = Vec::with_capacity(job.players.len());
    for &id in &job.players {
        let known = match players.get(&id) {
            Some(p) => p.clone(),
            None => {
                let p = player(store, id).await?;
                players.insert(id, p.clone());
                p
            }
        };
        seated.push(known);
    }
    let spec = Spec {
        id: job.id,
        game: job.game.clone(),
        variant: job.variant,
        seed: job.seed,
        limits: job.limits.clone(),
    };
    // The heartbeat renews the lease while the game plays.
    let (stop, mut stopped) = watch::channel(false);
    let beat = {
        let (store, name, lease, id) = (store.clone(), config.name.clone(), config.lease, job.id);
        tokio::spawn(async move {
            loop {
                if tokio::time::timeout(lease / 3, stopped.changed())
                    .await
                    .is_ok()
                {
                    return;
                }
                match store.heartbeat(id, &name, lease).await {
                    Ok(true) => {}
                    Ok(false) => return,
                    Err(e) => tracing::warn!(job = id, "heartbeat: {e}"),
                }
            }
        })
    };
    let cache = cache.clone();
    let outcome = tokio::task::spawn_blocking(move || games::play(&cache, &spec, &seated)).await;
    let _ = stop.send(true);
    let _ = beat.await;
    let outcome = outcome??;
    let played = Played {
        replay_sha256: crate::runtime::source_hash(&outcome.replay),
        replay_zstd: zstd::encode_all(&outcome.replay[..], 3)?,
        record: outcome.record,
    };
    Ok(store.complete(job, &config.name, &played).await?)
}

/// A version as a worker plays it, from the database.
pub async fn player(store: &Store, id: i64) -> anyhow::Result<Player> {
    let version = store
        .version(id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("version {id} is not in the database"))?;
    let (kind, source, file_name) = store
        .source(id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("version {id} has no source"))?;
    Ok(Player {
        name: format!("{}@v{}", version.bot, version.number),
        file_name: super::games::file_name(file_name.as_deref(), &version.bot, &kind),
        kind,
        sha256: version.sha256,
        source,
    })
}

/// How the matchmaker runs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The league's seed: game `n` is seeded with `derive_seed(seed, n)`.
    pub seed: u64,
    /// Jobs kept waiting or playing per ladder.
    pub queue: i64,
    /// The limits games are played under (a `LimitSpec` in JSON).
    pub limits: String,
    /// How often to look at the queues.
    pub every: Duration,
    /// Games each ladder may start per hour (0: as fast as the workers play them).
    pub games_per_hour: u32,
}

/// What a game whose seed bot is settled costs of a ladder's pace: settled bots play at a quarter
/// of the rate while others need games.
pub const SETTLED_COST: f64 = 4.0;

/// A ladder's pace: a bucket that fills at the games per hour and holds a few games at most, so a
/// league that was idle does not play a burst. It starts with one game, so a new league plays at
/// once.
#[derive(Clone, Debug)]
pub struct Pacer {
    per_hour: u32,
    games: f64,
    at: tokio::time::Instant,
}

impl Pacer {
    pub fn new(per_hour: u32) -> Pacer {
        Pacer {
            per_hour,
            games: 1.0,
            at: tokio::time::Instant::now(),
        }
    }

    /// The most the bucket holds: a few seconds' games, and at least a settled game's cost.
    fn capacity(&self) -> f64 {
        (f64::from(self.per_hour) / 3600.0 * 5.0).max(SETTLED_COST)
    }

    fn refill(&mut self) {
        let now = tokio::time::Instant::now();
        let hours = (now - self.at).as_secs_f64() / 3600.0;
        self.games = (self.games + hours * f64::from(self.per_hour)).min(self.capacity());
        self.at = now;
    }

    /// Takes `cost` games from the bucket if it holds them.
    fn spend(&mut self, cost: f64) -> bool {
        if self.per_hour == 0 {
            return true;
        }
        self.refill();
        let spent = self.games >= cost;
        if spent {
            self.games -= cost;
        }
        spent
    }
}

/// Keeps each ladder's queue at `config.queue` jobs, at its pace, until shutdown.
pub async fn matchmake(store: Store, config: MatchConfig, mut shutdown: watch::Receiver<bool>) {
    let mut paces: HashMap<&str, Pacer> = HashMap::new();
    while !*shutdown.borrow() {
        for game in games::names() {
            let pace = paces
                .entry(game)
                .or_insert_with(|| Pacer::new(config.games_per_hour));
            if let Err(e) = fill(&store, game, &config, pace).await {
                tracing::warn!(game, "matchmaking: {e:#}");
            }
        }
        let _ = tokio::time::timeout(config.every, shutdown.changed()).await;
    }
}

/// Adds jobs to `game`'s queue up to `config.queue`, as far as its `pace` allows.
pub async fn fill(
    store: &Store,
    game: &str,
    config: &MatchConfig,
    pace: &mut Pacer,
) -> anyhow::Result<usize> {
    let pending = store.pending(game).await?;
    if pending >= config.queue {
        return Ok(0);
    }
    let ladder = store.ladder(game).await?;
    let setup = games::ladder(game, 0)?;
    let (seats, variants) = (setup.seats(), setup.variants());
    let mut candidates: Vec<Candidate> = ladder
        .iter()
        .map(|v| Candidate {
            id: v.id as u64,
            owner: v.owner_id as u64,
            rating: v.rating.conservative(),
            recent_games: u32::try_from(v.games).unwrap_or(u32::MAX),
            need: Need::of(v.games, v.rating.settled()),
        })
        .collect();
    // Jobs already waiting count as games, so one round does not pick the same bots each time.
    let mut added = Vec::new();
    // Game numbers follow the jobs table (one matchmaker adds jobs, so looking once is enough).
    let first = store.last_job_id().await? as u64 + 1;
    for number in (first..).take((config.queue - pending) as usize) {
        let mut rng = crate::games::rng(derive_seed(config.seed, number));
        let Some(table) = matchmaker::pick(&candidates, seats, &mut rng) else {
            break;
        };
        let cost = match candidates[table[0]].need {
            Need::Settled => SETTLED_COST,
            Need::New | Need::Uncertain => 1.0,
        };
        if !pace.spend(cost) {
            break;
        }
        for &i in &table {
            candidates[i].recent_games += 1;
        }
        // Sides turn with the game's number, and the variant every `seats` games.
        let mut players: Vec<i64> = table.iter().map(|&i| candidates[i].id as i64).collect();
        players.rotate_left(number as usize % seats);
        let job = NewJob {
            game: game.to_string(),
            variant: (number as usize / seats) % variants,
            seed: derive_seed(config.seed, number),
            players,
            limits: config.limits.clone(),
            challenge: None,
        };
        added.push(job);
    }
    if !added.is_empty() {
        store.enqueue_all(&added).await?;
    }
    Ok(added.len())
}

/// Re-queues expired leases every `every` until shutdown.
pub async fn reap(store: Store, every: Duration, mut shutdown: watch::Receiver<bool>) {
    while !*shutdown.borrow() {
        match store.reap().await {
            Ok(0) => {}
            Ok(n) => tracing::info!("re-queued {n} jobs whose lease expired"),
            Err(e) => tracing::warn!("reaping: {e}"),
        }
        let _ = tokio::time::timeout(every, shutdown.changed()).await;
    }
}

/// Reads the credentials in use into `strikes` now and every [`identity::REFRESH`] until shutdown.
pub async fn credentials(
    store: Store,
    strikes: std::sync::Arc<identity::Strikes>,
    mut shutdown: watch::Receiver<bool>,
) {
    while !*shutdown.borrow() {
        match store.credentials_in_use().await {
            Ok(hashes) => strikes.in_use(hashes),
            Err(e) => tracing::warn!("reading the credentials in use: {e}"),
        }
        let _ = tokio::time::timeout(identity::REFRESH, shutdown.changed()).await;
    }
}

/// How often the cap on replays is looked at.
pub const CAP_EVERY: Duration = Duration::from_secs(1);

/// Drops replays older than `keep`, and sessions a day past their end, every hour, and the oldest
/// replays over `cap` bytes every [`CAP_EVERY`], until shutdown.
pub async fn retain(
    store: Store,
    keep: Duration,
    cap: Option<i64>,
    mut shutdown: watch::Receiver<bool>,
) {
    let mut last_hourly: Option<tokio::time::Instant> = None;
    while !*shutdown.borrow() {
        if let Some(cap) = cap {
            match store.cap_replays(cap).await {
                Ok(0) => {}
                Ok(n) => tracing::debug!("dropped {n} replays over the cap of {cap} bytes"),
                Err(e) => tracing::warn!("capping the replays: {e}"),
            }
        }
        if last_hourly.is_some_and(|t| t.elapsed() < Duration::from_secs(3600)) {
            let _ = tokio::time::timeout(CAP_EVERY, shutdown.changed()).await;
            continue;
        }
        last_hourly = Some(tokio::time::Instant::now());
        let before = super::store::now_ms() - keep.as_millis() as i64;
        match store.drop_replays(before).await {
            Ok(0) => {}
            Ok(n) => tracing::info!("dropped {n} replays past the retention"),
            Err(e) => tracing::warn!("retention: {e}"),
        }
        // Sessions that ended or expired a day ago are of no use to anyone.
        if let Err(e) = store
            .prune_sessions(super::store::now_ms() - 86_400_000)
            .await
        {
            tracing::warn!("retention of sessions: {e}");
        }
        let _ = tokio::time::timeout(CAP_EVERY, shutdown.changed()).await;
    }
}
