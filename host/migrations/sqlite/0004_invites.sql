-- Sign-up by invite (issue 30): an invite's code is 256 random bits, of which only the SHA-256 is
-- kept; it is good for `uses` sign-ups until `expires`. A user may be disabled by the admin: their
-- tokens and sessions stop working and their bots stop playing until they are enabled again.
CREATE TABLE invites (
    id INTEGER PRIMARY KEY,
    sha256 TEXT NOT NULL UNIQUE,
    uses BIGINT NOT NULL,
    uses_left BIGINT NOT NULL,
    expires BIGINT NOT NULL,
    created BIGINT NOT NULL,
    note TEXT NOT NULL
);
ALTER TABLE users ADD COLUMN disabled BIGINT;
ALTER TABLE users ADD COLUMN invite_id BIGINT REFERENCES invites(id);
