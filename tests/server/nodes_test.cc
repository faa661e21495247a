// Several nodes on one PostgreSQL database (started by the test), over loopback: a client that
// reaches node A for a room node B runs is carried to B over a link and plays there; what it
// receives is what B's own clients receive, byte for byte, and its view is B's own for its seat;
// a room asked for by id or by its code alone on the wrong node is refused with room_moved; a
// link without the cluster's secret is refused; the public room list, a player's games, his open
// rooms and an address's wrong codes are the same on every node.
#include <gtest/gtest.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/write.hpp>
#include <set>

#include "engine/core/game.h"
#include "server/storage/pg_listing_feed.h"
#include "server/storage/pg_store.h"
#include "tests/server/pg_test_server.h"
#include "test_support.h"

namespace plateau::server::testing {
namespace {

constexpr const char* kSecret = "a-secret-the-nodes-share-0123";

v1::ClientMessage CreateGlobalissimo(bool is_private) {
  v1::ClientMessage m;
  auto* c = m.mutable_create_room();
  c->set_game("globalissimo");
  c->set_is_private(is_private);
  c->set_seats(2);
  plateau::games::globalissimo::Options options;
  options.set_rounds(1);
  c->set_options(options.SerializeAsString());
  return m;
}

std::string Code(const v1::ServerMessage& m) { return m.has_error() ? m.error().code() : ""; }

// A loopback port free now (the node's address must be known before it listens).
uint16_t FreePort() {
  boost::asio::io_context ioc;
  boost::asio::ip::tcp::acceptor a(ioc, {boost::asio::ip::make_address("127.0.0.1"), 0});
  return a.local_endpoint().port();
}

// A node as the binary runs one on PostgreSQL: the server and its share of the room list.
struct RunningNode {
  std::unique_ptr<TestServer> server;
  std::unique_ptr<PgListingFeed> room_list;
  RunningNode() = default;
  RunningNode(RunningNode&&) = default;
  RunningNode& operator=(RunningNode&& other) {
    Shut();
    server = std::move(other.server);
    room_list = std::move(other.room_list);
    return *this;
  }
  ~RunningNode() { Shut(); }
  TestServer* operator->() const { return server.get(); }
  explicit operator bool() const { return server != nullptr; }

 private:
  // As main() does: the feed's thread (which calls into the lobby) stopped first, then the
  // server's threads, whose rooms may still publish to the feed as their players detach, and
  // only then the feed itself.
  void Shut() {
    if (room_list) room_list->Stop();
    server.reset();
    room_list.reset();
  }
};

class NodesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    conninfo_ = NewTestDatabase();
    if (conninfo_.empty()) GTEST_SKIP() << "no PostgreSQL server";
  }

  RunningNode Node(const std::string& name, const std::string& secret = kSecret,
                   ClientLimits limits = TestLimits()) {
    const uint16_t port = FreePort();
    PgStore::Options pg;
    pg.node = name;
    pg.address = "127.0.0.1:" + std::to_string(port);
    pg.lease = std::chrono::milliseconds(3000);
    auto store = PgStore::Open(conninfo_, pg);
    EXPECT_TRUE(store.ok()) << store.status().ToString();
    if (!store.ok()) return {};
    ServerOptions options;
    options.port = port;
    options.client_limits = limits;
    options.renew_leases_every = std::chrono::milliseconds(1000);
    options.link_secret = secret;
    RunningNode node;
    node.server = std::make_unique<TestServer>(std::move(store).value(), std::move(options));
    EXPECT_EQ(node->port(), port);
    Lobby& lobby = node->server().lobby();
    node.room_list = std::make_unique<PgListingFeed>(
        conninfo_, name, pg.lease, [&lobby](std::vector<PgListingFeed::Line> lines, bool all) {
          lobby.ApplyRemoteListings(lines, all);
        });
    lobby.SetListingSink([feed = node.room_list.get()](const std::string& room_id,
                                                       std::optional<std::string> info) {
      feed->Publish(room_id, std::move(info));
    });
    node.room_list->Start();
    return node;
  }

