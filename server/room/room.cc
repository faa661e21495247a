// The room's frame: construction, the rebuild of a stored game after a restart, the public entry
// points that post onto the strand, and the strand itself (what waits while the store answers).
#include "server/room/room.h"

#include <spdlog/spdlog.h>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>

#include <chrono>
#include <limits>
#include <string_view>

#include "engine/core/bot.h"
#include "engine/core/registry.h"
#include "server/error_codes.h"
#include "server/lobby/ids.h"
#include "server/room/room_util.h"

namespace plateau::server {
namespace {

int BotLevelOfId(std::string_view player_id) {
  if (player_id.substr(0, kBotPrefix.size()) != kBotPrefix) return 0;
  const std::string_view rest = player_id.substr(kBotPrefix.size());
  const std::string_view level = rest.substr(0, rest.find(':'));
  if (level == engine::BotLevelName(engine::BotLevel::kEasy)) return v1::BOT_EASY;
  if (level == engine::BotLevelName(engine::BotLevel::kNormal)) return v1::BOT_NORMAL;
  return v1::BOT_EASY;  // a level this build no longer has plays as the easiest
}

}  // namespace

Room::Room(boost::asio::any_io_executor executor, RoomSettings settings, StorageExecutor& storage,
           RoomHost& host)
    : strand_(boost::asio::make_strand(executor)),
      empty_timer_(strand_),
      clock_timer_(strand_),
      abandon_timer_(strand_),
      grace_timer_(strand_),
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
  for (const auto& a : record.actions())
    log.push_back({a.seat(), a.action(), a.origin() == v1::ORIGIN_CLOCK});
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
  auto is_person = [&](int seat) {
    return seat >= 0 && seat < num_seats &&
           BotLevelOfId(saved.room.seat_player_ids[static_cast<size_t>(seat)]) == 0;
  };
  // The clocks as they were before the last move, for taking it back (Room::OnTakenBack).
  std::optional<TurnClocks> before_last;
  auto replayed = [&](size_t i, const engine::State& state) {
    if (!clocks.enabled()) return;
    const v1::ReplayAction& a = record.actions(static_cast<int>(i));
    resume_until(a.at_unix_ms());
    if (i + 1 == log.size()) before_last = clocks;
    CountMove(clocks, a, is_person(a.seat()), state);
  };
  const bool last_by_player =
      !log.empty() && record.actions(record.actions_size() - 1).origin() == v1::ORIGIN_PLAYER &&
      is_person(log.back().seat);
  auto session = GameSession::Restore(*game, saved.room.room_id, num_seats, record.options(),
                                      record.seed(), log, replayed, last_by_player,
                                      saved.room.taken_back, saved.room.taken_back_last);
  if (!session.ok()) return session.status();
  const size_t resumes_seen = next_resume;
  resume_until(std::numeric_limits<int64_t>::max());
  // Nobody could move while the server was down: each running clock gets time to come back.
  const int64_t resumed_at = NowUnixMs();
  clocks.Resume(resumed_at, offline_grace.count());
  // Nothing may be taken back after a take-back: no clocks to go back to (as OnTakenBack leaves it).
  if (saved.room.taken_back_last) before_last.reset();
  if (before_last) {
    // The restarts after the last move moved its deadlines too.
    for (size_t k = resumes_seen; k < saved.room.resumes.size(); ++k)
      before_last->Resume(saved.room.resumes[k].at_unix_ms, saved.room.resumes[k].grace_ms);
    before_last->Resume(resumed_at, offline_grace.count());
  }

  RoomSettings settings;
  settings.room_id = saved.room.room_id;
  settings.empty_grace = empty_grace;
  settings.offline_grace = offline_grace;
  settings.abandoned_after = abandoned_after;
  settings.timer = timer;
  settings.undo = saved.room.undo;
  settings.join_code = saved.room.join_code;
  settings.watch_code = saved.room.watch_code;
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
  room->session_->SetUndo(room->settings_.undo);
  if (before_last) room->clocks_before_last_ = std::move(*before_last);
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
  Run([self = shared_from_this(), conn, player, request_id] {
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
    self->StoreThen(
        [game_id = self->game_id_, results](Store& store) {
          return store.FinishGame(game_id, results, NowUnixMs());
        },
        [self](Status stored) {
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
}

void Room::Join(ConnectionPtr conn, PlayerPtr player, uint64_t request_id, bool has_code) {
  Run([self = shared_from_this(), conn, player, request_id, has_code] {
    self->DoJoin(conn, player, request_id, has_code);
  });
}

void Room::Spectate(ConnectionPtr conn, PlayerPtr player, uint64_t request_id, bool has_code,
                    bool has_watch_code) {
  Run([self = shared_from_this(), conn, player, request_id, has_code, has_watch_code] {
    self->DoSpectate(conn, player, request_id, has_code, has_watch_code);
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

void Room::UndoMove(ConnectionPtr conn, PlayerPtr player, uint64_t request_id) {
  Run([self = shared_from_this(), conn, player, request_id] {
    self->DoUndoMove(conn, player, request_id);
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

void Room::Rematch(ConnectionPtr conn, PlayerPtr player, uint64_t request_id, bool accept,
                   bool without_absent) {
  Run([self = shared_from_this(), conn, player, request_id, accept, without_absent] {
    self->DoRematch(conn, player, request_id, accept, without_absent);
  });
}

void Room::Start(ConnectionPtr conn, PlayerPtr player, uint64_t request_id) {
  Run([self = shared_from_this(), conn, player, request_id] {
    self->DoStart(conn, player, request_id);
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
  // The host's ticket lives until `fn` has run, deferred or not: a request's answer is queued on
  // its connection before shutdown closes it.
  boost::asio::post(strand_, [self = shared_from_this(), fn = std::move(fn),
                              ticket = host_.HoldRequest()]() mutable {
    self->RunOrDefer([fn = std::move(fn), ticket = std::move(ticket)] { fn(); });
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
    self->grace_timer_.cancel();
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

}  // namespace plateau::server
