// Globalissimo rules, one test per rule of engine/games/globalissimo/RULES.md (section names are
// cited in each test). Most tests run on a small synthetic card set whose values are chosen so
// that rankings and ties are known; the real data is checked by the loading test.
#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "engine/core/registry.h"
#include "engine/games/globalissimo/globalissimo.h"

namespace plateau::data::globalissimo {
extern const std::string_view ktexts;  // the game's catalogue, embedded in its library
}

namespace plateau::games::globalissimo {
namespace {

using ::plateau::data::globalissimo::ktexts;
using engine::State;
using internal::StateProto;

// ----- Fixtures -----

// Capitals of the first synthetic countries, to exercise answer matching through the game.
const char* const kSpecialCapitals[][2] = {
    {"Bogotá", nullptr},          // country 0
    {"The Hague", "Amsterdam"},   // country 1
    {"Port-au-Prince", nullptr},  // country 2
};

// 10 categories, 100 countries. Category 0: country i has value i. Category 1: value i / 2
// (countries 2k and 2k+1 tie). Category 2: 100 - i with two decimals. Others: i * 1000.
std::string SyntheticCards() {
  data::CardSet cards;
  for (int k = 0; k < 10; ++k) {
    auto* c = cards.add_categories();
    c->set_id(std::string("cat") += std::to_string(k));
    c->set_name(std::string("Category ") += std::to_string(k));
    c->set_unit(k == 2 ? "years" : "units");
    c->set_source("synthetic");
    c->set_year(2020);
    c->set_decimals(k == 2 ? 2 : 0);
  }
  for (int i = 0; i < 100; ++i) {
    auto* c = cards.add_countries();
    c->set_id(std::string("C") += std::to_string(100 + i));
    c->set_name(std::string("Country ") += std::to_string(i));
    if (i < 3) {
      c->add_capitals(kSpecialCapitals[i][0]);
      if (kSpecialCapitals[i][1]) c->add_capitals(kSpecialCapitals[i][1]);
    } else {
      c->add_capitals("Capital " + std::to_string(i));
    }
    char map_id[8];
    std::snprintf(map_id, sizeof map_id, "%03d", i + 1);
    c->set_map_id(map_id);
    c->set_flag("F");
    for (int k = 0; k < 10; ++k) {
      c->add_values(k == 0 ? i : k == 1 ? i / 2 : k == 2 ? 100 - i : i * 1000.0);
    }
  }
  std::string text;
  google::protobuf::TextFormat::PrintToString(cards, &text);
  return text;
}

const char kBoard[] =
    "score_squares: 30 barrier_after: [1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27] "
    "orange_barriers: 7 violet_barriers: 7";

const GlobalissimoGame& Synthetic() {
  static const GlobalissimoGame* game = [] {
    auto g = GlobalissimoGame::FromData(SyntheticCards(), kBoard, ktexts);
    EXPECT_TRUE(g.ok()) << g.status().ToString();
    return std::move(g).value().release();
  }();
  return *game;
}

const StateProto& P(const State& s) { return static_cast<const GlobalissimoState&>(s).proto(); }

View V(const State& s, int seat) {
  View v;
  v.CopyFrom(*s.View(seat));
  return v;
}

std::unique_ptr<State> NewGame(int seats, uint64_t seed = 7, uint32_t rounds = 0,
                               const GlobalissimoGame& game = Synthetic()) {
  Options options;
  options.set_rounds(rounds);
  EXPECT_TRUE(game.ValidateOptions(seats, options).ok());
  return game.NewInitialState(seats, options, seed);
}

std::unique_ptr<State> Build(const StateProto& p) {
  auto s = Synthetic().FromProto(p);
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return s.ok() ? std::move(s).value() : nullptr;
}

// Makes `category` the one played this round.
void PlayCategory(StateProto* p, uint32_t category) {
  auto* order = p->mutable_category_order();
  for (int i = 0; i < order->size(); ++i) {
    if (order->Get(i) == category) order->SwapElements(i, static_cast<int>(p->round()) - 1);
  }
}

// Puts `cards` on display (slot i gets cards[i]), taking them from wherever they are.
void Display(StateProto* p, const std::vector<uint32_t>& cards) {
  for (size_t i = 0; i < cards.size(); ++i) {
    auto* slot = p->mutable_display(static_cast<int>(i));
    if (slot->card() == cards[i]) continue;
    bool moved = false;
    for (auto& d : *p->mutable_deck()) {
      if (d == cards[i]) { d = slot->card(); moved = true; break; }
    }
    for (int k = 0; k < p->display_size() && !moved; ++k) {
      if (p->display(k).card() == cards[i]) {
        p->mutable_display(k)->set_card(slot->card());
        moved = true;
      }
    }
    ASSERT_TRUE(moved) << "card " << cards[i];
    slot->set_card(cards[i]);
  }
}

// Puts `card` on top of the deck (the last element).
void OnTop(StateProto* p, uint32_t card) {
  auto* deck = p->mutable_deck();
  auto it = std::find(deck->begin(), deck->end(), card);
  ASSERT_NE(it, deck->end()) << "card " << card << " is not in the deck";
  deck->erase(it);
  deck->Add(card);
}

uint32_t SquareOf(uint32_t distance) {
  const auto& track = Synthetic().track();
  for (uint32_t i = 0; i < track.size(); ++i) {
    if (track[i].barrier < 0 && track[i].distance == distance) return i;
  }
  ADD_FAILURE() << "no square at distance " << distance;
  return 0;
}

void MovePawn(StateProto* p, int seat, uint32_t distance) {
  p->mutable_seats(seat)->set_square(SquareOf(distance));
  p->mutable_seats(seat)->set_distance(distance);
}

// Barrier slot k sits after score square 2k + 1 on the test board.
void SetBarrier(StateProto* p, int k, BarrierColor color) {
  p->mutable_barriers(k)->set_color(color);
}

// Removes every barrier from the track, as if taken earlier by `by`, so moves meet no question.
void ClearBarriers(StateProto* p, int by = 0) {
  for (auto& b : *p->mutable_barriers()) {
    b.set_present(false);
    b.set_taken_by(by);
  }
}

engine::Status Place(State& s, int seat, uint32_t slot, uint32_t position) {
  Action a;
  a.mutable_place()->set_slot(slot);
  a.mutable_place()->set_position(position);
  return s.Apply(seat, a);
}

engine::Status Capital(State& s, int seat, const std::string& text) {
  Action a;
  a.mutable_answer_capital()->set_text(text);
  return s.Apply(seat, a);
}

engine::Status Locate(State& s, int seat, const std::string& map_id) {
  Action a;
  a.mutable_answer_location()->set_map_id(map_id);
  return s.Apply(seat, a);
}

// Places tiles in turn order from the first player: tiles[k] = {slot, position} of the k-th
// placer.
void PlaceAll(State& s, const std::vector<std::pair<uint32_t, uint32_t>>& tiles) {
  for (const auto& [slot, position] : tiles) {
    const int seat = s.ActingSeats().at(0);
    ASSERT_TRUE(Place(s, seat, slot, position).ok()) << "seat " << seat;
  }
}

// A 2..6-seat game in round 1 with category 0 (country i has value i), display = `cards`.
StateProto Round1(int seats, const std::vector<uint32_t>& cards, uint32_t category = 0) {
  auto s = NewGame(seats);
  StateProto p = P(*s);
  PlayCategory(&p, category);
  Display(&p, cards);
  return p;
}

// The moves of `seat` a test may play: its legal actions and, at a capital question (whose
// answers are described, not listed), the right capital first and a wrong one.
std::vector<std::unique_ptr<engine::Message>> Moves(const State& s, int seat) {
  auto out = s.LegalActions(seat);
  const auto& p = static_cast<const GlobalissimoState&>(s).proto();
  if (!out.empty() || p.phase() != PHASE_QUESTION) return out;
  const auto& game = static_cast<const GlobalissimoGame&>(s.game());
  const auto& barrier = p.barriers(p.question_barrier());
  for (const char* text : {"", "Atlantis City"}) {
    auto a = std::make_unique<Action>();
    a->mutable_answer_capital()->set_text(
        *text ? std::string(text) : game.cards().countries(barrier.question_card()).capitals(0));
    out.push_back(std::move(a));
  }
  return out;
}

void ExpectRefused(State& s, int seat, const Action& a, const std::string& code) {
  const std::string before = s.Serialize();
  const size_t history = s.History().size();
  engine::Status st = s.Apply(seat, a);
  EXPECT_EQ(st.code(), code) << st.ToString();
  EXPECT_FALSE(st.reason().empty());
  EXPECT_EQ(s.Serialize(), before) << "a refused action changed the state";
  EXPECT_EQ(s.History().size(), history);
}

Action PlaceAction(uint32_t slot, uint32_t position) {
  Action a;
  a.mutable_place()->set_slot(slot);
  a.mutable_place()->set_position(position);
  return a;
}

Action CapitalAction(const std::string& text) {
  Action a;
  a.mutable_answer_capital()->set_text(text);
  return a;
}

Action LocateAction(const std::string& map_id) {
  Action a;
  a.mutable_answer_location()->set_map_id(map_id);
  return a;
}

// ----- Loading -----

// RULES.md "Components": the shipped data loads through the registry.
TEST(GlobalissimoData, RealDataLoadsThroughRegistry) {
  ASSERT_TRUE(engine::Registry::LoadAll().ok()) << engine::Registry::LoadAll().ToString();
  const auto* game = dynamic_cast<const GlobalissimoGame*>(engine::Registry::Find("globalissimo"));
  ASSERT_NE(game, nullptr);
  EXPECT_EQ(game->Info().title, "Globalissimo");
  EXPECT_EQ(game->Info().min_seats, 2);
  EXPECT_EQ(game->Info().max_seats, 6);
  EXPECT_EQ(game->cards().categories_size(), 10);
  EXPECT_EQ(game->cards().countries_size(), 100);
  // RULES.md "Decisions: the track": 30 score squares and 14 barrier squares plus the start.
  EXPECT_EQ(game->track().size(), 1u + 30u + 14u);
  // Issue 32: a refused map answer is told by name, for every region of the map; a country of
  // the deck by its card's name.
  ASSERT_EQ(game->board().map_region_names_size(), game->board().map_regions_size());
  for (const auto& region : game->map_regions()) {
    EXPECT_NE(game->RegionName(region), "(no country)") << region;
    EXPECT_EQ(game->RegionName(region).find('.'), std::string::npos) << "abbreviated: " << region;
  }
  EXPECT_EQ(game->RegionName("010"), "Antarctica");
  // As a view names it: a region of no card by name, a deck country by its card's id.
  EXPECT_EQ(game->RegionRef("010"), "Antarctica");
  for (const auto& c : game->cards().countries()) EXPECT_EQ(game->RegionRef(c.map_id()), c.id());
  for (const auto& c : game->cards().countries()) EXPECT_EQ(game->RegionName(c.map_id()), c.name());
  EXPECT_EQ(game->RegionName("000"), "(no country)");
}

// RULES.md "What players see": a whole game on the shipped cards; every revealed card carries
// its formatted value, capital and map number, and the legal answers include a wrong one.
TEST(GlobalissimoData, RealDataPlaysThrough) {
  ASSERT_TRUE(engine::Registry::LoadAll().ok());
  const engine::Game* game = engine::Registry::Find("globalissimo");
  ASSERT_NE(game, nullptr);
  for (int seats : {2, 6}) {
    auto started = game->NewGame(seats, "", 42 + seats);
    ASSERT_TRUE(started.ok()) << started.status().ToString();
    auto& s = *started.value();
    engine::Rng pick(seats);
    while (!s.IsTerminal()) {
      const int seat = s.ActingSeats().at(0);
      auto legal = s.LegalActions(seat);
      if (P(s).phase() == PHASE_QUESTION &&
          P(s).barriers(P(s).question_barrier()).color() == BARRIER_ORANGE) {
        // A capital question lists no answer (any text may be typed): answer right or wrong.
        EXPECT_TRUE(legal.empty());
        const auto& barrier = P(s).barriers(P(s).question_barrier());
        engine::v1::Answer a;
        a.set_text(pick.Below(2) == 0 ? "Nowhere"
                                      : static_cast<const GlobalissimoGame&>(s.game())
                                            .cards()
                                            .countries(barrier.question_card())
                                            .capitals(0));
        ASSERT_TRUE(s.Apply(seat, *s.game().WrapAnswer(a)).ok());
        continue;
      }
      if (P(s).phase() == PHASE_QUESTION) {
        EXPECT_EQ(legal.size(), 174u);  // every map region
      }
      ASSERT_TRUE(s.Apply(seat, *legal[pick.Below(legal.size())]).ok());
      const View v = V(s, -1);
      for (const auto& slot : v.last_round().display()) {
        EXPECT_FALSE(slot.card().value_text().empty());
        EXPECT_FALSE(slot.card().capital().empty());
        EXPECT_EQ(slot.card().map_id().size(), 3u);
      }
    }
    EXPECT_EQ(V(s, 0).final_ranks_size(), seats);
  }
}

struct BadData {
  std::string name;
  std::string cards;
  std::string board;
  std::string expected;  // a piece of the reason
};

std::string Mutate(void (*f)(data::CardSet*)) {
  data::CardSet cards;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(SyntheticCards(), &cards));
  f(&cards);
  std::string text;
  google::protobuf::TextFormat::PrintToString(cards, &text);
  return text;
}

// RULES.md "Components": the factory refuses inconsistent data and says what is wrong.
TEST(GlobalissimoData, MalformedDataIsReported) {
  const std::string good = SyntheticCards();
  const std::vector<BadData> cases = {
      {"unparsable", "categories { id: ", kBoard, "countries.textproto: line"},
      {"nine categories", Mutate([](data::CardSet* c) { c->mutable_categories()->RemoveLast(); }),
       kBoard, "exactly 10 categories, found 9"},
      {"99 countries", Mutate([](data::CardSet* c) { c->mutable_countries()->RemoveLast(); }),
       kBoard, "exactly 100 countries, found 99"},
      {"duplicate id",
       Mutate([](data::CardSet* c) { c->mutable_countries(5)->set_id("C100"); }), kBoard,
       "country id 'C100' is used twice"},
      {"duplicate map id",
       Mutate([](data::CardSet* c) { c->mutable_countries(5)->set_map_id("001"); }), kBoard,
       "map_id '001' is used twice"},
      {"bad map id", Mutate([](data::CardSet* c) { c->mutable_countries(5)->set_map_id("25"); }),
       kBoard, "expected three digits"},
      {"no capital",
       Mutate([](data::CardSet* c) { c->mutable_countries(7)->clear_capitals(); }), kBoard,
       "('C107') has no capital"},
      {"nine values",
       Mutate([](data::CardSet* c) { c->mutable_countries(7)->mutable_values()->RemoveLast(); }),
       kBoard, "has 9 values"},
      {"nan value",
       Mutate([](data::CardSet* c) { c->mutable_countries(8)->set_values(3, std::nan("")); }),
       kBoard, "not a finite number for category 'cat3'"},
      {"duplicate category",
       Mutate([](data::CardSet* c) { c->mutable_categories(4)->set_id("cat0"); }), kBoard,
       "category id 'cat0' is used twice"},
      {"board count", good,
       "score_squares: 30 barrier_after: [1, 3] orange_barriers: 7 violet_barriers: 7",
       "2 barrier slots but 14 barriers"},
      {"barrier past the end", good,
       "score_squares: 3 barrier_after: [1, 3] orange_barriers: 1 violet_barriers: 1",
       "needs a score square after it"},
      {"barrier order", good,
       "score_squares: 30 barrier_after: [3, 1] orange_barriers: 1 violet_barriers: 1",
       "track order"},
      {"board unparsable", good, "score_squares: -1", "board.textproto: line"},
  };
  for (const auto& c : cases) {
    auto game = GlobalissimoGame::FromData(c.cards, c.board, ktexts);
    ASSERT_FALSE(game.ok()) << c.name;
    EXPECT_EQ(game.status().code(), "bad_data") << c.name;
    EXPECT_NE(game.status().reason().find(c.expected), std::string::npos)
        << c.name << ": " << game.status().reason();
  }
}

// ----- Setup -----

// RULES.md "Setup": 5 cards at 2-4 players, 6 at 5-6; seat 0 starts; 7 orange + 7 violet
// barriers placed at random; pawns on the start square; one category per round.
TEST(GlobalissimoSetup, CardsBarriersAndFirstPlayer) {
  for (int seats = 2; seats <= 6; ++seats) {
    auto s = NewGame(seats, 100 + seats);
    const auto& p = P(*s);
    const int shown = seats <= 4 ? 5 : 6;
    EXPECT_EQ(p.display_size(), shown) << seats;
    EXPECT_EQ(p.deck_size(), 100 - shown);
    EXPECT_EQ(p.first_player(), 0u);
    EXPECT_EQ(s->ActingSeats(), std::vector<int>{0});
    EXPECT_EQ(p.phase(), PHASE_PLACEMENT);
    int orange = 0, violet = 0;
    for (const auto& b : p.barriers()) {
      orange += b.color() == BARRIER_ORANGE;
      violet += b.color() == BARRIER_VIOLET;
      EXPECT_TRUE(b.present());
    }
    EXPECT_EQ(orange, 7);
    EXPECT_EQ(violet, 7);
    for (const auto& seat : p.seats()) EXPECT_EQ(seat.square(), 0u);
    std::set<uint32_t> categories(p.category_order().begin(), p.category_order().end());
    EXPECT_EQ(categories.size(), 10u);
    const View v = V(*s, 0);
    EXPECT_EQ(v.max_position(), static_cast<uint32_t>(shown));
    EXPECT_EQ(v.total_rounds(), 10u);
  }
}

// RULES.md "Setup": the barrier colours and the deck are shuffled from the seed.
TEST(GlobalissimoSetup, SeedShufflesBarriersAndDeck) {
  std::set<std::string> colourings, decks;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    auto s = NewGame(3, seed);
    const auto& p = P(*s);
    std::string colours;
    for (const auto& b : p.barriers()) colours += b.color() == BARRIER_ORANGE ? 'O' : 'V';
    colourings.insert(colours);
    decks.insert(p.deck().empty() ? "" : std::to_string(p.deck(p.deck_size() - 1)));
  }
  EXPECT_GT(colourings.size(), 1u);
  EXPECT_GT(decks.size(), 1u);
  // The same seed gives the same game.
  EXPECT_EQ(NewGame(3, 5)->Serialize(), NewGame(3, 5)->Serialize());
}

