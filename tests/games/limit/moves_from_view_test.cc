// MovesFromView: what a nation seeing only its own view may try (plateau-load's bots play with
// it). Whenever a nation acts its view offers something — a question in its table, or its turn's
// moves, passing first — and games played from views alone (random answers, random moves, some
// refused) reach their end.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/core/registry.h"
#include "engine/core/rng.h"
#include "engine/core/table.h"
#include "engine/games/limit/limit.h"

namespace plateau::games::limit {
namespace {

const engine::Game& Registered() {
  EXPECT_TRUE(engine::Registry::LoadAll().ok());
  const engine::Game* game = engine::Registry::Find("limit");
  EXPECT_NE(game, nullptr);
  return *game;
}

// Plays a game to its end from views alone; fails if an acting nation's view offers nothing, or
// nothing it offers is accepted within a few tries.
void PlayFromViews(int seats, bool alliances, uint64_t seed) {
  const engine::Game& game = Registered();
  Options options;
  options.set_alliances(alliances);
  std::unique_ptr<engine::State> state = game.NewInitialState(seats, options, seed);
  engine::Rng rng(seed);
  int steps = 0;
  while (!state->IsTerminal()) {
    ASSERT_LT(++steps, 20000) << "the game does not end";
    const int seat = state->ActingSeats().front();
    const std::unique_ptr<engine::Message> message = state->View(seat);
    const auto& view = static_cast<const View&>(*message);
    bool applied = false;
    for (int attempt = 0; attempt < 50 && !applied; ++attempt) {
      std::unique_ptr<engine::Message> action;
      if (view.table().prompts_size() > 0) {
        action = game.WrapAnswer(engine::DrawAnswer(view.table().prompts(0), rng));
      } else {
        auto moves = game.MovesFromView(view, seat);
        ASSERT_FALSE(moves.empty()) << "seat " << seat << " acts but its view offers nothing:\n"
                                    << view.DebugString();
        if (attempt == 0 && view.phase() == PHASE_POLITICAL_DECISIONS) {
          Action pass;
          pass.mutable_pass();
          EXPECT_EQ(engine::DeterministicBytes(*moves[0]), engine::DeterministicBytes(pass));
        }
        action = std::move(moves[rng.Below(moves.size())]);
      }
      // A refusal is possible (the view does not show everything a price depends on): the bot
      // picks again, as plateau-load's do.
      applied = state->Apply(seat, *action).ok();
    }
    ASSERT_TRUE(applied) << "seat " << seat << ": nothing its view offers was accepted";
  }
}

TEST(LimitMovesFromView, GamesPlayedFromViewsAloneEnd) {
  PlayFromViews(3, false, 1);
  PlayFromViews(4, true, 2);
}

TEST(LimitMovesFromView, SoloGamePlayedFromViewsAloneEnds) { PlayFromViews(1, false, 3); }

TEST(LimitMovesFromView, OnlyTheNationWhoseTurnItIsGetsMoves) {
  const engine::Game& game = Registered();
  Options options;
  std::unique_ptr<engine::State> state = game.NewInitialState(3, options, 9);
  engine::Rng rng(9);
  // Answer the opening questions until the political decisions begin.
  for (int steps = 0; steps < 500 && !state->IsTerminal(); ++steps) {
    const int seat = state->ActingSeats().front();
    const auto message = state->View(seat);
    const auto& view = static_cast<const View&>(*message);
    if (view.phase() == PHASE_POLITICAL_DECISIONS && view.table().prompts_size() == 0) {
      for (int other = 0; other < 3; ++other) {
        const auto moves = game.MovesFromView(*state->View(other), other);
        EXPECT_EQ(moves.empty(), other != seat) << "seat " << other;
      }
      EXPECT_TRUE(game.MovesFromView(*state->View(engine::kSpectator), engine::kSpectator).empty());
      return;
    }
    ASSERT_GT(view.table().prompts_size(), 0);
    ASSERT_TRUE(
        state->Apply(seat, *game.WrapAnswer(engine::DrawAnswer(view.table().prompts(0), rng)))
            .ok());
  }
  FAIL() << "no political turn reached";
}

}  // namespace
}  // namespace plateau::games::limit
