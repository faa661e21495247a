// LIMIT: the game (its data files checked, the printed data, the options), positions read back,
// and a new game's set-up.
#include "engine/games/limit/limit.h"
#include "engine/games/limit/limit_nation.h"

#include <algorithm>
#include <set>

#include "engine/core/data.h"

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
    // A title is a template's words (CardName): a brace would read as an argument.
    if (CardTitle(c).find_first_of("{}") != std::string::npos)
      return Bad(f, c.key() + ": a brace in the title");
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
                 10, /*publishes_moves=*/true}),
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
  // Each card's title as a template of its own (CardName).
  engine::v1::TextCatalogue words = std::move(texts).value();
  for (const auto& c : cards.cards()) {
    auto* t = words.add_templates();
    t->set_key(CardNameKey(c));
    t->set_en(CardTitle(c));
  }
  auto game = std::unique_ptr<LimitGame>(new LimitGame(std::move(cards), std::move(board)));
  game->SetTexts(words);
  return game;
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
  // Positions printed with a nation's own queue of choices (the console's rule-book examples,
  // the tests' situations): each choice becomes a decision of the core's queue, in the nation's
  // order, the nations one after the other, with a fresh id. Kinds no nation chooses alone are
  // dropped: they were never written into that queue.
  for (int j = 0; j < s_.nations_size(); ++j) {
    auto choices = std::move(*s_.mutable_nations(j)->mutable_choices());
    s_.mutable_nations(j)->clear_choices();
    for (auto& c : choices) {
      if (!OwnChoice(c.kind())) continue;
      c.clear_id();
      AskChoice(j, c);
    }
  }
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

}  // namespace plateau::games::limit
