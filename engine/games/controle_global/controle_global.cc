// Contrôle Global: the game and its data checks, the generated world, the globalisation table and
// the final score (RULES.md, "The globalisation table", "World generation", "End and final score").
#include "engine/games/controle_global/controle_global.h"

#include <algorithm>
#include <set>

#include "engine/core/data.h"
#include "engine/core/registry.h"
#include "engine/core/rng.h"

namespace plateau::games::controle_global {

namespace ec = engine::codes;
using engine::Seat;
using engine::Status;
using engine::StatusOr;
using engine::T;

namespace {

constexpr const char* kCategoryKeys[kCategories] = {"politics", "military", "religions",
                                                    "commerce", "media",    "biology"};
constexpr const char* kResourceKeys[kResources] = {"raw_materials", "energy", "food"};

std::vector<std::string> OptionVariants() {
  std::vector<std::string> out = {""};
  for (EndRule r : {END_TWO_AT_VI, END_TWO_AT_V}) {
    Options o;
    o.set_end_rule(r);
    out.push_back(o.SerializeAsString());
  }
  return out;
}

// Checks one effect's labels: every label a step or pick names is defined earlier.
std::string CheckEffect(const Card& card, const Effect& e, bool civil) {
  const std::string where = "card '" + card.id() + "', effect '" + e.name() + "': ";
  std::set<std::string> regions, players;
  for (const auto& r : e.regions()) {
    if (!r.of().empty() && !regions.count(r.of())) return where + "region '" + r.of() + "' is unknown.";
    if (r.selector() == REGION_UNSPECIFIED) return where + "a region pick has no selector.";
    if (!regions.insert(r.label()).second) return where + "region label '" + r.label() + "' repeats.";
  }
  for (const auto& p : e.players()) {
    if (!p.in().empty() && !regions.count(p.in())) return where + "region '" + p.in() + "' is unknown.";
    if (civil && p.selector() == PLAYER_SELF) return where + "civil society has no active player.";
    if (!players.insert(p.label()).second) return where + "player label '" + p.label() + "' repeats.";
  }
  for (const auto& s : e.steps()) {
    if (!s.region().empty() && !regions.count(s.region())) return where + "a step names an unknown region.";
    if (!s.from().empty() && !regions.count(s.from())) return where + "a step names an unknown region.";
    if (!s.player().empty() && !players.count(s.player())) return where + "a step names an unknown player.";
    if (s.op() == OP_ADD_INFLUENCE && s.categories().empty()) return where + "a cube gained has no category.";
    if (s.op() == OP_UNSPECIFIED) return where + "a step has no operation.";
  }
  return "";
}

}  // namespace

engine::v1::Text CategoryWords(int cat) {
  return T(std::string("controle_global.category.") + kCategoryKeys[cat]);
}
engine::v1::Text ResourceWords(int res) {
  return T(std::string("controle_global.resource.") + kResourceKeys[res]);
}
engine::v1::Text PileWords(const Pile& pile) {
  return T(pile.tier() == TIER_UPPER ? "controle_global.pile.upper" : "controle_global.pile.lower",
           CategoryWords(Cat(pile.category())));
}

// ----- The game -----

ControleGlobalGame::ControleGlobalGame(controle_global::StaticData data)
    : TypedGame(engine::GameInfo{"controle_global", "Contrôle Global", 3, 6, OptionVariants(),
                                 // A game of a few rich choices per turn.
                                 {{"Casual", 90, 0, 0}, {"Clocked", 0, 900, 10}},
                                 // About one round ahead.
                                 40, true}),
      data_(std::move(data)) {
  for (int i = 0; i < data_.cards_size(); ++i) {
    card_index_[data_.cards(i).id()] = i;
    int pile = -1;
    for (int p = 0; p < data_.piles_size(); ++p) {
      if (data_.piles(p).id() == data_.cards(i).pile()) pile = p;
    }
    card_pile_.push_back(pile);
  }
  for (const auto& t : data_.globalisation().thresholds()) {
    thresholds_[t.players()] = std::vector<uint32_t>(t.totals().begin(), t.totals().end());
  }
  SetStaticData(std::make_unique<controle_global::StaticData>(data_));
}

std::string ControleGlobalGame::CheckData(const controle_global::StaticData& d) {
  if (d.piles_size() != 12) return "there must be twelve piles.";
  std::map<std::string, const Pile*> piles;
  std::map<std::string, int> per_pile;
  for (const auto& p : d.piles()) piles[p.id()] = &p;
  for (int c = 0; c < kCategories; ++c) {
    for (Tier t : {TIER_LOWER, TIER_UPPER}) {
      int found = 0;
      for (const auto& p : d.piles()) found += p.category() == CatOf(c) && p.tier() == t;
      if (found != 1) return "each category needs one lower and one upper pile.";
    }
  }
  std::set<std::string> ids;
  for (const auto& card : d.cards()) {
    if (!ids.insert(card.id()).second) return "card '" + card.id() + "' repeats.";
    auto it = piles.find(card.pile());
    if (it == piles.end()) return "card '" + card.id() + "' names no pile.";
    const Pile& pile = *it->second;
    ++per_pile[pile.id()];
    if (card.effects_size() < 1 || card.effects_size() > 3) {
      return "card '" + card.id() + "' needs one to three effects.";
    }
    uint32_t last = 0;
    for (const auto& e : card.effects()) {
      if (e.needs().empty() || e.needs(0).category() != pile.category()) {
        return "card '" + card.id() + "': an effect's first need must be in the card's category.";
      }
      const uint32_t l = e.needs(0).level();
      if (l < pile.min_level() || l > pile.max_level() || l <= last) {
        return "card '" + card.id() + "': effect levels must rise within the pile's levels.";
      }
      last = l;
      std::string p = CheckEffect(card, e, false);
      if (!p.empty()) return p;
    }
    if ((pile.tier() == TIER_UPPER) != card.has_civil()) {
      return "card '" + card.id() + "': a civil-society effect belongs on upper cards only.";
    }
    if (card.has_civil()) {
      if (!card.civil().needs().empty()) return "card '" + card.id() + "': civil society has no needs.";
      std::string p = CheckEffect(card, card.civil(), true);
      if (!p.empty()) return p;
      uint32_t at = 0;
      for (const auto& s : card.civil().steps()) {
        for (const auto& w : s.world_needs()) {
          if (w.category() != pile.category() || w.level() < at) {
            return "card '" + card.id() + "': civil thresholds must rise in the card's category.";
          }
          at = w.level();
        }
      }
    }
  }
  for (const auto& p : d.piles()) {
    if (per_pile[p.id()] < 8) return "pile '" + p.id() + "' has fewer than eight cards.";
  }
  if (d.factions_size() < 6) return "six or more factions are needed.";
  for (const auto& f : d.factions()) {
    if (f.categories_size() != 2) return "faction '" + f.id() + "' needs two categories.";
  }
  for (uint32_t n = 3; n <= 6; ++n) {
    const controle_global::Thresholds* t = nullptr;
    for (const auto& x : d.globalisation().thresholds()) {
      if (x.players() == n) t = &x;
    }
    if (t == nullptr || t->totals_size() != 6) return "thresholds are missing for a player count.";
    for (int i = 1; i < 6; ++i) {
      if (t->totals(i) <= t->totals(i - 1)) return "thresholds must rise.";
    }
    bool counted = false;
    for (const auto& rc : d.world().regions()) {
      if (rc.players() == n) {
        counted = true;
        if (static_cast<int>(rc.regions()) > d.world().names_size()) return "too few region names.";
      }
    }
    if (!counted) return "a region count is missing for a player count.";
  }
  if (d.globalisation().level_vp_size() != 7) return "seven VP per level are needed.";
  if (d.world().development_bag().empty()) return "the development bag is empty.";
  return "";
}

StatusOr<std::unique_ptr<ControleGlobalGame>> ControleGlobalGame::FromData(
    std::string_view cards, std::string_view factions, std::string_view world,
    std::string_view texts) {
  controle_global::StaticData data;
  for (auto [name, text] : {std::pair{"cards.textproto", cards},
                            std::pair{"factions.textproto", factions},
                            std::pair{"world.textproto", world}}) {
    controle_global::StaticData part;
    Status st = engine::ParseDataFile(name, text, &part);
    if (!st.ok()) return st;
    data.MergeFrom(part);
  }
  std::string problem = CheckData(data);
  if (!problem.empty()) return Status(ec::kBadData, "Contrôle Global data: " + problem);
  auto catalogue = engine::Catalogue::Parse("texts.textproto", texts);
  if (!catalogue.ok()) return catalogue.status();
  auto game = std::unique_ptr<ControleGlobalGame>(new ControleGlobalGame(std::move(data)));
  game->SetTexts(catalogue.value());
  return game;
}

int ControleGlobalGame::CardIndex(std::string_view id) const {
  auto it = card_index_.find(id);
  return it == card_index_.end() ? -1 : it->second;
}

int ControleGlobalGame::PileIndex(Category c, Tier t) const {
  for (int p = 0; p < data_.piles_size(); ++p) {
    if (data_.piles(p).category() == c && data_.piles(p).tier() == t) return p;
  }
  return -1;
}

const std::vector<uint32_t>& ControleGlobalGame::Thresholds(uint32_t players) const {
  return thresholds_.at(players);
}

uint32_t ControleGlobalGame::LevelOf(uint32_t players, uint32_t total) const {
  uint32_t level = 0;
  for (uint32_t t : Thresholds(players)) {
    if (total >= t) ++level;
  }
  return level;
}

Status ControleGlobalGame::ValidateTypedOptions(int num_seats, const Options& o) const {
  if (!EndRule_IsValid(o.end_rule())) return Status(ec::kBadOptions, "Unknown end rule.");
  return Status::Ok();
}

std::unique_ptr<engine::State> ControleGlobalGame::NewTypedState(int num_seats, const Options& o,
                                                                 uint64_t seed) const {
  internal::StateProto position;
  position.set_num_seats(static_cast<uint32_t>(num_seats));
  auto state = std::make_unique<ControleGlobalState>(this, std::move(position));
  // A variant written for another player count plays the standard end (RULES.md, Decisions).
  EndRule rule = o.end_rule();
  if ((rule == END_TWO_AT_VI && num_seats != 6) || (rule == END_TWO_AT_V && num_seats != 3)) {
    rule = END_ONE_AT_VI;
  }
  state->Setup(static_cast<uint32_t>(num_seats), rule, seed);
  return state;
}

StatusOr<std::unique_ptr<engine::State>> ControleGlobalGame::Deserialize(
    std::string_view bytes) const {
  internal::StateProto s;
  if (!s.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return Status(ec::kMalformed, "The bytes are not a Contrôle Global position.");
  }
  return FromProto(s);
}

StatusOr<std::unique_ptr<engine::State>> ControleGlobalGame::FromProto(
    const internal::StateProto& s) const {
  const uint32_t n = s.num_seats();
  std::string problem;
  if (n < 3 || n > 6) problem = "the number of seats must be 3 to 6.";
  else if (s.seats_size() != static_cast<int>(n)) problem = "one seat state per seat is needed.";
  else if (s.piles_size() != data_.piles_size()) problem = "one pile state per pile is needed.";
  else if (s.drawer() > n) problem = "the drawing seat is out of range.";
  else if (s.orders_size() != kCategories || s.highest_size() != kCategories) {
    problem = "six globalisation orders are needed.";
  }
  if (problem.empty()) {
    std::vector<int> seen(data_.cards_size());
    bool ok = true;
    auto count = [&](uint32_t c) {
      if (c >= seen.size()) ok = false;
      else ++seen[c];
    };
    for (const auto& p : s.piles()) {
      for (uint32_t c : p.cards()) count(c);
      for (uint32_t c : p.discard()) count(c);
    }
    for (const auto& seat : s.seats()) {
      for (uint32_t c : seat.hand()) count(c);
      if (seat.resources_size() != kResources || seat.noted_size() != kCategories) ok = false;
    }
    for (uint32_t c : s.civil()) count(c);
    // Civil-society cards turned over but not yet resolved wait in the core's deferred list.
    for (const auto& effect : s.table().deferred()) {
      internal::CivilCard civil;
      if (effect.kind() != internal::EFFECT_CIVIL || !civil.ParseFromString(effect.data())) ok = false;
      else count(civil.card());
    }
    for (int v : seen) ok &= v == 1;
    if (!ok) problem = "every card must be in exactly one place.";
    for (const auto& r : s.regions()) {
      if (r.cubes_size() != static_cast<int>(n) * kCategories || r.stock_size() != kResources) {
        problem = "a region needs its stock and six counts of cubes per seat.";
      }
      for (uint32_t nb : r.neighbours()) {
        if (nb >= static_cast<uint32_t>(s.regions_size())) problem = "a border names no region.";
      }
    }
  }
  if (!problem.empty()) {
    return Status(ec::kMalformed, "Not a consistent Contrôle Global position: " + problem);
  }
  return std::unique_ptr<engine::State>(std::make_unique<ControleGlobalState>(this, s));
}

// ----- The state: set-up and world generation -----

ControleGlobalState::ControleGlobalState(const ControleGlobalGame* game,
                                         internal::StateProto position)
    : TypedState(game, static_cast<int>(position.num_seats()), /*splits=*/true), game_(game) {
  s_ = std::move(position);
}

void ControleGlobalState::Setup(uint32_t num_seats, EndRule end_rule, uint64_t seed) {
  const auto& world = g().data().world();
  engine::Rng rng(seed);
  s_.set_end_rule(end_rule);
  const int n = static_cast<int>(num_seats);
  int regions = 0;
  for (const auto& rc : world.regions()) {
    if (rc.players() == num_seats) regions = static_cast<int>(rc.regions());
  }
  // The map: cells of a hex grid grown from one, each new one drawn among the free cells next to
  // those taken (kept sorted, so the draw depends on the seed alone).
  static constexpr int kDirs[6][2] = {{1, 0}, {1, -1}, {0, -1}, {-1, 0}, {-1, 1}, {0, 1}};
  std::vector<std::pair<int, int>> cells = {{0, 0}};
  while (static_cast<int>(cells.size()) < regions) {
    std::set<std::pair<int, int>> free;
    for (auto [q, r] : cells) {
      for (auto& d : kDirs) {
        std::pair<int, int> c{q + d[0], r + d[1]};
        if (std::find(cells.begin(), cells.end(), c) == cells.end()) free.insert(c);
      }
    }
    std::vector<std::pair<int, int>> options(free.begin(), free.end());
    cells.push_back(options[rng.Below(options.size())]);
  }
  std::vector<std::pair<int, int>> borders;
  for (int a = 0; a < regions; ++a) {
    for (int b = a + 1; b < regions; ++b) {
      const int dq = cells[b].first - cells[a].first, dr = cells[b].second - cells[a].second;
      for (auto& d : kDirs) {
        if (d[0] == dq && d[1] == dr) borders.emplace_back(a, b);
      }
    }
  }
  // Each border may become a sea or a mountain range, unless the world would fall in two.
  auto connected = [&](const std::vector<std::pair<int, int>>& edges) {
    std::vector<int> seen(regions, 0);
    std::vector<int> stack = {0};
    seen[0] = 1;
    while (!stack.empty()) {
      int at = stack.back();
      stack.pop_back();
      for (auto [a, b] : edges) {
        int other = a == at ? b : b == at ? a : -1;
        if (other >= 0 && !seen[other]) {
          seen[other] = 1;
          stack.push_back(other);
        }
      }
    }
    return std::count(seen.begin(), seen.end(), 1) == regions;
  };
  for (size_t i = 0; i < borders.size();) {
    if (rng.Below(1000) < world.border_drop_per_mille()) {
      auto without = borders;
      without.erase(without.begin() + static_cast<long>(i));
      if (connected(without)) {
        borders = std::move(without);
        continue;
      }
    }
    ++i;
  }
  std::vector<uint32_t> names;
  for (int i = 0; i < world.names_size(); ++i) names.push_back(static_cast<uint32_t>(i));
  rng.Shuffle(names);
  std::vector<uint32_t> bag;
  while (static_cast<int>(bag.size()) < regions) {
    for (uint32_t d : world.development_bag()) bag.push_back(d);
  }
  bag.resize(regions);
  rng.Shuffle(bag);
  for (int i = 0; i < regions; ++i) {
    internal::Region* r = s_.add_regions();
    r->set_name(world.names(static_cast<int>(names[i])));
    r->set_name_index(names[i]);
    r->set_development(bag[i]);
    r->mutable_cell()->set_q(cells[i].first);
    r->mutable_cell()->set_r(cells[i].second);
    for (int res = 0; res < kResources; ++res) r->add_stock(world.resource_min());
    uint32_t left = world.resource_base() - bag[i] - kResources * world.resource_min();
    for (; left > 0; --left) {
      std::vector<int> open;
      for (int res = 0; res < kResources; ++res) {
        if (r->stock(res) < world.resource_max()) open.push_back(res);
      }
      if (open.empty()) break;
      const int res = open[rng.Below(open.size())];
      r->set_stock(res, r->stock(res) + 1);
    }
    r->mutable_cubes()->Resize(n * kCategories, 0);
    for (auto [a, b] : borders) {
      if (a == i) r->add_neighbours(static_cast<uint32_t>(b));
      if (b == i) r->add_neighbours(static_cast<uint32_t>(a));
    }
    std::sort(r->mutable_neighbours()->begin(), r->mutable_neighbours()->end());
  }
  std::vector<uint32_t> order;
  for (int seat = 0; seat < n; ++seat) order.push_back(static_cast<uint32_t>(seat));
  rng.Shuffle(order);
  for (uint32_t seat : order) s_.add_turn_order(seat);
  for (int seat = 0; seat < n; ++seat) {
    internal::Seat* st = s_.add_seats();
    st->set_faction(-1);
    for (int res = 0; res < kResources; ++res) st->add_resources(0);
    for (int cat = 0; cat < kCategories; ++cat) st->add_noted(0);
  }
  for (int cat = 0; cat < kCategories; ++cat) {
    auto* o = s_.add_orders();
    for (uint32_t seat : order) o->add_seats(seat);
    s_.add_highest(0);
    s_.add_red(false);
  }
  for (int p = 0; p < g().data().piles_size(); ++p) {
    auto* pile = s_.add_piles();
    for (int c = 0; c < g().data().cards_size(); ++c) {
      if (g().PileOf(static_cast<uint32_t>(c)) == p) pile->add_cards(static_cast<uint32_t>(c));
    }
    rng.ShuffleRepeated(pile->mutable_cards());
  }
  for (int res = 0; res < kResources; ++res) s_.add_to_privatise(0);
  s_.set_played(-1);
  s_.set_rng(rng.Next());
  s_.set_phase(PHASE_FACTIONS);
  s_.set_turn_index(0);
  Log(T("controle_global.world", regions));
  engine::v1::Text names_text = T("controle_global.list" + std::to_string(n));
  for (uint32_t seat : order) *names_text.add_args() = engine::ToArg(Seat{static_cast<int>(seat)});
  Log(T("controle_global.first_order", names_text));
}

// ----- The globalisation table -----

uint32_t ControleGlobalState::Cubes(int region, int seat, int cat) const {
  return R(region).cubes(seat * kCategories + cat);
}

uint32_t ControleGlobalState::SeatTotal(int seat, int cat) const {
  uint32_t total = 0;
  for (int r = 0; r < s_.regions_size(); ++r) total += Cubes(r, seat, cat);
  return total;
}

uint32_t ControleGlobalState::WorldTotal(int cat) const {
  uint32_t total = 0;
  for (int seat = 0; seat < Seats(); ++seat) total += SeatTotal(seat, cat);
  return total;
}

uint32_t ControleGlobalState::WorldLevel(int cat) const {
  return g().LevelOf(s_.num_seats(), WorldTotal(cat));
}

namespace {
// The globalisation table's rule for one seat: the world level less one per seat ahead in the
// order, never below what the seat's own total would give it alone.
uint32_t LevelAt(const google::protobuf::RepeatedField<uint32_t>& order, int seat,
                 uint32_t world_level, uint32_t alone) {
  const int place = static_cast<int>(std::find(order.begin(), order.end(), seat) - order.begin());
  const int from_place = static_cast<int>(world_level) - place;
  return static_cast<uint32_t>(std::max({from_place, static_cast<int>(alone), 0}));
}
}  // namespace

uint32_t ControleGlobalState::LiveLevel(int seat, int cat) const { return LiveLevels(cat)[seat]; }

std::vector<uint32_t> ControleGlobalState::LiveLevels(int cat) const {
  std::vector<uint32_t> totals(static_cast<size_t>(Seats()), 0);
  for (const auto& r : s_.regions()) {
    for (int seat = 0; seat < Seats(); ++seat) totals[seat] += r.cubes(seat * kCategories + cat);
  }
  uint32_t world = 0;
  for (uint32_t t : totals) world += t;
  const uint32_t world_level = g().LevelOf(s_.num_seats(), world);
  std::vector<uint32_t> out;
  out.reserve(totals.size());
  for (int seat = 0; seat < Seats(); ++seat) {
    out.push_back(LevelAt(s_.orders(cat).seats(), seat, world_level,
                          g().LevelOf(s_.num_seats(), totals[seat])));
  }
  return out;
}

uint32_t ControleGlobalState::LevelVp(int seat) const {
  uint32_t vp = 0;
  for (uint32_t l : S(seat).noted()) vp += g().data().globalisation().level_vp(static_cast<int>(l));
  return vp;
}

bool ControleGlobalState::Present(int seat, int region) const {
  bool anywhere = false;
  for (int r = 0; r < s_.regions_size(); ++r) {
    for (int cat = 0; cat < kCategories; ++cat) {
      if (Cubes(r, seat, cat) > 0) {
        if (r == region) return true;
        anywhere = true;
      }
    }
  }
  return !anywhere;
}

void ControleGlobalState::Resort(int cat) {
  auto* seats = s_.mutable_orders(cat)->mutable_seats();
  std::vector<uint32_t> order(seats->begin(), seats->end());
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return SeatTotal(static_cast<int>(a), cat) > SeatTotal(static_cast<int>(b), cat);
  });
  for (int i = 0; i < seats->size(); ++i) seats->Set(i, order[i]);
}

