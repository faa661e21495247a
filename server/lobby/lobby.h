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

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>

#include "server/lobby/connection.h"
#include "server/replays.h"
#include "server/room/room.h"
#include "server/store.h"

namespace plateau::server {

class Lobby : public RoomHost {
 public:
  static constexpr size_t kMaxNameChars = 32;
  static constexpr size_t kMaxTitleChars = 64;

  // `store` is read directly only by RestoreRooms (start-up); every other store call, and every
  // replay request, goes through `storage`. `replays` may be null: replay requests are then
  // refused with "replays_unavailable". `empty_room_grace`: see RoomSettings::empty_grace.
  Lobby(boost::asio::any_io_executor executor, Store& store, StorageExecutor& storage,
        Replays* replays, std::chrono::milliseconds empty_room_grace = std::chrono::minutes(5));

  // Rebuilds the rooms of unfinished games from the store. A game that cannot be rebuilt is
  // logged and skipped; the others still come back.
  Status RestoreRooms();

  void OnOpen(const ConnectionPtr& conn);
  // Decodes and handles one frame from `conn`; called on the connection's strand.
  void OnMessage(const ConnectionPtr& conn, std::string_view frame);
  void OnClosed(const ConnectionPtr& conn);
  // Shutdown: closes every live connection.
  void CloseAll();

  std::shared_ptr<Room> FindRoom(const std::string& room_id);
  size_t RoomCount();
  size_t ConnectionCount();

  // RoomHost
  void SetMembership(const std::string& player_id, const std::string& room_id,
                     bool member) override;
  void PublishListing(const std::string& room_id, const plateau::v1::RoomInfo* info) override;
  void RemoveRoom(const std::string& room_id) override;

 private:
  void HandleHello(const ConnectionPtr& conn, uint64_t request_id, const plateau::v1::Hello& hello);
  // Binds the player to the connection and answers Hello (on the connection's strand).
  void Welcome(const ConnectionPtr& conn, uint64_t request_id, const PlayerPtr& player);
  void HandleListGames(const ConnectionPtr& conn, uint64_t request_id);
  void HandleListRooms(const ConnectionPtr& conn, uint64_t request_id, const std::string& game);
  void HandleCreateRoom(const ConnectionPtr& conn, uint64_t request_id,
                        const plateau::v1::CreateRoom& create);
  void HandleReplays(const ConnectionPtr& conn, const plateau::v1::ClientMessage& message);
  // Finds the room of a request naming a room id and/or a join code. `has_code` tells whether a
  // correct join code came with it. Null (after sending the error) when there is no such room.
  std::shared_ptr<Room> RouteToRoom(const ConnectionPtr& conn, uint64_t request_id,
                                    const std::string& room_id, const std::string& join_code,
                                    bool* has_code);

  boost::asio::any_io_executor executor_;
  Store& store_;
  StorageExecutor& storage_;
  Replays* replays_;
  const std::chrono::milliseconds empty_room_grace_;

  std::mutex mu_;
  std::map<std::string, PlayerPtr> players_by_token_;
  std::map<std::string, std::shared_ptr<Room>> rooms_;       // by room id
  std::map<std::string, std::string> room_by_code_;          // join code -> room id
  std::map<std::string, plateau::v1::RoomInfo> listing_;     // public rooms, by room id
  std::map<std::string, std::set<std::string>> memberships_; // player id -> room ids
  std::map<Connection*, std::weak_ptr<Connection>> connections_;
};

}  // namespace plateau::server
