#pragma once
// Rooms run on several io threads and each calls the store from its own strand. The Store
// contract does not promise thread safety, so every call goes through one mutex here. Calls are
// short (one SQLite statement or transaction); serializing them costs little next to the
// durability wait itself.
#include <mutex>

#include "server/store.h"

namespace plateau::server {

class LockedStore : public Store {
 public:
  explicit LockedStore(Store& inner) : inner_(inner) {}

  Status SavePlayer(const std::string& token, const StoredPlayer& player) override;
  StatusOr<std::optional<StoredPlayer>> FindPlayer(const std::string& token) override;
  Status BeginGame(const plateau::v1::GameRecord& record, const RoomRecord& room) override;
  Status AppendAction(const std::string& game_id, uint32_t index,
                      const plateau::v1::ReplayAction& action) override;
  Status FinishGame(const std::string& game_id, const std::vector<plateau::v1::SeatResult>& results,
                    int64_t finished_unix_ms) override;
  StatusOr<std::optional<plateau::v1::GameRecord>> LoadGame(const std::string& game_id) override;
  StatusOr<std::vector<plateau::v1::ReplaySummary>> ListFinished(
      const std::string& game, uint32_t limit, const std::string& before_game_id) override;
  StatusOr<std::vector<Unfinished>> LoadUnfinished() override;

 private:
  std::mutex mu_;
  Store& inner_;
};

}  // namespace plateau::server
