// A game's start and end: the host's start, a rematch, dealing and storing a new game before it
// begins, and the results once it is over.
#include "server/room/room.h"

#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>

#include <algorithm>
#include <chrono>
#include <string>

#include "server/error_codes.h"
#include "server/lobby/ids.h"
#include "server/room/room_util.h"

namespace plateau::server {

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
  room_record.undo = settings_.undo;
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
  session_->SetUndo(settings_.undo);
  clocks_before_last_.reset();
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

}  // namespace plateau::server
