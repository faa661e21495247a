// Membership and seats: joining, watching, leaving and detaching, each member's connections, and
// the names that tell people apart.
#include "server/room/room.h"

#include <cctype>
#include <chrono>
#include <string>

#include "server/error_codes.h"
#include "server/room/room_util.h"

namespace plateau::server {

void Room::DoJoin(const ConnectionPtr& conn, const PlayerPtr& player, uint64_t request_id,
                  bool has_code) {
  const std::string& pid = player->player_id;
  if (removed_) {
    conn->Send(EncodeError(request_id, codes::kRoomNotFound, "This room no longer exists."));
    return;
  }
  auto it = members_.find(pid);
  if (it != members_.end() && it->second.seat >= 0) {
    // Already seated (a reconnecting player, or a repeated request): take the seat back.
    ComeBack(pid, it->second);
    Attach(pid, conn);
    Publish();
    SendInfo(conn, pid, request_id);
    SendChatHistory(conn);
    PushInfoToAll(pid);
    return;
  }
  // A spectator too: one who came with the watch code may watch, not sit.
  if (settings_.is_private && !has_code && (it == members_.end() || !it->second.holds_code)) {
    conn->Send(EncodeError(request_id, codes::kCodeRequired,
                           "This room is private: join it with its code or link."));
    return;
  }
  if (phase_ != Phase::kWaiting) {
    conn->Send(EncodeError(request_id, codes::kGameStarted,
                           "The game has already started; you can watch it as a spectator."));
    return;
  }
  size_t seat = 0;
  while (seat < seats_.size() && !seats_[seat].player_id.empty()) ++seat;
  if (seat == seats_.size()) {
    conn->Send(EncodeError(request_id, codes::kRoomFull, "Every seat in this room is taken."));
    return;
  }
  const std::string name = UniqueName(player->name, pid);
  seats_[seat] = {pid, name, false};
  if (it == members_.end()) {
    host_.SetMembership(pid, settings_.room_id, true);
    members_[pid] = Member{name, static_cast<int>(seat), {conn}};
  } else {
    // A spectator taking a seat keeps its other tabs, and one name everywhere.
    it->second.seat = static_cast<int>(seat);
    it->second.name = name;
    Attach(pid, conn);
    UpdateWatched();
  }
  if (host_player_id_.empty()) host_player_id_ = pid;
  Publish();
  SendInfo(conn, pid, request_id);
  SendChatHistory(conn);
  PushInfoToAll(pid);
}

void Room::DoSpectate(const ConnectionPtr& conn, const PlayerPtr& player, uint64_t request_id,
                      bool has_code, bool has_watch_code) {
  const std::string& pid = player->player_id;
  if (removed_) {
    conn->Send(EncodeError(request_id, codes::kRoomNotFound, "This room no longer exists."));
    return;
  }
  auto it = members_.find(pid);
  if (it == members_.end()) {
    if (settings_.is_private && !has_code && !has_watch_code) {
      conn->Send(EncodeError(request_id, codes::kCodeRequired,
                             "This room is private: watch it with its code or link."));
      return;
    }
    members_[pid] = Member{UniqueName(player->name, pid), -1, {conn}};
    members_[pid].holds_code = has_code;
    host_.SetMembership(pid, settings_.room_id, true);
    UpdateWatched();
  } else {
    // A member already (perhaps seated): it keeps its place and receives again.
    if (has_code) it->second.holds_code = true;
    ComeBack(pid, it->second);
    Attach(pid, conn);
  }
  SendInfo(conn, pid, request_id);
  SendChatHistory(conn);
  if (phase_ != Phase::kWaiting) conn->Send(session_->SnapshotFor(ViewIndex(members_[pid])));
  PushInfoToAll(pid);
}

void Room::DoLeave(const ConnectionPtr& conn, const PlayerPtr& player, uint64_t request_id,
                   int mode) {
  const std::string& pid = player->player_id;
  auto it = members_.find(pid);
  if (removed_ || it == members_.end()) {
    conn->Send(EncodeError(request_id, codes::kNotMember, "You are not in this room."));
    return;
  }
  const int seat = it->second.seat;
  if (seat >= 0 && phase_ == Phase::kWaiting) {
    seats_[static_cast<size_t>(seat)] = {};
    RemoveMember(pid);
    if (host_player_id_ == pid) {
      // The host passes to the next seated player, going round the table.
      host_player_id_.clear();
      for (size_t step = 1; step <= seats_.size(); ++step) {
        const auto& next = seats_[(static_cast<size_t>(seat) + step) % seats_.size()];
        if (!next.player_id.empty() && next.bot == 0) {
          host_player_id_ = next.player_id;
          break;
        }
      }
    }
  } else if (seat >= 0 && phase_ == Phase::kPlaying) {
    if (mode != v1::LEAVE_KEEP_SEAT && mode != v1::LEAVE_CONCEDE && mode != v1::LEAVE_HAND_TO_BOT) {
      conn->Send(EncodeError(request_id, codes::kBadLeaveMode, "Unknown way of leaving."));
      return;
    }
    const auto index = static_cast<size_t>(seat);
    // Resigning is legal for any seat that has not resigned (the engine's rule), so conceding
    // cannot be refused by the rules once it gets here.
    const bool concede =
        mode == v1::LEAVE_CONCEDE && !session_->state().HasResigned(seat) && !session_->over();
    // The seat stays reserved: the player may come back with JoinRoom. Every tab leaves.
    it->second.conns.clear();
    if (!it->second.left && !session_->over()) StoreLeft(seat, true);
    it->second.left = true;
    // No longer listed among his rooms: his next connection (another tab, a reconnect) would
    // otherwise join again at once and undo the leaving. He comes back with the room's link.
    host_.SetMembership(pid, settings_.room_id, false);
    it->second.offline_since = std::chrono::steady_clock::now();
    ExpireWhenAbandoned();  // the socket's close will find nothing left to detach
    if (concede) {
      // Answered once the resignation is stored, like a move.
      PushInfoToAll();
      ResignSeat(conn, request_id, seat, v1::ORIGIN_PLAYER);
      return;
    }
    if (mode == v1::LEAVE_HAND_TO_BOT && seats_[index].stand_in == 0 &&
        !session_->state().HasResigned(seat) && !session_->over()) {
      StoreStandIn(conn, request_id, seat, v1::BOT_EASY);
      return;
    }
  } else {
    // A seated player leaving a finished game ends a rematch offer: it can no longer be
    // accepted by everyone.
    if (seat >= 0 && phase_ == Phase::kFinished) rematch_.clear();
    RemoveMember(pid);
  }
  Publish();
  conn->Send(EncodeOk(request_id));
  PushInfoToAll();
  MaybeRemove();
}

void Room::DoDetach(const PlayerPtr& player, const ConnectionPtr& conn) {
  auto it = members_.find(player->player_id);
  if (removed_ || it == members_.end()) return;
  auto& conns = it->second.conns;
  const size_t before = conns.size();
  // Drops this connection, and any that died without being reported yet.
  std::erase_if(conns, [&](const std::weak_ptr<Connection>& w) {
    auto c = w.lock();
    return !c || c == conn;
  });
  if (conns.size() == before) return;
  // The player's other tabs keep it online.
  if (!conns.empty()) return;
  it->second.offline_since = std::chrono::steady_clock::now();
  const bool seated = it->second.seat >= 0;
  if (!seated) RemoveMember(player->player_id);  // spectators simply leave
  PushInfoToAll();
  Publish();
  RemoveWhenAbandoned();
  // Only a player's departure restarts the wait: watchers coming and going do not keep a game
  // nobody plays alive.
  if (seated) ExpireWhenAbandoned();
}

void Room::Attach(const std::string& player_id, const ConnectionPtr& conn) {
  auto& conns = members_[player_id].conns;
  std::erase_if(conns, [&](const std::weak_ptr<Connection>& w) {
    auto c = w.lock();
    return !c || c == conn;
  });
  conns.push_back(conn);
}

void Room::RemoveMember(const std::string& player_id) {
  members_.erase(player_id);
  host_.SetMembership(player_id, settings_.room_id, false);
  UpdateWatched();
}

void Room::UpdateWatched() {
  if (!session_) return;
  bool watched = false;
  for (const auto& [pid, member] : members_) watched = watched || member.seat < 0;
  session_->SetWatched(watched);
}

bool Room::NameTaken(const std::string& name, const std::string& player_id) const {
  auto lower = [](std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  const std::string n = lower(name);
  for (const SeatState& s : seats_) {
    if (!s.player_id.empty() && s.player_id != player_id && lower(s.name) == n) return true;
  }
  for (const auto& [pid, member] : members_) {
    if (pid != player_id && lower(member.name) == n) return true;
  }
  return false;
}

std::string Room::UniqueName(const std::string& wanted, const std::string& player_id) const {
  if (!NameTaken(wanted, player_id)) return wanted;
  for (int k = 2;; ++k) {
    std::string name = wanted + " (" + std::to_string(k) + ")";
    if (!NameTaken(name, player_id)) return name;
  }
}

}  // namespace plateau::server
