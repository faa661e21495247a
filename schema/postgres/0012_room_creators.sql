-- Plateau storage on PostgreSQL, version 12 (schema/0012_room_creators.sql): who opened each room,
-- while it counts as open, so that a player's open rooms are counted over every node.
ALTER TABLE room_owners ADD COLUMN creator TEXT NOT NULL DEFAULT '';
CREATE INDEX room_owners_by_creator ON room_owners (creator) WHERE creator <> '';
