-- PostgreSQL only. Plateau storage, version 17: on PostgreSQL, game_actions loses seq (see
-- postgres/0017_actions_numbered_by_sqlite_alone.sql). Here seq is the table's rowid, which
-- orders the log as it was written at no cost, so SQLite keeps it and this step changes nothing.
SELECT 1;
