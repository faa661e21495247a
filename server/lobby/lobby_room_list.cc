// The public room list: the entries rooms publish, pages of it on request, and its changes
// gathered and pushed to the connections watching it.
#include "server/lobby/lobby.h"

#include "server/error_codes.h"

namespace plateau::server {

namespace v1 = plateau::v1;

void Lobby::PublishListing(const std::string& room_id, const v1::RoomInfo* info) {
  std::lock_guard lock(mu_);
  // A room of this node's (one taken over, say) replaces another node's line for it.
  remote_listed_.erase(room_id);
  if (listing_sink_) {
    listing_sink_(room_id, info ? std::optional<std::string>(info->SerializeAsString())
                                : std::nullopt);
  }
  if (info == nullptr) {
    auto it = listing_.find(room_id);
    if (it == listing_.end()) return;
    NoteListingChange(room_id, it->second.game());
    listing_.erase(it);
  } else {
    listing_[room_id] = *info;
    NoteListingChange(room_id, info->game());
  }
}

void Lobby::ApplyRemoteListings(const std::vector<RemoteLine>& lines, bool all) {
  std::lock_guard lock(mu_);
  const auto unlist = [&](const std::string& room_id) {
    if (remote_listed_.erase(room_id) == 0) return;
    auto it = listing_.find(room_id);
    if (it == listing_.end()) return;
    NoteListingChange(room_id, it->second.game());
    listing_.erase(it);
  };
  if (all) {
    std::set<std::string> given;
    for (const auto& [room_id, info] : lines) {
      if (info) given.insert(room_id);
    }
    std::vector<std::string> gone;
    for (const std::string& room_id : remote_listed_) {
      if (given.count(room_id) == 0) gone.push_back(room_id);
    }
    for (const std::string& room_id : gone) unlist(room_id);
  }
  for (const auto& [room_id, bytes] : lines) {
    if (!bytes) {
      unlist(room_id);
      continue;
    }
    // This node's own room: its own line stands.
    if (listing_.count(room_id) != 0 && remote_listed_.count(room_id) == 0) continue;
    if (rooms_.count(room_id) != 0) continue;
    v1::RoomInfo info;
    if (!info.ParseFromString(*bytes) || info.room_id() != room_id) continue;
    remote_listed_.insert(room_id);
    const std::string game = info.game();
    listing_[room_id] = std::move(info);
    NoteListingChange(room_id, game);
  }
}

void Lobby::NoteListingChange(const std::string& room_id, const std::string& game) {
  if (watchers_.empty()) return;
  pending_changes_[room_id] = game;
  if (flush_scheduled_) return;
  flush_scheduled_ = true;
  flush_timer_.expires_after(kListingPushInterval);
  flush_timer_.async_wait([this](const boost::system::error_code& ec) {
    if (ec) return;  // cancelled: the lobby is going away
    FlushListingChanges();
  });
}

void Lobby::FlushListingChanges() {
  // One frame per game filter ("" = all games), encoded once for all its watchers.
  std::map<std::string, v1::ServerMessage> by_filter;
  std::vector<std::pair<ConnectionPtr, std::string>> targets;
  {
    std::lock_guard lock(mu_);
    flush_scheduled_ = false;
    for (auto it = watchers_.begin(); it != watchers_.end();) {
      auto conn = it->second.conn.lock();
      if (!conn) {
        it = watchers_.erase(it);
        continue;
      }
      targets.emplace_back(std::move(conn), it->second.game);
      by_filter.try_emplace(it->second.game);
      ++it;
    }
    for (const auto& [room_id, game] : pending_changes_) {
      auto listed = listing_.find(room_id);
      for (auto& [filter, message] : by_filter) {
        if (!filter.empty() && filter != game) continue;
        v1::RoomListChanged* changed = message.mutable_room_list_changed();
        if (listed != listing_.end()) {
          *changed->add_changed() = listed->second;
        } else {
          changed->add_removed_room_ids(room_id);
        }
      }
    }
    pending_changes_.clear();
  }
  std::map<std::string, SharedBuffer> frames;
  for (auto& [filter, message] : by_filter) {
    if (message.has_room_list_changed()) frames[filter] = Encode(message);
  }
  for (const auto& [conn, filter] : targets) {
    auto frame = frames.find(filter);
    if (frame != frames.end()) conn->Send(frame->second);
  }
}

void Lobby::HandleListRooms(const ConnectionPtr& conn, uint64_t request_id,
                            const v1::ListRooms& request) {
  if (request.limit() > kMaxRoomsPerPage) {
    conn->Send(EncodeError(request_id, codes::kBadPage,
                           "A page holds at most " + std::to_string(kMaxRoomsPerPage) + " rooms."));
    return;
  }
  const uint32_t limit = request.limit() == 0 ? kMaxRoomsPerPage : request.limit();
  const std::string& game = request.game();
  v1::ServerMessage m;
  m.set_request_id(request_id);
  v1::RoomList* list = m.mutable_room_list();
  {
    std::lock_guard lock(mu_);
    uint32_t total = 0;
    for (const auto& [id, info] : listing_) {
      if (!game.empty() && info.game() != game) continue;
      ++total;
      if (!request.after_room_id().empty() && id <= request.after_room_id()) continue;
      if (static_cast<uint32_t>(list->rooms_size()) < limit) {
        *list->add_rooms() = info;
      } else if (list->next_after_room_id().empty()) {
        list->set_next_after_room_id(list->rooms(list->rooms_size() - 1).room_id());
      }
    }
    list->set_total(total);
    // A new ListRooms replaces the connection's watch (or ends it).
    if (request.watch()) {
      watchers_[conn.get()] = Watcher{conn, game};
    } else {
      watchers_.erase(conn.get());
    }
  }
  conn->Send(Encode(m));
}

}  // namespace plateau::server
