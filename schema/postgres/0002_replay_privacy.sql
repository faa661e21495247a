-- Plateau storage on PostgreSQL, version 2 (schema/0002_replay_privacy.sql): private games'
-- replays are kept from strangers.
-- A private room's finished game is shown to the players seated in it and to whoever holds its
-- replay token (the replay link carries it). Public games keep an empty token: they are open.

-- The token is kept in clear, unlike player tokens: it is handed out again to the game's own
-- players each time they list their replays, so it must be recoverable.
ALTER TABLE games ADD COLUMN replay_token TEXT NOT NULL DEFAULT '';

-- Private games stored before this version get a token of their own (128 random bits as 32
-- lowercase hex digits, as the server makes them), so their players can still share them and
-- nobody else can guess them. Unfinished ones too: they come back after a restart and finish
-- later. Core PostgreSQL has no random-bytes function (that is pgcrypto), but gen_random_uuid()
-- draws from the same strong source; a v4 UUID fixes its 13th hex digit and two bits of the
-- 17th, so only the first 12 digits of each are taken, from three UUIDs drawn per row.
UPDATE games
  SET replay_token = lower(left(replace(gen_random_uuid()::text, '-', ''), 12)
                        || left(replace(gen_random_uuid()::text, '-', ''), 12)
                        || left(replace(gen_random_uuid()::text, '-', ''), 8))
  WHERE is_private = 1;

-- Replay lists now ask "the private games this player sat in"; without this index that is a
-- scan of every seat ever stored.
CREATE INDEX game_seats_by_player ON game_seats (player_id, game_id) WHERE player_id IS NOT NULL;
