-- Plateau storage on PostgreSQL, version 7 (schema/0007_token_expiry_and_revocation.sql): tokens
-- that expire when unused and can be revoked.
--
-- When the player's token was last used (a Hello with it, or one of its connections closing).
-- A token unused for longer than the server's --token-inactive-days is refused. Rows from before
-- start from this upgrade: their last update only tells when they were created or renamed, and
-- taking it would lock out at once everyone who has played for longer than the limit.
ALTER TABLE players ADD COLUMN last_used_unix_ms BIGINT NOT NULL DEFAULT 0;
-- now() is the upgrade's transaction start, in milliseconds (SQLite's clock gives whole seconds).
UPDATE players SET last_used_unix_ms = floor(extract(epoch FROM now()) * 1000)::bigint;

-- Tokens given up by "sign out everywhere" (their SHA-256 only, as for players), kept so that
-- presenting one is refused as revoked rather than unknown, across restarts.
CREATE TABLE revoked_tokens (
  token_sha256 BYTEA PRIMARY KEY CHECK (octet_length(token_sha256) = 32),
  player_id TEXT NOT NULL,
  revoked_unix_ms BIGINT NOT NULL
);
