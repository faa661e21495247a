// The loopback test client's WebSocket (see test_support.h): every Beast call it makes.
#include "tests/server/test_support.h"

#include "engine/core/registry.h"

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

namespace plateau::server::testing {

namespace {

// How an operation ended, once it has.
struct Outcome {
  bool done = false;
  boost::beast::error_code ec;
};

}  // namespace

struct TestClient::Wire {
  boost::asio::io_context ioc;
  boost::beast::websocket::stream<boost::beast::tcp_stream> ws{ioc};
  boost::beast::flat_buffer buffer;
};

TestClient::TestClient(uint16_t port, int receive_buffer, const std::string& target) : wire_(std::make_unique<Wire>()) {
  auto& ws = wire_->ws;
  auto& socket = boost::beast::get_lowest_layer(ws).socket();
  boost::system::error_code ec;
  socket.open(boost::asio::ip::tcp::v4(), ec);
  if (receive_buffer > 0) {
    socket.set_option(boost::asio::socket_base::receive_buffer_size(receive_buffer), ec);
  }
  boost::beast::get_lowest_layer(ws).expires_after(5s);
  socket.connect({boost::asio::ip::make_address("127.0.0.1"), port}, ec);
  if (ec) {
    ADD_FAILURE() << "connect: " << ec.message();
    return;
  }
  // What a handler reports lives on the heap: after a timeout the handler may still run, in a
  // later wait, when this frame is gone.
  auto handshake = std::make_shared<Outcome>();
  ws.async_handshake("127.0.0.1", target, [handshake](boost::beast::error_code e) {
    handshake->ec = e;
    handshake->done = true;
  });
  RunUntil([&] { return handshake->done; }, 5s);
  if (!handshake->done || handshake->ec) {
    ADD_FAILURE() << "websocket handshake: "
                  << (handshake->done ? handshake->ec.message() : "timed out");
    return;
  }
  boost::beast::get_lowest_layer(ws).expires_never();
  socket.set_option(boost::asio::ip::tcp::no_delay(true), ec);
  ws.binary(true);
  open_ = true;
  StartRead();
}

TestClient::~TestClient() = default;

uint16_t TestClient::close_code() const { return wire_->ws.reason().code; }

bool TestClient::SendRaw(const std::string& bytes) {
  if (!open_) return false;
  auto written = std::make_shared<Outcome>();
  auto buffer = std::make_shared<std::string>(bytes);
  wire_->ws.async_write(boost::asio::buffer(*buffer),
                        [written, buffer](boost::beast::error_code e, size_t) {
                          written->ec = e;
                          written->done = true;
                        });
  RunUntil([&] { return written->done; }, 5s);
  return written->done && !written->ec;
}

void TestClient::Close() {
  if (!open_) return;
  boost::beast::error_code ec;
  boost::beast::get_lowest_layer(wire_->ws).socket().close(ec);
  RunUntil([&] { return !open_; }, 1s);
  open_ = false;
}

void TestClient::StartRead() {
  wire_->ws.async_read(wire_->buffer, [this](boost::beast::error_code ec, size_t) {
    if (ec) {
      open_ = false;
      return;
    }
    v1::ServerMessage m;
    const auto data = wire_->buffer.cdata();
    if (!m.ParseFromArray(data.data(), static_cast<int>(data.size()))) {
      ADD_FAILURE() << "the server sent an undecodable frame";
    }
    wire_->buffer.consume(wire_->buffer.size());
    Received(std::move(m));
    StartRead();
  });
}

void TestClient::Received(v1::ServerMessage m) {
  if (m.has_diff()) diff_frames_.push_back(m);
  if (m.request_id() != 0 && m.has_diff()) {
    // An accepted action's answer carries the mover's Diff: a client applies it like any other
    // update, so it is also kept as a push.
    v1::ServerMessage push = m;
    push.clear_request_id();
    push.clear_accepted();
    inbox_.push_back(std::move(push));
  }
  inbox_.push_back(std::move(m));
}

void TestClient::RunUntil(const std::function<bool()>& done, std::chrono::milliseconds timeout) {
  auto& ioc = wire_->ioc;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done() && std::chrono::steady_clock::now() < deadline) {
    ioc.restart();
    ioc.run_one_for(deadline - std::chrono::steady_clock::now());
  }
}

