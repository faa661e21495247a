// The client's view tracking, without a network: Snapshot, then Diffs applied only from the
// version held (duplicates ignored, gaps and broken diffs reported so the client resyncs).
// Views come from real Globalissimo games (2 seats, one round, seed 1) and diffs from the
// engine's ComputeDiff, exactly what the server sends.
#include <gtest/gtest.h>

#include "clients/cli/view_tracker.h"
#include "engine/core/registry.h"
#include "engine/core/view_diff.h"

namespace plateau::cli {
namespace {

using plateau::v1::Diff;
using plateau::v1::Snapshot;

class ViewTrackerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(engine::Registry::LoadAll().ok());
    game_ = engine::Registry::Find("globalissimo");
    ASSERT_NE(game_, nullptr);
    auto options = game_->ParseOptions("");
    ASSERT_TRUE(options.ok());
    options.value()->GetReflection()->SetUInt32(
        options.value().get(), options.value()->GetDescriptor()->FindFieldByName("rounds"), 1);
    auto state = game_->NewGame(2, engine::DeterministicBytes(*options.value()), 1);
    ASSERT_TRUE(state.ok());
    state_ = std::move(state.value());
  }

  Snapshot SnapshotFor(int seat, uint64_t version) const {
    Snapshot s;
    s.set_room_id("r1");
    s.set_version(version);
    s.set_seat(seat);
    s.set_view_type(game_->ViewPrototype().GetTypeName());
    s.set_view(engine::DeterministicBytes(*state_->View(seat)));
    for (int a : state_->ActingSeats()) s.add_acting_seats(a);
    s.set_game_over(state_->IsTerminal());
    return s;
  }

  // Plays `action` for `seat` and returns the Diff of `viewer`'s view from `from` to `from + 1`.
  Diff Play(int seat, const std::string& action, int viewer, uint64_t from) {
    auto before = state_->View(viewer);
    EXPECT_TRUE(state_->ApplyText(seat, action).ok());
    auto after = state_->View(viewer);
    Diff d;
    d.set_room_id("r1");
    d.mutable_diff()->set_from_version(from);
    d.mutable_diff()->set_to_version(from + 1);
    for (auto& op : engine::ComputeDiff(*before, *after)) *d.mutable_diff()->add_ops() = op;
    for (int a : state_->ActingSeats()) d.add_acting_seats(a);
    d.set_game_over(state_->IsTerminal());
    return d;
  }

  std::string ViewBytes(const ViewTracker& t) const { return engine::DeterministicBytes(*t.view()); }

  const engine::Game* game_ = nullptr;
  std::unique_ptr<engine::State> state_;
  std::string error_;
};

TEST_F(ViewTrackerTest, FindsTheGameByViewType) {
  EXPECT_EQ(GameForViewType("plateau.games.globalissimo.View"), game_);
  EXPECT_EQ(GameForViewType("plateau.games.chess.View"), nullptr);
}

TEST_F(ViewTrackerTest, SnapshotStartsTheView) {
  ViewTracker t;
  EXPECT_FALSE(t.has_view());
  EXPECT_EQ(t.TurnText(), "no game in progress");
  ASSERT_TRUE(t.OnSnapshot(SnapshotFor(0, 1)).ok());
  EXPECT_TRUE(t.has_view());
  EXPECT_EQ(t.game(), game_);
  EXPECT_EQ(t.version(), 1u);
  EXPECT_EQ(t.seat(), 0);
  EXPECT_TRUE(t.IsMyTurn());
  EXPECT_EQ(t.TurnText(), "your turn");
  EXPECT_EQ(ViewBytes(t), engine::DeterministicBytes(*state_->View(0)));
}

