// Rooms run by one node at a time on PostgreSQL (docs/multinode.md, section 2): claims, the fence
// in every write to a game's log, a fenced append failing alone in its batch, lease renewal, and
// a node that stops writing by itself once it could not renew. Two stores with different node
// names on one database stand for two nodes.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "server/storage/pg_store.h"
#include "server/storage/pg_util.h"
#include "server/storage/store_rules.h"
#include "tests/server/pg_test_server.h"

namespace plateau::server {
namespace {

using namespace std::chrono_literals;
using plateau::v1::GameRecord;
using plateau::v1::ReplayAction;

GameRecord Record(const std::string& game_id) {
  GameRecord r;
  r.set_game_id(game_id);
  r.set_game("globalissimo");
  r.set_seed(7);
  r.add_seat_names("Ada");
  r.add_seat_names("Bo");
  r.set_started_unix_ms(1'700'000'000'000);
  return r;
}

RoomRecord Room(const std::string& room_id) {
  RoomRecord room;
  room.room_id = room_id;
  room.join_code = "K7Q2";
  room.host_player_id = "p-ada";
  room.seat_player_ids = {"p-ada", "p-bo"};
  return room;
}

ReplayAction Action(int i) {
  ReplayAction a;
  a.set_seat(i % 2);
  a.set_action("move " + std::to_string(i));
  a.set_at_unix_ms(1'700'000'000'000 + i);
  return a;
}

bool LeaseLost(const Status& st) { return st.code() == store_codes::kLeaseLost; }

class OwnershipTest : public ::testing::Test {
 protected:
  void SetUp() override {
    conninfo_ = testing::NewTestDatabase();
    ASSERT_FALSE(conninfo_.empty());
    auto admin = pg::Connect(conninfo_);
    ASSERT_TRUE(admin.ok()) << admin.status().ToString();
    admin_ = std::move(admin.value());
  }
  std::unique_ptr<PgStore> Node(const std::string& name,
                                std::chrono::milliseconds lease = 10000ms) {
    PgStore::Options options;
    options.node = name;
    options.address = name + ".nodes:8080";
    options.lease = lease;
    auto store = PgStore::Open(conninfo_, options);
    EXPECT_TRUE(store.ok()) << store.status().ToString();
    return store.ok() ? std::move(store.value()) : nullptr;
  }
  // What a node paused or cut off past its lease leaves: the lease of the room's node, which is
  // the room's, run out long ago.
  void Expire(const std::string& room_id) {
    auto r = pg::Query(admin_.get(),
                       "UPDATE nodes SET expires_unix_ms = 0 WHERE node = "
                       "(SELECT node FROM room_owners WHERE room_id = $1)",
                       {room_id}, "expiring a lease");
    ASSERT_TRUE(r.ok()) << r.status().ToString();
  }
  // A node dead just now: its lease, its rooms' too, ran out a moment ago (not over a lease
  // ago, so its transactions are waited for, and only its share of the rooms is each node's).
  void ExpiredAMomentAgo(const std::string& node) {
    auto r = pg::Query(admin_.get(),
                       "UPDATE nodes SET expires_unix_ms = " PLATEAU_PG_NOW_MS
                       " - 1 WHERE node = $1",
                       {node}, "expiring a lease");
    ASSERT_TRUE(r.ok()) << r.status().ToString();
  }
  std::string Sql(const std::string& sql, const std::vector<pg::Param>& params = {}) {
    auto r = pg::Query(admin_.get(), sql, params, "reading");
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    if (!r.ok() || PQntuples(r.value().get()) == 0) return "";
    return PQgetvalue(r.value().get(), 0, 0);
  }
  int Actions(const std::string& game_id) {
    return std::stoi(Sql("SELECT count(*) FROM game_actions a JOIN games g USING (game_no) "
                         "WHERE g.game_id = $1",
                         {game_id}));
  }