  std::unique_ptr<TestClient> Hello(uint16_t port, const std::string& name,
                                    const std::string& target = "/ws") {
    auto c = std::make_unique<TestClient>(port, 0, target);
    EXPECT_TRUE(c->Call(HelloName(name)).has_welcome());
    return c;
  }

  // Nodes a_ and b_ under `limits`, and one player, Pia, on each (her token on b): false if any
  // of it failed.
  bool OnePlayerOnTwoNodes(const ClientLimits& limits, std::unique_ptr<TestClient>* on_a,
                           std::unique_ptr<TestClient>* on_b) {
    a_ = Node("a", kSecret, limits);
    b_ = Node("b", kSecret, limits);
    if (!a_ || !b_) return false;
    *on_a = std::make_unique<TestClient>(a_->port());
    const v1::ServerMessage welcome = (*on_a)->Call(HelloName("Pia"));
    if (!welcome.has_welcome()) return false;
    *on_b = std::make_unique<TestClient>(b_->port());
    return (*on_b)->Call(HelloToken(welcome.welcome().token())).has_welcome();
  }

  // Nodes a and b, and a room Bea (`host_`, on b) opened; the room as the answer gave it.
  v1::RoomInfo RoomOnB(bool is_private) {
    a_ = Node("a");
    b_ = Node("b");
    if (!a_ || !b_) return {};
    host_ = Hello(b_->port(), "Bea");
    v1::ServerMessage created = host_->Call(CreateGlobalissimo(is_private));
    EXPECT_TRUE(created.has_room()) << created.DebugString();
    return created.room();
  }

  std::string conninfo_;
  RunningNode a_, b_;
  std::unique_ptr<TestClient> host_;
};

TEST_F(NodesTest, APlayerOnNodeAPlaysARoomOfNodeBAndSeesWhatBsClientsSee) {
  const std::string room_id = RoomOnB(false).room_id();
  ASSERT_FALSE(room_id.empty());
  auto& a = a_;
  auto& b = b_;
  auto& host = host_;
  const std::string target = "/ws?room=" + room_id;

  // Two spectators, one on each node, before the game begins: they must see the same frames.
  auto watcher_b = Hello(b->port(), "Wes", target);
  auto watcher_a = Hello(a->port(), "Wanda", target);
  ASSERT_TRUE(watcher_b->Call(SpectateMsg(room_id)).has_room());
  ASSERT_TRUE(watcher_a->Call(SpectateMsg(room_id)).has_room());
  // From here on both are in: whatever comes is for both (Wanda's arrival was news to Wes only).
  watcher_b->Drain();
  watcher_a->Drain();
  EXPECT_GE(a->metrics().links_opened.value(), 1u);
  EXPECT_EQ(b->metrics().links_opened.value(), 0u);

  // The second player reaches A and sits in B's room.
  auto guest = Hello(a->port(), "Abe", target);
  ASSERT_TRUE(guest->Call(JoinMsg(room_id)).has_room());
  ASSERT_TRUE(guest->Call(ReadyMsg(room_id)).has_ok());
  ASSERT_TRUE(host->Call(StartMsg(room_id)).has_ok());
  ASSERT_TRUE(host->WaitPush([](const v1::ServerMessage& m) { return m.has_snapshot(); }));
  ASSERT_TRUE(guest->WaitPush([](const v1::ServerMessage& m) { return m.has_snapshot(); }));

  // Played to the end, each seat from its own held view.
  std::vector<TestClient*> seats = {host.get(), guest.get()};
  int moves = 0;
  while (!host->view(room_id).game_over && moves < 400) {
    bool moved = false;
    for (int seat = 0; seat < 2 && !moved; ++seat) {
      HeldView& held = seats[seat]->view(room_id);
      const std::string action = GlobalissimoMove(held, seat);
      if (action.empty()) continue;
      const uint64_t before = held.version;
      v1::ServerMessage reply = seats[seat]->Call(ActionMsg(room_id, action));
      ASSERT_TRUE(reply.has_accepted()) << "seat " << seat << ": " << reply.DebugString();
      for (TestClient* c : seats) {
        ASSERT_TRUE(c->WaitPush([&](const v1::ServerMessage& m) {
          return m.has_diff() && m.diff().diff().to_version() == before + 1;
        }));
      }
      moved = true;
      ++moves;
    }
    ASSERT_TRUE(moved) << "nobody could move";
  }
  ASSERT_TRUE(host->view(room_id).game_over);
  EXPECT_EQ(guest->gaps, 0);
  // Each seat's view, built from the frames it got (the guest's through A), is B's own for it.
  for (int seat = 0; seat < 2; ++seat) {
    std::string own;
    ASSERT_TRUE(b->InspectRoom(room_id, [&](const engine::State* s, uint64_t) {
      if (s) own = WireView(*s, seat);
    }));
    EXPECT_EQ(engine::DeterministicBytes(*seats[seat]->view(room_id).view), own) << "seat " << seat;
  }

  // The spectators' pushes: the same messages, byte for byte, whichever node each reached.
  const auto pushes = [&](TestClient& c) {
    std::vector<std::string> out;
    c.WaitPush([&](const v1::ServerMessage& m) {
      out.push_back(m.SerializeAsString());
      return false;
    }, 500ms);
    return out;
  };
  const auto seen_b = pushes(*watcher_b);
  const auto seen_a = pushes(*watcher_a);
  EXPECT_GT(seen_b.size(), static_cast<size_t>(moves));
  EXPECT_EQ(seen_a, seen_b);
  EXPECT_GT(a->metrics().link_bytes.value("to_client"), 0u);
}

