// Contrôle Global rule tests: the loaded game, positions built from a dealt game and changed to the
// situation of a rule (ControleGlobalGame::FromProto), and the moves and answers the tests play.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "engine/core/registry.h"
#include "engine/games/controle_global/controle_global.h"

namespace plateau::games::controle_global::rule_test {

inline const ControleGlobalGame& Game() {
  EXPECT_TRUE(engine::Registry::LoadAll().ok());
  return *dynamic_cast<const ControleGlobalGame*>(engine::Registry::Find("controle_global"));
}

inline internal::StateProto PositionOf(const engine::State& state) {
  internal::StateProto s;
  s.ParseFromString(state.Serialize());
  return s;
}

inline std::unique_ptr<engine::State> Load(const internal::StateProto& s) {
  auto state = Game().FromProto(s);
  EXPECT_TRUE(state.ok()) << state.status().reason();
  return std::move(state).value();
}

inline ControleGlobalState& Cg(engine::State& s) { return dynamic_cast<ControleGlobalState&>(s); }

// Plays the first legal action (or the plain answer) until the round's turns begin.
inline std::unique_ptr<engine::State> PastSetup(int seats, uint64_t seed) {
  auto state = Game().NewGame(seats, "", seed).value();
  while (PositionOf(*state).phase() != PHASE_PLAY) {
    const int seat = state->ActingSeats().at(0);
    auto a = state->DefaultAction(seat);
    EXPECT_TRUE(state->Apply(seat, *a).ok());
  }
  return state;
}

inline engine::Status Answer(engine::State& state, int seat, const std::string& option) {
  engine::v1::CoreAction core;
  core.mutable_answer()->add_options(option);
  return state.Apply(seat, *state.game().WrapCore(core));
}

inline Action Play(const std::string& card, uint32_t effect, uint32_t raw = 0, uint32_t energy = 0,
                   uint32_t food = 0) {
  Action a;
  a.mutable_play()->set_card(card);
  a.mutable_play()->set_effect(effect);
  a.mutable_play()->mutable_pay()->set_raw_materials(raw);
  a.mutable_play()->mutable_pay()->set_energy(energy);
  a.mutable_play()->mutable_pay()->set_food(food);
  return a;
}

}  // namespace plateau::games::controle_global::rule_test