  // Nodes a, b and c, all alive, and `rooms` games a runs (rooms r0.., games g0..), each with
  // `actions` actions.
  void ThreeNodes(int rooms, int actions) {
    a_ = Node("a"), b_ = Node("b"), c_ = Node("c");
    ASSERT_TRUE(a_ && b_ && c_);
    for (int i = 0; i < rooms; ++i) {
      const std::string n = std::to_string(i);
      ASSERT_TRUE(a_->BeginGame(Record("g" + n), Room("r" + n)).ok());
      for (int k = 0; k < actions; ++k) ASSERT_TRUE(a_->AppendAction("g" + n, k, Action(k)).ok());
    }
    ASSERT_TRUE(a_->RenewLeases().ok() && b_->RenewLeases().ok() && c_->RenewLeases().ok());
  }
  // b and c take a's rooms over: each some, together all of them. Returns c's.
  std::vector<Store::Unfinished> SharedByBAndC(int rooms) {
    auto by_b = b_->TakeOver();
    auto by_c = c_->TakeOver();
    EXPECT_TRUE(by_b.ok() && by_c.ok());
    if (!by_b.ok() || !by_c.ok()) return {};
    EXPECT_GT(by_b.value().size(), 0u);
    EXPECT_GT(by_c.value().size(), 0u);
    EXPECT_EQ(by_b.value().size() + by_c.value().size(), static_cast<size_t>(rooms));
    EXPECT_EQ(Sql("SELECT count(*) FROM room_owners WHERE node = 'a'"), "0");
    return std::move(by_c.value());
  }