TEST_F(ViewTrackerTest, DiffsFollowTheGame) {
  ViewTracker t;
  ASSERT_TRUE(t.OnSnapshot(SnapshotFor(1, 1)).ok());
  EXPECT_EQ(t.TurnText(), "waiting for seat 1");
  EXPECT_EQ(t.OnDiff(Play(0, "place { slot: 0 position: 1 }", 1, 1), &error_),
            ViewTracker::DiffResult::kApplied);
  EXPECT_EQ(t.version(), 2u);
  EXPECT_TRUE(t.IsMyTurn());
  EXPECT_EQ(ViewBytes(t), engine::DeterministicBytes(*state_->View(1)));
  EXPECT_EQ(t.OnDiff(Play(1, "place { slot: 4 position: 2 }", 1, 2), &error_),
            ViewTracker::DiffResult::kApplied);
  EXPECT_EQ(t.version(), 3u);
  EXPECT_TRUE(t.game_over());
  EXPECT_FALSE(t.IsMyTurn());
  EXPECT_EQ(t.TurnText(), "the game is over");
  EXPECT_EQ(ViewBytes(t), engine::DeterministicBytes(*state_->View(1)));
}

TEST_F(ViewTrackerTest, DuplicateDiffIsIgnored) {
  ViewTracker t;
  ASSERT_TRUE(t.OnSnapshot(SnapshotFor(0, 1)).ok());
  Diff d = Play(0, "place { slot: 0 position: 1 }", 0, 1);
  ASSERT_EQ(t.OnDiff(d, &error_), ViewTracker::DiffResult::kApplied);
  const std::string bytes = ViewBytes(t);
  EXPECT_EQ(t.OnDiff(d, &error_), ViewTracker::DiffResult::kDuplicate);
  EXPECT_EQ(t.version(), 2u);
  EXPECT_EQ(ViewBytes(t), bytes);
}

TEST_F(ViewTrackerTest, GapAsksForResyncAndKeepsTheView) {
  ViewTracker t;
  ASSERT_TRUE(t.OnSnapshot(SnapshotFor(1, 1)).ok());
  const std::string v1 = ViewBytes(t);
  Play(0, "place { slot: 0 position: 1 }", 1, 1);  // diff 1 -> 2 lost on the way
  Diff d3 = Play(1, "place { slot: 4 position: 2 }", 1, 2);
  EXPECT_EQ(t.OnDiff(d3, &error_), ViewTracker::DiffResult::kGap);
  EXPECT_EQ(t.version(), 1u);
  EXPECT_EQ(ViewBytes(t), v1);
  // The server answers a Resync with a snapshot of the current version.
  ASSERT_TRUE(t.OnSnapshot(SnapshotFor(1, 3)).ok());
  EXPECT_EQ(t.version(), 3u);
  EXPECT_TRUE(t.game_over());
}

TEST_F(ViewTrackerTest, DiffWithoutViewOrForAnotherRoomIsAGap) {
  ViewTracker t;
  Diff d = Play(0, "place { slot: 0 position: 1 }", 0, 1);
  EXPECT_EQ(t.OnDiff(d, &error_), ViewTracker::DiffResult::kGap);
  EXPECT_FALSE(t.has_view());
  ViewTracker other;
  Snapshot s = SnapshotFor(0, 2);
  s.set_room_id("r2");
  ASSERT_TRUE(other.OnSnapshot(s).ok());
  d.mutable_diff()->set_from_version(2);
  EXPECT_EQ(other.OnDiff(d, &error_), ViewTracker::DiffResult::kGap);
}

TEST_F(ViewTrackerTest, BrokenDiffLeavesTheViewUntouched) {
  ViewTracker t;
  ASSERT_TRUE(t.OnSnapshot(SnapshotFor(0, 1)).ok());
  const std::string v1 = ViewBytes(t);
  Diff d = Play(0, "place { slot: 0 position: 1 }", 0, 1);
  ASSERT_GT(d.diff().ops_size(), 0);
  // A valid op first, then one naming a field the view does not have.
  auto* bad = d.mutable_diff()->add_ops();
  bad->add_path(999);
  bad->mutable_set_scalar()->set_int_value(1);
  EXPECT_EQ(t.OnDiff(d, &error_), ViewTracker::DiffResult::kBroken);
  EXPECT_FALSE(error_.empty());
  EXPECT_EQ(t.version(), 1u);
  EXPECT_EQ(ViewBytes(t), v1);
  EXPECT_TRUE(t.IsMyTurn());
}

