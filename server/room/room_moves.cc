// Moves: a player's, or one played for a seat (bot, clock, resignation), stored before anyone sees
// it; the turn timer that plays when a clock runs out; and Resync for those who missed some.
#include "server/room/room.h"

#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>

#include <algorithm>
#include <chrono>
#include <optional>

#include "server/error_codes.h"
#include "server/room/room_util.h"
#include "server/storage/store_rules.h"

namespace plateau::server {

void Room::RefuseAction(const ConnectionPtr& conn, uint64_t request_id, const std::string& code,
                        const std::string& reason) {
  if (Metrics* m = host_.metrics()) m->actions_refused.Inc(code);
  conn->Send(EncodeError(request_id, code, reason));
}

int Room::SeatInPlay(const ConnectionPtr& conn, const PlayerPtr& player, uint64_t request_id) {
  if (removed_) {
    RefuseAction(conn, request_id, codes::kRoomNotFound, "This room no longer exists.");
    return -1;
  }
  if (phase_ != Phase::kPlaying) {
    RefuseAction(conn, request_id, codes::kGameNotRunning, "No game is running in this room.");
    return -1;
  }
  auto it = members_.find(player->player_id);
  if (it == members_.end() || it->second.seat < 0) {
    RefuseAction(conn, request_id, codes::kNotSeated, "Only seated players can act.");
    return -1;
  }
  return it->second.seat;
}

void Room::DoSubmit(const ConnectionPtr& conn, const PlayerPtr& player, uint64_t request_id,
                    const std::string& action_bytes,
                    std::chrono::steady_clock::time_point arrived, std::shared_ptr<void> ticket) {
  const int seat = SeatInPlay(conn, player, request_id);
  if (seat < 0) return;
  if (moved_) return RefuseMoved(conn, request_id);
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
  StoreThen(
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
       results_ok](Status stored) mutable {
        // The ticket lives until the answer is queued on the connection.
        if (applied->game_over) self->results_stored_ = stored.ok() && *results_ok;
        self->OnActionStored(stored, conn, request_id, *applied, arrived);
        ticket.reset();
        self->Resume();
      });
}

void Room::RefuseMoved(const ConnectionPtr& conn, uint64_t request_id) {
  RefuseAction(conn, request_id, codes::kRoomMoved,
               "This game is now run by another server; reconnect to go on.");
}

void Room::OnActionStored(const Status& stored, const ConnectionPtr& conn, uint64_t request_id,
                          const GameSession::Applied& applied,
                          std::chrono::steady_clock::time_point arrived) {
  if (!stored.ok()) {
    spdlog::error("room {}: cannot store action {}: {}", settings_.room_id, applied.action_index,
                  stored.ToString());
    session_->Undo();
    if (stored.code() == store_codes::kLeaseLost) return MovedAway(conn, request_id);
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
    clocks_before_last_ = clocks_;
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

void Room::DoUndoMove(const ConnectionPtr& conn, const PlayerPtr& player, uint64_t request_id) {
  const int seat = SeatInPlay(conn, player, request_id);
  if (seat < 0) return;
  if (!settings_.undo) {
    RefuseAction(conn, request_id, codes::kUndoOff, "This room does not let moves be taken back.");
    return;
  }
  if (Status st = session_->CanTakeBack(seat); !st.ok()) {
    RefuseAction(conn, request_id, st.code(), st.reason());
    return;
  }
  // Stored before anyone hears of it, as a move is; the room waits (Run) meanwhile, so nothing
  // is applied between the check and the take-back.
  SetBusy(true);
  StoreThen(
      [game_id = game_id_, index = session_->next_action_index() - 1,
       at = NowUnixMs()](Store& store) { return store.TakeBackAction(game_id, index, at); },
      [self = shared_from_this(), conn, request_id](Status stored) {
        self->OnTakenBack(stored, conn, request_id);
        self->Resume();
      });
}

void Room::OnTakenBack(const Status& stored, const ConnectionPtr& conn, uint64_t request_id) {
  if (!stored.ok()) {
    spdlog::error("room {}: cannot store a take-back: {}", settings_.room_id, stored.ToString());
    RefuseAction(conn, request_id, codes::kStorageError,
                 "The move could not be taken back; try again.");
    return;
  }
  const GameSession::Applied applied = session_->TakeBack();
  for (const auto& [pid, member] : members_) {
    const SharedBuffer& diff = applied.diffs[ViewIndex(member)];
    if (diff) member.ForEach([&](const ConnectionPtr& c) { c->Send(diff); });
  }
  conn->Send(EncodeOk(request_id));
  if (clocks_.enabled() && clocks_before_last_) {
    clocks_ = std::move(*clocks_before_last_);
    clocks_before_last_.reset();
    PushInfoToAll();
  }
  WakeBots();
  ArmClock();
}

Status Room::PlayFor(int seat, std::string_view bytes, v1::ActionOrigin origin,
                     const ConnectionPtr& conn, uint64_t request_id) {
  auto submitted =
      session_->Submit(seat, bytes, /*by_player=*/false, origin == v1::ORIGIN_CLOCK, origin);
  if (!submitted.ok()) return submitted.status();
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

}  // namespace plateau::server