// RULES.md "Options": rounds 0 means 10; 1..10 allowed.
TEST(GlobalissimoSetup, RoundsOption) {
  Options o;
  o.set_rounds(11);
  EXPECT_EQ(Synthetic().ValidateOptions(3, o).code(), "bad_options");
  EXPECT_EQ(Synthetic().ValidateOptions(1, Options()).code(), "bad_options");
  EXPECT_EQ(Synthetic().ValidateOptions(7, Options()).code(), "bad_options");
  EXPECT_EQ(P(*NewGame(3, 1, 0)).total_rounds(), 10u);
  EXPECT_EQ(P(*NewGame(3, 1, 4)).total_rounds(), 4u);
}

// ----- Placement -----

// RULES.md "Placement": one tile each, in turn order from the first player, on a free card.
TEST(GlobalissimoPlacement, TurnOrderAndLegalActions) {
  auto s = NewGame(3);
  EXPECT_EQ(s->LegalActions(0).size(), 5u * 5u);
  EXPECT_TRUE(s->LegalActions(1).empty());
  ASSERT_TRUE(Place(*s, 0, 2, 1).ok());
  EXPECT_EQ(s->ActingSeats(), std::vector<int>{1});
  EXPECT_EQ(s->LegalActions(1).size(), 4u * 5u);  // slot 2 is taken
  for (const auto& a : s->LegalActions(1)) {
    EXPECT_NE(static_cast<const Action&>(*a).place().slot(), 2u);
  }
  ASSERT_TRUE(Place(*s, 1, 3, 1).ok());  // the same number twice is allowed
  EXPECT_EQ(s->ActingSeats(), std::vector<int>{2});
  const View v = V(*s, 2);
  EXPECT_EQ(v.display(2).tile_seat(), 0);
  EXPECT_EQ(v.display(2).tile_position(), 1u);
  EXPECT_EQ(v.players(1).placed_slot(), 3);
}

