-- Plateau storage on PostgreSQL, version 17 (schema/0017_actions_numbered_by_sqlite_alone.sql):
-- game_actions without seq. Nothing reads it here (a game's log is read by (game_no, idx)); on
-- SQLite it is the rowid and costs nothing, but here every append drew it from a sequence and
-- wrote it into a second index. Dropping the column drops its sequence and that index.
ALTER TABLE game_actions DROP COLUMN seq;
