-- Plateau storage on PostgreSQL, version 6 (schema/0006_seat_left.sql): a player who left a game
-- in play.
--
-- 1 when the seat's player left the game with the Leave button (keeping the seat, conceding or
-- handing it to a bot) and has not come back; 0 while the seat's player is there or merely lost
-- the connection. Kept so that a restart still shows the seat as left (not offline) and lets the
-- others replace it at once, as before the restart.
ALTER TABLE game_seats ADD COLUMN left_game INTEGER NOT NULL DEFAULT 0 CHECK (left_game IN (0, 1));
