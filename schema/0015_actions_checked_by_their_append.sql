-- Plateau storage, version 15: game_actions without its foreign key to games. Each append
-- checks its game itself, in the same statement (on PostgreSQL, a game of the room its fence
-- names), and games are never deleted. On PostgreSQL the key's check was a query, a row lock on
-- the game and a WAL record for every action, about a tenth of the cluster's work per action;
-- SQLite drops it too so that version 15 is one schema on both.
--
-- SQLite cannot drop a constraint: the table is built again without it, rows and seq kept.
CREATE TABLE game_actions_unkeyed (
  seq INTEGER PRIMARY KEY,
  game_no INTEGER NOT NULL,
  idx INTEGER NOT NULL CHECK (idx >= 0),
  seat INTEGER NOT NULL,
  action BLOB NOT NULL,
  text TEXT NOT NULL,
  at_unix_ms INTEGER NOT NULL,
  origin INTEGER NOT NULL DEFAULT 0 CHECK (origin >= 0)
);
INSERT INTO game_actions_unkeyed (seq, game_no, idx, seat, action, text, at_unix_ms, origin)
  SELECT seq, game_no, idx, seat, action, text, at_unix_ms, origin FROM game_actions ORDER BY seq;
DROP TABLE game_actions;
ALTER TABLE game_actions_unkeyed RENAME TO game_actions;
-- An index is written once and never overwritten: a second row for it is refused here.
CREATE UNIQUE INDEX game_actions_by_game ON game_actions (game_no, idx);