// RULES.md "Taking a move back": a tile placed before the last one may be taken back; the last
// one turns the cards over, and an answer says whether it was right, so neither may.
TEST(GlobalissimoPlacement, OnlyATileBeforeTheLastMayBeTakenBack) {
  auto s = NewGame(3);
  Action first;
  first.mutable_place()->set_slot(2);
  first.mutable_place()->set_position(1);
  const std::string before = s->Serialize();
  EXPECT_TRUE(s->TakeBackSafe(0, first));
  EXPECT_EQ(s->Serialize(), before);                // asking changes nothing
  EXPECT_FALSE(s->TakeBackSafe(1, first));          // not seat 1's turn
  // The server learns the same answer from Apply itself, without validating the move twice.
  bool safe = false;
  ASSERT_TRUE(s->Apply(0, first, false, &safe).ok());
  EXPECT_TRUE(safe);
  Action taken = first;                             // slot 2 is taken now
  EXPECT_FALSE(s->TakeBackSafe(1, taken));
  ASSERT_TRUE(Place(*s, 1, 3, 1).ok());
  Action last;
  last.mutable_place()->set_slot(0);
  last.mutable_place()->set_position(2);
  EXPECT_FALSE(s->TakeBackSafe(2, last));           // the third tile of three scores the round
  engine::v1::CoreAction resign;
  resign.mutable_resign();
  EXPECT_FALSE(s->TakeBackSafe(2, *s->game().WrapCore(resign)));
  safe = true;
  ASSERT_TRUE(s->Apply(2, last, false, &safe).ok());
  EXPECT_FALSE(safe);
}

