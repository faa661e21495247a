#pragma once
// A map of regions joined by borders (who neighbours whom), for games played on regions rather
// than hexes: neighbours, distances in border crossings, shortest paths, regions within n steps
// and connected groups. Built once from a game's static data and validated there; queries then
// take a region's index (its place in the list the graph was built from) and never fail. The web
// client mirrors it in clients/web/src/ui/region_graph.ts (docs/geometry.md).
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine/core/status.h"

namespace plateau::engine {

class RegionGraph {
 public:
  // `ids` in the order that makes each region's index; `edges` are borders, each listed once
  // (a-b and b-a are the same border). Refused with codes::kBadData and a reason naming the
  // culprit: an empty or repeated id, an edge naming an unknown region, a region bordering
  // itself, a border listed twice.
  static StatusOr<RegionGraph> Build(std::vector<std::string> ids,
                                     const std::vector<std::pair<std::string, std::string>>& edges);

  int size() const { return static_cast<int>(ids_.size()); }
  const std::string& Id(int region) const;
  // -1 when no region has this id.
  int Find(std::string_view id) const;

  // Ordered by index.
  const std::vector<int>& Neighbours(int region) const;
  bool Adjacent(int a, int b) const;
  // Border crossings from `from` to every region, by index; -1 where it cannot be reached.
  std::vector<int> Distances(int from) const;
  // The regions from `from` to `to`, both included, fewest crossings first; empty when `to`
  // cannot be reached. Breadth first with neighbours tried by index, so among shortest paths each
  // region is reached from the lowest-index region one step nearer that was itself reached first.
  std::vector<int> ShortestPath(int from, int to) const;
  // Every region at most n crossings from `from` (itself included), ordered by index.
  std::vector<int> WithinSteps(int from, int n) const;
  // Groups of regions joined by borders, each ordered by index, ordered by their first region.
  std::vector<std::vector<int>> Components() const;

 private:
  void Check(int region) const;
  // Breadth first from `from`: each region's distance and predecessor (-1 where unreached).
  void Search(int from, std::vector<int>& distance, std::vector<int>& previous) const;

  std::vector<std::string> ids_;
  std::unordered_map<std::string, int> index_;
  std::vector<std::vector<int>> neighbours_;
};

}  // namespace plateau::engine
