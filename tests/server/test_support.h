#pragma once
// Loopback harness for the server tests: the real server (in-process, 127.0.0.1, ephemeral port,
// SQLite in a fresh temporary directory) and real WebSocket clients.
//
// Every wait is bounded: a client keeps one read pending and runs its own io_context only for the
// time a test allows, so a server bug makes a test fail, never hang.
//
// The client's WebSocket lives in test_support.cc: Beast's templates are compiled there once
// instead of in every suite that includes this header.
#include <google/protobuf/message.h>
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <deque>
#include <filesystem>
#include <functional>
#include <future>
#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "engine/core/registry.h"
#include "engine/core/view_diff.h"
#include "games/globalissimo.pb.h"
#include "plateau/v1/protocol.pb.h"
#include "tests/server/mover_check.h"
#include "tests/support/temp_dir.h"
#include "server/server.h"
#include "server/storage/replay_service.h"
#include "server/storage/sqlite_store.h"

namespace plateau::server::testing {

namespace v1 = plateau::v1;
using namespace std::chrono_literals;

using plateau::testing::TempDir;

// A seat's view as the server sends it (engine::ToWireForm), from the engine's position.
std::string WireView(const engine::State& state, int seat);
// A received view's bytes without the moves the server holds for a seat that may not act
// (Table.moves_held): the engine's view of that seat has none.
std::string Unheld(const engine::Message& view);
// The key a received phrase names, by key or by number (Text.id), in `view`'s game.
std::string TextKey(const engine::Message& view, const v1::Text& text);

// The store the test server runs on: SQLite, with a gate on commits a test may close to see what
// the server does while a sync is slow (nothing acknowledged, nobody else stalled).
class GatedStore : public Store {
 public:
  explicit GatedStore(Store& inner) : inner_(inner) {}
  void Hold() { held_ = true; }
  void Release() {
    {
      std::lock_guard lock(mu_);
      held_ = false;
    }
    opened_.notify_all();
  }
  // Batches that reached their commit while held.
  int waiting() const { return waiting_; }
  // From now on storing a game's results fails (the rest still works).
  void FailResults(bool fail) { fail_results_ = fail; }
  // From now on storing a stand-in on its own fails, as if the server died before it.
  void FailStandIns(bool fail) { fail_stand_ins_ = fail; }

  Status BeginBatch() override { return inner_.BeginBatch(); }
  Status CommitBatch() override {
    std::unique_lock lock(mu_);
    if (held_) {
      ++waiting_;
      opened_.wait_for(lock, std::chrono::seconds(10), [&] { return !held_; });
      --waiting_;
    }
    lock.unlock();
    return inner_.CommitBatch();
  }
  void RollbackBatch() override { inner_.RollbackBatch(); }
  Status SavePlayer(const std::string& t, const StoredPlayer& p) override {
    return inner_.SavePlayer(t, p);
  }
  StatusOr<std::optional<StoredPlayer>> FindPlayer(const std::string& t) override {
    return inner_.FindPlayer(t);
  }
  Status TouchPlayer(const std::string& p, int64_t at) override {
    return inner_.TouchPlayer(p, at);
  }
  Status ReplaceToken(const std::string& old_token, const std::string& new_token,
                      int64_t at) override {
    return inner_.ReplaceToken(old_token, new_token, at);
  }
  Status BeginGame(const v1::GameRecord& r, const RoomRecord& room) override {
    return inner_.BeginGame(r, room);
  }
  Status AppendAction(const std::string& g, uint32_t i, const v1::ReplayAction& a) override {
    return inner_.AppendAction(g, i, a);
  }
  Status TakeBackAction(const std::string& g, uint32_t i, int64_t at) override {
    return inner_.TakeBackAction(g, i, at);
  }
  Status RecordResume(const std::string& g, int64_t at, int64_t grace) override {
    return inner_.RecordResume(g, at, grace);
  }
  Status SetStandIn(const std::string& g, int seat, int level) override {
    if (fail_stand_ins_) return Status("io_error", "stand-ins refused by the test");
    return inner_.SetStandIn(g, seat, level);
  }
  Status SetLeft(const std::string& g, int seat, bool left) override {
    return inner_.SetLeft(g, seat, left);
  }
  Status FinishGame(const std::string& g, const std::vector<v1::SeatResult>& r,
                    int64_t ms) override {
    if (fail_results_) return Status("io_error", "results refused by the test");
    return inner_.FinishGame(g, r, ms);
  }
  StatusOr<std::optional<v1::GameRecord>> LoadGame(const std::string& g) override {
    return inner_.LoadGame(g);
  }
  StatusOr<std::optional<GameAccess>> LoadGameAccess(const std::string& g) override {
    return inner_.LoadGameAccess(g);
  }
  StatusOr<std::vector<v1::ReplaySummary>> ListFinished(const std::string& g, uint32_t l,
                                                       const std::string& b,
                                                       const std::string& viewer) override {
    return inner_.ListFinished(g, l, b, viewer);
  }
  StatusOr<std::vector<Unfinished>> LoadUnfinished() override { return inner_.LoadUnfinished(); }
  // Several nodes: passed through, so a node on PostgreSQL runs as the binary's does.
  bool BatchOpen() override { return inner_.BatchOpen(); }
  void StartCall(size_t call) override { inner_.StartCall(call); }
  Status CallOutcome(size_t call) override { return inner_.CallOutcome(call); }
  Status RenewLeases() override { return inner_.RenewLeases(); }
  StatusOr<std::vector<Unfinished>> TakeOver() override { return inner_.TakeOver(); }
  Status HandOver() override { return inner_.HandOver(); }
  Status ClaimRoom(const std::string& r, const RoomClaim& c) override { return inner_.ClaimRoom(r, c); }
  StatusOr<CodeLookup> LookUpCode(const std::string& c, bool w, const std::string& a, int n,
                                  std::chrono::milliseconds t) override {
    return inner_.LookUpCode(c, w, a, n, t);
  }
  Status SetRoomCreator(const std::string& r, const std::string& c) override {
    return inner_.SetRoomCreator(r, c);
  }
  Status ReleaseRoom(const std::string& r) override { return inner_.ReleaseRoom(r); }
  StatusOr<RoomOwner> FindOwner(const std::string& r) override { return inner_.FindOwner(r); }
  StatusOr<std::vector<std::string>> PlayerRoomsElsewhere(const std::string& p) override {
    return inner_.PlayerRoomsElsewhere(p);
  }

