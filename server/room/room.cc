#include "server/room/room.h"

#include <spdlog/spdlog.h>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <algorithm>
#include <cctype>
#include <chrono>
#include <limits>
#include <optional>

#include "engine/core/bot.h"
#include "engine/core/registry.h"
#include "server/lobby/ids.h"
#include "server/error_codes.h"

namespace plateau::server {
namespace {

namespace v1 = plateau::v1;

int64_t NowUnixMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Characters as people count them: UTF-8 code points (protobuf already rejected invalid UTF-8).
size_t CodePoints(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80 ? 1 : 0;
  return n;
}

// A bot's seat is stored like a person's, under an id no player can have ("bot:<level>:<n>"), so
// a restored game knows its bots and how they play.
constexpr std::string_view kBotPrefix = "bot:";

int BotLevelOfId(std::string_view player_id) {
  if (player_id.substr(0, kBotPrefix.size()) != kBotPrefix) return 0;
  const std::string_view rest = player_id.substr(kBotPrefix.size());
  const std::string_view level = rest.substr(0, rest.find(':'));
  if (level == engine::BotLevelName(engine::BotLevel::kEasy)) return v1::BOT_EASY;
  if (level == engine::BotLevelName(engine::BotLevel::kNormal)) return v1::BOT_NORMAL;
  return v1::BOT_EASY;  // a level this build no longer has plays as the easiest
}

std::optional<engine::BotLevel> EngineLevel(int level) {
  switch (level) {
    case v1::BOT_EASY:
      return engine::BotLevel::kEasy;
    case v1::BOT_NORMAL:
      return engine::BotLevel::kNormal;
    default:
      return std::nullopt;
  }
}

std::string Trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(first, last - first + 1));
}

}  // namespace

Room::Room(boost::asio::any_io_executor executor, RoomSettings settings, StorageExecutor& storage,
           RoomHost& host)
    : strand_(boost::asio::make_strand(executor)),
      empty_timer_(strand_),
      clock_timer_(strand_),
      abandon_timer_(strand_),
      settings_(std::move(settings)),
      storage_(storage),
      host_(host) {
  seats_.resize(static_cast<size_t>(settings_.seats));
}

engine::StatusOr<std::shared_ptr<Room>> Room::Restore(boost::asio::any_io_executor executor,
                                                      const Store::Unfinished& saved,
                                                      StorageExecutor& storage, RoomHost& host,
                                                      std::chrono::milliseconds empty_grace,
                                                      std::chrono::milliseconds offline_grace,
                                                      std::chrono::milliseconds abandoned_after) {
  const v1::GameRecord& record = saved.record;
  const engine::Game* game = engine::Registry::Find(record.game());
  if (game == nullptr) {
    return engine::Status(engine::codes::kUnknownGame,
                          "Game " + record.game_id() + " uses unknown game '" + record.game() + "'.");
  }
  const int num_seats = static_cast<int>(saved.room.seat_player_ids.size());
  if (num_seats != record.seat_names_size()) {
    return engine::Status(codes::kBadRecord, "Game " + record.game_id() +
                                            " has a different number of seats and seat names.");
  }
  std::vector<engine::LoggedAction> log;
  log.reserve(record.actions_size());
  for (const auto& a : record.actions()) log.push_back({a.seat(), a.action()});
  v1::TurnTimer timer;
  if (!timer.ParseFromString(saved.room.timer) || !TurnClocks::Invalid(timer).empty()) {
    spdlog::error("room {}: unreadable turn timer; the game goes on without one",
                  saved.room.room_id);
    timer.Clear();
  }
  // The clocks follow from the stored times and origins of the moves, replayed with the game.
  TurnClocks clocks(timer, num_seats);
  if (clocks.enabled()) {
    auto first = game->NewGame(num_seats, record.options(), record.seed());
    if (!first.ok()) return first.status();
    clocks.Start(record.started_unix_ms(), first.value()->ActingSeats());
  }
  // Earlier restarts moved running deadlines at their time, between the actions around them.
  size_t next_resume = 0;
  auto resume_until = [&](int64_t t) {
    for (; next_resume < saved.room.resumes.size() &&
           saved.room.resumes[next_resume].at_unix_ms <= t;
         ++next_resume) {
      clocks.Resume(saved.room.resumes[next_resume].at_unix_ms,
                    saved.room.resumes[next_resume].grace_ms);
    }
  };
  auto replayed = [&](size_t i, const engine::State& state) {
    if (!clocks.enabled()) return;
    const v1::ReplayAction& a = record.actions(static_cast<int>(i));
    resume_until(a.at_unix_ms());
    const bool person = a.seat() >= 0 && a.seat() < num_seats &&
                        BotLevelOfId(saved.room.seat_player_ids[static_cast<size_t>(a.seat())]) == 0;
    CountMove(clocks, a, person, state);
  };
  auto session = GameSession::Restore(*game, saved.room.room_id, num_seats, record.options(),
                                      record.seed(), log, replayed);
  if (!session.ok()) return session.status();
  resume_until(std::numeric_limits<int64_t>::max());
  // Nobody could move while the server was down: each running clock gets time to come back.
  const int64_t resumed_at = NowUnixMs();
  clocks.Resume(resumed_at, offline_grace.count());

  RoomSettings settings;
  settings.room_id = saved.room.room_id;
  settings.empty_grace = empty_grace;
  settings.offline_grace = offline_grace;
  settings.abandoned_after = abandoned_after;
  settings.timer = timer;
  settings.join_code = saved.room.join_code;
  settings.is_private = saved.room.is_private;
  settings.title = saved.room.title;
  settings.game = game;
  settings.options = record.options();
  settings.seats = num_seats;
  auto room = std::make_shared<Room>(executor, std::move(settings), storage, host);
  room->host_player_id_ = saved.room.host_player_id;
  for (int i = 0; i < num_seats; ++i) {
    const std::string& pid = saved.room.seat_player_ids[static_cast<size_t>(i)];
    const int bot = BotLevelOfId(pid);
    const size_t k = static_cast<size_t>(i);
    const int stand_in = k < saved.room.seat_stand_ins.size() ? saved.room.seat_stand_ins[k] : 0;
    room->seats_[k] = {pid, record.seat_names(i), true, bot, bot == 0 ? stand_in : 0};
    if (bot == 0) {
      room->members_[pid] = Member{record.seat_names(i), i, {}};
      room->members_[pid].offline_since = std::chrono::steady_clock::now();
      // One who had left still has: shown so, and replaceable at once as before the restart.
      room->members_[pid].left = k < saved.room.seat_left.size() && saved.room.seat_left[k];
    }
  }
  // A seat taken back from its stand-in has no bot and starts afresh; its take-back is not in the
  // log, so its run of timeouts is cleared here as it was when it happened.
  for (int i = 0; i < num_seats; ++i) {
    const SeatState& s = room->seats_[static_cast<size_t>(i)];
    if (s.bot == 0 && s.stand_in == 0 && clocks.Abandoned(i)) clocks.ClearTimeouts(i);
  }
  room->clocks_ = std::move(clocks);
  if (room->clocks_.enabled()) room->resumed_at_ = resumed_at;
  room->bot_thinking_.assign(static_cast<size_t>(num_seats), 0);
  room->UpdateHasBots();
  room->bot_seed_ = RandomSeed();
  room->game_id_ = record.game_id();
  room->replay_token_ = saved.room.replay_token;
  room->session_ = std::move(session).value();
  room->UpdateWatched();
  room->phase_ = Phase::kPlaying;
  // Its last move was stored but not its result (the server stopped in between): finished when
  // announced, its result stored then.
  room->finish_on_announce_ = room->session_->over();
  return room;
}

