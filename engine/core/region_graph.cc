// A map of regions and borders (see region_graph.h); clients/web/src/ui/region_graph.ts must give
// the same results and refuse the same inputs with the same reasons.
#include "engine/core/region_graph.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace plateau::engine {

StatusOr<RegionGraph> RegionGraph::Build(
    std::vector<std::string> ids, const std::vector<std::pair<std::string, std::string>>& edges) {
  RegionGraph g;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (ids[i].empty()) {
      return Status(codes::kBadData, "region " + std::to_string(i) + " has an empty id");
    }
    if (!g.index_.emplace(ids[i], static_cast<int>(i)).second) {
      return Status(codes::kBadData, "region \"" + ids[i] + "\" is listed twice");
    }
  }
  g.ids_ = std::move(ids);
  g.neighbours_.resize(g.ids_.size());
  for (std::size_t e = 0; e < edges.size(); ++e) {
    const auto& [a, b] = edges[e];
    const std::string where = "border " + std::to_string(e) + " (" + a + " - " + b + ")";
    const int ia = g.Find(a), ib = g.Find(b);
    if (ia < 0 || ib < 0) {
      return Status(codes::kBadData,
                    where + ": unknown region \"" + (ia < 0 ? a : b) + "\"");
    }
    if (ia == ib) return Status(codes::kBadData, where + ": a region cannot border itself");
    if (g.Adjacent(ia, ib)) return Status(codes::kBadData, where + ": listed twice");
    g.neighbours_[ia].push_back(ib);
    g.neighbours_[ib].push_back(ia);
  }
  for (auto& n : g.neighbours_) std::sort(n.begin(), n.end());
  return g;
}

void RegionGraph::Check(int region) const {
  if (region < 0 || region >= size()) {
    // Indices come from Find or from the game's own data: a bad one is a bug, not bad input.
    std::fprintf(stderr, "RegionGraph: no region %d (of %d)\n", region, size());
    std::abort();
  }
}

const std::string& RegionGraph::Id(int region) const {
  Check(region);
  return ids_[region];
}

int RegionGraph::Find(std::string_view id) const {
  auto it = index_.find(std::string(id));
  return it == index_.end() ? -1 : it->second;
}

const std::vector<int>& RegionGraph::Neighbours(int region) const {
  Check(region);
  return neighbours_[region];
}

bool RegionGraph::Adjacent(int a, int b) const {
  Check(a);
  Check(b);
  const auto& n = neighbours_[a];
  return std::find(n.begin(), n.end(), b) != n.end();
}

void RegionGraph::Search(int from, std::vector<int>& distance, std::vector<int>& previous) const {
  Check(from);
  distance.assign(ids_.size(), -1);
  previous.assign(ids_.size(), -1);
  std::vector<int> queue{from};
  distance[from] = 0;
  for (std::size_t i = 0; i < queue.size(); ++i) {
    const int r = queue[i];
    for (int n : neighbours_[r]) {
      if (distance[n] >= 0) continue;
      distance[n] = distance[r] + 1;
      previous[n] = r;
      queue.push_back(n);
    }
  }
}

std::vector<int> RegionGraph::Distances(int from) const {
  std::vector<int> distance, previous;
  Search(from, distance, previous);
  return distance;
}

std::vector<int> RegionGraph::ShortestPath(int from, int to) const {
  Check(to);
  std::vector<int> distance, previous;
  Search(from, distance, previous);
  if (distance[to] < 0) return {};
  std::vector<int> path;
  for (int r = to; r >= 0; r = previous[r]) path.push_back(r);
  std::reverse(path.begin(), path.end());
  return path;
}

std::vector<int> RegionGraph::WithinSteps(int from, int n) const {
  std::vector<int> out;
  const std::vector<int> distance = Distances(from);
  for (int r = 0; r < size(); ++r) {
    if (distance[r] >= 0 && distance[r] <= n) out.push_back(r);
  }
  return out;
}

std::vector<std::vector<int>> RegionGraph::Components() const {
  std::vector<bool> seen(ids_.size(), false);
  std::vector<std::vector<int>> out;
  for (int start = 0; start < size(); ++start) {
    if (seen[start]) continue;
    std::vector<int> group;
    // One search per group, from its lowest-index region.
    const std::vector<int> distance = Distances(start);
    for (int r = 0; r < size(); ++r) {
      if (distance[r] >= 0) {
        seen[r] = true;
        group.push_back(r);
      }
    }
    out.push_back(std::move(group));
  }
  return out;
}

}  // namespace plateau::engine
