-- Plateau storage on PostgreSQL, version 4 (schema/0004_turn_timers_and_stand_ins.sql): turn
-- timers and bots standing in for players.
--
-- A room's turn timer (the TurnTimer message, serialized; empty: none) is kept with its game, so
-- a game restored after a restart keeps its timer. The clocks themselves are not stored: they
-- follow from the game's start, each action's time and who made it (origin), replayed.
-- (SQLite's x'' is a bit string in PostgreSQL; the empty BYTEA is ''::bytea.)
ALTER TABLE games ADD COLUMN timer BYTEA NOT NULL DEFAULT ''::bytea;

-- Who made an action (ActionOrigin): 0 the seat's player, 1 the clock (time ran out), 2 a bot
-- standing in for the player, 3 an opponent claiming the win. Older actions were the players'.
ALTER TABLE game_actions ADD COLUMN origin INTEGER NOT NULL DEFAULT 0 CHECK (origin >= 0);

-- The bot level (BotLevel) standing in for the seat's player, 0 for none: handed over by the
-- player on leaving, by another player after the grace period, or after too many timeouts.
ALTER TABLE game_seats ADD COLUMN stand_in INTEGER NOT NULL DEFAULT 0 CHECK (stand_in >= 0);
