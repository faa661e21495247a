// WeightedOrder: the order in which the easy bot tries the moves a game weighs.
#include <gtest/gtest.h>

#include <algorithm>

#include "engine/core/bot.h"

namespace plateau::engine {
namespace {

TEST(WeightedOrderTest, LeavesOutWhatWeighsNothing) {
  Rng rng(7);
  for (int k = 0; k < 50; ++k) {
    auto order = WeightedOrder({0, 5, 0, 1}, 4, rng);
    std::sort(order.begin(), order.end());
    EXPECT_EQ(order, (std::vector<size_t>{1, 3}));
  }
}

TEST(WeightedOrderTest, EveryMoveWhenNoneIsWeighed) {
  Rng rng(7);
  for (const auto& weights : {std::vector<uint32_t>{}, std::vector<uint32_t>{0, 0, 0},
                              std::vector<uint32_t>{1, 2}}) {  // the last: not one per move
    auto order = WeightedOrder(weights, 3, rng);
    std::sort(order.begin(), order.end());
    EXPECT_EQ(order, (std::vector<size_t>{0, 1, 2}));
  }
  EXPECT_TRUE(WeightedOrder({}, 0, rng).empty());
}

TEST(WeightedOrderTest, FirstDrawnInProportionToWeight) {
  Rng rng(11);
  int first[3] = {0, 0, 0};
  const int draws = 6000;
  for (int k = 0; k < draws; ++k) ++first[WeightedOrder({1, 4, 1}, 3, rng).front()];
  // Expected 1000, 4000, 1000; a fair draw stays within about 4 standard deviations (~110).
  EXPECT_NEAR(first[0], 1000, 150);
  EXPECT_NEAR(first[1], 4000, 150);
  EXPECT_NEAR(first[2], 1000, 150);
}

// The draws are those of a plain scan for the first index whose running sum passes each draw,
// however the sums are kept: the same generator gives the same order.
TEST(WeightedOrderTest, DrawsAsAPlainScanWould) {
  Rng weights_rng(5);
  for (int round = 0; round < 200; ++round) {
    std::vector<uint32_t> weights(1 + weights_rng.Below(70));
    for (auto& w : weights) w = weights_rng.Below(4) == 0 ? 0 : 1 + weights_rng.Below(1000);
    Rng a(round), b(round);
    std::vector<size_t> scanned;
    std::vector<uint32_t> left = weights;
    uint64_t total = 0;
    for (uint32_t w : left) total += w;
    if (total == 0) left.assign(left.size(), 1), total = left.size();
    while (total > 0) {
      uint64_t draw = b.Below(total);
      size_t i = 0;
      while (draw >= left[i]) draw -= left[i++];
      scanned.push_back(i);
      total -= left[i];
      left[i] = 0;
    }
    EXPECT_EQ(WeightedOrder(weights, weights.size(), a), scanned) << "round " << round;
  }
}

TEST(WeightedOrderTest, SameSeedSameOrder) {
  Rng a(3), b(3);
  EXPECT_EQ(WeightedOrder({3, 1, 2, 5, 1}, 5, a), WeightedOrder({3, 1, 2, 5, 1}, 5, b));
}

}  // namespace
}  // namespace plateau::engine
