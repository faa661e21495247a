#pragma once
// What the lobby and rooms see of a client connection: somewhere to send frames. The network
// layer implements it (net/ws_session.h); tests of the upper layers can implement it too.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "plateau/v1/protocol.pb.h"
#include "server/lobby/rate_limit.h"

namespace plateau::server {

class Room;

// One encoded ServerMessage. Immutable and shared: a message for many recipients is encoded once.
using SharedBuffer = std::shared_ptr<const std::string>;

SharedBuffer Encode(const plateau::v1::ServerMessage& message);
SharedBuffer EncodeError(uint64_t request_id, std::string_view code, std::string_view reason);
SharedBuffer EncodeOk(uint64_t request_id);

// A player is bound to its token, not to a socket: the same Player comes back on every
// connection that presents the token. Immutable once created, so it is shared freely.
struct Player {
  std::string player_id;
  std::string name;
  std::string token;
  // Set once the token is signed out everywhere; shared by every Player holding this token (a
  // rename copies it), so a connection still bound to an older copy is refused as well.
  std::shared_ptr<std::atomic<bool>> revoked = std::make_shared<std::atomic<bool>>(false);
};
using PlayerPtr = std::shared_ptr<const Player>;

class Connection : public std::enable_shared_from_this<Connection> {
 public:
  virtual ~Connection() = default;

  // Both are safe from any thread; they hop to the connection's own strand.
  // Queues one binary frame. Dropped silently once the connection is closing.
  void Send(SharedBuffer frame) { Send(std::move(frame), nullptr); }
  // Queues one binary frame made of `frame` followed by `tail` (null: nothing): a message
  // protobuf merges from two encodings, such as a Diff shared by several recipients and one
  // recipient's own answer, sent without copying the shared part.
  virtual void Send(SharedBuffer frame, SharedBuffer tail) = 0;
  // Ends the connection. `graceful`: a WebSocket close handshake; otherwise the socket is cut.
  virtual void Close(bool graceful) = 0;
  // Sends `last` and ends the connection without waiting for what is queued before it: a
  // connection behind on its frames is cut, one up to date gets `last` and the close handshake.
  // Nothing it sends from now on is handled.
  virtual void CloseWith(SharedBuffer last) {
    Send(std::move(last));
    Close(/*graceful=*/true);
  }

  // For a request answered later (after the storage thread): the handler calls PauseReading
  // (on the connection's strand, while handling), and the connection reads nothing more until
  // ResumeReading, so the next request of this client sees the first one done. Dispatch runs
  // `fn` on the connection's strand. The defaults suit connections without a strand (tests).
  virtual void PauseReading() {}
  virtual void ResumeReading() {}
  virtual void Dispatch(std::function<void()> fn) { fn(); }
  // Bytes waiting to be written (read from any thread, for /metrics).
  virtual size_t QueuedBytes() const { return 0; }

  // Set by the lobby when Hello succeeds. Touched only by the lobby's message handler, which
  // runs on this connection's strand, so it needs no lock.
  PlayerPtr player;
  // What this connection (and its address) may still send; same strand rule as `player`.
  ConnectionQuota quota;
  std::string remote_address;  // for logs and limits; empty in tests
  // The room this connection's last action went to (same strand rule): a player acts in one
  // room action after action, and the next action goes there without the lobby's lookups. The
  // room refuses it itself if it has since closed or the player left it.
  std::string action_room_id;
  std::weak_ptr<Room> action_room;
  // When this connection last had its player's token use stored (Unix ms; same strand rule).
  int64_t token_noted_unix_ms = 0;
  // The shard (see Lobby::SetShards) this connection's socket runs on; a room it creates runs
  // there too. Set before the connection opens, then never changed.
  size_t shard = 0;
};
using ConnectionPtr = std::shared_ptr<Connection>;

}  // namespace plateau::server
