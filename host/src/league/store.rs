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

mod bots;
mod challenges;
mod invites;
mod jobs;
mod results;
mod sessions;
mod variants;
pub use challenges::{CHALLENGE_GAMES_PER_HOUR, ChallengeInfo};
pub use invites::{InviteInfo, UserInfo, day};
pub use jobs::{Completed, fingerprint};
pub use variants::VariantRecord;

/// Each bot's newest replays kept whatever the cap on replays ([`Store::cap_replays`]).
pub const KEEP_NEWEST: usize = 3;

/// What the league stores ([`Store::storage`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Storage {
    /// The database's size on disk (SQLite: its pages; PostgreSQL: `pg_database_size`).
    pub database_bytes: i64,
    /// The replays kept, compressed, and how many they are.
    pub replay_bytes: i64,
    pub replays: i64,
    /// Games recorded in the last hour, and the bytes their records and replays take.
    pub games_last_hour: i64,
    pub bytes_last_hour: i64,
}

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
    let url = database_url_unmade(db);
    if url.ends_with("?mode=rwc")
        && let Some(dir) = std::path::Path::new(db)
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
    {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    Ok(url)
}

/// [`database_url`] without creating the file's directory.
fn database_url_unmade(db: &str) -> String {
    if db.starts_with("postgres://") || db.starts_with("postgresql://") || db.starts_with("sqlite:")
    {
        db.to_string()
    } else {
        format!("sqlite://{db}?mode=rwc")
    }
}

impl Store {
    /// [`Store::open`] for the admin's commands, which must not make a league by accident: a SQLite
    /// file that is not there is an error naming it, and nothing is created.
    pub async fn open_existing(db: &str) -> anyhow::Result<Store> {
        let url = database_url_unmade(db);
        if let Some(file) = url
            .strip_prefix("sqlite://")
            .map(|f| f.split('?').next().unwrap_or(f))
            && !std::path::Path::new(file).is_file()
        {
            anyhow::bail!(
                "no league database at {file}: give the server's --db (or BOTBOX_DB), or start one with `botbox league serve --db {file}`"
            );
        }
        Store::open(db).await
    }

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

    /// The user's tokens (id, label, created, revoked, last used).
    pub async fn tokens(&self, user_id: i64) -> Result<Vec<TokenInfo>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, label, created, revoked, last_used FROM tokens WHERE user_id = $1 \
             ORDER BY id",
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
                    last_used: r.try_get(4)?,
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

    /// The user a token belongs to, if it is valid; the token is marked used.
    pub async fn user_by_token(&self, token: &str) -> Result<Option<User>, StoreError> {
        let row = sqlx::query(
            "SELECT users.id, users.name, tokens.id, tokens.last_used FROM tokens \
             JOIN users ON users.id = tokens.user_id \
             WHERE tokens.sha256 = $1 AND tokens.revoked IS NULL AND users.disabled IS NULL",
        )
        .bind(token_hash(token))
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else { return Ok(None) };
        self.token_used(row.try_get(2)?, row.try_get(3)?).await?;
        user_of(&row).map(Some)
    }

    /// Notes that token `id`, last noted used at `last`, was used now, unless that was noted less
    /// than a minute ago: a client making many requests costs the database a write a minute.
    pub(super) async fn token_used(&self, id: i64, last: Option<i64>) -> Result<(), StoreError> {
        let now = now_ms();
        if last.is_some_and(|t| t >= now - 60_000) {
            return Ok(());
        }
        sqlx::query(
            "UPDATE tokens SET last_used = $1 WHERE id = $2 AND (last_used IS NULL OR last_used < $3)",
        )
        .bind(now)
        .bind(id)
        .bind(now - 60_000)
        .execute(&self.pool)
        .await?;
        Ok(())
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

/// A user from a row whose first two columns are `users.id, users.name`.
fn user_of(r: &sqlx::any::AnyRow) -> Result<User, StoreError> {
    Ok(User {
        id: r.try_get(0)?,
        name: r.try_get(1)?,
    })
}

fn is_unique(e: &sqlx::Error) -> bool {
    e.as_database_error()
        .is_some_and(|d| d.kind() == sqlx::error::ErrorKind::UniqueViolation)
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
        challenge: r.try_get(7)?,
    })
}

/// A new token: 256 bits from the operating system, in hex, prefixed so it is recognisable.
fn new_token() -> String {
    secret(TOKEN_PREFIX)
}

/// What an API token starts with; a session id starts with `bbs_`.
pub const TOKEN_PREFIX: &str = "bbx_";

/// 256 bits from the operating system, in hex, after `prefix`.
fn secret(prefix: &str) -> String {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).expect("the operating system's random source");
    format!("{prefix}{}", crate::runtime::hex(&bytes))
}

/// Whether `text` has the shape of a secret made by [`secret`] with `prefix`: a request whose
/// token or session has another shape is refused without a database query.
pub fn well_formed(text: &str, prefix: &str) -> bool {
    text.strip_prefix(prefix)
        .is_some_and(|hex| hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit()))
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
    /// Over a limit per user (429).
    #[error("{0}")]
    Limited(String),
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
    /// When the token last signed a request or a sign-in in, to the minute (`None`: never).
    pub last_used: Option<i64>,
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
    /// The file name its messages give it (`games::file_name`).
    pub file_name: String,
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
    /// The challenge the game is one of (unrated, played first), if it is.
    pub challenge: Option<i64>,
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
    /// The challenge the game is one of: it is unrated.
    pub challenge: Option<i64>,
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