 private:
  Store& inner_;
  std::mutex mu_;
  std::condition_variable opened_;
  std::atomic<bool> held_{false};
  std::atomic<int> waiting_{0};
  std::atomic<bool> fail_results_{false};
  std::atomic<bool> fail_stand_ins_{false};
};

// The limits the loopback tests run under: the server's defaults, except the rates that tests
// playing whole games or filling chat in a loop would hit. limits_test.cc checks each limit.
inline ClientLimits TestLimits() {
  ClientLimits limits;
  limits.requests_per_second = 0;
  limits.chat_per_second = 0;
  limits.rooms_per_hour = 0;
  limits.open_rooms_per_player = 0;
  return limits;
}

// The whole server on its own io_contexts (two shards) and threads, on a database file that outlives it (so a
// second instance can open the same file).
class TestServer {
 public:
  explicit TestServer(const std::string& db_path, NetLimits limits = {},
                      std::chrono::milliseconds empty_room_grace = std::chrono::minutes(5),
                      ClientLimits client_limits = TestLimits(),
                      std::chrono::milliseconds offline_grace = std::chrono::seconds(60),
                      std::chrono::milliseconds abandoned_after = std::chrono::hours(72),
                      std::function<int64_t()> wall_clock = {}) {
    auto store = SqliteStore::Open(db_path);
    if (!store.ok()) {
      ADD_FAILURE() << "cannot open " << db_path << ": " << store.status().ToString();
      return;
    }
    ServerOptions options;
    options.port = 0;
    options.limits = std::move(limits);
    options.empty_room_grace = empty_room_grace;
    options.client_limits = client_limits;
    options.offline_grace = offline_grace;
    options.abandoned_after = abandoned_after;
    options.wall_clock = std::move(wall_clock);
    Start(std::move(store).value(), std::move(options));
  }

  // On a store of the caller's (a node on PostgreSQL) with options of its own.
  TestServer(std::unique_ptr<Store> store, ServerOptions options) {
    Start(std::move(store), std::move(options));
  }

  ~TestServer() { Stop(); }

  Metrics& metrics() { return server_->metrics(); }

  // Clean shutdown: stop accepting, close sessions, let the loop drain (bounded).
  void Stop() {
    if (stopped_) return;
    stopped_ = true;
    if (server_) server_->Shutdown();
    const auto deadline = std::chrono::steady_clock::now() + 5s;
    while (server_ && server_->lobby().ConnectionCount() > 0 &&
           std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(10ms);
    }
    StopShards();
    TearDown();
  }

