//! Sign-up: invites (a random code kept as its SHA-256, good for a number of uses until a day),
//! users signing themselves up with one (or without, on an open league), and the admin's list of
//! users, who may be disabled: a disabled user's tokens and sessions stop working and their bots
//! stop playing, until they are enabled again.

use super::*;

/// An invite as the admin sees it (never its code, which is shown once).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct InviteInfo {
    pub id: i64,
    pub uses_left: i64,
    pub uses: i64,
    pub expires: i64,
    pub created: i64,
    pub note: String,
}

/// A user as the admin sees them.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct UserInfo {
    pub id: i64,
    pub name: String,
    pub created: i64,
    /// When the user was disabled, if they are.
    pub disabled: Option<i64>,
    /// The invite they signed up with, if any.
    pub invite: Option<i64>,
    /// Bots, and bots that are not retired.
    pub bots: i64,
}

impl Store {
    /// Makes an invite good for `uses` sign-ups until `expires` (Unix ms); returns its id and its
    /// code (shown once, stored hashed).
    pub async fn add_invite(
        &self,
        uses: i64,
        expires: i64,
        note: &str,
    ) -> Result<(i64, String), StoreError> {
        if uses < 1 {
            return Err(StoreError::Invalid(
                "an invite is good for 1 use or more".into(),
            ));
        }
        let code = new_token().replacen("bbx_", "inv_", 1);
        let row = sqlx::query(
            "INSERT INTO invites (sha256, uses, uses_left, expires, created, note) \
             VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
        )
        .bind(token_hash(&code))
        .bind(uses)
        .bind(uses)
        .bind(expires)
        .bind(now_ms())
        .bind(note)
        .fetch_one(&self.pool)
        .await?;
        Ok((row.try_get(0)?, code))
    }

    /// Every invite, newest first.
    pub async fn invites(&self) -> Result<Vec<InviteInfo>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, uses_left, uses, expires, created, note FROM invites ORDER BY id DESC",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(InviteInfo {
                    id: r.try_get(0)?,
                    uses_left: r.try_get(1)?,
                    uses: r.try_get(2)?,
                    expires: r.try_get(3)?,
                    created: r.try_get(4)?,
                    note: r.try_get(5)?,
                })
            })
            .collect()
    }

    /// Signs a user up as `name`, with an invite's `code` (one of its uses) or without one (an open
    /// league); returns the user and their first token. Nothing is used up when the name is taken.
    pub async fn sign_up(
        &self,
        name: &str,
        code: Option<&str>,
    ) -> Result<(User, String), StoreError> {
        check_name("user", name)?;
        let mut tx = self.pool.begin().await?;
        let now = now_ms();
        let invite = match code {
            None => None,
            Some(code) => {
                let hash = token_hash(code);
                let row = sqlx::query(
                    "UPDATE invites SET uses_left = uses_left - 1 \
                     WHERE sha256 = $1 AND uses_left > 0 AND expires > $2 RETURNING id",
                )
                .bind(&hash)
                .bind(now)
                .fetch_optional(&mut *tx)
                .await?;
                match row {
                    Some(row) => Some(row.try_get::<i64, _>(0)?),
                    None => {
                        let why = self.invite_refusal(&hash, now).await?;
                        return Err(StoreError::Forbidden(why));
                    }
                }
            }
        };
        let id: i64 = match sqlx::query(
            "INSERT INTO users (name, created, invite_id) VALUES ($1, $2, $3) RETURNING id",
        )
        .bind(name)
        .bind(now)
        .bind(invite)
        .fetch_one(&mut *tx)
        .await
        {
            Ok(row) => row.try_get(0)?,
            Err(e) if is_unique(&e) => {
                return Err(StoreError::Conflict(format!(
                    "the name {name} is taken: choose another"
                )));
            }
            Err(e) => return Err(e.into()),
        };
        let token = new_token();
        sqlx::query("INSERT INTO tokens (user_id, sha256, label, created) VALUES ($1, $2, $3, $4)")
            .bind(id)
            .bind(token_hash(&token))
            .bind("sign-up")
            .bind(now)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok((
            User {
                id,
                name: name.to_string(),
            },
            token,
        ))
    }

    /// Why the invite with code hash `hash` cannot be used now.
    async fn invite_refusal(&self, hash: &str, now: i64) -> Result<String, StoreError> {
        let row = sqlx::query("SELECT uses, uses_left, expires FROM invites WHERE sha256 = $1")
            .bind(hash)
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else {
            return Ok("this is not an invite of this league".into());
        };
        let (uses, left, expires): (i64, i64, i64) =
            (row.try_get(0)?, row.try_get(1)?, row.try_get(2)?);
        Ok(if expires <= now {
            format!("this invite expired on {}", day(expires))
        } else if left <= 0 {
            format!(
                "this invite was good for {uses} sign-up{} and is used up",
                if uses == 1 { "" } else { "s" }
            )
        } else {
            "this invite cannot be used now".into()
        })
    }

    /// Every user, in the order they joined.
    pub async fn users(&self) -> Result<Vec<UserInfo>, StoreError> {
        let rows = sqlx::query(
            "SELECT users.id, users.name, users.created, users.disabled, users.invite_id, \
             (SELECT COUNT(*) FROM bots WHERE bots.owner_id = users.id) FROM users ORDER BY id",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(UserInfo {
                    id: r.try_get(0)?,
                    name: r.try_get(1)?,
                    created: r.try_get(2)?,
                    disabled: r.try_get(3)?,
                    invite: r.try_get(4)?,
                    bots: r.try_get(5)?,
                })
            })
            .collect()
    }

    /// Disables (`true`) or enables the user `name`; false if there is no such user.
    pub async fn set_disabled(&self, name: &str, disabled: bool) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE users SET disabled = $1 WHERE name = $2")
            .bind(disabled.then(now_ms))
            .bind(name)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }
}

/// A Unix-ms time as its UTC day, `2026-12-04` (the `time` crate's calendar).
pub fn day(ms: i64) -> String {
    time::OffsetDateTime::from_unix_timestamp(ms.div_euclid(1000))
        .map(|t| t.date().to_string())
        .unwrap_or_else(|_| format!("{ms} ms"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn days_are_utc_dates() {
        assert_eq!(super::day(0), "1970-01-01");
        assert_eq!(super::day(1_796_342_400_000 + 82_800_000), "2026-12-04");
        assert_eq!(super::day(951_782_400_000), "2000-02-29");
    }
}
