// The limits that keep one client from hurting the others, several tabs of one player, the room
// list's pages and pushes, and shutdown with live games: over loopback, with real WebSockets.
#include <gtest/gtest.h>
#include <spdlog/sinks/ringbuffer_sink.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/write.hpp>

#include "games/globalissimo.pb.h"
#include "server/lobby/rate_limit.h"
#include "server/log_throttle.h"
#include "test_support.h"

namespace plateau::server::testing {
namespace {

namespace g = plateau::games::globalissimo;

v1::ClientMessage CreateMsg(bool is_private = false) {
  v1::ClientMessage m;
  auto* c = m.mutable_create_room();
  c->set_game("globalissimo");
  c->set_is_private(is_private);
  c->set_seats(2);
  g::Options options;
  options.set_rounds(1);
  c->set_options(options.SerializeAsString());
  return m;
}

v1::ClientMessage ListMsg(uint32_t limit, const std::string& after = "", bool watch = false) {
  v1::ClientMessage m;
  m.mutable_list_rooms()->set_limit(limit);
  m.mutable_list_rooms()->set_after_room_id(after);
  m.mutable_list_rooms()->set_watch(watch);
  return m;
}

v1::ClientMessage LeaveMsg(const std::string& room_id) {
  v1::ClientMessage m;
  m.mutable_leave_room()->set_room_id(room_id);
  return m;
}

std::string Code(const v1::ServerMessage& m) { return m.has_error() ? m.error().code() : ""; }

// A placement from the held view: the first free tile at position 1 (empty when not to act).
std::string SomeMove(const HeldView& held, int seat) {
  const auto& view = static_cast<const g::View&>(*held.view);
  g::Action action;
  if (view.phase() != g::PHASE_PLACEMENT || view.to_act() != seat) return {};
  for (int slot = 0; slot < view.display_size(); ++slot) {
    if (view.display(slot).tile_seat() < 0) {
      action.mutable_place()->set_slot(static_cast<uint32_t>(slot));
      action.mutable_place()->set_position(1);
      return action.SerializeAsString();
    }
  }
  return {};
}

// Sends `request` over a new loopback connection and reads the answer until it holds `until`
// (or, when `until` is empty, until the server closes); "" when nothing could be sent.
std::string RawHttp(uint16_t port, const std::string& request, const std::string& until) {
  boost::asio::io_context ioc;
  boost::asio::ip::tcp::socket socket(ioc);
  boost::system::error_code ec;
  socket.connect({boost::asio::ip::make_address("127.0.0.1"), port}, ec);
  if (ec) return "";
  boost::asio::write(socket, boost::asio::buffer(request), ec);
  if (ec) return "";
  std::string response;
  auto buffer = boost::asio::dynamic_buffer(response);
  if (until.empty()) {
    boost::asio::async_read(socket, buffer, [](boost::system::error_code, size_t) {});
  } else {
    boost::asio::async_read_until(socket, buffer, until, [](boost::system::error_code, size_t) {});
  }
  ioc.run_for(5s);
  return response;
}

// The HTTP status line the server answers a WebSocket upgrade with ("" when it said nothing).
std::string UpgradeStatus(uint16_t port) {
  const std::string response = RawHttp(
      port,
      "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
      "\r\n");
  return response.substr(0, response.find("\r\n"));
}

// GET `path` over loopback: the whole response, headers and body ("" on failure).
std::string HttpGet(uint16_t port, const std::string& path) {
  return RawHttp(port, "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
                 "");
}

// The value of the sample line starting with `series` ("name" or "name{labels}"), or -1.
double Sample(const std::string& text, const std::string& series) {
  size_t at = 0;
  while ((at = text.find(series + " ", at)) != std::string::npos) {
    if (at == 0 || text[at - 1] == '\n') return std::stod(text.substr(at + series.size() + 1));
    at += series.size();
  }
  return -1;
}

class ClientLimitsTest : public ::testing::Test {
 protected:
  void Start(ClientLimits limits) {
    server_.reset();
    server_ = std::make_unique<TestServer>(dir_.File("plateau.db"), NetLimits{},
                                           std::chrono::minutes(5), limits);
    ASSERT_NE(server_->port(), 0);
  }

  std::unique_ptr<TestClient> Connect(const std::string& name, v1::Welcome* welcome = nullptr) {
    return ConnectAs(server_->port(), name, welcome);
  }

  std::unique_ptr<TestClient> Resume(const std::string& token) {
    auto c = std::make_unique<TestClient>(server_->port());
    EXPECT_TRUE(c->Call(HelloToken(token)).has_welcome());
    return c;
  }

  std::string StartGame(TestClient& a, TestClient& b) { return StartGameIn(a, b, CreateMsg()); }

