-- Plateau storage, version 14: each player's allowance of rooms created, over every node.
--
-- Several nodes on PostgreSQL (docs/multinode.md): the rooms a player may create per hour are a
-- token bucket (the burst, refilled at the rate) that each node keeps in memory and that the
-- claim of every new room also takes from here, so the rate holds whichever nodes he opens them
-- on. One node on SQLite keeps it in memory only and never reads this table; it is created here
-- as well so that version 14 is the same schema on either database.
CREATE TABLE room_buckets (
  creator TEXT PRIMARY KEY,
  tokens REAL NOT NULL,
  at_unix_ms INTEGER NOT NULL
);
