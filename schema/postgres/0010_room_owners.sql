-- Plateau storage on PostgreSQL, version 10 (schema/0010_room_owners.sql): which node runs each
-- room, and the nodes alive.
--
-- A room is run by the node holding its row until expires_unix_ms, a time of the database's clock
-- (nodes never compare their own clocks). Claiming a room raises its epoch; every write to a
-- game's log checks, in the same statement, that the row still names the writer with the epoch
-- it claimed and has not expired, and locks the row for that transaction, so a node that lost
-- the room (paused or cut off past its lease) writes nothing more for it.
CREATE TABLE room_owners (
  room_id TEXT PRIMARY KEY,
  node TEXT NOT NULL,
  epoch BIGINT NOT NULL CHECK (epoch >= 1),
  expires_unix_ms BIGINT NOT NULL
);
CREATE INDEX room_owners_by_node ON room_owners (node);

-- A node renews its row with its rooms' leases: a row past its time is a node the others may
-- take rooms from.
CREATE TABLE nodes (
  node TEXT PRIMARY KEY,
  address TEXT NOT NULL DEFAULT '',
  expires_unix_ms BIGINT NOT NULL
);