  // A private room its host made: its id, its code, and a code that is not it.
  struct PrivateRoom {
    std::unique_ptr<TestClient> host;
    std::string room_id, code, wrong;
  };
  PrivateRoom CreatePrivateRoom() {
    PrivateRoom p;
    p.host = Connect("Host");
    v1::ServerMessage created = p.host->Call(CreateMsg(/*is_private=*/true));
    p.room_id = created.room().room_id();
    p.code = created.room().join_code();
    EXPECT_FALSE(p.code.empty()) << created.DebugString();
    p.wrong = p.code == "AAAAAA" ? "BBBBBB" : "AAAAAA";
    return p;
  }

  // Ada, in two tabs, playing Bob; the second tab holds the game's view too.
  struct TwoTabs {
    std::unique_ptr<TestClient> tab1, tab2, b;
    std::string room_id;
  };
  TwoTabs StartWithTwoTabs() {
    TwoTabs t;
    v1::Welcome wa;
    t.tab1 = Connect("Ada", &wa);
    t.b = Connect("Bob");
    t.room_id = StartGame(*t.tab1, *t.b);
    t.tab2 = Resume(wa.token());
    EXPECT_TRUE(t.tab2->Call(JoinMsg(t.room_id)).has_room());
    EXPECT_TRUE(t.tab2->Call(ResyncMsg(t.room_id, 0)).has_ok());
    t.tab2->Drain();
    return t;
  }

  // The seat to act plays one placement; false when neither could.
  bool Move(TestClient& a, TestClient& b, const std::string& room_id) {
    TestClient* clients[] = {&a, &b};
    for (int seat = 0; seat < 2; ++seat) {
      const std::string action = SomeMove(clients[seat]->view(room_id), seat);
      if (action.empty()) continue;
      const uint64_t before = clients[seat]->view(room_id).version;
      if (!clients[seat]->Call(ActionMsg(room_id, action)).has_accepted()) return false;
      for (TestClient* c : clients) {
        if (!c->WaitPush([&](const v1::ServerMessage& m) {
              return m.has_diff() && m.diff().diff().to_version() == before + 1;
            })) {
          return false;
        }
      }
      return true;
    }
    return false;
  }