void ControleGlobalState::AddCubes(int region, int seat, int cat, int delta) {
  const int i = seat * kCategories + cat;
  const int now = static_cast<int>(R(region).cubes(i)) + delta;
  R(region).set_cubes(i, static_cast<uint32_t>(std::max(now, 0)));
  Resort(cat);
  CheckRises();
}

void ControleGlobalState::CheckRises() {
  // Only the players' turns feed civil society (not set-up, not its own resolution).
  const Phase p = s_.phase();
  if (p != PHASE_PLAY && p != PHASE_INVEST && p != PHASE_PRIVATISE && p != PHASE_DRAW) return;
  for (int cat = 0; cat < kCategories; ++cat) {
    const uint32_t level = WorldLevel(cat);
    if (level <= s_.highest(cat)) continue;
    Log(T("controle_global.world_level", CategoryWords(cat), level, WorldTotal(cat)));
    const int upper = g().PileIndex(CatOf(cat), TIER_UPPER);
    for (uint32_t l = s_.highest(cat) + 1; l <= level; ++l) {
      const int card = TakeTop(upper);
      if (card < 0) {
        Log(T("controle_global.civil_pile_empty", CategoryWords(cat)));
        continue;
      }
      s_.add_civil(static_cast<uint32_t>(card));
      Log(T("controle_global.civil_card", CategoryWords(cat)));
    }
    s_.set_highest(cat, level);
    s_.set_red(cat, true);
  }
}

