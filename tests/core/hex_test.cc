// Hex geometry: properties that must hold on any board (the exact answers for chosen cases are
// in the shared vectors, geometry_vectors_test.cc).
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <map>

#include "engine/core/hex.h"
#include "engine/core/rng.h"

namespace plateau::engine {
namespace {

Hex RandomHex(Rng& rng, int span) {
  return {static_cast<int>(rng.Below(2 * span + 1)) - span, static_cast<int>(rng.Below(2 * span + 1)) - span};
}

TEST(Hex, DirectionsAreTheSixNeighboursClockwiseFromEast) {
  EXPECT_EQ(kDirections[kEast], (Hex{1, 0}));
  EXPECT_EQ(kDirections[kSouthEast], (Hex{0, 1}));
  EXPECT_EQ(kDirections[kNorthEast], (Hex{1, -1}));
  for (int d = 0; d < 6; ++d) {
    EXPECT_EQ(Distance({0, 0}, kDirections[d]), 1);
    // Opposite directions are three apart.
    EXPECT_EQ(kDirections[d] + kDirections[(d + 3) % 6], (Hex{0, 0}));
    EXPECT_EQ(Neighbour({4, 4}, d), Neighbour({4, 4}, d + 6));
    EXPECT_EQ(Neighbour({4, 4}, d), Neighbour({4, 4}, d - 6));
  }
}

TEST(Hex, CubeCoordinatesAddUpToZero) {
  const Cube c = ToCube({3, -7});
  EXPECT_EQ(c.q + c.r + c.s, 0);
  EXPECT_EQ(FromCube(c), (Hex{3, -7}));
  EXPECT_EQ(FromCube({1, 1, 1}), std::nullopt);
}

TEST(Hex, LinesStepFromNeighbourToNeighbourAndReverseOntoTheOtherSide) {
  Rng rng(7);
  for (int i = 0; i < 2000; ++i) {
    const Hex a = RandomHex(rng, 12), b = RandomHex(rng, 12);
    for (LineSide side : {LineSide::kPositive, LineSide::kNegative}) {
      const auto line = Line(a, b, side);
      ASSERT_EQ(static_cast<int>(line.size()), Distance(a, b) + 1);
      EXPECT_EQ(line.front(), a);
      EXPECT_EQ(line.back(), b);
      for (std::size_t k = 1; k < line.size(); ++k) EXPECT_EQ(Distance(line[k - 1], line[k]), 1);
      // The nudge is the same for both ends, so the reversed line is the same set of hexes.
      auto back = Line(b, a, side);
      std::reverse(back.begin(), back.end());
      EXPECT_EQ(back, line);
    }
  }
}

TEST(Hex, ATieFallsToOneSideWithThePositiveNudgeAndToTheOtherWithTheNegative) {
  EXPECT_EQ(Line({0, 0}, {2, -1}, LineSide::kPositive), (std::vector<Hex>{{0, 0}, {1, 0}, {2, -1}}));
  EXPECT_EQ(Line({0, 0}, {2, -1}, LineSide::kNegative), (std::vector<Hex>{{0, 0}, {1, -1}, {2, -1}}));
  // No tie: both sides agree.
  EXPECT_EQ(Line({0, 0}, {3, 0}, LineSide::kPositive), Line({0, 0}, {3, 0}, LineSide::kNegative));
}

TEST(Hex, LineOfSightIsSymmetricAndBlockedOnlyByHexesBetween) {
  Rng rng(11);
  for (int i = 0; i < 2000; ++i) {
    const Hex a = RandomHex(rng, 6), b = RandomHex(rng, 6);
    HexSet blocking{a, b};
    for (int k = 0; k < 12; ++k) blocking.insert(RandomHex(rng, 6));
    EXPECT_EQ(LineOfSight(a, b, blocking), LineOfSight(b, a, blocking));
    HexSet ends{a, b};
    EXPECT_TRUE(LineOfSight(a, b, ends));
    // Clear exactly when one of the two nudged lines has nothing blocking between the ends.
    bool clear = false;
    for (LineSide side : {LineSide::kPositive, LineSide::kNegative}) {
      const auto line = Line(a, b, side);
      clear = clear || std::none_of(line.begin() + std::min<std::size_t>(1, line.size()),
                                    line.end() - std::min<std::size_t>(1, line.size() - 1),
                                    [&](Hex h) { return blocking.contains(h); });
    }
    EXPECT_EQ(LineOfSight(a, b, blocking), clear);
  }
  // Grazing between (1,-1) and (1,0): one side blocked leaves sight, both sides take it.
  EXPECT_TRUE(LineOfSight({0, 0}, {2, -1}, {{1, -1}}));
  EXPECT_TRUE(LineOfSight({0, 0}, {2, -1}, {{1, 0}}));
  EXPECT_FALSE(LineOfSight({0, 0}, {2, -1}, {{1, -1}, {1, 0}}));
}

TEST(Hex, RangesAndRingsHoldTheHexesAtTheirDistance) {
  const Hex c{3, -2};
  for (int n = 0; n <= 5; ++n) {
    const auto range = WithinRange(c, n);
    EXPECT_EQ(static_cast<int>(range.size()), 3 * n * (n + 1) + 1);
    EXPECT_TRUE(std::is_sorted(range.begin(), range.end()));
    for (const Hex& h : range) EXPECT_LE(Distance(c, h), n);
    const auto ring = Ring(c, n);
    EXPECT_EQ(static_cast<int>(ring.size()), n == 0 ? 1 : 6 * n);
    for (std::size_t k = 0; k < ring.size(); ++k) {
      EXPECT_EQ(Distance(c, ring[k]), n);
      if (n > 0) {
        EXPECT_EQ(Distance(ring[k], ring[(k + 1) % ring.size()]), 1);
      }
    }
  }
  EXPECT_TRUE(WithinRange(c, -1).empty());
  EXPECT_TRUE(Ring(c, -1).empty());
  EXPECT_EQ(Ring(c, 2).front(), c + (Hex{2, 0}));
}

TEST(Hex, OffsetLayoutRoundTripsAndShovesOddRowsEast) {
  for (int row = -5; row <= 5; ++row) {
    for (int col = -5; col <= 5; ++col) EXPECT_EQ(AxialToOffset(OffsetToAxial({col, row})), (Offset{col, row}));
  }
  // The hex below-right of (0, 0) is column 0 of row 1 (odd rows stand half a hex east).
  EXPECT_EQ(OffsetToAxial({0, 1}), Neighbour({0, 0}, kSouthEast));
  const HexMap map = HexMap::Rectangle(20, 10);
  EXPECT_EQ(map.size(), 200u);
  EXPECT_TRUE(map.Contains(OffsetToAxial({19, 9})));
  EXPECT_FALSE(map.Contains(OffsetToAxial({20, 9})));
}

// Cheapest costs by relaxing every hex until nothing changes: slow, obviously right.
std::map<Hex, int> Relaxed(const HexMap& map, const MoveRules& rules, Hex from) {
  std::map<Hex, int> cost{{from, 0}};
  for (bool changed = true; changed;) {
    changed = false;
    for (const Hex& h : map.hexes()) {
      if (!cost.contains(h)) continue;
      for (const Hex& n : Neighbours(h)) {
        if (!map.Contains(n) || rules.blocked.contains(n) || n == from) continue;
        const int c = cost[h] + rules.CostOf(n);
        if (!cost.contains(n) || c < cost[n]) {
          cost[n] = c;
          changed = true;
        }
      }
    }
  }
  return cost;
}

TEST(Hex, PathsAreTheCheapestAndReachableSetsAgreeWithThem) {
  Rng rng(5);
  for (int trial = 0; trial < 60; ++trial) {
    const HexMap map = HexMap::Rectangle(7, 6);
    MoveRules rules;
    for (const Hex& h : map.hexes()) {
      const int roll = static_cast<int>(rng.Below(10));
      if (roll < 2) rules.blocked.insert(h);
      else if (roll < 4) rules.entry_cost[h] = roll;  // 2 or 3
      else if (roll == 4) rules.entry_cost[h] = 0;
      else if (roll == 5) rules.pass_only.insert(h);
    }
    const Hex from = map.hexes()[rng.Below(map.size())];
    const auto best = Relaxed(map, rules, from);
    const int budget = static_cast<int>(rng.Below(8));
    std::vector<Reach> expected;
    for (const Hex& to : map.hexes()) {
      const HexPath p = ShortestPath(map, rules, from, to);
      const bool stoppable = to == from || (!rules.blocked.contains(to) && !rules.pass_only.contains(to));
      ASSERT_EQ(p.found, stoppable && best.contains(to)) << trial;
      if (!p.found) continue;
      EXPECT_EQ(p.cost, best.at(to));
      ASSERT_EQ(p.hexes.front(), from);
      ASSERT_EQ(p.hexes.back(), to);
      int sum = 0;
      for (std::size_t k = 1; k < p.hexes.size(); ++k) {
        EXPECT_EQ(Distance(p.hexes[k - 1], p.hexes[k]), 1);
        EXPECT_FALSE(rules.blocked.contains(p.hexes[k]));
        sum += rules.CostOf(p.hexes[k]);
      }
      EXPECT_EQ(sum, p.cost);
      if (p.cost <= budget) expected.push_back({to, p.cost});
    }
    EXPECT_EQ(Reachable(map, rules, from, budget), expected) << trial;
  }
}

TEST(Hex, PathsPreferFewerStepsAmongEqualCosts) {
  // West through (-1, 0) costs 2 in two steps; round by the free (0, -1) and (-1, -1) costs 2 in
  // three, and (-1, -1) would be settled before (-1, 0) if steps did not count.
  const HexMap map = HexMap::FromHexes({{0, 0}, {-1, 0}, {-2, 0}, {0, -1}, {-1, -1}});
  MoveRules rules;
  rules.entry_cost[{0, -1}] = 0;
  const HexPath p = ShortestPath(map, rules, {0, 0}, {-2, 0});
  EXPECT_EQ(p.cost, 2);
  EXPECT_EQ(p.hexes, (std::vector<Hex>{{0, 0}, {-1, 0}, {-2, 0}}));
}

TEST(HexDeathTest, ANegativeCostIsABugInTheGame) {
  MoveRules rules;
  rules.entry_cost[{1, 0}] = -1;
  EXPECT_DEATH(ShortestPath(HexMap::Rectangle(3, 3), rules, {0, 0}, {2, 0}), "negative entry cost -1");
}

TEST(Hex, ConnectedAreasPartitionTheHexes) {
  Rng rng(3);
  for (int trial = 0; trial < 100; ++trial) {
    std::vector<Hex> hexes;
    for (int k = 0; k < 30; ++k) hexes.push_back(RandomHex(rng, 4));
    const auto areas = ConnectedAreas(hexes);
    HexSet all(hexes.begin(), hexes.end());
    std::size_t total = 0;
    std::map<Hex, int> area_of;
    for (std::size_t a = 0; a < areas.size(); ++a) {
      total += areas[a].size();
      EXPECT_TRUE(std::is_sorted(areas[a].begin(), areas[a].end()));
      if (a > 0) {
        EXPECT_LT(areas[a - 1].front(), areas[a].front());
      }
      for (const Hex& h : areas[a]) area_of[h] = static_cast<int>(a);
    }
    EXPECT_EQ(total, all.size());
    for (const Hex& h : all) {
      for (const Hex& n : Neighbours(h)) {
        if (all.contains(n)) {
          EXPECT_EQ(area_of.at(h), area_of.at(n));
        }
      }
    }
  }
}

}  // namespace
}  // namespace plateau::engine
