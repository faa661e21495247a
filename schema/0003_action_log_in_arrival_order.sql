-- Plateau storage, version 3: the action log is written in the order actions arrive.
--
-- Version 1 kept actions in a table keyed by (game_id, idx). Game ids are random, so with many
-- games in play every game's newest actions sat on a page of their own: a commit of a few
-- hundred actions from as many games rewrote a few hundred 4 KB pages (WAL frames, then the
-- checkpoint's copies), and once the file outgrew the page cache each append read its page back
-- first. That was most of the storage thread's time at 1000 rooms.
--
-- Now each game also gets a number in start order (games.game_no), actions go into a plain rowid
-- table (a new row lands on the last page, whichever game it belongs to), and a small index on
-- (game_no, idx) finds a game's actions. Games in play have the newest numbers, so the index
-- entries they add share a few pages at the end of the index.

ALTER TABLE games ADD COLUMN game_no INTEGER NOT NULL DEFAULT 0;
-- Existing games are numbered in the order they were stored.
UPDATE games SET game_no = rowid;
CREATE UNIQUE INDEX games_by_no ON games (game_no);

ALTER TABLE game_actions RENAME TO game_actions_by_id;

-- seq only orders rows as they were written; nothing refers to it.
CREATE TABLE game_actions (
  seq INTEGER PRIMARY KEY,
  game_no INTEGER NOT NULL REFERENCES games (game_no) ON DELETE CASCADE,
  idx INTEGER NOT NULL CHECK (idx >= 0),
  seat INTEGER NOT NULL,
  action BLOB NOT NULL,
  text TEXT NOT NULL,
  at_unix_ms INTEGER NOT NULL
);
-- An index is written once and never overwritten: a second row for it is refused here.
CREATE UNIQUE INDEX game_actions_by_game ON game_actions (game_no, idx);

INSERT INTO game_actions (game_no, idx, seat, action, text, at_unix_ms)
  SELECT g.game_no, a.idx, a.seat, a.action, a.text, a.at_unix_ms
  FROM game_actions_by_id a JOIN games g ON g.game_id = a.game_id
  ORDER BY g.game_no, a.idx;

DROP TABLE game_actions_by_id;
