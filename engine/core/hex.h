#pragma once
// Hex-grid geometry for boards of hexes: axial coordinates, directions, distance, lines, ranges,
// rings, map shapes, line of sight, movement paths and connected areas. Pure functions over
// integers (lines use doubles, with a fixed nudge so that ties fall the same way everywhere).
// The web client mirrors this file in clients/web/src/ui/hex.ts; tests/geometry/vectors.json
// holds the results both must give. The conventions are in docs/geometry.md.
#include <array>
#include <compare>
#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <unordered_set>
#include <vector>

namespace plateau::engine {

// Axial coordinates of a pointy-top hex: q grows eastwards, r grows downwards (south-east), as
// plateau.v1.Hex sends them. Hexes order by q, then r: every list below comes out in that order
// unless it says otherwise (a line, a ring, a path).
struct Hex {
  int q = 0;
  int r = 0;
  int s() const { return -q - r; }
  friend bool operator==(const Hex&, const Hex&) = default;
  friend auto operator<=>(const Hex&, const Hex&) = default;
};

inline Hex operator+(Hex a, Hex b) { return {a.q + b.q, a.r + b.r}; }
inline Hex operator-(Hex a, Hex b) { return {a.q - b.q, a.r - b.r}; }
inline Hex operator*(Hex a, int k) { return {a.q * k, a.r * k}; }

struct HexHash {
  std::size_t operator()(const Hex& h) const {
    const unsigned long long q = static_cast<unsigned>(h.q), r = static_cast<unsigned>(h.r);
    return std::hash<unsigned long long>()((q << 32) | r);
  }
};
using HexSet = std::unordered_set<Hex, HexHash>;

// Cube coordinates: q + r + s == 0.
struct Cube {
  int q = 0;
  int r = 0;
  int s = 0;
  friend bool operator==(const Cube&, const Cube&) = default;
};
inline Cube ToCube(Hex h) { return {h.q, h.r, h.s()}; }
// Nullopt when the three do not add up to zero.
std::optional<Hex> FromCube(Cube c);

// The six directions, clockwise from east as drawn (r grows downwards). A direction's index is
// part of the contract: the web client draws a hex's edge d between its corners d+1 and d+2.
enum Direction : int { kEast = 0, kSouthEast, kSouthWest, kWest, kNorthWest, kNorthEast };
inline constexpr std::array<Hex, 6> kDirections = {
    Hex{1, 0}, Hex{0, 1}, Hex{-1, 1}, Hex{-1, 0}, Hex{0, -1}, Hex{1, -1}};

// `direction` is taken modulo 6 (-1 is north-east).
Hex Neighbour(Hex h, int direction);
// In direction order.
std::array<Hex, 6> Neighbours(Hex h);
// Steps between two hexes on an open grid.
int Distance(Hex a, Hex b);

// The hex a fractional cube position falls in: each coordinate rounded half away from zero, then
// the one that moved most rebuilt from the other two (q first, then r, then s on equal moves).
Hex RoundCube(double q, double r, double s);

// Which way a line leans when it runs exactly along the edge between two hexes: both ends are
// nudged by (+1, +2, -3) × 1e-6 in cube coordinates (kPositive) or by its opposite (kNegative)
// before sampling. The nudge is far below any real position and never zero on a coordinate, so
// no sample lands on a tie.
enum class LineSide { kPositive, kNegative };
inline constexpr double kLineNudge = 1e-6;

// The Distance(a, b) + 1 hexes from a to b, one per step: the samples at i / Distance(a, b) of
// the straight segment between the centres, rounded (RoundCube). Consecutive hexes are neighbours.
std::vector<Hex> Line(Hex a, Hex b, LineSide side = LineSide::kPositive);

// Every hex at most n steps from center (none when n < 0), ordered by q then r.
std::vector<Hex> WithinRange(Hex center, int n);

// The 6 × radius hexes exactly `radius` steps from center ({center} for 0, none when negative),
// starting `radius` steps east of it and going clockwise (south-west first).
std::vector<Hex> Ring(Hex center, int radius);

// Odd-r offset layout (odd rows shoved half a hex east), the usual rectangle of a printed map.
struct Offset {
  int col = 0;
  int row = 0;
  friend bool operator==(const Offset&, const Offset&) = default;
};
Hex OffsetToAxial(Offset o);
Offset AxialToOffset(Hex h);

// The hexes a board has. Paths, reachable sets and areas never leave it.
class HexMap {
 public:
  HexMap() = default;
  // Any set of hexes; duplicates count once.
  static HexMap FromHexes(const std::vector<Hex>& hexes);
  // width × height in the odd-r offset layout, columns 0..width-1 and rows 0..height-1.
  static HexMap Rectangle(int width, int height);

  bool Contains(Hex h) const { return set_.contains(h); }
  // Ordered by q then r.
  const std::vector<Hex>& hexes() const { return hexes_; }
  std::size_t size() const { return hexes_.size(); }

 private:
  std::vector<Hex> hexes_;
  HexSet set_;
};

// Whether `to` can be seen from `from` past `blocking` hexes. The ends never block (a unit sees
// out of the wood it stands in, and the wood it shoots at). Sight passes when the line nudged to
// one side or the line nudged to the other (Line, both LineSides) crosses no blocking hex between
// the ends. Where the line does not run along an edge the two are the same hexes; where it grazes
// an edge, a single blocking hex beside it is not enough, but one on each side of the line is,
// even at different edges. Symmetric: from a to b exactly when from b to a.
bool LineOfSight(Hex from, Hex to, const HexSet& blocking);

// What moving costs for one kind of piece. Entering a hex costs entry_cost[hex] when listed,
// else default_cost (leaving costs nothing). Costs must not be negative (aborts: a bug in the
// game). Blocked hexes cannot be entered; pass-only hexes can be crossed but not stopped on (an
// aircraft over an enemy unit).
struct MoveRules {
  std::map<Hex, int> entry_cost;
  int default_cost = 1;
  HexSet blocked;
  HexSet pass_only;

  int CostOf(Hex h) const;
};

struct HexPath {
  bool found = false;
  int cost = 0;
  std::vector<Hex> hexes;  // from `from` to `to`, both included; empty when not found
};

// The cheapest way from `from` to `to` on the map (Dijkstra). Among paths of equal cost the one
// with fewer steps wins; among those, each hex keeps the predecessor that reached it first, hexes
// being settled in order of (cost, steps, q, r) and their neighbours tried in direction order. The
// start is never checked against the blocked set (the piece stands there). Not found when either
// end is off the map, or `to` is blocked or pass-only (unless it is `from`).
HexPath ShortestPath(const HexMap& map, const MoveRules& rules, Hex from, Hex to);

struct Reach {
  Hex hex;
  int cost = 0;
  friend bool operator==(const Reach&, const Reach&) = default;
};

// Every hex a piece at `from` can stop on for at most `budget`, with the cheapest cost there,
// ordered by q then r. The start is in it (cost 0) when it is on the map. Pass-only hexes are
// crossed but left out.
std::vector<Reach> Reachable(const HexMap& map, const MoveRules& rules, Hex from, int budget);

// The groups of `hexes` that touch each other (neighbours), each ordered by q then r, the groups
// ordered by their first hex. Duplicates count once.
std::vector<std::vector<Hex>> ConnectedAreas(const std::vector<Hex>& hexes);

}  // namespace plateau::engine
