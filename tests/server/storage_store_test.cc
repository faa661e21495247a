// The Store, on SQLite and on PostgreSQL (a server the suite starts, a database per test): players
// by hashed token, the game lifecycle (begin, append, finish, load), refusals, recovery lists,
// replay lists, batches, durability and concurrent use; then what only SQLite's file has.
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

#include "tests/server/storage_test_support.h"
#include "tests/support/temp_dir.h"
#include "server/storage/pg_store.h"
#include "server/storage/sqlite_store.h"
#include "server/storage/token_hash.h"
#include "tests/server/pg_test_server.h"

namespace plateau::server {
namespace {

namespace fs = std::filesystem;
using google::protobuf::util::MessageDifferencer;
using plateau::v1::GameRecord;
using plateau::v1::ReplayAction;
using plateau::v1::SeatResult;
namespace v1 = plateau::v1;

using plateau::testing::TempDir;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Binary bytes with a NUL and high bytes, so text/blob confusion would show.
std::string ActionBytes(int i) { return std::string("\x08\x00\xff", 3) + std::to_string(i); }

GameRecord NewRecord(const std::string& game_id, const std::string& game = "globalissimo") {
  GameRecord r;
  r.set_game_id(game_id);
  r.set_game(game);
  r.set_options(std::string("\x08\x03\x00", 3));
  r.set_seed(0xfedcba9876543210ULL);  // above INT64_MAX: must survive SQLite's signed integers
  r.add_seat_names("Ada");
  r.add_seat_names("Brahmagupta");
  r.add_seat_names("");  // an empty name is still a seat
  r.set_started_unix_ms(1'700'000'000'000);
  return r;
}

RoomRecord NewRoom(const std::string& room_id) {
  RoomRecord room;
  room.room_id = room_id;
  room.join_code = "K7Q2";
  room.is_private = true;
  room.title = "Friday geography";
  room.host_player_id = "p-ada";
  room.seat_player_ids = {"p-ada", "p-brahma", "p-anon"};
  return room;
}

ReplayAction NewAction(int i) {
  ReplayAction a;
  a.set_seat(i % 3);
  a.set_action(ActionBytes(i));
  a.set_text("place { slot: " + std::to_string(i) + " }");
  a.set_at_unix_ms(1'700'000'000'000 + i);
  return a;
}

std::vector<SeatResult> NewResults() {
  std::vector<SeatResult> results(3);
  const char* names[] = {"Ada", "Brahmagupta", ""};
  for (int s = 0; s < 3; ++s) {
    results[s].set_seat(s);
    results[s].set_name(names[s]);
    results[s].set_score(10 - 3 * s);
    results[s].set_rank(s + 1);
    results[s].set_detail(s == 0 ? "most cards" : "");
  }
  results[2].set_score(-2);  // negative scores are scores too
  return results;
}

class StoreFixture : public ::testing::Test {
 protected:
  explicit StoreFixture(bool postgres) : postgres_(postgres) {}
  void SetUp() override {
    if (postgres_) {
      conninfo_ = testing::NewTestDatabase();
      ASSERT_FALSE(conninfo_.empty());
    }
    Reopen();
  }
  // Another store on the same database (a second process, a second node).
  StatusOr<std::unique_ptr<Store>> OpenStore() {
    if (postgres_) {
      auto pg = PgStore::Open(conninfo_);
      if (!pg.ok()) return pg.status();
      return std::unique_ptr<Store>(std::move(pg.value()));
    }
    auto lite = SqliteStore::Open(path_);
    if (!lite.ok()) return lite.status();
    return std::unique_ptr<Store>(std::move(lite.value()));
  }
  void Reopen() {
    store_.reset();
    auto opened = OpenStore();
    ASSERT_TRUE(opened.ok()) << opened.status().ToString();
    store_ = std::move(opened.value());
  }
  // A game with `actions` actions, finished at `finished_ms` unless that is 0.
  GameRecord StoreGame(const std::string& game_id, int actions, int64_t finished_ms,
                       const std::string& game = "globalissimo") {
    GameRecord record = NewRecord(game_id, game);
    EXPECT_TRUE(store_->BeginGame(record, NewRoom("room-" + game_id)).ok());
    for (int i = 0; i < actions; ++i) {
      EXPECT_TRUE(store_->AppendAction(game_id, i, NewAction(i)).ok());
      *record.add_actions() = NewAction(i);
    }
    if (finished_ms != 0) {
      auto results = NewResults();
      EXPECT_TRUE(store_->FinishGame(game_id, results, finished_ms).ok());
      for (auto& r : results) *record.add_results() = r;
      record.set_finished_unix_ms(finished_ms);
    }
    return record;
  }
  // As listed to `viewer`; p-ada sits in every game StoreGame stores (private ones).
  std::vector<std::string> ListIds(const std::string& game, uint32_t limit,
                                   const std::string& before,
                                   const std::string& viewer = "p-ada") {
    auto list = store_->ListFinished(game, limit, before, viewer);
    EXPECT_TRUE(list.ok()) << list.status().ToString();
    std::vector<std::string> ids;
    if (list.ok()) {
      for (auto& s : list.value()) ids.push_back(s.game_id());
    }
    return ids;
  }

