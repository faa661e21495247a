// Turn timer bookkeeping (server/room/turn_clocks.h) on explicit times: per-decision limits,
// chess-clock banks with increments, simultaneous decisions, runs of timeouts, restarts.
#include "server/room/turn_clocks.h"

#include <gtest/gtest.h>

namespace plateau::server {
namespace {

namespace v1 = plateau::v1;

v1::TurnTimer PerMove(uint32_t seconds, uint32_t abandon = 0) {
  v1::TurnTimer t;
  t.set_mode(v1::TIMER_PER_MOVE);
  t.set_per_move_seconds(seconds);
  t.set_timeouts_to_abandon(abandon);
  return t;
}

v1::TurnTimer Clock(uint32_t bank, uint32_t increment) {
  v1::TurnTimer t;
  t.set_mode(v1::TIMER_CLOCK);
  t.set_bank_seconds(bank);
  t.set_increment_seconds(increment);
  return t;
}

v1::SeatClock Read(const TurnClocks& clocks, int seat, int64_t now) {
  v1::SeatClock c;
  clocks.Fill(seat, now, &c);
  return c;
}

TEST(TurnClocksTest, LimitsOutsideTheirBoundsAreRefusedWithAReason) {
  EXPECT_EQ(TurnClocks::Invalid(v1::TurnTimer()), "");
  EXPECT_EQ(TurnClocks::Invalid(PerMove(10)), "");
  EXPECT_NE(TurnClocks::Invalid(PerMove(9)), "");
  EXPECT_NE(TurnClocks::Invalid(PerMove(86401)), "");
  EXPECT_EQ(TurnClocks::Invalid(Clock(30, 0)), "");
  EXPECT_NE(TurnClocks::Invalid(Clock(29, 5)), "");
  EXPECT_NE(TurnClocks::Invalid(Clock(600, 3601)), "");
  EXPECT_NE(TurnClocks::Invalid(PerMove(60, 21)), "");
  v1::TurnTimer unknown;
  unknown.set_mode(static_cast<v1::TimerMode>(7));
  EXPECT_NE(TurnClocks::Invalid(unknown), "");
}

TEST(TurnClocksTest, WithoutATimerNothingRuns) {
  TurnClocks clocks(v1::TurnTimer(), 2);
  clocks.Start(0, {0});
  EXPECT_FALSE(clocks.enabled());
  EXPECT_FALSE(clocks.NextDeadline());
  EXPECT_FALSE(clocks.Expired(1'000'000'000));
}

TEST(TurnClocksTest, EachDecisionGetsTheSameLimitPerMove) {
  TurnClocks clocks(PerMove(60), 2);
  clocks.Start(1000, {0});
  EXPECT_EQ(clocks.NextDeadline(), 61'000);
  EXPECT_EQ(Read(clocks, 0, 31'000).remaining_ms(), 30'000u);
  EXPECT_TRUE(Read(clocks, 0, 31'000).running());
  EXPECT_FALSE(Read(clocks, 1, 31'000).running());
  EXPECT_FALSE(clocks.Expired(60'999));
  EXPECT_EQ(clocks.Expired(61'000), 0);
  // Seat 0 moves at 40 s and must move again at once: a new decision, a new minute.
  clocks.Moved(0, 40'000, false, true, {0});
  EXPECT_EQ(clocks.NextDeadline(), 100'000);
  // Then seat 1's turn.
  clocks.Moved(0, 50'000, false, true, {1});
  EXPECT_EQ(clocks.NextDeadline(), 110'000);
  EXPECT_FALSE(Read(clocks, 0, 50'000).running());
}

TEST(TurnClocksTest, AClockKeepsWhatIsLeftAndAddsTheIncrementPerMove) {
  TurnClocks clocks(Clock(300, 10), 2);
  clocks.Start(0, {0});
  EXPECT_EQ(clocks.NextDeadline(), 300'000);
  clocks.Moved(0, 100'000, false, true, {1});  // 200 s left, +10
  EXPECT_EQ(Read(clocks, 0, 100'000).remaining_ms(), 210'000u);
  EXPECT_FALSE(Read(clocks, 0, 100'000).running());
  EXPECT_EQ(clocks.NextDeadline(), 400'000);  // seat 1's full bank
  clocks.Moved(1, 150'000, false, true, {0});
  EXPECT_EQ(Read(clocks, 1, 150'000).remaining_ms(), 260'000u);
  EXPECT_EQ(clocks.NextDeadline(), 360'000);  // seat 0's 210 s from 150 s
}

TEST(TurnClocksTest, AnEmptyBankLeavesTheIncrementOrAFloorPerDecision) {
  TurnClocks clocks(Clock(30, 0), 2);
  clocks.Start(0, {0});
  EXPECT_EQ(clocks.Expired(30'000), 0);
  clocks.Moved(0, 30'000, true, false, {0});  // timed out: nothing left, no increment
  // A decision is never shorter than the floor.
  EXPECT_EQ(clocks.NextDeadline(), 30'000 + TurnClocks::kMinDecisionMs);
  TurnClocks with_increment(Clock(30, 8), 1);
  with_increment.Start(0, {0});
  with_increment.Moved(0, 30'000, true, false, {0});
  EXPECT_EQ(with_increment.NextDeadline(), 38'000);
}

TEST(TurnClocksTest, SimultaneousDecisionsRunTogetherAndOneMoveDoesNotStopTheOthers) {
  TurnClocks clocks(PerMove(45), 3);
  clocks.Start(0, {0, 1, 2});
  clocks.Moved(1, 10'000, false, true, {0, 2});
  EXPECT_EQ(clocks.NextDeadline(), 45'000);  // seats 0 and 2 keep their first deadline
  EXPECT_FALSE(Read(clocks, 1, 10'000).running());
  EXPECT_EQ(clocks.Expired(45'000), 0);  // the first to run out is played first
  clocks.Moved(0, 45'000, true, false, {2});
  EXPECT_EQ(clocks.Expired(45'000), 2);
  // Someone else's move can end a decision: that clock stops without a timeout.
  clocks.Moved(2, 46'000, false, true, {0, 1});
  clocks.Moved(1, 47'000, false, true, {2});
  EXPECT_FALSE(Read(clocks, 0, 47'000).running());
  EXPECT_EQ(clocks.timeouts(0), 1);
}

TEST(TurnClocksTest, OnlyTimeoutsInARowAbandonASeatAndThePlayersOwnMoveEndsTheRun) {
  TurnClocks clocks(PerMove(10, 2), 2);
  clocks.Start(0, {0});
  clocks.Moved(0, 10'000, true, false, {0});
  EXPECT_EQ(clocks.timeouts(0), 1);
  EXPECT_FALSE(clocks.Abandoned(0));
  clocks.Moved(0, 15'000, false, true, {0});  // the player's own move
  EXPECT_EQ(clocks.timeouts(0), 0);
  clocks.Moved(0, 25'000, true, false, {0});
  // A bot's move for the seat neither counts as a timeout nor ends the run.
  clocks.Moved(0, 26'000, false, false, {0});
  clocks.Moved(0, 36'000, true, false, {1});
  EXPECT_EQ(clocks.timeouts(0), 2);
  EXPECT_TRUE(clocks.Abandoned(0));
  EXPECT_EQ(Read(clocks, 0, 36'000).timeouts(), 2u);
  clocks.ClearTimeouts(0);
  EXPECT_FALSE(clocks.Abandoned(0));
  TurnClocks never(PerMove(10, 0), 1);
  never.Start(0, {0});
  for (int i = 1; i <= 30; ++i) never.Moved(0, i * 10'000, true, false, {0});
  EXPECT_FALSE(never.Abandoned(0));
}

TEST(TurnClocksTest, AfterARestartARunningClockHasAtLeastTheGrace) {
  TurnClocks clocks(PerMove(60), 2);
  clocks.Start(0, {0});
  // Back up 10 s before the deadline: the deadline stands.
  clocks.Resume(50'000, 5'000);
  EXPECT_EQ(clocks.NextDeadline(), 60'000);
  // Back up after it: the seat gets the grace to return, not a timeout at once.
  clocks.Resume(90'000, 5'000);
  EXPECT_EQ(clocks.NextDeadline(), 95'000);
  EXPECT_FALSE(clocks.Expired(90'000));
}

// The clocks are a function of the moves' times and origins: the same calls give the same
// clocks, which is how a restart rebuilds them from the stored log.
TEST(TurnClocksTest, ReplayingTheSameMovesGivesTheSameClocks) {
  auto play = [] {
    TurnClocks c(Clock(120, 5), 3);
    c.Start(1'000, {0, 1, 2});
    c.Moved(2, 4'000, false, true, {0, 1});
    c.Moved(0, 9'500, false, true, {1});
    c.Moved(1, 121'000, true, false, {1});
    c.Moved(1, 122'000, false, true, {2});
    return c;
  };
  TurnClocks a = play(), b = play();
  for (int seat = 0; seat < 3; ++seat) {
    EXPECT_EQ(Read(a, seat, 130'000).DebugString(), Read(b, seat, 130'000).DebugString());
  }
  EXPECT_EQ(a.NextDeadline(), b.NextDeadline());
}

}  // namespace
}  // namespace plateau::server
