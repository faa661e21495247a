// A game's start and end: the host's start, a rematch, dealing and storing a new game before it
// begins, and the results once it is over.
#include "server/room/room.h"

#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>

#include <algorithm>
#include <chrono>
#include <set>
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
    DropRematchOffer();
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
  room_record.watch_code = settings_.watch_code;
  room_record.is_private = settings_.is_private;
  room_record.title = settings_.title;
  room_record.host_player_id = host_player_id_;
  // Made now, stored with the game, so a restart finishing it sends the same link.
  if (settings_.is_private) room_record.replay_token = NewReplayToken();
  if (settings_.timer.mode() != v1::TIMER_NONE) room_record.timer = settings_.timer.SerializeAsString();
  room_record.undo = settings_.undo;
  const std::string replay_token = room_record.replay_token;
  for (auto& s : seated) {
    // Everyone starts the game at the table, except an away player whose stand-in plays on in a
    // rematch until he takes his seat back. Stored with the game, in the same transaction: a
    // crash right after cannot restore the game without its bot.
    if (s.bot == 0 && s.stand_in != 0) {
      const auto member = members_.find(s.player_id);
      if (member != members_.end() && !member->second.left && member->second.online()) {
        s.stand_in = 0;
      }
    }
    record.add_seat_names(s.name);
    room_record.seat_player_ids.push_back(s.player_id);
    room_record.seat_stand_ins.push_back(s.bot == 0 ? s.stand_in : 0);
  }
  // Nothing else happens in the room until the game is stored (see Run): the seats read above
  // are still the seats when it starts.
  SetBusy(true);
  auto started = std::make_shared<std::unique_ptr<GameSession>>(std::move(session).value());
  StoreThen(
      [record = std::move(record), room_record = std::move(room_record)](Store& store) {
        return store.BeginGame(record, room_record);
      },
      [self = shared_from_this(), conn, request_id, seated, game_id, replay_token, started,
       started_ms](Status stored) {
        self->OnGameStored(stored, conn, request_id, seated, game_id, replay_token,
                           std::move(*started), started_ms);
        self->Resume();
      });
}

void Room::DropRematchOffer() {
  if (rematch_.empty()) return;
  rematch_.clear();
  rematch_without_absent_ = false;
  PushInfoToAll();
}

Room::RematchTerms Room::Terms() const {
  RematchTerms t;
  t.absent.assign(seats_.size(), false);
  int away = 0;
  std::string gone;  // the first away player with no bot standing in
  std::string lost;  // the first who lost his connection and may still come back
  std::chrono::steady_clock::duration lost_wait{};
  for (size_t i = 0; i < seats_.size(); ++i) {
    const SeatState& s = seats_[i];
    if (s.bot != 0 || s.player_id.empty()) continue;
    const auto member = members_.find(s.player_id);
    const bool left = member == members_.end() || member->second.left;
    if (!left && member->second.online()) continue;
    // A connection lost for a moment (a reload, a tunnel) does not cost the seat: counted
    // away after the grace ReplaceSeat waits too, unless a bot already holds the seat.
    if (!left && s.stand_in == 0) {
      if (const auto grace = GraceLeft(member->second); grace.count() > 0) {
        if (lost.empty()) {
          lost = s.name;
          lost_wait = grace;
        }
        continue;
      }
    }
    t.absent[i] = true;
    ++away;
    // An offline player may still come back and answer; one who left cannot.
    if (left && s.stand_in == 0 && gone.empty()) gone = s.name;
  }
  if (!results_stored_) {
    t.code = t.without_code = codes::kStorageError;
    t.reason = t.without_reason =
        "This game's result could not be saved, so this room cannot start a rematch; open a new "
        "table.";
    return t;
  }
  if (!gone.empty()) {
    t.code = codes::kPlayerLeft;
    t.reason = gone + " has left the table.";
  }
  const engine::Game& game = *settings_.game;
  const int staying = static_cast<int>(seats_.size()) - away;
  if (away == 0 && !lost.empty()) {
    t.without_code = codes::kTooEarly;
    t.without_reason =
        lost + " may still come back: wait " +
        std::to_string(std::chrono::duration_cast<std::chrono::seconds>(lost_wait).count() + 1) +
        " s more.";
  } else if (away == 0) {
    t.without_code = codes::kPlayerPresent;
    t.without_reason = "Every player is at the table.";
  } else if (staying < game.Info().min_seats) {
    t.without_code = codes::kNotEnoughPlayers;
    t.without_reason = game.Info().title + " needs at least " +
                       std::to_string(game.Info().min_seats) + " players.";
  }
  return t;
}