void ControleGlobalState::NoteLevels() {
  for (int cat = 0; cat < kCategories; ++cat) {
    const std::vector<uint32_t> levels = LiveLevels(cat);
    for (int seat = 0; seat < Seats(); ++seat) M(seat).set_noted(cat, levels[seat]);
  }
  for (int seat = 0; seat < Seats(); ++seat) M(seat).set_level_vp(LevelVp(seat));
}

// ----- Scoring -----

std::vector<uint32_t> ControleGlobalState::ShareRegion(uint32_t development,
                                                       const std::vector<uint32_t>& cubes) {
  std::vector<uint32_t> vp(cubes.size(), 0);
  std::vector<uint32_t> counts(cubes.begin(), cubes.end());
  std::sort(counts.begin(), counts.end(), std::greater<>());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  uint32_t pool = development;
  // Those at the current count take VP together, level by level, down to the next count.
  for (size_t i = 0; i < counts.size() && counts[i] > 0 && pool > 0; ++i) {
    const uint32_t next = i + 1 < counts.size() ? counts[i + 1] : 0;
    std::vector<size_t> group;
    for (size_t s = 0; s < cubes.size(); ++s) {
      if (cubes[s] >= counts[i]) group.push_back(s);
    }
    const uint32_t step = counts[i] - next;
    const uint32_t need = step * static_cast<uint32_t>(group.size());
    const uint32_t each = need <= pool ? step : pool / static_cast<uint32_t>(group.size());
    for (size_t s : group) vp[s] += each;
    pool = need <= pool ? pool - need : 0;  // what cannot be split is lost
  }
  return vp;
}

