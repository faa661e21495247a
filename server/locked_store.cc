#include "server/locked_store.h"

namespace plateau::server {

Status LockedStore::SavePlayer(const std::string& token, const StoredPlayer& player) {
  std::lock_guard lock(mu_);
  return inner_.SavePlayer(token, player);
}

StatusOr<std::optional<StoredPlayer>> LockedStore::FindPlayer(const std::string& token) {
  std::lock_guard lock(mu_);
  return inner_.FindPlayer(token);
}

Status LockedStore::BeginGame(const plateau::v1::GameRecord& record, const RoomRecord& room) {
  std::lock_guard lock(mu_);
  return inner_.BeginGame(record, room);
}

Status LockedStore::AppendAction(const std::string& game_id, uint32_t index,
                                 const plateau::v1::ReplayAction& action) {
  std::lock_guard lock(mu_);
  return inner_.AppendAction(game_id, index, action);
}

Status LockedStore::FinishGame(const std::string& game_id,
                               const std::vector<plateau::v1::SeatResult>& results,
                               int64_t finished_unix_ms) {
  std::lock_guard lock(mu_);
  return inner_.FinishGame(game_id, results, finished_unix_ms);
}

StatusOr<std::optional<plateau::v1::GameRecord>> LockedStore::LoadGame(const std::string& game_id) {
  std::lock_guard lock(mu_);
  return inner_.LoadGame(game_id);
}

StatusOr<std::vector<plateau::v1::ReplaySummary>> LockedStore::ListFinished(
    const std::string& game, uint32_t limit, const std::string& before_game_id) {
  std::lock_guard lock(mu_);
  return inner_.ListFinished(game, limit, before_game_id);
}

StatusOr<std::vector<Store::Unfinished>> LockedStore::LoadUnfinished() {
  std::lock_guard lock(mu_);
  return inner_.LoadUnfinished();
}

}  // namespace plateau::server
