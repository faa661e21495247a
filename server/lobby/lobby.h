#pragma once
// The lobby: players by token, the room registry, the public room listing, and the routing of
// every client request (lobby requests are answered here, room requests are passed to the room's
// strand).
//
// Threading: OnMessage runs on the calling connection's strand. Shared lobby state (players,
// rooms, listing, memberships, live connections) sits behind one mutex, held only for map
// lookups and updates, never across a store call or a call into a room. No store call happens on
// a connection's thread: they go to the storage thread and their answers come back by Dispatch. Rooms call back through
// RoomHost from their own strands and take the same mutex; the lobby only ever posts to rooms, so
// the two can never wait on each other.
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <thread>

#include "server/lobby/connection.h"
#include "server/lobby/rate_limit.h"
#include "server/replays.h"
#include "server/room/room.h"
#include "server/store.h"

namespace plateau::server {

class Lobby : public RoomHost {
 public:
  static constexpr size_t kMaxNameChars = 32;
  static constexpr size_t kMaxTitleChars = 64;
  static constexpr uint32_t kMaxRoomsPerPage = 100;
  // Room list changes are gathered and pushed to watchers at most this often.
  static constexpr std::chrono::milliseconds kListingPushInterval{250};

  // `store` is read directly only by RestoreRooms (start-up); every other store call, and every
  // replay request, goes through `storage`. `replays` may be null: replay requests are then
  // refused with "replays_unavailable". `empty_room_grace`: see RoomSettings::empty_grace.
  Lobby(boost::asio::any_io_executor executor, Store& store, StorageExecutor& storage,
        Replays* replays, std::chrono::milliseconds empty_room_grace = std::chrono::minutes(5),
        ClientLimits limits = {}, Metrics* metrics = nullptr);
  ~Lobby() override;

  // A WebSocket connection from `address` is about to open: its address's quota, or null when
  // that address already has too many connections (the upgrade is then refused).
  std::shared_ptr<AddressQuota> AdmitAddress(const std::string& address);
  const ClientLimits& limits() const { return limits_; }

  // Rebuilds the rooms of unfinished games from the store. A game that cannot be rebuilt is
  // logged and skipped; the others still come back.
  Status RestoreRooms();
  // Several nodes: every `every`, asks the store (on the storage thread) for this node's share of
  // the rooms whose node's lease ran out, and restores them as RestoreRooms does, so their games
  // go on here. Stopped by CloseAll.
  void StartTakeovers(std::chrono::milliseconds every);
  // Several nodes share the store: rooms are claimed when they open and released when they
  // close. With links too, a room asked for by id that another node runs is refused with
  // room_moved (the client reconnects naming it, and is carried there). Set before serving.
  void SetClustered(bool clustered, bool linked) {
    clustered_ = clustered;
    linked_ = clustered && linked;
  }
  // Several nodes: each change of this node's public room list goes to `sink` too (a serialized
  // RoomInfo, or nullopt when the room is not listed any more), called under the lobby's lock
  // from the room's thread, so it must only queue. Set before RestoreRooms and serving.
  using ListingSink = std::function<void(const std::string& room_id, std::optional<std::string>)>;
  void SetListingSink(ListingSink sink) {
    std::lock_guard lock(mu_);
    listing_sink_ = std::move(sink);
  }
  // Several nodes: the other nodes' lines of the public room list (a serialized RoomInfo, or
  // nullopt when it is gone); with `all`, every other node's line, so any not given is gone.
  // This node's own rooms always win over a line naming the same room. From any thread.
  using RemoteLine = std::pair<std::string, std::optional<std::string>>;
  void ApplyRemoteListings(const std::vector<RemoteLine>& lines, bool all);
  // Several nodes: `done` gets who runs `room_id` (Store::FindOwner; nothing known when the
  // store cannot tell), called on the storage thread.
  void FindOwner(const std::string& room_id, std::function<void(Store::RoomOwner)> done);