bool Room::AgreesForItself(const RematchTerms& terms, size_t seat) const {
  if (seats_[seat].bot != 0) return true;
  if (!terms.absent[seat]) return false;
  return rematch_without_absent_ || seats_[seat].stand_in != 0;
}

void Room::DoRematch(const ConnectionPtr& conn, const PlayerPtr& player, uint64_t request_id,
                     bool accept, bool without_absent) {
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
    rematch_without_absent_ = false;
    conn->Send(EncodeOk(request_id));
    PushInfoToAll();
    return;
  }
  // An away player's seat never holds the offer up: a bot standing in keeps it for him, or the
  // players choose to go on without him. Only a player who left with nobody in his seat does,
  // on the terms that would wait for him.
  const RematchTerms terms = Terms();
  const std::string& code = without_absent ? terms.without_code : terms.code;
  if (!code.empty()) {
    conn->Send(EncodeError(request_id, code, without_absent ? terms.without_reason : terms.reason));
    return;
  }
  if (rematch_.empty() || rematch_without_absent_ != without_absent) {
    rematch_.assign(seats_.size(), false);  // new terms: everyone is asked again
    rematch_without_absent_ = without_absent;
  }
  rematch_[static_cast<size_t>(it->second.seat)] = true;
  for (size_t i = 0; i < seats_.size(); ++i) {
    if (!rematch_[i] && !AgreesForItself(terms, i)) {
      conn->Send(EncodeOk(request_id));
      PushInfoToAll();
      return;
    }
  }
  std::vector<SeatState> seated;
  bool host_stays = true;
  for (size_t i = 0; i < seats_.size(); ++i) {
    if (!(without_absent && terms.absent[i])) {
      seated.push_back(seats_[i]);
    } else if (seats_[i].player_id == host_player_id_) {
      host_stays = false;
    }
  }
  if (!host_stays) {
    // Left out, the host can no longer run the table: it passes to a player who stays (stored
    // with the new game).
    for (const SeatState& s : seated) {
      if (s.bot == 0 && !s.player_id.empty()) {
        host_player_id_ = s.player_id;
        break;
      }
    }
  }
  spdlog::info("room {}: rematch of game {} ({} seats)", settings_.room_id, game_id_,
               seated.size());
  BeginGame(conn, request_id, std::move(seated));
  host_.RoomReopened(settings_.room_id, host_player_id_);
}

void Room::OnGameStored(const Status& stored, const ConnectionPtr& conn, uint64_t request_id,
                        const std::vector<SeatState>& seated, const std::string& game_id,
                        const std::string& replay_token, std::unique_ptr<GameSession> session,
                        int64_t started_ms) {
  if (!stored.ok()) {
    DropRematchOffer();
    spdlog::error("room {}: cannot store the new game: {}", settings_.room_id, stored.ToString());
    conn->Send(EncodeError(request_id, codes::kStorageError, "The game could not be saved; try again."));
    return;
  }
  const int n = static_cast<int>(seated.size());
  // A rematch without the away players: they are no longer at this table.
  std::set<std::string> seated_ids;
  for (const SeatState& s : seated) {
    if (s.bot == 0) seated_ids.insert(s.player_id);
  }
  std::vector<std::string> dropped;
  for (const auto& [pid, member] : members_) {
    if (member.seat >= 0 && seated_ids.count(pid) == 0) dropped.push_back(pid);
  }
  for (const std::string& pid : dropped) RemoveMember(pid);
  // Stored: the game uses the seated players in seat order, re-packed to 0..n-1.
  seats_ = seated;
  for (int i = 0; i < n; ++i) {
    SeatState& s = seats_[static_cast<size_t>(i)];
    if (s.bot != 0) continue;
    Member& member = members_[s.player_id];
    if (member.name.empty()) member.name = s.name;  // gone from the room, seated by a rematch
    member.seat = i;
    // An away player whose stand-in plays on (see BeginGame): his lobby lists the table again,
    // so he finds it.
    if (s.stand_in != 0) host_.SetMembership(s.player_id, settings_.room_id, true);
  }
  bot_thinking_.assign(static_cast<size_t>(n), 0);
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
  rematch_without_absent_ = false;
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
