#pragma once
// The terminal client's session with a server: connection, login with a saved token, requests
// matched to replies by request_id, the state pushes keep current (the room, the game view,
// results), and reconnection when the connection drops. Pushes are handled on the connection's
// I/O thread, reconnection on a thread of its own; everything the command thread reads goes
// through WithState() under one mutex, and waits use one condition variable.
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "clients/cli/connection.h"
#include "clients/cli/view_tracker.h"
#include "engine/core/status.h"
#include "plateau/v1/protocol.pb.h"

namespace plateau::cli {

using engine::StatusOr;

// Serializes lines from the command thread and the I/O thread so they never interleave.
class Output {
 public:
  void Line(const std::string& text);
  // Text without a trailing newline added (multi-line views already end with one).
  void Text(const std::string& text);
  // A line on stderr (failures that end a script).
  void Error(const std::string& text);

 private:
  std::mutex mu_;
};

struct ClientState {
  bool in_room = false;
  plateau::v1::RoomInfo room;  // the room last joined, created or watched, as last pushed
  ViewTracker tracker;
  // Version the view must reach before it reflects this client's last accepted action, so
  // wait-turn does not mistake the view from before that action for a new turn.
  uint64_t min_version_for_turn = 0;
  bool resync_pending = false;
  std::optional<plateau::v1::GameOver> game_over;
  std::string last_game_id;  // of the last game seen starting or finishing
  // Logged in over an open connection. While false and !connection_lost, the client is
  // reconnecting: requests and waits hold on until it is back or gives up.
  bool online = false;
  // For good: the server could not be reached again in time (or reconnecting is off).
  bool connection_lost = false;
  std::string lost_reason;
  uint64_t epoch = 0;  // which connection: each reconnection adds one

  // Forgets the game shown so far: another room's, or a rematch's new game in this one.
  void ForgetGame();

  // Seats named as people see them (the room's names, else "seat N" from 1), the viewer's own
  // marked "(you)".
  std::function<std::string(int)> Namer() const;
};

class Client {
 public:
  struct Settings {
    std::string host = "127.0.0.1";
    std::string port = "8080";
    std::string name;
    std::string token_file;  // empty: do not save or resume
    std::chrono::milliseconds timeout{10000};
    // How long to keep trying to reconnect after the connection drops (0: do not): with the
    // saved token the client logs in again, returns to its room and catches its view up.
    std::chrono::milliseconds reconnect_for{300000};
  };

  explicit Client(Output& out);
  ~Client();

  // Connects and logs in: resumes with the saved token when there is one (falling back to a
  // new player when the server no longer knows it) and saves the token it is given.
  Status Connect(const Settings& settings);

  // Sends `request` with a fresh request_id and waits for the reply. An Error reply becomes a
  // Status with the server's code and reason; so do a timeout ("timeout") and a lost connection
  // ("network"). While reconnecting, it waits for the connection first (within the timeout).
  StatusOr<plateau::v1::ServerMessage> Request(plateau::v1::ClientMessage request);

  // Runs `fn` with the state locked.
  template <class F>
  auto WithState(F fn) {
    std::lock_guard<std::mutex> lock(mu_);
    return fn(state_);
  }
  // Waits until `ready(state)` (evaluated under the lock) or the connection is lost for good or
  // `timeout` passes; a reconnection on the way does not end it. `what` names the wait.
  Status WaitUntil(const std::function<bool(const ClientState&)>& ready,
                   std::chrono::milliseconds timeout, const std::string& what);

  // Records that this client's action got `action_index` (see ClientState::min_version_for_turn).
  void NoteAccepted(uint64_t action_index);
  // Adopts a RoomInfo reply (create/join/watch) as the current room.
  void EnterRoom(const plateau::v1::RoomInfo& room);

  Output& out() { return out_; }
  const plateau::v1::Welcome& welcome() const { return welcome_; }
  std::chrono::milliseconds timeout() const { return settings_.timeout; }
  const Settings& settings() const { return settings_; }

 private:
  void OnMessage(const plateau::v1::ServerMessage& message);     // I/O thread
  void OnClosed(uint64_t epoch, const std::string& reason);      // I/O thread
  void HandleDiff(const plateau::v1::Diff& diff);                // I/O thread, mu_ held
  void SendResync(uint64_t have_version);                        // mu_ held
  // Opens a connection and logs in on it (the first time and on each reconnection).
  Status Open(bool first);
  // A request on the connection being opened, before the client counts as online.
  StatusOr<plateau::v1::ServerMessage> RequestOn(const std::shared_ptr<Connection>& connection,
                                                 plateau::v1::ClientMessage request);
  StatusOr<plateau::v1::ServerMessage> Hello(const std::shared_ptr<Connection>& connection,
                                             const std::string& token);
  // After a reconnection: back into the room (its seat, or watching) and its view caught up.
  void Resume();
  void ReconnectLoop();  // the reconnecting thread

  Output& out_;
  Settings settings_;
  plateau::v1::Welcome welcome_;
  std::thread reconnector_;

  std::mutex mu_;
  std::condition_variable cv_;
  std::shared_ptr<Connection> connection_;                           // guarded by mu_
  bool stopping_ = false;                                            // guarded by mu_
  ClientState state_;                                                // guarded by mu_
  uint64_t next_request_id_ = 1;                                     // guarded by mu_
  std::map<uint64_t, std::optional<plateau::v1::ServerMessage>> pending_;  // guarded by mu_
};

// One line describing a room, e.g. "r12ab.. globalissimo 'Fun' waiting 1/2 seated code K7PQ2X
// watch code ...": each code only when the server sent it (the join code to those who may sit).
std::string RoomLine(const plateau::v1::RoomInfo& room);
// "seat 1 Alice (ready), seat 2 free" style list (seats counted from 1, as people see them).
std::string SeatsLine(const plateau::v1::RoomInfo& room);
// The WebSocket path to open: with the room this client is in (empty: none), so that a
// reconnection lands on the server thread that runs the room. Only placement: entering the room
// is still ReenterRoom's request. An id the server could not take as a hint is left out.
std::string WsTarget(const std::string& room_id);
// After a reconnection, how this client comes back to `room`: its seat by joining again, or
// watching again, with the room's code when it is private.
plateau::v1::ClientMessage ReenterRoom(const plateau::v1::RoomInfo& room);
// "Ann took back a move: Ann places tile 2 on Peru." for the last Diff's take-back (empty when
// it took nothing back).
std::string TakenBackText(const ClientState& state);

}  // namespace plateau::cli
