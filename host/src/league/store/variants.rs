//! Each bot's record on each variant of its game (a Wormworld map, a die of the dice ladder): the
//! ladder pages' and the API's view of a game "per variant". Ratings stay per game, since one rating
//! across maps is what the matchmaker pairs by; the record per variant shows where a bot is strong.

use serde::{Deserialize, Serialize};
use sqlx::Row;

use super::{Store, StoreError};

/// One playing version's games on one variant.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct VariantRecord {
    pub variant: String,
    pub bot: String,
    pub owner: String,
    /// The version, from 1.
    pub version: i64,
    pub kind: String,
    pub games: i64,
    /// Games it won alone.
    pub wins: i64,
    /// Games it shared the first place in (a draw; BS: a game without a winner).
    pub draws: i64,
    pub losses: i64,
    /// Games it faulted (each also a loss).
    pub faults: i64,
}

impl VariantRecord {
    /// The share of the points: a win 1, a draw ½.
    pub fn score(&self) -> f64 {
        if self.games == 0 {
            return 0.0;
        }
        (self.wins as f64 + self.draws as f64 / 2.0) / self.games as f64
    }
}

impl Store {
    /// The record of every playing version of `game` on each variant it has played, by variant
    /// name and then by score, best first. A seat wins when it is the only one placed first; it
    /// draws when others share the first place; a faulted seat loses.
    pub async fn variant_records(&self, game: &str) -> Result<Vec<VariantRecord>, StoreError> {
        let first = "seats.fault IS NULL AND seats.place = 0";
        let firsts = "(SELECT COUNT(*) FROM seats AS others WHERE others.result_id = seats.result_id \
             AND others.place = 0)";
        let sql = format!(
            "SELECT results.variant, bots.name, users.name, versions.number, versions.kind, \
             COUNT(*), \
             CAST(SUM(CASE WHEN {first} AND {firsts} = 1 THEN 1 ELSE 0 END) AS BIGINT), \
             CAST(SUM(CASE WHEN {first} AND {firsts} > 1 THEN 1 ELSE 0 END) AS BIGINT), \
             CAST(SUM(CASE WHEN seats.fault IS NOT NULL THEN 1 ELSE 0 END) AS BIGINT) \
             FROM seats JOIN results ON results.id = seats.result_id \
             JOIN versions ON versions.id = seats.version_id \
             JOIN bots ON bots.id = seats.bot_id JOIN users ON users.id = bots.owner_id \
             WHERE results.game = $1 AND versions.active = 1 AND bots.retired IS NULL \
             GROUP BY results.variant, versions.id, bots.name, users.name, versions.number, \
             versions.kind"
        );
        let rows = sqlx::query(&sql).bind(game).fetch_all(&self.pool).await?;
        let mut records = rows
            .iter()
            .map(|r| {
                let games: i64 = r.try_get(5)?;
                let (wins, draws): (i64, i64) = (r.try_get(6)?, r.try_get(7)?);
                Ok(VariantRecord {
                    variant: r.try_get(0)?,
                    bot: r.try_get(1)?,
                    owner: r.try_get(2)?,
                    version: r.try_get(3)?,
                    kind: r.try_get(4)?,
                    games,
                    wins,
                    draws,
                    losses: games - wins - draws,
                    faults: r.try_get(8)?,
                })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        records.sort_by(|a, b| {
            a.variant
                .cmp(&b.variant)
                .then(b.score().total_cmp(&a.score()))
                .then(b.games.cmp(&a.games))
                .then(a.bot.cmp(&b.bot))
        });
        Ok(records)
    }
}
