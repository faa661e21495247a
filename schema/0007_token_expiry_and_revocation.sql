-- Plateau storage, version 7: tokens that expire when unused and can be revoked.
--
-- When the player's token was last used (a Hello with it, or one of its connections closing).
-- A token unused for longer than the server's --token-inactive-days is refused. Rows from before
-- start from this upgrade: their last update only tells when they were created or renamed, and
-- taking it would lock out at once everyone who has played for longer than the limit.
ALTER TABLE players ADD COLUMN last_used_unix_ms INTEGER NOT NULL DEFAULT 0;
UPDATE players SET last_used_unix_ms = CAST(strftime('%s', 'now') AS INTEGER) * 1000;

-- Tokens given up by "sign out everywhere" (their SHA-256 only, as for players), kept so that
-- presenting one is refused as revoked rather than unknown, across restarts.
CREATE TABLE revoked_tokens (
  token_sha256 BLOB PRIMARY KEY CHECK (length(token_sha256) = 32),
  player_id TEXT NOT NULL,
  revoked_unix_ms INTEGER NOT NULL
) WITHOUT ROWID;
