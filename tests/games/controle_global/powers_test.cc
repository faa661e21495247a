// Contrôle Global: the six factions' powers, investing, privatising and the draw at the end of a
// turn (RULES.md, "A player's turn", "Factions").
#include "tests/games/controle_global/support.h"

namespace plateau::games::controle_global::rule_test {
namespace {

int FactionIndex(const std::string& id) {
  for (int f = 0; f < Game().data().factions_size(); ++f) {
    if (Game().faction(f).id() == id) return f;
  }
  ADD_FAILURE() << id;
  return -1;
}

// The position once seat 2, last of the round, has kept its hand and civil society has resolved
// `card`, face down in its area.
internal::StateProto AfterCivilSociety(internal::StateProto s, const std::string& card) {
  LastTurnWithCivil(s, 2, card);
  auto state = Load(s);
  EXPECT_TRUE(state->Apply(2, Keep()).ok());
  return PositionOf(*state);
}

// Seat 0 of faction `id` in the given phase.
internal::StateProto WithFaction(const std::string& id, Phase phase) {
  auto s = Blank(3);
  for (int seat = 0; seat < 3; ++seat) s.mutable_seats(seat)->set_faction(-1);
  s.mutable_seats(0)->set_faction(FactionIndex(id));
  s.mutable_seats(1)->set_faction(FactionIndex(id == "pharma" ? "cult" : "pharma"));
  s.mutable_seats(2)->set_faction(FactionIndex(id == "cartel" ? "cult" : "cartel"));
  s.set_phase(phase);
  return s;
}

// Portes tournantes: the first missing level of each card played is free.
TEST(ControleGlobalPowers, LobbyingMakesUpOneLevelFree) {
  auto s = WithFaction("lobbying", PHASE_PLAY);
  SetCubes(s, 0, 0, CATEGORY_POLITICS, 1);
  s.mutable_seats(0)->set_noted(Cat(CATEGORY_POLITICS), 1);
  SetResources(s, 0, 1, 0, 0);
  Give(s, 0, "identity_ideology");
  auto state = Load(s);
  // Needs Politics III from I: two missing, one free, one paid.
  EXPECT_FALSE(state->Apply(0, Play("identity_ideology", 3, 0, 0, 0)).ok());
  EXPECT_TRUE(state->Apply(0, Play("identity_ideology", 3, 1, 0, 0)).ok());
  EXPECT_EQ(PositionOf(*state).seats(0).resources(0), 0u);
}

// Racket no longer touches the cost of removing a cube: the Cartel pays 3 as everyone does.
TEST(ControleGlobalPowers, CartelRemovesAtTheStandardCost) {
  auto s = WithFaction("cartel", PHASE_INVEST);
  SetCubes(s, 0, 0, CATEGORY_MILITARY, 1);
  SetCubes(s, 0, 1, CATEGORY_MEDIA, 2);
  SetResources(s, 0, 3, 0, 0);
  auto state = Load(s);
  EXPECT_FALSE(state->Apply(0, Invest(INVEST_REMOVE_INFLUENCE, 0, CATEGORY_MEDIA, 1, 2)).ok());
  EXPECT_TRUE(state->Apply(0, Invest(INVEST_REMOVE_INFLUENCE, 0, CATEGORY_MEDIA, 1, 3)).ok());
  EXPECT_EQ(CubesOf(PositionOf(*state), 0, 1, Cat(CATEGORY_MEDIA)), 1u);
}

// Prosélytisme: a cube of its own two categories for 1, others for 2.
TEST(ControleGlobalPowers, FundamentalistsAddTheirCubesForOne) {
  auto s = WithFaction("fundamentalists", PHASE_INVEST);
  SetCubes(s, 0, 0, CATEGORY_RELIGIONS, 1);
  SetResources(s, 0, 3, 0, 0);
  auto state = Load(s);
  EXPECT_TRUE(state->Apply(0, Invest(INVEST_ADD_INFLUENCE, 0, CATEGORY_RELIGIONS, 0, 1)).ok());
  EXPECT_FALSE(state->Apply(0, Invest(INVEST_ADD_INFLUENCE, 0, CATEGORY_COMMERCE, 0, 1)).ok());
  EXPECT_TRUE(state->Apply(0, Invest(INVEST_ADD_INFLUENCE, 0, CATEGORY_COMMERCE, 0, 2)).ok());
  EXPECT_EQ(PositionOf(*state).seats(0).resources(0), 0u);
}

// Investing only where one is present; a refused investment changes nothing.
TEST(ControleGlobalInvest, OnlyWherePresent) {
  auto s = WithFaction("cult", PHASE_INVEST);
  SetCubes(s, 0, 0, CATEGORY_MEDIA, 1);
  SetResources(s, 0, 2, 0, 0);
  auto state = Load(s);
  const std::string before = state->Serialize();
  auto st = state->Apply(0, Invest(INVEST_DEVELOP, 1, CATEGORY_UNSPECIFIED, 0, 2));
  EXPECT_EQ(st.code(), codes::kBadRegion);
  EXPECT_EQ(state->Serialize(), before);
  const uint32_t dev = s.regions(0).development();
  ASSERT_TRUE(state->Apply(0, Invest(INVEST_DEVELOP, 0, CATEGORY_UNSPECIFIED, 0, 2)).ok());
  EXPECT_EQ(PositionOf(*state).regions(0).development(), dev + 1);
}

Action Privatise(int region, Resource r) {
  Action a;
  a.mutable_privatise()->set_region(static_cast<uint32_t>(region));
  a.mutable_privatise()->set_resource(r);
  return a;
}

Action Done() {
  Action a;
  a.mutable_done_investing();
  return a;
}

// Privatising takes the card's printed resources from regions where one is present; Brevets adds
// one of any type.
TEST(ControleGlobalPrivatise, PrintedResourcesAndBrevets) {
  for (const std::string faction : {"cult", "pharma"}) {
    auto s = WithFaction(faction, PHASE_PLAY);
    SetCubes(s, 0, 0, CATEGORY_POLITICS, 1);
    for (int res = 0; res < kResources; ++res) s.mutable_regions(0)->set_stock(res, 2);
    Give(s, 0, "revolving_door");  // prints 1 energy and 1 food
    auto state = Load(s);
    ASSERT_TRUE(state->Apply(0, Play("revolving_door", 0)).ok());
    ASSERT_TRUE(state->Apply(0, Done()).ok());
    EXPECT_FALSE(state->Apply(0, Privatise(1, RESOURCE_ENERGY)).ok());  // absent from region 1
    ASSERT_TRUE(state->Apply(0, Privatise(0, RESOURCE_ENERGY)).ok());
    ASSERT_TRUE(state->Apply(0, Privatise(0, RESOURCE_FOOD)).ok());
    if (faction == "pharma") {
      EXPECT_EQ(PositionOf(*state).phase(), PHASE_PRIVATISE);
      ASSERT_TRUE(state->Apply(0, Privatise(0, RESOURCE_RAW_MATERIALS)).ok());
    }
    // The next player's turn starts; this one's draw stays open beside it.
    auto p = PositionOf(*state);
    EXPECT_EQ(p.phase(), PHASE_PLAY) << faction;
    EXPECT_EQ(state->ActingSeats(), (std::vector<int>{0, 1}));
    EXPECT_EQ(p.seats(0).resources(0), faction == "pharma" ? 1u : 0u);
    EXPECT_EQ(p.seats(0).resources(1), 1u);
    EXPECT_EQ(p.regions(0).stock(2), 1u);
  }
}

// The player may leave the rest of the card's resources (the rule book: they may take them); the
// choice is offered only while something can be taken, and only while privatising.
TEST(ControleGlobalPrivatise, ThePlayerMayLeaveTheRest) {
  auto s = WithFaction("cult", PHASE_PLAY);
  SetCubes(s, 0, 0, CATEGORY_POLITICS, 1);
  for (int res = 0; res < kResources; ++res) s.mutable_regions(0)->set_stock(res, 2);
  Give(s, 0, "revolving_door");  // prints 1 energy and 1 food
  auto state = Load(s);
  Action stop;
  stop.mutable_done_privatising();
  ASSERT_TRUE(state->Apply(0, Play("revolving_door", 0)).ok());
  EXPECT_EQ(state->Apply(0, stop).code(), codes::kWrongPhase);  // investing, not privatising
  ASSERT_TRUE(state->Apply(0, Done()).ok());
  ASSERT_TRUE(state->Apply(0, Privatise(0, RESOURCE_ENERGY)).ok());
  ASSERT_TRUE(state->Apply(0, stop).ok());
  auto p = PositionOf(*state);
  EXPECT_EQ(p.turn_index(), 1u);
  EXPECT_EQ(p.seats(0).resources(1), 1u);
  EXPECT_EQ(p.seats(0).resources(2), 0u);  // the food left in the region
  EXPECT_EQ(p.regions(0).stock(2), 2u);
}

// A printed resource no region where one is present holds is not taken.
TEST(ControleGlobalPrivatise, NothingLeftNothingTaken) {
  auto s = WithFaction("cult", PHASE_PLAY);
  SetCubes(s, 0, 0, CATEGORY_POLITICS, 1);
  for (int res = 0; res < kResources; ++res) s.mutable_regions(0)->set_stock(res, 0);
  Give(s, 0, "revolving_door");
  auto state = Load(s);
  ASSERT_TRUE(state->Apply(0, Play("revolving_door", 0)).ok());
  ASSERT_TRUE(state->Apply(0, Done()).ok());
  EXPECT_EQ(PositionOf(*state).turn_index(), 1u);
  EXPECT_EQ(PositionOf(*state).seats(0).resources(1), 0u);
}

Action Draw(int pile) {
  Action a;
  a.mutable_draw()->set_pile(static_cast<uint32_t>(pile));
  return a;
}

Action DiscardPaid(const std::string& card, uint32_t raw) {
  Action a;
  a.mutable_discard()->set_card(card);
  a.mutable_discard()->mutable_pay()->set_raw_materials(raw);
  return a;
}

// Discard (1 resource a card) before drawing, then draw back to the hand size from any pile;
// the Empire médiatique holds five.
TEST(ControleGlobalDraw, DiscardThenDrawBack) {
  for (const std::string faction : {"cult", "media_empire"}) {
    auto s = WithFaction(faction, PHASE_DRAW);
    FillHand(s, 0, 4);
    SetResources(s, 0, 1, 0, 0);
    auto state = Load(s);
    const std::string card = Game().card(s.seats(0).hand(0)).id();
    if (faction == "cult") {
      EXPECT_TRUE(state->LegalActions(0).size() > 1);
      ASSERT_TRUE(state->Apply(0, DiscardPaid(card, 1)).ok());
    } else {
      EXPECT_EQ(state->Apply(0, Keep()).code(), codes::kMustDraw);  // a hand of five
    }
    const int upper = Game().PileIndex(CATEGORY_BIOLOGY, TIER_UPPER);
    ASSERT_TRUE(state->Apply(0, Draw(upper)).ok());
    auto p = PositionOf(*state);
    EXPECT_EQ(p.seats(0).hand_size(), faction == "cult" ? 4 : 5);
    // Full: the turn passed to the next player.
    EXPECT_EQ(p.turn_index(), 1u);
    EXPECT_EQ(state->ActingSeats(), std::vector<int>{1});
  }
}

// No paid discard once drawing has started; an empty pile refills from its shuffled discard.
TEST(ControleGlobalDraw, NoDiscardAfterDrawingAndRefills) {
  auto s = WithFaction("cult", PHASE_DRAW);
  while (s.seats(0).hand_size() > 2) {
    const uint32_t c = s.seats(0).hand(s.seats(0).hand_size() - 1);
    s.mutable_seats(0)->mutable_hand()->RemoveLast();
    s.mutable_piles(Game().PileOf(c))->add_cards(c);
  }
  SetResources(s, 0, 2, 0, 0);
  const int pile = Game().PileIndex(CATEGORY_MEDIA, TIER_UPPER);
  auto* p = s.mutable_piles(pile);
  for (uint32_t c : p->cards()) p->add_discard(c);
  p->clear_cards();
  auto state = Load(s);
  ASSERT_TRUE(state->Apply(0, Draw(pile)).ok());
  const std::string card = Game().card(s.seats(0).hand(0)).id();
  EXPECT_EQ(state->Apply(0, DiscardPaid(card, 1)).code(), codes::kMustDraw);
  auto after = PositionOf(*state);
  EXPECT_EQ(after.piles(pile).cards_size() + 1, s.piles(pile).discard_size());
  EXPECT_EQ(after.piles(pile).discard_size(), 0);
}

// Martyrs: a food for each cube civil society takes from the Secte prospère; another faction
// loses the same cubes and gains nothing.
TEST(ControleGlobalPowers, CultGainsAFoodForEachCubeCivilSocietyTakes) {
  for (const std::string faction : {"cult", "cartel"}) {
    auto s = WithFaction("pharma", PHASE_DRAW);
    s.mutable_seats(1)->set_faction(FactionIndex(faction));
    SetCubes(s, 0, 1, CATEGORY_MEDIA, 2);
    s.mutable_orders(Cat(CATEGORY_MEDIA))->set_seats(0, 1);
    s.mutable_orders(Cat(CATEGORY_MEDIA))->set_seats(1, 0);
    s.set_highest(Cat(CATEGORY_MEDIA), 6);
    // Two steps of one Media cube each at VI: both taken.
    const auto p = AfterCivilSociety(s, "opinion_survey");
    EXPECT_EQ(CubesOf(p, 0, 1, Cat(CATEGORY_MEDIA)), 0u) << faction;
    EXPECT_EQ(p.seats(1).resources(2), faction == "cult" ? 2u : 0u) << faction;
    EXPECT_EQ(p.seats(1).resources(0) + p.seats(1).resources(1), 0u) << faction;
    EXPECT_EQ(p.round(), 2u);
  }
}

}  // namespace
}  // namespace plateau::games::controle_global::rule_test

