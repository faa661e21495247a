#include "server/storage/replay_service.h"

#include <algorithm>
#include <deque>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/core/registry.h"

namespace plateau::server {

struct ReplayService::CachedGame {
  // Immutable after construction.
  const engine::Game* game = nullptr;
  plateau::v1::GameRecord record;
  GameAccess access;
  plateau::v1::ReplaySummary summary;  // with its privacy, for viewers already admitted
  // Guarded by ReplayService::mu_. States are shared and const: a request clones the one it
  // starts from, so readers never see a state change under them.
  std::map<uint32_t, std::shared_ptr<const engine::State>> states;
  std::deque<uint32_t> recent;  // steps kept only for being recent, oldest first
};

namespace {

plateau::v1::ReplaySummary SummaryOf(const plateau::v1::GameRecord& record) {
  plateau::v1::ReplaySummary summary;
  summary.set_game_id(record.game_id());
  summary.set_game(record.game());
  summary.set_finished_unix_ms(record.finished_unix_ms());
  *summary.mutable_results() = record.results();
  summary.set_steps(static_cast<uint32_t>(record.actions_size()));
  return summary;
}

// One answer for an unknown, an unfinished and a hidden game, so none can be told apart.
Status NotFound(const std::string& game_id) {
  return Status(replay_codes::kReplayNotFound, "There is no finished game " + game_id + ".");
}

// Takes as long wherever the strings differ, so timing the answers does not spell a token out.
bool SameSecret(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

bool MayWatch(const GameAccess& access, const std::string& viewer_player_id,
              const std::string& replay_token) {
  if (!access.is_private) return true;
  if (!viewer_player_id.empty() &&
      std::find(access.seat_player_ids.begin(), access.seat_player_ids.end(), viewer_player_id) !=
          access.seat_player_ids.end()) {
    return true;
  }
  // An empty stored token (a private game begun without one) opens to nobody.
  return !access.replay_token.empty() && SameSecret(replay_token, access.replay_token);
}

}  // namespace

ReplayService::ReplayService(Store& store) : store_(store) {}
ReplayService::~ReplayService() = default;

StatusOr<plateau::v1::ReplayList> ReplayService::List(const plateau::v1::ListReplays& request,
                                                       const std::string& viewer_player_id) {
  uint32_t limit = request.limit() == 0 ? kDefaultListLimit : request.limit();
  limit = std::min(limit, kMaxListLimit);
  auto summaries =
      store_.ListFinished(request.game(), limit, request.before_game_id(), viewer_player_id);
  if (!summaries.ok()) return summaries.status();
  plateau::v1::ReplayList list;
  for (auto& s : summaries.value()) *list.add_replays() = std::move(s);
  return list;
}

StatusOr<GameAccess> ReplayService::Admit(const std::string& game_id,
                                          const std::string& viewer_player_id,
                                          const std::string& replay_token) {
  auto access = store_.LoadGameAccess(game_id);
  if (!access.ok()) return access.status();
  // A game still being played is not a replay: its log is incomplete and its hidden
  // information must stay hidden.
  if (!access.value().has_value() || !access.value()->finished ||
      !MayWatch(*access.value(), viewer_player_id, replay_token)) {
    return NotFound(game_id);
  }
  return std::move(*access.value());
}

StatusOr<plateau::v1::GameRecord> ReplayService::LoadFinished(const std::string& game_id) {
  auto record = store_.LoadGame(game_id);
  if (!record.ok()) return record.status();
  if (!record.value().has_value() || record.value()->finished_unix_ms() == 0) {
    return NotFound(game_id);
  }
  plateau::v1::GameRecord& game = *record.value();
  // Rooms store no text with their actions (it would be work on every move for the rare reader):
  // each action's text comes from the engine here, as the rules console prints it.
  if (Status st = engine::Registry::LoadAll(); !st.ok()) return st;
  if (const engine::Game* rules = engine::Registry::Find(game.game())) {
    for (plateau::v1::ReplayAction& a : *game.mutable_actions()) {
      auto action = rules->ParseActionBytes(a.action());
      if (action.ok()) a.set_text(rules->ActionToText(*action.value()));
    }
  }
  return std::move(game);
}

StatusOr<std::shared_ptr<ReplayService::CachedGame>> ReplayService::Acquire(
    const std::string& game_id, const std::string& viewer_player_id,
    const std::string& replay_token) {
  {
    std::lock_guard lock(mu_);
    for (auto it = lru_.begin(); it != lru_.end(); ++it) {
      if ((*it)->record.game_id() == game_id) {
        // Loaded for someone else: this viewer is checked on its own.
        if (!MayWatch((*it)->access, viewer_player_id, replay_token)) return NotFound(game_id);
        lru_.splice(lru_.begin(), lru_, it);
        return lru_.front();
      }
    }
  }
  // Checked before the log is read, so a hidden game costs no more than an unknown one.
  auto access = Admit(game_id, viewer_player_id, replay_token);
  if (!access.ok()) return access.status();
  auto record = LoadFinished(game_id);
  if (!record.ok()) return record.status();
  if (Status st = engine::Registry::LoadAll(); !st.ok()) return st;
  const engine::Game* game = engine::Registry::Find(record.value().game());
  if (game == nullptr) {
    return Status(engine::codes::kUnknownGame,
                  "Game " + game_id + " was a game of '" + record.value().game() +
                      "', which this server does not have.");
  }
  auto initial = game->NewGame(record.value().seat_names_size(), record.value().options(),
                               record.value().seed());
  if (!initial.ok()) {
    return Status(replay_codes::kReplayCorrupt,
                  "Game " + game_id + " cannot be set up again: " + initial.status().reason());
  }
  auto cached = std::make_shared<CachedGame>();
  cached->game = game;
  cached->record = std::move(record.value());
  cached->access = std::move(access.value());
  cached->summary = SummaryOf(cached->record);
  if (cached->access.is_private) {
    // Only admitted viewers see this summary: seated players, or someone who has the token.
    cached->summary.set_is_private(true);
    cached->summary.set_replay_token(cached->access.replay_token);
  }
  cached->states.emplace(0, std::shared_ptr<const engine::State>(std::move(initial.value())));

  std::lock_guard lock(mu_);
  // Another request may have loaded the same game meanwhile; keep one copy.
  for (auto it = lru_.begin(); it != lru_.end(); ++it) {
    if ((*it)->record.game_id() == game_id) {
      lru_.splice(lru_.begin(), lru_, it);
      return lru_.front();
    }
  }
  lru_.push_front(cached);
  while (lru_.size() > kMaxCachedGames) lru_.pop_back();
  return cached;
}

StatusOr<std::shared_ptr<const engine::State>> ReplayService::StateAt(CachedGame& game,
                                                                      uint32_t step) {
  std::shared_ptr<const engine::State> base;
  uint32_t base_step = 0;
  {
    std::lock_guard lock(mu_);
    auto it = game.states.upper_bound(step);  // step 0 is always present, so it != begin()
    --it;
    base_step = it->first;
    base = it->second;
  }
  if (base_step == step) return base;

  std::unique_ptr<engine::State> state = base->Clone();
  std::vector<std::pair<uint32_t, std::shared_ptr<const engine::State>>> checkpoints;
  for (uint32_t i = base_step; i < step; ++i) {
    const plateau::v1::ReplayAction& a = game.record.actions(static_cast<int>(i));
    Status st = state->ApplyBytes(a.seat(), a.action(), a.origin() == plateau::v1::ORIGIN_CLOCK);
    if (!st.ok()) {
      return Status(replay_codes::kReplayCorrupt,
                    "Action " + std::to_string(i) + " of game " + game.record.game_id() +
                        " no longer replays: " + st.reason());
    }
    const uint32_t reached = i + 1;
    if (reached % kCheckpointEvery == 0 && reached != step) {
      checkpoints.emplace_back(reached, std::shared_ptr<const engine::State>(state->Clone()));
    }
  }
  actions_applied_.fetch_add(step - base_step, std::memory_order_relaxed);
  std::shared_ptr<const engine::State> result(std::move(state));

  std::lock_guard lock(mu_);
  for (auto& [s, st] : checkpoints) game.states.emplace(s, std::move(st));
  if (game.states.emplace(step, result).second && step % kCheckpointEvery != 0) {
    game.recent.push_back(step);
    while (game.recent.size() > kRecentSteps) {
      game.states.erase(game.recent.front());
      game.recent.pop_front();
    }
  }
  return result;
}

StatusOr<plateau::v1::Replay> ReplayService::Get(const plateau::v1::GetReplay& request,
                                                 const std::string& viewer_player_id) {
  // Admission comes first: a step or seat refusal would tell a stranger the game exists.
  auto cached = Acquire(request.game_id(), viewer_player_id, request.replay_token());
  if (!cached.ok()) return cached.status();
  CachedGame& game = *cached.value();
  const auto steps = static_cast<uint32_t>(game.record.actions_size());
  if (request.step() > steps) {
    return Status(replay_codes::kStepOutOfRange,
                  "Game " + request.game_id() + " has steps 0 to " + std::to_string(steps) +
                      ", not " + std::to_string(request.step()) + ".");
  }
  const int seats = game.record.seat_names_size();
  if (request.seat() < engine::kSpectator || request.seat() >= seats) {
    return Status(replay_codes::kBadSeat, "Game " + request.game_id() + " has seats 0 to " +
                                              std::to_string(seats - 1) + " (or -1 to watch), not " +
                                              std::to_string(request.seat()) + ".");
  }
  auto state = StateAt(game, request.step());
  if (!state.ok()) return state.status();

  plateau::v1::Replay replay;
  *replay.mutable_summary() = game.summary;
  replay.set_step(request.step());
  replay.set_seat(request.seat());
  std::unique_ptr<engine::Message> view = state.value()->View(request.seat());
  // As a live game sends it (its table's words by number), for the same client code to read.
  engine::ToWireForm(state.value()->game(), view.get());
  replay.set_view_type(view->GetTypeName());
  replay.set_view(engine::DeterministicBytes(*view));
  if (request.step() > 0) {
    const plateau::v1::ReplayAction& stored =
        game.record.actions(static_cast<int>(request.step() - 1));
    plateau::v1::ReplayAction* last = replay.mutable_last_action();
    *last = stored;
    // The text comes from the engine, so it matches what the rules console prints whatever the
    // room stored at the time.
    auto action = game.game->ParseActionBytes(stored.action());
    if (action.ok()) last->set_text(game.game->ActionToText(*action.value()));
  }
  if (request.with_moves()) {
    Status st = AddMoves(game, request.seat(), &replay);
    if (!st.ok()) return st;
  }
  return replay;
}

Status ReplayService::AddMoves(const CachedGame& game, int seat, plateau::v1::Replay* replay) {
  std::shared_ptr<const engine::State> start;
  {
    std::lock_guard lock(mu_);
    start = game.states.at(0);
  }
  // One pass from the start: each move's words are the log entries it wrote that the seat may
  // read (the log keeps far more entries than one move writes, so none is trimmed unseen).
  std::unique_ptr<engine::State> state = start->Clone();
  uint64_t seen = 0;
  // What the game wrote as it was set up (the first round's category, ...): step 0, no seat.
  auto add_words = [&](plateau::v1::ReplayMove* move) {
    for (const engine::LogRef& entry : engine::LogOf(state->table())) {
      if (entry.seq < seen || !engine::CanRead(entry, seat)) continue;
      *move->add_words() = engine::LogText(entry);
    }
    seen = state->table().log_seq();
  };
  plateau::v1::ReplayMove setup;
  setup.set_seat(engine::kSpectator);
  add_words(&setup);
  if (!setup.words().empty()) *replay->add_moves() = std::move(setup);
  for (int i = 0; i < game.record.actions_size(); ++i) {
    const plateau::v1::ReplayAction& a = game.record.actions(i);
    Status st = state->ApplyBytes(a.seat(), a.action(), a.origin() == plateau::v1::ORIGIN_CLOCK);
    if (!st.ok()) {
      return Status(replay_codes::kReplayCorrupt, "Action " + std::to_string(i) + " of game " +
                                                      game.record.game_id() +
                                                      " no longer replays: " + st.reason());
    }
    plateau::v1::ReplayMove* move = replay->add_moves();
    move->set_step(static_cast<uint32_t>(i + 1));
    move->set_seat(a.seat());
    move->set_origin(a.origin());
    add_words(move);
    if (move->words().empty()) *move->add_words() = engine::T("core.moves", engine::Seat{a.seat()});
  }
  actions_applied_.fetch_add(static_cast<uint64_t>(game.record.actions_size()),
                             std::memory_order_relaxed);
  return Status::Ok();
}

StatusOr<plateau::v1::ReplayExport> ReplayService::Export(
    const plateau::v1::ExportReplay& request, const std::string& viewer_player_id) {
  auto access = Admit(request.game_id(), viewer_player_id, request.replay_token());
  if (!access.ok()) return access.status();
  // The record has no token in it: a file handed on opens nothing on the server.
  auto record = LoadFinished(request.game_id());
  if (!record.ok()) return record.status();
  plateau::v1::ReplayExport out;
  out.set_game_id(request.game_id());
  out.set_record(engine::DeterministicBytes(record.value()));
  return out;
}

}  // namespace plateau::server