std::vector<uint32_t> ControleGlobalState::RegionCubes(int region) const {
  std::vector<uint32_t> cubes;
  for (int s = 0; s < Seats(); ++s) {
    uint32_t c = 0;
    for (int cat = 0; cat < kCategories; ++cat) c += Cubes(region, s, cat);
    cubes.push_back(c);
  }
  return cubes;
}

uint32_t ControleGlobalState::RegionVp(int seat) const {
  uint32_t vp = 0;
  for (int r = 0; r < s_.regions_size(); ++r) {
    vp += ShareRegion(R(r).development(), RegionCubes(r))[seat];
  }
  return vp;
}

std::vector<int64_t> ControleGlobalState::Scores() const {
  std::vector<int64_t> out;
  for (int seat = 0; seat < Seats(); ++seat) {
    out.push_back(static_cast<int64_t>(S(seat).level_vp() + RegionVp(seat)));
  }
  return out;
}

std::vector<int> ControleGlobalState::GameRanks() const {
  // Ties are broken by region VP, then shared.
  std::vector<int64_t> keyed;
  for (int seat = 0; seat < Seats(); ++seat) {
    const int64_t region = RegionVp(seat);
    keyed.push_back((S(seat).level_vp() + region) * 1000 + region);
  }
  return engine::RanksFromScores(keyed);
}