  TempDir dir_;
  std::unique_ptr<TestServer> server_;
};

TEST(TokenBucketTest, RefillsAtItsRateUpToItsBurst) {
  const auto t0 = LimitClock::now();
  TokenBucket bucket(2, 3);  // 2 a second, 3 at most
  EXPECT_TRUE(bucket.Take(t0));
  EXPECT_TRUE(bucket.Take(t0));
  EXPECT_TRUE(bucket.Take(t0));
  EXPECT_FALSE(bucket.Take(t0));
  EXPECT_NEAR(bucket.SecondsUntilToken(t0), 0.5, 1e-6);
  EXPECT_TRUE(bucket.Take(t0 + 500ms));
  EXPECT_FALSE(bucket.Take(t0 + 500ms));
  EXPECT_FALSE(bucket.Full(t0 + 1s));
  EXPECT_TRUE(bucket.Full(t0 + 60s));  // never more than the burst
  EXPECT_TRUE(bucket.Take(t0 + 60s));
  EXPECT_TRUE(bucket.Take(t0 + 60s));
  EXPECT_TRUE(bucket.Take(t0 + 60s));
  EXPECT_FALSE(bucket.Take(t0 + 60s));
  TokenBucket unlimited;
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(unlimited.Take(t0));
}

TEST(LogThrottleTest, AllowsItsBudgetPerWindowAndCountsTheRest) {
  LogThrottle throttle(3, 10s);
  const auto t0 = LogThrottle::Clock::now();
  uint64_t suppressed = 99;
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(throttle.Allow(t0, &suppressed));
    EXPECT_EQ(suppressed, 0u);
  }
  for (int i = 0; i < 1000; ++i) EXPECT_FALSE(throttle.Allow(t0 + 1s, &suppressed));
  EXPECT_TRUE(throttle.Allow(t0 + 11s, &suppressed));
  EXPECT_EQ(suppressed, 1000u);  // reported once, with the next line allowed
  EXPECT_TRUE(throttle.Allow(t0 + 11s, &suppressed));
  EXPECT_EQ(suppressed, 0u);
  EXPECT_EQ(throttle.suppressed_total(), 1000u);
}

TEST(AddressTableTest, CountsConnectionsPerAddressAndSparesLoopbackUnlessAsked) {
  ClientLimits limits;
  limits.connections_per_ip = 2;
  AddressTable table(limits);
  const auto now = LimitClock::now();
  auto a = table.Admit("203.0.113.7", now);
  auto b = table.Admit("203.0.113.7", now);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(table.Admit("203.0.113.7", now), nullptr);
  EXPECT_NE(table.Admit("198.51.100.1", now), nullptr);  // another address is not affected
  AddressTable::Release(a);
  EXPECT_NE(table.Admit("203.0.113.7", now), nullptr);
  for (int i = 0; i < 10; ++i) EXPECT_NE(table.Admit("127.0.0.1", now), nullptr);
  limits.limit_loopback = true;
  AddressTable strict(limits);
  EXPECT_NE(strict.Admit("::1", now), nullptr);
  EXPECT_NE(strict.Admit("::1", now), nullptr);
  EXPECT_EQ(strict.Admit("::1", now), nullptr);
  // One IPv6 host usually holds a /64: it is one address here.
  EXPECT_EQ(AddressKey("2001:db8:1:2:aaaa::1"), AddressKey("2001:db8:1:2:bbbb::2"));
  EXPECT_NE(AddressKey("2001:db8:1:2::1"), AddressKey("2001:db8:1:3::1"));
  EXPECT_EQ(AddressKey("::ffff:198.51.100.4"), "198.51.100.4");
  EXPECT_EQ(AddressKey("198.51.100.4"), "198.51.100.4");
  auto v6a = table.Admit("2001:db8::1", now);
  auto v6b = table.Admit("2001:db8::2", now);
  EXPECT_TRUE(v6a && v6b);
  EXPECT_EQ(table.Admit("2001:db8::3", now), nullptr);
  EXPECT_TRUE(IsLoopbackAddress("127.0.0.1"));
  EXPECT_TRUE(IsLoopbackAddress("::ffff:127.0.0.1"));
  EXPECT_FALSE(IsLoopbackAddress("10.0.0.1"));
}

TEST_F(ClientLimitsTest, AFloodingConnectionIsRefusedThenCutAndOthersPlayOn) {
  ClientLimits limits;
  limits.requests_per_second = 20;  // burst 40
  limits.refusals_before_disconnect = 100;
  Start(limits);
  auto a = Connect("Ada");
  auto b = Connect("Bob");
  const std::string room_id = StartGame(*a, *b);
  auto flood = Connect("Flood");
  // 60 pings at once: the burst is served, the rest refused with a code.
  std::vector<uint64_t> ids;
  for (int i = 0; i < 60; ++i) ids.push_back(flood->Send(PingMsg()));
  int pongs = 0, limited = 0;
  for (uint64_t id : ids) {
    v1::ServerMessage reply = flood->WaitReply(id);
    if (reply.has_pong()) ++pongs;
    if (Code(reply) == "rate_limited") ++limited;
  }
  EXPECT_GE(pongs, 38);
  EXPECT_LE(pongs, 45);
  EXPECT_EQ(pongs + limited, 60);
  // The others' game is untouched.
  EXPECT_TRUE(Move(*a, *b, room_id));
  // Keeping on: cut off.
  for (int i = 0; i < 200 && flood->open(); ++i) flood->Send(PingMsg());
  EXPECT_TRUE(flood->WaitClosed(5s));
  EXPECT_TRUE(Move(*a, *b, room_id));
  // The cut connection is gone from the server's count.
  for (int i = 0; i < 100 && server_->server().lobby().ConnectionCount() > 2; ++i) {
    std::this_thread::sleep_for(10ms);
  }
  EXPECT_EQ(server_->server().lobby().ConnectionCount(), 2u);
}

TEST_F(ClientLimitsTest, RequestsPerAddressAreCountedAcrossItsConnections) {
  ClientLimits limits;
  limits.limit_loopback = true;
  limits.ip_requests_per_second = 10;  // burst 20, shared
  limits.refusals_before_disconnect = 0;
  Start(limits);
  auto a = Connect("Ada");  // 1 request
  auto b = Connect("Bob");  // 1 request
  int pongs = 0, limited = 0;
  for (int i = 0; i < 30; ++i) {
    v1::ServerMessage reply = (i % 2 == 0 ? a : b)->Call(PingMsg());
    if (reply.has_pong()) ++pongs;
    if (Code(reply) == "rate_limited") ++limited;
  }
  EXPECT_GE(pongs, 18);
  EXPECT_LE(pongs, 22);
  EXPECT_EQ(pongs + limited, 30);
}

TEST_F(ClientLimitsTest, ChatFloodIsRefusedAndOthersStillTalk) {
  Start(ClientLimits{});  // 60 a minute, burst 5
  auto a = Connect("Ada");
  auto b = Connect("Bob");
  const std::string room_id = a->Call(CreateMsg()).room().room_id();
  ASSERT_TRUE(b->Call(JoinMsg(room_id)).has_room());
  int ok = 0;
  std::string refused;
  for (int i = 0; i < 20; ++i) {
    v1::ServerMessage reply = a->Call(ChatMsg(room_id, "spam " + std::to_string(i)));
    if (reply.has_ok()) ++ok;
    if (reply.has_error()) refused = reply.error().code();
  }
  EXPECT_EQ(ok, 5);
  EXPECT_EQ(refused, "chat_rate_limited");
  EXPECT_TRUE(b->Call(ChatMsg(room_id, "hello")).has_ok());
  // Bob heard five lines of spam and his own, nothing more.
  int heard = 0;
  while (b->WaitPush([](const v1::ServerMessage& m) { return m.has_chat(); }, 300ms)) ++heard;
  EXPECT_EQ(heard, 6);
}

TEST_F(ClientLimitsTest, RoomsPerPlayerAreBoundedOpenAndOverTime) {
  ClientLimits limits;
  limits.open_rooms_per_player = 3;
  Start(limits);
  auto a = Connect("Ada");
  std::vector<std::string> rooms;
  for (int i = 0; i < 3; ++i) {
    v1::ServerMessage created = a->Call(CreateMsg());
    ASSERT_TRUE(created.has_room()) << created.DebugString();
    rooms.push_back(created.room().room_id());
  }
  EXPECT_EQ(Code(a->Call(CreateMsg())), "too_many_rooms");
  auto b = Connect("Bob");
  EXPECT_TRUE(b->Call(CreateMsg()).has_room());  // another player is not affected
  // Leaving one (the room goes) makes room for another.
  ASSERT_TRUE(a->Call(LeaveMsg(rooms[0])).has_ok());
  for (int i = 0; i < 100 && server_->server().lobby().FindRoom(rooms[0]); ++i) {
    std::this_thread::sleep_for(5ms);
  }
  EXPECT_TRUE(a->Call(CreateMsg()).has_room());

  // Over time: a burst of 20, then one a minute at 60 an hour.
  a->Close();
  b->Close();
  limits.open_rooms_per_player = 0;
  limits.rooms_per_hour = 60;
  Start(limits);
  auto c = Connect("Cid");
  int created = 0;
  std::string refused;
  for (int i = 0; i < 25; ++i) {
    v1::ServerMessage reply = c->Call(CreateMsg());
    if (reply.has_room()) {
      ++created;
      ASSERT_TRUE(c->Call(LeaveMsg(reply.room().room_id())).has_ok());
    } else {
      refused = Code(reply);
    }
  }
  EXPECT_EQ(created, 20);
  EXPECT_EQ(refused, "too_many_rooms");
}

TEST_F(ClientLimitsTest, GuessingJoinCodesLocksOutTheConnectionAndTheAddress) {
  ClientLimits limits;  // 5 per connection a minute, 20 per address in 10 minutes
  Start(limits);
  const auto [host, room_id, code, wrong] = CreatePrivateRoom();

  auto guesser = Connect("Guess");
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(Code(guesser->Call(JoinMsg("", wrong))), "room_not_found");
  }
  // Locked out: even the right code alone is refused, so guessing learns nothing.
  v1::ServerMessage locked = guesser->Call(JoinMsg("", code));
  EXPECT_EQ(Code(locked), "code_lockout");
  EXPECT_NE(locked.error().reason().find("try again in"), std::string::npos);
  EXPECT_EQ(Code(guesser->Call(SpectateMsg("", code))), "code_lockout");

