// Presence and leavers: who is online, rooms and games nobody comes back to, and the seats of
// players who left or went away (replaced, handed to a stand-in, taken back, resigned).
#include "server/room/room.h"

#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "server/error_codes.h"
#include "server/room/room_util.h"

namespace plateau::server {

bool Room::Member::online() const {
  for (const auto& weak : conns) {
    if (!weak.expired()) return true;
  }
  return false;
}

// A room waiting for players, or a finished one, is gone once no member is connected: nothing can
// happen in it any more that anybody would see. A game in progress stays (it is also stored and
// comes back after a restart) so its players can return.
void Room::MaybeRemove() {
  if (removed_ || phase_ == Phase::kPlaying || AnyOnline(false)) return;
  removed_ = true;
  grace_timer_.cancel();
  host_.PublishListing(settings_.room_id, nullptr);
  for (const auto& [pid, member] : members_) {
    host_.SetMembership(pid, settings_.room_id, false);
  }
  members_.clear();
  host_.RemoveRoom(settings_.room_id);
}

void Room::MovedAway(const ConnectionPtr& conn, uint64_t request_id) {
  if (conn) RefuseMoved(conn, request_id);
  if (moved_) return;
  // Nothing more is played here, by players, bots or clocks.
  moved_ = true;
  removed_ = true;
  empty_timer_.cancel();
  clock_timer_.cancel();
  abandon_timer_.cancel();
  grace_timer_.cancel();
  host_.PublishListing(settings_.room_id, nullptr);
  std::vector<ConnectionPtr> conns;
  for (const auto& [pid, member] : members_) {
    host_.SetMembership(pid, settings_.room_id, false);
    member.ForEach([&](const ConnectionPtr& c) { conns.push_back(c); });
  }
  members_.clear();
  host_.RemoveRoom(settings_.room_id);
  spdlog::warn("room {}: run by another node now; {} connections closed", settings_.room_id,
               conns.size());
  // After what is queued for them (the refusal above included).
  for (const ConnectionPtr& c : conns) c->Close(/*graceful=*/true);
}

void Room::RemoveWhenAbandoned() {
  if (removed_ || phase_ == Phase::kPlaying || AnyOnline(false)) return;
  // Re-arming cancels an earlier wait: the grace period counts from the last disconnection.
  empty_timer_.expires_after(settings_.empty_grace);
  empty_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
    // Through Run: never while a game being started waits on the store.
    if (!ec) self->Run([self] { self->MaybeRemove(); });
  });
}

bool Room::AnyOnline(bool players_only) const {
  for (const auto& [pid, member] : members_) {
    if ((!players_only || member.seat >= 0) && member.online()) return true;
  }
  return false;
}

void Room::ExpireWhenAbandoned() {
  if (removed_ || phase_ != Phase::kPlaying || AnyOnline(true)) return;
  // Re-arming cancels an earlier wait: the time counts from the last player's departure.
  abandon_timer_.expires_after(settings_.abandoned_after);
  abandon_timer_.async_wait([self = shared_from_this(),
                             serial = game_serial_](const boost::system::error_code& ec) {
    if (ec) return;
    self->Run([self, serial] {
      if (serial != self->game_serial_ || self->removed_ || self->phase_ != Phase::kPlaying ||
          self->AnyOnline(true)) {
        return;
      }
      spdlog::info("room {}: game {} abandoned by its players; it ends", self->settings_.room_id,
                   self->game_id_);
      for (size_t seat = 0; seat < self->seats_.size(); ++seat) {
        if (self->seats_[seat].bot != 0) continue;
        // One resignation at a time: each waits for the store like a move (Run).
        self->Run([self, serial, seat = static_cast<int>(seat)] {
          if (serial != self->game_serial_ || self->phase_ != Phase::kPlaying ||
              self->session_->over() || self->session_->state().HasResigned(seat)) {
            return;
          }
          self->ResignSeat(nullptr, 0, seat, v1::ORIGIN_EXPIRED);
        });
      }
    });
  });
}

