// Contrôle Global: the rule book's worked examples and the rules of RULES.md, one test each, on
// positions set up for the rule (support.h).
#include <utility>

#include "tests/games/controle_global/support.h"

namespace plateau::games::controle_global::rule_test {
namespace {

constexpr Category kCommerce = CATEGORY_COMMERCE;
constexpr Category kMilitary = CATEGORY_MILITARY;
constexpr Category kPolitics = CATEGORY_POLITICS;
constexpr Category kMedia = CATEGORY_MEDIA;

// RULES.md, "The globalisation table": the rule book's Commerce example. Yellow 0, Green 1,
// Violet 2, the order as in the example.
TEST(ControleGlobalTable, RuleBookCommerceExample) {
  auto s = CommerceExample();
  auto state = Load(s);
  auto& cg = Cg(*state);
  EXPECT_EQ(cg.WorldLevel(Cat(kCommerce)), 3u);
  EXPECT_EQ(cg.LiveLevel(0, Cat(kCommerce)), 3u);
  EXPECT_EQ(cg.LiveLevel(1, Cat(kCommerce)), 2u);
  EXPECT_EQ(cg.LiveLevel(2, Cat(kCommerce)), 1u);
  EXPECT_EQ(cg.LiveLevels(Cat(kCommerce)), (std::vector<uint32_t>{3, 2, 1}));
  // A total of 8 is level III at every player count.
  for (uint32_t n = 3; n <= 6; ++n) EXPECT_EQ(Game().LevelOf(n, 8), 3u) << n;
}

// Violet climbs cube by cube (investing): at 3 she stays behind Green, at 4 she passes Green but
// not Yellow, at 5 she leads.
TEST(ControleGlobalTable, OnlyAStrictlyHigherTotalPasses) {
  auto state = Load(VioletInvests());
  auto order = [&] {
    auto p = PositionOf(*state);
    return std::vector<uint32_t>(p.orders(Cat(kCommerce)).seats().begin(),
                                 p.orders(Cat(kCommerce)).seats().end());
  };
  const std::vector<std::vector<uint32_t>> expected = {{0, 1, 2}, {0, 1, 2}, {0, 2, 1}, {2, 0, 1}};
  for (const auto& want : expected) {
    ASSERT_TRUE(state->Apply(2, Invest(INVEST_ADD_INFLUENCE, 1, kCommerce, 0, 2)).ok());
    EXPECT_EQ(order(), want);
  }
}

// The floor: a player far down the order keeps at least the level of their own total.
TEST(ControleGlobalTable, NeverBelowTheLevelOfOnesOwnTotal) {
  auto s = Blank(3);
  SetCubes(s, 0, 0, kMilitary, 7);
  SetCubes(s, 1, 1, kMilitary, 6);
  SetCubes(s, 2, 2, kMilitary, 6);
  auto state = Load(s);
  auto& cg = Cg(*state);
  // World 19: level V; third place would give III, but 6 cubes alone reach III: III anyway, and
  // a seat with nothing is still ranked.
  EXPECT_EQ(cg.WorldLevel(Cat(kMilitary)), 5u);
  EXPECT_EQ(cg.LiveLevel(0, Cat(kMilitary)), 5u);
  EXPECT_EQ(cg.LiveLevel(1, Cat(kMilitary)), 4u);
  EXPECT_EQ(cg.LiveLevel(2, Cat(kMilitary)), 3u);
  auto s2 = Blank(3);
  SetCubes(s2, 0, 0, kMilitary, 1);
  SetCubes(s2, 0, 1, kMilitary, 1);
  auto lone = Load(s2);
  EXPECT_EQ(Cg(*lone).LiveLevel(2, Cat(kMilitary)), 0u);  // world I, third place: 0
  EXPECT_EQ(Cg(*lone).LiveLevel(1, Cat(kMilitary)), 1u);  // second place, but 1 cube alone is I
}

// RULES.md, "End and final score": the rule book's two regions.
TEST(ControleGlobalScore, RuleBookRegionExamples) {
  EXPECT_EQ(ControleGlobalState::ShareRegion(8, {3, 4}), (std::vector<uint32_t>{3, 4}));
  EXPECT_EQ(ControleGlobalState::ShareRegion(6, {4, 3, 1}), (std::vector<uint32_t>{3, 2, 0}));
  EXPECT_EQ(ControleGlobalState::ShareRegion(5, {2, 2}), (std::vector<uint32_t>{2, 2}));
  EXPECT_EQ(ControleGlobalState::ShareRegion(3, {2, 2}), (std::vector<uint32_t>{1, 1}));
  EXPECT_EQ(ControleGlobalState::ShareRegion(4, {0, 0}), (std::vector<uint32_t>{0, 0}));
}

// The same two regions played to the end (the rules console's positions): the last player keeps
// their hand, civil society strikes elsewhere, the game ends, and the example's seats, present
// nowhere else, score the region's shares as their region VP.
TEST(ControleGlobalScore, RuleBookRegionsScoredAtTheEnd) {
  const std::pair<internal::StateProto, std::vector<uint32_t>> cases[] = {
      {RegionAt8(), {3, 4}}, {RegionAt6(), {3, 2, 0}}};
  for (const auto& [s, shares] : cases) {
    auto state = Load(s);
    ASSERT_TRUE(state->Apply(static_cast<int>(s.num_seats()) - 1, Keep()).ok());
    ASSERT_TRUE(state->IsTerminal());
    const auto end = PositionOf(*state);
    EXPECT_EQ(end.regions(0).development(), s.regions(0).development());
    for (size_t seat = 0; seat < shares.size(); ++seat) {
      EXPECT_EQ(end.seats(static_cast<int>(seat)).region_vp(), shares[seat]) << seat;
    }
    // The log tells the region's scoring, share by share, and the VP the tie loses.
    std::vector<std::string> told;
    for (const engine::LogRef& record : engine::LogOf(end.table())) {
      told.push_back(Game().TextRenderer().Render(engine::LogText(record),
                                                  [](int s) { return "seat " + std::to_string(s); }));
    }
    auto has = [&](const std::string& line) {
      return std::find(told.begin(), told.end(), line) != told.end();
    };
    const std::string& name = s.regions(0).name();
    const std::string dev = std::to_string(s.regions(0).development());
    if (shares.size() == 2) {
      EXPECT_TRUE(has(name + " (development " + dev + "): seat 0 takes 3 VP, seat 1 takes 4 VP."));
    } else {
      EXPECT_TRUE(has(name + " (development " + dev + "): seat 0 takes 3 VP, seat 1 takes 2 VP."));
      EXPECT_TRUE(has("1 VP of " + name + " cannot be shared and are lost."));
    }
  }
}

// RULES.md, "Reading an effect": the rule book's Pillages et invasions barbares. Violet (seat 0)
// has noted Military II and pays one resource for the missing level.
// V loses its two development points in full (4 to 2), and never goes below 1 (2 to 1).
TEST(ControleGlobalEffects, PillagesEtInvasionsBarbares) {
  for (const uint32_t development : {4u, 2u}) {
    int r = -1, v = -1;
    auto s = PillagesPosition(&r, &v);
    ASSERT_GE(r, 0);
    s.mutable_regions(v)->set_development(development);
    auto state = Load(s);
    // Without paying for the missing level the effect is refused, and nothing changes.
    const std::string before = state->Serialize();
    EXPECT_FALSE(state->Apply(0, Play("border_clashes", 3)).ok());
    EXPECT_EQ(state->Serialize(), before);
    ASSERT_TRUE(state->Apply(0, Play("border_clashes", 3, 0, 1, 0)).ok());
    // R is the one region where Violet is present; V is asked among R's neighbours.
    auto asked = Asked(*state, 0);
    EXPECT_EQ(asked.size(), static_cast<size_t>(s.regions(r).neighbours_size()));
    ASSERT_TRUE(Answer(*state, 0, RegionOpt(v)).ok());
    auto p = PositionOf(*state);
    EXPECT_EQ(p.seats(0).resources(1), 0u);
    EXPECT_EQ(CubesOf(p, r, 0, Cat(kCommerce)), 1u);
    EXPECT_EQ(p.regions(v).development(), development == 4 ? 2u : 1u);
    EXPECT_EQ(CubesOf(p, v, 0, Cat(kMilitary)), 2u);
    EXPECT_EQ(p.phase(), PHASE_INVEST);
  }
}

// The printed Construction d'un mur à la frontière: two cubes in R, Politics or Media at the
// player's choice (asked per cube); in V a Military cube, and U (holding Politics there) loses
// a Politics cube.
TEST(ControleGlobalEffects, ConstructionDUnMurALaFrontiere) {
  auto s = Blank(3);
  const int r = RegionWithNeighbours(s, 1);
  const int v = static_cast<int>(s.regions(r).neighbours(0));
  SetCubes(s, r, 0, kPolitics, 1);
  SetCubes(s, v, 1, kPolitics, 2);
  SetCubes(s, v, 2, kMedia, 1);  // present in V, but holds no Politics: not a U
  s.mutable_seats(0)->set_noted(Cat(kPolitics), 3);
  Give(s, 0, "identity_ideology");
  auto state = Load(s);
  ASSERT_TRUE(state->Apply(0, Play("identity_ideology", 3)).ok());
  // R: only where seat 0 is present, so not asked; the first cube's category is.
  EXPECT_EQ(Asked(*state, 0), (std::vector<std::string>{CatOpt(kPolitics), CatOpt(kMedia)}));
  ASSERT_TRUE(Answer(*state, 0, CatOpt(kPolitics)).ok());
  ASSERT_TRUE(Answer(*state, 0, CatOpt(kMedia)).ok());
  // V among R's neighbours (asked only when there are several).
  if (!Asked(*state, 0).empty()) ASSERT_TRUE(Answer(*state, 0, RegionOpt(v)).ok());
  auto p = PositionOf(*state);
  EXPECT_EQ(CubesOf(p, r, 0, Cat(kPolitics)), 2u);
  EXPECT_EQ(CubesOf(p, r, 0, Cat(kMedia)), 1u);
  EXPECT_EQ(CubesOf(p, v, 0, Cat(kMilitary)), 1u);
  EXPECT_EQ(CubesOf(p, v, 1, Cat(kPolitics)), 1u);
  EXPECT_EQ(CubesOf(p, v, 2, Cat(kMedia)), 1u);
  EXPECT_EQ(p.phase(), PHASE_INVEST);
}

std::unique_ptr<engine::State> InstitutRound(uint32_t reached, int* struck, int* other) {
  return Load(InstitutPosition(reached, struck, other));
}

// RULES.md, "Civil society reacts": the rule book's Institut de statistiques indépendant, Media
// at IV: the region with the most Politics and Media develops, the Media leader loses one Media
// cube where they choose; the steps from V and VI do not apply.
TEST(ControleGlobalCivil, InstitutDeStatistiquesAtLevelIV) {
  int a, b;
  auto state = InstitutRound(4, &a, &b);
  const uint32_t dev = PositionOf(*state).regions(a).development();
  ASSERT_TRUE(state->Apply(2, Keep()).ok());
  EXPECT_EQ(Asked(*state, 1), (std::vector<std::string>{RegionOpt(std::min(a, b)), RegionOpt(std::max(a, b))}));
  // The struck player is asked through the queue, and only they act until they answer.
  EXPECT_EQ(state->ActingSeats(), std::vector<int>{1});
  EXPECT_TRUE(Asked(*state, 0).empty());
  EXPECT_TRUE(Asked(*state, 2).empty());
  ASSERT_TRUE(Answer(*state, 1, RegionOpt(b)).ok());
  auto p = PositionOf(*state);
  EXPECT_EQ(p.regions(a).development(), dev + 1);
  EXPECT_EQ(CubesOf(p, b, 1, Cat(kMedia)), 0u);
  EXPECT_EQ(CubesOf(p, a, 1, Cat(kMedia)), 1u);
  EXPECT_EQ(CubesOf(p, a, 2, Cat(kPolitics)), 3u);
  // The card went to its discard and the next round began.
  EXPECT_EQ(p.round(), 2u);
  EXPECT_EQ(p.piles(Game().PileOf(Game().CardIndex("opinion_survey"))).discard_size(), 1);
}

// At VI every step applies: a second Media cube, and the Politics of the region's most
// influential player.
TEST(ControleGlobalCivil, InstitutDeStatistiquesAtLevelVI) {
  int a, b;
  auto state = InstitutRound(6, &a, &b);
  ASSERT_TRUE(state->Apply(2, Keep()).ok());
  ASSERT_TRUE(Answer(*state, 1, RegionOpt(b)).ok());
  // The one Media cube left is in `a`: nothing to ask.
  auto p = PositionOf(*state);
  EXPECT_EQ(CubesOf(p, a, 1, Cat(kMedia)), 0u);
  EXPECT_EQ(CubesOf(p, b, 1, Cat(kMedia)), 0u);
  EXPECT_EQ(CubesOf(p, a, 2, Cat(kPolitics)), 2u);
}

// RULES.md, "Civil society reacts": a rise above the round's highest level puts the top card of
// the upper pile face down in the area; falling and rising again to that level brings none.
TEST(ControleGlobalCivil, ARiseBringsOneCardPerLevelOncePerRound) {
  auto s = Blank(3);
  SetCubes(s, 0, 0, kCommerce, 3);
  SetCubes(s, 0, 1, kCommerce, 2);
  s.set_highest(Cat(kCommerce), 2);
  s.set_phase(PHASE_INVEST);
  SetResources(s, 0, 9, 0, 0);
  const int upper = Game().PileIndex(kCommerce, TIER_UPPER);
  const uint32_t top = s.piles(upper).cards(s.piles(upper).cards_size() - 1);
  auto state = Load(s);
  ASSERT_TRUE(state->Apply(0, Invest(INVEST_ADD_INFLUENCE, 0, kCommerce, 0, 2)).ok());  // 6: III
  auto p = PositionOf(*state);
  ASSERT_EQ(p.civil_size(), 1);
  EXPECT_EQ(p.civil(0), top);
  EXPECT_TRUE(p.red(Cat(kCommerce)));
  ASSERT_TRUE(state->Apply(0, Invest(INVEST_REMOVE_INFLUENCE, 0, kCommerce, 1, 3)).ok());  // II
  ASSERT_TRUE(state->Apply(0, Invest(INVEST_ADD_INFLUENCE, 0, kCommerce, 0, 2)).ok());     // III
  EXPECT_EQ(PositionOf(*state).civil_size(), 1);
  // Nobody but the seats' counts: the view shows the card's pile, not the card.
  auto view = state->View(1);
  const auto& v = static_cast<const View&>(*view);
  EXPECT_EQ(v.civil_piles_size(), 1);
  EXPECT_EQ(v.civil_piles(0), static_cast<uint32_t>(upper));
}

// RULES.md, "End of the round": levels are noted, the next turn order goes by level VP (ties keep
// the order just played), and tokens turn grey.
TEST(ControleGlobalRound, TurnOrderByLevelVp) {
  auto s = Blank(3);
  SetCubes(s, 0, 2, kMilitary, 6);  // seat 2 leads Military: world III
  SetCubes(s, 1, 1, kMilitary, 1);
  s.mutable_orders(Cat(kMilitary))->set_seats(0, 2);
  s.mutable_orders(Cat(kMilitary))->set_seats(2, 0);
  s.set_highest(Cat(kMilitary), 3);
  s.set_red(Cat(kMilitary), true);
  LastTurn(s, 2);
  auto state = Load(s);
  ASSERT_TRUE(state->Apply(2, Keep()).ok());
  auto p = PositionOf(*state);
  EXPECT_EQ(p.round(), 2u);
  // Seat 2: III (3 VP), seat 1: II (1 VP), seat 0: I (0 VP).
  EXPECT_EQ(p.seats(2).noted(Cat(kMilitary)), 3u);
  EXPECT_EQ(p.seats(1).level_vp(), 1u);
  EXPECT_EQ(std::vector<uint32_t>(p.turn_order().begin(), p.turn_order().end()),
            (std::vector<uint32_t>{2, 1, 0}));
  EXPECT_FALSE(p.red(Cat(kMilitary)));
  EXPECT_EQ(state->ActingSeats(), std::vector<int>{2});
}

// RULES.md, "End and final score": a category at VI ends the game after the round; each scores
// level VP plus region VP.
TEST(ControleGlobalRound, ACategoryAtVIEndsTheGame) {
  auto s = Blank(3);
  SetCubes(s, 0, 0, kMilitary, 21);  // 3 players: VI
  s.mutable_regions(0)->set_development(3);
  s.set_highest(Cat(kMilitary), 6);
  LastTurn(s, 2);
  auto state = Load(s);
  ASSERT_TRUE(state->Apply(2, Keep()).ok());
  EXPECT_TRUE(state->IsTerminal());
  // Seat 0: VI (10 VP) plus the region's 3; seats 1 and 2: V (7) and IV (5), nothing in regions.
  EXPECT_EQ(state->Scores(), (std::vector<int64_t>{13, 7, 5}));
  EXPECT_EQ(state->Ranks(), (std::vector<int>{1, 2, 3}));
}

// The hands: their owner sees the cards; everyone sees how many and from which piles.
TEST(ControleGlobalView, HandsStayHidden) {
  auto state = PastSetup(4, 9);
  auto p = PositionOf(*state);
  for (int viewer = -1; viewer < 4; ++viewer) {
    auto view = state->View(viewer);
    const auto& v = static_cast<const View&>(*view);
    for (int seat = 0; seat < 4; ++seat) {
      EXPECT_EQ(v.seats(seat).hand_piles_size(), p.seats(seat).hand_size());
      EXPECT_EQ(v.seats(seat).hand_size(), 0) << "a hand among the seats before the end";
    }
    // The viewer's own hand, card by card; a spectator's is empty.
    EXPECT_EQ(v.hand_size(), viewer >= 0 ? p.seats(viewer).hand_size() : 0);
    for (int i = 0; i < v.hand_size(); ++i)
      EXPECT_EQ(v.hand(i), Game().card(p.seats(viewer).hand(i)).id());
    // Every card is counted somewhere the view shows: in a pile, a discard or a hand.
    uint32_t cards = 0;
    for (const auto& pile : v.piles()) cards += pile.size() + static_cast<uint32_t>(pile.discard_size());
    for (const auto& seat : v.seats()) cards += static_cast<uint32_t>(seat.hand_piles_size());
    EXPECT_EQ(cards, static_cast<uint32_t>(Game().data().cards_size()));
  }
}

// While an effect runs, every view tells it: the card, the effect, the step and what its labels
// stand for (the same for every viewer: it is played face up). Construction d'un mur asks the
// first cube's category in step 1, R already bound.
TEST(ControleGlobalView, TheEffectBeingResolved) {
  auto s = Blank(3);
  const int r = RegionWithNeighbours(s, 1);
  SetCubes(s, r, 0, kPolitics, 1);
  s.mutable_seats(0)->set_noted(Cat(kPolitics), 3);
  Give(s, 0, "identity_ideology");
  auto state = Load(s);
  EXPECT_FALSE(static_cast<const View&>(*state->View(1)).has_running());
  ASSERT_TRUE(state->Apply(0, Play("identity_ideology", 3)).ok());
  ASSERT_FALSE(Asked(*state, 0).empty());
  for (int viewer = -1; viewer < 3; ++viewer) {
    auto view = state->View(viewer);
    const RunningView& run = static_cast<const View&>(*view).running();
    EXPECT_EQ(run.card(), "identity_ideology");
    EXPECT_EQ(run.effect(), 3u);  // its third effect
    EXPECT_EQ(run.player(), 0);
    EXPECT_EQ(run.step(), 0u);
    ASSERT_GE(run.regions_size(), 1);
    EXPECT_EQ(run.regions(0).label(), "R");
    ASSERT_EQ(run.regions(0).regions_size(), 1);
    EXPECT_EQ(run.regions(0).regions(0), static_cast<uint32_t>(r));
  }
}

}  // namespace
}  // namespace plateau::games::controle_global::rule_test