 private:
  void Start(std::unique_ptr<Store> store, ServerOptions options) {
    EXPECT_TRUE(engine::Registry::LoadAll().ok());
    store_ = std::move(store);
    gated_ = std::make_unique<GatedStore>(*store_);
    replay_service_ = std::make_unique<ReplayService>(*gated_);
    replays_ = replay_service_.get();
    options.bind = "127.0.0.1";
    // Short searches: the tests check how normal bots play, not how well.
    options.bot_think = std::chrono::milliseconds(20);
    // Two shards, one thread each, as the binary runs by default.
    std::vector<boost::asio::io_context*> shards;
    for (auto& shard : shards_) shards.push_back(shard.get());
    server_ = std::make_unique<Server>(shards, options, *gated_, replays_);
    engine::Status started = server_->Start();
    if (!started.ok()) {
      ADD_FAILURE() << "server did not start: " << started.ToString();
      return;
    }
    for (auto& shard : shards_) threads_.emplace_back([ioc = shard.get()] { ioc->run(); });
  }

 public:

  // What the binary does on SIGTERM or SIGINT (server/main.cc): Server::StopGracefully with its
  // deadline, the loop stopped when that calls back, then everything torn down as at the
  // process's exit (a socket still open is closed then, with no close frame). Blocks until then:
  // clients answer their close frames meanwhile from other threads.
  void StopAsOnSignal() {
    if (stopped_) return;
    stopped_ = true;
    if (server_) {
      server_->StopGracefully(Server::kStopDeadline, [this] { StopShards(); });
    } else {
      StopShards();
    }
    TearDown();
  }

  uint16_t port() const { return server_ ? server_->port() : 0; }
  Server& server() { return *server_; }
  Store& store() { return *store_; }
  GatedStore& gate() { return *gated_; }

  // Runs `fn` on the room's strand and waits for it (bounded). False if there is no such room.
  bool InspectRoom(const std::string& room_id,
                   const std::function<void(const engine::State*, uint64_t)>& fn) {
    auto room = server_->lobby().FindRoom(room_id);
    if (!room) return false;
    auto done = std::make_shared<std::promise<void>>();
    auto future = done->get_future();
    room->Inspect([fn, done](const engine::State* s, uint64_t v) {
      fn(s, v);
      done->set_value();
    });
    return future.wait_for(5s) == std::future_status::ready;
  }

 private:
  // Once the loop has stopped, in the binary's order: the server, then the io_context (which
  // closes the sockets its handlers still hold), then the store.
  void TearDown() {
    for (auto& t : threads_) t.join();
    threads_.clear();
    if (server_) server_->StopWorkers();
    for (auto& shard : shards_) shard->shutdown();  // see ShardContext
    server_.reset();
    replays_ = nullptr;
    replay_service_.reset();
    shards_.clear();
    gated_.reset();
    store_.reset();
  }

  void StopShards() {
    for (auto& shard : shards_) shard->stop();
  }

  std::vector<std::unique_ptr<ShardContext>> shards_ = [] {
    std::vector<std::unique_ptr<ShardContext>> shards;
    for (int i = 0; i < 2; ++i) shards.push_back(std::make_unique<ShardContext>());
    return shards;
  }();
  std::unique_ptr<Store> store_;
  std::unique_ptr<GatedStore> gated_;
  std::unique_ptr<ReplayService> replay_service_;
  Replays* replays_ = nullptr;
  std::unique_ptr<Server> server_;
  std::vector<std::thread> threads_;
  bool stopped_ = false;
};

// One game view a client holds: applies Snapshots and Diffs like a real client does.
struct HeldView {
  std::unique_ptr<google::protobuf::Message> view;
  uint64_t version = 0;
  int seat = -1;
  std::vector<int> acting;
  bool game_over = false;
  bool can_undo = false;  // the last Snapshot or Diff said the seat may take back its move
};

// A move chosen from the held view only, as a client would: a free card and position 1, or some
// answer to a barrier question (right or wrong does not matter here). Empty if `seat` may not act.
inline std::string GlobalissimoMove(const HeldView& held, int seat) {
  const auto& view = static_cast<const plateau::games::globalissimo::View&>(*held.view);
  plateau::games::globalissimo::Action action;
  if (view.phase() == plateau::games::globalissimo::PHASE_PLACEMENT && view.to_act() == seat) {
    for (int slot = 0; slot < view.display_size(); ++slot) {
      if (view.display(slot).tile_seat() < 0) {
        action.mutable_place()->set_slot(static_cast<uint32_t>(slot));
        action.mutable_place()->set_position(1);
        return action.SerializeAsString();
      }
    }
  }
  if (view.phase() == plateau::games::globalissimo::PHASE_QUESTION && static_cast<int>(view.question().seat()) == seat) {
    if (view.question().kind() == plateau::games::globalissimo::BARRIER_ORANGE) {
      action.mutable_answer_capital()->set_text("Atlantis City");
    } else {
      action.mutable_answer_location()->set_map_id("999");
    }
    return action.SerializeAsString();
  }
  return {};
}

class TestClient {
 public:
  // `receive_buffer` > 0 shrinks the socket's receive buffer (a slow client fills up sooner).
  // `target`: the upgrade's request target (a room hint: "/ws?room=ID").
  explicit TestClient(uint16_t port, int receive_buffer = 0, const std::string& target = "/ws");
  ~TestClient();

