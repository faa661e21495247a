-- Plateau storage, version 12: who opened each room a node runs, while it counts as open.
--
-- Several nodes on PostgreSQL (docs/multinode.md, section 3): a player's open rooms are counted
-- over every node when he opens another, so the limit per player holds whichever node he
-- reaches. Empty once the room's game is over (it counts again if a rematch begins). One node on
-- SQLite counts in memory and never reads it; it is added here as well so that version 12 is the
-- same schema on either database.
ALTER TABLE room_owners ADD COLUMN creator TEXT NOT NULL DEFAULT '';
