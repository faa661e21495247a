#include "clients/cli/view_tracker.h"

#include <algorithm>

#include "engine/core/registry.h"
#include "engine/core/view_diff.h"

namespace plateau::cli {

const engine::Game* GameForViewType(const std::string& view_type) {
  for (const engine::Game* game : engine::Registry::All()) {
    if (game->ViewPrototype().GetTypeName() == view_type) return game;
  }
  return nullptr;
}

LogPage PageOfLog(size_t size, uint64_t page, size_t per_page) {
  LogPage p;
  if (per_page == 0) per_page = 1;
  p.pages = std::max<uint64_t>(1, (size + per_page - 1) / per_page);
  if (page == 0 || page > p.pages) return p;
  p.end = size - static_cast<size_t>(page - 1) * per_page;
  p.first = p.end > per_page ? p.end - per_page : 0;
  return p;
}

Status ViewTracker::OnSnapshot(const plateau::v1::Snapshot& snapshot) {
  const engine::Game* game = GameForViewType(snapshot.view_type());
  if (game == nullptr) {
    return Status("unknown_view", "This client does not know the view type '" +
                                      snapshot.view_type() + "'; is it older than the server?");
  }
  std::unique_ptr<google::protobuf::Message> view(game->ViewPrototype().New());
  if (!view->ParseFromString(snapshot.view())) {
    return Status(engine::codes::kMalformed, "The snapshot's view could not be decoded.");
  }
  game_ = game;
  view_ = std::move(view);
  room_id_ = snapshot.room_id();
  version_ = snapshot.version();
  seat_ = snapshot.seat();
  acting_seats_.assign(snapshot.acting_seats().begin(), snapshot.acting_seats().end());
  game_over_ = snapshot.game_over();
  can_undo_ = snapshot.can_undo();
  taken_back_.reset();
  // A Snapshot after a take-back that was missed (a reconnection) shows an older log: dropped
  // silently, as nobody here saw the move.
  std::vector<plateau::v1::LogEntry> dropped;
  DropTakenBack(&dropped);
  KeepLog();
  return Status::Ok();
}

ViewTracker::DiffResult ViewTracker::OnDiff(const plateau::v1::Diff& diff, std::string* error) {
  const uint64_t from = diff.diff().from_version();
  if (view_ == nullptr || diff.room_id() != room_id_) return DiffResult::kGap;
  if (from < version_) return DiffResult::kDuplicate;
  if (from > version_) return DiffResult::kGap;
  // Applied to a copy: ApplyDiff keeps the ops before a bad one, which would corrupt the view.
  std::unique_ptr<google::protobuf::Message> next(view_->New());
  next->CopyFrom(*view_);
  Status st = engine::ApplyDiff(diff.diff().ops(), next.get());
  if (!st.ok()) {
    *error = st.ToString();
    return DiffResult::kBroken;
  }
  view_ = std::move(next);
  version_ = diff.diff().to_version();
  acting_seats_.assign(diff.acting_seats().begin(), diff.acting_seats().end());
  game_over_ = diff.game_over();
  can_undo_ = diff.can_undo();
  taken_back_.reset();
  if (diff.taken_back()) {
    taken_back_.emplace();
    // Whose move it was, when this seat was told whose it was; -1 otherwise.
    taken_back_->seat = diff.has_mover_seat() ? diff.mover_seat() : -1;
    DropTakenBack(&taken_back_->entries);
  }
  KeepLog();
  return DiffResult::kApplied;
}

bool ViewTracker::IsMyTurn() const {
  return view_ != nullptr && !game_over_ &&
         std::find(acting_seats_.begin(), acting_seats_.end(), seat_) != acting_seats_.end();
}

std::string ViewTracker::TurnText(const std::function<std::string(int)>& name) const {
  if (view_ == nullptr) return "no game in progress";
  if (game_over_) return "the game is over";
  std::string others;
  for (int s : acting_seats_) {
    if (s == seat_) continue;
    others += (others.empty() ? "" : ", ") + (name ? name(s) : "seat " + std::to_string(s + 1));
  }
  if (IsMyTurn()) return others.empty() ? "your turn" : "your turn (also " + others + ")";
  if (others.empty()) return "nobody may act";
  return "waiting for " + others;
}

void ViewTracker::KeepLog() {
  const engine::v1::Table* table = engine::ViewTable(*view_);
  if (table == nullptr) return;
  // Entries come in the order they were written and each has a larger seq than the last, so the
  // new ones are those past the newest held (a Snapshot after a gap repeats some of them).
  for (const plateau::v1::LogEntry& entry : table->log()) {
    if (log_.empty() || entry.seq() > log_.back().seq()) log_.push_back(entry);
  }
  if (log_.size() > kLogKept) log_.erase(log_.begin(), log_.end() - kLogKept);
}

void ViewTracker::DropTakenBack(std::vector<plateau::v1::LogEntry>* dropped) {
  const engine::v1::Table* table = engine::ViewTable(*view_);
  if (table == nullptr) return;
  // The view keeps the latest entries it may read, so its newest is the newest left in the game
  // for this seat: any held entry past it was taken back. An empty log has none left at all.
  const std::optional<uint64_t> newest =
      table->log().empty() ? std::nullopt : std::optional<uint64_t>(table->log().rbegin()->seq());
  auto first_gone = std::find_if(log_.begin(), log_.end(), [&](const plateau::v1::LogEntry& e) {
    return !newest.has_value() || e.seq() > *newest;
  });
  dropped->assign(first_gone, log_.end());
  log_.erase(first_gone, log_.end());
  // Entries written from here on reuse those numbers; `view` prints them as new.
  if (shown_seq_.has_value() && (!newest.has_value() || *shown_seq_ > *newest)) shown_seq_ = newest;
}

std::vector<const plateau::v1::LogEntry*> ViewTracker::LogToShow(size_t at_least) const {
  std::vector<const plateau::v1::LogEntry*> out;
  for (size_t i = 0; i < log_.size(); ++i) {
    if (!shown_seq_.has_value() || log_[i].seq() > *shown_seq_ || log_.size() - i <= at_least) out.push_back(&log_[i]);
  }
  return out;
}

}  // namespace plateau::cli
