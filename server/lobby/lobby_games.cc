// Games a client can look up: those this server plays (the game list, encoded once) and those
// played here (replays, read on the storage thread).
#include "server/lobby/lobby.h"

#include "engine/core/registry.h"
#include "server/error_codes.h"

namespace plateau::server {

namespace v1 = plateau::v1;

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

void Lobby::HandleReplays(const ConnectionPtr& conn, const v1::ClientMessage& message) {
  const uint64_t id = message.request_id();
  if (replays_ == nullptr) {
    conn->Send(EncodeError(id, codes::kReplaysUnavailable, "Replays are not available on this server."));
    return;
  }
  // Loading and re-simulating read the store: on the storage thread, one request per
  // connection at a time.
  auto reply = std::make_shared<v1::ServerMessage>();
  reply->set_request_id(id);
  // Who asks decides which private games exist for this request.
  AnswerAfterStore(
      conn,
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
      },
      StorageExecutor::Kind::kRead);
}

}  // namespace plateau::server
