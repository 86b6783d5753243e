//! The league's storage: one schema on SQLite (the embedded default, one process) and PostgreSQL
//! (workers on several machines), read and written with the same queries through sqlx's `Any` driver.
//! The two dialects differ in one place: PostgreSQL claims a job with `FOR UPDATE SKIP LOCKED` and
//! locks the ratings it moves, where SQLite's single writer already serializes both.
//!
//! A job's life: `queued` → `leased` (a worker holds it until `lease_until`, renewed by heartbeats) →
//! `done` when its result is recorded. An expired lease is put back in the queue by the reaper
//! ([`Store::reap`]); after [`MAX_ATTEMPTS`] leases the job is `failed`. A result is recorded exactly
//! once: the job moves to `done` and the result is inserted in one transaction, and the result's job
//! is a unique key.

use std::str::FromStr;
use std::time::Duration;

use anyhow::Context;
use serde::{Deserialize, Serialize};
use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{AnyPool, Executor, Row};

use super::rating::{self, Model, Rating};
use crate::tournament::runner::GameRecord;

mod variants;
pub use variants::VariantRecord;

/// How many times a job is leased before it is given up as `failed`.
pub const MAX_ATTEMPTS: i64 = 3;

static SQLITE: sqlx::migrate::Migrator = sqlx::migrate!("migrations/sqlite");
static POSTGRES: sqlx::migrate::Migrator = sqlx::migrate!("migrations/postgres");

/// Which database a store talks to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// A connection pool to the league's database, migrated to the current schema.
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// The URL of a database given on the command line: a `postgres://` URL as it is, anything else a
/// SQLite file (created with its directory if missing).
pub fn database_url(db: &str) -> anyhow::Result<String> {
    if db.starts_with("postgres://") || db.starts_with("postgresql://") || db.starts_with("sqlite:")
    {
        return Ok(db.to_string());
    }
    let path = std::path::Path::new(db);
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    Ok(format!("sqlite://{db}?mode=rwc"))
}

