// Region graphs: building from a border list (and refusing a bad one), and the queries games
// make on them.
#include <gtest/gtest.h>

#include "engine/core/region_graph.h"

namespace plateau::engine {
namespace {

using Edges = std::vector<std::pair<std::string, std::string>>;

RegionGraph Chain() {
  // a - b - c - d, b - e, and f alone.
  auto g = RegionGraph::Build({"a", "b", "c", "d", "e", "f"},
                              {{"a", "b"}, {"c", "b"}, {"c", "d"}, {"e", "b"}});
  EXPECT_TRUE(g.ok()) << g.status().ToString();
  return g.value();
}

TEST(RegionGraph, BordersGoBothWays) {
  const RegionGraph g = Chain();
  EXPECT_EQ(g.size(), 6);
  EXPECT_EQ(g.Find("c"), 2);
  EXPECT_EQ(g.Find("z"), -1);
  EXPECT_EQ(g.Id(4), "e");
  EXPECT_EQ(g.Neighbours(1), (std::vector<int>{0, 2, 4}));
  EXPECT_EQ(g.Neighbours(2), (std::vector<int>{1, 3}));
  EXPECT_TRUE(g.Neighbours(5).empty());
  EXPECT_TRUE(g.Adjacent(2, 1) && g.Adjacent(1, 2));
  EXPECT_FALSE(g.Adjacent(0, 2));
}

TEST(RegionGraph, DistancesPathsAndComponents) {
  const RegionGraph g = Chain();
  EXPECT_EQ(g.Distances(0), (std::vector<int>{0, 1, 2, 3, 2, -1}));
  EXPECT_EQ(g.ShortestPath(0, 3), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(g.ShortestPath(3, 3), (std::vector<int>{3}));
  EXPECT_TRUE(g.ShortestPath(0, 5).empty());
  EXPECT_EQ(g.WithinSteps(0, 2), (std::vector<int>{0, 1, 2, 4}));
  EXPECT_EQ(g.WithinSteps(5, 9), (std::vector<int>{5}));
  EXPECT_EQ(g.Components(), (std::vector<std::vector<int>>{{0, 1, 2, 3, 4}, {5}}));
}

TEST(RegionGraph, AmongShortestPathsTheLowerIndexWins) {
  // Two ways from n to s: through w (index 1) or e (index 2).
  auto g = RegionGraph::Build({"n", "w", "e", "s"}, {{"n", "e"}, {"n", "w"}, {"s", "e"}, {"s", "w"}});
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g->ShortestPath(0, 3), (std::vector<int>{0, 1, 3}));
  EXPECT_EQ(g->ShortestPath(3, 0), (std::vector<int>{3, 1, 0}));
}

void ExpectRefused(std::vector<std::string> ids, Edges edges, const std::string& reason) {
  auto g = RegionGraph::Build(std::move(ids), edges);
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.status().code(), codes::kBadData);
  EXPECT_EQ(g.status().reason(), reason);
}

TEST(RegionGraph, BadBorderListsAreRefusedNamingTheCulprit) {
  ExpectRefused({"a", "b"}, {{"a", "b"}, {"a", "c"}}, "border 1 (a - c): unknown region \"c\"");
  ExpectRefused({"a", "b"}, {{"x", "b"}}, "border 0 (x - b): unknown region \"x\"");
  ExpectRefused({"a", "b"}, {{"b", "b"}}, "border 0 (b - b): a region cannot border itself");
  ExpectRefused({"a", "b"}, {{"a", "b"}, {"b", "a"}}, "border 1 (b - a): listed twice");
  ExpectRefused({"a", "b", "a"}, {}, "region \"a\" is listed twice");
  ExpectRefused({"a", ""}, {}, "region 1 has an empty id");
}

TEST(RegionGraph, AnEmptyMapIsAValidMap) {
  auto g = RegionGraph::Build({}, {});
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g->size(), 0);
  EXPECT_TRUE(g->Components().empty());
}

TEST(RegionGraphDeathTest, AnIndexOutsideTheMapIsABug) {
  const RegionGraph g = Chain();
  EXPECT_DEATH(g.Neighbours(6), "no region 6");
  EXPECT_DEATH(g.Distances(-1), "no region -1");
}

}  // namespace
}  // namespace plateau::engine