// ----- GameServerTest -----

void GameServerTest::SetUp() {
  ASSERT_TRUE(engine::Registry::LoadAll().ok());
  if (engine::Registry::Find(game_) == nullptr) {
    GTEST_SKIP() << game_ << " is not registered in this build (engine/games/CMakeLists.txt): "
                 << "nothing to play through the server yet.";
  }
  server_ = std::make_unique<TestServer>(dir_.File("plateau.db"));
  ASSERT_NE(server_->port(), 0);
}

std::unique_ptr<TestClient> GameServerTest::Connect(const std::string& name) {
  auto c = std::make_unique<TestClient>(server_->port());
  v1::ServerMessage reply = c->Call(HelloName(name));
  EXPECT_TRUE(reply.has_welcome()) << reply.DebugString();
  return c;
}

std::string GameServerTest::StartRoom(TestClient& host, const std::vector<TestClient*>& others,
                                      v1::ClientMessage create) {
  v1::ServerMessage created = host.Call(std::move(create));
  EXPECT_TRUE(created.has_room()) << created.DebugString();
  const std::string room_id = created.room().room_id();
  for (TestClient* other : others) {
    EXPECT_TRUE(other->Call(JoinMsg(room_id)).has_room());
    EXPECT_TRUE(other->Call(ReadyMsg(room_id)).has_ok());
  }
  EXPECT_TRUE(host.Call(StartMsg(room_id)).has_ok());
  std::vector<TestClient*> players = others;
  players.push_back(&host);
  for (TestClient* cl : players) {
    EXPECT_TRUE(cl->WaitPush([](const v1::ServerMessage& m) { return m.has_snapshot(); }));
  }
  return room_id;
}

std::vector<TestClient*> GameServerTest::BySeat(const std::string& room_id,
                                                const std::vector<TestClient*>& players) {
  std::vector<TestClient*> by_seat(players.size(), nullptr);
  for (TestClient* cl : players) {
    const int seat = cl->view(room_id).seat;
    EXPECT_TRUE(seat >= 0 && seat < static_cast<int>(players.size())) << "seat " << seat;
    if (seat >= 0 && seat < static_cast<int>(players.size())) by_seat[seat] = cl;
  }
  for (TestClient* cl : by_seat) EXPECT_NE(cl, nullptr) << "two players on one seat";
  return by_seat;
}

std::string WireView(const engine::State& state, int seat) {
  std::unique_ptr<engine::Message> view = state.View(seat);
  engine::ToWireForm(state.game(), view.get());
  return engine::DeterministicBytes(*view);
}

std::string Unheld(const engine::Message& view) {
  std::unique_ptr<engine::Message> copy(view.New());
  copy->CopyFrom(view);
  const auto* field = copy->GetDescriptor()->FindFieldByName("table");
  if (field != nullptr) {
    auto* table = static_cast<v1::Table*>(copy->GetReflection()->MutableMessage(copy.get(), field));
    if (table->moves_held()) {
      table->clear_moves();
      table->clear_moves_held();
    }
  }
  return engine::DeterministicBytes(*copy);
}

std::string TextKey(const engine::Message& view, const v1::Text& text) {
  for (const engine::Game* g : engine::Registry::All())
    if (g->ViewPrototype().GetDescriptor() == view.GetDescriptor())
      return g->TextRenderer().KeyOfText(text);
  return text.key();
}

std::string GameServerTest::ServerView(const std::string& room_id, int seat) {
  std::string out;
  EXPECT_TRUE(server_->InspectRoom(room_id, [&](const engine::State* s, uint64_t) {
    if (s) out = WireView(*s, seat);
  }));
  return out;
}