  void OnOpen(const ConnectionPtr& conn);
  // Decodes and handles one frame from `conn`; called on the connection's strand.
  void OnMessage(const ConnectionPtr& conn, std::string_view frame);
  void OnClosed(const ConnectionPtr& conn);
  // Shutdown, first step: every request from now on is refused ("shutting_down"); what rooms
  // already hold still runs, so an action being stored is still acknowledged.
  void StopTakingRequests();
  // True when no room waits on the store (see RoomWaiting) and no request is being handled: every
  // request taken has its answer queued on its connection (a request held by a room, or waiting
  // on the storage thread, holds its ticket until then: see HoldRequest).
  // Requests first: a ticket is released only after its room counts itself waiting.
  bool Quiet() const { return requests_in_flight_->load() == 0 && rooms_waiting_.load() == 0; }
  // Shutdown: closes every live connection (after what is queued for it is sent), and any that
  // opens from now on.
  void CloseAll();

  std::shared_ptr<Room> FindRoom(const std::string& room_id);
  size_t RoomCount();
  size_t ConnectionCount();
  // Open connections on each shard (one entry per shard; none without shards).
  std::vector<size_t> ConnectionsPerShard();
  // Bytes waiting to be sent, over every live connection.
  size_t QueuedBytes();

  // RoomHost
  void SetMembership(const std::string& player_id, const std::string& room_id,
                     bool member) override;
  void PublishListing(const std::string& room_id, const plateau::v1::RoomInfo* info) override;
  void RemoveRoom(const std::string& room_id) override;
  void RoomWaiting(bool waiting) override { rooms_waiting_ += waiting ? 1 : -1; }
  // A request being handled: Quiet is false until the ticket is released.
  std::shared_ptr<void> HoldRequest() override;
  Metrics* metrics() override { return metrics_; }
  void RoomClosed(const std::string& room_id) override;
  void RoomReopened(const std::string& room_id, const std::string& host_id) override;
  void Think(std::function<void()> job) override;
  // Waits for the bots' searches under way to end (see Server::StopWorkers); one asked for later
  // never runs.
  void StopThinking() { bot_pool_.join(); }
  std::chrono::milliseconds bot_delay() const override { return bot_delay_; }
  std::chrono::milliseconds bot_think() const override { return bot_think_; }
  void SetBotThink(std::chrono::milliseconds think) { bot_think_ = think; }
  // How long bots wait before each move (see RoomHost::bot_delay); set before rooms are made.
  void SetBotDelay(std::chrono::milliseconds delay) { bot_delay_ = delay; }
  // See RoomSettings::offline_grace; set before rooms are made.
  void SetOfflineGrace(std::chrono::milliseconds grace) { offline_grace_ = grace; }
  // See RoomSettings::abandoned_after; set before rooms are made.
  void SetAbandonedAfter(std::chrono::milliseconds after) { abandoned_after_ = after; }
  // A token unused this long (no connection open with it, none said Hello with it) is refused
  // (token_expired). Set before serving.
  void SetTokenInactive(std::chrono::milliseconds after) { token_inactive_ = after; }
  // The wall clock tokens' use is measured with, in Unix milliseconds (tests move it); null: the
  // system's. Set before serving.
  void SetWallClock(std::function<int64_t()> clock) { wall_clock_ = std::move(clock); }

  // Shards: io_contexts each run by one thread (docs/threading.md). A room runs on the shard of
  // the connection that creates it, a restored room on the next in turn; the listener spreads
  // connections over them. None set: every room runs on the lobby's executor. Set before
  // RestoreRooms and serving; never changed after.
  void SetShards(std::vector<boost::asio::io_context*> shards) { shards_ = std::move(shards); }
  size_t ShardCount() const { return shards_.size(); }
  boost::asio::io_context& Shard(size_t index) { return *shards_[index]; }
  // The next shard in turn, for a new TCP connection (from any thread).
  size_t NextShard() { return shards_.empty() ? 0 : next_shard_++ % shards_.size(); }
  // The next shard in turn for a WebSocket that names no room: a turn of its own, so that
  // sockets moved to their room's shard do not skew where the others go.
  size_t NextWebSocketShard() {
    return shards_.empty() ? 0 : next_ws_shard_++ % shards_.size();
  }
  // The shard `room_id` runs on, or nullopt when there is no such room (or no shards). A
  // placement hint only: it says nothing about who may enter the room.
  std::optional<size_t> ShardOfRoom(const std::string& room_id);

