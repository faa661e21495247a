-- Plateau storage, version 11: the public room list every node shows.
--
-- Used when several nodes share one PostgreSQL database (docs/multinode.md, section 3): each node
-- writes the lines of its own public rooms here (a RoomInfo message) and announces each change;
-- the other nodes read the lines they are told of into their lobby. One node on SQLite lists its
-- own rooms from memory and never reads this table; it is created here as well so that version
-- 11 is the same schema on either database.
CREATE TABLE room_listing (
  room_id TEXT PRIMARY KEY,
  node TEXT NOT NULL,
  info BLOB NOT NULL,
  updated_unix_ms INTEGER NOT NULL
);