namespace plateau::games::controle_global::rule_test {
namespace {

// Seat `seat` plays a card for no effect from a world with nothing to privatise, and invests
// nothing.
void PlainTurn(engine::State& state, int seat) {
  auto p = PositionOf(state);
  const std::string card = Game().card(p.seats(seat).hand(0)).id();
  ASSERT_TRUE(state.Apply(seat, Play(card, 0)).ok());
  ASSERT_TRUE(state.Apply(seat, Done()).ok());
}

internal::StateProto NothingToPrivatise() {
  auto s = Blank(3);
  for (auto& r : *s.mutable_regions()) {
    for (int res = 0; res < kResources; ++res) r.set_stock(res, 0);
  }
  return s;
}

// RULES.md, "While the previous player draws": the next turn starts once a player has
// privatised, their draw stays open as their own move beside it.
TEST(ControleGlobalDraw, ThePreviousPlayerDrawsDuringTheNextTurn) {
  auto state = Load(NothingToPrivatise());
  PlainTurn(*state, 0);
  EXPECT_EQ(state->ActingSeats(), (std::vector<int>{0, 1}));
  auto view = state->View(2);
  EXPECT_EQ(static_cast<const View&>(*view).drawing_seat(), 0);
  // Seat 1 plays on while seat 0 draws its one card.
  const std::string card = Game().card(PositionOf(*state).seats(1).hand(0)).id();
  ASSERT_TRUE(state->Apply(1, Play(card, 0)).ok());
  ASSERT_TRUE(state->Apply(0, Draw(Game().PileIndex(CATEGORY_RELIGIONS, TIER_UPPER))).ok());
  EXPECT_EQ(PositionOf(*state).seats(0).hand_size(), 4);
  EXPECT_EQ(state->ActingSeats(), (std::vector<int>{1}));
}

// Still open when the next player reaches their own draw, it is made by default first: no
// discard, the lower pile of the highest noted level. The round's last player draws in turn.
TEST(ControleGlobalDraw, AnOpenDrawIsMadeByDefault) {
  auto s = NothingToPrivatise();
  s.mutable_seats(0)->set_noted(Cat(CATEGORY_MEDIA), 2);
  s.mutable_seats(0)->set_noted(Cat(CATEGORY_BIOLOGY), 2);  // a tie: Media comes first
  auto state = Load(s);
  PlainTurn(*state, 0);
  PlainTurn(*state, 1);
  auto p = PositionOf(*state);
  ASSERT_EQ(p.seats(0).hand_size(), 4);
  EXPECT_EQ(Game().PileOf(p.seats(0).hand(3)), Game().PileIndex(CATEGORY_MEDIA, TIER_LOWER));
  EXPECT_EQ(state->ActingSeats(), (std::vector<int>{1, 2}));
  PlainTurn(*state, 2);
  // Seat 1's draw was made; seat 2, last of the round, draws now, alone.
  p = PositionOf(*state);
  EXPECT_EQ(p.seats(1).hand_size(), 4);
  EXPECT_EQ(p.phase(), PHASE_DRAW);
  EXPECT_EQ(state->ActingSeats(), std::vector<int>{2});
}

}  // namespace
}  // namespace plateau::games::controle_global::rule_test

