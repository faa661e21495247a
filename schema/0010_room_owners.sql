-- Plateau storage, version 10: which node runs each room, and the nodes alive.
--
-- Used when several nodes share one PostgreSQL database (docs/multinode.md): a room is run by one
-- node at a time, the one holding its row here, until its lease runs out; each claim raises the
-- epoch, and a node writes a game's log only while the row still names it with the epoch it
-- claimed. One node on SQLite runs every room and never reads these tables; they are created here
-- as well so that version 10 is the same schema on either database.
CREATE TABLE room_owners (
  room_id TEXT PRIMARY KEY,
  node TEXT NOT NULL,
  epoch INTEGER NOT NULL CHECK (epoch >= 1),
  expires_unix_ms INTEGER NOT NULL
);
CREATE INDEX room_owners_by_node ON room_owners (node);

CREATE TABLE nodes (
  node TEXT PRIMARY KEY,
  address TEXT NOT NULL DEFAULT '',
  expires_unix_ms INTEGER NOT NULL
);