// RULES.md "Placement" and "Refused actions": each refusal has its code and changes nothing.
TEST(GlobalissimoPlacement, RefusalsChangeNothing) {
  auto s = NewGame(3);
  ExpectRefused(*s, 1, PlaceAction(0, 1), "not_your_turn");
  ExpectRefused(*s, 0, PlaceAction(5, 1), "bad_slot");
  ExpectRefused(*s, 0, PlaceAction(0, 0), "bad_position");
  ExpectRefused(*s, 0, PlaceAction(0, 6), "bad_position");
  ExpectRefused(*s, 0, CapitalAction("Paris"), "wrong_phase");
  ExpectRefused(*s, 0, LocateAction("250"), "wrong_phase");
  ExpectRefused(*s, 0, Action(), "malformed");
  ExpectRefused(*s, 9, PlaceAction(0, 1), "bad_seat");
  ASSERT_TRUE(Place(*s, 0, 0, 1).ok());
  ExpectRefused(*s, 1, PlaceAction(0, 2), "slot_taken");
  // Placing twice: the turn has moved on, so the second tile is refused.
  ExpectRefused(*s, 0, PlaceAction(1, 2), "not_your_turn");
  // Text actions go through the same checks.
  EXPECT_EQ(s->ApplyText(1, "place { slot: 0 position: 1 }").code(), "slot_taken");
  EXPECT_EQ(s->ApplyText(1, "place { slot: ").code(), "malformed");
}

// ----- Reveal and scoring -----

// RULES.md "Scoring": descending order, 3 for exact, 2 for one off, 1 for two off, else 0.
TEST(GlobalissimoScoring, ThreeTwoOneZero) {
  // Values 50, 40, 30, 20, 10: positions 1..5 in slot order.
  StateProto p = Round1(4, {50, 40, 30, 20, 10});
  ClearBarriers(&p);
  auto s = Build(p);
  ASSERT_TRUE(s);
  PlaceAll(*s, {{0, 1}, {1, 3}, {2, 5}, {3, 1}});  // exact, one off, two off, three off
  const auto& q = P(*s);
  EXPECT_EQ(q.last_round().display(0).position(), 1u);
  EXPECT_EQ(q.last_round().display(4).position(), 5u);
  EXPECT_EQ(q.seats(0).distance(), 3u);
  EXPECT_EQ(q.seats(1).distance(), 2u);
  EXPECT_EQ(q.seats(2).distance(), 1u);
  EXPECT_EQ(q.seats(3).distance(), 0u);
  EXPECT_EQ(q.seats(3).last_round_points(), 0);
  const View v = V(*s, -1);
  EXPECT_EQ(v.last_round().display(0).points(), 3);
  EXPECT_EQ(v.last_round().display(1).points(), 2);
  EXPECT_EQ(v.last_round().display(2).points(), 1);
  EXPECT_EQ(v.last_round().display(3).points(), 0);
  EXPECT_EQ(v.last_round().display(4).points(), -1);  // a card without a tile
  EXPECT_TRUE(v.last_round().display(0).card().revealed());
  EXPECT_EQ(v.last_round().display(0).card().value(), 50);
}

// RULES.md "Ties" (the book's example): two cards tied in second place give positions
// 1, 2, 2, 4, 5; a tile 4 on one of the second-place cards is two off and scores 1.
TEST(GlobalissimoScoring, BookTieExample) {
  // Category 1 gives country i the value i / 2: countries 60 and 61 tie at 30.
  StateProto p = Round1(2, {80, 60, 61, 40, 20}, 1);
  ClearBarriers(&p);
  auto s = Build(p);
  ASSERT_TRUE(s);
  PlaceAll(*s, {{2, 4}, {1, 2}});
  const auto& last = P(*s).last_round();
  std::vector<uint32_t> positions;
  for (const auto& slot : last.display()) positions.push_back(slot.position());
  EXPECT_EQ(positions, (std::vector<uint32_t>{1, 2, 2, 4, 5}));
  EXPECT_EQ(last.display(2).points(), 1);
  EXPECT_EQ(last.display(1).points(), 3);
  EXPECT_EQ(P(*s).seats(0).distance(), 1u);
  EXPECT_EQ(P(*s).seats(1).distance(), 3u);
  // The empty third position is the one the tie leaves out.
  for (const auto& slot : last.display()) EXPECT_NE(slot.position(), 3u);
}

// RULES.md "The track": barrier squares are not score squares; a taken barrier is passed freely.
TEST(GlobalissimoScoring, BarrierSquaresAreNotCounted) {
  StateProto p = Round1(2, {50, 40, 30, 20, 10});
  ClearBarriers(&p);
  auto s = Build(p);
  ASSERT_TRUE(s);
  PlaceAll(*s, {{0, 1}, {4, 1}});  // seat 0 scores 3
  const auto& q = P(*s);
  EXPECT_EQ(q.seats(0).distance(), 3u);
  // start, square 1, barrier, square 2, square 3: the pawn is on track index 4.
  EXPECT_EQ(q.seats(0).square(), 4u);
  // Square 2 is the first barrier's (static data); the view says its colour and that it is gone.
  const auto& data = static_cast<const StaticData&>(*Synthetic().StaticData());
  ASSERT_GT(data.track_size(), 2);
  EXPECT_EQ(data.track(2).barrier(), 0);
  EXPECT_EQ(data.track(1).barrier(), -1);
  EXPECT_EQ(data.track(4).distance(), 3u);
  EXPECT_EQ(V(*s, 0).barriers(0).present(), false);
  EXPECT_EQ(V(*s, 0).barriers(0).color(), q.barriers(0).color());
}

// The track's layout is static data, sent once per game; a view carries only this game's
// barriers (their colours and which are left), one per barrier square of the layout.
TEST(GlobalissimoView, TrackLayoutIsStaticBarriersInTheView) {
  const auto& data = static_cast<const StaticData&>(*Synthetic().StaticData());
  ASSERT_EQ(data.track_size(), static_cast<int>(Synthetic().track().size()));
  int barrier_squares = 0;
  for (int i = 0; i < data.track_size(); ++i) {
    EXPECT_EQ(data.track(i).distance(), Synthetic().track()[static_cast<size_t>(i)].distance);
    if (data.track(i).barrier() >= 0) {
      EXPECT_EQ(data.track(i).barrier(), barrier_squares++);
    }
  }
  auto s = Build(Round1(2, {50, 40, 30, 20, 10}));
  ASSERT_TRUE(s);
  const View v = V(*s, 1);
  ASSERT_EQ(v.barriers_size(), barrier_squares);
  for (int b = 0; b < v.barriers_size(); ++b) {
    EXPECT_EQ(v.barriers(b).color(), P(*s).barriers(b).color());
    EXPECT_TRUE(v.barriers(b).present());
  }
}

// RULES.md "Decisions: the end of the track": a pawn stops on the last square.
TEST(GlobalissimoScoring, PawnStopsOnLastSquare) {
  StateProto p = Round1(2, {50, 40, 30, 20, 10});
  ClearBarriers(&p);
  MovePawn(&p, 0, 29);
  auto s = Build(p);
  ASSERT_TRUE(s);
  PlaceAll(*s, {{0, 1}, {4, 1}});
  EXPECT_EQ(P(*s).seats(0).distance(), 30u);
  EXPECT_EQ(P(*s).seats(0).square(), Synthetic().track().size() - 1);
}

// ----- Barriers -----

