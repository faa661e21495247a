-- Plateau storage, version 9: moves taken back.
--
-- Whether the room lets a player take back his last move (CreateRoom.undo), kept with its game so
-- a restored room keeps it. Games stored before had no such option.
ALTER TABLE games ADD COLUMN undo INTEGER NOT NULL DEFAULT 0 CHECK (undo IN (0, 1));

-- A move taken back leaves the action log (game_actions), so a restart and a replay play the game
-- without it and the next move takes its index; it is kept here, with when it was taken back, so
-- the database still tells what happened.
CREATE TABLE game_taken_back (
  game_no INTEGER NOT NULL REFERENCES games (game_no) ON DELETE CASCADE,
  idx INTEGER NOT NULL CHECK (idx >= 0),
  seat INTEGER NOT NULL,
  action BLOB NOT NULL,
  at_unix_ms INTEGER NOT NULL,
  origin INTEGER NOT NULL,
  taken_back_unix_ms INTEGER NOT NULL
);
CREATE INDEX game_taken_back_by_game ON game_taken_back (game_no, idx);