  std::string conninfo_;
  pg::Connection admin_;
  std::unique_ptr<PgStore> a_, b_, c_;
};

TEST_F(OwnershipTest, AnotherNodesLiveLeaseKeepsItsRoom) {
  auto a = Node("a"), b = Node("b");
  ASSERT_TRUE(a && b);
  ASSERT_TRUE(a->BeginGame(Record("g1"), Room("r1")).ok());
  EXPECT_EQ(Sql("SELECT node || ' ' || epoch FROM room_owners WHERE room_id = 'r1'"), "a 1");
  // B may neither start a game in A's room nor write to A's game.
  EXPECT_TRUE(LeaseLost(b->BeginGame(Record("g2"), Room("r1"))));
  EXPECT_TRUE(LeaseLost(b->AppendAction("g1", 0, Action(0))));
  EXPECT_TRUE(LeaseLost(b->SetLeft("g1", 0, true)));
  ASSERT_TRUE(a->AppendAction("g1", 0, Action(0)).ok());
  EXPECT_EQ(Actions("g1"), 1);
  EXPECT_EQ(Sql("SELECT count(*) FROM games WHERE game_id = 'g2'"), "0");
  // A restart of B finds nothing of A's to restore.
  auto unfinished = b->LoadUnfinished();
  ASSERT_TRUE(unfinished.ok());
  EXPECT_TRUE(unfinished.value().empty());
}

TEST_F(OwnershipTest, ARoomTakenOverTakesNothingMoreFromItsOldOwner) {
  auto a = Node("a"), b = Node("b");
  ASSERT_TRUE(a && b);
  ASSERT_TRUE(a->BeginGame(Record("g1"), Room("r1")).ok());
  ASSERT_TRUE(a->AppendAction("g1", 0, Action(0)).ok());
  Expire("r1");
  auto taken = b->LoadUnfinished();
  ASSERT_TRUE(taken.ok()) << taken.status().ToString();
  ASSERT_EQ(taken.value().size(), 1u);
  EXPECT_EQ(taken.value()[0].record.actions_size(), 1);
  EXPECT_EQ(Sql("SELECT node || ' ' || epoch FROM room_owners WHERE room_id = 'r1'"), "b 2");
  // A wakes up: every write to the game is refused, and nothing of it lands.
  EXPECT_TRUE(LeaseLost(a->AppendAction("g1", 1, Action(1))));
  EXPECT_TRUE(LeaseLost(a->TakeBackAction("g1", 0, 1'700'000'000'100)));
  EXPECT_TRUE(LeaseLost(a->SetStandIn("g1", 0, 1)));
  EXPECT_TRUE(LeaseLost(a->RecordResume("g1", 1'700'000'000'200, 1000)));
  EXPECT_TRUE(LeaseLost(a->FinishGame("g1", {}, 1'700'000'000'300)));
  EXPECT_EQ(Actions("g1"), 1);
  // The new owner goes on from where the log stands.
  ASSERT_TRUE(b->AppendAction("g1", 1, Action(1)).ok());
  ASSERT_TRUE(b->FinishGame("g1", {}, 1'700'000'000'400).ok());
  auto loaded = b->LoadGame("g1");
  ASSERT_TRUE(loaded.ok() && loaded.value().has_value());
  EXPECT_EQ(loaded.value()->actions_size(), 2);
  EXPECT_EQ(loaded.value()->finished_unix_ms(), 1'700'000'000'400);
}

TEST_F(OwnershipTest, AFencedAppendFailsAloneInItsBatch) {
  auto a = Node("a"), b = Node("b");
  ASSERT_TRUE(a && b);
  ASSERT_TRUE(a->BeginGame(Record("g1"), Room("r1")).ok());
  ASSERT_TRUE(a->BeginGame(Record("g2"), Room("r2")).ok());
  // A paused past its lease: B claims r1, then A is back and renews; r2 is still A's.
  Expire("r1");
  ASSERT_TRUE(b->ClaimRoom("r1").ok());
  ASSERT_TRUE(a->RenewLeases().ok());
  ASSERT_TRUE(a->BeginBatch().ok());
  a->StartCall(0);
  EXPECT_TRUE(a->AppendAction("g1", 0, Action(0)).ok());  // settled only at the commit
  a->StartCall(1);
  EXPECT_TRUE(a->AppendAction("g2", 0, Action(0)).ok());
  ASSERT_TRUE(a->CommitBatch().ok());
  EXPECT_TRUE(LeaseLost(a->CallOutcome(0))) << a->CallOutcome(0).ToString();
  EXPECT_TRUE(a->CallOutcome(1).ok());
  EXPECT_EQ(Actions("g1"), 0);
  EXPECT_EQ(Actions("g2"), 1);
  // A does not count the refused append as written: its next try is refused the same way, not
  // taken for a gap in the log.
  EXPECT_TRUE(LeaseLost(a->AppendAction("g1", 0, Action(0))));
  EXPECT_TRUE(a->AppendAction("g2", 1, Action(1)).ok());
  EXPECT_TRUE(b->AppendAction("g1", 0, Action(0)).ok());
}

// The race the fence exists for: a node's lease runs out while a batch of its is in flight.
// The claim of its room waits for that batch's commit and then reads its action in the log;
// the node writes nothing to the room after that.
TEST_F(OwnershipTest, ATakeoverWaitsForTheBatchInFlightOfTheNodeItTakesFrom) {
  auto a = Node("a"), b = Node("b");
  ASSERT_TRUE(a && b);
  ASSERT_TRUE(a->BeginGame(Record("g1"), Room("r1")).ok());
  ASSERT_TRUE(a->AppendAction("g1", 0, Action(0)).ok());
  ASSERT_TRUE(a->BeginBatch().ok());
  a->StartCall(0);
  ASSERT_TRUE(a->AppendAction("g1", 1, Action(1)).ok());
  // A read in the batch sends what it queued: the append has run, uncommitted.
  ASSERT_TRUE(a->FindOwner("r1").ok());
  ExpiredAMomentAgo("a");
  ASSERT_TRUE(b->RenewLeases().ok());
  std::atomic<bool> done = false;
  StatusOr<std::vector<Store::Unfinished>> taken = std::vector<Store::Unfinished>();
  std::thread takeover([&] {
    taken = b->TakeOver();
    done = true;
  });
  // Until b's claim is seen waiting for a's lock (or it is done, which it must not be).
  for (int i = 0; i < 500 && !done; ++i) {
    if (Sql("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted") == "1") {
      break;
    }
    std::this_thread::sleep_for(10ms);
  }
  EXPECT_FALSE(done) << "the claim went ahead of the batch in flight";
  ASSERT_TRUE(a->CommitBatch().ok());
  EXPECT_TRUE(a->CallOutcome(0).ok()) << a->CallOutcome(0).ToString();
  takeover.join();
  ASSERT_TRUE(taken.ok()) << taken.status().ToString();
  ASSERT_EQ(taken.value().size(), 1u);
  EXPECT_EQ(taken.value()[0].record.actions_size(), 2);
  EXPECT_EQ(Sql("SELECT node || ' ' || epoch FROM room_owners WHERE room_id = 'r1'"), "b 2");
  ASSERT_TRUE(a->RenewLeases().ok());
  EXPECT_TRUE(LeaseLost(a->AppendAction("g1", 2, Action(2))));
  EXPECT_TRUE(b->AppendAction("g1", 2, Action(2)).ok());
  EXPECT_EQ(Actions("g1"), 3);
}

// A node paused or cut off halfway through sending a batch holds its lock with no Sync sent, so
// no idle timeout ends its transaction. Once its lease ran out over a lease ago, the takeover
// ends that transaction (nothing in it was acknowledged) rather than wait on it.
TEST_F(OwnershipTest, ATakeoverEndsATransactionLeftHalfSentByANodeLongDead) {
  auto a = Node("a"), b = Node("b");
  ASSERT_TRUE(a && b);
  ASSERT_TRUE(a->BeginGame(Record("g1"), Room("r1")).ok());
  ASSERT_TRUE(a->AppendAction("g1", 0, Action(0)).ok());
  auto stuck = pg::Connect(conninfo_);
  ASSERT_TRUE(stuck.ok()) << stuck.status().ToString();
  ASSERT_TRUE(pg::Exec(stuck.value().get(),
                       "BEGIN; SELECT pg_advisory_xact_lock_shared(" PLATEAU_PG_NODE_LOCK_KEY("'a'") ")",
                       "holding a's lock")
                  .ok());
  Expire("r1");
  ASSERT_TRUE(b->RenewLeases().ok());
  auto taken = b->TakeOver();
  ASSERT_TRUE(taken.ok()) << taken.status().ToString();
  ASSERT_EQ(taken.value().size(), 1u);
  EXPECT_EQ(taken.value()[0].record.actions_size(), 1);
  EXPECT_EQ(Sql("SELECT node || ' ' || epoch FROM room_owners WHERE room_id = 'r1'"), "b 2");
  EXPECT_FALSE(pg::Exec(stuck.value().get(), "SELECT 1", "after the takeover").ok())
      << "the half-sent transaction is still open";
}

// game_actions has no foreign key on PostgreSQL (0015): the append itself writes only for a game
// of the room it is fenced to.
TEST_F(OwnershipTest, AnAppendIsWrittenOnlyForAGameOfItsFencedRoom) {
  auto a = Node("a");
  ASSERT_TRUE(a);
  ASSERT_TRUE(a->BeginGame(Record("g1"), Room("r1")).ok());
  ASSERT_TRUE(a->BeginGame(Record("g2"), Room("r2")).ok());
  ASSERT_TRUE(a->AppendAction("g1", 0, Action(0)).ok());
  EXPECT_EQ(Sql("SELECT count(*) FROM information_schema.table_constraints WHERE "
                "table_name = 'game_actions' AND constraint_type = 'FOREIGN KEY'"),
            "0");
  // g1's row moved to r2 behind the store's back: the room a fences (r1) no longer holds it.
  Sql("UPDATE games SET room_id = 'r2' WHERE game_id = 'g1' RETURNING 1");
  EXPECT_TRUE(LeaseLost(a->AppendAction("g1", 1, Action(1))));
  // And a game gone altogether takes no action either.
  Sql("DELETE FROM games WHERE game_id = 'g2' RETURNING 1");
  EXPECT_FALSE(a->AppendAction("g2", 0, Action(0)).ok());
  EXPECT_EQ(Sql("SELECT count(*) FROM game_actions"), "1");
}

TEST_F(OwnershipTest, RenewalKeepsTheLeaseAndANodeThatCannotRenewStopsWriting) {
  auto a = Node("a", 1000ms);
  ASSERT_TRUE(a);
  ASSERT_TRUE(a->RenewLeases().ok());
  EXPECT_EQ(Sql("SELECT count(*) FROM nodes WHERE node = 'a'"), "1");
  ASSERT_TRUE(a->BeginGame(Record("g1"), Room("r1")).ok());
  // The node's row is its rooms' lease: renewing it renews them all.
  const std::string lease = "SELECT expires_unix_ms FROM nodes WHERE node = 'a'";
  const int64_t before = std::stoll(Sql(lease));
  std::this_thread::sleep_for(50ms);
  ASSERT_TRUE(a->RenewLeases().ok());
  EXPECT_GT(std::stoll(Sql(lease)), before);
  ASSERT_TRUE(a->AppendAction("g1", 0, Action(0)).ok());
  // Past four fifths of its lease without renewing, A writes nothing, though the database
  // would still let it: it fences itself before any other node may take the room.
  std::this_thread::sleep_for(850ms);
  EXPECT_TRUE(LeaseLost(a->AppendAction("g1", 1, Action(1))));
  EXPECT_EQ(Actions("g1"), 1);
  ASSERT_TRUE(a->RenewLeases().ok());
  EXPECT_TRUE(a->AppendAction("g1", 1, Action(1)).ok());
}

// A dead node's rooms are shared among the nodes alive, each claiming its share once; a room left
// expired for more than a lease goes to whichever node looks first.
TEST_F(OwnershipTest, ADeadNodesRoomsAreSharedAmongTheLiveOnes) {
  constexpr int kRooms = 12;
  ASSERT_NO_FATAL_FAILURE(ThreeNodes(kRooms, 1));
  auto none = b_->TakeOver();
  ASSERT_TRUE(none.ok()) << none.status().ToString();
  EXPECT_TRUE(none.value().empty()) << "a's leases still hold";
  // a dies.
  ExpiredAMomentAgo("a");
  const std::vector<Store::Unfinished> by_c = SharedByBAndC(kRooms);
  ASSERT_FALSE(by_c.empty());
  for (const auto& taken : by_c) EXPECT_EQ(taken.record.actions_size(), 1);
  // Nothing is taken twice, and the new owners write on.
  auto again = b_->TakeOver();
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(again.value().empty());
  const std::string game = by_c.front().record.game_id();
  EXPECT_TRUE(c_->AppendAction(game, 1, Action(1)).ok());
  EXPECT_TRUE(LeaseLost(b_->AppendAction(game, 2, Action(2))));
  // c dies too, long ago: b takes all of c's rooms, its share or not.
  Sql("UPDATE nodes SET expires_unix_ms = 0 WHERE node = 'c' RETURNING 1");
  auto rest = b_->TakeOver();
  ASSERT_TRUE(rest.ok());
  EXPECT_EQ(rest.value().size(), by_c.size());
  EXPECT_EQ(Sql("SELECT count(*) FROM room_owners WHERE node = 'b'"), std::to_string(kRooms));
}

// A node stopping gracefully gives its rooms up at once: the live nodes share them without
// waiting a lease out, and the stopping node neither writes nor renews them again.
TEST_F(OwnershipTest, AStoppingNodeHandsItsRoomsOverAtOnce) {
  constexpr int kRooms = 8;
  ASSERT_NO_FATAL_FAILURE(ThreeNodes(kRooms, 0));
  ASSERT_TRUE(a_->HandOver().ok());
  EXPECT_TRUE(LeaseLost(a_->AppendAction("g0", 0, Action(0))));
  ASSERT_TRUE(a_->RenewLeases().ok());  // takes nothing back
  SharedByBAndC(kRooms);
  EXPECT_EQ(Actions("g0"), 0);
}

TEST_F(OwnershipTest, ARestartedNodeTakesItsRoomsBackAtOnce) {
  auto a = Node("a");
  ASSERT_TRUE(a);
  ASSERT_TRUE(a->BeginGame(Record("g1"), Room("r1")).ok());
  ASSERT_TRUE(a->AppendAction("g1", 0, Action(0)).ok());
  a.reset();
  auto again = Node("a");
  ASSERT_TRUE(again);
  auto restored = again->LoadUnfinished();
  ASSERT_TRUE(restored.ok());
  ASSERT_EQ(restored.value().size(), 1u);
  EXPECT_EQ(Sql("SELECT node || ' ' || epoch FROM room_owners WHERE room_id = 'r1'"), "a 2");
  EXPECT_TRUE(again->AppendAction("g1", 1, Action(1)).ok());
}

TEST_F(OwnershipTest, ARoomIsItsNodesFromItsOpeningAndTheOthersFindIt) {
  auto a = Node("a"), b = Node("b");
  ASSERT_TRUE(a && b);
  ASSERT_TRUE(a->RenewLeases().ok() && b->RenewLeases().ok());
  // Opened on a, before any game: b finds a's address, a finds no other node.
  ASSERT_TRUE(a->ClaimRoom("r1").ok());
  EXPECT_EQ(b->FindOwner("r1").value().address, "a.nodes:8080");
  EXPECT_EQ(a->FindOwner("r1").value().address, "");
  EXPECT_TRUE(a->FindOwner("r1").value().known);
  EXPECT_FALSE(b->FindOwner("r9").value().known);
  EXPECT_TRUE(LeaseLost(b->ClaimRoom("r1")));
  // Its game begins and ends: the room stays a's (a rematch may follow) until it closes.
  ASSERT_TRUE(a->BeginGame(Record("g1"), Room("r1")).ok());
  ASSERT_TRUE(a->FinishGame("g1", {}, 1'700'000'100'000).ok());
  EXPECT_EQ(b->FindOwner("r1").value().address, "a.nodes:8080");
  ASSERT_TRUE(a->ReleaseRoom("r1").ok());
  EXPECT_FALSE(b->FindOwner("r1").value().known);
  EXPECT_EQ(Sql("SELECT count(*) FROM room_owners"), "0");
  // A dead node's room is known but run by nobody (another may take it over); without a game
  // in play it is forgotten, not taken over.
  ASSERT_TRUE(a->ClaimRoom("r2").ok());
  Sql("UPDATE nodes SET expires_unix_ms = 0 WHERE node = 'a'");
  EXPECT_EQ(b->FindOwner("r2").value().address, "");
  EXPECT_TRUE(b->FindOwner("r2").value().known);
  Expire("r2");
  EXPECT_TRUE(b->TakeOver().value().empty());
  EXPECT_EQ(Sql("SELECT count(*) FROM room_owners"), "0");
}

TEST_F(OwnershipTest, ARestartedNodeForgetsTheRoomsItHadOpenWithoutAGame) {
  auto a = Node("a");
  ASSERT_TRUE(a);
  ASSERT_TRUE(a->ClaimRoom("idle").ok());
  ASSERT_TRUE(a->BeginGame(Record("g1"), Room("busy")).ok());
  a.reset();
  auto again = Node("a");
  ASSERT_TRUE(again);
  auto back = again->LoadUnfinished();
  ASSERT_TRUE(back.ok());
  ASSERT_EQ(back.value().size(), 1u);
  EXPECT_EQ(Sql("SELECT string_agg(room_id, ',') FROM room_owners"), "busy");
}

}  // namespace
}  // namespace plateau::server
