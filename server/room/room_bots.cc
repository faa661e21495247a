// Bots: the host seats and removes them before the start; during a game they think off the network
// threads and play through the same path as a person's move.
#include "server/room/room.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>

#include "engine/core/bot.h"
#include "server/error_codes.h"
#include "server/room/room_util.h"

namespace plateau::server {
namespace {

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

}  // namespace

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

void Room::UpdateHasBots() {
  has_bots_ = std::any_of(seats_.begin(), seats_.end(),
                          [](const SeatState& s) { return s.played_by_bot() != 0; });
}

}  // namespace plateau::server