  const bool postgres_;
  TempDir dir_;
  std::string path_ = dir_.File("plateau.sqlite");
  std::string conninfo_;
  std::unique_ptr<Store> store_;
};

// What every store must do: run on both.
class StoreTest : public StoreFixture, public ::testing::WithParamInterface<std::string> {
 protected:
  StoreTest() : StoreFixture(GetParam() == "postgres") {}
};

// What only SQLite's file has (its bytes, its WAL, its durability modes, the sqlite3 shell).
class SqliteStoreTest : public StoreFixture {
 protected:
  SqliteStoreTest() : StoreFixture(false) {}
};

// --- Players ---

TEST(StorageTokenHash, IsSha256) {
  // FIPS 180-2 test vector for "abc".
  const std::string digest = storage::TokenSha256("abc");
  const unsigned char expected[] = {0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40,
                                    0xde, 0x5d, 0xae, 0x22, 0x23, 0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17,
                                    0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad};
  EXPECT_EQ(digest, std::string(reinterpret_cast<const char*>(expected), sizeof expected));
}

TEST_P(StoreTest, PlayerIsFoundByItsTokenOnly) {
  ASSERT_TRUE(store_->SavePlayer("token-ada", {"p-ada", "Ada"}).ok());
  ASSERT_TRUE(store_->SavePlayer("token-bob", {"p-bob", "Bob"}).ok());
  auto ada = store_->FindPlayer("token-ada");
  ASSERT_TRUE(ada.ok());
  ASSERT_TRUE(ada.value().has_value());
  EXPECT_EQ(ada.value()->player_id, "p-ada");
  EXPECT_EQ(ada.value()->name, "Ada");
  EXPECT_EQ(store_->FindPlayer("token-bob").value()->player_id, "p-bob");
  auto nobody = store_->FindPlayer("token-nobody");
  ASSERT_TRUE(nobody.ok());
  EXPECT_FALSE(nobody.value().has_value());
  EXPECT_FALSE(store_->FindPlayer("").value().has_value());
}

TEST_P(StoreTest, SavingAgainRenamesThePlayer) {
  ASSERT_TRUE(store_->SavePlayer("token-ada", {"p-ada", "Ada"}).ok());
  ASSERT_TRUE(store_->SavePlayer("token-ada", {"p-ada", "Ada L."}).ok());
  EXPECT_EQ(store_->FindPlayer("token-ada").value()->name, "Ada L.");
}

TEST_P(StoreTest, TokenAndPlayerIdConflictsAreRefused) {
  ASSERT_TRUE(store_->SavePlayer("token-ada", {"p-ada", "Ada"}).ok());
  EXPECT_EQ(store_->SavePlayer("token-ada", {"p-eve", "Eve"}).code(), store_codes::kTokenConflict);
  EXPECT_EQ(store_->SavePlayer("token-eve", {"p-ada", "Eve"}).code(),
            store_codes::kPlayerConflict);
  EXPECT_EQ(store_->SavePlayer("", {"p-x", "X"}).code(), store_codes::kBadRecord);
  EXPECT_EQ(store_->SavePlayer("token-x", {"", "X"}).code(), store_codes::kBadRecord);
  // The refusals changed nothing.
  EXPECT_EQ(store_->FindPlayer("token-ada").value()->player_id, "p-ada");
  EXPECT_EQ(store_->FindPlayer("token-ada").value()->name, "Ada");
  EXPECT_FALSE(store_->FindPlayer("token-eve").value().has_value());
}

// A token's last use only moves forward; a replaced token is found as revoked, its player under
// the new one with the same id and name.
TEST_P(StoreTest, TokensAreTouchedAndReplaced) {
  ASSERT_TRUE(store_->SavePlayer("token-ada", {"p-ada", "Ada"}).ok());
  ASSERT_TRUE(store_->TouchPlayer("p-ada", 4'000'000'000'000).ok());
  ASSERT_TRUE(store_->TouchPlayer("p-ada", 1000).ok());
  EXPECT_EQ(store_->FindPlayer("token-ada").value()->last_used_unix_ms, 4'000'000'000'000);
  EXPECT_EQ(store_->TouchPlayer("p-nobody", 1).code(), store_codes::kPlayerNotFound);

  ASSERT_TRUE(store_->SavePlayer("token-bob", {"p-bob", "Bob"}).ok());
  EXPECT_EQ(store_->ReplaceToken("token-ada", "token-bob", 5).code(), store_codes::kTokenConflict);
  EXPECT_EQ(store_->ReplaceToken("token-nobody", "token-new", 5).code(),
            store_codes::kTokenNotFound);
  EXPECT_FALSE(store_->FindPlayer("token-ada").value()->revoked);  // the refusals changed nothing

  ASSERT_TRUE(store_->ReplaceToken("token-ada", "token-ada-2", 4'000'000'000'001).ok());
  auto old = store_->FindPlayer("token-ada");
  ASSERT_TRUE(old.ok() && old.value().has_value());
  EXPECT_TRUE(old.value()->revoked);
  EXPECT_EQ(old.value()->player_id, "p-ada");
  auto renewed = store_->FindPlayer("token-ada-2");
  ASSERT_TRUE(renewed.ok() && renewed.value().has_value());
  EXPECT_FALSE(renewed.value()->revoked);
  EXPECT_EQ(renewed.value()->player_id, "p-ada");
  EXPECT_EQ(renewed.value()->name, "Ada");
  EXPECT_EQ(renewed.value()->last_used_unix_ms, 4'000'000'000'001);
  // Revoked for good: the old token cannot be replaced again.
  EXPECT_EQ(store_->ReplaceToken("token-ada", "token-ada-3", 6).code(),
            store_codes::kTokenNotFound);
}

TEST_F(SqliteStoreTest, TokenIsNotStoredInClear) {
  const std::string token = "secret-token-6d1f0a8b3c9e4f27";
  ASSERT_TRUE(store_->SavePlayer(token, {"p-ada", "Ada"}).ok());
  const std::string hash = storage::TokenSha256(token);
  auto contents = [&] {
    return ReadFile(path_) + ReadFile(path_ + "-wal") + ReadFile(path_ + "-shm");
  };
  // While open (the row is in the WAL) and after close (checkpointed into the main file).
  std::string open_bytes = contents();
  EXPECT_EQ(open_bytes.find(token), std::string::npos);
  EXPECT_NE(open_bytes.find(hash), std::string::npos) << "the hash itself should be stored";
  store_.reset();
  std::string closed_bytes = contents();
  EXPECT_EQ(closed_bytes.find(token), std::string::npos);
  EXPECT_NE(closed_bytes.find(hash), std::string::npos);
}

// --- Games ---

TEST_P(StoreTest, BegunGameWithActionsAndResultsLoadsBackInOrder) {
  GameRecord expected = StoreGame("g1", 25, 1'700'000'500'000);
  auto loaded = store_->LoadGame("g1");
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  ASSERT_TRUE(loaded.value().has_value());
  EXPECT_TRUE(MessageDifferencer::Equals(*loaded.value(), expected))
      << loaded.value()->DebugString() << "\nvs\n" << expected.DebugString();
  EXPECT_EQ(loaded.value()->seed(), 0xfedcba9876543210ULL);
  EXPECT_EQ(loaded.value()->actions(7).action(), ActionBytes(7));
}

TEST_P(StoreTest, UnfinishedGameLoadsWithoutResultsOrFinishTime) {
  GameRecord expected = StoreGame("g1", 3, 0);
  auto loaded = store_->LoadGame("g1");
  ASSERT_TRUE(loaded.ok());
  ASSERT_TRUE(loaded.value().has_value());
  EXPECT_TRUE(MessageDifferencer::Equals(*loaded.value(), expected));
  EXPECT_EQ(loaded.value()->finished_unix_ms(), 0);
  EXPECT_EQ(loaded.value()->results_size(), 0);
}

TEST_P(StoreTest, UnknownGameLoadsAsNothing) {
  auto loaded = store_->LoadGame("nope");
  ASSERT_TRUE(loaded.ok());
  EXPECT_FALSE(loaded.value().has_value());
}

TEST_P(StoreTest, DuplicateActionIndexIsRefusedAndNothingIsOverwritten) {
  StoreGame("g1", 3, 0);
  ReplayAction other = NewAction(99);
  Status st = store_->AppendAction("g1", 1, other);
  EXPECT_EQ(st.code(), store_codes::kDuplicateAction) << st.ToString();
  EXPECT_EQ(store_->AppendAction("g1", 0, other).code(), store_codes::kDuplicateAction);
  auto loaded = store_->LoadGame("g1").value();
  ASSERT_EQ(loaded->actions_size(), 3);
  EXPECT_EQ(loaded->actions(1).action(), ActionBytes(1));
  EXPECT_EQ(loaded->actions(0).action(), ActionBytes(0));
}

TEST_P(StoreTest, OnlyTheLastActionIsTakenBackAndItsIndexIsWrittenAgain) {
  StoreGame("g1", 3, 0);
  EXPECT_EQ(store_->TakeBackAction("g1", 1, 5).code(), store_codes::kNotLastAction);
  EXPECT_EQ(store_->TakeBackAction("g1", 3, 5).code(), store_codes::kNotLastAction);
  EXPECT_EQ(store_->TakeBackAction("nope", 0, 5).code(), store_codes::kGameNotFound);
  ASSERT_TRUE(store_->TakeBackAction("g1", 2, 5).ok());
  Reopen();  // durable, and the next index read back from the file
  auto loaded = store_->LoadGame("g1").value();
  ASSERT_EQ(loaded->actions_size(), 2);
  ReplayAction again = NewAction(7);
  ASSERT_TRUE(store_->AppendAction("g1", 2, again).ok());
  loaded = store_->LoadGame("g1").value();
  ASSERT_EQ(loaded->actions_size(), 3);
  EXPECT_EQ(loaded->actions(2).action(), ActionBytes(7));
  EXPECT_EQ(store_->LoadUnfinished().value().at(0).record.actions_size(), 3);
  // A finished game keeps its log.
  StoreGame("g2", 2, 1'700'000'100'000);
  EXPECT_EQ(store_->TakeBackAction("g2", 1, 5).code(), store_codes::kGameFinished);
}

TEST_P(StoreTest, TheUndoOptionIsKeptWithTheRoom) {
  RoomRecord room = NewRoom("r-undo");
  room.undo = true;
  ASSERT_TRUE(store_->BeginGame(NewRecord("g-undo"), room).ok());
  ASSERT_TRUE(store_->BeginGame(NewRecord("g-plain"), NewRoom("r-plain")).ok());
  auto unfinished = store_->LoadUnfinished();
  ASSERT_TRUE(unfinished.ok());
  ASSERT_EQ(unfinished.value().size(), 2u);
  for (const auto& u : unfinished.value()) EXPECT_EQ(u.room.undo, u.record.game_id() == "g-undo");
}

TEST_P(StoreTest, ActionIndexThatLeavesAGapIsRefused) {
  StoreGame("g1", 2, 0);
  EXPECT_EQ(store_->AppendAction("g1", 3, NewAction(3)).code(), store_codes::kActionGap);
  EXPECT_TRUE(store_->AppendAction("g1", 2, NewAction(2)).ok());
  EXPECT_EQ(store_->LoadGame("g1").value()->actions_size(), 3);
}

TEST_P(StoreTest, LifecycleRefusals) {
  StoreGame("g1", 1, 0);
  EXPECT_EQ(store_->BeginGame(NewRecord("g1"), NewRoom("r")).code(), store_codes::kGameExists);
  EXPECT_EQ(store_->AppendAction("nope", 0, NewAction(0)).code(), store_codes::kGameNotFound);
  EXPECT_EQ(store_->FinishGame("nope", NewResults(), 5).code(), store_codes::kGameNotFound);
  EXPECT_EQ(store_->FinishGame("g1", NewResults(), 0).code(), store_codes::kBadRecord);

  ASSERT_TRUE(store_->FinishGame("g1", NewResults(), 5).ok());
  EXPECT_EQ(store_->AppendAction("g1", 1, NewAction(1)).code(), store_codes::kGameFinished);
  EXPECT_EQ(store_->FinishGame("g1", NewResults(), 6).code(), store_codes::kGameFinished);
  EXPECT_EQ(store_->LoadGame("g1").value()->finished_unix_ms(), 5);
}

TEST_P(StoreTest, MalformedRecordsAreRefused) {
  GameRecord no_id = NewRecord("");
  EXPECT_EQ(store_->BeginGame(no_id, NewRoom("r")).code(), store_codes::kBadRecord);
  GameRecord with_action = NewRecord("g2");
  *with_action.add_actions() = NewAction(0);
  EXPECT_EQ(store_->BeginGame(with_action, NewRoom("r")).code(), store_codes::kBadRecord);
  GameRecord finished = NewRecord("g3");
  finished.set_finished_unix_ms(9);
  EXPECT_EQ(store_->BeginGame(finished, NewRoom("r")).code(), store_codes::kBadRecord);
  EXPECT_FALSE(store_->LoadGame("g2").value().has_value());

  StoreGame("g4", 0, 0);
  std::vector<SeatResult> twice = NewResults();
  twice[1].set_seat(0);
  EXPECT_EQ(store_->FinishGame("g4", twice, 7).code(), store_codes::kBadRecord);
  // The failed finish was rolled back as a whole: still playing, no results.
  auto loaded = store_->LoadGame("g4").value();
  EXPECT_EQ(loaded->finished_unix_ms(), 0);
  EXPECT_EQ(loaded->results_size(), 0);
  EXPECT_TRUE(store_->FinishGame("g4", NewResults(), 7).ok());
}

TEST_P(StoreTest, LoadUnfinishedReturnsOnlyUnfinishedGamesWithTheirRooms) {
  StoreGame("done", 2, 100);
  GameRecord a = NewRecord("a");
  a.set_started_unix_ms(20);
  GameRecord b = NewRecord("b");
  b.set_started_unix_ms(10);
  RoomRecord room_b = NewRoom("room-b");
  room_b.is_private = false;
  room_b.join_code = "";
  ASSERT_TRUE(store_->BeginGame(a, NewRoom("room-a")).ok());
  ASSERT_TRUE(store_->BeginGame(b, room_b).ok());
  ASSERT_TRUE(store_->AppendAction("a", 0, NewAction(0)).ok());
  *a.add_actions() = NewAction(0);

  auto unfinished = store_->LoadUnfinished();
  ASSERT_TRUE(unfinished.ok()) << unfinished.status().ToString();
  ASSERT_EQ(unfinished.value().size(), 2u);
  // Oldest first.
  const auto& first = unfinished.value()[0];
  const auto& second = unfinished.value()[1];
  EXPECT_TRUE(MessageDifferencer::Equals(first.record, b));
  EXPECT_TRUE(MessageDifferencer::Equals(second.record, a));
  EXPECT_EQ(first.room.room_id, "room-b");
  EXPECT_FALSE(first.room.is_private);
  EXPECT_EQ(first.room.join_code, "");
  const RoomRecord expected_a = NewRoom("room-a");
  EXPECT_EQ(second.room.room_id, expected_a.room_id);
  EXPECT_EQ(second.room.join_code, expected_a.join_code);
  EXPECT_EQ(second.room.is_private, expected_a.is_private);
  EXPECT_EQ(second.room.title, expected_a.title);
  EXPECT_EQ(second.room.host_player_id, expected_a.host_player_id);
  EXPECT_EQ(second.room.seat_player_ids, expected_a.seat_player_ids);
}

TEST_P(StoreTest, SeatListsOfDifferentLengthsRoundTrip) {
  GameRecord record = NewRecord("g");
  record.clear_seat_names();
  record.add_seat_names("only one name");
  RoomRecord room = NewRoom("r");
  room.seat_player_ids = {"p1", "", "p3"};
  ASSERT_TRUE(store_->BeginGame(record, room).ok());
  GameRecord no_players = NewRecord("h");
  RoomRecord empty_room;
  ASSERT_TRUE(store_->BeginGame(no_players, empty_room).ok());

  auto unfinished = store_->LoadUnfinished().value();
  ASSERT_EQ(unfinished.size(), 2u);
  for (const auto& u : unfinished) {
    if (u.record.game_id() == "g") {
      ASSERT_EQ(u.record.seat_names_size(), 1);
      EXPECT_EQ(u.record.seat_names(0), "only one name");
      EXPECT_EQ(u.room.seat_player_ids, room.seat_player_ids);
    } else {
      EXPECT_EQ(u.record.seat_names_size(), 3);
      EXPECT_EQ(u.record.seat_names(2), "");
      EXPECT_TRUE(u.room.seat_player_ids.empty());
      EXPECT_EQ(u.room.room_id, "");
    }
  }
}

// A room's timer, who made each move and the bots standing in come back with an unfinished game:
// what a restart needs to rebuild the clocks and the seats.
TEST_P(StoreTest, TimerOriginsAndStandInsRoundTrip) {
  GameRecord record = NewRecord("t");
  RoomRecord room = NewRoom("room-t");
  v1::TurnTimer timer;
  timer.set_mode(v1::TIMER_CLOCK);
  timer.set_bank_seconds(300);
  timer.set_increment_seconds(10);
  room.timer = timer.SerializeAsString();
  ASSERT_TRUE(store_->BeginGame(record, room).ok());
  ReplayAction by_clock = NewAction(0);
  by_clock.set_origin(v1::ORIGIN_CLOCK);
  ASSERT_TRUE(store_->AppendAction("t", 0, by_clock).ok());
  ReplayAction claimed = NewAction(1);
  claimed.set_origin(v1::ORIGIN_CLAIM);
  ASSERT_TRUE(store_->AppendAction("t", 1, claimed).ok());
  ASSERT_TRUE(store_->SetStandIn("t", 1, v1::BOT_EASY).ok());
  ASSERT_TRUE(store_->SetLeft("t", 1, true).ok());
  ASSERT_TRUE(store_->SetLeft("t", 0, true).ok());
  ASSERT_TRUE(store_->SetLeft("t", 0, false).ok());  // came back
  EXPECT_FALSE(store_->SetLeft("t", 7, true).ok());
  ASSERT_TRUE(store_->RecordResume("t", 2'000, 60'000).ok());
  ASSERT_TRUE(store_->RecordResume("t", 1'000, 30'000).ok());
  EXPECT_FALSE(store_->RecordResume("nope", 1'000, 1).ok());
  EXPECT_FALSE(store_->SetStandIn("t", 7, v1::BOT_EASY).ok());  // no such seat
  EXPECT_FALSE(store_->SetStandIn("nope", 0, v1::BOT_EASY).ok());

  auto unfinished = store_->LoadUnfinished().value();
  ASSERT_EQ(unfinished.size(), 1u);
  const auto& u = unfinished[0];
  v1::TurnTimer loaded;
  ASSERT_TRUE(loaded.ParseFromString(u.room.timer));
  EXPECT_TRUE(MessageDifferencer::Equals(loaded, timer));
  ASSERT_EQ(u.record.actions_size(), 2);
  EXPECT_EQ(u.record.actions(0).origin(), v1::ORIGIN_CLOCK);
  EXPECT_EQ(u.record.actions(1).origin(), v1::ORIGIN_CLAIM);
  ASSERT_EQ(u.room.seat_stand_ins.size(), u.room.seat_player_ids.size());
  EXPECT_EQ(u.room.seat_stand_ins[0], 0);
  EXPECT_EQ(u.room.seat_stand_ins[1], v1::BOT_EASY);
  EXPECT_EQ(u.room.seat_left, (std::vector<bool>{false, true, false}));
  ASSERT_EQ(u.room.resumes.size(), 2u);  // oldest first
  EXPECT_EQ(u.room.resumes[0].at_unix_ms, 1'000);
  EXPECT_EQ(u.room.resumes[0].grace_ms, 30'000);
  EXPECT_EQ(u.room.resumes[1].at_unix_ms, 2'000);

  // Once the game is over its seats no longer change hands.
  ASSERT_TRUE(store_->FinishGame("t", NewResults(), 5).ok());
  EXPECT_FALSE(store_->SetStandIn("t", 1, 0).ok());
  EXPECT_FALSE(store_->SetLeft("t", 1, false).ok());
  EXPECT_FALSE(store_->RecordResume("t", 3'000, 1).ok());
}

// --- Replay lists ---

TEST_P(StoreTest, ListFinishedIsNewestFirstFilteredAndPaged) {
  StoreGame("g-old", 1, 1000, "globalissimo");
  StoreGame("g-mid", 2, 2000, "other");
  StoreGame("g-tie-a", 3, 3000, "globalissimo");
  StoreGame("g-tie-b", 4, 3000, "globalissimo");
  StoreGame("g-new", 5, 4000, "other");
  StoreGame("g-playing", 6, 0, "globalissimo");

  // Ties on the finish time are ordered by game id, descending, so paging is stable.
  EXPECT_EQ(ListIds("", 10, ""),
            (std::vector<std::string>{"g-new", "g-tie-b", "g-tie-a", "g-mid", "g-old"}));
  EXPECT_EQ(ListIds("globalissimo", 10, ""),
            (std::vector<std::string>{"g-tie-b", "g-tie-a", "g-old"}));
  EXPECT_EQ(ListIds("other", 10, ""), (std::vector<std::string>{"g-new", "g-mid"}));
  EXPECT_TRUE(ListIds("chess", 10, "").empty());

  EXPECT_EQ(ListIds("", 2, ""), (std::vector<std::string>{"g-new", "g-tie-b"}));
  EXPECT_EQ(ListIds("", 2, "g-tie-b"), (std::vector<std::string>{"g-tie-a", "g-mid"}));
  EXPECT_EQ(ListIds("", 2, "g-mid"), (std::vector<std::string>{"g-old"}));
  EXPECT_TRUE(ListIds("", 2, "g-old").empty());
  EXPECT_EQ(ListIds("globalissimo", 1, "g-tie-b"), (std::vector<std::string>{"g-tie-a"}));
  EXPECT_TRUE(ListIds("", 0, "").empty());

  auto page = store_->ListFinished("other", 1, "", "p-ada").value();
  ASSERT_EQ(page.size(), 1u);
  EXPECT_EQ(page[0].game(), "other");
  EXPECT_EQ(page[0].finished_unix_ms(), 4000);
  EXPECT_EQ(page[0].steps(), 5u);
  ASSERT_EQ(page[0].results_size(), 3);
  EXPECT_EQ(page[0].results(2).score(), -2);
  EXPECT_EQ(page[0].results(0).detail(), "most cards");
}

TEST_P(StoreTest, ListFinishedRefusesACursorThatIsNotAFinishedGame) {
  StoreGame("done", 1, 10);
  StoreGame("playing", 1, 0);
  EXPECT_EQ(store_->ListFinished("", 5, "nope", "p-ada").status().code(),
            store_codes::kBadCursor);
  EXPECT_EQ(store_->ListFinished("", 5, "playing", "p-ada").status().code(),
            store_codes::kBadCursor);
}

TEST_F(SqliteStoreTest, ListFinishedCapsTheLimit) {
  InsertFinishedGamesDirectly(path_, SqliteStore::kMaxListLimit + 3, "other");
  EXPECT_EQ(store_->ListFinished("", 100000, "", "").value().size(), SqliteStore::kMaxListLimit);
}

// --- Private games ---

TEST_P(StoreTest, PrivateGamesAreListedOnlyToThePlayersSeatedInThem) {
  RoomRecord secret_room = NewRoom("room-secret");
  secret_room.replay_token = "00112233445566778899aabbccddeeff";
  ASSERT_TRUE(store_->BeginGame(NewRecord("secret"), secret_room).ok());
  ASSERT_TRUE(store_->FinishGame("secret", NewResults(), 2000).ok());
  RoomRecord open_room = NewRoom("room-open");
  open_room.is_private = false;
  ASSERT_TRUE(store_->BeginGame(NewRecord("open"), open_room).ok());
  ASSERT_TRUE(store_->FinishGame("open", NewResults(), 1000).ok());

  EXPECT_EQ(ListIds("", 10, "", "p-eve"), std::vector<std::string>{"open"});
  EXPECT_EQ(ListIds("", 10, "", ""), std::vector<std::string>{"open"});
  EXPECT_EQ(ListIds("", 10, "", "p-brahma"), (std::vector<std::string>{"secret", "open"}));
  EXPECT_EQ(ListIds("globalissimo", 10, "", "p-eve"), std::vector<std::string>{"open"});

  auto listed = store_->ListFinished("", 10, "", "p-brahma").value();
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_TRUE(listed[0].is_private());
  EXPECT_EQ(listed[0].replay_token(), secret_room.replay_token);
  EXPECT_FALSE(listed[1].is_private());
  EXPECT_EQ(listed[1].replay_token(), "");

  // A stranger paging from the hidden game learns no more than from an unknown id.
  EXPECT_EQ(store_->ListFinished("", 10, "secret", "p-eve").status().code(),
            store_codes::kBadCursor);
  EXPECT_EQ(ListIds("", 10, "secret", "p-ada"), std::vector<std::string>{"open"});
}

TEST_P(StoreTest, GameAccessNamesThePlayersAndTheToken) {
  EXPECT_FALSE(store_->LoadGameAccess("nope").value().has_value());
  RoomRecord room = NewRoom("room-g");
  room.replay_token = "00112233445566778899aabbccddeeff";
  ASSERT_TRUE(store_->BeginGame(NewRecord("g"), room).ok());

  auto playing = store_->LoadGameAccess("g").value();
  ASSERT_TRUE(playing.has_value());
  EXPECT_FALSE(playing->finished);
  EXPECT_TRUE(playing->is_private);
  EXPECT_EQ(playing->replay_token, room.replay_token);
  EXPECT_EQ(playing->seat_player_ids, room.seat_player_ids);
  // The room comes back after a restart with its token, so its GameOver carries the same one.
  auto unfinished = store_->LoadUnfinished().value();
  ASSERT_EQ(unfinished.size(), 1u);
  EXPECT_EQ(unfinished[0].room.replay_token, room.replay_token);

  ASSERT_TRUE(store_->FinishGame("g", NewResults(), 10).ok());
  EXPECT_TRUE(store_->LoadGameAccess("g").value()->finished);
  // The record itself knows nothing of it: exports are made from it.
  EXPECT_EQ(store_->LoadGame("g").value()->SerializeAsString().find(room.replay_token),
            std::string::npos);
}

// --- Durability ---

TEST_P(StoreTest, EverythingSurvivesCloseAndReopen) {
  ASSERT_TRUE(store_->SavePlayer("token-ada", {"p-ada", "Ada"}).ok());
  GameRecord finished = StoreGame("finished", 12, 500);
  GameRecord playing = StoreGame("playing", 4, 0);
  Reopen();
  EXPECT_EQ(store_->FindPlayer("token-ada").value()->name, "Ada");
  EXPECT_TRUE(MessageDifferencer::Equals(*store_->LoadGame("finished").value(), finished));
  auto unfinished = store_->LoadUnfinished().value();
  ASSERT_EQ(unfinished.size(), 1u);
  EXPECT_TRUE(MessageDifferencer::Equals(unfinished[0].record, playing));
  EXPECT_EQ(unfinished[0].room.room_id, "room-playing");
  // And the log goes on where it stopped.
  EXPECT_EQ(store_->AppendAction("playing", 3, NewAction(3)).code(), store_codes::kDuplicateAction);
  EXPECT_TRUE(store_->AppendAction("playing", 4, NewAction(4)).ok());
}

TEST_P(StoreTest, AcceptedActionsSurviveAProcessThatDiesWithoutClosing) {
  store_.reset();
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // The child writes and dies without any destructor or checkpoint running: only what
    // AppendAction made durable can be found afterwards.
    auto store = OpenStore();
    if (!store.ok()) _exit(2);
    if (!store.value()->BeginGame(NewRecord("g"), NewRoom("r")).ok()) _exit(3);
    for (int i = 0; i < 30; ++i) {
      if (!store.value()->AppendAction("g", i, NewAction(i)).ok()) _exit(4);
    }
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 0);
  Reopen();
  auto loaded = store_->LoadGame("g");
  ASSERT_TRUE(loaded.ok());
  ASSERT_TRUE(loaded.value().has_value());
  ASSERT_EQ(loaded.value()->actions_size(), 30);
  for (int i = 0; i < 30; ++i) {
    EXPECT_TRUE(MessageDifferencer::Equals(loaded.value()->actions(i), NewAction(i))) << i;
  }
}

TEST_P(StoreTest, TwoStoresOnOneFileSeeEachOthersWrites) {
  auto second = OpenStore();
  ASSERT_TRUE(second.ok());
  StoreGame("g", 2, 0);
  EXPECT_EQ(second.value()->AppendAction("g", 1, NewAction(1)).code(),
            store_codes::kDuplicateAction);
  ASSERT_TRUE(second.value()->AppendAction("g", 2, NewAction(2)).ok());
  EXPECT_EQ(store_->LoadGame("g").value()->actions_size(), 3);
}

// The first store knows the game's next index from its own append; the second appended that
// index meanwhile. On SQLite only the (game_no, idx) unique index stands between them; on
// PostgreSQL the second claimed the room when it first wrote to it (a new epoch, as a restarted
// node does), so the first is fenced out of the game altogether.
TEST_P(StoreTest, AnIndexAnotherStoreWroteIsCaughtByTheUniqueIndex) {
  auto second = OpenStore();
  ASSERT_TRUE(second.ok());
  StoreGame("g", 1, 0);
  ASSERT_TRUE(second.value()->AppendAction("g", 1, NewAction(1)).ok());
  EXPECT_EQ(store_->AppendAction("g", 1, NewAction(7)).code(),
            postgres_ ? store_codes::kLeaseLost : store_codes::kDuplicateAction);
  auto record = store_->LoadGame("g").value();
  ASSERT_EQ(record->actions_size(), 2);
  EXPECT_EQ(record->actions(1).seat(), NewAction(1).seat());
  EXPECT_EQ(record->actions(1).text(), NewAction(1).text());
  // Read back after the refusal, the next index is right again (SQLite); the fence still holds
  // (PostgreSQL).
  EXPECT_EQ(store_->AppendAction("g", 2, NewAction(2)).code(),
            postgres_ ? store_codes::kLeaseLost : "");
}

// The newest game deleted by hand leaves its actions behind (no foreign key since 0015; before,
// with foreign keys off, the sqlite3 shell's default); a new game must not take its number and
// inherit them.
TEST_F(SqliteStoreTest, ANewGameNeverTakesTheNumberOfLeftoverActions) {
  StoreGame("old", 3, 0);
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "DELETE FROM games WHERE game_id = 'old'", nullptr, nullptr,
                           nullptr),
              SQLITE_OK);
    sqlite3_close(db);
  }
  ASSERT_TRUE(store_->BeginGame(NewRecord("new"), NewRoom("r")).ok());
  EXPECT_EQ(store_->LoadGame("new").value()->actions_size(), 0);
  EXPECT_TRUE(store_->AppendAction("new", 0, NewAction(0)).ok());
  EXPECT_EQ(store_->LoadGame("new").value()->actions_size(), 1);
}

// No foreign key holds game_actions to games since 0015: the append checks its game itself. A
// game deleted by hand while the store still knows its number takes no action.
TEST_F(SqliteStoreTest, AnActionForAGameDeletedByHandIsRefusedAndNothingIsWritten) {
  StoreGame("g", 2, 0);
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "DELETE FROM games WHERE game_id = 'g'", nullptr, nullptr, nullptr),
            SQLITE_OK);
  EXPECT_EQ(store_->AppendAction("g", 2, NewAction(2)).code(), store_codes::kGameNotFound);
  sqlite3_stmt* count = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT count(*) FROM game_actions", -1, &count, nullptr),
            SQLITE_OK);
  ASSERT_EQ(sqlite3_step(count), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int(count, 0), 2);  // the two written before, nothing more
  sqlite3_finalize(count);
  sqlite3_close(db);
}

// --- Concurrency ---

TEST_P(StoreTest, ConcurrentRoomsAppendWithoutInterference) {
  constexpr int kRooms = 4;
  constexpr int kActions = 40;
  for (int r = 0; r < kRooms; ++r) {
    ASSERT_TRUE(store_->BeginGame(NewRecord("g" + std::to_string(r)), NewRoom("r")).ok());
  }
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int r = 0; r < kRooms; ++r) {
    threads.emplace_back([&, r] {
      const std::string id = "g" + std::to_string(r);
      for (int i = 0; i < kActions; ++i) {
        if (!store_->AppendAction(id, i, NewAction(i)).ok()) ++failures;
        // Readers interleave with the writers.
        if (i % 10 == 0 && !store_->LoadGame(id).ok()) ++failures;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  for (int r = 0; r < kRooms; ++r) {
    auto loaded = store_->LoadGame("g" + std::to_string(r)).value();
    ASSERT_EQ(loaded->actions_size(), kActions);
    for (int i = 0; i < kActions; ++i) EXPECT_EQ(loaded->actions(i).action(), ActionBytes(i));
  }
}

}  // namespace
}  // namespace plateau::server

namespace plateau::server {
namespace {

// --- Batches (group commit) ---

TEST_P(StoreTest, ABatchCommitsTogetherAndARefusedCallInsideItFailsAlone) {
  StoreGame("g1", 1, 0);
  StoreGame("g2", 0, 0);
  ASSERT_TRUE(store_->BeginBatch().ok());
  EXPECT_TRUE(store_->AppendAction("g1", 1, NewAction(1)).ok());
  EXPECT_EQ(store_->AppendAction("g1", 1, NewAction(1)).code(), store_codes::kDuplicateAction);
  EXPECT_TRUE(store_->AppendAction("g2", 0, NewAction(0)).ok());
  // A call with its own transaction (results) nests as a savepoint; its refusal undoes only it.
  EXPECT_EQ(store_->FinishGame("nope", NewResults(), 5).code(), store_codes::kGameNotFound);
  // Refused before anything is sent, so never a failed statement that would take the batch along.
  std::vector<SeatResult> twice = NewResults();
  twice[2].set_seat(1);
  EXPECT_EQ(store_->FinishGame("g1", twice, 6).code(), store_codes::kBadRecord);
  EXPECT_TRUE(store_->FinishGame("g2", NewResults(), 7).ok());
  ASSERT_TRUE(store_->CommitBatch().ok());
  Reopen();
  auto g1 = store_->LoadGame("g1");
  ASSERT_TRUE(g1.ok() && g1.value().has_value());
  EXPECT_EQ(g1.value()->actions_size(), 2);
  EXPECT_EQ(g1.value()->finished_unix_ms(), 0);
  EXPECT_EQ(g1.value()->results_size(), 0);
  auto g2 = store_->LoadGame("g2");
  ASSERT_TRUE(g2.ok() && g2.value().has_value());
  EXPECT_EQ(g2.value()->actions_size(), 1);
  EXPECT_EQ(g2.value()->finished_unix_ms(), 7);
}

// Appends of a batch go out together (one statement on PostgreSQL): every byte of an action and
// every character of its text comes back, the quotes, backslashes, braces and commas an array
// literal would mangle, an empty action, and several games' appends, each in its game's order.
TEST_P(StoreTest, ABatchOfAppendsKeepsEveryByteAndCharacter) {
  StoreGame("g1", 0, 0);
  StoreGame("g2", 0, 0);
  std::vector<ReplayAction> sent;
  for (int i = 0; i < 6; ++i) {
    ReplayAction a = NewAction(i);
    if (i == 1) a.set_text("say \"hi\", {x} \\ back; Ünïcødé ✓, NULL");
    if (i == 2) a.set_action("");
    if (i == 3) a.set_action(std::string("\x00\\\"{},", 6));
    if (i == 4) a.set_text("");
    a.set_origin(static_cast<v1::ActionOrigin>(i % 3));
    sent.push_back(a);
  }
  ASSERT_TRUE(store_->BeginBatch().ok());
  for (int i = 0; i < 6; ++i) {
    EXPECT_TRUE(store_->AppendAction(i % 2 == 0 ? "g1" : "g2", i / 2, sent[i]).ok()) << i;
  }
  ASSERT_TRUE(store_->CommitBatch().ok());
  Reopen();
  for (int g = 0; g < 2; ++g) {
    auto loaded = store_->LoadGame(g == 0 ? "g1" : "g2");
    ASSERT_TRUE(loaded.ok() && loaded.value().has_value());
    ASSERT_EQ(loaded.value()->actions_size(), 3);
    for (int k = 0; k < 3; ++k) {
      EXPECT_TRUE(MessageDifferencer::Equals(loaded.value()->actions(k), sent[2 * k + g]))
          << "game " << g << " action " << k << ": " << loaded.value()->actions(k).DebugString();
    }
  }
}

TEST_P(StoreTest, ARolledBackBatchLeavesNothing) {
  StoreGame("g1", 1, 0);
  ASSERT_TRUE(store_->BeginBatch().ok());
  EXPECT_TRUE(store_->AppendAction("g1", 1, NewAction(1)).ok());
  EXPECT_TRUE(store_->SavePlayer("token-x", StoredPlayer{"p-x", "X"}).ok());
  store_->RollbackBatch();
  Reopen();
  auto g1 = store_->LoadGame("g1");
  ASSERT_TRUE(g1.ok() && g1.value().has_value());
  EXPECT_EQ(g1.value()->actions_size(), 1);
  auto found = store_->FindPlayer("token-x");
  ASSERT_TRUE(found.ok());
  EXPECT_FALSE(found.value().has_value());
  // The connection is usable again, in and out of batches.
  EXPECT_TRUE(store_->AppendAction("g1", 1, NewAction(1)).ok());
}

// The store keeps each playing game's next index from its own appends rather than reading it
// back every time: what a rolled-back batch appended is forgotten, what a committed one appended
// is known, and a finished game takes nothing more, all on one open store.
TEST_P(StoreTest, TheNextIndexItKeepsFollowsCommitsRollbacksAndTheFinish) {
  StoreGame("g1", 1, 0);
  ASSERT_TRUE(store_->BeginBatch().ok());
  EXPECT_TRUE(store_->AppendAction("g1", 1, NewAction(1)).ok());
  EXPECT_EQ(store_->AppendAction("g1", 3, NewAction(3)).code(), store_codes::kActionGap);
  store_->RollbackBatch();
  EXPECT_EQ(store_->AppendAction("g1", 2, NewAction(2)).code(), store_codes::kActionGap);
  ASSERT_TRUE(store_->BeginBatch().ok());
  EXPECT_TRUE(store_->AppendAction("g1", 1, NewAction(1)).ok());
  EXPECT_TRUE(store_->AppendAction("g1", 2, NewAction(2)).ok());
  ASSERT_TRUE(store_->CommitBatch().ok());
  EXPECT_EQ(store_->AppendAction("g1", 2, NewAction(2)).code(), store_codes::kDuplicateAction);
  EXPECT_EQ(store_->AppendAction("g1", 4, NewAction(4)).code(), store_codes::kActionGap);
  EXPECT_TRUE(store_->AppendAction("g1", 3, NewAction(3)).ok());
  ASSERT_TRUE(store_->FinishGame("g1", NewResults(), 9).ok());
  EXPECT_EQ(store_->AppendAction("g1", 4, NewAction(4)).code(), store_codes::kGameFinished);
  auto g1 = store_->LoadGame("g1");
  ASSERT_TRUE(g1.ok() && g1.value().has_value());
  ASSERT_EQ(g1.value()->actions_size(), 4);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(g1.value()->actions(i).action(), ActionBytes(i));
}

TEST_F(SqliteStoreTest, ProcessDurabilityOpensTheSameFile) {
  StoreGame("g1", 2, 0);
  store_.reset();
  auto opened = SqliteStore::Open(path_, SqliteStore::Durability::kProcess);
  ASSERT_TRUE(opened.ok()) << opened.status().ToString();
  auto g1 = opened.value()->LoadGame("g1");
  ASSERT_TRUE(g1.ok() && g1.value().has_value());
  EXPECT_EQ(g1.value()->actions_size(), 2);
  EXPECT_TRUE(opened.value()->AppendAction("g1", 2, NewAction(2)).ok());
}


// The WAL is copied back by the checkpointer's thread once it passes its threshold, and started
// over between two commits: a second stretch of commits as long as the first reuses the file
// instead of doubling it. Everything written reads back after a reopen.
TEST_F(SqliteStoreTest, CheckpointerKeepsTheWalShort) {
  store_.reset();
  auto opened = SqliteStore::Open(path_, SqliteStore::Durability::kMachine, /*pages=*/8);
  ASSERT_TRUE(opened.ok()) << opened.status().ToString();
  const storage::Checkpointer* checkpointer = opened.value()->checkpointer();
  store_ = std::move(opened.value());
  ASSERT_NE(checkpointer, nullptr);
  ASSERT_TRUE(store_->BeginGame(NewRecord("g1", "globalissimo"), NewRoom("room-g1")).ok());
  const std::string wal = path_ + "-wal";
  int next = 0;
  // Commits 40 actions one at a time, then one more every 20 ms until the WAL has been started
  // over `restarts` times (back to back, the commits leave the checkpointer no gap to do it in).
  auto write_until = [&](uint64_t restarts) {
    for (int i = 0; i < 40; ++i, ++next) {
      ASSERT_TRUE(store_->AppendAction("g1", static_cast<uint32_t>(next), NewAction(next)).ok());
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (checkpointer->restarts() < restarts && std::chrono::steady_clock::now() < deadline) {
      ASSERT_TRUE(store_->AppendAction("g1", static_cast<uint32_t>(next), NewAction(next)).ok());
      ++next;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ASSERT_GE(checkpointer->restarts(), restarts);
  };
  write_until(1);
  const auto first = std::filesystem::file_size(wal);
  // A stretch as long as the first adds little to a file that is reused. A checkpointer starved
  // of CPU (a loaded machine, the sanitizers) can lag through one stretch and let the file grow;
  // one that never starts the WAL over lets it grow by a stretch's worth every time.
  auto before = first;
  auto after = first;
  for (int stretch = 0; stretch < 3; ++stretch) {
    before = std::filesystem::file_size(wal);
    write_until(checkpointer->restarts() + 1);
    after = std::filesystem::file_size(wal);
    if (after < before + first / 2) break;
  }
  EXPECT_LT(after, before + first / 2) << "the WAL was not started over in three stretches";
  EXPECT_GE(checkpointer->complete_runs(), 2u);

  store_.reset();
  Reopen();
  auto g1 = store_->LoadGame("g1");
  ASSERT_TRUE(g1.ok() && g1.value().has_value());
  ASSERT_EQ(g1.value()->actions_size(), next);
  for (int i = 0; i < next; ++i) EXPECT_EQ(g1.value()->actions(i).action(), ActionBytes(i));
}

}  // namespace
}  // namespace plateau::server

namespace plateau::server {
namespace {

INSTANTIATE_TEST_SUITE_P(Stores, StoreTest, ::testing::Values("sqlite", "postgres"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace plateau::server
