// The room registry: rooms by id, join code and watch code, who is a member of which, creating a
// room (with its creator's room allowance), bringing unfinished games back at start-up, and
// taking over the rooms of dead nodes (several nodes on PostgreSQL).
#include "server/lobby/lobby.h"

#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>

#include "engine/core/registry.h"
#include "server/error_codes.h"
#include "server/lobby/ids.h"
#include "server/player_text.h"
#include "server/room/turn_clocks.h"

namespace plateau::server {

namespace v1 = plateau::v1;

Status Lobby::RestoreRooms() {
  // At start-up, before any connection: the one store call made outside the storage thread.
  auto unfinished = store_.LoadUnfinished();
  if (!unfinished.ok()) return unfinished.status();
  AdoptRooms(unfinished.value());
  return Status::Ok();
}

size_t Lobby::AdoptRooms(const std::vector<Store::Unfinished>& games) {
  size_t adopted = 0;
  for (const auto& saved : games) {
    auto room = Room::Restore(RoomExecutor(nullptr), saved, storage_, *this, empty_room_grace_, offline_grace_,
                              abandoned_after_);
    if (!room.ok()) {
      spdlog::error("cannot restore room {} (game {}): {}", saved.room.room_id,
                    saved.record.game_id(), room.status().ToString());
      continue;
    }
    std::shared_ptr<Room> replaced;
    {
      std::lock_guard lock(mu_);
      // A room this node ran before another took it over, coming back: the new one replaces it.
      if (auto it = rooms_.find(saved.room.room_id); it != rooms_.end()) replaced = it->second;
      rooms_[saved.room.room_id] = room.value();
      if (!saved.room.join_code.empty()) room_by_code_[saved.room.join_code] = saved.room.room_id;
      if (!saved.room.watch_code.empty()) {
        room_by_watch_code_[saved.room.watch_code] = saved.room.room_id;
      }
    }
    if (replaced) replaced->DetachAll();
    room.value()->Announce();
    ++adopted;
    spdlog::info("restored room {} (game {}, {} actions)", saved.room.room_id,
                 saved.record.game_id(), saved.record.actions_size());
  }
  return adopted;
}

void Lobby::StartTakeovers(std::chrono::milliseconds every) {
  takeover_every_ = every;
  boost::asio::post(executor_, [this] { ScheduleTakeover(); });
}

void Lobby::ScheduleTakeover() {
  if (stopping_ || takeover_every_.count() <= 0) return;
  takeover_timer_.expires_after(takeover_every_);
  takeover_timer_.async_wait([this](const boost::system::error_code& ec) {
    if (ec || stopping_) return;
    auto found = std::make_shared<std::vector<Store::Unfinished>>();
    storage_.Submit(
        [found](Store& store) {
          auto taken = store.TakeOver();
          if (!taken.ok()) return taken.status();
          *found = std::move(taken.value());
          return Status::Ok();
        },
        [this, found](Status st) {
          boost::asio::post(executor_, [this, found, st] {
            if (!st.ok()) {
              spdlog::error("cannot take over the rooms of dead nodes: {}", st.ToString());
            } else if (!found->empty() && !stopping_) {
              const size_t adopted = AdoptRooms(*found);
              if (metrics_ != nullptr) metrics_->rooms_taken_over.Inc(adopted);
              spdlog::info("took over {} rooms of nodes whose lease ran out", adopted);
            }
            ScheduleTakeover();
          });
        },
        StorageExecutor::Kind::kRead);
  });
}

void Lobby::FindOwner(const std::string& room_id, std::function<void(Store::RoomOwner)> done) {
  auto owner = std::make_shared<Store::RoomOwner>();
  storage_.Submit(
      [room_id, owner](Store& store) {
        auto found = store.FindOwner(room_id);
        if (!found.ok()) return found.status();
        *owner = std::move(found.value());
        return Status::Ok();
      },
      [room_id, owner, done = std::move(done)](Status st) {
        // Not found (or not known now): the room is looked for here, and is not.
        if (!st.ok()) spdlog::warn("cannot find the node of room {}: {}", room_id, st.ToString());
        done(st.ok() ? *owner : Store::RoomOwner());
      },
      StorageExecutor::Kind::kRead);
}

void Lobby::ReleaseRoom(const std::string& room_id) {
  if (!clustered_) return;
  storage_.Submit([room_id](Store& store) { return store.ReleaseRoom(room_id); },
                  [room_id](Status st) {
                    // Left claimed, it is forgotten once this node's lease on it runs out.
                    if (!st.ok()) spdlog::warn("cannot release room {}: {}", room_id, st.ToString());
                  });
}

boost::asio::any_io_executor Lobby::RoomExecutor(const Connection* creator) {
  if (shards_.empty()) return executor_;
  const size_t shard = creator != nullptr && creator->shard < shards_.size() ? creator->shard
                                                                             : NextShard();
  return shards_[shard]->get_executor();
}

std::optional<size_t> Lobby::ShardOfRoom(const std::string& room_id) {
  if (shards_.empty()) return std::nullopt;
  std::shared_ptr<Room> room = FindRoom(room_id);
  if (!room) return std::nullopt;
  const auto& context = boost::asio::query(room->executor(), boost::asio::execution::context);
  for (size_t i = 0; i < shards_.size(); ++i) {
    if (shards_[i] == &context) return i;
  }
  return std::nullopt;
}

std::shared_ptr<Room> Lobby::FindRoom(const std::string& room_id) {
  std::lock_guard lock(mu_);
  auto it = rooms_.find(room_id);
  return it == rooms_.end() ? nullptr : it->second;
}

size_t Lobby::RoomCount() {
  std::lock_guard lock(mu_);
  return rooms_.size();
}

void Lobby::SetMembership(const std::string& player_id, const std::string& room_id, bool member) {
  std::lock_guard lock(mu_);
  if (member) {
    memberships_[player_id].insert(room_id);
    return;
  }
  auto it = memberships_.find(player_id);
  if (it == memberships_.end()) return;
  it->second.erase(room_id);
  if (it->second.empty()) memberships_.erase(it);
}

void Lobby::RemoveRoom(const std::string& room_id) {
  std::lock_guard lock(mu_);
  auto it = rooms_.find(room_id);
  if (it == rooms_.end()) return;
  room_by_code_.erase(it->second->settings().join_code);
  room_by_watch_code_.erase(it->second->settings().watch_code);
  if (auto listed = listing_.find(room_id);
      listed != listing_.end() && remote_listed_.count(room_id) == 0) {
    NoteListingChange(room_id, listed->second.game());
    listing_.erase(listed);
    if (listing_sink_) listing_sink_(room_id, std::nullopt);
  }
  rooms_.erase(it);
  ForgetCreator(room_id);
  ReleaseRoom(room_id);
}

void Lobby::RoomClosed(const std::string& room_id) {
  {
    std::lock_guard lock(mu_);
    ForgetCreator(room_id);
  }
  NoteCreator(room_id, "");
}

void Lobby::NoteCreator(const std::string& room_id, const std::string& creator) {
  if (!clustered_) return;
  storage_.Submit([room_id, creator](Store& store) { return store.SetRoomCreator(room_id, creator); },
                  [room_id](Status st) {
                    // Only the count over every node is off meanwhile: the room goes on.
                    if (!st.ok()) spdlog::warn("cannot note who opened room {}: {}", room_id, st.ToString());
                  });
}

void Lobby::RoomReopened(const std::string& room_id, const std::string& host_id) {
  {
    std::lock_guard lock(mu_);
    if (room_creator_.count(room_id) != 0) return;
    room_creator_[room_id] = host_id;
    auto [quota, fresh] = player_quotas_.try_emplace(host_id);
    if (fresh) quota->second.rooms_created = TokenBucket(limits_.rooms_per_hour / 3600.0, ClientLimits::kRoomsBurst);
    ++quota->second.open_rooms;
  }
  NoteCreator(room_id, host_id);
}

void Lobby::ForgetCreator(const std::string& room_id) {
  auto creator = room_creator_.find(room_id);
  if (creator == room_creator_.end()) return;
  auto quota = player_quotas_.find(creator->second);
  if (quota != player_quotas_.end() && quota->second.open_rooms > 0) --quota->second.open_rooms;
  room_creator_.erase(creator);
}

void Lobby::HandleCreateRoom(const ConnectionPtr& conn, uint64_t request_id,
                             const v1::CreateRoom& create) {
  const engine::Game* game = engine::Registry::Find(create.game());
  if (game == nullptr) {
    conn->Send(EncodeError(request_id, engine::codes::kUnknownGame,
                           "There is no game called '" + create.game() + "' here."));
    return;
  }
  const engine::GameInfo& info = game->Info();
  const int seats = create.seats() == 0 ? info.max_seats : static_cast<int>(create.seats());
  if (create.seats() > static_cast<uint32_t>(info.max_seats) || seats < info.min_seats) {
    conn->Send(EncodeError(request_id, engine::codes::kBadOptions,
                           info.title + " is played by " + std::to_string(info.min_seats) +
                               " to " + std::to_string(info.max_seats) + " players."));
    return;
  }
  auto options = game->ParseOptions(create.options());
  if (!options.ok()) {
    conn->Send(EncodeError(request_id, options.status().code(), options.status().reason()));
    return;
  }
  Status valid = game->ValidateOptions(seats, *options.value());
  if (!valid.ok()) {
    conn->Send(EncodeError(request_id, valid.code(), valid.reason()));
    return;
  }
  if (std::string why = TurnClocks::Invalid(create.timer()); !why.empty()) {
    conn->Send(EncodeError(request_id, codes::kBadTimer, why));
    return;
  }
  std::string title = Trim(create.title());
  if (CodePoints(title) > kMaxTitleChars || HasControlChars(title)) {
    conn->Send(EncodeError(request_id, codes::kBadTitle,
                           "A room title has at most " + std::to_string(kMaxTitleChars) +
                               " characters, without control characters."));
    return;
  }
  if (title.empty()) title = conn->player->name + "'s " + info.title;
  const std::string& creator = conn->player->player_id;
  {
    std::lock_guard lock(mu_);
    if (++created_since_prune_ >= 1024) {
      // Players with nothing open and their allowance back need no entry.
      created_since_prune_ = 0;
      const auto now = LimitClock::now();
      for (auto it = player_quotas_.begin(); it != player_quotas_.end();) {
        const bool idle = it->second.open_rooms == 0 && it->second.rooms_created.Full(now);
        it = idle ? player_quotas_.erase(it) : std::next(it);
      }
    }
    auto [quota, fresh] = player_quotas_.try_emplace(creator);
    if (fresh) quota->second.rooms_created = TokenBucket(limits_.rooms_per_hour / 3600.0, ClientLimits::kRoomsBurst);
    if (limits_.open_rooms_per_player > 0 &&
        quota->second.open_rooms >= limits_.open_rooms_per_player) {
      RefuseForLimit(conn, request_id, codes::kTooManyRooms,
                     "You already have " + std::to_string(quota->second.open_rooms) +
                         " open rooms; leave or finish one first.");
      return;
    }
    if (limits_.rooms_per_hour > 0) {
      const auto now = LimitClock::now();
      if (!quota->second.rooms_created.Take(now)) {
        const int wait = static_cast<int>(quota->second.rooms_created.SecondsUntilToken(now)) + 1;
        RefuseForLimit(conn, request_id, codes::kTooManyRooms,
                       "You have created rooms too fast; try again in " + std::to_string(wait) +
                           " s.");
        return;
      }
    }
    // Counted here, in the same section as the check, so two tabs cannot both pass it.
    ++quota->second.open_rooms;
  }

  RoomSettings settings;
  settings.is_private = create.is_private();
  settings.title = std::move(title);
  settings.game = game;
  settings.options = engine::DeterministicBytes(*options.value());
  settings.seats = seats;
  settings.empty_grace = empty_room_grace_;
  settings.timer = create.timer();
  settings.undo = !create.has_undo() || create.undo();  // on unless the host turns it off
  settings.offline_grace = offline_grace_;
  settings.abandoned_after = abandoned_after_;
  std::shared_ptr<Room> room;
  {
    std::lock_guard lock(mu_);
    do {
      settings.room_id = NewRoomId();
    } while (rooms_.count(settings.room_id) != 0);
    do {
      settings.join_code = NewJoinCode();
    } while (room_by_code_.count(settings.join_code) != 0);
    do {
      settings.watch_code = NewWatchCode();
    } while (room_by_watch_code_.count(settings.watch_code) != 0);
    room = std::make_shared<Room>(RoomExecutor(conn.get()), settings, storage_, *this);
    rooms_[settings.room_id] = room;
    room_by_code_[settings.join_code] = settings.room_id;
    room_by_watch_code_[settings.watch_code] = settings.room_id;
    room_creator_[settings.room_id] = creator;
  }
  spdlog::info("room {} created by {} ({}, {} seats{})", settings.room_id,
               conn->player->player_id, info.id, seats, settings.is_private ? ", private" : "");
  if (!clustered_) return room->Create(conn, conn->player, request_id);
  // Several nodes: the room is claimed before its creator hears of it, so the players it invites
  // are carried here from whichever node they reach.
  // The open-room limit and the rooms created per hour hold over every node: the claim counts
  // the creator's rooms and takes from his allowance everywhere.
  AnswerAfterStore(
      conn,
      [room_id = settings.room_id,
       claim = Store::RoomClaim{creator, limits_.open_rooms_per_player, settings.join_code,
                                settings.watch_code, limits_.rooms_per_hour,
                                ClientLimits::kRoomsBurst}](Store& store) {
        return store.ClaimRoom(room_id, claim);
      },
      [this, conn, room, request_id, room_id = settings.room_id](Status claimed) {
        if (claimed.code() == codes::kTooManyRooms) {
          RemoveRoom(room_id);
          return RefuseForLimit(conn, request_id, codes::kTooManyRooms, claimed.reason());
        }
        // Unclaimed (the database unreachable), the room still runs here for whoever reaches it.
        if (!claimed.ok()) {
          spdlog::warn("cannot claim room {}: {}", room_id, claimed.ToString());
        }
        room->Create(conn, conn->player, request_id);
      },
      StorageExecutor::Kind::kWrite);
}

}  // namespace plateau::server
