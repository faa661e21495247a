// Contrôle Global rule tests: the loaded game, positions built from a dealt game and changed to the
// situation of a rule (ControleGlobalGame::FromProto), and the moves and answers the tests play.
#pragma once

#include <gtest/gtest.h>

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
