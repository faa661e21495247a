-- Plateau storage, version 15: nothing changes on SQLite. PostgreSQL's 0015 takes away the
-- foreign key from game_actions to games, which cost every append there a lookup, a row lock on
-- the game and its log record (the check's trigger was a tenth of the cluster's work per action);
-- its append checks the game itself, in the room it is fenced to. SQLite checks the key
-- in-process for next to nothing, and keeps it.
SELECT 1;