TEST_F(NodesTest, ARoomAskedForOnTheWrongNodeIsRefusedWithRoomMoved) {
  const v1::RoomInfo room = RoomOnB(true);
  ASSERT_FALSE(room.room_id().empty());
  auto& a = a_;
  const std::string room_id = room.room_id();
  const std::string code = room.join_code();

  // Reached without naming the room: A does not run it and says where to go, never "no room".
  auto lost = Hello(a->port(), "Lou");
  EXPECT_EQ(Code(lost->Call(JoinMsg(room_id, code))), "room_moved");
  EXPECT_EQ(Code(lost->Call(JoinMsg("no-such-room"))), "room_not_found");
  // Its code alone, typed on A: room_moved naming the room, as often as asked (a code that is
  // right somewhere is no wrong guess); a wrong code is still no room.
  for (int i = 0; i < 12; ++i) {
    const v1::ServerMessage moved = lost->Call(JoinMsg("", code));
    ASSERT_EQ(Code(moved), "room_moved") << i << ": " << moved.DebugString();
    EXPECT_EQ(moved.error().room_id(), room_id);
  }
  EXPECT_EQ(Code(lost->Call(JoinMsg("", "ZZZZZZ"))), "room_not_found");
  EXPECT_EQ(Code(lost->Call(SpectateMsg("", code))), "room_moved");
  // Naming it, the same player is carried to B and sits with the code.
  auto found = Hello(a->port(), "Lou", "/ws?room=" + room_id);
  EXPECT_TRUE(found->Call(JoinMsg(room_id, code)).has_room());
}