  // New connections from the same address have their own budget, but share the address's 20.
  int refused_before_lockout = 5;
  std::string last;
  for (int conn = 0; conn < 4 && last != "code_lockout"; ++conn) {
    auto next = Connect("Guess" + std::to_string(conn));
    for (int i = 0; i < 5; ++i) {
      last = Code(next->Call(JoinMsg("", wrong)));
      if (last == "code_lockout") break;
      ++refused_before_lockout;
    }
  }
  EXPECT_EQ(last, "code_lockout");
  EXPECT_EQ(refused_before_lockout, 20);
  // Public rooms need no code: the address can still play.
  auto other = Connect("Other");
  const std::string open_room = other->Call(CreateMsg()).room().room_id();
  auto late = Connect("Late");
  EXPECT_TRUE(late->Call(JoinMsg(open_room)).has_room());
}

TEST_F(ClientLimitsTest, ConnectionsPerAddressAreBounded) {
  ClientLimits limits;
  limits.limit_loopback = true;
  limits.connections_per_ip = 3;
  Start(limits);
  std::vector<std::unique_ptr<TestClient>> clients;
  for (int i = 0; i < 3; ++i) clients.push_back(Connect("C" + std::to_string(i)));
  EXPECT_EQ(UpgradeStatus(server_->port()), "HTTP/1.1 503 Service Unavailable");
  clients[0]->Close();
  std::string status;
  for (int i = 0; i < 100; ++i) {
    status = UpgradeStatus(server_->port());
    if (status.find("101") != std::string::npos) break;
    std::this_thread::sleep_for(10ms);
  }
  EXPECT_EQ(status, "HTTP/1.1 101 Switching Protocols");
  // The ones already open are unaffected.
  EXPECT_TRUE(clients[1]->Call(PingMsg()).has_pong());
}