  bool open() const { return open_; }
  // The close code the server sent, once the connection ended.
  uint16_t close_code() const;

  // Sends one frame of raw bytes; false if the write failed or timed out.
  bool SendRaw(const std::string& bytes);

  // Sends a request with a fresh request_id; returns that id.
  uint64_t Send(v1::ClientMessage m) {
    m.set_request_id(++last_request_id_);
    SendRaw(m.SerializeAsString());
    return m.request_id();
  }

  // Sends and waits for the reply (a message with the same request_id); pushes that arrive
  // meanwhile are kept for NextPush. An empty ServerMessage when none came in time.
  v1::ServerMessage Call(v1::ClientMessage m, std::chrono::milliseconds timeout = 5s) {
    const uint64_t id = Send(std::move(m));
    return WaitReply(id, timeout);
  }

  v1::ServerMessage WaitReply(uint64_t id, std::chrono::milliseconds timeout = 5s) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
      for (auto it = inbox_.begin(); it != inbox_.end(); ++it) {
        if (it->request_id() == id) {
          v1::ServerMessage reply = std::move(*it);
          inbox_.erase(it);
          return reply;
        }
      }
      const auto now = std::chrono::steady_clock::now();
      if (now >= deadline || !open_) return {};
      ReadMore(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now));
    }
  }

  // The next push (request_id 0) satisfying `pred`, skipping (and dropping) earlier pushes that
  // do not; nullopt after `timeout`.
  std::optional<v1::ServerMessage> WaitPush(
      const std::function<bool(const v1::ServerMessage&)>& pred,
      std::chrono::milliseconds timeout = 5s) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
      while (!inbox_.empty()) {
        auto it = std::find_if(inbox_.begin(), inbox_.end(),
                               [](const v1::ServerMessage& m) { return m.request_id() == 0; });
        if (it == inbox_.end()) break;
        v1::ServerMessage m = std::move(*it);
        inbox_.erase(it);
        Observe(m);
        if (pred(m)) return m;
      }
      const auto now = std::chrono::steady_clock::now();
      if (now >= deadline || !open_) return std::nullopt;
      ReadMore(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now));
    }
  }

  // Applies every push received within `quiet` (Snapshots and Diffs update the held views).
  void Drain(std::chrono::milliseconds quiet = 200ms) {
    WaitPush([](const v1::ServerMessage&) { return false; }, quiet);
  }

  // Pushes received and not yet consumed by a WaitPush, after reading for `wait`.
  std::vector<v1::ServerMessage> PendingPushes(std::chrono::milliseconds wait) {
    ReadMore(wait);
    std::vector<v1::ServerMessage> out;
    for (const auto& m : inbox_) {
      if (m.request_id() == 0) out.push_back(m);
    }
    return out;
  }

  // Every frame with a Diff received so far, exactly as it came (an answer still carrying its
  // request_id and `accepted`).
  const std::vector<v1::ServerMessage>& diff_frames() const { return diff_frames_; }

  // Waits until the server ends the connection; true if it did within `timeout`.
  bool WaitClosed(std::chrono::milliseconds timeout) {
    RunUntil([&] { return !open_; }, timeout);
    return !open_;
  }

  void Close();

  // --- Views ---

  // Updates the held view of its room from a Snapshot or Diff. Diffs that do not continue the
  // held version are counted in `gaps` (a real client would Resync).
  void Observe(const v1::ServerMessage& m) {
    if (m.has_snapshot()) {
      const auto& s = m.snapshot();
      HeldView& h = views_[s.room_id()];
      const auto* desc = google::protobuf::DescriptorPool::generated_pool()->FindMessageTypeByName(
          s.view_type());
      ASSERT_NE(desc, nullptr) << s.view_type();
      h.view.reset(google::protobuf::MessageFactory::generated_factory()->GetPrototype(desc)->New());
      ASSERT_TRUE(h.view->ParseFromString(s.view()));
      h.version = s.version();
      h.seat = s.seat();
      h.acting.assign(s.acting_seats().begin(), s.acting_seats().end());
      h.game_over = s.game_over();
      h.can_undo = s.can_undo();
      ++snapshots;
    } else if (m.has_diff()) {
      const auto& d = m.diff();
      HeldView& h = views_[d.room_id()];
      if (!h.view || d.diff().from_version() != h.version) {
        ++gaps;
        return;
      }
      engine::Status st = engine::ApplyDiff(d.diff().ops(), h.view.get());
      ASSERT_TRUE(st.ok()) << st.ToString();
      h.version = d.diff().to_version();
      h.acting.assign(d.acting_seats().begin(), d.acting_seats().end());
      h.game_over = d.game_over();
      h.can_undo = d.can_undo();
      ++diffs;
    }
  }

  HeldView& view(const std::string& room_id) { return views_[room_id]; }

  int snapshots = 0;
  int diffs = 0;
  int gaps = 0;

 private:
  struct Wire;  // the socket and its io_context (test_support.cc)

  void StartRead();
  // Keeps the frame: an answer that carries the mover's Diff is also kept as a push.
  void Received(v1::ServerMessage m);

  void ReadMore(std::chrono::milliseconds timeout) {
    const size_t before = inbox_.size();
    RunUntil([&] { return inbox_.size() > before || !open_; }, timeout);
  }

  // Runs the client's io_context until `done` or the timeout.
  void RunUntil(const std::function<bool()>& done, std::chrono::milliseconds timeout);

  std::unique_ptr<Wire> wire_;
  std::deque<v1::ServerMessage> inbox_;
  std::vector<v1::ServerMessage> diff_frames_;
  std::map<std::string, HeldView> views_;
  uint64_t last_request_id_ = 0;
  bool open_ = false;
};