// RULES.md "Barriers": orange asks the capital of the top card of the deck; a right answer takes
// the barrier, discards the card and finishes the move. Case, accents, punctuation, a leading
// article and spacing do not matter; every listed capital is accepted.
TEST(GlobalissimoBarriers, CapitalAnswersAccepted) {
  struct Case {
    uint32_t country;
    std::string answer;
  };
  const std::vector<Case> cases = {{0, "  BOGOTA "}, {0, "bogotá"},  {1, "hague"},
                                   {1, "AMSTERDAM"}, {2, "port au prince"}, {1, "The Hague."}};
  for (const auto& c : cases) {
    StateProto p = Round1(2, {50, 40, 30, 20, 10});
    SetBarrier(&p, 0, BARRIER_ORANGE);
    OnTop(&p, c.country);
    auto s = Build(p);
    ASSERT_TRUE(s);
    PlaceAll(*s, {{0, 1}, {4, 1}});  // seat 0 scores 3, meets barrier 0 after square 1
    ASSERT_EQ(P(*s).phase(), PHASE_QUESTION);
    EXPECT_EQ(s->ActingSeats(), std::vector<int>{0});
    const View v = V(*s, 1);
    EXPECT_EQ(v.question().kind(), BARRIER_ORANGE);
    EXPECT_EQ(v.question().seat(), 0u);
    EXPECT_EQ(v.question().country_id(), "C" + std::to_string(100 + c.country));
    EXPECT_EQ(v.question().steps_left(), 2u);
    EXPECT_EQ(v.question().barrier_square(), 2u);
    EXPECT_EQ(P(*s).seats(0).distance(), 1u);  // waiting before the barrier
    const int deck = P(*s).deck_size();
    ASSERT_TRUE(Capital(*s, 0, c.answer).ok()) << c.answer;
    const auto& q = P(*s);
    EXPECT_FALSE(q.barriers(0).present()) << c.answer;
    EXPECT_EQ(q.seats(0).orange_barriers(), 1u);
    EXPECT_EQ(q.seats(0).distance(), 3u) << c.answer;
    EXPECT_EQ(q.deck_size(), deck - 5);  // only the new round's deal: the question card is gone
    EXPECT_EQ(std::count(q.discard().begin(), q.discard().end(), c.country), 1);
  }
}

// RULES.md "Barriers": a wrong answer ends the move before the barrier and keeps the answer
// secret; the next player crossing the same barrier this round gets the same question; once
// taken, the barrier lets later pawns through without a question.
TEST(GlobalissimoBarriers, WrongAnswerSameQuestionThenFreePassage) {
  StateProto p = Round1(3, {50, 40, 30, 20, 10});
  SetBarrier(&p, 0, BARRIER_ORANGE);
  OnTop(&p, 0);  // Bogotá
  auto s = Build(p);
  ASSERT_TRUE(s);
  PlaceAll(*s, {{0, 1}, {1, 2}, {2, 3}});  // everyone scores 3
  ASSERT_EQ(s->ActingSeats(), std::vector<int>{0});
  const int deck = P(*s).deck_size();
  ASSERT_TRUE(Capital(*s, 0, "Lima").ok());
  // Seat 0 stays on square 1; seat 1 now meets the same barrier with the same card.
  EXPECT_EQ(P(*s).seats(0).distance(), 1u);
  EXPECT_EQ(P(*s).seats(0).orange_barriers(), 0u);
  ASSERT_EQ(P(*s).phase(), PHASE_QUESTION);
  EXPECT_EQ(s->ActingSeats(), std::vector<int>{1});
  EXPECT_EQ(P(*s).deck_size(), deck) << "no new card for the same barrier";
  for (int seat = -1; seat < 3; ++seat) {
    const View v = V(*s, seat);
    EXPECT_EQ(v.question().country_id(), "C100");
    ASSERT_EQ(v.question().wrong_answers_size(), 1);
    EXPECT_EQ(v.question().wrong_answers(0), "Lima");
    const std::string bytes = v.SerializeAsString();
    EXPECT_EQ(bytes.find("Bogot"), std::string::npos) << "the answer leaked to seat " << seat;
  }
  ASSERT_TRUE(Capital(*s, 1, "Bogota").ok());
  // Seat 2 passes the taken barrier freely; the round ends.
  const auto& q = P(*s);
  EXPECT_EQ(q.seats(1).distance(), 3u);
  EXPECT_EQ(q.seats(1).orange_barriers(), 1u);
  EXPECT_EQ(q.barriers(0).taken_by(), 1);
  EXPECT_EQ(q.seats(2).distance(), 3u);
  EXPECT_EQ(q.phase(), PHASE_PLACEMENT);
  EXPECT_EQ(q.round(), 2u);
}

// RULES.md "Barriers": the set-aside question is dropped at the end of the round; the next
// round draws a new card for the same barrier.
TEST(GlobalissimoBarriers, FailedQuestionIsDiscardedAtRoundEnd) {
  StateProto p = Round1(2, {50, 40, 30, 20, 10});
  SetBarrier(&p, 0, BARRIER_ORANGE);
  OnTop(&p, 0);
  auto s = Build(p);
  ASSERT_TRUE(s);
  PlaceAll(*s, {{0, 1}, {4, 1}});
  ASSERT_TRUE(Capital(*s, 0, "Quito").ok());
  const auto& q = P(*s);
  EXPECT_EQ(q.round(), 2u);
  EXPECT_EQ(q.barriers(0).question_card(), -1);
  EXPECT_EQ(q.barriers(0).wrong_answers_size(), 0);
  EXPECT_TRUE(q.barriers(0).present());
  EXPECT_EQ(std::count(q.discard().begin(), q.discard().end(), 0u), 1);
}

// RULES.md "Barriers": violet asks to locate the country on the map (its map number).
TEST(GlobalissimoBarriers, LocationQuestion) {
  StateProto p = Round1(2, {50, 40, 30, 20, 10});
  SetBarrier(&p, 0, BARRIER_VIOLET);
  OnTop(&p, 41);  // map id "042"
  auto s = Build(p);
  ASSERT_TRUE(s);
  PlaceAll(*s, {{0, 1}, {1, 1}});  // seat 0 scores 3, seat 1 scores 2
  ASSERT_EQ(P(*s).phase(), PHASE_QUESTION);
  EXPECT_EQ(V(*s, 0).question().kind(), BARRIER_VIOLET);
  // The question is a prompt over every region of the map (here the deck's 100 countries),
  // labelled by map number only; the legal actions are its answers, all of them, so they do not
  // single out the right one.
  const auto prompts = s->Prompts(0);
  ASSERT_EQ(prompts.size(), 1u);
  EXPECT_EQ(prompts[0].kind(), engine::v1::PROMPT_CHOOSE);
  // It names the game's fixed set (sent once per game) instead of carrying the options.
  EXPECT_EQ(prompts[0].options_size(), 0);
  EXPECT_EQ(prompts[0].option_set(), "globalissimo.map");
  const auto& options = s->game().OptionsOf(prompts[0]);
  ASSERT_EQ(options.size(), 100);
  EXPECT_EQ(options.Get(41).target().region(), "042");
  EXPECT_EQ(options.Get(41).label().args(0).name(), "042");  // a number, never the name
  EXPECT_EQ(prompts[0].title().args(0).name(), "Country 41");
  EXPECT_EQ(s->LegalActions(0).size(), 100u);
  EXPECT_TRUE(s->Prompts(1).empty());
  // An answer through the prompt is the typed answer: refused when it names no region.
  engine::v1::Answer nowhere;
  nowhere.add_options("999");
  ExpectRefused(*s, 0, static_cast<const Action&>(*s->game().WrapAnswer(nowhere)), "bad_answer");
  ExpectRefused(*s, 0, CapitalAction("Capital 41"), "wrong_question_kind");
  ExpectRefused(*s, 0, LocateAction("42"), "bad_map_id");
  ExpectRefused(*s, 0, LocateAction("0x2"), "bad_map_id");
  ExpectRefused(*s, 0, PlaceAction(1, 1), "wrong_phase");
  ExpectRefused(*s, 1, LocateAction("042"), "not_your_turn");
  ASSERT_TRUE(Locate(*s, 0, "043").ok());  // wrong
  EXPECT_EQ(P(*s).seats(0).distance(), 1u);
  // Seat 1 meets the same barrier and the same country.
  ASSERT_EQ(P(*s).phase(), PHASE_QUESTION);
  EXPECT_EQ(V(*s, 1).question().country_id(), "C141");
  // Issue 32: the refused answer is a country ("Refused: 112" said nothing): in the question
  // every seat sees, by its card's id (its face is static data); in the log, by name.
  const View seen = V(*s, 1);
  EXPECT_EQ(seen.question().wrong_answers(0), "C142");
  bool named = false;
  for (const auto& e : seen.table().log())
    named = named || (e.text().key() == "globalissimo.wrong_map" &&
                      e.text().args(1).name() == "Country 42");
  EXPECT_TRUE(named);
  ASSERT_TRUE(Locate(*s, 1, "042").ok());
  EXPECT_EQ(P(*s).seats(1).violet_barriers(), 1u);
  EXPECT_EQ(P(*s).seats(1).distance(), 2u);
}

