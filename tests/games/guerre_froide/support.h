// Guerre Froide rule tests: positions set up from a dealt game with the cards of the situation
// moved into place (GuerreFroideGame::FromProto), and the actions the tests play.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "engine/core/registry.h"
#include "engine/games/guerre_froide/guerre_froide.h"

namespace plateau::games::guerre_froide::rule_test {

inline const GuerreFroideGame& Game() {
  EXPECT_TRUE(engine::Registry::LoadAll().ok());
  return *dynamic_cast<const GuerreFroideGame*>(engine::Registry::Find("guerre_froide"));
}

inline uint32_t G(const std::string& id) {
  const int i = Game().GroupIndex(id);
  EXPECT_GE(i, 0) << id;
  return static_cast<uint32_t>(i);
}

inline uint32_t O(const std::string& id) {
  const int i = Game().ObjectiveIndex(id);
  EXPECT_GE(i, 0) << id;
  return static_cast<uint32_t>(i);
}

template <class R>
void Remove(R* list, uint32_t x) {
  auto it = std::find(list->begin(), list->end(), x);
  ASSERT_NE(it, list->end()) << x;
  list->erase(it);
}

template <class R>
bool Has(const R& list, uint32_t x) {
  return std::find(list.begin(), list.end(), x) != list.end();
}

// Turn 1's influence struggle on `objective`, no group in play, no Agent X chosen yet (give each
// seat one with Agent), the balance token at seat 0 and `to_act` to move.
inline internal::StateProto Struggle(int seats, const std::string& objective, int to_act,
                                     CryptographerOption crypto = CRYPTOGRAPHER_NONE,
                                     uint64_t seed = 7) {
  Options options;
  options.set_cryptographer(crypto);
  auto state = Game().NewInitialState(seats, options, seed);
  internal::StateProto s;
  s.ParseFromString(state->Serialize());
  s.mutable_objective_deck()->Add(static_cast<uint32_t>(s.objective()));
  Remove(s.mutable_objective_deck(), O(objective));
  s.set_objective(static_cast<int32_t>(O(objective)));
  s.set_phase(PHASE_STRUGGLE);
  s.set_to_act(to_act);
  s.set_balance(0);
  return s;
}

// The position reached when every seat has passed but `last`: its pass starts the Cease-fire.
inline void AllPassedBut(internal::StateProto& s, int last) {
  s.set_to_act(last);
  s.set_passes(s.num_seats() - 1);
  for (int seat = 0; seat < s.num_seats(); ++seat) s.mutable_seats(seat)->set_passed(seat != last);
}

// Moves group `id` from the deck to `seat`'s side of the table.
inline void Give(internal::StateProto& s, int seat, const std::string& id, bool mobilized = false) {
  Remove(s.mutable_group_deck(), G(id));
  auto* g = s.mutable_seats(seat)->add_groups();
  g->set_card(G(id));
  g->set_mobilized(mobilized);
}

// Puts group `id` on top of the group deck.
inline void ToTop(internal::StateProto& s, const std::string& id) {
  Remove(s.mutable_group_deck(), G(id));
  std::vector<uint32_t> deck = {G(id)};
  deck.insert(deck.end(), s.group_deck().begin(), s.group_deck().end());
  s.clear_group_deck();
  for (uint32_t c : deck) s.add_group_deck(c);
}

// `seat` picked `agent` as its Agent X.
inline void Agent(internal::StateProto& s, int seat, AgentKind agent) {
  Remove(s.mutable_seats(seat)->mutable_hq(), agent);
  s.mutable_seats(seat)->add_agent_x(agent);
}

// Two players on Cuba, the KGB (Industry, 4) ahead of the CIA (Students, 1) with these Agents X
// and the CIA having passed: the KGB's Pass() starts the Cease-fire, which the KGB wins.
inline internal::StateProto KgbAheadOnCuba(AgentKind kgb, AgentKind cia,
                                           CryptographerOption crypto = CRYPTOGRAPHER_NONE) {
  internal::StateProto s = Struggle(2, "cuba", 0, crypto);
  Give(s, 0, "industry");
  Give(s, 1, "students");
  Agent(s, 0, kgb);
  Agent(s, 1, cia);
  AllPassedBut(s, 0);
  return s;
}

// `seat` holds the event `id` (claimed earlier, its VP in its score).
inline void Hold(internal::StateProto& s, int seat, const std::string& id) {
  Remove(s.mutable_objective_deck(), O(id));
  s.mutable_seats(seat)->add_won(O(id));
  s.mutable_seats(seat)->set_score(s.seats(seat).score() + Game().objective(O(id)).vp());
}

// Three players on Cuba: the KGB (Industry, 4) dominates, then the CIA (Mafia, 2) and MI6
// (Students, 1), with these Agents X; the KGB's Pass() ends the struggle.
inline internal::StateProto KgbAheadOfTwo(AgentKind kgb, AgentKind cia, AgentKind mi6) {
  internal::StateProto s = Struggle(3, "cuba", 0);
  Give(s, 0, "industry");
  Give(s, 1, "mafia");
  Give(s, 2, "students");
  Agent(s, 0, kgb);
  Agent(s, 1, cia);
  Agent(s, 2, mi6);
  AllPassedBut(s, 0);
  return s;
}

// Two players on Cuba, the KGB at 12 (Army and Banks) over the stability, holding the Nobel
// Peace Prize, against the CIA's Students; the KGB's Pass() starts the Cease-fire.
inline internal::StateProto KgbOverCubaWithTheNobel(AgentKind kgb, AgentKind cia) {
  internal::StateProto s = Struggle(2, "cuba", 0);
  Give(s, 0, "army");
  Give(s, 0, "banks");
  Give(s, 1, "students");
  Hold(s, 0, "nobel_peace_prize");
  Agent(s, 0, kgb);
  Agent(s, 1, cia);
  AllPassedBut(s, 0);
  return s;
}

inline std::unique_ptr<engine::State> Load(const internal::StateProto& s) {
  auto state = Game().FromProto(s);
  EXPECT_TRUE(state.ok()) << state.status().reason();
  return std::move(state).value();
}

inline const internal::StateProto& P(const engine::State& state) {
  return static_cast<const GuerreFroideState&>(state).proto();
}

// The kind of the question open in the core's queue (ASK_NONE without one), and whom it asks.
inline internal::Ask Asked(const internal::StateProto& s) {
  const auto& open = s.table().decisions();
  return open.empty() ? internal::ASK_NONE : static_cast<internal::Ask>(open[0].kind());
}
inline uint32_t AskedSeat(const internal::StateProto& s) {
  const auto& open = s.table().decisions();
  return open.empty() ? UINT32_MAX : static_cast<uint32_t>(open[0].prompts(0).seat());
}

inline uint32_t Influence(const engine::State& state, int seat) {
  return static_cast<const GuerreFroideState&>(state).Influence(seat);
}

// Nobody claimed `objective`: no score moved and it lies at the bottom of the objective deck.
inline void ExpectUnclaimedAtTheBottom(const internal::StateProto& after,
                                       const std::string& objective) {
  for (int seat = 0; seat < after.num_seats(); ++seat) {
    EXPECT_EQ(after.seats(seat).score(), 0u) << seat;
  }
  ASSERT_GT(after.objective_deck_size(), 0);
  EXPECT_EQ(after.objective_deck(after.objective_deck_size() - 1), O(objective));
}

inline void Play(engine::State& state, int seat, const Action& a) {
  engine::Status st = state.Apply(seat, a);
  ASSERT_TRUE(st.ok()) << st.code() << ": " << st.reason();
}

inline Action Pass() {
  Action a;
  a.mutable_pass();
  return a;
}

inline Action Recruit() {
  Action a;
  a.mutable_recruit();
  return a;
}

inline Action Choose(AgentKind agent) {
  Action a;
  a.mutable_choose_agent()->set_agent(agent);
  return a;
}

inline Action First(int seat) {
  Action a;
  a.mutable_choose_first()->set_seat(static_cast<uint32_t>(seat));
  return a;
}

inline Action Activate(const std::string& group, const std::string& target = "", uint32_t to = 0) {
  Action a;
  a.mutable_activate()->set_group(group);
  if (!target.empty()) a.mutable_activate()->set_target(target);
  a.mutable_activate()->set_to_seat(to);
  return a;
}

inline Action Use(const std::string& event, const std::vector<std::string>& groups = {}) {
  Action a;
  a.mutable_use_event()->set_objective(event);
  for (const auto& g : groups) a.mutable_use_event()->add_groups(g);
  return a;
}

// Answers `seat`'s open question with one option.
inline Action Answer(const engine::State& state, int seat, const std::string& option) {
  Action a;
  a.mutable_core()->mutable_answer()->set_prompt_id(state.Prompts(seat).at(0).id());
  a.mutable_core()->mutable_answer()->add_options(option);
  return a;
}

inline Action AnswerYes(const engine::State& state, int seat, bool yes) {
  Action a;
  a.mutable_core()->mutable_answer()->set_prompt_id(state.Prompts(seat).at(0).id());
  a.mutable_core()->mutable_answer()->set_yes(yes);
  return a;
}

// The option ids of `seat`'s open question.
inline std::vector<std::string> OptionIds(const engine::State& state, int seat) {
  const auto prompts = state.Prompts(seat);  // kept: the loop reads into it
  std::vector<std::string> out;
  for (const auto& o : prompts.at(0).options()) out.push_back(o.id());
  return out;
}

}  // namespace plateau::games::guerre_froide::rule_test