TEST_F(ClientLimitsTest, TheRoomListComesInPagesAndChangesArePushed) {
  Start(TestLimits());
  auto watcher = Connect("Watcher");
  EXPECT_EQ(Code(watcher->Call(ListMsg(101))), "bad_page");
  std::vector<std::unique_ptr<TestClient>> hosts;
  std::set<std::string> made;
  for (int i = 0; i < 5; ++i) {
    hosts.push_back(Connect("Host" + std::to_string(i)));
    made.insert(hosts.back()->Call(CreateMsg()).room().room_id());
  }
  hosts.push_back(Connect("Secret"));
  ASSERT_TRUE(hosts.back()->Call(CreateMsg(/*is_private=*/true)).has_room());
  std::set<std::string> seen;
  std::string after;
  int pages = 0;
  do {
    v1::ServerMessage page = watcher->Call(ListMsg(2, after, /*watch=*/true));
    ASSERT_TRUE(page.has_room_list()) << page.DebugString();
    EXPECT_LE(page.room_list().rooms_size(), 2);
    EXPECT_EQ(page.room_list().total(), 5u);
    for (const auto& r : page.room_list().rooms()) EXPECT_TRUE(seen.insert(r.room_id()).second);
    after = page.room_list().next_after_room_id();
    ++pages;
  } while (!after.empty() && pages < 10);
  EXPECT_EQ(pages, 3);
  EXPECT_EQ(seen, made);

  // Watching: a new room and a room gone arrive as changes, without asking.
  auto newcomer = Connect("New");
  const std::string fresh = newcomer->Call(CreateMsg()).room().room_id();
  auto added = watcher->WaitPush([&](const v1::ServerMessage& m) {
    if (!m.has_room_list_changed()) return false;
    for (const auto& r : m.room_list_changed().changed()) {
      if (r.room_id() == fresh) return true;
    }
    return false;
  });
  ASSERT_TRUE(added);
  ASSERT_TRUE(newcomer->Call(LeaveMsg(fresh)).has_ok());
  auto removed = watcher->WaitPush([&](const v1::ServerMessage& m) {
    if (!m.has_room_list_changed()) return false;
    const auto& ids = m.room_list_changed().removed_room_ids();
    return std::find(ids.begin(), ids.end(), fresh) != ids.end();
  });
  EXPECT_TRUE(removed);
  // A listing without watch ends the pushes.
  ASSERT_TRUE(watcher->Call(ListMsg(0)).has_room_list());
  auto again = Connect("Again");
  ASSERT_TRUE(again->Call(CreateMsg()).has_room());
  EXPECT_FALSE(watcher->WaitPush(
      [](const v1::ServerMessage& m) { return m.has_room_list_changed(); }, 600ms));
}

TEST_F(ClientLimitsTest, BadFramesDoNotFloodTheLog) {
  Start(TestLimits());
  auto sink = std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(10000);
  spdlog::default_logger()->sinks().push_back(sink);
  auto c = std::make_unique<TestClient>(server_->port());
  // A Hello whose name is not UTF-8: protobuf refuses it and complains in its log.
  v1::ClientMessage hello = HelloName("x");
  std::string frame = hello.SerializeAsString();
  const size_t at = frame.find('x');
  ASSERT_NE(at, std::string::npos);
  frame[at] = '\xff';
  for (int i = 0; i < 300; ++i) ASSERT_TRUE(c->SendRaw(frame));
  int malformed = 0;
  while (auto m = c->WaitPush([](const v1::ServerMessage&) { return true; }, 300ms)) {
    if (Code(*m) == "malformed") ++malformed;
  }
  EXPECT_EQ(malformed, 300);  // every frame is still answered
  spdlog::default_logger()->sinks().pop_back();
  const auto lines = sink->last_formatted();
  size_t protobuf_lines = 0;
  for (const auto& line : lines) protobuf_lines += line.find("protobuf") != std::string::npos;
  EXPECT_GE(protobuf_lines, 1u);
  EXPECT_LE(protobuf_lines, 25u);
}

TEST_F(ClientLimitsTest, SeveralTabsOfOnePlayerAllReceiveAndKeepItOnline) {
  Start(TestLimits());
  auto [tab1, tab2, b, room_id] = StartWithTwoTabs();
  // A move reaches both tabs.
  ASSERT_TRUE(Move(*tab1, *b, room_id));
  const uint64_t version = tab1->view(room_id).version;
  tab2->Drain();
  EXPECT_EQ(tab2->view(room_id).version, version);
  // Closing the first tab leaves Ada online and the second tab receiving.
  tab1->Close();
  std::this_thread::sleep_for(100ms);
  v1::ServerMessage info = b->Call(JoinMsg(room_id));  // a seated player's join: the room's info
  ASSERT_TRUE(info.has_room());
  EXPECT_TRUE(info.room().seats(0).connected());
  ASSERT_TRUE(Move(*tab2, *b, room_id));
  EXPECT_EQ(tab2->view(room_id).version, version + 1);
  // Closing the last one: offline.
  tab2->Close();
  auto offline = b->WaitPush(
      [](const v1::ServerMessage& m) { return m.has_room() && !m.room().seats(0).connected(); },
      2s);
  EXPECT_TRUE(offline);
}

