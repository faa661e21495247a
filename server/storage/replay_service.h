#pragma once
// Replays of finished games, re-simulated by the engine from the stored (game, options, seed,
// action log), so what a viewer steps through is exactly what the rules produce, and any seat's
// view (or the spectator's) can be shown.
//
// Stepping: a request for step N starts from the nearest re-simulated state at or before N kept
// in a small cache, clones it and applies the remaining actions. Bounds:
//   * at most kMaxCachedGames games (least recently used is dropped);
//   * per game, a checkpoint every kCheckpointEvery steps (step 0 included) plus the
//     kRecentSteps most recently requested steps, i.e. at most
//     steps / kCheckpointEvery + 1 + kRecentSteps states.
// So stepping forward one at a time applies one action per request, and any request (backwards
// or a jump) applies at most kCheckpointEvery - 1 actions once its game's checkpoints exist.
// Finished games never change, so cached records and states never go stale.
//
// Thread-safe: the cache is behind a mutex; loading and simulation happen outside it.
//
// Privacy (see Replays): a cached game keeps who may see it, and every request is checked against
// that before anything about the game is answered, cache hit or not.
#include <atomic>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "engine/core/game.h"
#include "plateau/v1/protocol.pb.h"
#include "server/replays.h"
#include "server/store.h"

namespace plateau::server {

namespace replay_codes {
// Unknown, not finished, or private and hidden from the asker: the three are indistinguishable.
inline constexpr const char* kReplayNotFound = "replay_not_found";
inline constexpr const char* kStepOutOfRange = "step_out_of_range";
inline constexpr const char* kBadSeat = "bad_seat";
// The stored log no longer replays (for example the game's rules or data changed since).
inline constexpr const char* kReplayCorrupt = "replay_corrupt";
}  // namespace replay_codes

class ReplayService : public Replays {
 public:
  static constexpr uint32_t kDefaultListLimit = 50;
  static constexpr uint32_t kMaxListLimit = 200;
  static constexpr size_t kMaxCachedGames = 8;
  static constexpr uint32_t kCheckpointEvery = 16;
  static constexpr size_t kRecentSteps = 4;

  // `store` must outlive the service. Games are looked up in engine::Registry (loaded on first
  // use if nobody has yet).
  explicit ReplayService(Store& store);
  ~ReplayService() override;

  ReplayService(const ReplayService&) = delete;
  ReplayService& operator=(const ReplayService&) = delete;

  // Finished games, newest first. limit 0 means kDefaultListLimit; larger than kMaxListLimit is
  // capped.
  StatusOr<plateau::v1::ReplayList> List(const plateau::v1::ListReplays& request,
                                         const std::string& viewer_player_id) override;
  // The view of `request.seat` (-1: spectator) after `request.step` actions.
  StatusOr<plateau::v1::Replay> Get(const plateau::v1::GetReplay& request,
                                    const std::string& viewer_player_id) override;
  // The stored GameRecord, serialized deterministically: a self-contained replay file.
  StatusOr<plateau::v1::ReplayExport> Export(const plateau::v1::ExportReplay& request,
                                             const std::string& viewer_player_id) override;

  // Actions re-applied by the engine since construction: the work the cache saves, exposed for
  // metrics and for the tests that hold the bounds above.
  uint64_t ActionsApplied() const { return actions_applied_.load(std::memory_order_relaxed); }

 private:
  struct CachedGame;

  // The cached game, loading it (and simulating step 0) on a miss; replay_not_found unless the
  // viewer may see it.
  StatusOr<std::shared_ptr<CachedGame>> Acquire(const std::string& game_id,
                                                const std::string& viewer_player_id,
                                                const std::string& replay_token);
  // Who may see a finished game, or replay_not_found when it is unknown, unfinished or hidden
  // from this viewer.
  StatusOr<GameAccess> Admit(const std::string& game_id, const std::string& viewer_player_id,
                             const std::string& replay_token);
  // A finished game's record, or replay_not_found.
  StatusOr<plateau::v1::GameRecord> LoadFinished(const std::string& game_id);
  // The state after `step` actions (step already checked against the log).
  StatusOr<std::shared_ptr<const engine::State>> StateAt(CachedGame& game, uint32_t step);
  // Every move of the game in words as `seat` reads them (a spectator: the public entries).
  Status AddMoves(const CachedGame& game, int seat, plateau::v1::Replay* replay);

  Store& store_;
  std::mutex mu_;
  std::list<std::shared_ptr<CachedGame>> lru_;  // most recently used first; guarded by mu_
  std::atomic<uint64_t> actions_applied_{0};
};

}  // namespace plateau::server
