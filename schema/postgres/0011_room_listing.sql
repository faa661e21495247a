-- Plateau storage on PostgreSQL, version 11 (schema/0011_room_listing.sql): the public room list
-- every node shows.
--
-- A node writes the lines of its own public rooms (a serialized RoomInfo), each change in a small
-- transaction of its own that also sends NOTIFY plateau_rooms with the room's id; every node
-- LISTENs and reads the lines it is told of. A line whose node does not run the room any more
-- (the node died, or another took the room over) is deleted, with the same notice.
CREATE TABLE room_listing (
  room_id TEXT PRIMARY KEY,
  node TEXT NOT NULL,
  info BYTEA NOT NULL,
  updated_unix_ms BIGINT NOT NULL
);
