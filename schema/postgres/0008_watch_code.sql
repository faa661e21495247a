-- Plateau storage on PostgreSQL, version 8 (schema/0008_watch_code.sql): a room's watch code.
--
-- Beside the join code, every room has a watch code: whoever holds it may watch the room, never
-- take a seat, so a watch link can be handed to anyone without opening a private room's seats.
-- Kept with the game, as the join code, so a restart keeps both links working. Games stored
-- before this version get a random one here (12 uppercase hexadecimal characters; the server
-- makes its own from the join codes' alphabet, just as long). The first 12 hex digits of a v4
-- UUID are all random (see 0002).
ALTER TABLE games ADD COLUMN watch_code TEXT NOT NULL DEFAULT '';
UPDATE games SET watch_code = upper(left(replace(gen_random_uuid()::text, '-', ''), 12));