// ---------------------------------------------------------------------------------------------
// Public entry points: hop onto the strand.

void Room::Create(ConnectionPtr conn, PlayerPtr player, uint64_t request_id) {
  boost::asio::post(strand_, [self = shared_from_this(), conn, player, request_id] {
    self->seats_[0] = {player->player_id, player->name, false};
    self->host_player_id_ = player->player_id;
    self->members_[player->player_id] = Member{player->name, 0, {conn}};
    self->host_.SetMembership(player->player_id, self->settings_.room_id, true);
    // Listed before the creator hears of it: a list asked for after the answer shows the room.
    self->Publish();
    self->SendInfo(conn, player->player_id, request_id);
  });
}

void Room::Announce() {
  Run([self = shared_from_this()] {
    for (const auto& [pid, member] : self->members_) {
      // One who left is not brought back by his next connection (see DoLeave).
      if (!member.left) self->host_.SetMembership(pid, self->settings_.room_id, true);
    }
    self->Publish();
    if (self->resumed_at_ != 0 && !self->finish_on_announce_) {
      // Kept for the next restart's replay (see Restore); a failure costs only that replay's
      // precision, so nothing waits on it.
      self->storage_.Submit(
          [game_id = self->game_id_, at = self->resumed_at_,
           grace = self->settings_.offline_grace.count()](Store& store) {
            return store.RecordResume(game_id, at, grace);
          },
          [room_id = self->settings_.room_id](Status stored) {
            if (!stored.ok()) {
              spdlog::warn("room {}: cannot store its resume: {}", room_id, stored.ToString());
            }
          });
      self->resumed_at_ = 0;
    }
    if (!self->finish_on_announce_) {
      self->WakeBots();
      self->ArmClock();
      self->ExpireWhenAbandoned();  // nobody is connected yet after a restart
      return;
    }
    self->finish_on_announce_ = false;
    std::vector<v1::SeatResult> results = self->session_->Results();
    for (v1::SeatResult& r : results) r.set_name(self->seats_[r.seat()].name);
    self->SetBusy(true);
    self->storage_.Submit(
        [game_id = self->game_id_, results](Store& store) {
          return store.FinishGame(game_id, results, NowUnixMs());
        },
        [self](Status stored) {
          boost::asio::post(self->strand_, [self, stored] {
            if (!stored.ok()) {
              spdlog::error("room {}: cannot store the results of {}: {}",
                            self->settings_.room_id, self->game_id_, stored.ToString());
            }
            self->results_stored_ = stored.ok();
            self->FinishGame();
            self->RemoveWhenAbandoned();  // nobody is connected yet after a restart
            self->Resume();
          });
        });
  });
}

void Room::Join(ConnectionPtr conn, PlayerPtr player, uint64_t request_id, bool has_code) {
  Run([self = shared_from_this(), conn, player, request_id, has_code] {
    self->DoJoin(conn, player, request_id, has_code);
  });
}

void Room::Spectate(ConnectionPtr conn, PlayerPtr player, uint64_t request_id, bool has_code) {
  Run([self = shared_from_this(), conn, player, request_id, has_code] {
    self->DoSpectate(conn, player, request_id, has_code);
  });
}

void Room::Peek(ConnectionPtr conn, PlayerPtr player, uint64_t request_id, bool has_code) {
  Run([self = shared_from_this(), conn, player, request_id, has_code] {
    if (self->removed_) {
      conn->Send(EncodeError(request_id, codes::kRoomNotFound, "This room no longer exists."));
      return;
    }
    const bool member = self->members_.count(player->player_id) > 0;
    if (self->settings_.is_private && !has_code && !member) {
      conn->Send(EncodeError(request_id, codes::kCodeRequired,
                             "This room is private: open it with its code or link."));
      return;
    }
    self->SendInfo(conn, player->player_id, request_id);
  });
}