// RULES.md "Refused actions": capital answers are checked before they are judged.
TEST(GlobalissimoBarriers, CapitalAnswerValidation) {
  StateProto p = Round1(2, {50, 40, 30, 20, 10});
  SetBarrier(&p, 0, BARRIER_ORANGE);
  auto s = Build(p);
  ASSERT_TRUE(s);
  PlaceAll(*s, {{0, 1}, {4, 1}});
  ASSERT_EQ(P(*s).phase(), PHASE_QUESTION);
  ExpectRefused(*s, 0, CapitalAction(""), "empty_answer");
  ExpectRefused(*s, 0, CapitalAction("  .-' "), "empty_answer");
  ExpectRefused(*s, 0, CapitalAction(std::string(101, 'a')), "answer_too_long");
  // 100 characters of two bytes each is still 100 characters.
  std::string long_ok;
  for (int i = 0; i < 100; ++i) long_ok += "é";
  EXPECT_TRUE(s->Validate(0, CapitalAction(long_ok)).ok());
  EXPECT_EQ(s->Validate(0, CapitalAction("Bogot\xC3")).code(), "bad_text");
  ExpectRefused(*s, 0, LocateAction("170"), "wrong_question_kind");
}

// RULES.md "Decisions: two barriers in one move": each barrier asks its own question, the
// second from the next card of the deck.
TEST(GlobalissimoBarriers, TwoBarriersInOneMove) {
  StateProto p = Round1(2, {50, 40, 30, 20, 10});
  MovePawn(&p, 0, 3);  // barrier 1 after square 3, barrier 2 after square 5
  SetBarrier(&p, 1, BARRIER_ORANGE);
  SetBarrier(&p, 2, BARRIER_VIOLET);
  OnTop(&p, 1);   // drawn second
  OnTop(&p, 2);   // drawn first
  auto s = Build(p);
  ASSERT_TRUE(s);
  PlaceAll(*s, {{0, 1}, {4, 1}});
  ASSERT_EQ(P(*s).phase(), PHASE_QUESTION);
  EXPECT_EQ(V(*s, 0).question().country_id(), "C102");
  EXPECT_EQ(V(*s, 0).question().steps_left(), 3u);
  ASSERT_TRUE(Capital(*s, 0, "Port-au-Prince").ok());
  ASSERT_EQ(P(*s).phase(), PHASE_QUESTION);
  EXPECT_EQ(V(*s, 0).question().kind(), BARRIER_VIOLET);
  EXPECT_EQ(V(*s, 0).question().country_id(), "C101");
  EXPECT_EQ(V(*s, 0).question().steps_left(), 1u);
  EXPECT_EQ(P(*s).seats(0).distance(), 5u);
  ASSERT_TRUE(Locate(*s, 0, "002").ok());
  EXPECT_EQ(P(*s).seats(0).distance(), 6u);
  EXPECT_EQ(P(*s).seats(0).orange_barriers(), 1u);
  EXPECT_EQ(P(*s).seats(0).violet_barriers(), 1u);
  EXPECT_EQ(s->ResultDetail(0), "6 squares, 2 barriers");
}

// RULES.md "Decisions: running out of cards": the discarded cards are shuffled into a new deck.
TEST(GlobalissimoBarriers, EmptyDeckReshufflesDiscards) {
  StateProto p = Round1(2, {50, 40, 30, 20, 10});
  SetBarrier(&p, 0, BARRIER_ORANGE);
  for (uint32_t card : p.deck()) p.add_discard(card);
  p.clear_deck();
  auto s = Build(p);
  ASSERT_TRUE(s);
  PlaceAll(*s, {{0, 1}, {4, 1}});
  ASSERT_EQ(P(*s).phase(), PHASE_QUESTION);
  EXPECT_EQ(P(*s).discard_size(), 0);
  EXPECT_EQ(P(*s).deck_size(), 94);  // 95 reshuffled, one drawn for the question
  const View v = V(*s, 0);
  EXPECT_EQ(v.deck_remaining(), 94u);
  bool logged = false;
  for (const auto& e : v.table().log())
    logged = logged || e.text().key() == "globalissimo.deck_reshuffled";
  EXPECT_TRUE(logged);
}

// ----- Rounds and the end -----

// RULES.md "End of round": the first-player figure passes to the next seat; new cards, next
// category.
TEST(GlobalissimoRounds, FirstPlayerRotatesAndCardsAreReplaced) {
  StateProto p = Round1(3, {50, 40, 30, 20, 10});
  ClearBarriers(&p);
  auto s = Build(p);
  ASSERT_TRUE(s);
  const uint32_t second_category = p.category_order(1);
  PlaceAll(*s, {{0, 5}, {1, 5}, {2, 5}});
  const auto& q = P(*s);
  EXPECT_EQ(q.round(), 2u);
  EXPECT_EQ(q.first_player(), 1u);
  EXPECT_EQ(s->ActingSeats(), std::vector<int>{1});
  EXPECT_EQ(q.discard_size(), 5);
  // Five new cards, all different, none of them round 1's (those are in the discard), drawn from
  // the deck.
  ASSERT_EQ(q.display_size(), 5);
  std::set<uint32_t> shown;
  for (const auto& slot : q.display()) {
    EXPECT_EQ(slot.tile_seat(), -1);
    EXPECT_TRUE(shown.insert(slot.card()).second) << "card " << slot.card() << " shown twice";
    EXPECT_TRUE(std::find(q.discard().begin(), q.discard().end(), slot.card()) ==
                q.discard().end());
  }
  EXPECT_EQ(q.deck_size(), p.deck_size() - 5);
  for (const auto& seat : q.seats()) EXPECT_EQ(seat.placed_slot(), -1);
  EXPECT_EQ(V(*s, 0).category_id(), "cat" + std::to_string(second_category));
  EXPECT_EQ(V(*s, 0).last_round().round(), 1u);
  EXPECT_EQ(V(*s, 0).last_round().category_id(), "cat0");
  // Round 2: seats 1, 2 then 0.
  PlaceAll(*s, {{0, 1}, {1, 1}, {2, 1}});
  EXPECT_EQ(P(*s).first_player(), 2u);
}

// Plays every round taking the first legal action (always the right answer to a question).
void PlayOut(State& s, int limit = 10000) {
  for (int i = 0; i < limit && !s.IsTerminal(); ++i) {
    const int seat = s.ActingSeats().at(0);
    auto legal = Moves(s, seat);
    ASSERT_FALSE(legal.empty());
    ASSERT_TRUE(s.Apply(seat, *legal[0]).ok());
  }
}