int Room::SeatOf(const std::string& player_id) const {
  auto it = members_.find(player_id);
  return it == members_.end() ? -1 : it->second.seat;
}

void Room::DoReplaceSeat(const ConnectionPtr& conn, const PlayerPtr& player, uint64_t request_id,
                         uint32_t seat, int kind) {
  if (removed_) {
    conn->Send(EncodeError(request_id, codes::kRoomNotFound, "This room no longer exists."));
    return;
  }
  if (phase_ != Phase::kPlaying || session_->over()) {
    conn->Send(EncodeError(request_id, codes::kGameNotRunning, "No game is running in this room."));
    return;
  }
  const int asker = SeatOf(player->player_id);
  if (asker < 0) {
    conn->Send(EncodeError(request_id, codes::kNotSeated,
                           "Only the game's players can replace a seat."));
    return;
  }
  if (kind != v1::REPLACE_WITH_BOT && kind != v1::REPLACE_CLAIM_WIN) {
    conn->Send(EncodeError(request_id, codes::kBadLeaveMode, "Unknown way of replacing a seat."));
    return;
  }
  if (seat >= seats_.size()) {
    conn->Send(EncodeError(request_id, codes::kNoSuchSeat,
                           "This game has " + std::to_string(seats_.size()) + " seats."));
    return;
  }
  const SeatState& target = seats_[seat];
  const int target_seat = static_cast<int>(seat);
  if (target_seat == asker) {
    conn->Send(EncodeError(request_id, codes::kNotReplaceable,
                           "That is your own seat: leave the table to hand it over or concede."));
    return;
  }
  if (target.bot != 0 || session_->state().HasResigned(target_seat)) {
    conn->Send(EncodeError(request_id, codes::kNotReplaceable,
                           target.name + (target.bot != 0 ? " is a bot." : " has resigned: the game already plays for them.")));
    return;
  }
  if (kind == v1::REPLACE_WITH_BOT && target.stand_in != 0) {
    conn->Send(EncodeError(request_id, codes::kNotReplaceable,
                           "A bot already plays for " + target.name + "."));
    return;
  }
  if (kind == v1::REPLACE_CLAIM_WIN && seats_.size() != 2) {
    conn->Send(EncodeError(request_id, codes::kClaimNeedsTwo,
                           "A win is claimed only in a two-player game; hand the seat to a bot."));
    return;
  }
  // A seat the clock abandoned, or whose player left on purpose, may be replaced at once; one
  // whose player lost the connection after the grace period.
  auto member = members_.find(target.player_id);
  const bool abandoned = clocks_.Abandoned(target_seat);
  if (!abandoned && member != members_.end()) {
    if (member->second.online()) {
      conn->Send(EncodeError(request_id, codes::kPlayerPresent, target.name + " is at the table."));
      return;
    }
    if (const auto grace = GraceLeft(member->second); grace.count() > 0) {
      const auto wait = std::chrono::duration_cast<std::chrono::seconds>(grace).count() + 1;
      conn->Send(EncodeError(request_id, codes::kTooEarly,
                             target.name + " may still come back: wait " + std::to_string(wait) +
                                 " s more."));
      return;
    }
  }
  spdlog::info("room {}: seat {} {} by seat {}", settings_.room_id, target_seat,
               kind == v1::REPLACE_WITH_BOT ? "handed to a bot" : "resigned on a claim", asker);
  if (kind == v1::REPLACE_WITH_BOT) {
    StoreStandIn(conn, request_id, target_seat, v1::BOT_EASY);
  } else {
    ResignSeat(conn, request_id, target_seat, v1::ORIGIN_CLAIM);
  }
}

void Room::DoTakeBackSeat(const ConnectionPtr& conn, const PlayerPtr& player,
                          uint64_t request_id) {
  if (removed_) {
    conn->Send(EncodeError(request_id, codes::kRoomNotFound, "This room no longer exists."));
    return;
  }
  const int seat = SeatOf(player->player_id);
  if (phase_ != Phase::kPlaying || seat < 0 || seats_[static_cast<size_t>(seat)].stand_in == 0) {
    conn->Send(EncodeError(request_id, codes::kNoStandIn, "No bot plays for you in this room."));
    return;
  }
  StoreStandIn(conn, request_id, seat, 0);
}