void Room::Leave(ConnectionPtr conn, PlayerPtr player, uint64_t request_id, int mode) {
  Run([self = shared_from_this(), conn, player, request_id, mode] {
    self->DoLeave(conn, player, request_id, mode);
  });
}

void Room::ReplaceSeat(ConnectionPtr conn, PlayerPtr player, uint64_t request_id, uint32_t seat,
                       int kind) {
  Run([self = shared_from_this(), conn, player, request_id, seat, kind] {
    self->DoReplaceSeat(conn, player, request_id, seat, kind);
  });
}

void Room::TakeBackSeat(ConnectionPtr conn, PlayerPtr player, uint64_t request_id) {
  Run([self = shared_from_this(), conn, player, request_id] {
    self->DoTakeBackSeat(conn, player, request_id);
  });
}

void Room::SetReady(ConnectionPtr conn, PlayerPtr player, uint64_t request_id, bool ready) {
  Run([self = shared_from_this(), conn, player, request_id, ready] {
    if (self->removed_) {
      conn->Send(EncodeError(request_id, codes::kRoomNotFound, "This room no longer exists."));
      return;
    }
    auto it = self->members_.find(player->player_id);
    if (it == self->members_.end() || it->second.seat < 0) {
      conn->Send(EncodeError(request_id, codes::kNotSeated, "Only seated players can be ready."));
      return;
    }
    if (self->phase_ != Phase::kWaiting) {
      conn->Send(EncodeError(request_id, codes::kGameStarted, "The game has already started."));
      return;
    }
    self->seats_[static_cast<size_t>(it->second.seat)].ready = ready;
    self->Publish();
    conn->Send(EncodeOk(request_id));
    self->PushInfoToAll();
  });
}

void Room::AddBot(ConnectionPtr conn, PlayerPtr player, uint64_t request_id, uint32_t seat,
                  int level) {
  Run([self = shared_from_this(), conn, player, request_id, seat, level] {
    self->DoAddBot(conn, player, request_id, seat, level);
  });
}

void Room::RemoveBot(ConnectionPtr conn, PlayerPtr player, uint64_t request_id, uint32_t seat) {
  Run([self = shared_from_this(), conn, player, request_id, seat] {
    self->DoRemoveBot(conn, player, request_id, seat);
  });
}

void Room::Rematch(ConnectionPtr conn, PlayerPtr player, uint64_t request_id, bool accept) {
  Run([self = shared_from_this(), conn, player, request_id, accept] {
    self->DoRematch(conn, player, request_id, accept);
  });
}

void Room::Start(ConnectionPtr conn, PlayerPtr player, uint64_t request_id) {
  Run([self = shared_from_this(), conn, player, request_id] {
    self->DoStart(conn, player, request_id);
  });
}