// RULES.md "End of the game": after 10 rounds, every category played once.
TEST(GlobalissimoRounds, GameEndsAfterTenRounds) {
  auto s = NewGame(4, 3);
  std::set<std::string> categories;
  int rounds_seen = 0;
  uint32_t round = 0;
  while (!s->IsTerminal()) {
    const View v = V(*s, -1);
    if (v.round() != round) {
      round = v.round();
      ++rounds_seen;
      categories.insert(v.category_id());
    }
    const int seat = s->ActingSeats().at(0);
    ASSERT_TRUE(s->Apply(seat, *Moves(*s, seat)[0]).ok());
  }
  EXPECT_EQ(rounds_seen, 10);
  EXPECT_EQ(categories.size(), 10u);
  EXPECT_TRUE(s->ActingSeats().empty());
  EXPECT_TRUE(s->LegalActions(0).empty());
  EXPECT_EQ(s->Apply(0, PlaceAction(0, 1)).code(), "game_over");
  const View v = V(*s, 0);
  EXPECT_EQ(v.phase(), PHASE_GAME_OVER);
  EXPECT_EQ(v.final_ranks_size(), 4);
  EXPECT_EQ(v.last_round().round(), 10u);
  EXPECT_EQ(v.to_act(), -1);
  // The log closes with the ranking, one entry per seat after "Game over.".
  const auto& log = v.table().log();
  ASSERT_GT(log.size(), 4);
  EXPECT_EQ(log[log.size() - 5].text().key(), "globalissimo.game_over");
  for (int i = 1; i <= 4; ++i) EXPECT_EQ(log[log.size() - i].text().key(), "globalissimo.final");
}

// RULES.md "Options": a shorter game ends after its rounds.
TEST(GlobalissimoRounds, ShorterGame) {
  auto s = NewGame(2, 9, 2);
  PlayOut(*s);
  EXPECT_TRUE(s->IsTerminal());
  EXPECT_EQ(V(*s, 0).last_round().round(), 2u);
}

StateProto Finished(uint32_t d0, uint32_t b0, uint32_t d1, uint32_t b1, uint32_t d2, uint32_t b2) {
  StateProto p = Round1(3, {50, 40, 30, 20, 10});
  for (const auto& slot : p.display()) p.add_discard(slot.card());
  p.clear_display();
  p.set_round(p.total_rounds() + 1);
  p.set_phase(PHASE_GAME_OVER);
  const uint32_t d[] = {d0, d1, d2}, b[] = {b0, b1, b2};
  for (int seat = 0; seat < 3; ++seat) {
    MovePawn(&p, seat, d[seat]);
    p.mutable_seats(seat)->set_orange_barriers(b[seat]);
  }
  return p;
}

// RULES.md "End of the game": longest distance wins; ties go to the most barriers.
TEST(GlobalissimoRounds, TieBreakByBarriers) {
  auto s = Build(Finished(12, 1, 12, 3, 9, 5));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->Scores(), (std::vector<int64_t>{12, 12, 9}));
  EXPECT_EQ(s->Ranks(), (std::vector<int>{2, 1, 3}));
  EXPECT_EQ(s->ResultDetail(1), "12 squares, 3 barriers");
  EXPECT_EQ(s->ResultDetail(0), "12 squares, 1 barrier");
  const View v = V(*s, -1);
  EXPECT_EQ(std::vector<uint32_t>(v.final_ranks().begin(), v.final_ranks().end()),
            (std::vector<uint32_t>{2, 1, 3}));
}

// RULES.md "End of the game": equal distance and barriers share the victory.
TEST(GlobalissimoRounds, SharedVictory) {
  auto s = Build(Finished(12, 2, 12, 2, 13, 0));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->Ranks(), (std::vector<int>{2, 2, 1}));
  auto t = Build(Finished(12, 2, 12, 2, 1, 0));
  EXPECT_EQ(t->Ranks(), (std::vector<int>{1, 1, 3}));
}

// ----- Views -----

// RULES.md "What players see": face-down cards show only their face (name and flag, named by
// the card's id); nobody sees the deck, the categories to come or the seed; every seat sees the
// same table.
TEST(GlobalissimoViews, HiddenInformationStaysHidden) {
  auto s = NewGame(4, 11);
  const auto& p = P(*s);
  const auto& data = static_cast<const StaticData&>(*Synthetic().StaticData());
  for (int seat = -1; seat < 4; ++seat) {
    const View v = V(*s, seat);
    EXPECT_EQ(v.you(), seat);
    ASSERT_EQ(v.display_size(), 5);
    for (int i = 0; i < v.display_size(); ++i) {
      const auto& card = v.display(i).card();
      EXPECT_FALSE(card.revealed());
      EXPECT_EQ(card.value(), 0);
      EXPECT_TRUE(card.value_text().empty());
      EXPECT_TRUE(card.capital().empty());
      EXPECT_TRUE(card.map_id().empty());
      EXPECT_EQ(card.position(), 0u);
      // The id names the card's face in the static data.
      EXPECT_EQ(card.id(), Synthetic().cards().countries(p.display(i).card()).id());
      EXPECT_TRUE(std::any_of(data.countries().begin(), data.countries().end(),
                              [&](const CountryFace& f) { return f.id() == card.id(); }));
    }
    // Ids are quoted whole in the text format: a future category's id or the top card's is
    // nowhere in the view (the current category and the cards on display are).
    const std::string text = v.DebugString();
    EXPECT_NE(text.find("\"cat" + std::to_string(p.category_order(0)) + "\""), std::string::npos);
    for (int i = 1; i < 10; ++i) {
      const std::string future = "\"cat" + std::to_string(p.category_order(i)) + "\"";
      EXPECT_EQ(text.find(future), std::string::npos) << future;
    }
    const std::string top = "\"C" + std::to_string(100 + p.deck(p.deck_size() - 1)) + "\"";
    EXPECT_EQ(text.find(top), std::string::npos) << top;
    EXPECT_NE(text.find("\"C" + std::to_string(100 + p.display(0).card()) + "\""),
              std::string::npos);
    EXPECT_EQ(v.deck_remaining(), 95u);
    // Only `you` differs between seats, and the moves the acting seat is offered.
    View a = v, b = V(*s, 0);
    a.clear_you();
    b.clear_you();
    EXPECT_EQ(v.table().moves_size(), seat == s->ActingSeats().front() ? 1 : 0);
    a.mutable_table()->clear_moves();
    b.mutable_table()->clear_moves();
    EXPECT_EQ(engine::DeterministicBytes(a), engine::DeterministicBytes(b));
  }
}

// RULES.md "What players see": changing only what nobody sees leaves every view identical.
TEST(GlobalissimoViews, PerturbHiddenKeepsViews) {
  auto s = NewGame(5, 21);
  for (int step = 0; step < 60 && !s->IsTerminal(); ++step) {
    for (int seat = -1; seat < 5; ++seat) {
      auto copy = s->PerturbHidden(seat, 1000 + step);
      EXPECT_EQ(engine::DeterministicBytes(*copy->View(seat)),
                engine::DeterministicBytes(*s->View(seat)));
      auto restored = Synthetic().Deserialize(copy->Serialize());
      EXPECT_TRUE(restored.ok()) << restored.status().ToString();
    }
    if (step == 0) {
      EXPECT_NE(s->PerturbHidden(0, 5)->Serialize(), s->Serialize());
    }
    const int seat = s->ActingSeats().at(0);
    auto legal = Moves(*s, seat);
    ASSERT_TRUE(s->Apply(seat, *legal[(step * 7) % legal.size()]).ok());
  }
}