TEST_F(NodesTest, ALinkWithoutTheSecretIsRefusedAndANodeWithoutLinksCarriesNobody) {
  auto b = Node("b");
  ASSERT_TRUE(b);
  boost::asio::io_context ioc;
  boost::asio::ip::tcp::socket socket(ioc);
  socket.connect({boost::asio::ip::make_address("127.0.0.1"), b->port()});
  const std::string upgrade =
      "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
      "X-Plateau-Link: not-the-secret-at-all\r\nX-Plateau-Client: 203.0.113.9\r\n\r\n";
  boost::asio::write(socket, boost::asio::buffer(upgrade));
  std::string answer;
  boost::system::error_code ec;
  boost::asio::read_until(socket, boost::asio::dynamic_buffer(answer), "\r\n", ec);
  EXPECT_TRUE(answer.starts_with("HTTP/1.1 403")) << answer;

  // A node with no secret takes no link and carries nobody: the room stays B's alone.
  auto host = Hello(b->port(), "Bea");
  v1::ServerMessage created = host->Call(CreateGlobalissimo(false));
  ASSERT_TRUE(created.has_room());
  auto lone = Node("c", "");
  ASSERT_TRUE(lone);
  auto client = Hello(lone->port(), "Cy", "/ws?room=" + created.room().room_id());
  EXPECT_EQ(Code(client->Call(JoinMsg(created.room().room_id()))), "room_not_found");
  EXPECT_EQ(lone->metrics().links_opened.value(), 0u);
}

// The room ids in `c`'s first page of the public room list.
std::set<std::string> Listed(TestClient& c) {
  v1::ClientMessage m;
  m.mutable_list_rooms();
  std::set<std::string> out;
  const v1::ServerMessage reply = c.Call(m);
  for (const auto& room : reply.room_list().rooms()) out.insert(room.room_id());
  return out;
}

TEST_F(NodesTest, ARoomOpenedOnOneNodeIsListedOnEveryNodeAndLeavesEveryList) {
  const v1::RoomInfo room = RoomOnB(false);
  ASSERT_FALSE(room.room_id().empty());
  auto c = Node("c");
  ASSERT_TRUE(c);
  auto on_a = Hello(a_->port(), "Ann");
  auto on_c = Hello(c->port(), "Cid");
  const auto listed_everywhere = [&](bool listed) {
    for (int i = 0; i < 100; ++i) {
      if ((Listed(*on_a).count(room.room_id()) != 0) == listed &&
          (Listed(*on_c).count(room.room_id()) != 0) == listed) {
        return true;
      }
      std::this_thread::sleep_for(30ms);
    }
    return false;
  };
  // c started after the room opened: it read the whole list; a heard of it when it opened.
  EXPECT_TRUE(listed_everywhere(true));
  // A watcher on c is told of a room opened on a.
  v1::ClientMessage watch;
  watch.mutable_list_rooms()->set_watch(true);
  ASSERT_TRUE(on_c->Call(watch).has_room_list());
  auto host_a = Hello(a_->port(), "Ada");
  v1::ServerMessage opened = host_a->Call(CreateGlobalissimo(false));
  ASSERT_TRUE(opened.has_room());
  EXPECT_TRUE(on_c->WaitPush([&](const v1::ServerMessage& m) {
    if (!m.has_room_list_changed()) return false;
    for (const auto& r : m.room_list_changed().changed()) {
      if (r.room_id() == opened.room().room_id() && r.title() == opened.room().title()) return true;
    }
    return false;
  }, 5s));
  // A private room is listed nowhere, not even by its id.
  v1::ServerMessage hidden = host_a->Call(CreateGlobalissimo(true));
  ASSERT_TRUE(hidden.has_room());
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(Listed(*on_c).count(hidden.room().room_id()), 0u);

  // Its host leaves and the room closes on b: it leaves every list.
  v1::ClientMessage leave;
  leave.mutable_leave_room()->set_room_id(room.room_id());
  host_->Call(leave);
  EXPECT_TRUE(listed_everywhere(false));
  EXPECT_GT(c.room_list->stats().received, 0u);
}

