-- Plateau storage on PostgreSQL, version 15 (schema/0015_actions_checked_by_their_append.sql):
-- game_actions without its foreign key to games. The append statement writes a row only when
-- its game_no is a game of the room its fence names (a join, no lock, no trigger), and games are
-- never deleted; the key's check was a query, a row lock on the game and a WAL record for every
-- action.
ALTER TABLE game_actions DROP CONSTRAINT game_actions_game_no_fkey;
