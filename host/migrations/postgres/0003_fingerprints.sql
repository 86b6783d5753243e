-- A game's fingerprint (issue 30): the SHA-256 of its game, variant, players in seat order and
-- moves. Two results with one fingerprint are the same game played twice (deterministic bots from
-- the same opening); the second is not stored. NULL for games whose moves are not hashed (games
-- with chance, which never repeat) and for results stored before.
ALTER TABLE results ADD COLUMN fingerprint TEXT;
CREATE UNIQUE INDEX results_fingerprint ON results (fingerprint);