// A new client that said Hello as `name` (the Welcome in `welcome` if asked).
inline std::unique_ptr<TestClient> ConnectAs(uint16_t port, const std::string& name,
                                             v1::Welcome* welcome = nullptr);

// --- Request builders ---

// Requests the loopback tests send, one builder each.
inline v1::ClientMessage JoinMsg(const std::string& room_id, const std::string& code = "") {
  v1::ClientMessage m;
  m.mutable_join_room()->set_room_id(room_id);
  m.mutable_join_room()->set_join_code(code);
  return m;
}

inline v1::ClientMessage SpectateMsg(const std::string& room_id, const std::string& code = "") {
  v1::ClientMessage m;
  m.mutable_spectate()->set_room_id(room_id);
  m.mutable_spectate()->set_join_code(code);
  return m;
}

// Watching by the room's watch code (RoomInfo.watch_code), which never seats anyone.
inline v1::ClientMessage WatchMsg(const std::string& room_id, const std::string& watch_code) {
  v1::ClientMessage m;
  m.mutable_spectate()->set_room_id(room_id);
  m.mutable_spectate()->set_watch_code(watch_code);
  return m;
}

inline v1::ClientMessage PeekMsg(const std::string& room_id, const std::string& code = "") {
  v1::ClientMessage m;
  m.mutable_peek_room()->set_room_id(room_id);
  m.mutable_peek_room()->set_join_code(code);
  return m;
}

inline v1::ClientMessage ReadyMsg(const std::string& room_id) {
  v1::ClientMessage m;
  m.mutable_set_ready()->set_room_id(room_id);
  m.mutable_set_ready()->set_ready(true);
  return m;
}

inline v1::ClientMessage StartMsg(const std::string& room_id) {
  v1::ClientMessage m;
  m.mutable_start_game()->set_room_id(room_id);
  return m;
}

inline v1::ClientMessage ActionMsg(const std::string& room_id, const std::string& action) {
  v1::ClientMessage m;
  m.mutable_action()->set_room_id(room_id);
  m.mutable_action()->set_action(action);
  return m;
}

inline v1::ClientMessage ChatMsg(const std::string& room_id, const std::string& text) {
  v1::ClientMessage m;
  m.mutable_chat()->set_room_id(room_id);
  m.mutable_chat()->set_text(text);
  return m;
}