void Room::Chat(ConnectionPtr conn, PlayerPtr player, uint64_t request_id, std::string text) {
  Run([self = shared_from_this(), conn, player, request_id,
                              text = std::move(text)] {
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

void Room::SubmitAction(ConnectionPtr conn, PlayerPtr player, uint64_t request_id,
                        std::string action, std::shared_ptr<void> ticket) {
  const auto arrived = std::chrono::steady_clock::now();
  // Called on the connection's strand, never on the room's.
  RunFromOutside([self = shared_from_this(), conn, player, request_id, action = std::move(action),
                  arrived, ticket = std::move(ticket)]() mutable {
    self->DoSubmit(conn, player, request_id, action, arrived, std::move(ticket));
  });
}

void Room::Resync(ConnectionPtr conn, PlayerPtr player, uint64_t request_id,
                  uint64_t have_version) {
  Run([self = shared_from_this(), conn, player, request_id, have_version] {
    self->DoResync(conn, player, request_id, have_version);
  });
}

void Room::Detach(PlayerPtr player, ConnectionPtr conn) {
  Run([self = shared_from_this(), player, conn] {
    self->DoDetach(player, conn);
  });
}

void Room::Run(std::function<void()> fn) {
  boost::asio::post(strand_, [self = shared_from_this(), fn = std::move(fn)]() mutable {
    self->RunOrDefer(std::move(fn));
  });
}

void Room::RunFromOutside(std::function<void()> fn) {
  boost::asio::dispatch(strand_, [self = shared_from_this(), fn = std::move(fn)]() mutable {
    self->RunOrDefer(std::move(fn));
  });
}

void Room::RunOrDefer(std::function<void()> fn) {
  if (busy_) {
    deferred_.push_back(std::move(fn));
    return;
  }
  fn();
}

void Room::Resume() {
  SetBusy(false);
  while (!busy_ && !deferred_.empty()) {
    std::function<void()> fn = std::move(deferred_.front());
    deferred_.pop_front();
    fn();
  }
}

void Room::SetBusy(bool busy) {
  if (busy_ == busy) return;
  busy_ = busy;
  host_.RoomWaiting(busy);
}

void Room::DetachAll() {
  boost::asio::post(strand_, [self = shared_from_this()] {
    for (auto& [pid, member] : self->members_) member.conns.clear();
    self->clock_timer_.cancel();  // nothing plays for anyone while the server stops
    self->abandon_timer_.cancel();
  });
}

void Room::Inspect(std::function<void(const engine::State*, uint64_t)> fn) {
  boost::asio::post(strand_, [self = shared_from_this(), fn = std::move(fn)] {
    if (self->session_) {
      fn(&self->session_->state(), self->session_->version());
    } else {
      fn(nullptr, 0);
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Membership

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
  if (settings_.is_private && !has_code && it == members_.end()) {
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
                      bool has_code) {
  const std::string& pid = player->player_id;
  if (removed_) {
    conn->Send(EncodeError(request_id, codes::kRoomNotFound, "This room no longer exists."));
    return;
  }
  auto it = members_.find(pid);
  if (it == members_.end()) {
    if (settings_.is_private && !has_code) {
      conn->Send(EncodeError(request_id, codes::kCodeRequired,
                             "This room is private: watch it with its code or link."));
      return;
    }
    members_[pid] = Member{UniqueName(player->name, pid), -1, {conn}};
    host_.SetMembership(pid, settings_.room_id, true);
    UpdateWatched();
  } else {
    // A member already (perhaps seated): it keeps its place and receives again.
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

bool Room::Member::online() const {
  for (const auto& weak : conns) {
    if (!weak.expired()) return true;
  }
  return false;
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

// A room waiting for players, or a finished one, is gone once no member is connected: nothing can
// happen in it any more that anybody would see. A game in progress stays (it is also stored and
// comes back after a restart) so its players can return.
void Room::MaybeRemove() {
  if (removed_ || phase_ == Phase::kPlaying || AnyOnline(false)) return;
  removed_ = true;
  host_.PublishListing(settings_.room_id, nullptr);
  for (const auto& [pid, member] : members_) {
    host_.SetMembership(pid, settings_.room_id, false);
  }
  members_.clear();
  host_.RemoveRoom(settings_.room_id);
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

// ---------------------------------------------------------------------------------------------
// Play

void Room::DoStart(const ConnectionPtr& conn, const PlayerPtr& player, uint64_t request_id) {
  const std::string& pid = player->player_id;
  if (removed_) {
    conn->Send(EncodeError(request_id, codes::kRoomNotFound, "This room no longer exists."));
    return;
  }
  if (phase_ != Phase::kWaiting) {
    conn->Send(EncodeError(request_id, codes::kGameStarted, "The game has already started."));
    return;
  }
  if (pid != host_player_id_) {
    conn->Send(EncodeError(request_id, codes::kNotHost, "Only the host can start the game."));
    return;
  }
  std::vector<SeatState> seated;
  for (const auto& s : seats_) {
    if (!s.player_id.empty()) seated.push_back(s);
  }
  const engine::Game& game = *settings_.game;
  const int n = static_cast<int>(seated.size());
  if (n < game.Info().min_seats) {
    conn->Send(EncodeError(request_id, codes::kNotEnoughPlayers,
                           game.Info().title + " needs at least " +
                               std::to_string(game.Info().min_seats) + " players."));
    return;
  }
  for (const auto& s : seated) {
    if (s.player_id != host_player_id_ && !s.ready) {
      conn->Send(EncodeError(request_id, codes::kNotReady, s.name + " is not ready yet."));
      return;
    }
  }
  BeginGame(conn, request_id, std::move(seated));
}

void Room::BeginGame(const ConnectionPtr& conn, uint64_t request_id,
                     std::vector<SeatState> seated) {
  const engine::Game& game = *settings_.game;
  const int n = static_cast<int>(seated.size());
  const uint64_t seed = RandomSeed();
  auto session = GameSession::Start(game, settings_.room_id, n, settings_.options, seed);
  if (!session.ok()) {
    rematch_.clear();
    conn->Send(EncodeError(request_id, session.status().code(), session.status().reason()));
    return;
  }
  const std::string game_id = NewGameId();
  v1::GameRecord record;
  record.set_game_id(game_id);
  record.set_game(game.Info().id);
  record.set_options(settings_.options);
  record.set_seed(seed);
  const int64_t started_ms = NowUnixMs();
  record.set_started_unix_ms(started_ms);
  RoomRecord room_record;
  room_record.room_id = settings_.room_id;
  room_record.join_code = settings_.join_code;
  room_record.is_private = settings_.is_private;
  room_record.title = settings_.title;
  room_record.host_player_id = host_player_id_;
  // Made now, stored with the game, so a restart finishing it sends the same link.
  if (settings_.is_private) room_record.replay_token = NewReplayToken();
  if (settings_.timer.mode() != v1::TIMER_NONE) room_record.timer = settings_.timer.SerializeAsString();
  const std::string replay_token = room_record.replay_token;
  for (const auto& s : seated) {
    record.add_seat_names(s.name);
    room_record.seat_player_ids.push_back(s.player_id);
  }
  // Nothing else happens in the room until the game is stored (see Run): the seats read above
  // are still the seats when it starts.
  SetBusy(true);
  auto started = std::make_shared<std::unique_ptr<GameSession>>(std::move(session).value());
  storage_.Submit(
      [record = std::move(record), room_record = std::move(room_record)](Store& store) {
        return store.BeginGame(record, room_record);
      },
      [self = shared_from_this(), conn, request_id, seated, game_id, replay_token, started,
       started_ms](Status stored) {
        boost::asio::post(self->strand_, [=] {
          self->OnGameStored(stored, conn, request_id, seated, game_id, replay_token,
                             std::move(*started), started_ms);
          self->Resume();
        });
      });
}

void Room::DoRematch(const ConnectionPtr& conn, const PlayerPtr& player, uint64_t request_id,
                     bool accept) {
  if (removed_) {
    conn->Send(EncodeError(request_id, codes::kRoomNotFound, "This room no longer exists."));
    return;
  }
  if (phase_ != Phase::kFinished) {
    conn->Send(EncodeError(request_id, codes::kGameNotOver, "A rematch is offered once the game is over."));
    return;
  }
  auto it = members_.find(player->player_id);
  if (it == members_.end() || it->second.seat < 0) {
    conn->Send(EncodeError(request_id, codes::kNotSeated, "Only the game's players can ask for a rematch."));
    return;
  }
  if (!accept) {
    rematch_.clear();  // withdrawn or declined: the offer ends for everyone
    conn->Send(EncodeOk(request_id));
    PushInfoToAll();
    return;
  }
  if (!results_stored_) {
    conn->Send(EncodeError(request_id, codes::kStorageError,
                           "This game's result could not be saved, so this room cannot start a "
                           "rematch; open a new table."));
    return;
  }
  // Everyone asked: a player who has left the room (or left the game with the Leave button and
  // not come back) can no longer say yes, and the offer would wait for them forever.
  for (const SeatState& s : seats_) {
    const auto member = members_.find(s.player_id);
    if (s.bot == 0 && (member == members_.end() || member->second.left)) {
      conn->Send(EncodeError(request_id, codes::kPlayerLeft, s.name + " has left the table."));
      return;
    }
  }
  if (rematch_.empty()) {
    rematch_.assign(seats_.size(), false);
    for (size_t i = 0; i < seats_.size(); ++i) rematch_[i] = seats_[i].bot != 0;
  }
  rematch_[static_cast<size_t>(it->second.seat)] = true;
  if (std::find(rematch_.begin(), rematch_.end(), false) != rematch_.end()) {
    conn->Send(EncodeOk(request_id));
    PushInfoToAll();
    return;
  }
  spdlog::info("room {}: rematch of game {}", settings_.room_id, game_id_);
  BeginGame(conn, request_id, seats_);
  host_.RoomReopened(settings_.room_id, host_player_id_);
}

void Room::OnGameStored(const Status& stored, const ConnectionPtr& conn, uint64_t request_id,
                        const std::vector<SeatState>& seated, const std::string& game_id,
                        const std::string& replay_token, std::unique_ptr<GameSession> session,
                        int64_t started_ms) {
  if (!stored.ok()) {
    if (!rematch_.empty()) {
      rematch_.clear();  // a rematch that could not start is asked for again
      PushInfoToAll();
    }
    spdlog::error("room {}: cannot store the new game: {}", settings_.room_id, stored.ToString());
    conn->Send(EncodeError(request_id, codes::kStorageError, "The game could not be saved; try again."));
    return;
  }
  const int n = static_cast<int>(seated.size());
  // Stored: the game uses the seated players in seat order, re-packed to 0..n-1.
  seats_ = seated;
  for (int i = 0; i < n; ++i) {
    const SeatState& s = seats_[static_cast<size_t>(i)];
    if (s.bot == 0) members_[s.player_id].seat = i;
  }
  bot_thinking_.assign(static_cast<size_t>(n), 0);
  for (SeatState& s : seats_) s.stand_in = 0;  // a rematch starts with everyone at the table
  UpdateHasBots();
  for (auto& [pid, member] : members_) {
    member.left = false;
    member.offline_since = std::chrono::steady_clock::now();
  }
  bot_seed_ = RandomSeed();
  ++game_serial_;
  game_id_ = game_id;
  replay_token_ = replay_token;
  session_ = std::move(session);
  rematch_.clear();
  results_stored_ = true;
  game_over_frame_ = {};
  UpdateWatched();
  phase_ = Phase::kPlaying;
  clocks_ = TurnClocks(settings_.timer, n);
  // From the start time stored with the game, as a restart's replay will.
  clocks_.Start(started_ms, session_->state().ActingSeats());
  spdlog::info("room {}: game {} started with {} players", settings_.room_id, game_id_, n);

  conn->Send(EncodeOk(request_id));
  PushInfoToAll();
  std::vector<SharedBuffer> snapshots;
  for (size_t k = 0; k < session_->num_views(); ++k) {
    snapshots.push_back(session_->SnapshotFor(k));
  }
  for (const auto& [member_id, member] : members_) {
    member.Send(snapshots[ViewIndex(member)]);
  }
  Publish();
  WakeBots();
  ArmClock();
}

void Room::RefuseAction(const ConnectionPtr& conn, uint64_t request_id, const std::string& code,
                        const std::string& reason) {
  if (Metrics* m = host_.metrics()) m->actions_refused.Inc(code);
  conn->Send(EncodeError(request_id, code, reason));
}

void Room::DoSubmit(const ConnectionPtr& conn, const PlayerPtr& player, uint64_t request_id,
                    const std::string& action_bytes,
                    std::chrono::steady_clock::time_point arrived, std::shared_ptr<void> ticket) {
  if (removed_) {
    RefuseAction(conn, request_id, codes::kRoomNotFound, "This room no longer exists.");
    return;
  }
  if (phase_ != Phase::kPlaying) {
    RefuseAction(conn, request_id, codes::kGameNotRunning, "No game is running in this room.");
    return;
  }
  auto it = members_.find(player->player_id);
  if (it == members_.end() || it->second.seat < 0) {
    RefuseAction(conn, request_id, codes::kNotSeated, "Only seated players can act.");
    return;
  }
  const int seat = it->second.seat;
  auto submitted = session_->Submit(seat, action_bytes);
  if (!submitted.ok()) {
    RefuseAction(conn, request_id, submitted.status().code(), submitted.status().reason());
    return;
  }
  // The player's own move (origin ORIGIN_PLAYER, the default), even with a bot standing in.
  StoreAction(conn, request_id, std::move(submitted).value(), arrived, std::move(ticket));
}

void Room::StoreAction(const ConnectionPtr& conn, uint64_t request_id,
                       GameSession::Applied applied_now,
                       std::chrono::steady_clock::time_point arrived,
                       std::shared_ptr<void> ticket) {
  auto applied = std::make_shared<GameSession::Applied>(std::move(applied_now));
  applied->logged.set_at_unix_ms(NowUnixMs());
  // Applied in memory, sent to nobody: the room waits (see Run) until the store says the action
  // is durable, then sends; if it cannot be stored, the action is taken back. A game's last
  // action and its result are stored together.
  std::optional<std::vector<v1::SeatResult>> results;
  if (applied->game_over) {
    results = session_->Results();
    for (v1::SeatResult& r : *results) r.set_name(seats_[r.seat()].name);
  }
  SetBusy(true);
  // Written on the storage thread before `done` runs there, read on the strand after the post;
  // only a game's last action needs it.
  auto results_ok = results ? std::make_shared<bool>(true) : nullptr;
  storage_.Submit(
      [game_id = game_id_, applied, results, results_ok](Store& store) {
        Status st = store.AppendAction(game_id, applied->action_index, applied->logged);
        if (!st.ok() || !results) return st;
        if (Status done = store.FinishGame(game_id, *results, NowUnixMs()); !done.ok()) {
          // The action is stored: a restart replays the game to its end and stores the results
          // then, so the game is not lost.
          spdlog::error("game {}: cannot store the results: {}", game_id, done.ToString());
          *results_ok = false;
        }
        return Status::Ok();
      },
      [self = shared_from_this(), conn, request_id, applied, arrived, ticket,
       results_ok](Status stored) {
        // The ticket lives until the answer is queued on the connection.
        boost::asio::post(self->strand_, [=]() mutable {
          if (applied->game_over) self->results_stored_ = stored.ok() && *results_ok;
          self->OnActionStored(stored, conn, request_id, *applied, arrived);
          ticket.reset();
          self->Resume();
        });
      });
}

void Room::OnActionStored(const Status& stored, const ConnectionPtr& conn, uint64_t request_id,
                          const GameSession::Applied& applied,
                          std::chrono::steady_clock::time_point arrived) {
  if (!stored.ok()) {
    spdlog::error("room {}: cannot store action {}: {}", settings_.room_id, applied.action_index,
                  stored.ToString());
    session_->Undo();
    if (conn) {
      RefuseAction(conn, request_id, codes::kStorageError, "The move could not be saved; try again.");
    } else {
      // A bot's move: it thinks again (the position is as before), after a pause, not in a loop
      // against a failing store.
      auto retry = std::make_shared<boost::asio::steady_timer>(strand_, std::chrono::seconds(1));
      retry->async_wait([self = shared_from_this(), retry](const boost::system::error_code& ec) {
        if (!ec) {
          self->Run([self] {
            self->WakeBots();
            self->ArmClock();  // a move the clock made is tried again too
          });
        }
      });
    }
    return;
  }
  // The acknowledgement rides on the mover's own Diff: one frame (and one send) fewer per
  // action. Protobuf merges concatenated encodings, so the mover's message is the Diff's bytes,
  // shared with everyone on that view, followed by the two answer fields: written as two
  // buffers of one WebSocket message, nothing copied.
  v1::ServerMessage answer;
  answer.set_request_id(request_id);
  answer.mutable_accepted()->set_action_index(applied.action_index);
  const SharedBuffer answer_bytes = Encode(answer);
  bool answered = false;
  for (const auto& [pid, member] : members_) {
    const SharedBuffer& diff = applied.diffs[ViewIndex(member)];
    if (!diff) continue;
    member.ForEach([&](const ConnectionPtr& c) {
      if (c != conn) return c->Send(diff);
      c->Send(diff, answer_bytes);
      answered = true;
    });
  }
  if (!answered && conn) conn->Send(answer_bytes);
  if (Metrics* m = host_.metrics()) {
    m->actions_accepted.Inc();
    m->action_latency.ObserveDuration(std::chrono::steady_clock::now() - arrived);
  }
  if (clocks_.enabled()) {
    const int seat = applied.logged.seat();
    const bool person = seat >= 0 && static_cast<size_t>(seat) < seats_.size() &&
                        seats_[static_cast<size_t>(seat)].bot == 0;
    CountMove(clocks_, applied.logged, person, session_->state());
    if (person && clocks_.Abandoned(seat) && seats_[static_cast<size_t>(seat)].stand_in == 0 &&
        !applied.game_over) {
      spdlog::info("room {}: seat {} abandoned after {} timeouts", settings_.room_id, seat,
                   clocks_.timeouts(seat));
      // After this move's answer (Run): the room waits on one store call at a time.
      Run([self = shared_from_this(), seat, serial = game_serial_] {
        if (serial != self->game_serial_ || self->phase_ != Phase::kPlaying) return;
        if (self->seats_[static_cast<size_t>(seat)].stand_in != 0) return;
        self->StoreStandIn(nullptr, 0, seat, v1::BOT_EASY);
      });
    }
    PushInfoToAll();  // the clocks moved
  }
  if (applied.game_over) {
    FinishGame();
  } else {
    WakeBots();
    ArmClock();
  }
}

void Room::FinishGame() {
  std::vector<v1::SeatResult> results = session_->Results();
  v1::ServerMessage m;
  v1::GameOver* over = m.mutable_game_over();
  over->set_room_id(settings_.room_id);
  over->set_game_id(game_id_);
  // Every member gets it, spectators too: they were let in with the room's code, and this frame
  // is also what Resync sends again after a reload.
  over->set_replay_token(replay_token_);
  for (v1::SeatResult& r : results) {
    r.set_name(seats_[r.seat()].name);
    *over->add_results() = r;
  }
  phase_ = Phase::kFinished;
  clock_timer_.cancel();
  abandon_timer_.cancel();
  host_.RoomClosed(settings_.room_id);
  spdlog::info("room {}: game {} over", settings_.room_id, game_id_);
  game_over_frame_ = Encode(m);
  for (const auto& [pid, member] : members_) {
    member.Send(game_over_frame_);
  }
  PushInfoToAll();
  Publish();
  RemoveWhenAbandoned();  // a game that ended with nobody there (abandoned, bots alone)
}

// ---------------------------------------------------------------------------------------------
// Bots

bool Room::HostBeforeStart(const ConnectionPtr& conn, const PlayerPtr& player,
                           uint64_t request_id, const std::string& verb) {
  if (removed_) {
    conn->Send(EncodeError(request_id, codes::kRoomNotFound, "This room no longer exists."));
    return false;
  }
  if (phase_ != Phase::kWaiting) {
    conn->Send(EncodeError(request_id, codes::kGameStarted,
                           "The game has started: bots are added and removed before the start."));
    return false;
  }
  if (player->player_id != host_player_id_) {
    conn->Send(EncodeError(request_id, codes::kNotHost, "Only the host can " + verb + " a bot."));
    return false;
  }
  return true;
}

void Room::DoAddBot(const ConnectionPtr& conn, const PlayerPtr& player, uint64_t request_id,
                    uint32_t seat, int level) {
  if (!HostBeforeStart(conn, player, request_id, "add")) return;
  if (seat >= seats_.size()) {
    conn->Send(EncodeError(request_id, codes::kNoSuchSeat,
                           "This room has " + std::to_string(seats_.size()) + " seats."));
    return;
  }
  const std::optional<engine::BotLevel> engine_level = EngineLevel(level);
  if (!engine_level) {
    conn->Send(EncodeError(request_id, codes::kBadBotLevel, "Bots play at the easy or the normal level."));
    return;
  }
  if (!seats_[seat].player_id.empty()) {
    conn->Send(EncodeError(request_id, codes::kSeatTaken, seats_[seat].name + " sits there."));
    return;
  }
  // "Bot 1", "Bot 2"...: the first name nobody in the room has.
  int number = 1;
  while (NameTaken("Bot " + std::to_string(number), "")) ++number;
  seats_[seat] = {std::string(kBotPrefix) + std::string(engine::BotLevelName(*engine_level)) + ":" +
                      std::to_string(number),
                  "Bot " + std::to_string(number), true, level};
  Publish();
  SendInfo(conn, player->player_id, request_id);
  PushInfoToAll(player->player_id);
}

void Room::DoRemoveBot(const ConnectionPtr& conn, const PlayerPtr& player, uint64_t request_id,
                       uint32_t seat) {
  if (!HostBeforeStart(conn, player, request_id, "remove")) return;
  if (seat >= seats_.size() || seats_[seat].bot == 0) {
    conn->Send(EncodeError(request_id, codes::kNotABot, "No bot sits in that seat."));
    return;
  }
  seats_[seat] = {};
  Publish();
  SendInfo(conn, player->player_id, request_id);
  PushInfoToAll(player->player_id);
}

void Room::WakeBots() {
  // Called after every action: a room without bots (most of them) stops here, before asking the
  // engine who acts.
  if (!has_bots_ || removed_ || phase_ != Phase::kPlaying || !session_ || session_->over()) return;
  const uint64_t version = session_->version();
  for (int seat : session_->state().ActingSeats()) {
    const auto index = static_cast<size_t>(seat);
    if (seat < 0 || index >= seats_.size() || seats_[index].played_by_bot() == 0) continue;
    if (bot_thinking_[index] == version) continue;
    bot_thinking_[index] = version;
    const engine::BotLevel level =
        EngineLevel(seats_[index].played_by_bot()).value_or(engine::BotLevel::kEasy);
    const uint64_t seed = bot_seed_ ^ (version * 0x9e3779b97f4a7c15ULL) ^ index;
    // What the bot gets is all it may know (GameSession::SightFor): the thinking below sees
    // nothing else of the game.
    GameSession::BotSight sight = session_->SightFor(seat, level, seed);
    std::shared_ptr<const google::protobuf::Message> view = std::move(sight.view);
    std::shared_ptr<const engine::State> sample = std::move(sight.sample);
    const std::chrono::milliseconds budget = host_.bot_think();
    auto think = [self = shared_from_this(), game = settings_.game, view, sample, seat, version,
                  level, seed, budget, serial = game_serial_] {
      engine::Rng rng(seed);
      std::vector<std::string> moves;
      std::vector<std::unique_ptr<google::protobuf::Message>> chosen;
      if (sample != nullptr) {
        engine::SearchBudget search;
        search.max_playouts = 1 << 20;  // the time budget stops it first
        search.horizon = game->Info().bot_horizon;
        const auto deadline = std::chrono::steady_clock::now() + budget;
        search.stop = [deadline] { return std::chrono::steady_clock::now() >= deadline; };
        chosen = engine::SearchMoves(*sample, seat, search, rng);
      } else {
        chosen = engine::BotMoves(*game, *view, seat, level, rng);
      }
      for (const auto& m : chosen) moves.push_back(m->SerializeAsString());
      self->Run([self, serial, seat, version, moves = std::move(moves)] {
        self->PlayBot(serial, seat, version, moves);
      });
    };
    // A normal bot's search is part of the pause people get to follow the bots' moves.
    const std::chrono::milliseconds delay =
        host_.bot_delay() - (level == engine::BotLevel::kNormal ? budget
                                                               : std::chrono::milliseconds(0));
    if (delay.count() <= 0) {
      host_.Think(std::move(think));
      continue;
    }
    auto timer = std::make_shared<boost::asio::steady_timer>(strand_, delay);
    timer->async_wait([self = shared_from_this(), timer, think = std::move(think)](
                          const boost::system::error_code& ec) mutable {
      if (!ec) self->host_.Think(std::move(think));
    });
  }
}

void Room::PlayBot(uint64_t game, int seat, uint64_t version,
                   const std::vector<std::string>& moves) {
  const auto index = static_cast<size_t>(seat);
  if (removed_ || phase_ != Phase::kPlaying || !session_ || session_->over()) return;
  if (game != game_serial_) return;  // thought in the room's previous game
  if (bot_thinking_[index] != version) return;  // thought about a position already gone
  bot_thinking_[index] = 0;
  if (seats_[index].played_by_bot() == 0) return;  // its player took the seat back meanwhile
  const v1::ActionOrigin origin =
      seats_[index].bot != 0 ? v1::ORIGIN_PLAYER : v1::ORIGIN_STAND_IN;
  if (session_->version() != version) {
    WakeBots();
    return;
  }
  for (const std::string& bytes : moves) {
    if (PlayFor(seat, bytes, origin).ok()) return;
  }
  // Nothing it saw was accepted (moves read from a view may be refused): the game's default
  // move for the seat, what a timer plays.
  if (PlayDefault(seat, origin)) return;
  spdlog::error("room {}: the bot in seat {} has no move the rules accept", settings_.room_id,
                seat);
}

// ---------------------------------------------------------------------------------------------
// Leavers and turn timers

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
    const auto away = std::chrono::steady_clock::now() - member->second.offline_since;
    if (!member->second.left && away < settings_.offline_grace) {
      const auto wait = std::chrono::duration_cast<std::chrono::seconds>(
                            settings_.offline_grace - away).count() + 1;
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
  storage_.Submit(
      [game_id = game_id_, seat, level](Store& store) {
        return store.SetStandIn(game_id, seat, level);
      },
      [self = shared_from_this(), conn, request_id, seat, level,
       serial = game_serial_](Status stored) {
        boost::asio::post(self->strand_, [=] {
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
            if (conn) conn->Send(EncodeOk(request_id));
            self->PushInfoToAll();
            self->WakeBots();
          } else if (conn) {
            conn->Send(EncodeOk(request_id));
          }
          self->Resume();
        });
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

Status Room::PlayFor(int seat, std::string_view bytes, v1::ActionOrigin origin,
                     const ConnectionPtr& conn, uint64_t request_id) {
  auto submitted = session_->Submit(seat, bytes);
  if (!submitted.ok()) return submitted.status();
  submitted.value().logged.set_origin(origin);
  StoreAction(conn, request_id, std::move(submitted).value(), std::chrono::steady_clock::now(),
              nullptr);
  return Status::Ok();
}

bool Room::PlayDefault(int seat, v1::ActionOrigin origin) {
  auto fallback = session_->state().DefaultAction(seat);
  return fallback && PlayFor(seat, fallback->SerializeAsString(), origin).ok();
}

void Room::CountMove(TurnClocks& clocks, const v1::ReplayAction& move, bool person,
                     const engine::State& after) {
  // Only a person's own move ends its run of timeouts; a bot's, standing in or seated, does not.
  clocks.Moved(move.seat(), move.at_unix_ms(), move.origin() == v1::ORIGIN_CLOCK,
               person && move.origin() == v1::ORIGIN_PLAYER, after.ActingSeats());
}

void Room::UpdateHasBots() {
  has_bots_ = std::any_of(seats_.begin(), seats_.end(),
                          [](const SeatState& s) { return s.played_by_bot() != 0; });
}

void Room::ArmClock(std::chrono::milliseconds at_least) {
  if (!clocks_.enabled() || phase_ != Phase::kPlaying || removed_) {
    clock_timer_.cancel();
    return;
  }
  const std::optional<int64_t> next = clocks_.NextDeadline();
  if (!next) {
    clock_timer_.cancel();
    return;
  }
  const auto wait = std::max(std::chrono::milliseconds(*next - NowUnixMs()), at_least);
  clock_timer_.expires_after(std::max(wait, std::chrono::milliseconds(0)));
  clock_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
    // Through Run: a clock never plays while a move waits on the store.
    if (!ec) self->Run([self] { self->OnClock(); });
  });
}

void Room::OnClock() {
  if (!clocks_.enabled() || removed_ || phase_ != Phase::kPlaying || session_->over()) return;
  const std::optional<int> seat = clocks_.Expired(NowUnixMs());
  if (!seat) {
    ArmClock();  // woken early (or the seat moved meanwhile)
    return;
  }
  // Its time ran out: the game's default move, what its bot would fall back on too.
  if (PlayDefault(*seat, v1::ORIGIN_CLOCK)) {
    spdlog::info("room {}: seat {} ran out of time", settings_.room_id, *seat);
    return;
  }
  spdlog::error("room {}: seat {} ran out of time and the game has no default move for it",
                settings_.room_id, *seat);
  ArmClock(std::chrono::seconds(5));
}

void Room::DoResync(const ConnectionPtr& conn, const PlayerPtr& player, uint64_t request_id,
                    uint64_t have_version) {
  auto it = members_.find(player->player_id);
  if (removed_ || it == members_.end()) {
    conn->Send(EncodeError(request_id, codes::kNotMember, "You are not in this room."));
    return;
  }
  if (phase_ == Phase::kWaiting) {
    conn->Send(EncodeError(request_id, codes::kGameNotRunning, "No game is running in this room."));
    return;
  }
  for (const SharedBuffer& frame : session_->ResyncFor(ViewIndex(it->second), have_version)) {
    conn->Send(frame);
  }
  // A client that reloaded after the end has the final view but never saw the results.
  if (phase_ == Phase::kFinished) conn->Send(game_over_frame_);
  conn->Send(EncodeOk(request_id));
}

// ---------------------------------------------------------------------------------------------
// Messages

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
  info.set_offline_grace_seconds(static_cast<uint32_t>(
      std::chrono::duration_cast<std::chrono::seconds>(settings_.offline_grace).count()));
  const auto steady_now = std::chrono::steady_clock::now();
  const int64_t unix_now = NowUnixMs();
  for (size_t i = 0; i < seats_.size(); ++i) {
    v1::SeatInfo* seat = info.add_seats();
    seat->set_seat(static_cast<uint32_t>(i));
    seat->set_player_id(seats_[i].player_id);
    seat->set_name(seats_[i].name);
    seat->set_ready(seats_[i].ready);
    seat->set_bot(static_cast<v1::BotLevel>(seats_[i].bot));
    seat->set_rematch(i < rematch_.size() && rematch_[i]);
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
    info->set_join_code(settings_.join_code);  // members only: it is the key to a private room
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