int GameServerTest::PlayToTheEnd(const std::string& room_id,
                                 const std::vector<TestClient*>& by_seat,
                                 const std::vector<TestClient*>& everyone, const Chooser& choose,
                                 int max_moves, const std::function<void()>& after_move) {
  int moves = 0;
  TestClient& first = *by_seat.front();
  while (!first.view(room_id).game_over) {
    if (moves >= max_moves) {
      ADD_FAILURE() << "not over after " << moves << " moves";
      return moves;
    }
    bool moved = false;
    for (size_t seat = 0; seat < by_seat.size() && !moved; ++seat) {
      TestClient& cl = *by_seat[seat];
      HeldView& held = cl.view(room_id);
      if (!held.view) {
        ADD_FAILURE() << "seat " << seat << " holds no view";
        return moves;
      }
      const std::string action = choose(held, static_cast<int>(seat));
      if (action.empty()) continue;
      const uint64_t before = held.version;
      const std::vector<int> acting_before = held.acting;
      v1::ServerMessage reply = cl.Call(ActionMsg(room_id, action));
      if (!reply.has_accepted()) {
        auto parsed = engine::Registry::Find(game_)->ParseActionBytes(action);
        ADD_FAILURE() << "seat " << seat << " chose "
                      << (parsed.ok() ? engine::Registry::Find(game_)->ActionToText(*parsed.value())
                                      : std::string("(unparsable)"))
                      << " from its view: " << reply.DebugString();
        return moves;
      }
      for (TestClient* other : everyone) {
        auto diff = other->WaitPush([&](const v1::ServerMessage& m) {
          return m.has_diff() && m.diff().diff().to_version() == before + 1;
        });
        if (!diff) {
          ADD_FAILURE() << "no diff to version " << before + 1;
          return moves;
        }
        ExpectMoverNamed(diff->diff(), static_cast<int>(seat), acting_before,
                         other->view(room_id).seat);
      }
      moved = true;
    }
    if (!moved) {
      ADD_FAILURE() << "no client's view asks it anything, yet the game is not over";
      return moves;
    }
    ++moves;
    if (after_move) after_move();
  }
  return moves;
}

std::string GameServerTest::CheckFinishedGame(const std::string& room_id,
                                              const std::vector<TestClient*>& by_seat,
                                              const std::vector<TestClient*>& watchers,
                                              int moves) {
  std::string game_id;
  std::vector<TestClient*> everyone = by_seat;
  everyone.insert(everyone.end(), watchers.begin(), watchers.end());
  for (TestClient* cl : everyone) {
    auto over = cl->WaitPush([](const v1::ServerMessage& m) { return m.has_game_over(); });
    if (!over) {
      ADD_FAILURE() << "no GameOver";
      return game_id;
    }
    EXPECT_EQ(over->game_over().results_size(), static_cast<int>(by_seat.size()));
    game_id = over->game_over().game_id();
    EXPECT_EQ(cl->gaps, 0);
  }
  // Built from Diffs alone, every client's view is the server's view for its seat.
  for (size_t seat = 0; seat < by_seat.size(); ++seat) {
    EXPECT_EQ(engine::DeterministicBytes(*by_seat[seat]->view(room_id).view),
              ServerView(room_id, static_cast<int>(seat)));
  }
  for (TestClient* w : watchers) {
    EXPECT_EQ(engine::DeterministicBytes(*w->view(room_id).view),
              ServerView(room_id, engine::kSpectator));
  }
  // The stored replay reproduces each seat's final view.
  for (size_t seat = 0; seat < by_seat.size(); ++seat) {
    v1::ClientMessage get;
    get.mutable_get_replay()->set_game_id(game_id);
    get.mutable_get_replay()->set_step(static_cast<uint32_t>(moves));
    get.mutable_get_replay()->set_seat(static_cast<int32_t>(seat));
    v1::ServerMessage replay = by_seat[seat]->Call(get);
    EXPECT_TRUE(replay.has_replay()) << replay.DebugString();
    EXPECT_EQ(replay.replay().view(), ServerView(room_id, static_cast<int>(seat)));
  }
  return game_id;
}

}  // namespace plateau::server::testing
