-- Challenges (issue 30): an owner asks for a few unrated games of their bot against another bot of
-- its ladder. Their jobs are played before the ladder's; their results are stored and shown but move
-- no rating and no counter.
CREATE TABLE challenges (
    id INTEGER PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users(id),
    bot_id BIGINT NOT NULL REFERENCES bots(id),
    opponent_id BIGINT NOT NULL REFERENCES bots(id),
    game TEXT NOT NULL,
    variant BIGINT NOT NULL,
    games BIGINT NOT NULL,
    created BIGINT NOT NULL
);
CREATE INDEX challenges_user ON challenges (user_id, created);
ALTER TABLE jobs ADD COLUMN challenge_id BIGINT REFERENCES challenges(id);
ALTER TABLE results ADD COLUMN challenge_id BIGINT REFERENCES challenges(id);