impl Store {
    /// Connects to `db` (a `postgres://` URL or a SQLite file) and migrates it.
    pub async fn open(db: &str) -> anyhow::Result<Store> {
        sqlx::any::install_default_drivers();
        let url = database_url(db)?;
        let backend = if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else {
            Backend::Postgres
        };
        let options =
            AnyConnectOptions::from_str(&url).with_context(|| format!("database {db}"))?;
        let pool = AnyPoolOptions::new()
            .max_connections(if backend == Backend::Sqlite { 4 } else { 8 })
            .acquire_timeout(Duration::from_secs(30))
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        // WAL: readers never wait for the writer; a committed write survives a
                        // killed process. Writers wait for each other instead of failing.
                        conn.execute("PRAGMA journal_mode = WAL").await?;
                        conn.execute("PRAGMA synchronous = NORMAL").await?;
                        conn.execute("PRAGMA busy_timeout = 10000").await?;
                        conn.execute("PRAGMA foreign_keys = ON").await?;
                    }
                    Ok(())
                })
            })
            .connect_with(options)
            .await
            .with_context(|| format!("connecting to the league database {db}"))?;
        let migrator = match backend {
            Backend::Sqlite => &SQLITE,
            Backend::Postgres => &POSTGRES,
        };
        migrator
            .run(&pool)
            .await
            .with_context(|| format!("migrating the league database {db}"))?;
        Ok(Store { pool, backend })
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    pub async fn close(&self) {
        self.pool.close().await;
    }

    // ---- users and tokens ----

    /// Adds a user and a first token; returns the token (shown once, stored hashed).
    pub async fn add_user(&self, name: &str) -> Result<(i64, String), StoreError> {
        check_name("user", name)?;
        let mut tx = self.pool.begin().await?;
        let id: i64 =
            match sqlx::query("INSERT INTO users (name, created) VALUES ($1, $2) RETURNING id")
                .bind(name)
                .bind(now_ms())
                .fetch_one(&mut *tx)
                .await
            {
                Ok(row) => row.try_get(0)?,
                Err(e) if is_unique(&e) => {
                    return Err(StoreError::Conflict(format!("user {name} exists already")));
                }
                Err(e) => return Err(e.into()),
            };
        let token = new_token();
        sqlx::query("INSERT INTO tokens (user_id, sha256, label, created) VALUES ($1, $2, $3, $4)")
            .bind(id)
            .bind(token_hash(&token))
            .bind("first")
            .bind(now_ms())
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok((id, token))
    }

    /// Adds a token for user `user_id`.
    pub async fn add_token(&self, user_id: i64, label: &str) -> Result<(i64, String), StoreError> {
        let token = new_token();
        let row = sqlx::query(
            "INSERT INTO tokens (user_id, sha256, label, created) VALUES ($1, $2, $3, $4) RETURNING id",
        )
        .bind(user_id)
        .bind(token_hash(&token))
        .bind(label)
        .bind(now_ms())
        .fetch_one(&self.pool)
        .await?;
        Ok((row.try_get(0)?, token))
    }

    /// The user's tokens (id, label, created, revoked).
    pub async fn tokens(&self, user_id: i64) -> Result<Vec<TokenInfo>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, label, created, revoked FROM tokens WHERE user_id = $1 ORDER BY id",
        )
        .bind(user_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(TokenInfo {
                    id: r.try_get(0)?,
                    label: r.try_get(1)?,
                    created: r.try_get(2)?,
                    revoked: r.try_get(3)?,
                })
            })
            .collect()
    }

    /// Revokes one of the user's tokens; false if it is not theirs.
    pub async fn revoke_token(&self, user_id: i64, token_id: i64) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE tokens SET revoked = $1 WHERE id = $2 AND user_id = $3 AND revoked IS NULL",
        )
        .bind(now_ms())
        .bind(token_id)
        .bind(user_id)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The user a token belongs to, if it is valid.
    pub async fn user_by_token(&self, token: &str) -> Result<Option<User>, StoreError> {
        let row = sqlx::query(
            "SELECT users.id, users.name FROM tokens JOIN users ON users.id = tokens.user_id \
             WHERE tokens.sha256 = $1 AND tokens.revoked IS NULL",
        )
        .bind(token_hash(token))
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| {
            Ok(User {
                id: r.try_get(0)?,
                name: r.try_get(1)?,
            })
        })
        .transpose()
    }

    // ---- bots and versions ----

    /// The bot called `name`, if there is one.
    pub async fn bot(&self, name: &str) -> Result<Option<Bot>, StoreError> {
        let row = sqlx::query(
            "SELECT bots.id, bots.name, bots.game, users.id, users.name, bots.created, bots.retired \
             FROM bots JOIN users ON users.id = bots.owner_id WHERE bots.name = $1",
        )
        .bind(name)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| bot_of(&r)).transpose()
    }

    /// Stores a version that passed its checks, creating the bot if needed. The same bytes as an
    /// existing version of the bot are that version again (nothing changes); new bytes become the
    /// bot's active version.
    pub async fn add_version(
        &self,
        owner: &User,
        name: &str,
        game: &str,
        upload: &Checked,
        model: Model,
    ) -> Result<(Version, bool), StoreError> {
        check_name("bot", name)?;
        let mut tx = self.pool.begin().await?;
        // A write first, so SQLite takes its write lock at once (a read first could not upgrade).
        let now = now_ms();
        let inserted = sqlx::query(
            "INSERT INTO bots (name, owner_id, game, created) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (name) DO NOTHING",
        )
        .bind(name)
        .bind(owner.id)
        .bind(game)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        let _ = inserted;
        let row = sqlx::query("SELECT id, owner_id, game, retired FROM bots WHERE name = $1")
            .bind(name)
            .fetch_one(&mut *tx)
            .await?;
        let (bot_id, owner_id, bot_game, retired): (i64, i64, String, Option<i64>) = (
            row.try_get(0)?,
            row.try_get(1)?,
            row.try_get(2)?,
            row.try_get(3)?,
        );
        if owner_id != owner.id {
            return Err(StoreError::Forbidden(format!(
                "the bot {name} belongs to another user; choose another name"
            )));
        }
        if bot_game != game {
            return Err(StoreError::Invalid(format!(
                "the bot {name} plays {bot_game}, not {game}; choose another name for a {game} bot"
            )));
        }
        if retired.is_some() {
            return Err(StoreError::Conflict(format!(
                "the bot {name} is retired; choose another name"
            )));
        }
        let existing = sqlx::query("SELECT id FROM versions WHERE bot_id = $1 AND sha256 = $2")
            .bind(bot_id)
            .bind(&upload.sha256)
            .fetch_optional(&mut *tx)
            .await?;
        let (version_id, created) = match existing {
            Some(row) => (row.try_get::<i64, _>(0)?, false),
            None => {
                let number: i64 = sqlx::query(
                    "SELECT COALESCE(MAX(number), 0) + 1 FROM versions WHERE bot_id = $1",
                )
                .bind(bot_id)
                .fetch_one(&mut *tx)
                .await?
                .try_get(0)?;
                sqlx::query("UPDATE versions SET active = 0 WHERE bot_id = $1")
                    .bind(bot_id)
                    .execute(&mut *tx)
                    .await?;
                let rating = Rating::new(model);
                let row = sqlx::query(
                    "INSERT INTO versions (bot_id, number, sha256, kind, source, size, created, \
                     active, rating, rank_value) VALUES ($1, $2, $3, $4, $5, $6, $7, 1, $8, $9) \
                     RETURNING id",
                )
                .bind(bot_id)
                .bind(number)
                .bind(&upload.sha256)
                .bind(&upload.kind)
                .bind(upload.bytes.clone())
                .bind(upload.bytes.len() as i64)
                .bind(now)
                .bind(serde_json::to_string(&rating).expect("ratings serialize"))
                .bind(rating.conservative())
                .fetch_one(&mut *tx)
                .await?;
                (row.try_get::<i64, _>(0)?, true)
            }
        };
        tx.commit().await?;
        let version = self
            .version(version_id)
            .await?
            .ok_or_else(|| StoreError::Invalid("the version vanished".into()))?;
        Ok((version, created))
    }

    /// Retires a bot (it plays no more games; its games stay).
    pub async fn retire(&self, owner: &User, name: &str) -> Result<(), StoreError> {
        let bot = self
            .bot(name)
            .await?
            .ok_or_else(|| StoreError::NotFound(format!("no bot called {name}")))?;
        if bot.owner_id != owner.id {
            return Err(StoreError::Forbidden(format!(
                "the bot {name} belongs to another user"
            )));
        }
        sqlx::query("UPDATE bots SET retired = $1 WHERE id = $2 AND retired IS NULL")
            .bind(now_ms())
            .bind(bot.id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    const VERSION_COLUMNS: &'static str = "versions.id, versions.bot_id, bots.name, versions.number, \
        versions.sha256, versions.kind, versions.size, versions.created, versions.active, \
        versions.rating, versions.games, versions.wins, versions.draws, versions.losses, \
        versions.faults, bots.owner_id, users.name, bots.game, bots.retired";

    pub async fn version(&self, id: i64) -> Result<Option<Version>, StoreError> {
        let sql = format!(
            "SELECT {} FROM versions JOIN bots ON bots.id = versions.bot_id \
             JOIN users ON users.id = bots.owner_id WHERE versions.id = $1",
            Self::VERSION_COLUMNS
        );
        let row = sqlx::query(&sql)
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| version_of(&r)).transpose()
    }

    /// A bot's versions, newest first.
    pub async fn versions(&self, bot_id: i64) -> Result<Vec<Version>, StoreError> {
        let sql = format!(
            "SELECT {} FROM versions JOIN bots ON bots.id = versions.bot_id \
             JOIN users ON users.id = bots.owner_id WHERE versions.bot_id = $1 \
             ORDER BY versions.number DESC",
            Self::VERSION_COLUMNS
        );
        let rows = sqlx::query(&sql).bind(bot_id).fetch_all(&self.pool).await?;
        rows.iter().map(version_of).collect()
    }

    /// The versions that play on `game`'s ladder (each bot's active version, bots not retired),
    /// best first.
    pub async fn ladder(&self, game: &str) -> Result<Vec<Version>, StoreError> {
        let sql = format!(
            "SELECT {} FROM versions JOIN bots ON bots.id = versions.bot_id \
             JOIN users ON users.id = bots.owner_id \
             WHERE bots.game = $1 AND versions.active = 1 AND bots.retired IS NULL \
             ORDER BY versions.rank_value DESC, versions.id",
            Self::VERSION_COLUMNS
        );
        let rows = sqlx::query(&sql).bind(game).fetch_all(&self.pool).await?;
        rows.iter().map(version_of).collect()
    }

    /// A version's source bytes.
    pub async fn source(&self, version_id: i64) -> Result<Option<(String, Vec<u8>)>, StoreError> {
        let row = sqlx::query("SELECT kind, source FROM versions WHERE id = $1")
            .bind(version_id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| Ok((r.try_get(0)?, r.try_get(1)?))).transpose()
    }

    // ---- jobs ----

    /// Jobs of `game` waiting or being played.
    pub async fn pending(&self, game: &str) -> Result<i64, StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) FROM jobs WHERE game = $1 AND state IN ('queued', 'leased')",
        )
        .bind(game)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get(0)?)
    }

    /// How many jobs there have been (the matchmaker numbers games by it).
    pub async fn job_count(&self) -> Result<i64, StoreError> {
        let row = sqlx::query("SELECT COUNT(*) FROM jobs")
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get(0)?)
    }

    pub async fn enqueue(&self, job: &NewJob) -> Result<i64, StoreError> {
        let row = sqlx::query(
            "INSERT INTO jobs (game, variant, seed, players, limits, state, created) \
             VALUES ($1, $2, $3, $4, $5, 'queued', $6) RETURNING id",
        )
        .bind(&job.game)
        .bind(job.variant as i64)
        .bind(job.seed as i64)
        .bind(serde_json::to_string(&job.players).expect("ids serialize"))
        .bind(&job.limits)
        .bind(now_ms())
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get(0)?)
    }

    /// Leases the oldest queued job to `worker` for `lease`.
    pub async fn claim(&self, worker: &str, lease: Duration) -> Result<Option<Job>, StoreError> {
        let lock = match self.backend {
            Backend::Postgres => " FOR UPDATE SKIP LOCKED",
            Backend::Sqlite => "",
        };
        let sql = format!(
            "UPDATE jobs SET state = 'leased', worker = $1, lease_until = $2, \
             attempts = attempts + 1 \
             WHERE id = (SELECT id FROM jobs WHERE state = 'queued' ORDER BY id LIMIT 1{lock}) \
             RETURNING id, game, variant, seed, players, limits, attempts"
        );
        let row = sqlx::query(&sql)
            .bind(worker)
            .bind(now_ms() + lease.as_millis() as i64)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| job_of(&r)).transpose()
    }

    /// Renews `worker`'s lease on a job; false if the lease was lost (reaped, or the job is done).
    pub async fn heartbeat(
        &self,
        job: i64,
        worker: &str,
        lease: Duration,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE jobs SET lease_until = $1 WHERE id = $2 AND worker = $3 AND state = 'leased'",
        )
        .bind(now_ms() + lease.as_millis() as i64)
        .bind(job)
        .bind(worker)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Puts the jobs whose lease expired back in the queue (or gives them up after
    /// [`MAX_ATTEMPTS`]); returns how many were re-queued.
    pub async fn reap(&self) -> Result<u64, StoreError> {
        let now = now_ms();
        sqlx::query(
            "UPDATE jobs SET state = 'failed', worker = NULL, lease_until = NULL \
             WHERE state = 'leased' AND lease_until < $1 AND attempts >= $2",
        )
        .bind(now)
        .bind(MAX_ATTEMPTS)
        .execute(&self.pool)
        .await?;
        let done = sqlx::query(
            "UPDATE jobs SET state = 'queued', worker = NULL, lease_until = NULL \
             WHERE state = 'leased' AND lease_until < $1",
        )
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected())
    }

    /// Gives `worker`'s leases back to the queue (a worker shutting down with games unplayed).
    pub async fn release(&self, worker: &str) -> Result<u64, StoreError> {
        let done = sqlx::query(
            "UPDATE jobs SET state = 'queued', worker = NULL, lease_until = NULL, \
             attempts = attempts - 1 WHERE state = 'leased' AND worker = $1",
        )
        .bind(worker)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected())
    }

    /// Gives a job up (it cannot be played: a version that no longer loads, say), with the reason.
    pub async fn fail(&self, job: i64, error: &str) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE jobs SET state = 'failed', lease_until = NULL, error = $1 \
             WHERE id = $2 AND state <> 'done'",
        )
        .bind(error)
        .bind(job)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Jobs still leased after their lease ran out (the reaper has not seen them yet).
    pub async fn expired_leases(&self) -> Result<i64, StoreError> {
        let row =
            sqlx::query("SELECT COUNT(*) FROM jobs WHERE state = 'leased' AND lease_until < $1")
                .bind(now_ms())
                .fetch_one(&self.pool)
                .await?;
        Ok(row.try_get(0)?)
    }

    /// Counts of jobs by state.
    pub async fn job_states(&self) -> Result<Vec<(String, i64)>, StoreError> {
        let rows = sqlx::query("SELECT state, COUNT(*) FROM jobs GROUP BY state ORDER BY state")
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
            .collect()
    }

    /// Records a played job's result and moves the players' ratings, exactly once: returns the
    /// result's id, or `None` when the job had a result already (another worker's, after a lease
    /// expired) and this one is dropped.
    pub async fn complete(
        &self,
        job: &Job,
        worker: &str,
        played: &Played,
    ) -> Result<Option<i64>, StoreError> {
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query(
            "UPDATE jobs SET state = 'done', lease_until = NULL, worker = $1 \
             WHERE id = $2 AND state <> 'done'",
        )
        .bind(worker)
        .bind(job.id)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            tx.rollback().await?;
            return Ok(None);
        }
        let lock = match self.backend {
            Backend::Postgres => " FOR UPDATE",
            Backend::Sqlite => "",
        };
        // Each player's rating, locked in id order (no two transactions wait on each other).
        let mut ids = job.players.clone();
        ids.sort_unstable();
        ids.dedup();
        let mut ratings = std::collections::HashMap::new();
        for id in &ids {
            let row = sqlx::query(&format!(
                "SELECT bot_id, rating FROM versions WHERE id = $1{lock}"
            ))
            .bind(id)
            .fetch_one(&mut *tx)
            .await?;
            let bot: i64 = row.try_get(0)?;
            let rating: Rating = serde_json::from_str(&row.try_get::<String, _>(1)?)
                .map_err(|e| StoreError::Invalid(format!("stored rating: {e}")))?;
            ratings.insert(*id, (bot, rating));
        }
        let record = &played.record;
        let places = places(record);
        let before: Vec<Rating> = job.players.iter().map(|id| ratings[id].1.clone()).collect();
        let mut after = rating::rate(&before, &places, record.figures.score)
            .map_err(|e| StoreError::Invalid(format!("rating game {}: {e}", job.id)))?;
        // A table game a seat faulted is void for the others: only the faulted seats move.
        if record.is_void() {
            for (seat, fault) in record.faults.iter().enumerate() {
                if fault.is_none() {
                    after[seat] = before[seat].clone();
                }
            }
        }
        let row = sqlx::query(
            "INSERT INTO results (job_id, game, variant, seed, engine, record, replay, \
             replay_sha256, worker, finished) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) \
             RETURNING id",
        )
        .bind(job.id)
        .bind(&job.game)
        .bind(&record.variant)
        .bind(job.seed as i64)
        .bind(super::ENGINE)
        .bind(serde_json::to_string(record).expect("records serialize"))
        .bind(played.replay_zstd.clone())
        .bind(&played.replay_sha256)
        .bind(worker)
        .bind(now_ms())
        .fetch_one(&mut *tx)
        .await?;
        let result_id: i64 = row.try_get(0)?;
        for (seat, id) in job.players.iter().enumerate() {
            let fault = record.faults.get(seat).cloned().flatten();
            let rating = &after[seat];
            sqlx::query(
                "INSERT INTO seats (result_id, seat, version_id, bot_id, place, fault, rating_after) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(result_id)
            .bind(seat as i64)
            .bind(id)
            .bind(ratings[id].0)
            .bind(i64::from(places[seat]))
            .bind(fault.as_ref().map(|f| format!("{:?}: {}", f.kind, f.message)))
            .bind(rating.conservative())
            .execute(&mut *tx)
            .await?;
            let (win, draw, loss) = outcome(record, seat);
            sqlx::query(
                "UPDATE versions SET rating = $1, rank_value = $2, games = games + 1, \
                 wins = wins + $3, draws = draws + $4, losses = losses + $5, faults = faults + $6 \
                 WHERE id = $7",
            )
            .bind(serde_json::to_string(rating).expect("ratings serialize"))
            .bind(rating.conservative())
            .bind(win)
            .bind(draw)
            .bind(loss)
            .bind(i64::from(fault.is_some()))
            .bind(id)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(Some(result_id))
    }

    // ---- results ----

    const RESULT_COLUMNS: &'static str = "results.id, results.job_id, results.game, results.variant, results.seed, results.engine, \
         results.record, results.replay_sha256, results.worker, results.finished, jobs.players, \
         jobs.limits, jobs.variant";

    /// A stored game.
    pub async fn result(&self, id: i64) -> Result<Option<StoredGame>, StoreError> {
        let sql = format!(
            "SELECT {} FROM results JOIN jobs ON jobs.id = results.job_id WHERE results.id = $1",
            Self::RESULT_COLUMNS
        );
        let row = sqlx::query(&sql)
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        match row {
            Some(r) => Ok(Some(self.stored_game(&r).await?)),
            None => Ok(None),
        }
    }

    /// A stored game's replay, decompressed (`None` once the retention removed it).
    pub async fn replay(&self, id: i64) -> Result<Option<Vec<u8>>, StoreError> {
        let row = sqlx::query("SELECT replay FROM results WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else { return Ok(None) };
        let Some(packed) = row.try_get::<Option<Vec<u8>>, _>(0)? else {
            return Ok(None);
        };
        zstd::decode_all(&packed[..])
            .map(Some)
            .map_err(|e| StoreError::Invalid(format!("stored replay of game {id}: {e}")))
    }

    /// The newest games, of one bot when `bot_id` is given, at most `limit`, newest first; with
    /// `faulted`, only games where that bot (or, without a bot, anyone) faulted.
    pub async fn results(
        &self,
        bot_id: Option<i64>,
        faulted: bool,
        limit: i64,
    ) -> Result<Vec<StoredGame>, StoreError> {
        let fault = if faulted {
            " AND seats.fault IS NOT NULL"
        } else {
            ""
        };
        let sql = match bot_id {
            Some(_) => format!(
                "SELECT {} FROM results JOIN jobs ON jobs.id = results.job_id WHERE results.id IN \
                 (SELECT result_id FROM seats WHERE bot_id = $1{fault}) \
                 ORDER BY results.id DESC LIMIT $2",
                Self::RESULT_COLUMNS
            ),
            None => format!(
                "SELECT {} FROM results JOIN jobs ON jobs.id = results.job_id WHERE $1 = $1 AND \
                 ($3 = 0 OR results.id IN (SELECT result_id FROM seats WHERE fault IS NOT NULL)) \
                 ORDER BY results.id DESC LIMIT $2",
                Self::RESULT_COLUMNS
            ),
        };
        let mut query = sqlx::query(&sql).bind(bot_id.unwrap_or(0)).bind(limit);
        if bot_id.is_none() {
            query = query.bind(i64::from(faulted));
        }
        let rows = query.fetch_all(&self.pool).await?;
        let mut out = Vec::with_capacity(rows.len());
        for r in &rows {
            out.push(self.stored_game(r).await?);
        }
        Ok(out)
    }

    /// How many games have been recorded, in all or of one game.
    pub async fn result_count(&self, game: Option<&str>) -> Result<i64, StoreError> {
        let row = sqlx::query("SELECT COUNT(*) FROM results WHERE $1 = '' OR game = $1")
            .bind(game.unwrap_or(""))
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get(0)?)
    }

    /// Drops the replays of games finished before `before` (the retention setting).
    pub async fn drop_replays(&self, before: i64) -> Result<u64, StoreError> {
        let done = sqlx::query(
            "UPDATE results SET replay = NULL WHERE finished < $1 AND replay IS NOT NULL",
        )
        .bind(before)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected())
    }

    async fn stored_game(&self, r: &sqlx::any::AnyRow) -> Result<StoredGame, StoreError> {
        let id: i64 = r.try_get(0)?;
        let record: GameRecord = serde_json::from_str(&r.try_get::<String, _>(6)?)
            .map_err(|e| StoreError::Invalid(format!("stored record of game {id}: {e}")))?;
        let players: Vec<i64> = serde_json::from_str(&r.try_get::<String, _>(10)?)
            .map_err(|e| StoreError::Invalid(format!("stored players of game {id}: {e}")))?;
        let seats = sqlx::query(
            "SELECT seats.seat, seats.version_id, bots.name, versions.number, users.id, \
             users.name, seats.place, seats.fault, seats.rating_after FROM seats \
             JOIN versions ON versions.id = seats.version_id JOIN bots ON bots.id = seats.bot_id \
             JOIN users ON users.id = bots.owner_id WHERE seats.result_id = $1 ORDER BY seats.seat",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        let seats = seats
            .iter()
            .map(|s| {
                Ok(SeatInfo {
                    seat: s.try_get(0)?,
                    version_id: s.try_get(1)?,
                    bot: s.try_get(2)?,
                    version: s.try_get(3)?,
                    owner_id: s.try_get(4)?,
                    owner: s.try_get(5)?,
                    place: s.try_get(6)?,
                    fault: s.try_get(7)?,
                    rating_after: s.try_get(8)?,
                })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        Ok(StoredGame {
            id,
            job: r.try_get(1)?,
            game: r.try_get(2)?,
            variant: r.try_get(3)?,
            variant_index: r.try_get::<i64, _>(12)? as usize,
            seed: r.try_get::<i64, _>(4)? as u64,
            engine: r.try_get(5)?,
            replay_sha256: r.try_get(7)?,
            worker: r.try_get(8)?,
            finished: r.try_get(9)?,
            players,
            limits: r.try_get(11)?,
            seats,
            record,
        })
    }
}

/// The place of each seat for the ratings: the winner first, the others second, a faulted seat
/// last; all equal in a draw. A solo game's seat is first.
fn places(record: &GameRecord) -> Vec<u32> {
    (0..record.players.len())
        .map(|seat| {
            if record.faults.get(seat).is_some_and(Option::is_some) {
                2
            } else if record.winner_seat.is_none_or(|w| w == seat) {
                0
            } else {
                1
            }
        })
        .collect()
}

/// Win, draw, loss of one seat, as counts.
fn outcome(record: &GameRecord, seat: usize) -> (i64, i64, i64) {
    if record.players.len() == 1 {
        return (0, 0, 0);
    }
    match record.winner_seat {
        Some(w) if w == seat => (1, 0, 0),
        Some(_) => (0, 0, 1),
        None if record.faults.get(seat).is_some_and(Option::is_some) => (0, 0, 1),
        None => (0, 1, 0),
    }
}

fn is_unique(e: &sqlx::Error) -> bool {
    e.as_database_error()
        .is_some_and(|d| d.kind() == sqlx::error::ErrorKind::UniqueViolation)
}

fn bot_of(r: &sqlx::any::AnyRow) -> Result<Bot, StoreError> {
    Ok(Bot {
        id: r.try_get(0)?,
        name: r.try_get(1)?,
        game: r.try_get(2)?,
        owner_id: r.try_get(3)?,
        owner: r.try_get(4)?,
        created: r.try_get(5)?,
        retired: r.try_get(6)?,
    })
}

fn version_of(r: &sqlx::any::AnyRow) -> Result<Version, StoreError> {
    let rating: Rating = serde_json::from_str(&r.try_get::<String, _>(9)?)
        .map_err(|e| StoreError::Invalid(format!("stored rating: {e}")))?;
    Ok(Version {
        id: r.try_get(0)?,
        bot_id: r.try_get(1)?,
        bot: r.try_get(2)?,
        number: r.try_get(3)?,
        sha256: r.try_get(4)?,
        kind: r.try_get(5)?,
        size: r.try_get(6)?,
        created: r.try_get(7)?,
        active: r.try_get::<i64, _>(8)? == 1,
        rating,
        games: r.try_get(10)?,
        wins: r.try_get(11)?,
        draws: r.try_get(12)?,
        losses: r.try_get(13)?,
        faults: r.try_get(14)?,
        owner_id: r.try_get(15)?,
        owner: r.try_get(16)?,
        game: r.try_get(17)?,
        retired: r.try_get::<Option<i64>, _>(18)?.is_some(),
    })
}

fn job_of(r: &sqlx::any::AnyRow) -> Result<Job, StoreError> {
    let players: Vec<i64> = serde_json::from_str(&r.try_get::<String, _>(4)?)
        .map_err(|e| StoreError::Invalid(format!("stored players: {e}")))?;
    Ok(Job {
        id: r.try_get(0)?,
        game: r.try_get(1)?,
        variant: r.try_get::<i64, _>(2)? as usize,
        seed: r.try_get::<i64, _>(3)? as u64,
        players,
        limits: r.try_get(5)?,
        attempts: r.try_get(6)?,
    })
}

/// A new token: 256 bits from the operating system, in hex, prefixed so it is recognisable.
fn new_token() -> String {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).expect("the operating system's random source");
    format!("bbx_{}", crate::runtime::hex(&bytes))
}

/// Tokens are random, so a plain SHA-256 stores them safely (a slow hash is for guessable passwords).
fn token_hash(token: &str) -> String {
    crate::runtime::source_hash(token.as_bytes())
}

/// User and bot names: 1 to 40 letters, digits, `-` and `_`, starting with a letter or digit, so
/// they are safe in URLs, file names and tables.
pub fn check_name(what: &str, name: &str) -> Result<(), StoreError> {
    let ok = !name.is_empty()
        && name.len() <= 40
        && name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if ok {
        Ok(())
    } else {
        Err(StoreError::Invalid(format!(
            "{what} name {name:?}: use 1 to 40 letters, digits, '-' and '_', starting with a letter or digit"
        )))
    }
}

/// Why a storage operation failed, as the API answers it.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    Conflict(String),
    #[error("{0}")]
    Invalid(String),
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
}

