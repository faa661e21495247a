#pragma once
// The client's copy of one game view: a Snapshot starts it, each Diff moves it one version on.
// Pure (no I/O, no threads) so the version rules are tested without a server: a Diff applies only
// from the version held; an older one is a duplicate and ignored; a newer one means some were
// missed and the caller must Resync from version(); a Diff that does not apply cleanly leaves the
// view untouched and asks for a fresh Snapshot.
//
// It also keeps the game's log as this seat read it across versions (a view carries only the
// latest entries), so nothing the engine wrote scrolls away before the player has seen it. A move
// taken back (UndoMove) leaves the log with its entries: they leave the kept log too, and are
// what the player is told was taken back.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/game.h"
#include "plateau/v1/protocol.pb.h"

namespace plateau::cli {

using engine::Status;

// The registered game whose View message is `view_type`, or null.
const engine::Game* GameForViewType(const std::string& view_type);

// Which entries of a log of `size` entries page `page` shows, `per_page` a page: page 1 holds
// the newest, oldest first within it. `first == end` when there is no such page.
struct LogPage {
  size_t first = 0;
  size_t end = 0;
  uint64_t pages = 1;
};
LogPage PageOfLog(size_t size, uint64_t page, size_t per_page);

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
  // The server says this seat may take back its last move now (Snapshot/Diff can_undo).
  bool can_undo() const { return can_undo_; }
  // What the last applied Diff took back, when it took a move back: whose move, and the log
  // entries this seat had read of it (none when it wrote nothing this seat may read).
  struct TakenBack {
    int seat = engine::kSpectator;
    std::vector<plateau::v1::LogEntry> entries;
  };
  const std::optional<TakenBack>& taken_back() const { return taken_back_; }
  bool IsMyTurn() const;
  // "your turn", "waiting for Alice", "game over", ... for people; seats named by `name`, else
  // "seat N" counted from 1.
  std::string TurnText(const std::function<std::string(int)>& name = nullptr) const;

  // Every log entry this seat has read in this game, oldest first (at most kLogKept).
  static constexpr size_t kLogKept = 5000;
  const std::vector<plateau::v1::LogEntry>& log() const { return log_; }
  // The entries `view` prints: those not printed yet, and at least the latest `at_least`.
  // MarkLogShown() records that they were.
  std::vector<const plateau::v1::LogEntry*> LogToShow(size_t at_least) const;
  void MarkLogShown() {
    if (!log_.empty()) shown_seq_ = log_.back().seq();
  }

 private:
  void KeepLog();  // adds the view's entries newer than those held
  // The view went back to an earlier position: the held entries past the view's newest leave
  // the log (into `dropped`), so the entries written next, which reuse their numbers, are kept.
  void DropTakenBack(std::vector<plateau::v1::LogEntry>* dropped);

  const engine::Game* game_ = nullptr;
  std::unique_ptr<google::protobuf::Message> view_;
  std::string room_id_;
  uint64_t version_ = 0;
  int seat_ = engine::kSpectator;
  std::vector<int> acting_seats_;
  bool game_over_ = false;
  bool can_undo_ = false;
  std::optional<TakenBack> taken_back_;
  std::vector<plateau::v1::LogEntry> log_;
  std::optional<uint64_t> shown_seq_;  // the last entry `view` printed (seqs start at 0)
};

}  // namespace plateau::cli