// RULES.md "What players see": revealed cards carry value, formatted text, position, capital
// and map number.
TEST(GlobalissimoViews, RevealedCardsAndValueText) {
  StateProto p = Round1(2, {1, 2, 3, 4, 5}, 2);  // category 2: 100 - i, two decimals, years
  SetBarrier(&p, 0, BARRIER_ORANGE);
  auto s = Build(p);
  ASSERT_TRUE(s);
  PlaceAll(*s, {{0, 1}, {4, 5}});  // seat 0 scores 3: question pending, cards revealed
  ASSERT_EQ(P(*s).phase(), PHASE_QUESTION);
  const View v = V(*s, 1);
  const auto& card = v.display(0).card();
  EXPECT_TRUE(card.revealed());
  EXPECT_EQ(card.value(), 99);
  EXPECT_EQ(card.value_text(), "99.00 years");
  EXPECT_EQ(card.position(), 1u);
  EXPECT_EQ(card.capital(), "The Hague");
  EXPECT_EQ(card.map_id(), "002");
  EXPECT_EQ(v.display(0).points(), 3);
  EXPECT_EQ(FormatValue(1234567.4, 0, "people"), "1,234,567 people");
  EXPECT_EQ(FormatValue(-1234.567, 1, "%"), "-1,234.6%");
  EXPECT_EQ(FormatValue(-0.01, 0, "m"), "0 m");
  EXPECT_EQ(FormatValue(999, 0, ""), "999");
}

// RULES.md "What players see": the static data (sent once per game in GameInfo) holds every
// category and every card's face, and nothing a question asks: a face has exactly id, name and
// flag, so no value, capital or map id can ever be added to it by mistake.
TEST(GlobalissimoViews, StaticDataHoldsFacesAndCategoriesOnly) {
  const auto* data = dynamic_cast<const StaticData*>(Synthetic().StaticData());
  ASSERT_NE(data, nullptr);
  const auto* face = CountryFace::descriptor();
  ASSERT_EQ(face->field_count(), 3);
  EXPECT_NE(face->FindFieldByName("id"), nullptr);
  EXPECT_NE(face->FindFieldByName("name"), nullptr);
  EXPECT_NE(face->FindFieldByName("flag"), nullptr);
  ASSERT_EQ(data->countries_size(), 100);
  for (int i = 0; i < 100; ++i) {
    const auto& def = Synthetic().cards().countries(i);
    EXPECT_EQ(data->countries(i).id(), def.id());
    EXPECT_EQ(data->countries(i).name(), def.name());
    EXPECT_EQ(data->countries(i).flag(), def.flag());
  }
  ASSERT_EQ(data->categories_size(), 10);
  EXPECT_EQ(data->categories(2).id(), "cat2");
  EXPECT_EQ(data->categories(2).name(), "Category 2");
  EXPECT_EQ(data->categories(2).unit(), "years");
  EXPECT_EQ(data->categories(2).source(), "synthetic (2020)");
  // A capital is in no entry (the synthetic ones are unlike any name).
  const std::string bytes = data->SerializeAsString();
  for (const auto& def : Synthetic().cards().countries()) {
    for (const auto& capital : def.capitals()) EXPECT_EQ(bytes.find(capital), std::string::npos);
  }
}

// RULES.md "What players see": views name categories and cards by id and carry none of the
// static texts, so a round's Diff holds what changed, not the names again.
TEST(GlobalissimoViews, ViewsCarryNoStaticText) {
  auto s = NewGame(3, 5);
  for (int step = 0; step < 200 && !s->IsTerminal(); ++step) {
    const std::string text = V(*s, -1).DebugString();
    // The table's log tells the story in words; the rest of the view names by id.
    View v = V(*s, -1);
    v.clear_table();
    const std::string bytes = v.SerializeAsString();
    EXPECT_EQ(bytes.find("Category "), std::string::npos) << text;
    EXPECT_EQ(bytes.find("Country "), std::string::npos) << text;
    EXPECT_EQ(bytes.find("synthetic"), std::string::npos) << text;
    const int seat = s->ActingSeats().at(0);
    ASSERT_TRUE(s->Apply(seat, *Moves(*s, seat)[0]).ok());
  }
}

// The terminal's rendering finds the names the view only names by id.
TEST(GlobalissimoViews, TerminalTextNamesCardsAndCategories) {
  StateProto p = Round1(2, {1, 2, 3, 4, 5}, 2);
  auto s = Build(p);
  ASSERT_TRUE(s);
  const std::string text = Synthetic().ViewText(*s->View(0), [](int seat) {
    return "seat" + std::to_string(seat);
  });
  EXPECT_NE(text.find("Category 2 (years)"), std::string::npos) << text;
  EXPECT_NE(text.find("[0] F Country 1"), std::string::npos) << text;
}

// RULES.md "What players see": the log is readable and bounded.
TEST(GlobalissimoViews, LogIsBounded) {
  auto s = NewGame(6, 4);
  PlayOut(*s);
  const View v = V(*s, 0);
  EXPECT_LE(v.table().log_size(), 40);
  const auto& last = v.table().log(v.table().log_size() - 1);
  EXPECT_EQ(last.text().key(), "globalissimo.final");
  // Structured: the seat is an argument (clients write the name), never "Seat N" in words.
  EXPECT_EQ(last.text().args(0).seat(), 5);
  const std::string words = Synthetic().TextRenderer().Render(last.text(), [](int seat) {
    return "Player" + std::to_string(seat);
  });
  EXPECT_EQ(words.rfind("Player5: rank ", 0), 0u) << words;
}

// ----- Robustness -----

// Random playouts at every table size: always terminate, replay and round-trip exactly.
TEST(GlobalissimoPlayouts, RandomGamesTerminateAndRoundTrip) {
  for (int seats = 2; seats <= 6; ++seats) {
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      auto s = NewGame(seats, seed * 31 + seats);
      engine::Rng pick(seed);
      int steps = 0;
      int questions = 0;
      while (!s->IsTerminal()) {
        ASSERT_LT(++steps, 2000);
        const int seat = s->ActingSeats().at(0);
        auto legal = Moves(*s, seat);
        ASSERT_FALSE(legal.empty());
        questions += P(*s).phase() == PHASE_QUESTION;
        ASSERT_TRUE(s->Apply(seat, *legal[pick.Below(legal.size())]).ok());
        auto copy = Synthetic().Deserialize(s->Serialize());
        ASSERT_TRUE(copy.ok()) << copy.status().ToString();
        ASSERT_EQ(copy.value()->Serialize(), s->Serialize());
        ASSERT_EQ(s->Clone()->Serialize(), s->Serialize());
      }
      EXPECT_GT(questions, 0);
      uint32_t max_distance = 0;
      for (const auto& seat : P(*s).seats()) max_distance = std::max(max_distance, seat.distance());
      EXPECT_LE(max_distance, 30u);
      auto replay = Synthetic().Replay(seats, "", seed * 31 + seats, s->History());
      ASSERT_TRUE(replay.ok()) << replay.status().ToString();
      EXPECT_EQ(replay.value()->Serialize(), s->Serialize());
    }
  }
}

// Untrusted saved positions are checked before use.
TEST(GlobalissimoPlayouts, InconsistentPositionsAreRefused) {
  EXPECT_EQ(Synthetic().Deserialize("\xff\xff garbage").status().code(), "malformed");
  StateProto p = P(*NewGame(3));
  p.add_deck(p.deck(0));  // a card in two places
  EXPECT_EQ(Synthetic().FromProto(p).status().code(), "malformed");
  StateProto q = P(*NewGame(3));
  q.mutable_seats(0)->set_square(2);  // on a barrier square
  EXPECT_EQ(Synthetic().FromProto(q).status().code(), "malformed");
  StateProto r = P(*NewGame(3));
  r.set_num_seats(9);
  EXPECT_EQ(Synthetic().FromProto(r).status().code(), "malformed");
}

}  // namespace
}  // namespace plateau::games::globalissimo