TEST_F(ViewTrackerTest, BadSnapshotsChangeNothing) {
  ViewTracker t;
  ASSERT_TRUE(t.OnSnapshot(SnapshotFor(0, 1)).ok());
  Snapshot unknown = SnapshotFor(0, 5);
  unknown.set_view_type("plateau.games.chess.View");
  EXPECT_EQ(t.OnSnapshot(unknown).code(), "unknown_view");
  Snapshot garbage = SnapshotFor(0, 5);
  garbage.set_view("\xff\xff\xff");
  EXPECT_EQ(t.OnSnapshot(garbage).code(), engine::codes::kMalformed);
  EXPECT_EQ(t.version(), 1u);
}

TEST_F(ViewTrackerTest, KeepsTheLogAcrossVersionsOnce) {
  ViewTracker t;
  ASSERT_TRUE(t.OnSnapshot(SnapshotFor(1, 1)).ok());
  const size_t at_start = t.log().size();
  ASSERT_GT(at_start, 0u);
  ASSERT_EQ(t.OnDiff(Play(0, "place { slot: 0 position: 1 }", 1, 1), &error_),
            ViewTracker::DiffResult::kApplied);
  ASSERT_EQ(t.OnDiff(Play(1, "place { slot: 4 position: 2 }", 1, 2), &error_),
            ViewTracker::DiffResult::kApplied);
  // A resync's snapshot repeats entries already held: they are kept once.
  ASSERT_TRUE(t.OnSnapshot(SnapshotFor(1, 3)).ok());
  const auto final_view = state_->View(1);
  const auto& view_log = engine::ViewTable(*final_view)->log();
  ASSERT_EQ(t.log().size(), static_cast<size_t>(view_log.size()));
  for (size_t i = 0; i < t.log().size(); ++i) {
    EXPECT_EQ(t.log()[i].seq(), view_log[static_cast<int>(i)].seq());
    if (i > 0) {
      EXPECT_GT(t.log()[i].seq(), t.log()[i - 1].seq());
    }
  }
  EXPECT_GT(t.log().size(), at_start + 2);
}

TEST_F(ViewTrackerTest, ViewShowsEveryUnseenEntryThenTheLatestFew) {
  ViewTracker t;
  ASSERT_TRUE(t.OnSnapshot(SnapshotFor(1, 1)).ok());
  ASSERT_EQ(t.OnDiff(Play(0, "place { slot: 0 position: 1 }", 1, 1), &error_),
            ViewTracker::DiffResult::kApplied);
  ASSERT_EQ(t.OnDiff(Play(1, "place { slot: 4 position: 2 }", 1, 2), &error_),
            ViewTracker::DiffResult::kApplied);
  // The game's end wrote more than four entries: none of them is left out before it is seen.
  ASSERT_GT(t.log().size(), 4u);
  EXPECT_EQ(t.LogToShow(4).size(), t.log().size());
  t.MarkLogShown();
  const auto again = t.LogToShow(4);
  ASSERT_EQ(again.size(), 4u);
  EXPECT_EQ(again.back()->seq(), t.log().back().seq());
  EXPECT_EQ(t.LogToShow(0).size(), 0u);
}

