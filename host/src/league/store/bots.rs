//! Bots and their versions: uploads stored (the same bytes are the same version again), bots
//! retired, versions read one at a time, per bot or as a game's ladder, and their source bytes.

use super::*;

impl Store {
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
                     active, rating, rank_value, file_name) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, 1, $8, $9, $10) RETURNING id",
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
                .bind(&upload.file_name)
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
             AND users.disabled IS NULL \
             ORDER BY versions.rank_value DESC, versions.id",
            Self::VERSION_COLUMNS
        );
        let rows = sqlx::query(&sql).bind(game).fetch_all(&self.pool).await?;
        rows.iter().map(version_of).collect()
    }

    /// A version's kind, source bytes and the file name its owner uploaded it as (if known).
    pub async fn source(
        &self,
        version_id: i64,
    ) -> Result<Option<(String, Vec<u8>, Option<String>)>, StoreError> {
        let row = sqlx::query("SELECT kind, source, file_name FROM versions WHERE id = $1")
            .bind(version_id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| Ok((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?)))
            .transpose()
    }
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