// A line left by a node that is gone (no lease, no room): the node that deletes it in its
// round of cleaning takes it off its own list too, though it hears no notice of its own.
TEST_F(NodesTest, ALineOfANodeGoneLeavesTheListOfTheNodeThatCleansItUp) {
  a_ = Node("a");
  ASSERT_TRUE(a_);
  auto on_a = Hello(a_->port(), "Ann");
  v1::RoomInfo ghost;
  ghost.set_room_id("r-ghost");
  ghost.set_game("globalissimo");
  ghost.set_title("Left behind");
  std::string hex;
  for (unsigned char b : ghost.SerializeAsString()) {
    static constexpr char kDigits[] = "0123456789abcdef";
    hex += kDigits[b >> 4];
    hex += kDigits[b & 15];
  }
  auto c = pg::Connect(conninfo_);
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  // Written by node "gone", announced from another connection, as its node did.
  ASSERT_TRUE(pg::Query(c.value().get(),
                        "WITH put AS (INSERT INTO room_listing "
                        "(room_id, node, info, updated_unix_ms) VALUES "
                        "($1, 'gone', decode($2, 'hex'), " PLATEAU_PG_NOW_MS ") "
                        "RETURNING room_id) SELECT pg_notify('plateau_rooms', room_id) FROM put",
                        {ghost.room_id(), hex}, "writing a line")
                  .ok());
  const auto listed = [&](bool want, std::chrono::milliseconds within) {
    for (auto until = std::chrono::steady_clock::now() + within;
         std::chrono::steady_clock::now() < until; std::this_thread::sleep_for(30ms)) {
      if ((Listed(*on_a).count(ghost.room_id()) != 0) == want) return true;
    }
    return false;
  };
  ASSERT_TRUE(listed(true, 5s));
  // Then its node is gone a minute: nobody renews the line (aged here, with no notice). Written
  // old from the start, a's cleaning could delete it before a ever listed it.
  ASSERT_TRUE(pg::Query(c.value().get(),
                        "UPDATE room_listing SET updated_unix_ms = " PLATEAU_PG_NOW_MS
                        " - 60000 WHERE room_id = $1 RETURNING 1",
                        {ghost.room_id()}, "ageing the line")
                  .ok());
  // a cleans every lease (3 s here).
  EXPECT_TRUE(listed(false, 8s));
  EXPECT_GT(a_.room_list->stats().cleaned, 0u);
}

TEST_F(NodesTest, APlayersOpenRoomsAreCountedOverEveryNode) {
  ClientLimits limits = TestLimits();
  limits.open_rooms_per_player = 2;
  std::unique_ptr<TestClient> on_a, on_b;
  ASSERT_TRUE(OnePlayerOnTwoNodes(limits, &on_a, &on_b));
  ASSERT_TRUE(on_a->Call(CreateGlobalissimo(false)).has_room());
  ASSERT_TRUE(on_b->Call(CreateGlobalissimo(true)).has_room());
  // Two open, one on each node: a third is refused on either, though each node runs one only.
  EXPECT_EQ(Code(on_b->Call(CreateGlobalissimo(false))), "too_many_rooms");
  EXPECT_EQ(Code(on_a->Call(CreateGlobalissimo(false))), "too_many_rooms");
  EXPECT_EQ(b_->server().lobby().RoomCount(), 1u);
  // Another player is not counted with her.
  auto other = Hello(b_->port(), "Quinn");
  EXPECT_TRUE(other->Call(CreateGlobalissimo(false)).has_room());
}

TEST_F(NodesTest, APlayersRoomsCreatedPerHourAreCountedOverEveryNode) {
  ClientLimits limits = TestLimits();
  limits.rooms_per_hour = 1;  // the burst, then one an hour
  std::unique_ptr<TestClient> on_a, on_b;
  ASSERT_TRUE(OnePlayerOnTwoNodes(limits, &on_a, &on_b));
  // The burst spread over both nodes, each of which has spent only half of its own.
  const int burst = static_cast<int>(ClientLimits::kRoomsBurst);
  for (int i = 0; i < burst; ++i) {
    TestClient& on = i % 2 == 0 ? *on_a : *on_b;
    ASSERT_TRUE(on.Call(CreateGlobalissimo(false)).has_room()) << "room " << i + 1;
  }
  for (TestClient* on : {on_a.get(), on_b.get()}) {
    const v1::ServerMessage refused = on->Call(CreateGlobalissimo(false));
    EXPECT_EQ(Code(refused), "too_many_rooms");
    EXPECT_NE(refused.error().reason().find("too fast"), std::string::npos) << refused.DebugString();
  }
  EXPECT_EQ(a_->server().lobby().RoomCount() + b_->server().lobby().RoomCount(),
            static_cast<size_t>(burst));
  // Another player has his own allowance.
  auto other = Hello(b_->port(), "Quinn");
  EXPECT_TRUE(other->Call(CreateGlobalissimo(false)).has_room());
}

