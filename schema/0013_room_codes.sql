-- Plateau storage, version 13: each room's join and watch codes beside the node that runs it, and
-- the wrong codes typed from each address.
--
-- Several nodes on PostgreSQL (docs/multinode.md, section 3): a code typed on one node finds a
-- room another node runs, so the player is sent there. One node on SQLite looks codes up in
-- memory and never reads these columns; they are added here as well so that version 13 is the
-- same schema on either database.
ALTER TABLE room_owners ADD COLUMN join_code TEXT NOT NULL DEFAULT '';
ALTER TABLE room_owners ADD COLUMN watch_code TEXT NOT NULL DEFAULT '';

-- The wrong codes typed alone from each address, over every node (the lockout per address).
CREATE TABLE code_misses (
  address TEXT NOT NULL,
  at_unix_ms INTEGER NOT NULL
);
CREATE INDEX code_misses_by_address ON code_misses (address, at_unix_ms);
