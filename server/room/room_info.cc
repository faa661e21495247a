// What the room tells: the RoomInfo each member gets, the public listing, and the chat.
#include "server/room/room.h"

#include <chrono>
#include <string>
#include <string_view>

#include "server/error_codes.h"
#include "server/player_text.h"
#include "server/room/room_util.h"

namespace plateau::server {

void Room::Chat(ConnectionPtr conn, PlayerPtr player, uint64_t request_id, std::string text) {
  Run([self = shared_from_this(), conn, player, request_id, text = std::move(text)] {
    if (self->removed_) {
      conn->Send(EncodeError(request_id, codes::kRoomNotFound, "This room no longer exists."));
      return;
    }
    if (self->members_.count(player->player_id) == 0) {
      conn->Send(EncodeError(request_id, codes::kNotMember, "Only members of the room can chat."));
      return;
    }
    std::string trimmed = Trim(text);
    if (trimmed.empty()) {
      conn->Send(EncodeError(request_id, codes::kEmptyChat, "The message is empty."));
      return;
    }
    if (CodePoints(trimmed) > kMaxChatChars) {
      conn->Send(EncodeError(request_id, codes::kChatTooLong,
                             "A chat message has at most " + std::to_string(kMaxChatChars) +
                                 " characters."));
      return;
    }
    v1::ServerMessage m;
    v1::ChatMessage* chat = m.mutable_chat();
    chat->set_room_id(self->settings_.room_id);
    chat->set_from_name(self->members_[player->player_id].name);  // the room's name for them
    chat->set_from_player_id(player->player_id);
    chat->set_text(std::move(trimmed));
    chat->set_at_unix_ms(NowUnixMs());
    SharedBuffer frame = Encode(m);
    self->chat_.push_back(frame);
    if (self->chat_.size() > kChatHistory) self->chat_.pop_front();
    conn->Send(EncodeOk(request_id));
    for (const auto& [pid, member] : self->members_) {
      member.Send(frame);
    }
  });
}

size_t Room::ViewIndex(const Member& member) const {
  return session_->ViewIndex(member.seat);
}

v1::RoomInfo Room::BuildInfo() const {
  v1::RoomInfo info;
  info.set_room_id(settings_.room_id);
  info.set_game(settings_.game->Info().id);
  info.set_is_private(settings_.is_private);
  switch (phase_) {
    case Phase::kWaiting: info.set_status(v1::ROOM_STATUS_WAITING); break;
    case Phase::kPlaying: info.set_status(v1::ROOM_STATUS_PLAYING); break;
    case Phase::kFinished: info.set_status(v1::ROOM_STATUS_FINISHED); break;
  }
  info.set_host_player_id(host_player_id_);
  info.set_max_seats(static_cast<uint32_t>(seats_.size()));
  if (settings_.timer.mode() != v1::TIMER_NONE) *info.mutable_timer() = settings_.timer;
  info.set_undo(settings_.undo);
  info.set_offline_grace_seconds(static_cast<uint32_t>(
      std::chrono::duration_cast<std::chrono::seconds>(settings_.offline_grace).count()));
  const auto steady_now = std::chrono::steady_clock::now();
  const int64_t unix_now = NowUnixMs();
  RematchTerms terms;
  if (phase_ == Phase::kFinished) {
    terms = Terms();
    v1::RematchInfo* rematch = info.mutable_rematch();
    rematch->set_without_absent(rematch_without_absent_);
    rematch->set_unavailable(terms.reason);
    rematch->set_without_unavailable(terms.without_reason);
    for (size_t i = 0; i < terms.absent.size(); ++i) {
      if (terms.absent[i]) rematch->add_absent_seats(static_cast<uint32_t>(i));
    }
  }
  for (size_t i = 0; i < seats_.size(); ++i) {
    v1::SeatInfo* seat = info.add_seats();
    seat->set_seat(static_cast<uint32_t>(i));
    seat->set_player_id(seats_[i].player_id);
    seat->set_name(seats_[i].name);
    seat->set_ready(seats_[i].ready);
    seat->set_bot(static_cast<v1::BotLevel>(seats_[i].bot));
    // Once an offer is made, the seats that agree without being asked show as agreeing.
    seat->set_rematch(i < rematch_.size() && (rematch_[i] || AgreesForItself(terms, i)));
    if (seats_[i].bot != 0) seat->set_connected(true);  // a bot is always there
    if (seats_[i].player_id.empty() || seats_[i].bot != 0) continue;
    seat->set_stand_in(static_cast<v1::BotLevel>(seats_[i].stand_in));
    auto member = members_.find(seats_[i].player_id);
    const bool online = member != members_.end() && member->second.online();
    seat->set_connected(online);
    if (member == members_.end() || online) {
      seat->set_presence(online ? v1::PRESENCE_ONLINE : v1::PRESENCE_LEFT);
    } else {
      seat->set_presence(member->second.left ? v1::PRESENCE_LEFT : v1::PRESENCE_OFFLINE);
      if (phase_ == Phase::kPlaying) {
        seat->set_offline_ms(static_cast<uint64_t>(
            std::chrono::duration_cast<std::chrono::milliseconds>(steady_now -
                                                                  member->second.offline_since)
                .count()));
      }
    }
  }
  if (clocks_.enabled() && phase_ != Phase::kWaiting) {
    for (size_t i = 0; i < seats_.size(); ++i) {
      clocks_.Fill(static_cast<int>(i), unix_now, info.mutable_seats(static_cast<int>(i))->mutable_clock());
    }
  }
  for (const auto& [pid, member] : members_) {
    if (member.seat < 0) info.add_spectators(member.name);
  }
  info.set_options(settings_.options);
  info.set_title(settings_.title);
  info.set_your_seat(-1);
  info.set_game_id(game_id_);
  return info;
}

SharedBuffer Room::EncodeInfo(const v1::RoomInfo& base, const std::string& player_id,
                              uint64_t request_id) const {
  v1::ServerMessage m;
  m.set_request_id(request_id);
  v1::RoomInfo* info = m.mutable_room();
  *info = base;
  auto it = members_.find(player_id);
  if (it != members_.end()) {
    // The join code is the key to a private room's seats: only for the members who hold it. The
    // watch code, which opens nothing but watching, is for every member to hand on.
    if (it->second.seat >= 0 || it->second.holds_code) info->set_join_code(settings_.join_code);
    info->set_watch_code(settings_.watch_code);
    info->set_your_seat(it->second.seat);
  }
  return Encode(m);
}

void Room::SendInfo(const ConnectionPtr& conn, const std::string& player_id, uint64_t request_id) {
  conn->Send(EncodeInfo(BuildInfo(), player_id, request_id));
}

void Room::PushInfoToAll(const std::string& skip_player_id) {
  const v1::RoomInfo base = BuildInfo();
  for (const auto& [pid, member] : members_) {
    if (pid == skip_player_id) continue;
    if (member.online()) member.Send(EncodeInfo(base, pid, 0));
  }
  WatchGrace();
}

void Room::SendChatHistory(const ConnectionPtr& conn) {
  for (const auto& line : chat_) conn->Send(line);
}

void Room::Publish() {
  if (removed_) return;
  if (settings_.is_private || phase_ == Phase::kFinished) {
    host_.PublishListing(settings_.room_id, nullptr);
    return;
  }
  const v1::RoomInfo info = BuildInfo();
  host_.PublishListing(settings_.room_id, &info);
}

}  // namespace plateau::server
