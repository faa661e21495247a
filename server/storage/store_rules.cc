#include "server/storage/store_rules.h"

#include <bit>
#include <chrono>
#include <set>

namespace plateau::server::store_rules {

Status CheckPlayer(const std::string& token, const StoredPlayer& player) {
  if (token.empty() || player.player_id.empty()) {
    return Status(store_codes::kBadRecord, "A player needs a token and a player id.");
  }
  return Status::Ok();
}

Status CheckReplacement(const std::string& old_token, const std::string& new_token) {
  if (old_token.empty() || new_token.empty() || old_token == new_token) {
    return Status(store_codes::kBadRecord, "A token is replaced by another, non-empty one.");
  }
  return Status::Ok();
}

Status CheckNewGame(const plateau::v1::GameRecord& record) {
  if (record.game_id().empty() || record.game().empty()) {
    return Status(store_codes::kBadRecord, "A stored game needs a game id and a game.");
  }
  if (record.actions_size() != 0 || record.results_size() != 0 ||
      record.finished_unix_ms() != 0) {
    return Status(store_codes::kBadRecord,
                  "Game " + record.game_id() +
                      " is begun with actions, results or a finish time; those are stored by "
                      "AppendAction and FinishGame.");
  }
  return Status::Ok();
}

Status CheckFinish(const std::string& game_id,
                   const std::vector<plateau::v1::SeatResult>& results, int64_t finished_unix_ms) {
  if (finished_unix_ms <= 0) {
    return Status(store_codes::kBadRecord, "Game " + game_id + " needs a finish time.");
  }
  std::set<uint32_t> seats;
  for (const auto& r : results) {
    if (!seats.insert(r.seat()).second) return TwoResults(game_id, r.seat());
  }
  return Status::Ok();
}

Status DuplicateAction(const std::string& game_id, uint32_t index) {
  return Status(store_codes::kDuplicateAction,
                "Action " + std::to_string(index) + " of game " + game_id +
                    " is already stored; actions are never overwritten.");
}

Status CheckAppendIndex(const std::string& game_id, uint32_t index, uint32_t next) {
  if (index < next) return DuplicateAction(game_id, index);
  if (index > next) {
    return Status(store_codes::kActionGap, "Action " + std::to_string(index) + " of game " +
                                               game_id + " would leave a gap: the next is " +
                                               std::to_string(next) + ".");
  }
  return Status::Ok();
}

Status GameNotFound(const std::string& game_id) {
  return Status(store_codes::kGameNotFound, "Game " + game_id + " is not stored.");
}

Status PlayerHasAnotherToken(const std::string& player_id) {
  return Status(store_codes::kPlayerConflict,
                "Player " + player_id + " is already stored with another token.");
}

Status TokenOfAnotherPlayer() {
  return Status(store_codes::kTokenConflict, "This token belongs to another player.");
}

Status PlayerNotFound(const std::string& player_id) {
  return Status(store_codes::kPlayerNotFound, "There is no player " + player_id + ".");
}

Status TokenNotFound() {
  return Status(store_codes::kTokenNotFound, "No player holds this token.");
}

Status NewTokenInUse() {
  return Status(store_codes::kTokenConflict, "The new token is already in use.");
}

Status TooManyRooms(int64_t open) {
  return Status(store_codes::kTooManyRooms, "You already have " + std::to_string(open) +
                                                " open rooms; leave or finish one first.");
}

Status RoomsTooFast(int64_t wait_seconds) {
  return Status(store_codes::kTooManyRooms, "You have created rooms too fast; try again in " +
                                                std::to_string(wait_seconds) + " s.");
}

Status GameExists(const std::string& game_id) {
  return Status(store_codes::kGameExists, "Game " + game_id + " is already stored.");
}

Status GameTakesNoActions(const std::string& game_id) {
  return Status(store_codes::kGameFinished,
                "Game " + game_id + " is finished; it takes no more actions.");
}

Status GameAlreadyFinished(const std::string& game_id) {
  return Status(store_codes::kGameFinished, "Game " + game_id + " is already finished.");
}

Status TwoResults(const std::string& game_id, uint32_t seat) {
  return Status(store_codes::kBadRecord,
                "Game " + game_id + " has two results for seat " + std::to_string(seat) + ".");
}

Status NoSeatInPlay(const std::string& game_id, int seat) {
  return Status(store_codes::kGameNotFound,
                "Game " + game_id + " has no seat " + std::to_string(seat) + " in play.");
}

Status NotInPlay(const std::string& game_id) {
  return Status(store_codes::kGameNotFound, "Game " + game_id + " is not in play.");
}

Status NotLastAction(const std::string& game_id, uint32_t index) {
  return Status(store_codes::kNotLastAction,
                "Action " + std::to_string(index) + " of game " + game_id +
                    " is not its last stored one.");
}

Status BadCursor(const std::string& before_game_id) {
  return Status(store_codes::kBadCursor,
                "Game " + before_game_id + " is not a finished game to page from.");
}

int64_t SeedToSql(uint64_t seed) { return std::bit_cast<int64_t>(seed); }
uint64_t SeedFromSql(int64_t value) { return std::bit_cast<uint64_t>(value); }

int64_t NowUnixMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::optional<NextIndexes::Known> NextIndexes::Find(const std::string& game_id) const {
  if (auto it = batch_.find(game_id); it != batch_.end()) return it->second;
  if (auto it = committed_.find(game_id); it != committed_.end()) return it->second;
  return std::nullopt;
}

void NextIndexes::Set(const std::string& game_id, Known known, bool in_batch) {
  if (in_batch) {
    batch_[game_id] = known;  // durable once the batch commits
    return;
  }
  if (committed_.size() >= kMaxGames) committed_.clear();
  committed_[game_id] = known;
}

void NextIndexes::Forget(const std::string& game_id) {
  batch_.erase(game_id);
  committed_.erase(game_id);
}

void NextIndexes::CommitBatch() {
  if (committed_.size() + batch_.size() > kMaxGames) committed_.clear();
  for (auto& [game_id, known] : batch_) committed_[game_id] = known;
  batch_.clear();
}

void NextIndexes::DropBatch() {
  for (const auto& [game_id, known] : batch_) committed_.erase(game_id);
  batch_.clear();
}

}  // namespace plateau::server::store_rules