 private:
  // Several nodes: gives a closed room's claim up in the store, on the storage thread.
  void ReleaseRoom(const std::string& room_id);
  // Several nodes: the room counts among `creator`'s open rooms over every node ("": no more).
  void NoteCreator(const std::string& room_id, const std::string& creator);
  // Admission and routing of requests (lobby.cc).
  // Charges one request to the connection and its address; false (after refusing it, and
  // cutting a connection that keeps going) when over the limit.
  bool AdmitRequest(const ConnectionPtr& conn, uint64_t request_id);
  // Refuses (and counts) a request over a limit.
  void RefuseForLimit(const ConnectionPtr& conn, uint64_t request_id, const char* code,
                      const std::string& reason);
  // Answers a request once the storage thread has run `work`: the connection reads nothing more
  // until then (see Connection::PauseReading), and `answer` runs on its strand with the outcome,
  // the request's ticket held until it has.
  void AnswerAfterStore(const ConnectionPtr& conn, StorageExecutor::Work work,
                        std::function<void(Status)> answer,
                        StorageExecutor::Kind kind = StorageExecutor::Kind::kWrite);
  // Which of a room's codes a request carries: the join code, or the watch code (Spectate only).
  enum class CodeKind { kJoin, kWatch };
  // Finds the room of a request naming a room id and/or a code of `kind`. `has_code` tells
  // whether a correct code came with it. Null (after sending the error) when there is no such
  // room, or when a code that may be a guess (wrong, or without the room id) meets the lockout.
  // Watch codes are looked up, charged and locked out exactly as join codes.
  std::shared_ptr<Room> RouteToRoom(const ConnectionPtr& conn, uint64_t request_id,
                                    const std::string& room_id, const std::string& code,
                                    bool* has_code, CodeKind kind = CodeKind::kJoin);

  // Players (lobby_players.cc).
  void HandleHello(const ConnectionPtr& conn, uint64_t request_id, const plateau::v1::Hello& hello);
  void HandleRename(const ConnectionPtr& conn, uint64_t request_id,
                    const plateau::v1::Rename& rename);
  // `wanted` trimmed, when it is a name a player may have; otherwise refuses `request_id`.
  std::optional<std::string> ValidName(const ConnectionPtr& conn, uint64_t request_id,
                                       const std::string& wanted);
  // Binds the player to the connection and answers Hello (on the connection's strand).
  void Welcome(const ConnectionPtr& conn, uint64_t request_id, const PlayerPtr& player);
  // A Hello accepted: counts the connection among the player's, notes the token in use, and
  // tells the player's other open connections (SessionNotice OPENED_ELSEWHERE). Then Welcome.
  void Admit(const ConnectionPtr& conn, uint64_t request_id, const PlayerPtr& player);
  // Gives the caller a new token and revokes the old one; the player's other connections are
  // told and closed.
  void HandleSignOutEverywhere(const ConnectionPtr& conn, uint64_t request_id);
  // Stores that the player's token is in use now (fire and forget: a lost write only makes the
  // token look idle since its previous use).
  void NoteTokenUse(const std::string& player_id);
  // A connection open for weeks keeps its token's last use fresh in the store, not only in
  // memory, so a restart or a crash does not find it expired: at most once a day, on a request.
  static constexpr int64_t kTokenNoteIntervalMs = 24LL * 3600 * 1000;
  void RefuseRevoked(const ConnectionPtr& conn, uint64_t request_id);
  int64_t NowUnixMs() const;
  // True, after refusing `request_id`, when a token last used at `last_used_unix_ms` has been
  // idle too long. Called without mu_.
  bool RefuseIfExpired(const ConnectionPtr& conn, uint64_t request_id, int64_t last_used_unix_ms);

  // Rooms (lobby_rooms.cc).
  void HandleCreateRoom(const ConnectionPtr& conn, uint64_t request_id,
                        const plateau::v1::CreateRoom& create);
  // Called with mu_ held: the room no longer counts as its creator's open room.
  void ForgetCreator(const std::string& room_id);

  // The public room list (lobby_room_list.cc).
  void HandleListRooms(const ConnectionPtr& conn, uint64_t request_id,
                       const plateau::v1::ListRooms& request);
  // Sends the gathered listing changes to the watchers (on the lobby's timer).
  void FlushListingChanges();
  // Called with mu_ held: the room's entry changed, push it soon.
  void NoteListingChange(const std::string& room_id, const std::string& game);

  // The game list and replays (lobby_games.cc).
  void HandleListGames(const ConnectionPtr& conn, uint64_t request_id);
  // The game list (ServerMessage.game_list, no request id), encoded on first use: the games,
  // their words and static data never change while the server runs.
  SharedBuffer EncodedGameList();
  void HandleReplays(const ConnectionPtr& conn, const plateau::v1::ClientMessage& message);