#[derive(Clone, Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct User {
    pub id: i64,
    pub name: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct TokenInfo {
    pub id: i64,
    pub label: String,
    pub created: i64,
    pub revoked: Option<i64>,
}

#[derive(Clone, Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Bot {
    pub id: i64,
    pub name: String,
    pub game: String,
    pub owner_id: i64,
    pub owner: String,
    pub created: i64,
    pub retired: Option<i64>,
}

/// One version of a bot, with its standing.
#[derive(Clone, Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Version {
    pub id: i64,
    pub bot_id: i64,
    pub bot: String,
    pub game: String,
    pub owner_id: i64,
    pub owner: String,
    pub number: i64,
    pub sha256: String,
    pub kind: String,
    pub size: i64,
    pub created: i64,
    /// Whether this is the version that plays (the bot's newest).
    pub active: bool,
    pub retired: bool,
    #[schema(value_type = Object)]
    pub rating: Rating,
    pub games: i64,
    pub wins: i64,
    pub draws: i64,
    pub losses: i64,
    pub faults: i64,
}

/// An upload that passed the checks ([`super::check`]).
#[derive(Clone, Debug)]
pub struct Checked {
    pub kind: String,
    pub sha256: String,
    pub bytes: Vec<u8>,
}

/// A game for the queue.
#[derive(Clone, Debug)]
pub struct NewJob {
    pub game: String,
    pub variant: usize,
    pub seed: u64,
    /// Version ids in seat order.
    pub players: Vec<i64>,
    /// The limits the game is played under (a `LimitSpec` in JSON).
    pub limits: String,
}

