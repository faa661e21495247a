-- Plateau storage, version 2: private games' replays are kept from strangers.
-- A private room's finished game is shown to the players seated in it and to whoever holds its
-- replay token (the replay link carries it). Public games keep an empty token: they are open.

-- The token is kept in clear, unlike player tokens: it is handed out again to the game's own
-- players each time they list their replays, so it must be recoverable.
ALTER TABLE games ADD COLUMN replay_token TEXT NOT NULL DEFAULT '';

-- Private games stored before this version get a token of their own (128 random bits, as the
-- server makes them), so their players can still share them and nobody else can guess them.
-- Unfinished ones too: they come back after a restart and finish later.
UPDATE games SET replay_token = lower(hex(randomblob(16))) WHERE is_private = 1;

-- Replay lists now ask "the private games this player sat in"; without this index that is a
-- scan of every seat ever stored.
CREATE INDEX game_seats_by_player ON game_seats (player_id, game_id) WHERE player_id IS NOT NULL;