  // What a new room runs on: `creator`'s shard, else the next in turn (see SetShards).
  boost::asio::any_io_executor RoomExecutor(const Connection* creator);

  boost::asio::any_io_executor executor_;
  std::vector<boost::asio::io_context*> shards_;
  std::atomic<size_t> next_shard_{0};
  std::atomic<size_t> next_ws_shard_{0};
  Store& store_;
  StorageExecutor& storage_;
  Replays* replays_;
  const std::chrono::milliseconds empty_room_grace_;

  std::mutex game_list_mu_;
  SharedBuffer game_list_;  // guarded by game_list_mu_

  std::mutex mu_;
  std::map<std::string, PlayerPtr> players_by_token_;
  std::map<std::string, std::shared_ptr<Room>> rooms_;       // by room id
  std::map<std::string, std::string> room_by_code_;          // join code -> room id
  std::map<std::string, std::string> room_by_watch_code_;    // watch code -> room id
  bool clustered_ = false, linked_ = false;
  ListingSink listing_sink_;
  std::map<std::string, plateau::v1::RoomInfo> listing_;
  std::set<std::string> remote_listed_;  // the lines of listing_ that are other nodes' rooms     // public rooms, by room id
  std::map<std::string, std::set<std::string>> memberships_; // player id -> room ids
  std::map<Connection*, std::weak_ptr<Connection>> connections_;
  // Each player's open connections (those that said Hello), by player id.
  std::map<std::string, std::map<Connection*, std::weak_ptr<Connection>>> player_connections_;
  // When each player known since start-up last used its token (Unix ms); while one of its
  // connections is open, the token counts as in use.
  std::map<std::string, int64_t> token_last_used_;
  // Tokens signed out everywhere since start-up: a request that found one valid in the store
  // before the sign-out was stored must not bring it back when its answer comes after.
  std::set<std::string> revoked_tokens_;

  std::atomic<bool> stopping_{false};
  bool closing_all_ = false;  // under mu_: CloseAll has run
  std::atomic<int> rooms_waiting_{0};
  // Tickets held (see HoldRequest). Shared with them: one may be released after the lobby is
  // gone, in a handler the io_context drops at its destruction.
  const std::shared_ptr<std::atomic<int>> requests_in_flight_ =
      std::make_shared<std::atomic<int>>(0);
  const ClientLimits limits_;
  Metrics* const metrics_;
  std::chrono::milliseconds bot_delay_{0};
  std::chrono::milliseconds bot_think_{400};
  std::chrono::milliseconds offline_grace_{std::chrono::seconds(60)};
  std::chrono::milliseconds abandoned_after_{std::chrono::hours(72)};
  std::chrono::milliseconds token_inactive_{std::chrono::hours(24 * 30)};
  std::function<int64_t()> wall_clock_;
  // Where bots think: threads of their own, so a bot never holds up a network thread, and one per
  // core (at least two), so a normal bot searching in one room leaves another room's bot a thread.
  boost::asio::thread_pool bot_pool_{std::max(2u, std::thread::hardware_concurrency())};
  AddressTable addresses_;
  struct PlayerQuota {
    TokenBucket rooms_created;
    int open_rooms = 0;
  };
  std::map<std::string, PlayerQuota> player_quotas_;        // by player id (under mu_)
  std::map<std::string, std::string> room_creator_;          // open room id -> creator (under mu_)
  size_t created_since_prune_ = 0;

  // Room list watchers and the changes not yet pushed to them (under mu_).
  struct Watcher {
    std::weak_ptr<Connection> conn;
    std::string game;  // empty: all games
  };
  std::map<Connection*, Watcher> watchers_;
  std::map<std::string, std::string> pending_changes_;  // room id -> its game
  bool flush_scheduled_ = false;
  boost::asio::steady_timer flush_timer_;

  // Rebuilds and registers the rooms of `games` (RestoreRooms, takeovers); returns how many.
  size_t AdoptRooms(const std::vector<Store::Unfinished>& games);
  void ScheduleTakeover();
  std::chrono::milliseconds takeover_every_{0};
  boost::asio::steady_timer takeover_timer_;
};

}  // namespace plateau::server
