-- Plateau storage on PostgreSQL, version 13 (schema/0013_room_codes.sql): each room's join and
-- watch codes, so a code typed on one node finds a room another node runs.
ALTER TABLE room_owners ADD COLUMN join_code TEXT NOT NULL DEFAULT '';
ALTER TABLE room_owners ADD COLUMN watch_code TEXT NOT NULL DEFAULT '';
CREATE INDEX room_owners_by_join_code ON room_owners (join_code) WHERE join_code <> '';
CREATE INDEX room_owners_by_watch_code ON room_owners (watch_code) WHERE watch_code <> '';

-- The wrong codes typed alone from each address, over every node: the lockout per address holds
-- whichever node a guesser reaches.
CREATE TABLE code_misses (
  address TEXT NOT NULL,
  at_unix_ms BIGINT NOT NULL
);
CREATE INDEX code_misses_by_address ON code_misses (address, at_unix_ms);