/// A leased job.
#[derive(Clone, Debug)]
pub struct Job {
    pub id: i64,
    pub game: String,
    pub variant: usize,
    pub seed: u64,
    pub players: Vec<i64>,
    pub limits: String,
    pub attempts: i64,
}

/// A played game, ready to store.
#[derive(Clone, Debug)]
pub struct Played {
    pub record: GameRecord,
    pub replay_zstd: Vec<u8>,
    pub replay_sha256: String,
}

/// One seat of a stored game.
#[derive(Clone, Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct SeatInfo {
    pub seat: i64,
    pub version_id: i64,
    pub bot: String,
    pub version: i64,
    pub owner_id: i64,
    pub owner: String,
    pub place: i64,
    pub fault: Option<String>,
    pub rating_after: f64,
}

/// A stored game.
#[derive(Clone, Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct StoredGame {
    pub id: i64,
    pub job: i64,
    pub game: String,
    pub variant: String,
    #[serde(skip)]
    pub variant_index: usize,
    pub seed: u64,
    /// The botbox version that played it.
    pub engine: String,
    pub replay_sha256: String,
    pub worker: String,
    pub finished: i64,
    /// Version ids in seat order.
    pub players: Vec<i64>,
    /// The limits it was played under.
    pub limits: String,
    pub seats: Vec<SeatInfo>,
    #[schema(value_type = Object)]
    pub record: GameRecord,
}
