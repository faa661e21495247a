-- Plateau storage on PostgreSQL, version 14 (schema/0014_room_buckets.sql): each player's
-- allowance of rooms created (tokens left at at_unix_ms), taken by every node's room claims.
CREATE TABLE room_buckets (
  creator TEXT PRIMARY KEY,
  tokens DOUBLE PRECISION NOT NULL,
  at_unix_ms BIGINT NOT NULL
);
