// MovesFromView: what a player seeing only its own view may try (plateau-load's bots play with it).
// Whenever a player acts, its view offers something (a question in its table, or moves), games
// played from views alone reach their end, and every move offered that the rules accept is one
// the position lists: a view never offers what the player could not see.
#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>

#include "engine/core/registry.h"
#include "engine/core/rng.h"
#include "engine/core/table.h"
#include "engine/games/guerre_froide/guerre_froide.h"

namespace plateau::games::guerre_froide {
namespace {

void PlayFromViews(int seats, uint64_t seed) {
  ASSERT_TRUE(engine::Registry::LoadAll().ok());
  const engine::Game& game = *engine::Registry::Find("guerre_froide");
  std::unique_ptr<engine::State> state = game.NewGame(seats, "", seed).value();
  engine::Rng rng(seed);
  int steps = 0;
  while (!state->IsTerminal()) {
    ASSERT_LT(++steps, 20000) << "the game does not end";
    const int seat = state->ActingSeats().front();
    const std::unique_ptr<engine::Message> message = state->View(seat);
    const auto& view = static_cast<const View&>(*message);
    bool applied = false;
    for (int attempt = 0; attempt < 100 && !applied; ++attempt) {
      std::unique_ptr<engine::Message> action;
      if (view.table().prompts_size() > 0) {
        action = game.WrapAnswer(engine::DrawAnswer(view.table().prompts(0), rng));
      } else {
        auto moves = game.MovesFromView(view, seat);
        ASSERT_FALSE(moves.empty()) << "seat " << seat << " acts but its view offers nothing:\n"
                                    << view.DebugString();
        std::set<std::string> listed;
        for (const auto& a : state->LegalActions(seat))
          listed.insert(engine::DeterministicBytes(*a));
        for (const auto& m : moves) {
          if (state->Validate(seat, *m).ok()) {
            EXPECT_TRUE(listed.count(engine::DeterministicBytes(*state->Canonical(seat, *m))))
                << game.ActionToText(*m);
          }
        }
        action = std::move(moves[rng.Below(moves.size())]);
      }
      applied = state->Apply(seat, *action).ok();
    }
    ASSERT_TRUE(applied) << "seat " << seat << ": nothing its view offers was accepted";
  }
}

TEST(GuerreFroideMovesFromView, TwoPlayersPlayToTheEndFromTheirViews) {
  for (uint64_t seed = 1; seed <= 5; ++seed) PlayFromViews(2, seed);
}

TEST(GuerreFroideMovesFromView, ThreePlayersPlayToTheEndFromTheirViews) {
  for (uint64_t seed = 1; seed <= 5; ++seed) PlayFromViews(3, seed);
}

}  // namespace
}  // namespace plateau::games::guerre_froide
