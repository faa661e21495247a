-- Plateau storage on PostgreSQL, version 1: the same tables as schema/0001_init.sql, so that
-- version 1 means one schema on either database. Applied once, inside a transaction that also
-- records it in schema_migrations. A landed migration is never edited: changes go in a new,
-- higher-numbered file here and in schema/.
--
-- Types: SQLite's INTEGER is BIGINT for times, seeds, scores and numbers that only grow, and
-- INTEGER for small bounded values (a version, a seat, an index into one game's log, a rank, a
-- 0/1 flag). Flags stay 0/1 integers with a CHECK, not BOOLEAN, so the store binds and reads the
-- same values as on SQLite. BLOB is BYTEA.

-- Which migrations this database has had. Created by the first migration itself, so a database
-- without this table is simply at version 0.
CREATE TABLE schema_migrations (
  version INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  applied_unix_ms BIGINT NOT NULL
);

-- A player is found by the secret token the server gave it. Only the token's SHA-256 is kept,
-- so a leaked database does not hand out seats. Tokens are long random strings, so an unsalted
-- hash is enough to make them unrecoverable and still usable as a lookup key.
CREATE TABLE players (
  token_sha256 BYTEA PRIMARY KEY CHECK (octet_length(token_sha256) = 32),
  player_id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  created_unix_ms BIGINT NOT NULL,
  updated_unix_ms BIGINT NOT NULL
);

-- One row per started game, with the room it was played in (enough to rebuild the room after a
-- restart). `seed` is the engine's uint64 seed stored bit for bit in a signed BIGINT, as on
-- SQLite.
CREATE TABLE games (
  game_id TEXT PRIMARY KEY,
  game TEXT NOT NULL,
  options BYTEA NOT NULL,
  seed BIGINT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('playing', 'finished')),
  started_unix_ms BIGINT NOT NULL,
  finished_unix_ms BIGINT,
  room_id TEXT NOT NULL,
  join_code TEXT NOT NULL,
  is_private INTEGER NOT NULL CHECK (is_private IN (0, 1)),
  title TEXT NOT NULL,
  host_player_id TEXT NOT NULL,
  CHECK ((status = 'finished') = (finished_unix_ms IS NOT NULL))
);

-- Replay lists are "finished games, newest first", optionally for one game, paged by
-- (finished_unix_ms, game_id).
CREATE INDEX games_finished ON games (finished_unix_ms DESC, game_id DESC)
  WHERE status = 'finished';
CREATE INDEX games_finished_by_game ON games (game, finished_unix_ms DESC, game_id DESC)
  WHERE status = 'finished';
CREATE INDEX games_playing ON games (started_unix_ms, game_id) WHERE status = 'playing';

-- Seat names and the players sitting in them. Either may be NULL past the end of its list (the
-- record's seat_names and the room's seat_player_ids are separate lists), so both round-trip
-- exactly whatever their lengths.
CREATE TABLE game_seats (
  game_id TEXT NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
  seat INTEGER NOT NULL CHECK (seat >= 0),
  name TEXT,
  player_id TEXT,
  PRIMARY KEY (game_id, seat)
);

-- The action log. (game_id, idx) is the key: an index is written once and never overwritten.
CREATE TABLE game_actions (
  game_id TEXT NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
  idx INTEGER NOT NULL CHECK (idx >= 0),
  seat INTEGER NOT NULL,
  action BYTEA NOT NULL,
  text TEXT NOT NULL,
  at_unix_ms BIGINT NOT NULL,
  PRIMARY KEY (game_id, idx)
);

CREATE TABLE game_results (
  game_id TEXT NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
  seat INTEGER NOT NULL CHECK (seat >= 0),
  name TEXT NOT NULL,
  score BIGINT NOT NULL,
  rank INTEGER NOT NULL,
  detail TEXT NOT NULL,
  PRIMARY KEY (game_id, seat)
);
