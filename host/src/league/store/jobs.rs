//! Jobs: queued by the matchmaker, leased by workers (renewed by heartbeats, put back by the reaper
//! when a lease expires, `failed` after [`MAX_ATTEMPTS`](super::MAX_ATTEMPTS) leases), and done when
//! their result is recorded, together with the ratings it moves, in one transaction.

use super::*;

impl Store {
    /// Ladder jobs of `game` waiting or being played (challenges aside).
    pub async fn pending(&self, game: &str) -> Result<i64, StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) FROM jobs WHERE game = $1 AND state IN ('queued', 'leased') \
             AND challenge_id IS NULL",
        )
        .bind(game)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get(0)?)
    }

    /// The newest job's id (0 for none), by which the matchmaker numbers games: the jobs made so far,
    /// as jobs are never deleted (a rolled-back insert may leave a gap in PostgreSQL). Read from
    /// the primary key's index: `COUNT(*)` read the whole table, 31-41 ms at a million jobs, and the
    /// matchmaker asks several times a second.
    pub async fn last_job_id(&self) -> Result<i64, StoreError> {
        let row = sqlx::query("SELECT COALESCE(MAX(id), 0) FROM jobs")
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get(0)?)
    }

    /// Adds `jobs` in one transaction (one commit, one flush of the log, where a commit each was
    /// the matchmaker's limit at hundreds of cheap games a second).
    pub async fn enqueue_all(&self, jobs: &[NewJob]) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        for job in jobs {
            sqlx::query(
                "INSERT INTO jobs (game, variant, seed, players, limits, state, created, \
                 challenge_id) VALUES ($1, $2, $3, $4, $5, 'queued', $6, $7)",
            )
            .bind(&job.game)
            .bind(job.variant as i64)
            .bind(job.seed as i64)
            .bind(serde_json::to_string(&job.players).expect("ids serialize"))
            .bind(&job.limits)
            .bind(now_ms())
            .bind(job.challenge)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Leases the oldest queued job to `worker` for `lease`, challenges first.
    pub async fn claim(&self, worker: &str, lease: Duration) -> Result<Option<Job>, StoreError> {
        let lock = match self.backend {
            Backend::Postgres => " FOR UPDATE SKIP LOCKED",
            Backend::Sqlite => "",
        };
        let sql = format!(
            "UPDATE jobs SET state = 'leased', worker = $1, lease_until = $2, \
             attempts = attempts + 1 \
             WHERE id = (SELECT id FROM jobs WHERE state = 'queued' \
             ORDER BY CASE WHEN challenge_id IS NULL THEN 1 ELSE 0 END, id LIMIT 1{lock}) \
             RETURNING id, game, variant, seed, players, limits, attempts, challenge_id"
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

    /// Records a played job's result and moves the players' ratings, exactly once, unless the job
    /// had a result already (another worker's, after a lease expired) or the game is a repeat of
    /// a stored one ([`fingerprint`]): then nothing is stored and no rating moves.
    pub async fn complete(
        &self,
        job: &Job,
        worker: &str,
        played: &Played,
    ) -> Result<Completed, StoreError> {
        let mut tx = self.pool.begin().await?;
        if let Backend::Postgres = self.backend {
            // The commit does not wait for its log to reach the disk: the transaction holds the
            // players' ratings locked, so games of the same bots were recorded one flush at a
            // time. A crash of the database can lose the last results committed (up to three
            // `wal_writer_delay`s, 0.6 s by default), each whole: its job, marked done in the same
            // transaction, is then still leased (its claim did wait), and the reaper queues it again
            // to be played again, the same game (its seed is its own). Nothing a user does waits
            // less for the disk.
            sqlx::query("SET LOCAL synchronous_commit = off")
                .execute(&mut *tx)
                .await?;
        }
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
            return Ok(Completed::AlreadyDone);
        }
        // A challenge's games are stored whatever they repeat, and move no rating.
        let rated = job.challenge.is_none();
        let fingerprint = fingerprint(job, &played.record).filter(|_| rated);
        if let Some(print) = &fingerprint {
            let same = sqlx::query("SELECT id FROM results WHERE fingerprint = $1")
                .bind(print)
                .fetch_optional(&mut *tx)
                .await?;
            if let Some(row) = same {
                let stored: i64 = row.try_get(0)?;
                tx.commit().await?;
                return Ok(Completed::Repeat(stored));
            }
        }
        let record = &played.record;
        // The result first: what follows holds the players' ratings locked until the commit, so as
        // few statements as possible come after the lock (games of the same bots record one at a
        // time: on a ladder of four BS bots, every game).
        let row = sqlx::query(
            "INSERT INTO results (job_id, game, variant, seed, engine, record, replay, \
             replay_sha256, worker, finished, fingerprint, challenge_id) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id",
        )
        .bind(job.id)
        .bind(&job.game)
        .bind(&record.variant)
        .bind(job.seed as i64)
        .bind(crate::league::ENGINE)
        .bind(serde_json::to_string(record).expect("records serialize"))
        .bind(played.replay_zstd.clone())
        .bind(&played.replay_sha256)
        .bind(worker)
        .bind(now_ms())
        .bind(&fingerprint)
        .bind(job.challenge)
        .fetch_one(&mut *tx)
        .await?;
        let result_id: i64 = row.try_get(0)?;
        // The players' ratings, locked in id order in one statement (PostgreSQL locks the rows as
        // they leave the sort, so no two transactions wait on each other).
        let mut ids = job.players.clone();
        ids.sort_unstable();
        ids.dedup();
        let lock = match self.backend {
            Backend::Postgres => " FOR UPDATE",
            Backend::Sqlite => "",
        };
        let sql = format!(
            "SELECT id, bot_id, rating FROM versions WHERE id IN ({}) ORDER BY id{lock}",
            placeholders(1, ids.len())
        );
        let mut query = sqlx::query(&sql);
        for id in &ids {
            query = query.bind(id);
        }
        let mut ratings = std::collections::HashMap::new();
        for row in query.fetch_all(&mut *tx).await? {
            let id: i64 = row.try_get(0)?;
            let bot: i64 = row.try_get(1)?;
            let rating: Rating = serde_json::from_str(&row.try_get::<String, _>(2)?)
                .map_err(|e| StoreError::Invalid(format!("stored rating: {e}")))?;
            ratings.insert(id, (bot, rating));
        }
        if let Some(missing) = ids.iter().find(|id| !ratings.contains_key(id)) {
            return Err(StoreError::Invalid(format!(
                "game {}: no version {missing}",
                job.id
            )));
        }
        let places = places(record);
        let before: Vec<Rating> = job.players.iter().map(|id| ratings[id].1.clone()).collect();
        let mut after = if rated {
            rating::rate(&before, &places, record.figures.score)
                .map_err(|e| StoreError::Invalid(format!("rating game {}: {e}", job.id)))?
        } else {
            before.clone()
        };
        // A table game a seat faulted is void for the others: only the faulted seats move.
        if record.is_void() {
            for (seat, fault) in record.faults.iter().enumerate() {
                if fault.is_none() {
                    after[seat] = before[seat].clone();
                }
            }
        }
        let faults: Vec<Option<String>> = (0..job.players.len())
            .map(|seat| {
                let fault = record.faults.get(seat).cloned().flatten();
                fault.map(|f| format!("{:?}: {}", f.kind, f.message))
            })
            .collect();
        // Every seat in one statement.
        let rows: Vec<String> = (0..job.players.len())
            .map(|seat| format!("({})", placeholders(seat * 7 + 1, 7)))
            .collect();
        let sql = format!(
            "INSERT INTO seats (result_id, seat, version_id, bot_id, place, fault, rating_after) \
             VALUES {}",
            rows.join(", ")
        );
        let mut insert = sqlx::query(&sql);
        for (seat, id) in job.players.iter().enumerate() {
            insert = insert
                .bind(result_id)
                .bind(seat as i64)
                .bind(id)
                .bind(ratings[id].0)
                .bind(i64::from(places[seat]))
                .bind(faults[seat].clone())
                .bind(after[seat].conservative());
        }
        insert.execute(&mut *tx).await?;
        if rated {
            for (seat, id) in job.players.iter().enumerate() {
                let (win, draw, loss) = outcome(record, seat);
                let rating = &after[seat];
                sqlx::query(
                    "UPDATE versions SET rating = $1, rank_value = $2, games = games + 1, \
                     wins = wins + $3, draws = draws + $4, losses = losses + $5, \
                     faults = faults + $6 WHERE id = $7",
                )
                .bind(serde_json::to_string(rating).expect("ratings serialize"))
                .bind(rating.conservative())
                .bind(win)
                .bind(draw)
                .bind(loss)
                .bind(i64::from(faults[seat].is_some()))
                .bind(id)
                .execute(&mut *tx)
                .await?;
            }
        }
        tx.commit().await?;
        Ok(Completed::Recorded(result_id))
    }
}

/// `$from, $from+1, ...`: `n` placeholders numbered from `from`.
fn placeholders(from: usize, n: usize) -> String {
    (from..from + n)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What became of a played job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Completed {
    /// Its result, by id.
    Recorded(i64),
    /// Another worker recorded it first; this one is dropped.
    AlreadyDone,
    /// The same game as the stored one with this id: not stored again.
    Repeat(i64),
}

/// A game's fingerprint: the SHA-256 of its game, variant, players (version ids in seat order) and
/// moves, for games whose moves are hashed (those without chance: a game with chance is never
/// played twice the same). Two games with one fingerprint are the same game.
pub fn fingerprint(job: &Job, record: &GameRecord) -> Option<String> {
    let moves = record.figures.moves_sha256.as_ref()?;
    let text = format!(
        "{}\n{}\n{:?}\n{moves}",
        job.game, record.variant, job.players
    );
    Some(crate::runtime::source_hash(text.as_bytes()))
}
