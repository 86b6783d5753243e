//! Challenges: a few unrated games an owner asks for between their bot and another bot of its
//! ladder, queued ahead of the ladder's games, limited per user and hour.

use super::*;
use crate::games::derive_seed;

/// Challenge games a user may ask for per hour (a challenge holds at most this many).
pub const CHALLENGE_GAMES_PER_HOUR: i64 = 20;

/// Where challenge seeds are drawn from: apart from the ladder's game numbers.
const CHALLENGE_SEEDS: u64 = 1 << 50;

/// A challenge as its owner sees it.
#[derive(Clone, Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct ChallengeInfo {
    pub id: i64,
    pub bot: String,
    pub opponent: String,
    pub game: String,
    pub variant: usize,
    /// Games asked for, and played so far.
    pub games: i64,
    pub played: i64,
    /// The challenger's wins, draws and losses in the games played.
    pub wins: i64,
    pub draws: i64,
    pub losses: i64,
    /// The stored games' ids, in the order they finished.
    pub game_ids: Vec<i64>,
    pub created: i64,
}

impl Store {
    /// Queues `games` unrated games of `owner`'s bot `bot` against `opponent` (another bot on its
    /// ladder) on `variant`, the seats alternating, ahead of the ladder's games; `limits` is the
    /// league's `LimitSpec` as JSON.
    pub async fn add_challenge(
        &self,
        owner: &User,
        bot: &str,
        opponent: &str,
        games: i64,
        variant: usize,
        limits: &str,
    ) -> Result<ChallengeInfo, StoreError> {
        if games < 1 {
            return Err(StoreError::Invalid("a challenge is 1 game or more".into()));
        }
        let mine = self
            .bot(bot)
            .await?
            .ok_or_else(|| StoreError::NotFound(format!("no bot {bot}")))?;
        if mine.owner_id != owner.id {
            return Err(StoreError::Forbidden(format!(
                "{bot} is not yours: challenge with your own bot"
            )));
        }
        let ladder = self.ladder(&mine.game).await?;
        let find = |name: &str| ladder.iter().find(|v| v.bot == name).cloned();
        let me = find(bot).ok_or_else(|| {
            StoreError::Invalid(format!(
                "{bot} is not on the {} ladder (retired?)",
                mine.game
            ))
        })?;
        let them = find(opponent).ok_or_else(|| {
            StoreError::NotFound(format!(
                "no bot {opponent} on the {} ladder: challenge one of `botbox league list {}`",
                mine.game, mine.game
            ))
        })?;
        if them.bot_id == me.bot_id {
            return Err(StoreError::Invalid("a bot cannot challenge itself".into()));
        }
        let seats = crate::league::games::seats(&mine.game)
            .map_err(|e| StoreError::Invalid(e.to_string()))?;
        if seats != 2 {
            return Err(StoreError::Invalid(format!(
                "challenges are for two-player games; {} has {seats} seats",
                mine.game
            )));
        }
        let variants = crate::league::games::variant_names(&mine.game)
            .map_err(|e| StoreError::Invalid(e.to_string()))?;
        if variant >= variants.len() {
            return Err(StoreError::Invalid(format!(
                "{} has variants 0 to {} ({})",
                mine.game,
                variants.len() - 1,
                variants.join(", ")
            )));
        }
        let now = now_ms();
        let mut tx = self.pool.begin().await?;
        let id: i64 = sqlx::query(
            "INSERT INTO challenges (user_id, bot_id, opponent_id, game, variant, games, created) \
             VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
        )
        .bind(owner.id)
        .bind(me.bot_id)
        .bind(them.bot_id)
        .bind(&mine.game)
        .bind(variant as i64)
        .bind(games)
        .bind(now)
        .fetch_one(&mut *tx)
        .await?
        .try_get(0)?;
        // Written first, the transaction holds SQLite's write lock from its first statement, so it
        // waits for other writers instead of failing; the sum counts the new challenge.
        let total: i64 = sqlx::query(
            "SELECT CAST(COALESCE(SUM(games), 0) AS BIGINT) FROM challenges \
             WHERE user_id = $1 AND created > $2",
        )
        .bind(owner.id)
        .bind(now - 3_600_000)
        .fetch_one(&mut *tx)
        .await?
        .try_get(0)?;
        let asked = total - games;
        if total > CHALLENGE_GAMES_PER_HOUR {
            return Err(StoreError::Limited(format!(
                "{CHALLENGE_GAMES_PER_HOUR} challenge games an hour per user: you asked for \
                 {asked} in the last hour, {} more are left",
                (CHALLENGE_GAMES_PER_HOUR - asked).max(0)
            )));
        }
        for n in 0..games {
            let players = if n % 2 == 0 {
                [me.id, them.id]
            } else {
                [them.id, me.id]
            };
            sqlx::query(
                "INSERT INTO jobs (game, variant, seed, players, limits, state, created, \
                 challenge_id) VALUES ($1, $2, $3, $4, $5, 'queued', $6, $7)",
            )
            .bind(&mine.game)
            .bind(variant as i64)
            .bind(derive_seed(CHALLENGE_SEEDS + id as u64, n as u64) as i64)
            .bind(serde_json::to_string(&players).expect("ids serialize"))
            .bind(limits)
            .bind(now)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(ChallengeInfo {
            id,
            bot: bot.to_string(),
            opponent: opponent.to_string(),
            game: mine.game,
            variant,
            games,
            played: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            game_ids: Vec::new(),
            created: now,
        })
    }

    /// The challenges of the bot with id `bot_id`, newest first, with their games so far.
    pub async fn challenges(&self, bot_id: i64) -> Result<Vec<ChallengeInfo>, StoreError> {
        let rows = sqlx::query(
            "SELECT challenges.id, mine.name, theirs.name, challenges.game, challenges.variant, \
             challenges.games, challenges.created FROM challenges \
             JOIN bots mine ON mine.id = challenges.bot_id \
             JOIN bots theirs ON theirs.id = challenges.opponent_id \
             WHERE challenges.bot_id = $1 ORDER BY challenges.id DESC LIMIT 50",
        )
        .bind(bot_id)
        .fetch_all(&self.pool)
        .await?;
        let mut out = Vec::with_capacity(rows.len());
        for r in &rows {
            let id: i64 = r.try_get(0)?;
            // Each game's place of the challenger and of the other seat.
            let games = sqlx::query(
                "SELECT results.id, mine.place, theirs.place FROM results \
                 JOIN seats mine ON mine.result_id = results.id AND mine.bot_id = $2 \
                 JOIN seats theirs ON theirs.result_id = results.id AND theirs.bot_id <> $2 \
                 WHERE results.challenge_id = $1 ORDER BY results.id",
            )
            .bind(id)
            .bind(bot_id)
            .fetch_all(&self.pool)
            .await?;
            let (mut wins, mut draws, mut losses, mut ids) = (0, 0, 0, Vec::new());
            for g in &games {
                let (game, mine, theirs): (i64, i64, i64) =
                    (g.try_get(0)?, g.try_get(1)?, g.try_get(2)?);
                ids.push(game);
                match mine.cmp(&theirs) {
                    std::cmp::Ordering::Less => wins += 1,
                    std::cmp::Ordering::Equal => draws += 1,
                    std::cmp::Ordering::Greater => losses += 1,
                }
            }
            out.push(ChallengeInfo {
                id,
                bot: r.try_get(1)?,
                opponent: r.try_get(2)?,
                game: r.try_get(3)?,
                variant: r.try_get::<i64, _>(4)? as usize,
                games: r.try_get(5)?,
                played: ids.len() as i64,
                wins,
                draws,
                losses,
                game_ids: ids,
                created: r.try_get(6)?,
            });
        }
        Ok(out)
    }
}
