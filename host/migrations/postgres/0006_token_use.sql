-- When each token last signed a request or a sign-in in (milliseconds since the epoch; NULL: never),
-- written at most once a minute per token, for its owner's account page.
ALTER TABLE tokens ADD COLUMN last_used BIGINT;
