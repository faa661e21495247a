#pragma once
// Seeded random playouts over the engine contract, shared by the conformance suite and the tools
// that produce fixtures from real games.
#include <functional>
#include <memory>

#include "engine/core/game.h"
#include "engine/core/rng.h"

namespace plateau::testing {

struct PlayoutLimits {
  int max_steps = 20000;  // a game that has not ended by then is reported as non-terminating
};

// Called before each action with the state, the acting seat chosen and the action chosen.
using StepHook = std::function<void(const engine::State&, int seat, const engine::Message&)>;

// Plays `state` to the end choosing uniformly among acting seats and their legal actions with
// `rng` (answers drawn from a question's description when it lists none). Returns the number of actions applied, or -1 when a chosen legal action was refused
// (with `error` set) or the step limit was reached.
int RandomPlayout(engine::State& state, engine::Rng& rng, const StepHook& before_step,
                  std::string* error, PlayoutLimits limits = {});

// Every recipient of a game: seats 0..n-1 then the spectator.
std::vector<int> Recipients(const engine::State& state);

}  // namespace plateau::testing
