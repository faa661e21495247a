#pragma once
// The client's copy of one game view: a Snapshot starts it, each Diff moves it one version on.
// Pure (no I/O, no threads) so the version rules are tested without a server: a Diff applies only
// from the version held; an older one is a duplicate and ignored; a newer one means some were
// missed and the caller must Resync from version(); a Diff that does not apply cleanly leaves the
// view untouched and asks for a fresh Snapshot.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/core/game.h"
#include "plateau/v1/protocol.pb.h"

namespace plateau::cli {

using engine::Status;

// The registered game whose View message is `view_type`, or null.
const engine::Game* GameForViewType(const std::string& view_type);

class ViewTracker {
 public:
  enum class DiffResult {
    kApplied,    // the view is now at the diff's to_version
    kDuplicate,  // from an older version than held: already applied, ignored
    kGap,        // from a newer version (or no view yet): Resync{have_version: version()}
    kBroken,     // did not apply: view unchanged; Resync{have_version: 0} for a Snapshot
  };

  // Replaces the view. Fails (changing nothing) when the view cannot be decoded.
  Status OnSnapshot(const plateau::v1::Snapshot& snapshot);
  DiffResult OnDiff(const plateau::v1::Diff& diff, std::string* error);

  bool has_view() const { return view_ != nullptr; }
  const google::protobuf::Message* view() const { return view_.get(); }
  const engine::Game* game() const { return game_; }
  const std::string& room_id() const { return room_id_; }
  uint64_t version() const { return version_; }
  int seat() const { return seat_; }
  const std::vector<int>& acting_seats() const { return acting_seats_; }
  bool game_over() const { return game_over_; }
  bool IsMyTurn() const;
  // "your turn", "waiting for Alice", "game over", ... for people; seats named by `name`, else
  // "seat N" counted from 1.
  std::string TurnText(const std::function<std::string(int)>& name = nullptr) const;

 private:
  const engine::Game* game_ = nullptr;
  std::unique_ptr<google::protobuf::Message> view_;
  std::string room_id_;
  uint64_t version_ = 0;
  int seat_ = engine::kSpectator;
  std::vector<int> acting_seats_;
  bool game_over_ = false;
};

}  // namespace plateau::cli
