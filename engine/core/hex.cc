// Hex-grid geometry (see hex.h); clients/web/src/ui/hex.ts must give the same results.
#include "engine/core/hex.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <queue>
#include <tuple>
#include <unordered_map>

namespace plateau::engine {

std::optional<Hex> FromCube(Cube c) {
  if (c.q + c.r + c.s != 0) return std::nullopt;
  return Hex{c.q, c.r};
}

Hex Neighbour(Hex h, int direction) { return h + kDirections[((direction % 6) + 6) % 6]; }

std::array<Hex, 6> Neighbours(Hex h) {
  std::array<Hex, 6> out;
  for (int d = 0; d < 6; ++d) out[d] = h + kDirections[d];
  return out;
}

int Distance(Hex a, Hex b) {
  const Hex d = a - b;
  return (std::abs(d.q) + std::abs(d.r) + std::abs(d.s())) / 2;
}

Hex RoundCube(double q, double r, double s) {
  // std::round is half away from zero; the web client rounds the same way (not Math.round).
  double rq = std::round(q), rr = std::round(r), rs = std::round(s);
  const double dq = std::abs(rq - q), dr = std::abs(rr - r), ds = std::abs(rs - s);
  if (dq > dr && dq > ds) {
    rq = -rr - rs;
  } else if (dr > ds) {
    rr = -rq - rs;
  }
  // + 0.0 folds a -0 before the conversion is even asked about it.
  return Hex{static_cast<int>(rq + 0.0), static_cast<int>(rr + 0.0)};
}

std::vector<Hex> Line(Hex a, Hex b, LineSide side) {
  const int n = Distance(a, b);
  const double k = side == LineSide::kPositive ? kLineNudge : -kLineNudge;
  // The nudge (+1, +2, -3) sums to zero, so nudged points stay on the q + r + s = 0 plane.
  const double aq = a.q + 1 * k, ar = a.r + 2 * k, as = a.s() - 3 * k;
  const double bq = b.q + 1 * k, br = b.r + 2 * k, bs = b.s() - 3 * k;
  std::vector<Hex> out;
  out.reserve(n + 1);
  if (n == 0) {
    out.push_back(a);
    return out;
  }
  for (int i = 0; i <= n; ++i) {
    // The same operations in the same order as the web client, so the doubles match bit for bit.
    const double t = static_cast<double>(i) / static_cast<double>(n);
    out.push_back(RoundCube(aq + (bq - aq) * t, ar + (br - ar) * t, as + (bs - as) * t));
  }
  return out;
}

std::vector<Hex> WithinRange(Hex center, int n) {
  std::vector<Hex> out;
  for (int dq = -n; dq <= n; ++dq) {
    for (int dr = std::max(-n, -dq - n); dr <= std::min(n, -dq + n); ++dr) {
      out.push_back(center + Hex{dq, dr});
    }
  }
  return out;
}

std::vector<Hex> Ring(Hex center, int radius) {
  if (radius < 0) return {};
  if (radius == 0) return {center};
  std::vector<Hex> out;
  out.reserve(6 * radius);
  Hex h = center + kDirections[kEast] * radius;
  for (int side = 0; side < 6; ++side) {
    for (int step = 0; step < radius; ++step) {
      out.push_back(h);
      h = Neighbour(h, kSouthWest + side);
    }
  }
  return out;
}

Hex OffsetToAxial(Offset o) { return {o.col - (o.row - (o.row & 1)) / 2, o.row}; }

Offset AxialToOffset(Hex h) { return {h.q + (h.r - (h.r & 1)) / 2, h.r}; }

HexMap HexMap::FromHexes(const std::vector<Hex>& hexes) {
  HexMap map;
  map.hexes_ = hexes;
  std::sort(map.hexes_.begin(), map.hexes_.end());
  map.hexes_.erase(std::unique(map.hexes_.begin(), map.hexes_.end()), map.hexes_.end());
  map.set_.insert(map.hexes_.begin(), map.hexes_.end());
  return map;
}

HexMap HexMap::Rectangle(int width, int height) {
  std::vector<Hex> hexes;
  for (int row = 0; row < height; ++row) {
    for (int col = 0; col < width; ++col) hexes.push_back(OffsetToAxial({col, row}));
  }
  return FromHexes(hexes);
}

namespace {

bool ClearBetween(const std::vector<Hex>& line, const HexSet& blocking) {
  for (std::size_t i = 1; i + 1 < line.size(); ++i) {
    if (blocking.contains(line[i])) return false;
  }
  return true;
}

// Dijkstra from `from`, settled in order of (cost, steps, q, r); stops once `to` is settled when
// given, or past `budget`. Returns each settled hex's (cost, steps, predecessor).
struct Settled {
  int cost = 0;
  int steps = 0;
  Hex from;
};

std::map<Hex, Settled> Explore(const HexMap& map, const MoveRules& rules, Hex from,
                               std::optional<Hex> to, std::optional<int> budget) {
  using Key = std::tuple<int, int, int, int>;  // cost, steps, q, r
  std::map<Hex, Settled> settled;
  std::unordered_map<Hex, Settled, HexHash> best;
  std::priority_queue<Key, std::vector<Key>, std::greater<Key>> open;
  if (!map.Contains(from)) return settled;
  best[from] = {0, 0, from};
  open.push({0, 0, from.q, from.r});
  while (!open.empty()) {
    const auto [cost, steps, q, r] = open.top();
    open.pop();
    const Hex h{q, r};
    const Settled& b = best.at(h);
    if (b.cost != cost || b.steps != steps || settled.contains(h)) continue;
    settled[h] = b;
    if (to && h == *to) break;
    for (const Hex& n : Neighbours(h)) {
      if (!map.Contains(n) || rules.blocked.contains(n) || settled.contains(n)) continue;
      const int c = cost + rules.CostOf(n);
      if (budget && c > *budget) continue;
      auto it = best.find(n);
      if (it == best.end() || std::pair(c, steps + 1) < std::pair(it->second.cost, it->second.steps)) {
        best[n] = {c, steps + 1, h};
        open.push({c, steps + 1, n.q, n.r});
      }
    }
  }
  return settled;
}

}  // namespace

bool LineOfSight(Hex from, Hex to, const HexSet& blocking) {
  return ClearBetween(Line(from, to, LineSide::kPositive), blocking) ||
         ClearBetween(Line(from, to, LineSide::kNegative), blocking);
}

int MoveRules::CostOf(Hex h) const {
  auto it = entry_cost.find(h);
  const int c = it == entry_cost.end() ? default_cost : it->second;
  if (c < 0) {
    std::fprintf(stderr, "MoveRules: negative entry cost %d at (%d, %d)\n", c, h.q, h.r);
    std::abort();
  }
  return c;
}

HexPath ShortestPath(const HexMap& map, const MoveRules& rules, Hex from, Hex to) {
  HexPath path;
  if (!map.Contains(from) || !map.Contains(to)) return path;
  if (from != to && (rules.blocked.contains(to) || rules.pass_only.contains(to))) return path;
  const auto settled = Explore(map, rules, from, to, std::nullopt);
  auto it = settled.find(to);
  if (it == settled.end()) return path;
  path.found = true;
  path.cost = it->second.cost;
  for (Hex h = to;; h = settled.at(h).from) {
    path.hexes.push_back(h);
    if (h == from) break;
  }
  std::reverse(path.hexes.begin(), path.hexes.end());
  return path;
}

std::vector<Reach> Reachable(const HexMap& map, const MoveRules& rules, Hex from, int budget) {
  std::vector<Reach> out;
  if (budget < 0) return out;
  for (const auto& [h, s] : Explore(map, rules, from, std::nullopt, budget)) {
    if (h != from && rules.pass_only.contains(h)) continue;
    out.push_back({h, s.cost});
  }
  return out;
}

std::vector<std::vector<Hex>> ConnectedAreas(const std::vector<Hex>& hexes) {
  const HexMap all = HexMap::FromHexes(hexes);
  HexSet seen;
  std::vector<std::vector<Hex>> areas;
  for (const Hex& start : all.hexes()) {
    if (seen.contains(start)) continue;
    std::vector<Hex> area{start};
    seen.insert(start);
    for (std::size_t i = 0; i < area.size(); ++i) {
      for (const Hex& n : Neighbours(area[i])) {
        if (all.Contains(n) && seen.insert(n).second) area.push_back(n);
      }
    }
    std::sort(area.begin(), area.end());
    areas.push_back(std::move(area));
  }
  return areas;
}

}  // namespace plateau::engine
