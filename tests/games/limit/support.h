#pragma once
// LIMIT's rule tests: positions set up by hand (a nation's political turn with chosen cards).
#include <string>
#include <vector>

#include "engine/core/registry.h"
#include "engine/games/limit/limit.h"

namespace plateau::games::limit::support {

inline const LimitGame& Game() {
  EXPECT_TRUE(engine::Registry::LoadAll().ok());
  return static_cast<const LimitGame&>(*engine::Registry::Find("limit"));
}

inline uint32_t CardId(const std::string& key) {
  return static_cast<uint32_t>(Game().CardByKey(key));
}

// Clears the questions asked of `seat` (every nation's when -1): each a decision of the core's
// queue, so a test's situation starts with nothing asked.
inline void ClearQuestions(internal::StateProto& p, int seat = -1) {
  auto* queue = p.mutable_table()->mutable_decisions();
  for (int i = queue->size() - 1; i >= 0; --i)
    if (seat < 0 || queue->Get(i).prompts(0).seat() == seat) queue->DeleteSubrange(i, 1);
  for (int j = 0; j < p.nations_size(); ++j)
    if (seat < 0 || j == seat) p.mutable_nations(j)->clear_choices();
}

// The choices asked of nation `seat`, first first, as the decisions' resumes describe them.
inline std::vector<internal::Choice> ChoicesOf(const internal::StateProto& p, int seat) {
  std::vector<internal::Choice> out;
  for (const auto& d : p.table().decisions()) {
    if (d.prompts(0).seat() != seat) continue;
    out.emplace_back().ParseFromString(d.resume());
  }
  return out;
}
inline int ChoiceCount(const internal::StateProto& p, int seat) {
  return static_cast<int>(ChoicesOf(p, seat).size());
}

// Puts nation `seat` on its political turn with `cards` in hand, nothing else pending.
inline void PoliticalTurn(LimitState& s, int seat, const std::vector<std::string>& cards) {
  auto& p = s.mutable_proto();
  ClearQuestions(p);
  p.mutable_pending()->Clear();
  p.set_phase(PHASE_POLITICAL_DECISIONS);
  p.set_turn(seat);
  auto* n = p.mutable_nations(seat);
  n->clear_hand();
  for (const auto& k : cards) n->add_hand(CardId(k));
}

}  // namespace plateau::games::limit::support
