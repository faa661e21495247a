// The geometry test vectors: each case's inputs, and the engine's answer to it (see
// geometry_cases.h). Hexes are written [q, r] everywhere.
#include "tests/geometry/geometry_cases.h"

#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <utility>

#include "engine/core/hex.h"
#include "engine/core/region_graph.h"

namespace plateau::geometry_vectors {
namespace {

using engine::Hex;
using google::protobuf::ListValue;
using google::protobuf::Value;

// ----- building values -----

Value Num(double n) {
  Value v;
  v.set_number_value(n);
  return v;
}
Value Str(const std::string& s) {
  Value v;
  v.set_string_value(s);
  return v;
}
Value Bool(bool b) {
  Value v;
  v.set_bool_value(b);
  return v;
}
Value Null() {
  Value v;
  v.set_null_value(google::protobuf::NULL_VALUE);
  return v;
}
Value List(std::vector<Value> items) {
  Value v;
  ListValue* l = v.mutable_list_value();
  for (auto& i : items) *l->add_values() = std::move(i);
  return v;
}
Value Obj(std::vector<std::pair<std::string, Value>> fields) {
  Value v;
  auto* f = v.mutable_struct_value()->mutable_fields();
  for (auto& [k, x] : fields) (*f)[k] = std::move(x);
  return v;
}
Value H(Hex h) { return List({Num(h.q), Num(h.r)}); }
template <class C>
Value Hexes(const C& hexes) {
  std::vector<Value> out;
  for (const Hex& h : hexes) out.push_back(H(h));
  return List(std::move(out));
}
Value HexList(std::initializer_list<Hex> hexes) { return Hexes(std::vector<Hex>(hexes)); }

// ----- reading values -----

const Value& Field(const Value& v, const std::string& name) {
  const auto& f = v.struct_value().fields();
  auto it = f.find(name);
  if (it == f.end()) {
    std::fprintf(stderr, "geometry vectors: a case has no \"%s\"\n", name.c_str());
    std::abort();
  }
  return it->second;
}
bool Has(const Value& v, const std::string& name) { return v.struct_value().fields().contains(name); }
int Int(const Value& v) { return static_cast<int>(v.number_value()); }
int IntField(const Value& v, const std::string& name) { return Int(Field(v, name)); }
const google::protobuf::RepeatedPtrField<Value>& Items(const Value& v) {
  return v.list_value().values();
}
Hex ToHex(const Value& v) { return {Int(Items(v)[0]), Int(Items(v)[1])}; }
std::vector<Hex> ToHexes(const Value& v) {
  std::vector<Hex> out;
  for (const Value& h : Items(v)) out.push_back(ToHex(h));
  return out;
}
engine::HexSet ToSet(const Value& v) {
  const auto hexes = ToHexes(v);
  return engine::HexSet(hexes.begin(), hexes.end());
}

engine::HexMap ToMap(const Value& in) {
  const Value& m = Field(in, "map");
  if (Has(m, "rectangle")) {
    const auto& wh = Items(Field(m, "rectangle"));
    return engine::HexMap::Rectangle(Int(wh[0]), Int(wh[1]));
  }
  return engine::HexMap::FromHexes(ToHexes(Field(m, "hexes")));
}

engine::MoveRules ToRules(const Value& in) {
  engine::MoveRules rules;
  const Value& r = Field(in, "rules");
  if (Has(r, "default_cost")) rules.default_cost = IntField(r, "default_cost");
  if (Has(r, "costs")) {
    for (const Value& c : Items(Field(r, "costs"))) {
      rules.entry_cost[{Int(Items(c)[0]), Int(Items(c)[1])}] = Int(Items(c)[2]);
    }
  }
  if (Has(r, "blocked")) rules.blocked = ToSet(Field(r, "blocked"));
  if (Has(r, "pass_only")) rules.pass_only = ToSet(Field(r, "pass_only"));
  return rules;
}

engine::LineSide ToSide(const Value& in) {
  return Field(in, "side").string_value() == "negative" ? engine::LineSide::kNegative
                                                          : engine::LineSide::kPositive;
}

Value RegionGraphAnswer(const Value& in) {
  std::vector<std::string> ids;
  for (const Value& id : Items(Field(in, "regions"))) ids.push_back(id.string_value());
  std::vector<std::pair<std::string, std::string>> edges;
  for (const Value& e : Items(Field(in, "edges"))) {
    edges.emplace_back(Items(e)[0].string_value(), Items(e)[1].string_value());
  }
  auto built = engine::RegionGraph::Build(ids, edges);
  if (!built.ok()) {
    return Obj({{"error", Str(built.status().code() + ": " + built.status().reason())}});
  }
  const engine::RegionGraph& g = built.value();
  auto names = [&](const std::vector<int>& regions) {
    std::vector<Value> out;
    for (int r : regions) out.push_back(Str(g.Id(r)));
    return List(std::move(out));
  };
  const int steps = IntField(in, "steps");
  std::vector<Value> neighbours, distances, paths, within, components;
  for (int a = 0; a < g.size(); ++a) {
    neighbours.push_back(names(g.Neighbours(a)));
    std::vector<Value> row, to;
    for (int d : g.Distances(a)) row.push_back(Num(d));
    distances.push_back(List(std::move(row)));
    for (int b = 0; b < g.size(); ++b) to.push_back(names(g.ShortestPath(a, b)));
    paths.push_back(List(std::move(to)));
    within.push_back(names(g.WithinSteps(a, steps)));
  }
  for (const auto& c : g.Components()) components.push_back(names(c));
  std::vector<Value> adjacent;
  for (int a = 0; a < g.size(); ++a) {
    std::vector<Value> row;
    for (int b = 0; b < g.size(); ++b) row.push_back(Bool(g.Adjacent(a, b)));
    adjacent.push_back(List(std::move(row)));
  }
  return Obj({{"neighbours", List(std::move(neighbours))},
              {"adjacent", List(std::move(adjacent))},
              {"distances", List(std::move(distances))},
              {"paths", List(std::move(paths))},
              {"within", List(std::move(within))},
              {"components", List(std::move(components))},
              {"find_unknown", Num(g.Find("no such region"))}});
}

}  // namespace

const std::vector<std::string>& Functions() {
  static const std::vector<std::string> kFunctions = {
      "directions", "neighbour",     "neighbours",    "distance",     "to_cube",
      "from_cube",  "round_cube",    "line",          "within_range", "ring",
      "offset",     "rectangle",     "map_contains",  "line_of_sight", "shortest_path",
      "reachable",  "connected_areas", "region_graph"};
  return kFunctions;
}

Value Evaluate(const std::string& fn, const Value& in) {
  if (fn == "directions") return Hexes(engine::kDirections);
  if (fn == "neighbour") return H(engine::Neighbour(ToHex(Field(in, "hex")), IntField(in, "direction")));
  if (fn == "neighbours") return Hexes(engine::Neighbours(ToHex(Field(in, "hex"))));
  if (fn == "distance") return Num(engine::Distance(ToHex(Field(in, "a")), ToHex(Field(in, "b"))));
  if (fn == "to_cube") {
    const engine::Cube c = engine::ToCube(ToHex(Field(in, "hex")));
    return List({Num(c.q), Num(c.r), Num(c.s)});
  }
  if (fn == "from_cube") {
    const auto& c = Items(Field(in, "cube"));
    const auto h = engine::FromCube({Int(c[0]), Int(c[1]), Int(c[2])});
    return h ? H(*h) : Null();
  }
  if (fn == "round_cube") {
    return H(engine::RoundCube(Field(in, "q").number_value(), Field(in, "r").number_value(),
                               Field(in, "s").number_value()));
  }
  if (fn == "line") return Hexes(engine::Line(ToHex(Field(in, "a")), ToHex(Field(in, "b")), ToSide(in)));
  if (fn == "within_range") {
    return Hexes(engine::WithinRange(ToHex(Field(in, "center")), IntField(in, "n")));
  }
  if (fn == "ring") return Hexes(engine::Ring(ToHex(Field(in, "center")), IntField(in, "radius")));
  if (fn == "offset") {
    // Both ways: the offset's hex, and that hex's offset back.
    const auto& o = Items(Field(in, "offset"));
    const Hex h = engine::OffsetToAxial({Int(o[0]), Int(o[1])});
    const engine::Offset back = engine::AxialToOffset(h);
    return Obj({{"hex", H(h)}, {"back", List({Num(back.col), Num(back.row)})}});
  }
  if (fn == "rectangle") {
    return Hexes(engine::HexMap::Rectangle(IntField(in, "width"), IntField(in, "height")).hexes());
  }
  if (fn == "map_contains") {
    const engine::HexMap map = ToMap(in);
    std::vector<Value> out;
    for (const Hex& h : ToHexes(Field(in, "probes"))) out.push_back(Bool(map.Contains(h)));
    return Obj({{"hexes", Hexes(map.hexes())}, {"contains", List(std::move(out))}});
  }
  if (fn == "line_of_sight") {
    return Bool(engine::LineOfSight(ToHex(Field(in, "from")), ToHex(Field(in, "to")),
                                    ToSet(Field(in, "blocking"))));
  }
  if (fn == "shortest_path") {
    const engine::HexPath p = engine::ShortestPath(ToMap(in), ToRules(in), ToHex(Field(in, "from")),
                                                   ToHex(Field(in, "to")));
    return Obj({{"found", Bool(p.found)}, {"cost", Num(p.cost)}, {"hexes", Hexes(p.hexes)}});
  }
  if (fn == "reachable") {
    std::vector<Value> out;
    for (const engine::Reach& r :
         engine::Reachable(ToMap(in), ToRules(in), ToHex(Field(in, "from")), IntField(in, "budget"))) {
      out.push_back(List({Num(r.hex.q), Num(r.hex.r), Num(r.cost)}));
    }
    return List(std::move(out));
  }
  if (fn == "connected_areas") {
    std::vector<Value> out;
    for (const auto& area : engine::ConnectedAreas(ToHexes(Field(in, "hexes")))) out.push_back(Hexes(area));
    return List(std::move(out));
  }
  if (fn == "region_graph") return RegionGraphAnswer(in);
  std::fprintf(stderr, "geometry vectors: unknown function \"%s\"\n", fn.c_str());
  std::abort();
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  auto add = [&](std::string fn, std::vector<std::pair<std::string, Value>> in) {
    cases.push_back({std::move(fn), Obj(std::move(in))});
  };
  add("directions", {});
  for (int d : {0, 1, 2, 3, 4, 5, 6, -1, -7}) add("neighbour", {{"hex", H({2, -1})}, {"direction", Num(d)}});
  add("neighbours", {{"hex", H({0, 0})}});
  add("neighbours", {{"hex", H({-3, 5})}});
  for (auto [a, b] : std::vector<std::pair<Hex, Hex>>{
           {{0, 0}, {0, 0}}, {{0, 0}, {1, 0}}, {{0, 0}, {1, 1}}, {{0, 0}, {3, -3}},
           {{-2, 4}, {3, -1}}, {{5, 0}, {0, 5}}, {{4, -6}, {-4, 6}}}) {
    add("distance", {{"a", H(a)}, {"b", H(b)}});
  }
  add("to_cube", {{"hex", H({3, -5})}});
  add("from_cube", {{"cube", List({Num(3), Num(-5), Num(2)})}});
  add("from_cube", {{"cube", List({Num(1), Num(1), Num(1)})}});
  for (auto [q, r] : std::vector<std::pair<double, double>>{
           {0.4, 0.3}, {0.3, 0.45}, {-0.6, 0.1}, {-0.1, -0.1}, {1.5, -0.5}, {-0.5, 0.25},
           {-1.5, 0.5}, {2.49, -1.49}, {0.5, 0.5}}) {
    add("round_cube", {{"q", Num(q)}, {"r", Num(r)}, {"s", Num(-q - r)}});
  }
  // Lines, among them ties: (0,0)-(1,1) and (0,0)-(2,-1) cross an edge at their middle, and
  // (0,0)-(4,-2) runs along edges all the way.
  for (auto [a, b] : std::vector<std::pair<Hex, Hex>>{
           {{0, 0}, {0, 0}}, {{0, 0}, {3, 0}}, {{0, 0}, {1, 1}}, {{0, 0}, {2, -1}}, {{0, 0}, {4, -2}},
           {{0, 0}, {5, -2}}, {{-3, 4}, {4, -1}}, {{4, -1}, {-3, 4}}, {{2, 2}, {-1, -4}}}) {
    for (const char* side : {"positive", "negative"}) {
      add("line", {{"a", H(a)}, {"b", H(b)}, {"side", Str(side)}});
    }
  }
  for (int n : {-1, 0, 1, 2}) add("within_range", {{"center", H({1, -1})}, {"n", Num(n)}});
  for (int radius : {-1, 0, 1, 2, 3}) add("ring", {{"center", H({-2, 1})}, {"radius", Num(radius)}});
  for (auto [col, row] : std::vector<std::pair<int, int>>{{0, 0}, {3, 1}, {3, 2}, {0, 5}, {2, -1}, {-2, -3}}) {
    add("offset", {{"offset", List({Num(col), Num(row)})}});
  }
  add("rectangle", {{"width", Num(4)}, {"height", Num(3)}});
  add("rectangle", {{"width", Num(0)}, {"height", Num(3)}});
  add("map_contains", {{"map", Obj({{"rectangle", List({Num(3), Num(3)})}})},
                       {"probes", HexList({{0, 0}, {2, 0}, {3, 0}, {-1, 2}, {-1, 1}, {1, 2}, {2, 2}})}});
  add("map_contains", {{"map", Obj({{"hexes", HexList({{1, 1}, {0, 0}, {1, 1}, {-2, 3}})}})},
                       {"probes", HexList({{0, 0}, {1, 1}, {1, 0}, {-2, 3}})}});

  // Line of sight. (0,0)-(2,-1) grazes between (1,-1) and (1,0): one of them blocking leaves the
  // line clear, both block it. The ends never block.
  auto los = [&](Hex from, Hex to, std::initializer_list<Hex> blocking) {
    add("line_of_sight", {{"from", H(from)}, {"to", H(to)}, {"blocking", HexList(blocking)}});
    add("line_of_sight", {{"from", H(to)}, {"to", H(from)}, {"blocking", HexList(blocking)}});
  };
  los({0, 0}, {3, 0}, {});
  los({0, 0}, {3, 0}, {{1, 0}});
  los({0, 0}, {3, 0}, {{0, 1}, {2, -1}});
  los({0, 0}, {2, -1}, {{1, -1}});
  los({0, 0}, {2, -1}, {{1, 0}});
  los({0, 0}, {2, -1}, {{1, -1}, {1, 0}});
  los({0, 0}, {4, -2}, {{1, -1}, {3, -1}});
  los({0, 0}, {4, -2}, {{1, 0}, {3, -2}});
  los({0, 0}, {4, -2}, {{1, -1}, {1, 0}});
  los({0, 0}, {1, 0}, {{0, 0}, {1, 0}});
  los({-3, 4}, {4, -1}, {{0, 2}});
  los({-3, 4}, {4, -1}, {{5, 5}});

  // Paths on a 6 × 5 odd-r rectangle: woods cost 2, a lake blocks, a unit can be crossed but not
  // stopped on.
  const Value rect = Obj({{"rectangle", List({Num(6), Num(5)})}});
  const Value open = Obj({});
  const Value rough = Obj({{"costs", List({List({Num(1), Num(1), Num(2)}), List({Num(2), Num(1), Num(2)}),
                                           List({Num(0), Num(2), Num(3)}), List({Num(3), Num(0), Num(0)})})},
                           {"blocked", HexList({{2, 0}, {1, 2}, {3, 1}})},
                           {"pass_only", HexList({{4, 0}})}});
  const Value heavy = Obj({{"default_cost", Num(2)}, {"costs", List({List({Num(1), Num(0), Num(1)})})},
                           {"blocked", HexList({{0, 1}})}});
  auto path = [&](const Value& map, const Value& rules, Hex from, Hex to) {
    add("shortest_path", {{"map", map}, {"rules", rules}, {"from", H(from)}, {"to", H(to)}});
  };
  path(rect, open, {0, 0}, {0, 0});
  path(rect, open, {0, 0}, {5, 0});
  path(rect, open, {0, 0}, {3, 4});
  path(rect, open, {5, 0}, {-2, 4});
  path(rect, rough, {0, 0}, {5, 0});
  path(rect, rough, {0, 0}, {3, 2});
  path(rect, rough, {0, 0}, {4, 0});
  path(rect, rough, {0, 0}, {2, 0});
  path(rect, rough, {0, 0}, {9, 9});
  path(rect, rough, {2, 0}, {0, 0});
  path(rect, heavy, {0, 0}, {2, 2});
  path(rect, heavy, {0, 0}, {0, 1});
  // Equal costs: fewer steps win (west through (-1,0), not round by the free (0,-1)).
  path(Obj({{"hexes", HexList({{0, 0}, {-1, 0}, {-2, 0}, {0, -1}, {-1, -1}})}}),
       Obj({{"costs", List({List({Num(0), Num(-1), Num(0)})})}}), {0, 0}, {-2, 0});
  const Value wall = Obj({{"blocked", HexList({{1, 0}, {0, 1}})}});
  path(rect, wall, {0, 0}, {3, 3});
  auto reach = [&](const Value& map, const Value& rules, Hex from, int budget) {
    add("reachable", {{"map", map}, {"rules", rules}, {"from", H(from)}, {"budget", Num(budget)}});
  };
  reach(rect, open, {0, 0}, -1);
  reach(rect, open, {0, 0}, 0);
  reach(rect, open, {0, 0}, 2);
  reach(rect, rough, {0, 0}, 3);
  reach(rect, rough, {3, 0}, 2);
  reach(rect, heavy, {0, 0}, 4);
  reach(rect, wall, {0, 0}, 5);
  reach(rect, open, {9, 9}, 3);

  add("connected_areas", {{"hexes", HexList({})}});
  add("connected_areas", {{"hexes", HexList({{3, 3}, {0, 0}, {1, 0}, {5, -1}, {4, 0}, {0, 0}, {2, 2}, {1, -1}})}});

  auto graph = [&](std::vector<std::string> ids, std::vector<std::pair<std::string, std::string>> edges,
                   int steps) {
    std::vector<Value> r, e;
    for (const auto& id : ids) r.push_back(Str(id));
    for (const auto& [a, b] : edges) e.push_back(List({Str(a), Str(b)}));
    add("region_graph", {{"regions", List(std::move(r))}, {"edges", List(std::move(e))}, {"steps", Num(steps)}});
  };
  // Two ways round a cycle of equal length (north to south), a pendant region and an island.
  graph({"north", "east", "west", "south", "cape", "isle"},
        {{"north", "west"}, {"east", "north"}, {"south", "west"}, {"east", "south"}, {"cape", "south"}},
        2);
  graph({}, {}, 1);
  graph({"a", "b"}, {{"a", "c"}}, 1);
  graph({"a", "b"}, {{"b", "b"}}, 1);
  graph({"a", "b"}, {{"a", "b"}, {"b", "a"}}, 1);
  graph({"a", "b", "a"}, {}, 1);
  graph({"a", ""}, {}, 1);
  return cases;
}

}  // namespace plateau::geometry_vectors
