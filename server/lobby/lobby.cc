#include "server/lobby/lobby.h"

#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>

#include <algorithm>

#include "engine/core/registry.h"
#include "server/lobby/ids.h"
#include "server/error_codes.h"
#include "server/log_throttle.h"
#include "server/room/turn_clocks.h"

namespace plateau::server {
namespace {

namespace v1 = plateau::v1;

std::string Trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(first, last - first + 1));
}

size_t CodePoints(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80 ? 1 : 0;
  return n;
}

bool HasControlChars(std::string_view s) {
  for (unsigned char c : s) {
    if (c < 0x20 || c == 0x7f) return true;
  }
  return false;
}

std::string ToUpper(std::string s) {
  for (char& c : s) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return s;
}

}  // namespace

Lobby::Lobby(boost::asio::any_io_executor executor, Store& store, StorageExecutor& storage,
             Replays* replays, std::chrono::milliseconds empty_room_grace, ClientLimits limits,
             Metrics* metrics)
    : executor_(std::move(executor)),
      store_(store),
      storage_(storage),
      replays_(replays),
      empty_room_grace_(empty_room_grace),
      limits_(limits),
      metrics_(metrics),
      addresses_(limits_),
      flush_timer_(executor_) {}

Lobby::~Lobby() {
  // The I/O threads have stopped: a room still waiting on the store would keep, in the requests it
  // holds back, references to itself and to connections that nothing else will ever release.
  bot_pool_.join();
  for (auto& [id, room] : rooms_) room->DropPending();
}

void Lobby::Think(std::function<void()> job) { boost::asio::post(bot_pool_, std::move(job)); }

std::shared_ptr<AddressQuota> Lobby::AdmitAddress(const std::string& address) {
  return addresses_.Admit(address, LimitClock::now());
}

Status Lobby::RestoreRooms() {
  // At start-up, before any connection: the one store call made outside the storage thread.
  auto unfinished = store_.LoadUnfinished();
  if (!unfinished.ok()) return unfinished.status();
  for (const auto& saved : unfinished.value()) {
    auto room = Room::Restore(executor_, saved, storage_, *this, empty_room_grace_, offline_grace_,
                              abandoned_after_);
    if (!room.ok()) {
      spdlog::error("cannot restore room {} (game {}): {}", saved.room.room_id,
                    saved.record.game_id(), room.status().ToString());
      continue;
    }
    {
      std::lock_guard lock(mu_);
      rooms_[saved.room.room_id] = room.value();
      if (!saved.room.join_code.empty()) room_by_code_[saved.room.join_code] = saved.room.room_id;
    }
    room.value()->Announce();
    spdlog::info("restored room {} (game {}, {} actions)", saved.room.room_id,
                 saved.record.game_id(), saved.record.actions_size());
  }
  return Status::Ok();
}

void Lobby::OnOpen(const ConnectionPtr& conn) {
  ConnectionQuota& quota = conn->quota;
  quota.requests = TokenBucket(limits_.requests_per_second, 2 * limits_.requests_per_second);
  quota.chat = TokenBucket(limits_.chat_per_second, 5);
  quota.wrong_codes = TokenBucket(limits_.wrong_codes_per_connection / 60.0,
                                  limits_.wrong_codes_per_connection);
  std::lock_guard lock(mu_);
  connections_[conn.get()] = conn;
}

void Lobby::OnClosed(const ConnectionPtr& conn) {
  std::vector<std::shared_ptr<Room>> rooms;
  {
    std::lock_guard lock(mu_);
    connections_.erase(conn.get());
    watchers_.erase(conn.get());
    if (conn->player) {
      auto it = memberships_.find(conn->player->player_id);
      if (it != memberships_.end()) {
        for (const auto& room_id : it->second) {
          auto r = rooms_.find(room_id);
          if (r != rooms_.end()) rooms.push_back(r->second);
        }
      }
    }
  }
  for (auto& room : rooms) room->Detach(conn->player, conn);
}

void Lobby::StopTakingRequests() { stopping_ = true; }

