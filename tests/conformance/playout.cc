#include "tests/conformance/playout.h"

#include "engine/core/bot.h"

namespace plateau::testing {

std::vector<int> Recipients(const engine::State& state) {
  std::vector<int> out;
  for (int s = 0; s < state.num_seats(); ++s) out.push_back(s);
  out.push_back(engine::kSpectator);
  return out;
}

int RandomPlayout(engine::State& state, engine::Rng& rng, const StepHook& before_step,
                  std::string* error, PlayoutLimits limits) {
  int steps = 0;
  while (!state.IsTerminal()) {
    if (steps >= limits.max_steps) {
      *error = "no end after " + std::to_string(steps) + " actions";
      return -1;
    }
    auto acting = state.ActingSeats();
    if (acting.empty()) {
      *error = "not terminal but nobody may act";
      return -1;
    }
    int seat = acting[rng.Below(acting.size())];
    auto legal = state.LegalActions(seat);
    if (legal.empty()) {
      // A question whose answers are described, not listed (free text, too many to list): draw
      // well-shaped answers until one is accepted.
      auto prompts = state.Prompts(seat);
      if (!prompts.empty()) {
        if (auto answer = engine::DrawAcceptedAnswer(state, seat, prompts[0], 100, rng))
          legal.push_back(std::move(answer));
      }
    }
    if (legal.empty()) {
      *error = "seat " + std::to_string(seat) + " may act but has no legal action";
      return -1;
    }
    const auto& action = *legal[rng.Below(legal.size())];
    if (before_step) before_step(state, seat, action);
    engine::Status st = state.Apply(seat, action);
    if (!st.ok()) {
      *error = "legal action refused: " + state.game().ActionToText(action) + " -> " +
               st.ToString();
      return -1;
    }
    ++steps;
  }
  return steps;
}

}  // namespace plateau::testing
