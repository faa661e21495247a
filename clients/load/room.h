#pragma once
// One room of bots: its players' connections, the lobby steps that seat them and start a game,
// their play from their own views, and the next game once one ends. Everything of a room runs on
// one strand, so its bots coordinate without locks; rooms share only the LoadContext.
#include <google/protobuf/arena.h>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "clients/load/metrics.h"
#include "clients/load/pace.h"
#include "clients/load/ws_client.h"
#include "engine/core/game.h"
#include "engine/core/rng.h"

namespace plateau::load {

// What every room reads, set up before the first room starts, and the stop flag they all check.
struct LoadContext {
  const engine::Game* game = nullptr;
  const google::protobuf::FieldDescriptor* table_field = nullptr;  // View.table
  int seats = 0;
  int rooms = 0;
  double rate = 0;  // accepted actions per second wanted in all; 0: closed loop
  bool reconnect = false;  // a lost connection is opened again (--reconnect)
  ServerAddress server;
  Metrics* metrics = nullptr;
  std::atomic<bool> stopping{false};
  // Called from a room's strand, once per room: every bot of its first game is seated and ready
  // (the game waits for Go), or it gave up. Rooms start together so that rooms set up late are
  // not starved by rooms already playing.
  std::function<void(bool failed)> room_settled;
};

// What a run's timeline asks of every room, whatever it plays (RunRooms).
class RoomBase {
 public:
  virtual ~RoomBase() = default;
  // Thread-safe: they hop onto the room's strand.
  virtual void Start() = 0;
  virtual void Stop() = 0;
  // Every room is ready: start playing.
  virtual void Go() = 0;
};

class Room;

// One player: its connection, its place in the room, and its copy of its own view. It acts only
// on what that view shows (the questions in its table, the moves it publishes), like a client.
class Bot final : public WsClient {
 public:
  Bot(Room& room, int index, boost::asio::any_io_executor executor,
      std::optional<boost::asio::ip::address> source, uint64_t seed);

  bool welcomed() const { return welcomed_; }
  // Takes the seat of `lost`, whose connection was lost `lost_at`: the same player (its token),
  // the same room.
  void Succeed(const Bot& lost, Clock::time_point lost_at);
  int index() const { return index_; }
  const std::string& joined() const { return joined_; }
  void CreateRoom();
  void JoinRoom(const std::string& room_id);
  void SetReady(const std::string& room_id);
  void StartGame(const std::string& room_id);
  // Leaves the room of a finished game and forgets that game.
  void LeaveFinished(const std::string& room_id);
  // Submits an action when its view says it may act, the last one is answered, and (paced) the
  // room's next slot has come.
  void MaybeAct();
  void Stop();

 private:
  // Replies name their request by id; its low bits say what the request was, so a reply needs
  // no lookup.
  enum Purpose : uint64_t {
    kHello = 1, kCreate, kJoin, kReady, kStart, kSubmit, kResync, kLeave, kRejoin
  };
  static constexpr int kPurposeBits = 4;

  void OnOpen() override;
  void OnMessage(const plateau::v1::ServerMessage& message, size_t frame_bytes) override;
  void OnClosed(const std::string& error) override;
  void OnReply(const plateau::v1::ServerMessage& message);
  void OnSubmitReply(const plateau::v1::ServerMessage& message);
  void OnSnapshot(const plateau::v1::Snapshot& snapshot);
  void OnDiff(const plateau::v1::Diff& diff);
  void ViewChanged();
  void RequestResync(uint64_t have_version);
  void RetryLater();
  std::unique_ptr<google::protobuf::Message> Choose();
  uint64_t Request(plateau::v1::ClientMessage message, Purpose purpose);

  Room& room_;
  const int index_;  // 0 is the host
  engine::Rng rng_;
  uint64_t requests_ = 0;
  bool welcomed_ = false;
  std::string joined_;  // the room it sits in, once created or joined
  std::string token_;   // its player's, from the Welcome
  // A successor (Succeed) taking its seat back: when the connection was lost, until its view is.
  std::optional<Clock::time_point> lost_at_;

  // The game being played: the view at version_ of seat_ in view_room_. It lives on an arena of
  // its own: applying a Diff drops and adds log entries, cards and questions all the time, which
  // on the heap was a good part of a bot's work per action. What the ops drop stays on the arena
  // until the view is copied onto a fresh one (CompactView), so a bot holds a few views' worth.
  std::unique_ptr<google::protobuf::Arena> view_arena_;
  google::protobuf::Message* view_ = nullptr;  // on view_arena_
  size_t view_arena_base_ = 0;                  // its arena's size just after the last copy
  // Puts view_ on a new arena: empty, or a copy of the current one.
  void NewViewArena(bool copy);
  bool has_view_ = false;
  std::string view_room_;
  uint64_t version_ = 0;
  int seat_ = -1;
  std::vector<int> acting_;
  bool game_over_ = false;
  bool resyncing_ = false;

  // The action in flight (0: none), and whether to wait for the next view before acting.
  uint64_t submit_id_ = 0;
  Clock::time_point submitted_at_;
  // A submit still unanswered when its game ended (the other seat's GameOver can arrive before
  // the mover's answer): its answer is counted, and changes nothing else.
  uint64_t left_submit_id_ = 0;
  bool wait_for_view_ = false;
  int refusals_ = 0;  // in a row since the view last changed
  boost::asio::steady_timer retry_;
};

class Room final : public RoomBase {
 public:
  Room(LoadContext& ctx, int index, boost::asio::io_context& ioc, uint64_t seed);
  Room(const Room&) = delete;
  Room& operator=(const Room&) = delete;

  void Start() override;
  void Stop() override;
  // Starts the first game.
  void Go() override;

  // For its bots, on the strand.
  LoadContext& ctx() { return ctx_; }
  int index() const { return index_; }
  // The room of the game being set up or played; empty between games.
  const std::string& room_id() const { return room_id_; }
  void Welcomed(Bot& bot);
  void Created(const std::string& room_id);
  void Joined(Bot& bot, const std::string& room_id);
  void Ready(Bot& bot);
  void Started();
  void GameOver(const std::string& room_id);
  // Gives the room up (a connection lost, a lobby request refused): its bots disconnect.
  void Fail(const std::string& why);
  // --reconnect: `lost`'s connection ended (or its seat could not be taken back yet); a new bot
  // takes its place after a pause growing with each try, or the room fails after 30 s.
  void Reconnect(Bot& lost, Clock::time_point lost_at);
  // Paced mode: true when `bot` may submit now; otherwise it is called back (MaybeAct) when the
  // room's next slot comes. Always true in closed loop.
  bool TakeSlot(Bot& bot);
  // Paced mode: a refused submit gives its slot back, so the rate asked is of accepted actions.
  void ReturnSlot();

 private:
  void Settle(bool failed);

  LoadContext& ctx_;
  const int index_;
  boost::asio::strand<boost::asio::io_context::executor_type> strand_;
  std::mt19937_64 rng_;
  std::vector<std::unique_ptr<Bot>> bots_;
  // Bots whose connection was lost: kept until the room goes, their handlers may still run.
  std::vector<std::unique_ptr<Bot>> retired_;
  std::string room_id_;
  bool creating_ = false;
  std::set<int> ready_;  // the seats whose SetReady was answered, for the game being set up
  bool settled_ = false;
  bool waiting_for_go_ = false;
  bool went_ = false;
  bool failed_ = false;
  bool stopped_ = false;

  Pace<Bot> pace_;
};

}  // namespace plateau::load