TEST_F(ClientLimitsTest, AnAcceptedActionIsAnsweredByTheMoversOwnDiffInOneFrame) {
  Start(TestLimits());
  auto [tab1, tab2, b, room_id] = StartWithTwoTabs();
  if (SomeMove(tab1->view(room_id), 0).empty()) {
    ASSERT_TRUE(Move(*tab1, *b, room_id));
  }
  for (TestClient* c : {tab1.get(), tab2.get(), b.get()}) c->Drain();
  const std::string action = SomeMove(tab1->view(room_id), 0);
  ASSERT_FALSE(action.empty());
  const uint64_t before = tab1->view(room_id).version;
  const size_t seen[] = {tab1->diff_frames().size(), tab2->diff_frames().size(),
                         b->diff_frames().size()};

  const uint64_t request = tab1->Send(ActionMsg(room_id, action));
  const v1::ServerMessage answer = tab1->WaitReply(request);
  for (TestClient* c : {tab1.get(), tab2.get(), b.get()}) c->Drain();
  // The tab that moved: one frame, both the answer and its Diff.
  EXPECT_TRUE(answer.has_accepted()) << answer.DebugString();
  EXPECT_EQ(answer.accepted().action_index(), before - 1);
  ASSERT_EQ(tab1->diff_frames().size(), seen[0] + 1);
  EXPECT_EQ(tab1->diff_frames().back().request_id(), request);
  EXPECT_EQ(tab1->diff_frames().back().diff().diff().to_version(), before + 1);
  EXPECT_EQ(tab1->view(room_id).version, before + 1);
  // The seat's other tab and the other seat: the plain Diff, nothing of the answer.
  ASSERT_EQ(tab2->diff_frames().size(), seen[1] + 1);
  ASSERT_EQ(b->diff_frames().size(), seen[2] + 1);
  for (TestClient* c : {tab2.get(), b.get()}) {
    EXPECT_EQ(c->diff_frames().back().request_id(), 0u);
    EXPECT_FALSE(c->diff_frames().back().has_accepted());
    EXPECT_EQ(c->view(room_id).version, before + 1);
  }
}

TEST_F(ClientLimitsTest, ShutdownAcknowledgesStoredActionsClosesWith1001AndIsQuick) {
  Start(TestLimits());
  constexpr int kGames = 50;
  std::vector<std::unique_ptr<TestClient>> clients;
  std::vector<std::string> rooms;
  for (int i = 0; i < kGames; ++i) {
    clients.push_back(Connect("A" + std::to_string(i)));
    clients.push_back(Connect("B" + std::to_string(i)));
    rooms.push_back(StartGame(*clients[2 * i], *clients[2 * i + 1]));
  }
  // One move is being stored (the sync held) when the signal comes.
  TestClient& mover = *clients[0];
  server_->gate().Hold();
  const uint64_t request = mover.Send(ActionMsg(rooms[0], SomeMove(mover.view(rooms[0]), 0)));
  for (int i = 0; i < 200 && server_->gate().waiting() == 0; ++i) std::this_thread::sleep_for(5ms);
  ASSERT_EQ(server_->gate().waiting(), 1);

  std::promise<void> done;
  auto stopped = done.get_future();
  const auto start = std::chrono::steady_clock::now();
  server_->server().StopGracefully(std::chrono::milliseconds(800), [&] { done.set_value(); });
  // New requests are refused meanwhile.
  EXPECT_EQ(Code(clients[3]->Call(PingMsg(), 1s)), "shutting_down");
  std::this_thread::sleep_for(50ms);
  server_->gate().Release();
  // The stored move is acknowledged, then the connection closes with 1001 (going away).
  v1::ServerMessage ack = mover.WaitReply(request, 2s);
  EXPECT_TRUE(ack.has_accepted()) << ack.DebugString();
  int closed_1001 = 0;
  for (auto& c : clients) {
    if (c->WaitClosed(2s) && c->close_code() == 1001) ++closed_1001;
  }
  EXPECT_EQ(closed_1001, 2 * kGames);
  // Every client answered the close: the server is done before its deadline.
  ASSERT_EQ(stopped.wait_for(2s), std::future_status::ready);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 800ms);
  EXPECT_EQ(server_->server().lobby().ConnectionCount(), 0u);
}

