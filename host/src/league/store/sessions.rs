//! Web sessions: signing in on a page with a token makes one. The cookie carries a random session
//! id (256 bits), of which only the SHA-256 is stored, so the cookie is never the API token itself.
//! A session holds until its expiry, its sign-out, or the revocation of the token it came from.
//! The hashes of the credentials in use are also read as a whole, for the sign-in guard
//! (`server::identity`).

use std::collections::HashSet;

use sqlx::Row;

use super::{Store, StoreError, User, now_ms, secret, token_hash, user_of};

impl Store {
    /// A new session for the user of `token`, valid for `ms` milliseconds; `None` if the token is
    /// not valid. Returns the session id (for the cookie) and its user.
    pub async fn add_session(
        &self,
        token: &str,
        ms: i64,
    ) -> Result<Option<(String, User)>, StoreError> {
        let Some(row) = sqlx::query(
            "SELECT tokens.id, users.id, users.name, tokens.last_used FROM tokens \
             JOIN users ON users.id = tokens.user_id \
             WHERE tokens.sha256 = $1 AND tokens.revoked IS NULL",
        )
        .bind(token_hash(token))
        .fetch_optional(&self.pool)
        .await?
        else {
            return Ok(None);
        };
        let (token_id, user): (i64, User) = (
            row.try_get(0)?,
            User {
                id: row.try_get(1)?,
                name: row.try_get(2)?,
            },
        );
        self.token_used(token_id, row.try_get(3)?).await?;
        let id = secret("bbs_");
        let now = now_ms();
        sqlx::query(
            "INSERT INTO sessions (sha256, user_id, token_id, created, expires) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(token_hash(&id))
        .bind(user.id)
        .bind(token_id)
        .bind(now)
        .bind(now.saturating_add(ms))
        .execute(&self.pool)
        .await?;
        Ok(Some((id, user)))
    }

    /// The user of a session that has not ended, not expired and whose token is not revoked.
    pub async fn user_by_session(&self, session: &str) -> Result<Option<User>, StoreError> {
        let row = sqlx::query(
            "SELECT users.id, users.name FROM sessions \
             JOIN tokens ON tokens.id = sessions.token_id JOIN users ON users.id = sessions.user_id \
             WHERE sessions.sha256 = $1 AND sessions.ended IS NULL AND sessions.expires > $2 \
             AND tokens.revoked IS NULL AND users.disabled IS NULL",
        )
        .bind(token_hash(session))
        .bind(now_ms())
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(user_of).transpose()
    }

    /// Ends a session (signing out); nothing if it has ended already or never was.
    pub async fn end_session(&self, session: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE sessions SET ended = $1 WHERE sha256 = $2 AND ended IS NULL")
            .bind(now_ms())
            .bind(token_hash(session))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The SHA-256 of every credential in use: tokens not revoked, sessions not ended or expired.
    pub async fn credentials_in_use(&self) -> Result<HashSet<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT sha256 FROM tokens WHERE revoked IS NULL UNION ALL \
             SELECT sha256 FROM sessions WHERE ended IS NULL AND expires > $1",
        )
        .bind(now_ms())
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok(r.try_get(0)?)).collect()
    }

    /// Deletes the sessions that ended or expired before `before` (ms).
    pub async fn prune_sessions(&self, before: i64) -> Result<u64, StoreError> {
        let done = sqlx::query("DELETE FROM sessions WHERE expires < $1 OR ended < $1")
            .bind(before)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }
}
