#include "engine/games/limit/limit.h"
#include "engine/games/limit/limit_nation.h"

#include <algorithm>
#include <set>

#include "engine/core/data.h"
#include "engine/core/registry.h"

namespace plateau::games::limit {

namespace ec = engine::codes;
using engine::Seat;
using engine::Status;
using engine::T;
using engine::StatusOr;
using internal::NationState;

namespace {

constexpr int kDecks = 3;
Status Bad(const std::string& file, const std::string& why) {
  return Status(ec::kBadData, file + ": " + why);
}

Status CheckBoard(const data::BoardDef& b) {
  const std::string f = "limit_board.textproto";
  if (b.population_size() != 9 || b.demographic_index_size() != 9)
    return Bad(f, "population and demographic_index need 9 ranks");
  if (b.tracks_size() != 3) return Bad(f, "3 production tracks needed (renewable, industrial, military)");
  for (int i = 0; i < 3; ++i) {
    const auto& t = b.tracks(i);
    if (t.factory() != static_cast<Factory>(i + 1)) return Bad(f, "tracks must be in factory order");
    if (t.value_size() < 2 || t.fossil_size() != t.value_size() ||
        t.pollution_size() != t.value_size())
      return Bad(f, "a track needs value, fossil and pollution at every rank");
  }
  if (b.disorder_positions() < 5 || b.disorder_start() >= b.disorder_positions() ||
      b.boom_positions() + b.revolt_positions() >= b.disorder_positions())
    return Bad(f, "inconsistent disorder track");
  if (b.prices_size() < 2) return Bad(f, "the price track needs positions");
  if (b.markets_size() != 4) return Bad(f, "4 market tracks needed");
  for (int i = 0; i < 4; ++i) {
    if (b.markets(i).resource() != static_cast<Resource>(i + 1))
      return Bad(f, "market tracks must be renewable, industrial, military, fossil");
    if (b.markets(i).start_position() >= static_cast<uint32_t>(b.prices_size()))
      return Bad(f, "market start position off the track");
  }
  if (b.hand_limit_size() != 4 || b.draw_count_size() != 4 || b.keep_count_size() != 4 ||
      b.tax_per_pop_size() != 4)
    return Bad(f, "hand_limit, draw_count, keep_count and tax_per_pop need 4 levels");
  if (b.solo_size() != static_cast<int>(b.generations()) || b.generations() == 0)
    return Bad(f, "one solo row per generation needed");
  if (b.events_size() == 0) return Bad(f, "solo events missing");
  if (b.start_population_rank() < 1 || b.start_population_rank() > 9 ||
      b.start_renewable_rank() < 1)
    return Bad(f, "bad start ranks");
  return Status::Ok();
}

Status CheckCards(const data::CardSet& cs) {
  const std::string f = "limit_cards.textproto";
  if (cs.cards_size() == 0) return Bad(f, "no cards");
  std::set<std::string> keys;
  for (const auto& c : cs.cards()) {
    if (c.key().empty() || !keys.insert(c.key()).second)
      return Bad(f, "missing or duplicate key '" + c.key() + "'");
    if (c.deck() == DECK_UNSPECIFIED) return Bad(f, c.key() + ": no deck");
    if (c.effect() == data::EFFECT_UNSPECIFIED) return Bad(f, c.key() + ": no effect");
    if (c.name().empty() || c.cost_text().empty() || c.effect_text().empty())
      return Bad(f, c.key() + ": name and texts required");
    if (c.starting() && c.tech_level() != 0) return Bad(f, c.key() + ": starting and set aside");
    if (c.resistible() && !c.targets()) return Bad(f, c.key() + ": resistible without target");
  }
  return Status::Ok();
}

}  // namespace

// ----- Game -----

std::vector<Factory> FactoryOptions(const data::CardDef& c) {
  switch (c.effect()) {
    case data::EFFECT_FACTORY_UP:
      // Raising two ranks at once is for the industrial and military factories only.
      if (c.amount() < 2) return {FACTORY_RENEWABLE, FACTORY_INDUSTRIAL, FACTORY_MILITARY};
      return {FACTORY_INDUSTRIAL, FACTORY_MILITARY};
    case data::EFFECT_OVERPRODUCTION:
    case data::EFFECT_ANNEXATION:
    case data::EFFECT_MASS_DESTRUCTION:
      return {FACTORY_INDUSTRIAL, FACTORY_MILITARY};
    default:
      return {};
  }
}

std::vector<Resource> ResourceOptions(const data::CardDef& c) {
  switch (c.effect()) {
    case data::EFFECT_CRAFT:
      return {RESOURCE_RENEWABLE, RESOURCE_INDUSTRIAL, RESOURCE_MILITARY};
    case data::EFFECT_MILITARY_OPERATION:
      return {RESOURCE_FOSSIL, RESOURCE_RENEWABLE, RESOURCE_INDUSTRIAL};
    case data::EFFECT_SPECULATION:
      return {RESOURCE_RENEWABLE, RESOURCE_INDUSTRIAL, RESOURCE_MILITARY, RESOURCE_FOSSIL};
    default:
      return {};
  }
}

namespace {

// The book's rules, then each optional rule alone and both together.
std::vector<std::string> LimitOptionVariants() {
  std::vector<std::string> out = {""};
  for (int bits = 1; bits <= 3; ++bits) {
    Options o;
    o.set_first_game((bits & 1) != 0);
    o.set_alliances((bits & 2) != 0);
    out.push_back(o.SerializeAsString());
  }
  return out;
}

}  // namespace

LimitGame::LimitGame(data::CardSet cards, data::BoardDef board)
    : TypedGame({"limit", "LIMIT", 1, 6, LimitOptionVariants(),
      // Timers: a nation's card plays weigh several tracks at once, so decisions are longer.
                 {{"Casual", 120, 0, 0}, {"Clocked", 0, 900, 20}},
      // The normal bot looks about a phase ahead: a phase already moves every score track.
                 10}),
      cards_(std::move(cards)),
      board_(std::move(board)) {
  // Everything printed, built once and sent to clients once (GameInfo.static_data): views name
  // cards and events by id, and carry neither the board nor the prices.
  auto data = std::make_unique<limit::StaticData>();
  for (int id = 0; id < cards_.cards_size(); ++id) {
    const auto& c = cards_.cards(id);
    Card& v = *data->add_cards();
    v.set_id(static_cast<uint32_t>(id));
    v.set_key(c.key());
    v.set_name(c.name());
    v.set_name_en(c.name_en());
    v.set_deck(c.deck());
    v.set_permanent(c.permanent());
    v.set_cost_text(c.cost_text());
    v.set_effect_text(c.effect_text());
    for (const auto& p : c.params()) v.add_params(p);
    v.set_targets(c.targets());
    v.set_resistible(c.resistible());
    v.set_military_min(c.military_min());
    v.set_removable(c.removable());
    v.set_tech_level(c.tech_level());
    for (Factory f : FactoryOptions(c)) v.add_factory_options(f);
    for (Resource r : ResourceOptions(c)) v.add_resource_options(r);
    // The steps ActPlay asks PlayCard.classes to name.
    if (c.effect() == data::EFFECT_RAISE_CLASSES) {
      v.mutable_class_steps()->set_steps(c.amount());
    } else if (c.effect() == data::EFFECT_POLITICAL_INTERFERENCE) {
      v.mutable_class_steps()->set_steps(1);
      v.mutable_class_steps()->set_on_target(true);
    } else if (c.cost_class_down() > 0) {
      v.mutable_class_steps()->set_steps(c.cost_class_down());
      v.mutable_class_steps()->set_down(true);
    }
    ParamUse use;
    for (const auto& p : c.params()) {
      use.factory |= p == "factory";
      use.resource |= p == "resource";
      use.classes |= p == "classes";
      use.transactions |= p == "transactions";
      use.deck |= p == "deck";
    }
    param_use_.push_back(use);
  }
  Board& printed = *data->mutable_board();
  for (uint32_t p : board_.population()) printed.add_population(p);
  for (uint32_t d : board_.demographic_index()) printed.add_demographic_index(d);
  for (const auto& t : board_.tracks()) {
    auto* o = printed.add_tracks();
    o->set_factory(t.factory());
    for (uint32_t x : t.value()) o->add_value(x);
    for (uint32_t x : t.fossil()) o->add_fossil(x);
    for (uint32_t x : t.pollution()) o->add_pollution(x);
  }
  printed.set_territory_rank_bonus(board_.territory_rank_bonus());
  for (uint32_t price : board_.prices()) data->add_prices(price);
  for (int id = 0; id < board_.events_size(); ++id) {
    const auto& e = board_.events(id);
    EventCard* card = data->add_events();
    card->set_id(static_cast<uint32_t>(id));
    card->set_key(e.key());
    card->set_name(e.name());
    card->set_text(e.text());
  }
  static_ = data.get();
  SetStaticData(std::move(data));
}

int LimitGame::CardByKey(std::string_view key) const {
  for (int i = 0; i < cards_.cards_size(); ++i)
    if (cards_.cards(i).key() == key) return i;
  return -1;
}

StatusOr<std::unique_ptr<LimitGame>> LimitGame::FromData(std::string_view cards_text,
                                                         std::string_view board_text,
                                                         std::string_view texts_text) {
  data::CardSet cards;
  Status st = engine::ParseDataFile("limit_cards.textproto", cards_text, &cards);
  if (!st.ok()) return st;
  st = CheckCards(cards);
  if (!st.ok()) return st;
  data::BoardDef board;
  st = engine::ParseDataFile("limit_board.textproto", board_text, &board);
  if (!st.ok()) return st;
  st = CheckBoard(board);
  if (!st.ok()) return st;
  auto texts = engine::Catalogue::Parse("texts.textproto", texts_text);
  if (!texts.ok()) return texts.status();
  auto game = std::unique_ptr<LimitGame>(new LimitGame(std::move(cards), std::move(board)));
  game->SetTexts(texts.value());
  return game;
}


// The card's English title, the French name printed on it beside (the book's name matters: it is
// the one on the table and in the rules).
static std::string BothNames(const Card& c) {
  if (c.name_en().empty() || c.name_en() == c.name()) return c.name();
  return c.name_en() + " (" + c.name() + ")";
}

std::string LimitGame::GameViewText(const engine::Message& view, const SeatNamer& name) const {
  const auto& v = static_cast<const View&>(view);
  // A view names its cards by id; the printed fields are the game's (an unknown id: the id alone).
  auto Printed = [this](const Card& c) -> const Card& {
    return c.id() < static_cast<uint32_t>(CardCount()) ? CardTemplate(c.id()) : c;
  };
  static const char* kPhases[] = {"?", "new policy", "hand limit", "political decisions",
                                  "social phase", "international phase", "Alliance step",
                                  "resilience test", "game over"};
  static const char* kClasses = "ABCDE";
  const int phase = v.phase() >= 0 && v.phase() <= PHASE_GAME_OVER ? v.phase() : 0;
  std::string out = "Generation " + std::to_string(v.generation()) + " - " + kPhases[phase];
  if (v.turn() >= 0) out += " - turn: " + name(v.turn());
  out += " - leader: " + name(static_cast<int>(v.leader())) + "\n";
  for (const auto& n : v.nations()) {
    out += "  " + name(static_cast<int>(n.seat())) + ": population " +
           std::to_string(n.population()) + ", living";
    for (int c = 0; c < n.classes_size() && c < 5; ++c)
      out += std::string(" ") + kClasses[c] + std::to_string(n.classes(c));
    out += ", disorder " + std::to_string(n.disorder()) + ", $" + std::to_string(n.money()) +
           ", R" + std::to_string(n.stocks().renewable()) + " I" +
           std::to_string(n.stocks().industrial()) + " M" + std::to_string(n.stocks().military()) +
           " F" + std::to_string(n.stocks().fossil()) + ", pollution " +
           std::to_string(n.pollution()) + ", D " + std::to_string(n.destabilisation()) +
           ", territories " + std::to_string(n.territories()) + ", " +
           std::to_string(n.hand_size()) + " in hand";
    if (n.passed()) out += ", passed";
    out += "\n";
    if (n.permanents_size() > 0) {
      out += "    in play:";
      for (const auto& c : n.permanents()) out += " " + BothNames(Printed(c)) + ";";
      out += "\n";
    }
  }
  if (v.hand_size() > 0) {
    out += "Your hand:\n";
    for (const auto& c : v.hand()) {
      const Card& printed = Printed(c);
      out += "  [" + std::to_string(c.id()) + "] " + BothNames(printed) +
             (c.playable() ? "" : " (cannot pay)") + " - " + printed.cost_text() + " / " +
             printed.effect_text() + "\n";
    }
  }
  out += "Market:";
  static const char* kRes[] = {"?", "R", "I", "M", "F"};
  for (const auto& t : v.market().tracks()) {
    const int r = t.resource() >= 0 && t.resource() <= 4 ? t.resource() : 0;
    const uint32_t price = t.position() < static_cast<uint32_t>(board_.prices_size())
                               ? board_.prices(static_cast<int>(t.position()))
                               : 0;
    out += std::string(" ") + kRes[r] + " " + std::to_string(price) + "$";
  }
  out += " - World Bank $" + std::to_string(v.world_bank()) + ", crises " +
         std::to_string(v.crises_size()) + "\n";
  for (const auto& line : v.scores())
    out += "  " + name(static_cast<int>(line.seat())) + " scores " + std::to_string(line.total()) +
           "\n";
  return out;
}

// Any options go with any seat count: solo ignores `alliances` (event cards replace the step).
std::unique_ptr<engine::State> LimitGame::NewTypedState(int num_seats, const Options& options,
                                                        uint64_t seed) const {
  internal::StateProto s;
  s.set_num_seats(static_cast<uint32_t>(num_seats));
  auto state = std::make_unique<LimitState>(this, std::move(s));
  state->Setup(options, seed);
  return state;
}

StatusOr<std::unique_ptr<engine::State>> LimitGame::Deserialize(std::string_view bytes) const {
  internal::StateProto s;
  if (!s.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    return Status(ec::kMalformed, "The bytes are not a LIMIT position.");
  return FromProto(s);
}

StatusOr<std::unique_ptr<engine::State>> LimitGame::FromProto(
    const internal::StateProto& p) const {
  if (p.num_seats() < 1 || p.num_seats() > 6 ||
      p.nations_size() != static_cast<int>(p.num_seats()))
    return Status(ec::kMalformed, "Not a consistent LIMIT position: seat count.");
  for (const auto& n : p.nations()) {
    if (n.classes_size() != kClasses || n.transition_tile_size() != kClasses ||
        n.decks_size() != kDecks)
      return Status(ec::kMalformed, "Not a consistent LIMIT position: nation board.");
    for (uint32_t c : n.hand())
      if (c >= static_cast<uint32_t>(cards_.cards_size()))
        return Status(ec::kMalformed, "Not a consistent LIMIT position: card id.");
  }
  return std::unique_ptr<engine::State>(
      new LimitState(this, p));
}

// ----- State: setup -----

LimitState::LimitState(const LimitGame* game, internal::StateProto position)
    : TypedState(game, static_cast<int>(position.num_seats()), /*splits=*/true), game_(game) {
  s_ = std::move(position);
  // Positions printed before decisions had ids (the console's rule-book examples): give them
  // ids now, so a question's id depends on the position alone.
  for (int j = 0; j < s_.nations_size(); ++j)
    for (auto& c : *s_.mutable_nations(j)->mutable_choices())
      if (c.id().empty()) c.set_id(NewPromptId(j));
}

void LimitState::Setup(const Options& o, uint64_t seed) {
  const auto& b = board();
  const int n = static_cast<int>(s_.num_seats());
  engine::Rng rng(seed);
  s_.set_first_game(o.first_game());
  s_.set_alliances(o.alliances() && n > 1);
  s_.set_solo(n == 1);
  s_.set_generation(1);
  const uint32_t start_money = o.first_game() ? b.start_money_first_game() : b.start_money();
  uint64_t total_money = 0, total_fossil = 0;
  for (int i = 0; i < n; ++i) {
    NationState* ns = s_.add_nations();
    ns->set_pop_rank(b.start_population_rank());
    ns->set_renewable_rank(b.start_renewable_rank());
    ns->set_industrial_rank(1);
    ns->set_military_rank(1);
    for (int c = 0; c < kClasses; ++c) {
      ns->add_classes(1);
      ns->add_transition_tile(true);
    }
    ns->set_disorder(b.disorder_start());
    ns->set_renewable(b.start_renewable());
    ns->set_industrial(b.start_industrial());
    ns->set_fossil(b.start_fossil());
    ns->set_money(start_money);
    ns->set_territories(b.start_territories());
    for (int d = 0; d < kDecks; ++d) ns->add_decks();
    for (int id = 0; id < g().cards().cards_size(); ++id) {
      const auto& c = g().card(id);
      if (c.starting()) ns->add_hand(id);
      else if (c.tech_level() > 0) ns->add_set_aside(id);
      else ns->mutable_decks(DeckIndex(c.deck()))->add_cards(id);
    }
    for (int d = 0; d < kDecks; ++d) rng.ShuffleRepeated(ns->mutable_decks(d)->mutable_cards());
    total_money += start_money;
    total_fossil += b.start_fossil();
  }
  // Every nation box holds the same bills: what a nation does not keep goes to the World Bank.
  s_.set_bank(n * b.money_per_nation() - n * start_money);
  total_money += s_.bank();
  for (const auto& m : b.markets()) {
    auto* t = s_.add_market();
    t->set_resource(m.resource());
    t->set_position(m.start_position());
    t->set_stock(m.start_stock());
  }
  total_fossil += b.markets(3).start_stock();
  if (s_.solo()) {
    s_.set_pollution_reserve(b.solo_pollution_reserve());
    s_.set_destabilisation_reserve(b.solo_destabilisation_reserve());
    s_.set_colonisation_territories(b.solo_colonisation_territories());
    s_.set_colonisation_fossil(b.solo_colonisation_fossil());
    auto* star = s_.mutable_star();
    star->set_territories(b.star_territories());
    star->set_fossil(b.star_fossil());
    star->set_money(b.star_money());
    total_money += b.star_money();
    total_fossil += b.star_fossil();
    for (int e = 0; e < b.events_size(); ++e) s_.add_events(e);
    rng.ShuffleRepeated(s_.mutable_events());
  } else {
    s_.set_pollution_reserve(b.pollution_reserve_base() + n * b.pollution_reserve_per_nation());
    s_.set_destabilisation_reserve(b.destabilisation_reserve_base() +
                                   n * b.destabilisation_reserve_per_nation());
    s_.set_colonisation_territories(b.colonisation_territories_base() + n);
    s_.set_colonisation_fossil(b.colonisation_fossil_base() + n * b.colonisation_fossil_per_nation());
  }
  total_fossil += s_.colonisation_fossil();
  s_.set_leader(static_cast<uint32_t>(rng.Below(n)));
  s_.set_rng(rng.state());
  s_.set_initial_money(total_money);
  s_.set_initial_fossil(total_fossil);
  s_.set_initial_pollution(s_.pollution_reserve());
  s_.set_initial_destabilisation(s_.destabilisation_reserve());
  s_.set_initial_territories(n * b.start_territories() + s_.colonisation_territories() +
                             (s_.solo() ? b.star_territories() : 0));
  s_.set_turn(-1);
  Log(T("limit.log.generation", s_.generation(), Seat{static_cast<int>(s_.leader())}));
  StartGeneration();
  Advance();
}

// ----- Rule helpers -----

uint32_t LimitState::PopValue(int rank) const {
  if (rank <= 0) return 0;
  const auto& p = board().population();
  return p[std::min(rank, p.size()) - 1];
}

uint32_t LimitState::TrackValue(Factory f, int rank) const {
  if (rank <= 0) return 0;
  const auto& v = board().tracks(static_cast<int>(f) - 1).value();
  return v[std::min(rank, v.size()) - 1];
}

int LimitState::MaxRank(int seat, Factory f) const {
  const int top = board().tracks(static_cast<int>(f) - 1).value_size();
  if (f != FACTORY_RENEWABLE) return top;
  // Territories cover the renewable track: the cube never passes the last one.
  return std::max(1, std::min<int>(top, N(seat).territories() + board().territory_rank_bonus()));
}

bool LimitState::CanRaiseClass(int seat, int c) const {
  const auto& n = N(seat);
  if (n.classes(c) >= 4) return false;
  return c == 0 || n.classes(c) < n.classes(c - 1);
}

bool LimitState::CanLowerClass(int seat, int c) const {
  const auto& n = N(seat);
  if (n.classes(c) <= 1) return false;
  return c == kClasses - 1 || n.classes(c + 1) < n.classes(c);
}

void LimitState::RaiseClass(int seat, int c) {
  auto& n = N(seat);
  n.set_classes(c, n.classes(c) + 1);
  if (n.classes(c) == 3 && n.transition_tile(c)) {
    // First time on the third position: the demographic transition tile moves to the zone.
    n.set_transition_tile(c, false);
    n.set_transition_tokens(n.transition_tokens() + 1);
  }
}

void LimitState::LowerClass(int seat, int c) { N(seat).set_classes(c, N(seat).classes(c) - 1); }

void LimitState::RaiseDisorder(int seat, uint32_t k) {
  auto& n = N(seat);
  const uint32_t top = board().disorder_positions() - 1;
  const uint32_t move = std::min(k, top - n.disorder());
  n.set_disorder(n.disorder() + move);
  if (k > move) GainDestab(seat, k - move);  // each step past the end: a destabilisation token
}

void LimitState::LowerDisorder(int seat, uint32_t k) {
  auto& n = N(seat);
  n.set_disorder(n.disorder() - std::min(k, n.disorder()));
}

void LimitState::GainDestab(int seat, uint32_t k) {
  const uint32_t from_reserve = std::min(k, s_.destabilisation_reserve());
  s_.set_destabilisation_reserve(s_.destabilisation_reserve() - from_reserve);
  s_.set_destabilisation_from_limit(s_.destabilisation_from_limit() + (k - from_reserve));
  N(seat).set_destabilisation(N(seat).destabilisation() + k);
}

void LimitState::StarGainDestab(uint32_t k) {
  const uint32_t from_reserve = std::min(k, s_.destabilisation_reserve());
  s_.set_destabilisation_reserve(s_.destabilisation_reserve() - from_reserve);
  s_.set_destabilisation_from_limit(s_.destabilisation_from_limit() + (k - from_reserve));
  s_.mutable_star()->set_destabilisation(s_.star().destabilisation() + k);
}

void LimitState::GainPollution(int seat, uint32_t k) {
  const uint32_t from_reserve = std::min(k, s_.pollution_reserve());
  s_.set_pollution_reserve(s_.pollution_reserve() - from_reserve);
  s_.set_excess_pollution(s_.excess_pollution() + (k - from_reserve));
  N(seat).set_pollution(N(seat).pollution() + k);
}

void LimitState::StarGainPollution(uint32_t k) {
  const uint32_t from_reserve = std::min(k, s_.pollution_reserve());
  s_.set_pollution_reserve(s_.pollution_reserve() - from_reserve);
  s_.set_excess_pollution(s_.excess_pollution() + (k - from_reserve));
  s_.mutable_star()->set_pollution(s_.star().pollution() + k);
}

uint32_t LimitState::LosePollution(int seat, uint32_t k) {
  const uint32_t lost = std::min(k, N(seat).pollution());
  N(seat).set_pollution(N(seat).pollution() - lost);
  for (uint32_t i = 0; i < lost; ++i) {
    // Excess tokens leave play first, so none is in play while the reserve has tokens.
    if (s_.excess_pollution() > 0) {
      s_.set_excess_pollution(s_.excess_pollution() - 1);
      s_.set_pollution_to_limit(s_.pollution_to_limit() + 1);
    } else {
      s_.set_pollution_reserve(s_.pollution_reserve() + 1);
    }
  }
  return lost;
}

void LimitState::PopUp(int seat) {
  if (N(seat).pop_rank() < static_cast<uint32_t>(board().population_size()))
    N(seat).set_pop_rank(N(seat).pop_rank() + 1);
}

void LimitState::PopDown(int seat) {
  if (N(seat).pop_rank() > 1) N(seat).set_pop_rank(N(seat).pop_rank() - 1);
}


void LimitState::FactoryUp(int seat, Factory f, int k) {
  const int r = static_cast<int>(FactoryRank(N(seat), f));
  const int top = MaxRank(seat, f);
  if (r >= top) return;  // already at the limit: nothing happens
  SetFactoryRank(N(seat), f, static_cast<uint32_t>(std::min(top, r + k)));
}

void LimitState::FactoryDown(int seat, Factory f, int k) {
  const int r = static_cast<int>(FactoryRank(N(seat), f));
  SetFactoryRank(N(seat), f, static_cast<uint32_t>(std::max(1, r - k)));
}

void LimitState::LoseTerritory(int seat) {
  auto& n = N(seat);
  if (n.territories() == 0) return;
  n.set_territories(n.territories() - 1);
  // Never more renewable rank than territories allow.
  const int top = MaxRank(seat, FACTORY_RENEWABLE);
  if (static_cast<int>(n.renewable_rank()) > top) n.set_renewable_rank(top);
}

void LimitState::BankPay(int seat, uint32_t amount, bool crisis_rule) {
  uint32_t paid = std::min(amount, s_.bank());
  s_.set_bank(s_.bank() - paid);
  if (paid < amount && crisis_rule) {
    // Empty World Bank: the money comes from the LIMIT box and a financial crisis is due.
    const uint32_t rest = amount - paid;
    s_.set_money_from_limit(s_.money_from_limit() + rest);
    paid = amount;
    if (!HasCrisisThisGeneration(CRISIS_FINANCIAL)) {
      AddCrisis(CRISIS_FINANCIAL);
      Log(T("limit.log.bank_empty"));
    }
  }
  N(seat).set_money(N(seat).money() + paid);
}

bool LimitState::HasCrisisThisGeneration(CrisisKind kind) const {
  for (const auto& c : s_.crises())
    if (c.kind() == kind && c.generation() == s_.generation()) return true;
  return false;
}

int LimitState::CrisisCount(CrisisKind kind) const {
  int k = 0;
  for (const auto& c : s_.crises()) k += c.kind() == kind;
  return k;
}

void LimitState::AddCrisis(CrisisKind kind) {
  auto* c = s_.add_crises();
  c->set_kind(kind);
  c->set_generation(s_.generation());
}

uint32_t LimitState::SpendByRank(uint32_t* stock, int rank, uint32_t* spent) {
  int k = std::max(rank, 0);
  while (k > 0 && PopValue(k) > *stock) --k;
  *spent = PopValue(k);
  *stock -= *spent;
  return static_cast<uint32_t>(std::max(rank, 0) - k);
}

bool LimitState::HasPermanent(int seat, data::Effect e) const {
  for (uint32_t id : N(seat).permanents())
    if (g().card(id).effect() == e) return true;
  return false;
}

void LimitState::UnderDeck(int seat, uint32_t card) {
  N(seat).mutable_decks(DeckIndex(g().card(card).deck()))->add_cards(card);
}

void LimitState::SpendIndustrial(int seat, uint32_t amount) {
  N(seat).set_industrial(N(seat).industrial() - amount);
  if (amount >= 10 && HasPermanent(seat, data::EFFECT_RECYCLING)) {
    N(seat).set_fossil(N(seat).fossil() + 1);
    s_.set_fossil_from_limit(s_.fossil_from_limit() + 1);
  }
}

// ----- Choices -----

void LimitState::PushChoice(int seat, PromptKind kind, uint32_t count, engine::v1::Text why,
                            bool growth_down) {
  if (count == 0) return;
  auto* c = N(seat).add_choices();
  c->set_kind(kind);
  c->set_count(count);
  *c->mutable_why() = std::move(why);
  c->set_id(NewPromptId(seat));
  c->set_growth_down(growth_down);
  c->set_from_seat(-1);
  c->set_subject(-1);
  AutoResolve(seat);
}

internal::Choice* LimitState::AddChoice(int seat, PromptKind kind, uint32_t count,
                                        engine::v1::Text why) {
  auto* c = N(seat).add_choices();
  c->set_kind(kind);
  c->set_count(count);
  *c->mutable_why() = std::move(why);
  c->set_id(NewPromptId(seat));
  c->set_from_seat(-1);
  c->set_subject(-1);
  return c;
}

std::vector<uint32_t> LimitState::ChoiceOptions(int seat, const internal::Choice& c) const {
  std::vector<uint32_t> out;
  switch (c.kind()) {
    case PROMPT_RAISE_CLASS:
      for (int k = 0; k < kClasses; ++k)
        if (CanRaiseClass(seat, k)) out.push_back(k);
      break;
    case PROMPT_LOWER_CLASS:
      for (int k = 0; k < kClasses; ++k)
        if (CanLowerClass(seat, k)) out.push_back(k);
      break;
    case PROMPT_LOWER_FACTORY:
      for (Factory f : {FACTORY_RENEWABLE, FACTORY_INDUSTRIAL, FACTORY_MILITARY})
        if (FactoryRank(N(seat), f) > 1) out.push_back(f);
      break;
    case PROMPT_GROWTH_FACTORY:
      for (Factory f : {FACTORY_INDUSTRIAL, FACTORY_MILITARY}) {
        const int r = static_cast<int>(FactoryRank(N(seat), f));
        if (c.growth_down() ? r > 1 : r < MaxRank(seat, f)) out.push_back(f);
      }
      break;
    default:
      break;
  }
  return out;
}

void LimitState::AutoResolve(int seat) {
  // A choice with one option (or none: "as far as possible") needs nobody.
  auto& n = N(seat);
  while (n.choices_size() > 0) {
    const auto& c = n.choices(0);
    const PromptKind k = c.kind();
    if (k != PROMPT_RAISE_CLASS && k != PROMPT_LOWER_CLASS && k != PROMPT_LOWER_FACTORY &&
        k != PROMPT_GROWTH_FACTORY)
      return;
    auto opts = ChoiceOptions(seat, c);
    if (opts.size() > 1) return;
    if (opts.size() == 1) {
      switch (k) {
        case PROMPT_RAISE_CLASS: RaiseClass(seat, static_cast<int>(opts[0])); break;
        case PROMPT_LOWER_CLASS: LowerClass(seat, static_cast<int>(opts[0])); break;
        case PROMPT_LOWER_FACTORY: FactoryDown(seat, static_cast<Factory>(opts[0]), 1); break;
        default:
          if (c.growth_down()) FactoryDown(seat, static_cast<Factory>(opts[0]), 1);
          else FactoryUp(seat, static_cast<Factory>(opts[0]), 1);
          break;
      }
      if (c.count() > 1 && !opts.empty()) {
        Repeat(seat, c.count() - 1);
        continue;
      }
    }
    n.mutable_choices()->erase(n.mutable_choices()->begin());
  }
}

bool LimitState::AnyChoices() const {
  for (const auto& n : s_.nations())
    if (n.choices_size() > 0) return true;
  return false;
}

std::vector<int> LimitState::GameActingSeats() const {
  std::vector<int> out;
  if (IsTerminal()) return out;
  for (int i = 0; i < Seats(); ++i)
    if (N(i).choices_size() > 0) out.push_back(i);
  if (out.empty() && s_.turn() >= 0 &&
      (s_.phase() == PHASE_POLITICAL_DECISIONS ||
       (s_.phase() == PHASE_ALLIANCE && !s_.alliance_pending().active())))
    out.push_back(s_.turn());
  return out;
}

const internal::StarState* LimitState::Star() const { return s_.solo() ? &s_.star() : nullptr; }


// ----- Generation flow -----

void LimitState::StartGeneration() {
  for (int i = 0; i < Seats(); ++i) {
    auto& n = N(i);
    const uint32_t a = n.classes(0);
    n.set_class_a_at_start(a);
    // Technological advance: set-aside cards join the hand once class A reached their level.
    for (int k = n.set_aside_size() - 1; k >= 0; --k) {
      const uint32_t id = n.set_aside(k);
      if (g().card(id).tech_level() <= a) {
        n.add_hand(id);
        n.mutable_set_aside()->erase(n.mutable_set_aside()->begin() + k);
      }
    }
    n.set_hand_limit(board().hand_limit(a - 1));
    n.set_draw_count(board().draw_count(a - 1));
    n.set_keep_count(board().keep_count(a - 1));
    n.set_passed(false);
    n.set_cards_this_turn(0);
    n.clear_failed_collections();
  }
  s_.set_phase(PHASE_NEW_POLICY);
  s_.set_turn(-1);
  for (int i = 0; i < Seats(); ++i) {
    bool any = false;
    for (const auto& d : N(i).decks()) any = any || d.cards_size() > 0;
    if (any) PushChoice(i, PROMPT_CHOOSE_DECK, 1, T("limit.why.new_policy"));
  }
}

void LimitState::Advance() {
  for (int guard = 0; guard < 10000; ++guard) {
    if (AnyChoices()) return;
    if (s_.pending().active()) {
      ResolvePending();
      continue;
    }
    switch (s_.phase()) {
      case PHASE_NEW_POLICY:
        s_.set_phase(PHASE_HAND_LIMIT);
        for (int i = 0; i < Seats(); ++i) {
          const int over = N(i).hand_size() - static_cast<int>(N(i).hand_limit());
          if (over > 0)
            PushChoice(i, PROMPT_DISCARD, over, T("limit.why.hand_limit", N(i).hand_limit(), over));
        }
        continue;
      case PHASE_HAND_LIMIT:
        EnterPolitical();
        continue;
      case PHASE_POLITICAL_DECISIONS:
        if (s_.turn() < 0) {
          EndPolitical();
          continue;
        }
        return;
      case PHASE_SOCIAL:
      case PHASE_RESILIENCE: {
        bool all_done = true;
        for (int i = 0; i < Seats(); ++i) {
          RunSocial(i);
          all_done = all_done && N(i).step() == SOCIAL_STEP_DONE;
        }
        if (AnyChoices()) return;
        if (!all_done) continue;
        if (s_.phase() == PHASE_RESILIENCE) {
          FinishGame();
          return;
        }
        s_.set_phase(PHASE_INTERNATIONAL);
        s_.set_international_step(0);
        continue;
      }
      case PHASE_INTERNATIONAL:
        RunInternational();
        continue;
      case PHASE_ALLIANCE:
        if (s_.alliance_pending().active()) {
          ResolveAlliancePending();
          continue;
        }
        if (s_.turn() >= 0) return;
        // Everyone played: every token shows its Negotiation side again.
        for (int i = 0; i < Seats(); ++i) {
          N(i).set_military_accord(false);
          N(i).set_economic_accord(false);
        }
        s_.set_phase(PHASE_INTERNATIONAL);
        s_.set_international_step(7);
        continue;
      default:
        return;
    }
  }
}

void LimitState::EnterPolitical() {
  s_.set_phase(PHASE_POLITICAL_DECISIONS);
  s_.set_turn(static_cast<int>(s_.leader()));
}

void LimitState::EndTurn() {
  const int cur = s_.turn();
  if (cur >= 0) N(cur).set_cards_this_turn(0);
  for (int k = 1; k <= Seats(); ++k) {
    const int next = (cur + k) % Seats();
    if (!N(next).passed()) {
      s_.set_turn(next);
      return;
    }
  }
  s_.set_turn(-1);
}

void LimitState::EndPolitical() {
  for (int i = 0; i < Seats(); ++i) {
    auto& n = N(i);
    // Immediate cards come back to the hand; permanent ones stay in play.
    for (uint32_t id : n.played()) n.add_hand(id);
    n.clear_played();
    n.clear_failed_collections();
    n.set_cards_this_turn(0);
  }
  Log(T("limit.log.social_phase"));
  StartSocial(false);
}

void LimitState::StartSocial(bool resilience) {
  s_.set_phase(resilience ? PHASE_RESILIENCE : PHASE_SOCIAL);
  s_.set_turn(-1);
  for (int i = 0; i < Seats(); ++i) {
    // The column is fixed by class C when the phase begins, whatever happens during it.
    N(i).set_column(N(i).classes(2));
    N(i).set_step(SOCIAL_STEP_FEEDING);
    N(i).clear_help();
  }
}

void LimitState::RunSocial(int seat) {
  const bool resilience = s_.phase() == PHASE_RESILIENCE;
  // A nation waiting for its allies' answers stops until they all answered.
  while (N(seat).choices_size() == 0 && !HelpWaiting(seat) &&
         N(seat).step() != SOCIAL_STEP_DONE) {
    const SocialStep st = N(seat).step();
    SocialStep next = static_cast<SocialStep>(st + 1);
    if (resilience) {
      // The resilience test repeats feeding, consumption and production only.
      next = st == SOCIAL_STEP_FEEDING       ? SOCIAL_STEP_CONSUMPTION
             : st == SOCIAL_STEP_CONSUMPTION ? SOCIAL_STEP_PRODUCTION
                                             : SOCIAL_STEP_DONE;
    }
    N(seat).set_step(next);
    SocialStepRun(seat, st);
  }
}

void LimitState::SocialStepRun(int seat, SocialStep step) {
  auto& n = N(seat);
  const uint32_t col = n.column();
  const int pop = static_cast<int>(n.pop_rank());
  switch (step) {
    case SOCIAL_STEP_FEEDING: {
      const int rank = pop - (HasPermanent(seat, data::EFFECT_VEGETARIANISM) ? 1 : 0);
      const uint32_t need = PopValue(rank);
      if (AskHelp(seat, step, ALLIANCE_ECONOMIC, RESOURCE_RENEWABLE,
                  need > n.renewable() ? need - n.renewable() : 0)) {
        n.set_step(step);  // run again once the allies answered
        break;
      }
      uint32_t stock = n.renewable(), spent = 0;
      const uint32_t unfed = SpendByRank(&stock, rank, &spent);
      n.set_renewable(stock);
      Log(T("limit.log.feeds", Seat{seat}, spent));
      if (unfed > 0) {
        Log(T("limit.log.famine", Seat{seat}, unfed, 3 * unfed));
        for (uint32_t k = 0; k < unfed; ++k) {
          PopDown(seat);
          RaiseDisorder(seat, 3);
        }
        PushChoice(seat, PROMPT_LOWER_FACTORY, unfed, T("limit.why.famine"));
      }
      break;
    }
    case SOCIAL_STEP_CONSERVATION:
      n.set_renewable(std::min(n.renewable(), board().renewable_keep_max()));
      break;
    case SOCIAL_STEP_CONSUMPTION: {
      if (col <= 1) break;
      int rank = pop + static_cast<int>(col) - 3;  // level 2: one rank lower; 4: one higher
      if (HasPermanent(seat, data::EFFECT_REASONED_CONSUMPTION)) --rank;
      const uint32_t need = PopValue(rank);
      if (AskHelp(seat, step, ALLIANCE_ECONOMIC, RESOURCE_INDUSTRIAL,
                  need > n.industrial() ? need - n.industrial() : 0)) {
        n.set_step(step);
        break;
      }
      uint32_t stock = n.industrial(), spent = 0;
      const uint32_t missing = SpendByRank(&stock, rank, &spent);
      SpendIndustrial(seat, spent);
      Log(T("limit.log.consumes", Seat{seat}, spent));
      if (missing > 0) {
        Log(T("limit.log.industrial_shortage", Seat{seat}, missing, 2 * missing));
        RaiseDisorder(seat, 2 * missing);
        PushChoice(seat, PROMPT_LOWER_CLASS, missing, T("limit.why.industrial_shortage"));
      }
      break;
    }
    case SOCIAL_STEP_DEMOGRAPHIC_GROWTH:
      if (col <= 2) PopUp(seat);
      break;
    case SOCIAL_STEP_MORTALITY:
      if (n.transition_tokens() >= 2) PopUp(seat);
      break;
    case SOCIAL_STEP_NATALITY:
      n.set_transition_tokens(n.transition_tokens() - std::min<uint32_t>(2, n.transition_tokens()));
      break;
    case SOCIAL_STEP_ECONOMIC_GROWTH:
      if (HasPermanent(seat, data::EFFECT_PLANNING)) break;
      if (col == 1) {
        FactoryUp(seat, FACTORY_RENEWABLE, 1);
      } else if (col == 2) {
        FactoryUp(seat, FACTORY_RENEWABLE, 1);
        FactoryUp(seat, FACTORY_INDUSTRIAL, 1);
      } else if (col == 3) {
        PushChoice(seat, PROMPT_GROWTH_FACTORY, 1, T("limit.why.growth_up"));
      } else {
        PushChoice(seat, PROMPT_GROWTH_FACTORY, 1, T("limit.why.growth_down"), true);
      }
      break;
    case SOCIAL_STEP_TAXATION: {
      const uint32_t before = n.money();
      BankPay(seat, board().tax_per_pop(col - 1) * PopValue(pop), true);
      Log(T("limit.log.taxes", Seat{seat}, n.money() - before));
      break;
    }
    case SOCIAL_STEP_PRODUCTION: {
      // Fossil the whole step needs: intensive agriculture's token, then both factories.
      uint32_t need = HasPermanent(seat, data::EFFECT_INTENSIVE_AGRICULTURE) ? 1 : 0;
      for (Factory f : {FACTORY_INDUSTRIAL, FACTORY_MILITARY}) {
        const int r = static_cast<int>(FactoryRank(n, f));
        if (r > 0) need += board().tracks(static_cast<int>(f) - 1).fossil(r - 1);
      }
      if (AskHelp(seat, step, ALLIANCE_ECONOMIC, RESOURCE_FOSSIL,
                  need > n.fossil() ? need - n.fossil() : 0)) {
        n.set_step(step);
        break;
      }
      // Logged as the change of the stocks, which is what the three productions add up to.
      const uint32_t r0 = n.renewable(), i0 = n.industrial(), m0 = n.military(),
                     f0 = n.fossil(), p0 = n.pollution();
      Produce(seat, FACTORY_RENEWABLE, true);
      Produce(seat, FACTORY_INDUSTRIAL, true);
      Produce(seat, FACTORY_MILITARY, true);
      Log(T("limit.log.produces", Seat{seat}, n.renewable() - r0, n.industrial() - i0,
            n.military() - m0, f0 - n.fossil(), n.pollution() - p0));
      break;
    }
    case SOCIAL_STEP_PUBLIC_ORDER: {
      const uint32_t positions = board().disorder_positions();
      if (n.disorder() >= positions - board().revolt_positions()) {
        if (col <= 2) {
          const uint32_t need = PopValue(pop - static_cast<int>(3 - col));
          if (AskHelp(seat, step, ALLIANCE_MILITARY, RESOURCE_MILITARY,
                      need > n.military() ? need - n.military() : 0)) {
            n.set_step(step);
            break;
          }
          uint32_t stock = n.military(), spent = 0;
          const uint32_t missing = SpendByRank(&stock, pop - static_cast<int>(3 - col), &spent);
          n.set_military(stock);
          Log(T("limit.log.revolt_spends", Seat{seat}, spent));
          if (missing > 0) {
            Log(T("limit.log.revolt_shortage", Seat{seat}, missing));
            PushChoice(seat, PROMPT_LOWER_CLASS, missing, T("limit.why.military_shortage"));
          }
        } else {
          const uint32_t due = (col == 3 ? 2 : 3) * PopValue(pop);
          const uint32_t lost = std::min(due, n.money());
          n.set_money(n.money() - lost);
          s_.set_money_to_limit(s_.money_to_limit() + lost);
          Log(T("limit.log.revolt_pays", Seat{seat}, lost));
        }
        Log(T("limit.log.revolt", Seat{seat}));
      } else if (n.disorder() < board().boom_positions()) {
        if (col <= 3) PushChoice(seat, PROMPT_RAISE_CLASS, 1, T("limit.why.boom"));
        const uint32_t before = n.money();
        BankPay(seat, col == 1 ? 5 : 10, true);
        Log(T("limit.log.boom", Seat{seat}, n.money() - before));
      } else if (col <= 3) {
        PushChoice(seat, PROMPT_RAISE_CLASS, 1, T("limit.why.progress"));
      }
      break;
    }
    case SOCIAL_STEP_CLASS_STRUGGLE:
      RaiseDisorder(seat, n.classes(0) - n.classes(4));
      break;
    default:
      break;
  }
}

void LimitState::Produce(int seat, Factory f, bool shortage_penalty) {
  auto& n = N(seat);
  const auto& track = board().tracks(static_cast<int>(f) - 1);
  int r = static_cast<int>(FactoryRank(n, f));
  if (f == FACTORY_RENEWABLE) {
    uint32_t gain = TrackValue(f, r);
    for (int i = 0; i < n.permanents_size(); ++i) {
      const uint32_t id = n.permanents(i);
      if (g().card(id).effect() != data::EFFECT_INTENSIVE_AGRICULTURE) continue;
      if (n.fossil() < 1) {
        // Without fossil the card must be removed before producing.
        n.mutable_permanents()->erase(n.mutable_permanents()->begin() + i);
        UnderDeck(seat, id);
        FactoryDown(seat, FACTORY_RENEWABLE, 1);
        gain = TrackValue(f, static_cast<int>(n.renewable_rank()));
        Log(T("limit.log.agriculture_removed", Seat{seat}, CardTitle(g().card(id))));
      } else {
        n.set_fossil(n.fossil() - 1);
        s_.set_fossil_to_limit(s_.fossil_to_limit() + 1);
        GainPollution(seat, 1);
        gain = r >= track.value_size() ? 100 : TrackValue(f, r + 1);
      }
      break;
    }
    n.set_renewable(n.renewable() + gain);
    return;
  }
  int k = r;
  while (k > 0 && track.fossil(k - 1) > n.fossil()) --k;
  const uint32_t fossil = k > 0 ? track.fossil(k - 1) : 0;
  uint32_t pollution = k > 0 ? track.pollution(k - 1) : 0;
  if (f == FACTORY_INDUSTRIAL && pollution > 0 && HasPermanent(seat, data::EFFECT_GREEN_PRODUCTION))
    --pollution;
  n.set_fossil(n.fossil() - fossil);
  s_.set_fossil_to_limit(s_.fossil_to_limit() + fossil);
  GainPollution(seat, pollution);
  if (f == FACTORY_INDUSTRIAL) n.set_industrial(n.industrial() + TrackValue(f, k));
  else n.set_military(n.military() + TrackValue(f, k));
  if (shortage_penalty && k < r) {
    Log(T("limit.log.fossil_shortage", Seat{seat},
          ResourceText(f == FACTORY_INDUSTRIAL ? RESOURCE_INDUSTRIAL : RESOURCE_MILITARY)));
    RaiseDisorder(seat, 2 * (r - k));
    FactoryDown(seat, f, r - k);
  }
}

void LimitState::RunInternational() {
  const int n = Seats();
  const internal::StarState* star = Star();
  const data::SoloRow* row =
      s_.solo() ? &board().solo(static_cast<int>(s_.generation()) - 1) : nullptr;
  switch (s_.international_step()) {
    case 0:  // cold war
      for (int i = 0; i < n; ++i)
        if (N(i).military() > board().cold_war_threshold()) GainDestab(i, 1);
      if (row != nullptr && row->military() > board().cold_war_threshold()) StarGainDestab(1);
      s_.set_international_step(1);
      return;
    case 1:  // financial crisis
      if (HasCrisisThisGeneration(CRISIS_FINANCIAL)) {
        const uint32_t count = CrisisCount(CRISIS_FINANCIAL);
        Log(T("limit.log.financial_crisis", count));
        for (int i = 0; i < n; ++i) {
          const uint32_t lost = std::min(N(i).money(), PopValue(N(i).pop_rank()) * count);
          N(i).set_money(N(i).money() - lost);
          s_.set_bank(s_.bank() + lost);
          PushChoice(i, PROMPT_LOWER_CLASS, 1, T("limit.why.financial_crisis"));
        }
        s_.set_international_step(2);
      } else {
        s_.set_international_step(3);
      }
      return;
    case 2: {  // the richest nation is blamed
      uint32_t best = 0;
      for (int i = 0; i < n; ++i) best = std::max(best, N(i).money());
      if (star != nullptr) best = std::max(best, star->money());
      int tied = 0;
      for (int i = 0; i < n; ++i) tied += N(i).money() == best;
      if (star != nullptr) tied += star->money() == best;
      const uint32_t k = tied > 1 ? 1 : 2;
      for (int i = 0; i < n; ++i)
        if (N(i).money() == best) GainDestab(i, k);
      if (star != nullptr && star->money() == best) StarGainDestab(k);
      s_.set_international_step(3);
      return;
    }
    case 3: {  // ecological crisis
      if (s_.pollution_reserve() == 0 && !HasCrisisThisGeneration(CRISIS_ECOLOGICAL)) {
        AddCrisis(CRISIS_ECOLOGICAL);
        const int count = CrisisCount(CRISIS_ECOLOGICAL);
        Log(T("limit.log.ecological_crisis", count));
        for (int i = 0; i < n; ++i) {
          FactoryDown(i, FACTORY_RENEWABLE, count);
          if (N(i).fossil() > 0) {
            N(i).set_fossil(N(i).fossil() - 1);
            s_.set_fossil_to_limit(s_.fossil_to_limit() + 1);
          }
        }
        if (star != nullptr && star->fossil() > 0) {
          s_.mutable_star()->set_fossil(star->fossil() - 1);
          s_.set_fossil_to_limit(s_.fossil_to_limit() + 1);
        }
        uint32_t best = 0;
        for (int i = 0; i < n; ++i) best = std::max(best, PopValue(N(i).pop_rank()));
        if (row != nullptr) best = std::max(best, row->population());
        int best_rank = 1;
        while (PopValue(best_rank) < best && best_rank < 9) ++best_rank;
        std::vector<bool> hit(n, false);
        for (int i = 0; i < n; ++i) {
          if (PopValue(N(i).pop_rank()) != best) continue;
          hit[i] = true;
          PopDown(i);
          RaiseDisorder(i, 3);
          for (int c = 0; c < kClasses; ++c)
            if (CanLowerClass(i, c)) {
              LowerClass(i, c);  // the highest class that may go down
              break;
            }
        }
        // Migrations: nations now at least two ranks below the hit ones grow.
        const int after = best_rank - 1;
        for (int i = 0; i < n; ++i)
          if (!hit[i] && static_cast<int>(N(i).pop_rank()) <= after - 2) PopUp(i);
      }
      s_.set_international_step(4);
      return;
    }
    case 4: {  // military crisis
      if (s_.destabilisation_reserve() == 0 && !HasCrisisThisGeneration(CRISIS_MILITARY)) {
        AddCrisis(CRISIS_MILITARY);
        const int count = CrisisCount(CRISIS_MILITARY);
        Log(T("limit.log.military_crisis", count));
        for (int i = 0; i < n; ++i) {
          for (int k = 0; k < count; ++k) {
            for (int c = kClasses - 1; c >= 0; --c)
              if (CanLowerClass(i, c)) {
                LowerClass(i, c);  // the class with the lowest level that may go down
                break;
              }
          }
          N(i).clear_help();
        }
        s_.set_international_step(8);
      } else {
        s_.set_international_step(6);
      }
      return;
    }
    case 5: {
      for (int i = 0; i < n; ++i)
        if (N(i).destabilisation() > 0) {
          N(i).set_destabilisation(N(i).destabilisation() - 1);
          s_.set_destabilisation_reserve(s_.destabilisation_reserve() + 1);
        }
      if (star != nullptr && star->destabilisation() > 0) {
        s_.mutable_star()->set_destabilisation(star->destabilisation() - 1);
        s_.set_destabilisation_reserve(s_.destabilisation_reserve() + 1);
      }
      uint32_t best = 0;
      for (int i = 0; i < n; ++i) best = std::max(best, N(i).destabilisation());
      if (star != nullptr) best = std::max(best, star->destabilisation());
      if (best > 0)
        for (int i = 0; i < n; ++i)
          if (N(i).destabilisation() == best) PopDown(i);
      s_.set_international_step(6);
      return;
    }
    case 8:  // military crisis spending, nation by nation (allies may help)
      MilitaryCrisisSpending();
      return;
    case 6:
      if (s_.solo()) {
        ApplyEvent();
      } else if (s_.alliances()) {
        StartAllianceStep();
        return;
      }
      s_.set_international_step(7);
      return;
    default:
      EndGeneration();
      return;
  }
}

void LimitState::ApplyEvent() {
  if (s_.events_size() == 0) {
    engine::Rng rng(s_.rng());
    for (uint32_t e : s_.event_discard()) s_.add_events(e);
    s_.clear_event_discard();
    rng.ShuffleRepeated(s_.mutable_events());
    s_.set_rng(rng.state());
  }
  const uint32_t id = s_.events(0);
  s_.mutable_events()->erase(s_.mutable_events()->begin());
  s_.add_event_discard(id);
  const auto& e = board().events(static_cast<int>(id));
  Log(T("limit.log.event", e.name(), e.text()));
  const int last = board().prices_size() - 1;
  switch (e.effect()) {
    case data::EVENT_PRICE_UP: {
      auto* t = s_.mutable_market(static_cast<int>(e.resource()) - 1);
      t->set_position(std::min<uint32_t>(last, t->position() + e.amount()));
      break;
    }
    case data::EVENT_PRICES_DOWN:
      for (int i = 0; i < 3; ++i) {
        auto* t = s_.mutable_market(i);
        t->set_position(t->position() - std::min(t->position(), e.amount()));
      }
      break;
    case data::EVENT_RENEWABLE_UP: FactoryUp(0, FACTORY_RENEWABLE, e.amount()); break;
    case data::EVENT_LOSE_RENEWABLE:
      N(0).set_renewable(N(0).renewable() - std::min(N(0).renewable(), e.amount()));
      break;
    case data::EVENT_DISORDER_UP: RaiseDisorder(0, e.amount()); break;
    case data::EVENT_STAR_DESTABILISATION: StarGainDestab(e.amount()); break;
    case data::EVENT_STAR_POLLUTION: StarGainPollution(e.amount()); break;
    case data::EVENT_BANK_GRANT: BankPay(0, e.amount(), false); break;
    default: break;
  }
}

void LimitState::EndGeneration() {
  const bool over = s_.generation() >= board().generations() ||
                    s_.crises_size() >= static_cast<int>(board().crises_to_end());
  if (over) {
    Log(T("limit.log.resilience", s_.generation()));
    StartSocial(true);
    return;
  }
  s_.set_generation(s_.generation() + 1);
  s_.set_leader((s_.leader() + 1) % Seats());
  Log(T("limit.log.generation", s_.generation(), Seat{static_cast<int>(s_.leader())}));
  StartGeneration();
}

ScoreLine LimitState::ScoreOf(int seat) const {
  const auto& n = N(seat);
  ScoreLine l;
  l.set_seat(seat);
  l.set_living_sum(n.classes(0) + n.classes(2) + n.classes(4));
  l.set_demographic_index(board().demographic_index(static_cast<int>(n.pop_rank()) - 1));
  l.set_gross_happiness(static_cast<int>(l.living_sum() * l.demographic_index()));
  l.set_money_value(5 - s_.crises_size());
  l.set_financial(l.money_value() > 0 ? static_cast<int>(n.money() / 10) * l.money_value() : 0);
  l.set_territory(5 * static_cast<int>(n.territories()));
  l.set_military(static_cast<int>(n.military() / 3));
  l.set_pollution_penalty(-2 * static_cast<int>(n.pollution()));
  l.set_destabilisation_penalty(-static_cast<int>(n.destabilisation()));
  l.set_total(l.gross_happiness() + l.financial() + l.territory() + l.military() +
              l.pollution_penalty() + l.destabilisation_penalty());
  return l;
}

void LimitState::FinishGame() {
  s_.clear_scores();
  for (int i = 0; i < Seats(); ++i) *s_.add_scores() = ScoreOf(i);
  s_.set_phase(PHASE_GAME_OVER);
  s_.set_turn(-1);
  Log(T("limit.log.game_over"));
}

std::vector<int64_t> LimitState::Scores() const {
  std::vector<int64_t> out;
  for (int i = 0; i < Seats(); ++i)
    out.push_back(i < s_.scores_size() ? s_.scores(i).total() : ScoreOf(i).total());
  return out;
}

std::string LimitState::ResultDetail(int seat) const {
  const ScoreLine l = ScoreOf(seat);
  return "happiness " + std::to_string(l.gross_happiness()) + ", finance " +
         std::to_string(l.financial()) + ", territory " + std::to_string(l.territory()) +
         ", military " + std::to_string(l.military()) + ", impact " +
         std::to_string(l.pollution_penalty() + l.destabilisation_penalty());
}

}  // namespace plateau::games::limit