TEST_F(NodesTest, AReturningPlayerIsToldOfHisGamesOnEveryNode) {
  const v1::RoomInfo room = RoomOnB(false);
  ASSERT_FALSE(room.room_id().empty());
  auto guest = std::make_unique<TestClient>(b_->port());
  const v1::ServerMessage welcome = guest->Call(HelloName("Gus"));
  ASSERT_TRUE(welcome.has_welcome());
  ASSERT_TRUE(guest->Call(JoinMsg(room.room_id())).has_room());
  ASSERT_TRUE(guest->Call(ReadyMsg(room.room_id())).has_ok());
  ASSERT_TRUE(host_->Call(StartMsg(room.room_id())).has_ok());
  ASSERT_TRUE(guest->WaitPush([](const v1::ServerMessage& m) { return m.has_snapshot(); }));
  // The same player back through node a: his game on b is in his Welcome.
  auto back = std::make_unique<TestClient>(a_->port());
  const v1::ServerMessage again = back->Call(HelloToken(welcome.welcome().token()));
  ASSERT_TRUE(again.has_welcome()) << again.DebugString();
  ASSERT_EQ(again.welcome().room_ids_size(), 1);
  EXPECT_EQ(again.welcome().room_ids(0), room.room_id());
  // Through b itself, once (not twice from the store as well).
  auto there = std::make_unique<TestClient>(b_->port());
  EXPECT_EQ(there->Call(HelloToken(welcome.welcome().token())).welcome().room_ids_size(), 1);
}

TEST_F(NodesTest, WrongCodesFromOneAddressAreCountedOverEveryNode) {
  ClientLimits limits = TestLimits();
  limits.wrong_codes_per_ip = 3;
  limits.wrong_codes_per_connection = 100;
  auto a = Node("a", kSecret, limits);
  auto b = Node("b", kSecret, limits);
  ASSERT_TRUE(a && b);
  auto host = Hello(b->port(), "Bea");
  const v1::ServerMessage created = host->Call(CreateGlobalissimo(true));
  ASSERT_TRUE(created.has_room());
  const std::string code = created.room().join_code();
  // The right code from A: found on B, no miss.
  auto guesser = Hello(a->port(), "Gil");
  EXPECT_EQ(Code(guesser->Call(JoinMsg("", code))), "room_moved");
  // Two wrong codes on A and one on B: three from this address in all.
  EXPECT_EQ(Code(guesser->Call(JoinMsg("", "AAAAAA"))), "room_not_found");
  EXPECT_EQ(Code(guesser->Call(JoinMsg("", "BBBBBB"))), "room_not_found");
  auto other = Hello(b->port(), "Gil2");
  EXPECT_EQ(Code(other->Call(JoinMsg("", "CCCCCC"))), "room_not_found");
  // A's own count for the address is two: the third, counted over both nodes, locks it out;
  // the right code too, as on one node.
  EXPECT_EQ(Code(guesser->Call(JoinMsg("", "DDDDDD"))), "code_lockout");
  auto fresh = Hello(a->port(), "Gil3");
  EXPECT_EQ(Code(fresh->Call(JoinMsg("", code))), "code_lockout");
  // An invitation (the room's id with its code) is no guess: it still gets through, from A.
  auto invited = Hello(a->port(), "Ivy", "/ws?room=" + created.room().room_id());
  EXPECT_TRUE(invited->Call(JoinMsg(created.room().room_id(), code)).has_room());
}

}  // namespace
}  // namespace plateau::server::testing
