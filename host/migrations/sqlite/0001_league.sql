-- The league's schema (SQLite). migrations/postgres/ holds the same tables in PostgreSQL's words;
-- league/store.rs reads and writes both with the same queries. Times are Unix milliseconds.
CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    created BIGINT NOT NULL
);

-- Tokens are 256 random bits; only their SHA-256 is kept.
CREATE TABLE tokens (
    id INTEGER PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users(id),
    sha256 TEXT NOT NULL UNIQUE,
    label TEXT NOT NULL,
    created BIGINT NOT NULL,
    revoked BIGINT
);

CREATE TABLE bots (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    owner_id BIGINT NOT NULL REFERENCES users(id),
    game TEXT NOT NULL,
    created BIGINT NOT NULL,
    retired BIGINT
);

-- A bot's versions, content-addressed: the same bytes are the same version. Only the newest passed
-- version of a bot that is not retired plays new games; each version keeps its own rating.
CREATE TABLE versions (
    id INTEGER PRIMARY KEY,
    bot_id BIGINT NOT NULL REFERENCES bots(id),
    number BIGINT NOT NULL,
    sha256 TEXT NOT NULL,
    kind TEXT NOT NULL,
    source BLOB NOT NULL,
    size BIGINT NOT NULL,
    created BIGINT NOT NULL,
    active BIGINT NOT NULL,
    rating TEXT NOT NULL,
    rank_value DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL DEFAULT 0,
    wins BIGINT NOT NULL DEFAULT 0,
    draws BIGINT NOT NULL DEFAULT 0,
    losses BIGINT NOT NULL DEFAULT 0,
    faults BIGINT NOT NULL DEFAULT 0,
    UNIQUE (bot_id, sha256),
    UNIQUE (bot_id, number)
);

-- Games to play. A worker leases a job; a lease that is not renewed expires and the job is played
-- again by another worker. `players` is a JSON array of version ids in seat order.
CREATE TABLE jobs (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    variant BIGINT NOT NULL,
    seed BIGINT NOT NULL,
    players TEXT NOT NULL,
    limits TEXT NOT NULL,
    state TEXT NOT NULL,
    worker TEXT,
    lease_until BIGINT,
    attempts BIGINT NOT NULL DEFAULT 0,
    error TEXT,
    created BIGINT NOT NULL
);
CREATE INDEX jobs_state ON jobs (state, id);

-- Played games: one per job at most (the unique key is what makes a result count once).
CREATE TABLE results (
    id INTEGER PRIMARY KEY,
    job_id BIGINT NOT NULL UNIQUE REFERENCES jobs(id),
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    seed BIGINT NOT NULL,
    engine TEXT NOT NULL,
    record TEXT NOT NULL,
    replay BLOB,
    replay_sha256 TEXT NOT NULL,
    worker TEXT NOT NULL,
    finished BIGINT NOT NULL
);

CREATE TABLE seats (
    result_id BIGINT NOT NULL REFERENCES results(id),
    seat BIGINT NOT NULL,
    version_id BIGINT NOT NULL REFERENCES versions(id),
    bot_id BIGINT NOT NULL REFERENCES bots(id),
    place BIGINT NOT NULL,
    fault TEXT,
    rating_after DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (result_id, seat)
);
CREATE INDEX seats_bot ON seats (bot_id, result_id);
