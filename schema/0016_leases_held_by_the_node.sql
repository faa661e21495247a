-- Plateau storage, version 16: a room's lease is its node's (nodes.expires_unix_ms), not a time
-- of its own. A node renewed every room's row each third of a lease: at 1000 rooms, 300 to 400
-- rows rewritten a second on PostgreSQL, each with new entries in room_owners' indexes, which the
-- lookups by creator or code then waded through. Now one row a node is renewed, whatever its
-- rooms; a room is run by the node its row names while that node's lease holds, and the epoch
-- still changes with every claim.
--
-- room_owners.expires_unix_ms stays for nodes of an earlier version still running during a
-- rolling upgrade, which read it: a claim from version 16 on leaves it at its new default, the
-- largest time there is, so such a node never takes a room from a newer one (it still takes
-- none that is alive, and newer nodes judge its rooms by its node's row, which it renews). A
-- later version may drop it.
--
-- SQLite cannot change a default, and never reads these tables (version 10): the table is built
-- again, rows kept.
CREATE TABLE room_owners_leased_by_node (
  room_id TEXT PRIMARY KEY,
  node TEXT NOT NULL,
  epoch INTEGER NOT NULL CHECK (epoch >= 1),
  expires_unix_ms INTEGER NOT NULL DEFAULT 9223372036854775807,
  creator TEXT NOT NULL DEFAULT '',
  join_code TEXT NOT NULL DEFAULT '',
  watch_code TEXT NOT NULL DEFAULT ''
);
INSERT INTO room_owners_leased_by_node
  (room_id, node, epoch, expires_unix_ms, creator, join_code, watch_code)
  SELECT room_id, node, epoch, expires_unix_ms, creator, join_code, watch_code FROM room_owners;
DROP TABLE room_owners;
ALTER TABLE room_owners_leased_by_node RENAME TO room_owners;
CREATE INDEX room_owners_by_node ON room_owners (node);