void Room::ComeBack(const std::string& player_id, Member& member) {
  if (!member.left) return;
  member.left = false;
  host_.SetMembership(player_id, settings_.room_id, true);
  if (member.seat >= 0 && phase_ == Phase::kPlaying && session_ && !session_->over())
    StoreLeft(member.seat, false);
}

void Room::StoreLeft(int seat, bool left) {
  // Only what a restart shows depends on it: the room goes on at once, and a failure is logged.
  storage_.Submit(
      [game_id = game_id_, seat, left](Store& store) { return store.SetLeft(game_id, seat, left); },
      [room_id = settings_.room_id, seat](Status stored) {
        if (!stored.ok()) {
          spdlog::warn("room {}: cannot store whether seat {} left: {}", room_id, seat,
                       stored.ToString());
        }
      });
}

void Room::StoreStandIn(const ConnectionPtr& conn, uint64_t request_id, int seat, int level) {
  SetBusy(true);
  StoreThen(
      [game_id = game_id_, seat, level](Store& store) {
        return store.SetStandIn(game_id, seat, level);
      },
      [self = shared_from_this(), conn, request_id, seat, level,
       serial = game_serial_](Status stored) {
        if (!stored.ok()) {
          spdlog::error("room {}: cannot store who plays seat {}: {}", self->settings_.room_id,
                        seat, stored.ToString());
          if (conn) {
            conn->Send(EncodeError(request_id, codes::kStorageError,
                                   "That could not be saved; try again."));
          }
        } else if (serial == self->game_serial_ && self->phase_ == Phase::kPlaying) {
          self->seats_[static_cast<size_t>(seat)].stand_in = level;
          // Taken back: the player starts afresh (see Restore for the same after a restart).
          if (level == 0) self->clocks_.ClearTimeouts(seat);
          self->UpdateHasBots();
          // The room goes out before the answer, so whoever asked sees the bot once answered.
          self->PushInfoToAll();
          if (conn) conn->Send(EncodeOk(request_id));
          self->WakeBots();
        } else if (conn) {
          conn->Send(EncodeOk(request_id));
        }
        self->Resume();
      });
}

void Room::ResignSeat(const ConnectionPtr& conn, uint64_t request_id, int seat,
                      v1::ActionOrigin origin) {
  v1::CoreAction core;
  core.mutable_resign();
  const Status played = PlayFor(seat, settings_.game->WrapCore(core)->SerializeAsString(), origin,
                                conn, request_id);
  if (!played.ok() && conn) RefuseAction(conn, request_id, played.code(), played.reason());
}

void Room::WatchGrace() {
  std::optional<std::chrono::steady_clock::duration> first;
  if (!removed_ && phase_ == Phase::kFinished) {
    // The players Terms counts as "may still come back".
    for (const SeatState& s : seats_) {
      if (s.bot != 0 || s.stand_in != 0 || s.player_id.empty()) continue;
      const auto member = members_.find(s.player_id);
      if (member == members_.end() || member->second.online()) continue;
      const auto grace = GraceLeft(member->second);
      if (grace.count() > 0 && (!first || grace < *first)) first = grace;
    }
  }
  if (!first) {
    // Most pushes (every move of a timed game) find nothing to wait for and nothing armed.
    if (grace_armed_) grace_timer_.cancel();
    grace_armed_ = false;
    return;
  }
  grace_armed_ = true;
  grace_timer_.expires_after(*first);
  grace_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
    // Re-arming cancels the wait: only the latest one pushes. Through Run, as every change.
    if (!ec) self->Run([self] { self->PushInfoToAll(); });
  });
}

std::chrono::steady_clock::duration Room::GraceLeft(const Member& member) const {
  if (member.left) return {};
  const auto away = std::chrono::steady_clock::now() - member.offline_since;
  if (away >= settings_.offline_grace) return {};
  return settings_.offline_grace - away;
}

}  // namespace plateau::server