const Power* ControleGlobalState::PowerOf(int seat, PowerKind kind) const {
  if (S(seat).faction() < 0) return nullptr;
  const Power& p = g().faction(static_cast<uint32_t>(S(seat).faction())).power();
  return p.kind() == kind ? &p : nullptr;
}

uint32_t ControleGlobalState::HandSize(int seat) const {
  const Power* p = PowerOf(seat, POWER_HAND_SIZE);
  return p != nullptr ? p->amount() : g().data().setup().hand_size();
}

}  // namespace plateau::games::controle_global

namespace plateau::data::controle_global {
extern const std::string_view kcards;
extern const std::string_view kfactions;
extern const std::string_view kworld;
extern const std::string_view ktexts;
}  // namespace plateau::data::controle_global

namespace plateau::games::controle_global {
namespace {

engine::StatusOr<std::unique_ptr<engine::Game>> MakeControleGlobal() {
  namespace d = ::plateau::data::controle_global;
  auto game = ControleGlobalGame::FromData(d::kcards, d::kfactions, d::kworld, d::ktexts);
  if (!game.ok()) return game.status();
  return std::unique_ptr<engine::Game>(std::move(game).value());
}

PLATEAU_REGISTER_GAME("controle_global", MakeControleGlobal);

}  // namespace
}  // namespace plateau::games::controle_global
