// Contrôle Global: every effect of every card, and every civil-society effect, runs through the
// interpreter to its end in a crowded world (every seat holding cubes of every category in every
// region, resources and cards in hand), answering each question with its last option.
#include "tests/games/controle_global/support.h"

namespace plateau::games::controle_global::rule_test {
namespace {

internal::StateProto Crowded() {
  auto s = Blank(4);
  for (int r = 0; r < s.regions_size(); ++r) {
    for (int seat = 0; seat < 4; ++seat) {
      for (int cat = 0; cat < kCategories; ++cat) SetCubes(s, r, seat, CatOf(cat), 1);
    }
  }
  for (int seat = 0; seat < 4; ++seat) {
    SetResources(s, seat, 3, 3, 3);
    for (int cat = 0; cat < kCategories; ++cat) s.mutable_seats(seat)->set_noted(cat, 6);
  }
  for (int cat = 0; cat < kCategories; ++cat) s.set_highest(cat, 6);
  return s;
}

// Answers every open question with its last option until none is open.
void AnswerAll(engine::State& state) {
  for (int guard = 0; guard < 200; ++guard) {
    const auto* open = state.OpenDecision();
    if (open == nullptr) return;
    const auto& p = open->prompts(0);
    ASSERT_TRUE(Answer(state, p.seat(), p.options(p.options_size() - 1).id()).ok());
  }
  FAIL() << "the effect keeps asking";
}

TEST(ControleGlobalEveryCard, EveryEffectRunsToItsEnd) {
  for (int c = 0; c < Game().data().cards_size(); ++c) {
    const Card& card = Game().card(static_cast<uint32_t>(c));
    for (int e = 0; e < card.effects_size(); ++e) {
      auto s = Crowded();
      s.set_phase(PHASE_PLAY);
      Give(s, 0, card.id());
      auto state = Load(s);
      const std::string before = state->Serialize();
      ASSERT_TRUE(state->Apply(0, Play(card.id(), static_cast<uint32_t>(e + 1))).ok()) << card.id();
      AnswerAll(*state);
      EXPECT_EQ(PositionOf(*state).phase(), PHASE_INVEST) << card.id() << " " << e;
      EXPECT_NE(state->Serialize(), before) << card.id() << " " << e;
    }
  }
}

TEST(ControleGlobalEveryCard, EveryCivilEffectRunsToItsEnd) {
  for (int c = 0; c < Game().data().cards_size(); ++c) {
    const Card& card = Game().card(static_cast<uint32_t>(c));
    if (!card.has_civil()) continue;
    auto s = Crowded();
    LastTurnWithCivil(s, 3, card.id());
    auto state = Load(s);
    const auto regions_before = PositionOf(*state).regions();
    ASSERT_TRUE(state->Apply(3, Keep()).ok()) << card.id();
    AnswerAll(*state);
    auto p = PositionOf(*state);
    // The round ended (the crowded world is at VI everywhere: so did the game).
    EXPECT_EQ(p.phase(), PHASE_GAME_OVER) << card.id();
    EXPECT_EQ(p.piles(Game().PileOf(c)).discard(p.piles(Game().PileOf(c)).discard_size() - 1),
              static_cast<uint32_t>(c));
    // Civil society struck somewhere: the world changed.
    bool changed = false;
    for (int r = 0; r < p.regions_size(); ++r) {
      changed |= p.regions(r).SerializeAsString() != regions_before[r].SerializeAsString();
    }
    EXPECT_TRUE(changed) << card.id();
  }
}

}  // namespace
}  // namespace plateau::games::controle_global::rule_test