namespace plateau::games::controle_global::rule_test {

// A game past set-up, then emptied: turn order 0, 1, 2..., seat 0 to play, no cube, no resource,
// every noted level 0, every order the seat order, no civil-society card.
inline internal::StateProto Blank(int seats, uint64_t seed = 3) {
  auto s = PositionOf(*PastSetup(seats, seed));
  for (int i = 0; i < seats; ++i) s.set_turn_order(i, static_cast<uint32_t>(i));
  s.set_turn_index(0);
  for (auto& r : *s.mutable_regions()) {
    for (auto& c : *r.mutable_cubes()) c = 0;
  }
  for (auto& st : *s.mutable_seats()) {
    for (int res = 0; res < kResources; ++res) st.set_resources(res, 0);
    for (int cat = 0; cat < kCategories; ++cat) st.set_noted(cat, 0);
    st.set_level_vp(0);
  }
  for (int cat = 0; cat < kCategories; ++cat) {
    auto* o = s.mutable_orders(cat);
    for (int i = 0; i < seats; ++i) o->set_seats(i, static_cast<uint32_t>(i));
    s.set_highest(cat, 0);
    s.set_red(cat, false);
  }
  for (uint32_t c : s.civil()) s.mutable_piles(Game().PileOf(c))->add_cards(c);
  s.clear_civil();
  return s;
}

// Moves card `id` from wherever it lies into `seat`'s hand.
inline void Give(internal::StateProto& s, int seat, const std::string& id) {
  const uint32_t card = static_cast<uint32_t>(Game().CardIndex(id));
  auto take = [&](google::protobuf::RepeatedField<uint32_t>* list) {
    for (int i = 0; i < list->size(); ++i) {
      if (list->Get(i) == card) {
        list->erase(list->begin() + i);
        return;
      }
    }
  };
  for (auto& p : *s.mutable_piles()) {
    take(p.mutable_cards());
    take(p.mutable_discard());
  }
  for (auto& st : *s.mutable_seats()) take(st.mutable_hand());
  take(s.mutable_civil());
  s.mutable_seats(seat)->add_hand(card);
}

// Fills `seat`'s hand to `n` cards from the first pile that has cards.
inline void FillHand(internal::StateProto& s, int seat, int n) {
  for (auto& pile : *s.mutable_piles()) {
    while (s.seats(seat).hand_size() < n && !pile.cards().empty()) {
      s.mutable_seats(seat)->add_hand(pile.cards(pile.cards_size() - 1));
      pile.mutable_cards()->RemoveLast();
    }
  }
}

// The round's last player (seat `last`) has drawn a full hand: keeping it ends the turns.
inline void LastTurn(internal::StateProto& s, int last) {
  s.set_phase(PHASE_DRAW);
  s.set_turn_index(static_cast<uint32_t>(last));
  s.set_drew(true);
  FillHand(s, last, 4);
}

// The same, civil society then resolving `card`, face down in its area.
inline void LastTurnWithCivil(internal::StateProto& s, int last, const std::string& card) {
  Give(s, last, card);
  s.mutable_seats(last)->mutable_hand()->RemoveLast();
  s.add_civil(static_cast<uint32_t>(Game().CardIndex(card)));
  LastTurn(s, last);
}

inline void SetCubes(internal::StateProto& s, int region, int seat, Category c, uint32_t n) {
  s.mutable_regions(region)->set_cubes(seat * kCategories + Cat(c), n);
}

// The cubes `seat` has of category index `cat` in `region` of a position.
inline uint32_t CubesOf(const internal::StateProto& s, int region, int seat, int cat) {
  return s.regions(region).cubes(seat * kCategories + cat);
}

inline void SetResources(internal::StateProto& s, int seat, uint32_t raw, uint32_t energy, uint32_t food) {
  s.mutable_seats(seat)->set_resources(0, raw);
  s.mutable_seats(seat)->set_resources(1, energy);
  s.mutable_seats(seat)->set_resources(2, food);
}

// A region with at least `n` neighbours.
inline int RegionWithNeighbours(const internal::StateProto& s, int n) {
  for (int r = 0; r < s.regions_size(); ++r) {
    if (s.regions(r).neighbours_size() >= n) return r;
  }
  return -1;
}

// The open question of `seat`, its option ids.
inline std::vector<std::string> Asked(const engine::State& state, int seat) {
  std::vector<std::string> out;
  auto prompts = state.Prompts(seat);
  if (prompts.empty()) return out;
  for (const auto& o : prompts[0].options()) out.push_back(o.id());
  return out;
}

inline std::string RegionOpt(int r) { return "g" + std::to_string(r); }
inline std::string CatOpt(Category c) { return "c" + std::to_string(Cat(c)); }

inline Action Invest(InvestKind kind, int region, Category c, int target, uint32_t raw,
                     uint32_t energy = 0, uint32_t food = 0) {
  Action a;
  auto* i = a.mutable_invest();
  i->set_kind(kind);
  i->set_region(static_cast<uint32_t>(region));
  i->set_category(c);
  i->set_target(target);
  i->mutable_pay()->set_raw_materials(raw);
  i->mutable_pay()->set_energy(energy);
  i->mutable_pay()->set_food(food);
  return a;
}

inline Action Keep() {
  Action a;
  a.mutable_keep();
  return a;
}

// ----- The rule book's examples (rules_test.cc, console_positions_test.cc) -----

// Yellow (seat 0) 4 Commerce, Green (seat 1) 3, Violet (seat 2) 1, the order in that order.
inline internal::StateProto CommerceExample() {
  auto s = Blank(3);
  SetCubes(s, 0, 0, CATEGORY_COMMERCE, 4);
  SetCubes(s, 0, 1, CATEGORY_COMMERCE, 3);
  SetCubes(s, 1, 2, CATEGORY_COMMERCE, 1);
  return s;
}

// The same, Violet first in turn order and investing, with 8 raw materials to add Commerce cubes.
inline internal::StateProto VioletInvests() {
  auto s = CommerceExample();
  s.set_turn_order(0, 2);
  s.set_turn_order(2, 0);
  s.set_phase(PHASE_INVEST);
  SetResources(s, 2, 8, 0, 0);
  return s;
}

// Violet (seat 0), present only in R (one Military cube) and with Military II noted, holds
// Altercations à la frontière and one energy; V, a neighbour of R, has development 2.
inline internal::StateProto PillagesPosition(int* r, int* v) {
  auto s = Blank(3);
  *r = RegionWithNeighbours(s, 2);
  if (*r < 0) return s;
  *v = static_cast<int>(s.regions(*r).neighbours(1));
  SetCubes(s, *r, 0, CATEGORY_MILITARY, 1);
  s.mutable_regions(*v)->set_development(2);
  s.mutable_seats(0)->set_noted(Cat(CATEGORY_MILITARY), 2);
  SetResources(s, 0, 0, 1, 0);
  Give(s, 0, "border_clashes");
  return s;
}

// The last player keeps their hand: civil society resolves the Enquête d'opinion card whose
// Media rise put it there, with Media at `reached` this round. Seat 1 leads Media (cubes in two
// regions, so it picks where it loses); seat 2 has the most Politics in the struck region.
inline internal::StateProto InstitutPosition(uint32_t reached, int* struck, int* other) {
  auto s = Blank(3);
  const int a = 0, b = 1;
  SetCubes(s, a, 2, CATEGORY_POLITICS, 3);
  SetCubes(s, a, 1, CATEGORY_MEDIA, 1);
  SetCubes(s, b, 1, CATEGORY_MEDIA, 1);
  s.mutable_orders(Cat(CATEGORY_MEDIA))->set_seats(0, 1);
  s.mutable_orders(Cat(CATEGORY_MEDIA))->set_seats(1, 0);
  s.set_highest(Cat(CATEGORY_MEDIA), reached);
  // Seat 2's hand is full: it keeps it, and the round's turns are over.
  LastTurnWithCivil(s, 2, "opinion_survey");
  *struck = a;
  *other = b;
  return s;
}

// Every globalisation order sorted by world totals (equal totals keep the earlier order) and every
// category's highest level this round at its world level, as play leaves them after cubes are set.
inline void Settle(internal::StateProto& s) {
  const int seats = static_cast<int>(s.num_seats());
  for (int cat = 0; cat < kCategories; ++cat) {
    std::vector<uint32_t> total(seats, 0);
    for (const auto& r : s.regions()) {
      for (int seat = 0; seat < seats; ++seat) total[seat] += r.cubes(seat * kCategories + cat);
    }
    auto* order = s.mutable_orders(cat)->mutable_seats();
    std::stable_sort(order->begin(), order->end(),
                     [&](uint32_t a, uint32_t b) { return total[a] > total[b]; });
    uint32_t world = 0;
    for (uint32_t t : total) world += t;
    s.set_highest(cat, Game().LevelOf(static_cast<uint32_t>(seats), world));
  }
}

// Cubes some seat holds in the scored region, of one category.
struct Holding {
  int seat;
  Category category;
  uint32_t cubes;
};

// The last turn of a late round. Region 0, at `development`, holds `holdings` and nothing else;
// the seats holding there hold no cube elsewhere, so their region VP at the end is its share.
// The last seat (Green) pushed Military to VI this round with 25 cubes in regions 1 to 4 (enough
// to stay at VI after civil society strikes, so the game ends); the rise drew Casques bleus, face
// down in civil society, which takes two of Green's Military cubes in region 1 and develops it
// twice: no question is asked and region 0 is left alone. Green has drawn a full hand: keeping it
// ends the turns, then the game.
inline internal::StateProto RegionScoredAtTheEnd(int seats, uint32_t development,
                                                 const std::vector<Holding>& holdings) {
  auto s = Blank(seats);
  s.mutable_regions(0)->set_development(development);
  for (const Holding& h : holdings) SetCubes(s, 0, h.seat, h.category, h.cubes);
  const int green = seats - 1;
  const uint32_t military[] = {9, 6, 5, 5};
  for (int r = 0; r < 4; ++r) SetCubes(s, r + 1, green, CATEGORY_MILITARY, military[r]);
  Settle(s);
  s.set_red(Cat(CATEGORY_MILITARY), true);
  s.set_round(9);
  LastTurnWithCivil(s, green, "warlords");
  return s;
}

// The rule book's first region: development 8, Yellow (seat 0) 3 cubes, Blue (seat 1) 4.
inline internal::StateProto RegionAt8() {
  return RegionScoredAtTheEnd(
      3, 8, {{0, CATEGORY_COMMERCE, 2}, {0, CATEGORY_POLITICS, 1}, {1, CATEGORY_MEDIA, 4}});
}

// The rule book's second region: development 6, Yellow (seat 0) 4 cubes, Violet (seat 1) 3,
// Grey (seat 2) 1; Green is the fourth seat.
inline internal::StateProto RegionAt6() {
  return RegionScoredAtTheEnd(4, 6,
                              {{0, CATEGORY_COMMERCE, 3},
                               {0, CATEGORY_POLITICS, 1},
                               {1, CATEGORY_RELIGIONS, 3},
                               {2, CATEGORY_BIOLOGY, 1}});
}

}  // namespace plateau::games::controle_global::rule_test