void Lobby::CloseAll() {
  stopping_ = true;
  std::vector<ConnectionPtr> conns;
  std::vector<std::shared_ptr<Room>> rooms;
  {
    std::lock_guard lock(mu_);
    for (auto& [ptr, weak] : connections_) {
      if (auto c = weak.lock()) conns.push_back(std::move(c));
    }
    for (auto& [id, room] : rooms_) rooms.push_back(room);
  }
  {
    std::lock_guard lock(mu_);
    watchers_.clear();
    flush_scheduled_ = true;  // no more pushes
    flush_timer_.cancel();
  }
  for (auto& room : rooms) room->DetachAll();
  for (auto& c : conns) c->Close(/*graceful=*/true);
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

size_t Lobby::QueuedBytes() {
  std::lock_guard lock(mu_);
  size_t total = 0;
  for (const auto& [ptr, weak] : connections_) {
    if (auto c = weak.lock()) total += c->QueuedBytes();
  }
  return total;
}

size_t Lobby::ConnectionCount() {
  std::lock_guard lock(mu_);
  return connections_.size();
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

void Lobby::PublishListing(const std::string& room_id, const v1::RoomInfo* info) {
  std::lock_guard lock(mu_);
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

void Lobby::RemoveRoom(const std::string& room_id) {
  std::lock_guard lock(mu_);
  auto it = rooms_.find(room_id);
  if (it == rooms_.end()) return;
  room_by_code_.erase(it->second->settings().join_code);
  if (auto listed = listing_.find(room_id); listed != listing_.end()) {
    NoteListingChange(room_id, listed->second.game());
    listing_.erase(listed);
  }
  rooms_.erase(it);
  ForgetCreator(room_id);
}

void Lobby::RoomClosed(const std::string& room_id) {
  std::lock_guard lock(mu_);
  ForgetCreator(room_id);
}

void Lobby::RoomReopened(const std::string& room_id, const std::string& host_id) {
  std::lock_guard lock(mu_);
  if (room_creator_.count(room_id) != 0) return;
  room_creator_[room_id] = host_id;
  auto [quota, fresh] = player_quotas_.try_emplace(host_id);
  if (fresh) quota->second.rooms_created = TokenBucket(limits_.rooms_per_hour / 3600.0, 20);
  ++quota->second.open_rooms;
}

void Lobby::ForgetCreator(const std::string& room_id) {
  auto creator = room_creator_.find(room_id);
  if (creator == room_creator_.end()) return;
  auto quota = player_quotas_.find(creator->second);
  if (quota != player_quotas_.end() && quota->second.open_rooms > 0) --quota->second.open_rooms;
  room_creator_.erase(creator);
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

// ---------------------------------------------------------------------------------------------

void Lobby::OnMessage(const ConnectionPtr& conn, std::string_view frame) {
  v1::ClientMessage message;
  if (!message.ParseFromArray(frame.data(), static_cast<int>(frame.size()))) {
    conn->Send(EncodeError(0, engine::codes::kMalformed, "The message could not be decoded as a ClientMessage."));
    return;
  }
  const uint64_t id = message.request_id();
  // Counted before the check: once shutdown has set stopping_, it sees every request that got
  // past it (see Quiet), so an action accepted meanwhile is acknowledged before the close.
  std::shared_ptr<void> ticket(nullptr, [this](void*) { requests_in_flight_.fetch_sub(1); });
  requests_in_flight_.fetch_add(1);
  if (stopping_.load()) {
    conn->Send(EncodeError(id, codes::kShuttingDown,
                           "The server is restarting; reconnect in a moment."));
    return;
  }
  if (!AdmitRequest(conn, id)) return;
  if (message.body_case() == v1::ClientMessage::kHello) {
    HandleHello(conn, id, message.hello());
    return;
  }
  if (!conn->player) {
    conn->Send(EncodeError(id, codes::kHelloRequired, "Say Hello first."));
    return;
  }
  const PlayerPtr& player = conn->player;
  bool has_code = false;
  switch (message.body_case()) {
    case v1::ClientMessage::kPing: {
      v1::ServerMessage m;
      m.set_request_id(id);
      m.mutable_pong();
      conn->Send(Encode(m));
      return;
    }
    case v1::ClientMessage::kListGames:
      HandleListGames(conn, id);
      return;
    case v1::ClientMessage::kListRooms:
      HandleListRooms(conn, id, message.list_rooms());
      return;
    case v1::ClientMessage::kCreateRoom:
      HandleCreateRoom(conn, id, message.create_room());
      return;
    case v1::ClientMessage::kJoinRoom:
      if (auto room = RouteToRoom(conn, id, message.join_room().room_id(),
                                  message.join_room().join_code(), &has_code)) {
        room->Join(conn, player, id, has_code);
      }
      return;
    case v1::ClientMessage::kSpectate:
      if (auto room = RouteToRoom(conn, id, message.spectate().room_id(),
                                  message.spectate().join_code(), &has_code)) {
        room->Spectate(conn, player, id, has_code);
      }
      return;
    case v1::ClientMessage::kLeaveRoom:
      if (message.leave_room().room_id() == conn->action_room_id) {
        conn->action_room_id.clear();
        conn->action_room.reset();
      }
      if (auto room = RouteToRoom(conn, id, message.leave_room().room_id(), "", &has_code)) {
        room->Leave(conn, player, id, message.leave_room().mode());
      }
      return;
    case v1::ClientMessage::kSetReady:
      if (auto room = RouteToRoom(conn, id, message.set_ready().room_id(), "", &has_code)) {
        room->SetReady(conn, player, id, message.set_ready().ready());
      }
      return;
    case v1::ClientMessage::kPeekRoom:
      if (auto room = RouteToRoom(conn, id, message.peek_room().room_id(),
                                  message.peek_room().join_code(), &has_code)) {
        room->Peek(conn, player, id, has_code);
      }
      return;
    case v1::ClientMessage::kRematch:
      if (auto room = RouteToRoom(conn, id, message.rematch().room_id(), "", &has_code)) {
        room->Rematch(conn, player, id, message.rematch().accept());
      }
      return;
    case v1::ClientMessage::kRename:
      HandleRename(conn, id, message.rename());
      return;
    case v1::ClientMessage::kReplaceSeat:
      if (auto room = RouteToRoom(conn, id, message.replace_seat().room_id(), "", &has_code)) {
        room->ReplaceSeat(conn, player, id, message.replace_seat().seat(),
                          message.replace_seat().kind());
      }
      return;
    case v1::ClientMessage::kTakeBackSeat:
      if (auto room = RouteToRoom(conn, id, message.take_back_seat().room_id(), "", &has_code)) {
        room->TakeBackSeat(conn, player, id);
      }
      return;
    case v1::ClientMessage::kAddBot:
      if (auto room = RouteToRoom(conn, id, message.add_bot().room_id(), "", &has_code)) {
        room->AddBot(conn, player, id, message.add_bot().seat(), message.add_bot().level());
      }
      return;
    case v1::ClientMessage::kRemoveBot:
      if (auto room = RouteToRoom(conn, id, message.remove_bot().room_id(), "", &has_code)) {
        room->RemoveBot(conn, player, id, message.remove_bot().seat());
      }
      return;
    case v1::ClientMessage::kStartGame:
      if (auto room = RouteToRoom(conn, id, message.start_game().room_id(), "", &has_code)) {
        room->Start(conn, player, id);
      }
      return;
    case v1::ClientMessage::kChat:
      if (!conn->quota.chat.Take(LimitClock::now())) {
        RefuseForLimit(conn, id, codes::kChatRateLimited,
                       "You are sending chat messages too fast; wait a moment.");
        return;
      }
      if (auto room = RouteToRoom(conn, id, message.chat().room_id(), "", &has_code)) {
        room->Chat(conn, player, id, message.chat().text());
      }
      return;
    case v1::ClientMessage::kAction: {
      // Routed through the connection's last room when it is the one named (see
      // Connection::action_room): on every action, the lookups below take the lobby's lock and
      // compare ids through three maps. The room checks membership and seat itself.
      const std::string& room_id = message.action().room_id();
      std::shared_ptr<Room> room;
      if (!room_id.empty() && room_id == conn->action_room_id) room = conn->action_room.lock();
      if (!room) {
        // Dropped first: the weak pointer would keep a dead room's memory (one block with its
        // count) until the connection acts elsewhere.
        conn->action_room_id.clear();
        conn->action_room.reset();
        room = RouteToRoom(conn, id, room_id, "", &has_code);
        if (!room) return;
        conn->action_room_id = room_id;
        conn->action_room = room;
      }
      room->SubmitAction(conn, player, id, message.action().action(), std::move(ticket));
      return;
    }
    case v1::ClientMessage::kResync:
      if (auto room = RouteToRoom(conn, id, message.resync().room_id(), "", &has_code)) {
        room->Resync(conn, player, id, message.resync().have_version());
      }
      return;
    case v1::ClientMessage::kListReplays:
    case v1::ClientMessage::kGetReplay:
    case v1::ClientMessage::kExportReplay:
      HandleReplays(conn, message);
      return;
    case v1::ClientMessage::kHello:
    case v1::ClientMessage::BODY_NOT_SET:
      break;
  }
  conn->Send(EncodeError(id, engine::codes::kMalformed, "The message has no request this server knows."));
}

std::optional<std::string> Lobby::ValidName(const ConnectionPtr& conn, uint64_t request_id,
                                            const std::string& wanted) {
  std::string name = Trim(wanted);
  const size_t chars = CodePoints(name);
  if (chars < 1 || chars > kMaxNameChars || HasControlChars(name)) {
    conn->Send(EncodeError(request_id, codes::kBadName,
                           "A name has 1 to " + std::to_string(kMaxNameChars) +
                               " characters, without control characters."));
    return std::nullopt;
  }
  return name;
}

void Lobby::HandleRename(const ConnectionPtr& conn, uint64_t request_id, const v1::Rename& rename) {
  const std::optional<std::string> name = ValidName(conn, request_id, rename.name());
  if (!name) return;
  // A new Player: the old one is shared, read by rooms on other threads, and never changes.
  auto renamed = std::make_shared<Player>(*conn->player);
  renamed->name = *name;
  conn->PauseReading();
  storage_.Submit(
      [renamed](Store& store) {
        return store.SavePlayer(renamed->token, StoredPlayer{renamed->player_id, renamed->name});
      },
      [this, conn, request_id, renamed](Status stored) {
        conn->Dispatch([this, conn, request_id, renamed, stored] {
          conn->ResumeReading();
          if (!stored.ok()) {
            spdlog::error("cannot rename player {}: {}", renamed->player_id, stored.ToString());
            conn->Send(EncodeError(request_id, codes::kStorageError,
                                   "The new name could not be saved; try again."));
            return;
          }
          {
            std::lock_guard lock(mu_);
            // The player's next connections say Hello with this token and get the new name.
            players_by_token_[renamed->token] = renamed;
          }
          Welcome(conn, request_id, renamed);
        });
      });
}

void Lobby::HandleHello(const ConnectionPtr& conn, uint64_t request_id, const v1::Hello& hello) {
  if (conn->player) {
    conn->Send(EncodeError(request_id, codes::kAlreadyIdentified,
                           "This connection already said Hello; open a new one to switch."));
    return;
  }
  if (hello.protocol_version() > 1) {
    conn->Send(EncodeError(request_id, codes::kUnsupportedProtocol,
                           "This server speaks protocol version 1."));
    return;
  }
  if (!hello.token().empty()) {
    PlayerPtr player;
    {
      std::lock_guard lock(mu_);
      auto it = players_by_token_.find(hello.token());
      if (it != players_by_token_.end()) player = it->second;
    }
    if (player) {
      Welcome(conn, request_id, player);
      return;
    }
    // Not seen since start-up: ask the store, off this thread. This connection reads nothing
    // more until the answer, so its next request finds it identified.
    conn->PauseReading();
    auto found = std::make_shared<std::optional<StoredPlayer>>();
    storage_.Submit(
        [token = hello.token(), found](Store& store) {
          auto f = store.FindPlayer(token);
          if (!f.ok()) return f.status();
          *found = std::move(f).value();
          return Status::Ok();
        },
        [this, conn, request_id, token = hello.token(), found](Status looked_up) {
          conn->Dispatch([this, conn, request_id, token, found, looked_up] {
            conn->ResumeReading();
            if (!looked_up.ok()) {
              spdlog::error("cannot look up a player: {}", looked_up.ToString());
              conn->Send(EncodeError(request_id, codes::kStorageError,
                                     "Players cannot be looked up now."));
              return;
            }
            if (!found->has_value()) {
              conn->Send(EncodeError(request_id, codes::kUnknownToken,
                                     "This token is unknown here; say Hello with a name instead."));
              return;
            }
            auto p = std::make_shared<Player>();
            p->player_id = (*found)->player_id;
            p->name = (*found)->name;
            p->token = token;
            PlayerPtr player;
            {
              std::lock_guard lock(mu_);
              // Another connection may have resumed the same player meanwhile: keep one Player.
              player = players_by_token_.emplace(token, std::move(p)).first->second;
            }
            Welcome(conn, request_id, player);
          });
        },
        StorageExecutor::Kind::kRead);
    return;
  }
  if (AddressQuota* address = conn->quota.address.get(); address && address->limited) {
    std::lock_guard lock(address->mu);
    if (!address->new_players.Take(LimitClock::now())) {
      RefuseForLimit(conn, request_id, codes::kRateLimited,
                     "Too many new players from your address; come back with your token, or "
                     "wait a minute.");
      return;
    }
  }
  const std::optional<std::string> name = ValidName(conn, request_id, hello.name());
  if (!name) return;
  auto p = std::make_shared<Player>();
  p->player_id = NewPlayerId();
  p->name = *name;
  p->token = NewToken();
  // Welcomed once stored: a token handed out always works after a restart.
  conn->PauseReading();
  PlayerPtr player = p;
  storage_.Submit(
      [player](Store& store) {
        return store.SavePlayer(player->token, StoredPlayer{player->player_id, player->name});
      },
      [this, conn, request_id, player](Status saved) {
        conn->Dispatch([this, conn, request_id, player, saved] {
          conn->ResumeReading();
          if (!saved.ok()) {
            spdlog::error("cannot save a player: {}", saved.ToString());
            conn->Send(EncodeError(request_id, codes::kStorageError, "Players cannot be saved now."));
            return;
          }
          {
            std::lock_guard lock(mu_);
            players_by_token_[player->token] = player;
          }
          Welcome(conn, request_id, player);
        });
      });
}

void Lobby::Welcome(const ConnectionPtr& conn, uint64_t request_id, const PlayerPtr& player) {
  conn->player = player;
  v1::ServerMessage m;
  m.set_request_id(request_id);
  v1::Welcome* welcome = m.mutable_welcome();
  welcome->set_token(player->token);
  welcome->set_player_id(player->player_id);
  welcome->set_name(player->name);
  {
    std::lock_guard lock(mu_);
    auto it = memberships_.find(player->player_id);
    if (it != memberships_.end()) {
      for (const auto& room_id : it->second) welcome->add_room_ids(room_id);
    }
  }
  conn->Send(Encode(m));
}

SharedBuffer Lobby::EncodedGameList() {
  std::lock_guard lock(game_list_mu_);
  if (game_list_) return game_list_;
  v1::ServerMessage m;
  const auto games = engine::Registry::All();
  for (const engine::Game* game : games) {
    v1::GameInfo* info = m.mutable_game_list()->add_games();
    info->set_id(game->Info().id);
    info->set_title(game->Info().title);
    info->set_min_seats(static_cast<uint32_t>(game->Info().min_seats));
    info->set_max_seats(static_cast<uint32_t>(game->Info().max_seats));
    info->set_options_type(game->OptionsPrototype().GetDescriptor()->full_name());
    info->set_action_type(game->ActionPrototype().GetDescriptor()->full_name());
    info->set_view_type(game->ViewPrototype().GetDescriptor()->full_name());
    *info->mutable_texts() = game->Texts();
    for (const auto& set : game->OptionSets()) *info->add_option_sets() = set;
    // A game that names no timers gets generous ones.
    static const std::vector<engine::TimerPreset> kDefaultPresets = {{"Casual", 90, 0, 0},
                                                                      {"Clocked", 0, 600, 15}};
    const auto& presets =
        game->Info().timer_presets.empty() ? kDefaultPresets : game->Info().timer_presets;
    for (const engine::TimerPreset& p : presets) {
      v1::TimerPreset* preset = info->add_timer_presets();
      preset->set_name(p.name);
      v1::TurnTimer* timer = preset->mutable_timer();
      timer->set_mode(p.per_move_seconds > 0 ? v1::TIMER_PER_MOVE : v1::TIMER_CLOCK);
      timer->set_per_move_seconds(static_cast<uint32_t>(p.per_move_seconds));
      timer->set_bank_seconds(static_cast<uint32_t>(p.bank_seconds));
      timer->set_increment_seconds(static_cast<uint32_t>(p.increment_seconds));
      timer->set_timeouts_to_abandon(3);
    }
    if (const auto* data = game->StaticData()) {
      info->set_static_type(data->GetDescriptor()->full_name());
      data->SerializeToString(info->mutable_static_data());
    }
  }
  m.mutable_game_list();  // present even when empty
  SharedBuffer encoded = Encode(m);
  if (!games.empty()) game_list_ = encoded;  // kept once the games are loaded
  return encoded;
}

void Lobby::HandleListGames(const ConnectionPtr& conn, uint64_t request_id) {
  // Protobuf merges concatenated encodings: the shared list, then this request's id, written as
  // two buffers of one message, as an action's answer rides on a shared Diff.
  v1::ServerMessage id;
  id.set_request_id(request_id);
  conn->Send(EncodedGameList(), Encode(id));
}

bool Lobby::AdmitRequest(const ConnectionPtr& conn, uint64_t request_id) {
  const auto now = LimitClock::now();
  ConnectionQuota& quota = conn->quota;
  bool ok = quota.requests.Take(now);
  if (ok && quota.address && quota.address->limited) {
    std::lock_guard lock(quota.address->mu);
    ok = quota.address->requests.Take(now);
  }
  if (ok) return true;
  if (now - quota.window_start > ClientLimits::kAbuseWindow) {
    quota.window_start = now;
    quota.refusals = 0;
  }
  if (limits_.refusals_before_disconnect > 0 &&
      ++quota.refusals >= limits_.refusals_before_disconnect) {
    if (quota.refusals > limits_.refusals_before_disconnect) return false;  // already cut
    ClientLog(spdlog::level::warn, "closing connection from {}: {} requests refused for rate in {} s",
              conn->remote_address, quota.refusals, ClientLimits::kAbuseWindow.count());
    if (metrics_) metrics_->connections_dropped.Inc("request_flood");
    conn->Close(/*graceful=*/false);
    return false;
  }
  RefuseForLimit(conn, request_id, codes::kRateLimited,
                 "Too many requests: at most " +
                     std::to_string(static_cast<int>(limits_.requests_per_second)) +
                     " a second per connection. Slow down.");
  return false;
}

void Lobby::RefuseForLimit(const ConnectionPtr& conn, uint64_t request_id, const char* code,
                           const std::string& reason) {
  if (metrics_) metrics_->limits_hit.Inc(code);
  conn->Send(EncodeError(request_id, code, reason));
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
    if (fresh) quota->second.rooms_created = TokenBucket(limits_.rooms_per_hour / 3600.0, 20);
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
    room = std::make_shared<Room>(executor_, settings, storage_, *this);
    rooms_[settings.room_id] = room;
    room_by_code_[settings.join_code] = settings.room_id;
    room_creator_[settings.room_id] = creator;
  }
  spdlog::info("room {} created by {} ({}, {} seats{})", settings.room_id,
               conn->player->player_id, info.id, seats, settings.is_private ? ", private" : "");
  room->Create(conn, conn->player, request_id);
}

void Lobby::HandleReplays(const ConnectionPtr& conn, const v1::ClientMessage& message) {
  const uint64_t id = message.request_id();
  if (replays_ == nullptr) {
    conn->Send(EncodeError(id, codes::kReplaysUnavailable, "Replays are not available on this server."));
    return;
  }
  // Loading and re-simulating read the store: on the storage thread, one request per
  // connection at a time.
  conn->PauseReading();
  auto reply = std::make_shared<v1::ServerMessage>();
  reply->set_request_id(id);
  // Who asks decides which private games exist for this request.
  storage_.Submit(
      [replays = replays_, message, reply, viewer = conn->player->player_id](Store&) {
        if (message.has_list_replays()) {
          auto r = replays->List(message.list_replays(), viewer);
          if (!r.ok()) return r.status();
          *reply->mutable_replay_list() = std::move(r).value();
        } else if (message.has_get_replay()) {
          auto r = replays->Get(message.get_replay(), viewer);
          if (!r.ok()) return r.status();
          *reply->mutable_replay() = std::move(r).value();
        } else {
          auto r = replays->Export(message.export_replay(), viewer);
          if (!r.ok()) return r.status();
          *reply->mutable_replay_export() = std::move(r).value();
        }
        return Status::Ok();
      },
      [conn, id, reply](Status status) {
        conn->Send(status.ok() ? Encode(*reply) : EncodeError(id, status.code(), status.reason()));
        conn->ResumeReading();
      },
      StorageExecutor::Kind::kRead);
}

std::shared_ptr<Room> Lobby::RouteToRoom(const ConnectionPtr& conn, uint64_t request_id,
                                         const std::string& room_id, const std::string& join_code,
                                         bool* has_code) {
  *has_code = false;
  std::shared_ptr<Room> room;
  if (!room_id.empty() && conn->player) {
    // A member going back to its room (another tab, a reconnection) needs no code.
    std::lock_guard lock(mu_);
    auto rooms = memberships_.find(conn->player->player_id);
    if (rooms != memberships_.end() && rooms->second.count(room_id) != 0) {
      auto it = rooms_.find(room_id);
      if (it != rooms_.end()) return it->second;
    }
  }
  const auto now = LimitClock::now();
  ConnectionQuota& quota = conn->quota;
  if (!join_code.empty()) {
    // Every code costs a token, taken before the lookup (so connections racing on the same
    // address cannot all spend its last one) and given back when the code was right. Locked
    // out, every code is refused, right or wrong, so guessing learns nothing.
    double wait = 0;
    const bool took_own = quota.wrong_codes.Take(now);
    if (!took_own) wait = quota.wrong_codes.SecondsUntilToken(now);
    bool took_address = false;
    if (quota.address && took_own) {
      std::lock_guard lock(quota.address->mu);
      took_address = quota.address->wrong_codes.Take(now);
      if (!took_address) wait = quota.address->wrong_codes.SecondsUntilToken(now);
    }
    if (!took_own || (quota.address && !took_address)) {
      if (took_own) quota.wrong_codes.Return();
      RefuseForLimit(conn, request_id, codes::kCodeLockout,
                     "Too many wrong room codes; try again in " +
                         std::to_string(static_cast<int>(wait) + 1) + " s.");
      return nullptr;
    }
  }
  bool wrong_code = false;
  {
    std::lock_guard lock(mu_);
    std::string id = room_id;
    if (!join_code.empty()) {
      auto code = room_by_code_.find(ToUpper(join_code));
      // A code naming another room than the id given is as good as a wrong code.
      if (code != room_by_code_.end() && (id.empty() || id == code->second)) {
        id = code->second;
        *has_code = true;
      } else {
        id.clear();
        wrong_code = true;
      }
    }
    auto it = rooms_.find(id);
    if (it != rooms_.end()) room = it->second;
  }
  if (!join_code.empty() && !wrong_code) {
    quota.wrong_codes.Return();
    if (quota.address) {
      std::lock_guard lock(quota.address->mu);
      quota.address->wrong_codes.Return();
    }
  }
  if (!room) {
    conn->Send(EncodeError(request_id, codes::kRoomNotFound, "There is no such room."));
  }
  return room;
}

}  // namespace plateau::server
