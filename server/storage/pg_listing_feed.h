#pragma once
// The public room list the nodes on one PostgreSQL database share (docs/multinode.md, section 3),
// on a thread and a connection of its own: it writes this node's lines (room_listing), each
// round of changes in one statement (its own small transaction) that also sends NOTIFY
// plateau_rooms with each room's id (never inside an action batch, never on a network thread);
// it LISTENs, reads the lines other connections told it of and hands them to the lobby. Every lease it deletes the lines of rooms
// their node no longer runs (a dead node's, a room taken over), with the same notice.
#include <libpq-fe.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "server/storage/pg_util.h"

namespace plateau::server {

class PgListingFeed {
 public:
  // One room's line: its id and RoomInfo (serialized), or none when it is not listed any more.
  using Line = std::pair<std::string, std::optional<std::string>>;
  // Called on the feed's thread with the other nodes' lines: every one of them when `all` (at
  // start and after a lost connection: any other is gone), else the changes only.
  using Sink = std::function<void(std::vector<Line> lines, bool all)>;

  PgListingFeed(std::string conninfo, std::string node, std::chrono::milliseconds lease,
                Sink sink);
  ~PgListingFeed();  // Stop()
  PgListingFeed(const PgListingFeed&) = delete;
  PgListingFeed& operator=(const PgListingFeed&) = delete;

  // Starts the thread: it connects (again, after a loss, every second), first deletes the lines
  // this node left from its last run, and writes what was published meanwhile.
  void Start();
  // Deletes this node's lines (the node is going) and joins the thread; what was published and
  // not written yet is dropped.
  void Stop();

  // This node's room `room_id` is listed with `info` (a serialized RoomInfo) or not (nullopt).
  // From any thread; written within a round (the last of several changes only).
  void Publish(const std::string& room_id, std::optional<std::string> info);

  struct Stats {
    uint64_t written = 0;   // lines written or deleted for this node
    uint64_t received = 0;  // other nodes' lines handed to the sink
    uint64_t cleaned = 0;   // lines deleted because their node no longer runs the room
    uint64_t reconnects = 0;
  };
  Stats stats();

 private:
  void Loop();
  // Each returns false when the connection failed (it is then dropped and made again).
  bool Connect();
  bool Flush();
  bool ForgetOwnLines();
  bool Clean();
  bool ReadNotices();
  bool Fetch(const std::set<std::string>& ids);
  bool LoadAll();
  void Wake();

  const std::string conninfo_, node_;
  const std::chrono::milliseconds lease_;
  const Sink sink_;
  pg::Connection c_;  // the thread's only
  bool first_connection_ = true;
  std::set<std::string> told_;  // room ids notified and not read yet
  std::chrono::steady_clock::time_point next_clean_;
  // Changes are written at most this often, each round a commit of the database's: a busy node
  // changes hundreds of lines a second, and the list need not follow faster than people read it.
  static constexpr std::chrono::milliseconds kRound{50};
  std::chrono::steady_clock::time_point next_flush_;

  std::mutex mu_;
  std::map<std::string, std::optional<std::string>> outbox_;
  Stats stats_;
  std::atomic<bool> stopping_{false};
  int wake_fd_ = -1;  // an eventfd: Publish and Stop wake the thread from its poll
  std::thread thread_;
};

}  // namespace plateau::server
