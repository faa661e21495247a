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

// Puts nation `seat` on its political turn with `cards` in hand, nothing else pending.
inline void PoliticalTurn(LimitState& s, int seat, const std::vector<std::string>& cards) {
  auto& p = s.mutable_proto();
  for (auto& n : *p.mutable_nations()) n.clear_choices();
  p.mutable_pending()->Clear();
  p.set_phase(PHASE_POLITICAL_DECISIONS);
  p.set_turn(seat);
  auto* n = p.mutable_nations(seat);
  n->clear_hand();
  for (const auto& k : cards) n->add_hand(CardId(k));
}

}  // namespace plateau::games::limit::support