namespace plateau::games::controle_global::rule_test {
namespace {

// Martyrs on a step of two cubes (Modération des contenus, Media at IV): two food.
TEST(ControleGlobalPowers, MartyrsOnAStepOfTwoCubes) {
  for (const std::string faction : {"cult", "pharma"}) {
    auto s = WithFaction("cartel", PHASE_DRAW);
    s.mutable_seats(1)->set_faction(FactionIndex(faction));
    SetCubes(s, 0, 1, CATEGORY_MEDIA, 3);
    s.set_highest(Cat(CATEGORY_MEDIA), 4);
    const auto p = AfterCivilSociety(s, "troll_farms");
    EXPECT_EQ(CubesOf(p, 0, 1, Cat(CATEGORY_MEDIA)), 1u) << faction;
    EXPECT_EQ(p.seats(1).resources(2), faction == "cult" ? 2u : 0u) << faction;
  }
}

// Martyrs pays only for civil society: a cube another player removes by investment brings
// nothing.
TEST(ControleGlobalPowers, MartyrsIgnoresAPlayersRemoval) {
  auto s = WithFaction("pharma", PHASE_INVEST);
  s.mutable_seats(1)->set_faction(FactionIndex("cult"));
  SetCubes(s, 0, 0, CATEGORY_COMMERCE, 1);
  SetCubes(s, 0, 1, CATEGORY_RELIGIONS, 2);
  SetResources(s, 0, 3, 0, 0);
  auto state = Load(s);
  ASSERT_TRUE(state->Apply(0, Invest(INVEST_REMOVE_INFLUENCE, 0, CATEGORY_RELIGIONS, 1, 3)).ok());
  const auto p = PositionOf(*state);
  EXPECT_EQ(CubesOf(p, 0, 1, Cat(CATEGORY_RELIGIONS)), 1u);
  EXPECT_EQ(p.seats(1).resources(2), 0u);
}

// Racket: when the Cartel's turn starts, each other player present in a region where it holds
// more Military cubes than they do pays it one resource, of the type they hold most (the first in
// order among equals); a player out of its reach, or with nothing, pays nothing.
TEST(ControleGlobalPowers, CartelExtortsThoseInItsMilitaryRegions) {
  struct Case {
    uint32_t raw, energy, food;  // seat 0's resources
    int paid;                    // the resource seat 0 pays, -1 for none
  };
  for (const Case& c : {Case{1, 3, 2, 1}, Case{2, 2, 0, 0}, Case{0, 1, 4, 2}, Case{0, 0, 0, -1}}) {
    auto s = NothingToPrivatise();
    s.mutable_seats(0)->set_faction(FactionIndex("pharma"));
    s.mutable_seats(1)->set_faction(FactionIndex("cartel"));
    s.mutable_seats(2)->set_faction(FactionIndex("cult"));
    SetCubes(s, 0, 1, CATEGORY_MILITARY, 1);
    SetCubes(s, 0, 0, CATEGORY_COMMERCE, 1);
    SetCubes(s, 1, 1, CATEGORY_BIOLOGY, 1);  // not Military: seat 2 there is out of reach
    SetCubes(s, 1, 2, CATEGORY_RELIGIONS, 1);
    SetCubes(s, 0, 2, CATEGORY_MILITARY, 1);  // as much Military as the Cartel: out of reach too
    SetResources(s, 0, c.raw, c.energy, c.food);
    SetResources(s, 2, 5, 5, 5);
    auto state = Load(s);
    PlainTurn(*state, 0);
    const auto p = PositionOf(*state);
    ASSERT_EQ(p.turn_order(static_cast<int>(p.turn_index())), 1u);
    const uint32_t before[3] = {c.raw, c.energy, c.food};
    for (int res = 0; res < kResources; ++res) {
      EXPECT_EQ(p.seats(0).resources(res), before[res] - (res == c.paid ? 1 : 0)) << res;
      EXPECT_EQ(p.seats(1).resources(res), res == c.paid ? 1u : 0u) << res;
      EXPECT_EQ(p.seats(2).resources(res), 5u) << res;
    }
  }
}

// The faction's extra resource to privatise (Brevets) and the draw's progress are in the view.
TEST(ControleGlobalView, ExtraPrivatisingAndTheDraw) {
  for (const bool pharma : {true, false}) {
    auto s = Blank(3);
    s.mutable_seats(0)->set_faction(FactionIndex(pharma ? "pharma" : "lobbying"));
    SetCubes(s, 0, 0, CATEGORY_POLITICS, 1);
    auto state = Load(s);
    const std::string card = Game().card(s.seats(0).hand(0)).id();
    ASSERT_TRUE(state->Apply(0, Play(card, 0)).ok());
    ASSERT_TRUE(state->Apply(0, Done()).ok());
    auto v = state->View(2);
    EXPECT_EQ(static_cast<const View&>(*v).extra_privatise(), pharma ? 1u : 0u);
  }
  // The round's last player draws in turn: not drawn yet, then one card of two drawn.
  auto s = Blank(3);
  s.set_phase(PHASE_DRAW);
  s.set_turn_index(2);
  s.set_drew(false);
  // Two cards short of a full hand (gone to their piles' discards).
  for (int k = 0; k < 2; ++k) {
    const uint32_t gone = s.seats(2).hand(s.seats(2).hand_size() - 1);
    s.mutable_seats(2)->mutable_hand()->RemoveLast();
    s.mutable_piles(Game().PileOf(gone))->add_discard(gone);
  }
  auto state = Load(s);
  EXPECT_FALSE(static_cast<const View&>(*state->View(0)).drew());
  ASSERT_TRUE(state->Apply(2, Draw(Game().PileIndex(CATEGORY_POLITICS, TIER_LOWER))).ok());
  const auto view = state->View(0);
  const auto& after = static_cast<const View&>(*view);
  ASSERT_EQ(after.phase(), PHASE_DRAW);
  EXPECT_TRUE(after.drew());
  EXPECT_FALSE(after.drawing_seat_drew());
}

}  // namespace
}  // namespace plateau::games::controle_global::rule_test
