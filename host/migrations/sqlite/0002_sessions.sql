-- Web sessions (issue 28): signing in with a token makes a session; the cookie carries the session's
-- random id, of which only the SHA-256 is kept. A session ends on sign-out, at its expiry, and when
-- the token it was made from is revoked (the lookup joins the token).
CREATE TABLE sessions (
    id INTEGER PRIMARY KEY,
    sha256 TEXT NOT NULL UNIQUE,
    user_id BIGINT NOT NULL REFERENCES users(id),
    token_id BIGINT NOT NULL REFERENCES tokens(id),
    created BIGINT NOT NULL,
    expires BIGINT NOT NULL,
    ended BIGINT
);

-- The file name the owner uploaded a version as (`hunter.lua`): error messages name it, never the
-- server's cache path. NULL for versions uploaded before: they are named after their bot.
ALTER TABLE versions ADD COLUMN file_name TEXT;
