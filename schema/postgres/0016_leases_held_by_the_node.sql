-- Plateau storage on PostgreSQL, version 16 (schema/0016_leases_held_by_the_node.sql): a room's
-- lease is its node's (nodes.expires_unix_ms, on the database's clock), renewed with one row a
-- node instead of one a room. room_owners.expires_unix_ms is no longer read; claims leave it at
-- this default, the largest time there is, so that nodes of an earlier version still running
-- during a rolling upgrade, which read it, never take a room from a newer node.
ALTER TABLE room_owners ALTER COLUMN expires_unix_ms SET DEFAULT 9223372036854775807;
