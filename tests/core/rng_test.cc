#include "engine/core/rng.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

namespace plateau::engine {
namespace {

// Stored games replay only if these numbers never change: they are splitmix64's published
// reference outputs for seed 0.
TEST(RngTest, MatchesSplitMix64ReferenceOutputs) {
  Rng rng(0);
  EXPECT_EQ(rng.Next(), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(rng.Next(), 0x6e789e6aa1b965f4ULL);
  EXPECT_EQ(rng.Next(), 0x06c45d188009454fULL);
}

TEST(RngTest, SameSeedSameSequence) {
  Rng a(42), b(42), c(43);
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    uint64_t x = a.Next();
    EXPECT_EQ(x, b.Next());
    differs |= x != c.Next();
  }
  EXPECT_TRUE(differs);
}

TEST(RngTest, BelowStaysInRangeAndHitsEveryValue) {
  Rng rng(7);
  std::vector<int> seen(6, 0);
  for (int i = 0; i < 6000; ++i) {
    uint64_t v = rng.Below(6);
    ASSERT_LT(v, 6u);
    ++seen[v];
  }
  for (int count : seen) EXPECT_GT(count, 800);  // each face about 1000 times
}

TEST(RngTest, ShuffleIsAPermutationAndDeterministic) {
  std::vector<int> v(52);
  std::iota(v.begin(), v.end(), 0);
  auto a = v, b = v;
  Rng r1(99), r2(99);
  r1.Shuffle(a);
  r2.Shuffle(b);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, v);
  std::sort(a.begin(), a.end());
  EXPECT_EQ(a, v);
}

// The shuffle's exact output is part of the replay format: pin it.
TEST(RngTest, ShuffleGolden) {
  std::vector<int> v = {0, 1, 2, 3, 4, 5, 6, 7};
  Rng rng(2024);
  rng.Shuffle(v);
  std::vector<int> again = {0, 1, 2, 3, 4, 5, 6, 7};
  Rng rng2(2024);
  rng2.Shuffle(again);
  EXPECT_EQ(v, again);
  // Recorded from this implementation; a change here breaks every stored game.
  EXPECT_EQ(v, (std::vector<int>{4, 7, 1, 2, 6, 3, 0, 5}));
}

}  // namespace
}  // namespace plateau::engine
