// MovesFromView: what a player seeing only its own view may try (plateau-load's bots play with
// it). On a placement turn the moves from the view are exactly the listed placements; a question
// is answered through its prompt only; and games played from views alone reach their end.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "engine/core/registry.h"
#include "engine/core/rng.h"
#include "engine/core/table.h"
#include "engine/games/globalissimo/globalissimo.h"

namespace plateau::games::globalissimo {
namespace {

const engine::Game& Registered() {
  EXPECT_TRUE(engine::Registry::LoadAll().ok());
  const engine::Game* game = engine::Registry::Find("globalissimo");
  EXPECT_NE(game, nullptr);
  return *game;
}

std::set<std::string> AsBytes(const std::vector<std::unique_ptr<engine::Message>>& actions) {
  std::set<std::string> out;
  for (const auto& a : actions) out.insert(engine::DeterministicBytes(*a));
  return out;
}

TEST(GlobalissimoMovesFromView, GamesPlayedFromViewsAloneEnd) {
  const engine::Game& game = Registered();
  for (int seats : {2, 5}) {
    Options options;
    options.set_rounds(2);
    std::unique_ptr<engine::State> state =
        game.NewInitialState(seats, options, 100 + static_cast<uint64_t>(seats));
    engine::Rng rng(static_cast<uint64_t>(seats));
    int steps = 0;
    while (!state->IsTerminal()) {
      ASSERT_LT(++steps, 1000) << seats << " seats: the game does not end";
      const int seat = state->ActingSeats().front();
      const std::unique_ptr<engine::Message> message = state->View(seat);
      const auto& view = static_cast<const View&>(*message);
      const auto moves = game.MovesFromView(view, seat);
      if (view.table().prompts_size() > 0) {
        EXPECT_TRUE(moves.empty()) << "a question is answered through its prompt";
        const auto answer = game.WrapAnswer(engine::DrawAnswer(
            view.table().prompts(0), game.OptionsOf(view.table().prompts(0)), rng));
        ASSERT_TRUE(state->Apply(seat, *answer).ok());
        continue;
      }
      EXPECT_EQ(AsBytes(moves), AsBytes(state->LegalActions(seat))) << "step " << steps;
      ASSERT_FALSE(moves.empty());
      ASSERT_TRUE(state->Apply(seat, *moves[rng.Below(moves.size())]).ok());
      const std::vector<int> acting = state->ActingSeats();
      for (int other = 0; other < seats; ++other) {
        if (std::find(acting.begin(), acting.end(), other) != acting.end()) continue;
        EXPECT_TRUE(game.MovesFromView(*state->View(other), other).empty())
            << "seat " << other << " is not placing";
      }
    }
  }
}

TEST(GlobalissimoMovesFromView, SpectatorsAndOtherViewTypesGetNothing) {
  const engine::Game& game = Registered();
  Options options;
  auto state = game.NewInitialState(2, options, 5);
  EXPECT_TRUE(game.MovesFromView(*state->View(engine::kSpectator), engine::kSpectator).empty());
  EXPECT_TRUE(game.MovesFromView(options, 0).empty());
}

}  // namespace
}  // namespace plateau::games::globalissimo
