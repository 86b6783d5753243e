//! Played games as stored: their records, seats and compressed replays, read back for the API, the
//! pages and `verify`.

use std::collections::HashMap;

use super::*;

impl Store {
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

    /// The records of `game`'s newest games (at most `limit` seats' worth), each with the version
    /// in its seat 0: what a solo game's ladder computes its benchmark from.
    pub async fn solo_records(
        &self,
        game: &str,
        limit: i64,
    ) -> Result<Vec<(i64, GameRecord)>, StoreError> {
        let rows = sqlx::query(
            "SELECT seats.version_id, results.record FROM results \
             JOIN seats ON seats.result_id = results.id AND seats.seat = 0 \
             WHERE results.game = $1 ORDER BY results.id DESC LIMIT $2",
        )
        .bind(game)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let record: String = r.try_get(1)?;
                let record = serde_json::from_str(&record)
                    .map_err(|e| StoreError::Invalid(format!("stored record: {e}")))?;
                Ok((r.try_get(0)?, record))
            })
            .collect()
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

    /// The SQL function that gives a blob's or a text's length in bytes.
    fn length(&self) -> &'static str {
        match self.backend {
            Backend::Sqlite => "LENGTH",
            Backend::Postgres => "octet_length",
        }
    }

    /// What the league stores: the database's size, its replays, and what the last hour added.
    pub async fn storage(&self, now: i64) -> Result<Storage, StoreError> {
        let size = match self.backend {
            Backend::Sqlite => {
                "SELECT CAST(page_count * page_size AS BIGINT) FROM pragma_page_count(), \
                 pragma_page_size()"
            }
            Backend::Postgres => "SELECT CAST(pg_database_size(current_database()) AS BIGINT)",
        };
        let database_bytes: i64 = sqlx::query(size).fetch_one(&self.pool).await?.try_get(0)?;
        let len = self.length();
        let row = sqlx::query(&format!(
            "SELECT CAST(COALESCE(SUM({len}(replay)), 0) AS BIGINT), COUNT(replay) FROM results"
        ))
        .fetch_one(&self.pool)
        .await?;
        let (replay_bytes, replays): (i64, i64) = (row.try_get(0)?, row.try_get(1)?);
        let row = sqlx::query(&format!(
            "SELECT COUNT(*), CAST(COALESCE(SUM({len}(record) + COALESCE({len}(replay), 0)), 0) \
             AS BIGINT) FROM results WHERE finished >= $1"
        ))
        .bind(now - 3_600_000)
        .fetch_one(&self.pool)
        .await?;
        Ok(Storage {
            database_bytes,
            replay_bytes,
            replays,
            games_last_hour: row.try_get(0)?,
            bytes_last_hour: row.try_get(1)?,
        })
    }

    /// Drops the oldest replays until they take at most `cap` bytes, but keeps each bot's newest
    /// [`KEEP_NEWEST`] replays and its latest game with a fault (what its owner looks at); results
    /// and ratings stay. Returns how many replays were dropped.
    pub async fn cap_replays(&self, cap: i64) -> Result<u64, StoreError> {
        let len = self.length();
        let mut total: i64 = sqlx::query(&format!(
            "SELECT CAST(COALESCE(SUM({len}(replay)), 0) AS BIGINT) FROM results"
        ))
        .fetch_one(&self.pool)
        .await?
        .try_get(0)?;
        if total <= cap {
            return Ok(0);
        }
        // Newest first: each bot's first few, and its first with a fault, are kept.
        let seats = sqlx::query(
            "SELECT seats.bot_id, seats.result_id, \
             CAST(CASE WHEN seats.fault IS NULL THEN 0 ELSE 1 END AS BIGINT) FROM seats \
             JOIN results ON results.id = seats.result_id WHERE results.replay IS NOT NULL \
             ORDER BY seats.result_id DESC",
        )
        .fetch_all(&self.pool)
        .await?;
        let mut kept: HashMap<i64, (usize, bool)> = HashMap::new();
        let mut keep = std::collections::HashSet::new();
        for row in &seats {
            let (bot, result, faulted): (i64, i64, bool) = (
                row.try_get(0)?,
                row.try_get(1)?,
                row.try_get::<i64, _>(2)? == 1,
            );
            let (newest, fault_kept) = kept.entry(bot).or_insert((0, false));
            if *newest < KEEP_NEWEST || (faulted && !*fault_kept) {
                keep.insert(result);
            }
            *newest += 1;
            *fault_kept |= faulted;
        }
        let replays = sqlx::query(&format!(
            "SELECT id, CAST({len}(replay) AS BIGINT) FROM results WHERE replay IS NOT NULL \
             ORDER BY id"
        ))
        .fetch_all(&self.pool)
        .await?;
        let mut drop = Vec::new();
        for row in &replays {
            if total <= cap {
                break;
            }
            let (id, bytes): (i64, i64) = (row.try_get(0)?, row.try_get(1)?);
            if !keep.contains(&id) {
                drop.push(id);
                total -= bytes;
            }
        }
        let mut tx = self.pool.begin().await?;
        for id in &drop {
            sqlx::query("UPDATE results SET replay = NULL WHERE id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(drop.len() as u64)
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