inline v1::ClientMessage ResyncMsg(const std::string& room_id, uint64_t have) {
  v1::ClientMessage m;
  m.mutable_resync()->set_room_id(room_id);
  m.mutable_resync()->set_have_version(have);
  return m;
}

inline v1::ClientMessage PingMsg() {
  v1::ClientMessage m;
  m.mutable_ping();
  return m;
}

inline v1::ClientMessage HelloName(const std::string& name) {
  v1::ClientMessage m;
  m.mutable_hello()->set_name(name);
  m.mutable_hello()->set_protocol_version(1);
  return m;
}

inline v1::ClientMessage HelloToken(const std::string& token) {
  v1::ClientMessage m;
  m.mutable_hello()->set_token(token);
  m.mutable_hello()->set_protocol_version(1);
  return m;
}

// `a` creates a room with `create` and hosts it, `b` joins (with the room's code when `code` is
// given, which receives it) and is ready, and the game starts; returns the room id.
inline std::string StartGameIn(TestClient& a, TestClient& b, v1::ClientMessage create,
                               std::string* code = nullptr) {
  v1::ServerMessage created = a.Call(std::move(create));
  EXPECT_TRUE(created.has_room()) << created.DebugString();
  const std::string room_id = created.room().room_id();
  if (code) *code = created.room().join_code();
  EXPECT_TRUE(b.Call(JoinMsg(room_id, code ? *code : "")).has_room());
  EXPECT_TRUE(b.Call(ReadyMsg(room_id)).has_ok());
  EXPECT_TRUE(a.Call(StartMsg(room_id)).has_ok());
  EXPECT_TRUE(a.WaitPush([](const v1::ServerMessage& m) { return m.has_snapshot(); }));
  EXPECT_TRUE(b.WaitPush([](const v1::ServerMessage& m) { return m.has_snapshot(); }));
  return room_id;
}

inline std::unique_ptr<TestClient> ConnectAs(uint16_t port, const std::string& name,
                                             v1::Welcome* welcome) {
  auto c = std::make_unique<TestClient>(port);
  v1::ServerMessage reply = c->Call(HelloName(name));
  EXPECT_TRUE(reply.has_welcome()) << reply.DebugString();
  if (welcome) *welcome = reply.welcome();
  return c;
}

// A game played through the server by WebSocket clients (tests/server/<game>_server_test.cc): the
// server on a fresh database, the test skipped while `game` is not registered.
class GameServerTest : public ::testing::Test {
 protected:
  explicit GameServerTest(std::string game) : game_(std::move(game)) {}
  void SetUp() override;

  std::unique_ptr<TestClient> Connect(const std::string& name);
  // `host` creates a room with `create`, the `others` join and get ready, and the game starts;
  // every player holds its Snapshot on return. Returns the room id ("" on failure).
  std::string StartRoom(TestClient& host, const std::vector<TestClient*>& others,
                        v1::ClientMessage create);
  // The players' clients by the seat the server gave each.
  std::vector<TestClient*> BySeat(const std::string& room_id,
                                  const std::vector<TestClient*>& players);
  // The server's own view for `seat` (engine::kSpectator included) in `room_id`, as bytes.
  std::string ServerView(const std::string& room_id, int seat);

  // A seat's next action (serialized) from what its client holds; empty when it has nothing to
  // do now.
  using Chooser = std::function<std::string(HeldView& held, int seat)>;
  // Plays until the game is over: each time, the first seat (in seat order) whose chooser gives an
  // action sends it; it must be accepted, and every client in `everyone` must receive its Diff.
  // `after_move` runs after each move. Returns the number of moves; fails past `max_moves`.
  int PlayToTheEnd(const std::string& room_id, const std::vector<TestClient*>& by_seat,
                   const std::vector<TestClient*>& everyone, const Chooser& choose, int max_moves,
                   const std::function<void()>& after_move = {});
  // Once over: every client got its GameOver with a result per seat and no gap in its versions,
  // every view built from Diffs is the server's own (spectators' too), and the stored replay at
  // the last step reproduces each seat's view. Returns the game id.
  std::string CheckFinishedGame(const std::string& room_id, const std::vector<TestClient*>& by_seat,
                                const std::vector<TestClient*>& watchers, int moves);

  std::string game_;
  TempDir dir_;
  std::unique_ptr<TestServer> server_;
};

}  // namespace plateau::server::testing