TEST_F(ClientLimitsTest, MetricsCountActionsRefusalsLimitsAndStorage) {
  ClientLimits limits = TestLimits();
  limits.chat_per_second = 1;  // burst 5
  Start(limits);
  auto a = Connect("Ada");
  auto b = Connect("Bob");
  const std::string room_id = StartGame(*a, *b);
  ASSERT_TRUE(Move(*a, *b, room_id));
  // An action that is not one, and a chat flood.
  EXPECT_EQ(Code(a->Call(ActionMsg(room_id, "\xff\xff\xff"))), "malformed");
  for (int i = 0; i < 7; ++i) a->Call(ChatMsg(room_id, "hi"));

  const std::string response = HttpGet(server_->port(), "/metrics");
  ASSERT_NE(response.find("200 OK"), std::string::npos) << response;
  EXPECT_NE(response.find("text/plain; version=0.0.4"), std::string::npos);
  EXPECT_EQ(Sample(response, "plateau_actions_accepted_total"), 1);
  EXPECT_EQ(Sample(response, "plateau_actions_refused_total{code=\"malformed\"}"), 1)
      << response;
  EXPECT_EQ(Sample(response, "plateau_limits_hit_total{limit=\"chat_rate_limited\"}"), 2);
  EXPECT_EQ(Sample(response, "plateau_action_latency_seconds_count"), 1);
  EXPECT_EQ(Sample(response, "plateau_rooms"), 1);
  EXPECT_EQ(Sample(response, "plateau_connections"), 2);
  EXPECT_GE(Sample(response, "plateau_storage_batches_total"), 3);  // two players, a game, a move
  EXPECT_GE(Sample(response, "plateau_storage_commit_seconds_count"), 3);
  EXPECT_GE(Sample(response, "plateau_ws_queued_bytes"), 0);
}

TEST_F(ClientLimitsTest, AMemberGoingBackToItsRoomIsNeverLockedOut) {
  Start(ClientLimits{});
  const auto [host, room_id, code, wrong] = CreatePrivateRoom();
  auto guest = Connect("Guest");
  ASSERT_TRUE(guest->Call(JoinMsg(room_id, code)).has_room());
  for (int i = 0; i < 5; ++i) guest->Call(JoinMsg("", wrong));
  EXPECT_EQ(Code(guest->Call(JoinMsg("", code))), "code_lockout");
  // Its own room, by id (with or without the code): back in.
  EXPECT_TRUE(guest->Call(JoinMsg(room_id, code)).has_room());
  EXPECT_TRUE(guest->Call(JoinMsg(room_id)).has_room());
}

TEST_F(ClientLimitsTest, ALockedOutAddressStillEntersWithARoomIdAndItsCode) {
  Start(ClientLimits{});  // wrong codes count on loopback too: the address of every test client
  const auto [host, room_id, code, wrong] = CreatePrivateRoom();

  // A stranger spends the address's 20 wrong codes, each connection's own 5: its last connection
  // is locked out twice over, any other on the address by the address.
  std::unique_ptr<TestClient> stranger;
  for (int conn = 0; conn < 4; ++conn) {
    stranger = Connect("Stranger" + std::to_string(conn));
    for (int i = 0; i < 5; ++i) {
      ASSERT_EQ(Code(stranger->Call(JoinMsg("", wrong))), "room_not_found");
    }
  }
  ASSERT_EQ(Code(stranger->Call(JoinMsg("", wrong))), "code_lockout");

  // Someone else on that address holds an invitation: the room id and its code.
  auto invited = Connect("Invited");
  // Guessing stays refused: a code alone (a lookup), right or wrong, and a wrong code with the id.
  EXPECT_EQ(Code(invited->Call(JoinMsg("", code))), "code_lockout");
  EXPECT_EQ(Code(invited->Call(PeekMsg("", code))), "code_lockout");
  EXPECT_EQ(Code(invited->Call(JoinMsg(room_id, wrong))), "code_lockout");
  EXPECT_EQ(Code(invited->Call(SpectateMsg(room_id, wrong))), "code_lockout");
  // The invitation itself is never refused for the lockout.
  v1::ServerMessage peeked = invited->Call(PeekMsg(room_id, code));
  ASSERT_TRUE(peeked.has_room()) << peeked.DebugString();
  EXPECT_EQ(peeked.room().your_seat(), -1);
  v1::ServerMessage joined = invited->Call(JoinMsg(room_id, code));
  ASSERT_TRUE(joined.has_room()) << joined.DebugString();
  EXPECT_EQ(joined.room().your_seat(), 1);
  auto watcher = Connect("Watcher");
  EXPECT_TRUE(watcher->Call(SpectateMsg(room_id, code)).has_room());

  // Even the stranger's connection enters with both; its guessing is still refused, and the
  // right codes given did not lift the address's lockout.
  EXPECT_EQ(Code(stranger->Call(JoinMsg(room_id, wrong))), "code_lockout");
  EXPECT_TRUE(stranger->Call(PeekMsg(room_id, code)).has_room());
  EXPECT_EQ(Code(stranger->Call(PeekMsg("", code))), "code_lockout");
  EXPECT_EQ(Code(Connect("Late")->Call(JoinMsg("", wrong))), "code_lockout");
}

