#pragma once
// Helpers shared by the storage tests: writing to a database behind the store's back.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <string>

namespace plateau::server {

// Inserts `count` finished games of `game` (finish times 1..count) in one transaction behind the
// store's back: going through FinishGame would cost two fsyncs per game.
inline void InsertFinishedGamesDirectly(const std::string& path, int count, const std::string& game) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  const std::string sql =
      "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < " +
      std::to_string(count) +
      ") INSERT INTO games (game_id, game, options, seed, status, started_unix_ms, "
      "finished_unix_ms, room_id, join_code, is_private, title, host_player_id, game_no) "
      "SELECT 'g' || i, '" + game + "', x'', 0, 'finished', 0, 1 + i, '', '', 0, '', '', "
      "(SELECT coalesce(max(game_no), 0) FROM games) + 1 + i FROM n";
  char* error = nullptr;
  EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK)
      << (error ? error : "");
  sqlite3_free(error);
  sqlite3_close(db);
}

}  // namespace plateau::server