// A move taken back: the Diff back to the position before it (as the server sends it, marked
// with whose move it was) takes the move's entries out of the kept log and says what they were;
// the move played instead writes entries with the same numbers, and they are kept and shown.
TEST_F(ViewTrackerTest, AMoveTakenBackLeavesTheLogAndTheNextOneIsKept) {
  ViewTracker t;
  ASSERT_TRUE(t.OnSnapshot(SnapshotFor(1, 1)).ok());
  EXPECT_FALSE(t.can_undo());
  const size_t at_start = t.log().size();
  const std::unique_ptr<engine::State> before = state_->Clone();
  Diff moved = Play(0, "place { slot: 0 position: 1 }", 1, 1);
  ASSERT_EQ(t.OnDiff(moved, &error_), ViewTracker::DiffResult::kApplied);
  EXPECT_FALSE(t.taken_back().has_value());
  ASSERT_GT(t.log().size(), at_start);
  const std::vector<plateau::v1::LogEntry> the_move(t.log().begin() + static_cast<long>(at_start), t.log().end());
  t.MarkLogShown();

  Diff back;
  back.set_room_id("r1");
  back.mutable_diff()->set_from_version(2);
  back.mutable_diff()->set_to_version(3);
  for (auto& op : engine::ComputeDiff(*state_->View(1), *before->View(1))) *back.mutable_diff()->add_ops() = op;
  for (int a : before->ActingSeats()) back.add_acting_seats(a);
  back.set_taken_back(true);
  back.set_mover_seat(0);
  ASSERT_EQ(t.OnDiff(back, &error_), ViewTracker::DiffResult::kApplied);
  EXPECT_EQ(ViewBytes(t), engine::DeterministicBytes(*before->View(1)));
  ASSERT_TRUE(t.taken_back().has_value());
  EXPECT_EQ(t.taken_back()->seat, 0);
  ASSERT_EQ(t.taken_back()->entries.size(), the_move.size());
  for (size_t i = 0; i < the_move.size(); ++i) {
    EXPECT_EQ(t.taken_back()->entries[i].SerializeAsString(), the_move[i].SerializeAsString());
  }
  EXPECT_EQ(t.log().size(), at_start);

  state_ = before->Clone();
  ASSERT_EQ(t.OnDiff(Play(0, "place { slot: 1 position: 2 }", 1, 3), &error_),
            ViewTracker::DiffResult::kApplied);
  EXPECT_FALSE(t.taken_back().has_value());
  const auto view = state_->View(1);
  const auto& view_log = engine::ViewTable(*view)->log();
  ASSERT_EQ(t.log().size(), static_cast<size_t>(view_log.size()));
  EXPECT_EQ(t.log().back().SerializeAsString(), view_log.rbegin()->SerializeAsString());
  // The new move's entries are unseen, though numbered like those already shown.
  EXPECT_EQ(t.LogToShow(0).size(), t.log().size() - at_start);
}

TEST_F(ViewTrackerTest, CanUndoFollowsTheServer) {
  ViewTracker t;
  Snapshot s = SnapshotFor(0, 1);
  s.set_can_undo(true);
  ASSERT_TRUE(t.OnSnapshot(s).ok());
  EXPECT_TRUE(t.can_undo());
  ASSERT_EQ(t.OnDiff(Play(0, "place { slot: 0 position: 1 }", 0, 1), &error_),
            ViewTracker::DiffResult::kApplied);
  EXPECT_FALSE(t.can_undo());
  Diff d = Play(1, "place { slot: 4 position: 2 }", 0, 2);
  d.set_can_undo(true);
  ASSERT_EQ(t.OnDiff(d, &error_), ViewTracker::DiffResult::kApplied);
  EXPECT_TRUE(t.can_undo());
}

TEST(LogPages, NewestFirstPageByPage) {
  LogPage p = PageOfLog(45, 1, 20);
  EXPECT_EQ(p.pages, 3u);
  EXPECT_EQ(p.first, 25u);
  EXPECT_EQ(p.end, 45u);
  p = PageOfLog(45, 3, 20);
  EXPECT_EQ(p.first, 0u);
  EXPECT_EQ(p.end, 5u);
  p = PageOfLog(45, 4, 20);
  EXPECT_EQ(p.first, p.end);
  p = PageOfLog(3, 1, 20);
  EXPECT_EQ(p.pages, 1u);
  EXPECT_EQ(p.first, 0u);
  EXPECT_EQ(p.end, 3u);
}

TEST_F(ViewTrackerTest, SpectatorIsNeverToAct) {
  ViewTracker t;
  ASSERT_TRUE(t.OnSnapshot(SnapshotFor(engine::kSpectator, 1)).ok());
  EXPECT_FALSE(t.IsMyTurn());
  EXPECT_EQ(t.TurnText(), "waiting for seat 1");
}

}  // namespace
}  // namespace plateau::cli