// Wrong watch codes are guesses as wrong join codes are: charged to the connection and its
// address, and locked out alike; the room id with its watch code is never refused for it.
TEST_F(ClientLimitsTest, WrongWatchCodesCountAsWrongCodes) {
  Start(ClientLimits{});
  const auto [host, room_id, code, wrong] = CreatePrivateRoom();
  const std::string watch = host->Call(PeekMsg(room_id)).room().watch_code();
  ASSERT_FALSE(watch.empty());
  const std::string wrong_watch = watch == "AAAAAAAAAAAA" ? "BBBBBBBBBBBB" : "AAAAAAAAAAAA";

  auto guesser = Connect("Guess");
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(Code(guesser->Call(WatchMsg(room_id, wrong_watch))), "room_not_found");
  }
  // The connection's 5 are spent: join codes are refused too, a watch code alone even right.
  EXPECT_EQ(Code(guesser->Call(JoinMsg("", code))), "code_lockout");
  EXPECT_EQ(Code(guesser->Call(WatchMsg("", watch))), "code_lockout");
  EXPECT_EQ(Code(guesser->Call(WatchMsg(room_id, wrong_watch))), "code_lockout");
  // The watch link itself (room id and watch code) still watches.
  v1::ServerMessage watching = guesser->Call(WatchMsg(room_id, watch));
  ASSERT_TRUE(watching.has_room()) << watching.DebugString();
  EXPECT_EQ(watching.room().your_seat(), -1);

  // Three more connections spend the address's 20; then a fresh one is locked out at once.
  for (int conn = 0; conn < 3; ++conn) {
    auto more = Connect("More" + std::to_string(conn));
    for (int i = 0; i < 5; ++i) {
      ASSERT_EQ(Code(more->Call(WatchMsg("", wrong_watch))), "room_not_found");
    }
  }
  EXPECT_EQ(Code(Connect("Late")->Call(JoinMsg("", wrong))), "code_lockout");
}

TEST_F(ClientLimitsTest, NewPlayersPerAddressAreBounded) {
  ClientLimits limits = TestLimits();
  limits.limit_loopback = true;
  limits.ip_new_players_per_minute = 3;
  Start(limits);
  v1::Welcome first;
  auto a = Connect("P0", &first);
  auto b = Connect("P1");
  auto c = Connect("P2");
  TestClient d(server_->port());
  EXPECT_EQ(Code(d.Call(HelloName("P3"))), "rate_limited");
  // A returning player is not new.
  EXPECT_TRUE(d.Call(HelloToken(first.token())).has_welcome());
}

TEST_F(ClientLimitsTest, BehindATrustedProxyClientsAreLimitedByTheForwardedAddress) {
  ClientLimits limits = TestLimits();
  limits.connections_per_ip = 1;
  NetLimits net;
  net.trust_proxy = true;
  server_.reset();
  server_ = std::make_unique<TestServer>(dir_.File("plateau.db"), net, std::chrono::minutes(5),
                                         limits);
  const auto upgrade = [&](const std::string& forwarded) {
    return RawHttp(server_->port(),
                   "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                   "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                   "Sec-WebSocket-Version: 13\r\nX-Forwarded-For: " + forwarded + "\r\n\r\n",
                   "\r\n");
  };
  // Each RawHttp connection closes when it returns: keep one open to hold the address's slot.
  boost::asio::io_context ioc;
  boost::asio::ip::tcp::socket held(ioc);
  held.connect({boost::asio::ip::make_address("127.0.0.1"), server_->port()});
  const std::string request =
      "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
      "X-Forwarded-For: 10.9.9.9, 203.0.113.5\r\n\r\n";
  boost::asio::write(held, boost::asio::buffer(request));
  std::string head;
  boost::asio::read_until(held, boost::asio::dynamic_buffer(head), "\r\n\r\n");
  ASSERT_EQ(head.substr(0, head.find("\r\n")), "HTTP/1.1 101 Switching Protocols");
  // The same client (as the proxy saw it, whatever it claims before) is refused; another is not.
  const std::string same = upgrade("192.0.2.1, 203.0.113.5");
  EXPECT_EQ(same.substr(0, same.find("\r\n")), "HTTP/1.1 503 Service Unavailable");
  const std::string other = upgrade("203.0.113.6");
  EXPECT_EQ(other.substr(0, other.find("\r\n")), "HTTP/1.1 101 Switching Protocols");
}

}  // namespace
}  // namespace plateau::server::testing
