-- Plateau storage on PostgreSQL, version 5 (schema/0005_clock_resumes.sql): restarts a timed
-- game went through.
--
-- After a restart every running clock gets at least a grace period (nobody could move while the
-- server was down). That moment is not in the action log, so a later restart replaying the log
-- would not know the deadline had moved, and a chess clock would bank less time than was left.
-- Each resume of a game with a turn timer is kept here, and replayed in time order among its
-- actions.
CREATE TABLE game_resumes (
  game_id TEXT NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
  at_unix_ms BIGINT NOT NULL,
  grace_ms BIGINT NOT NULL CHECK (grace_ms >= 0),
  PRIMARY KEY (game_id, at_unix_ms)
);
