// Globalissimo's published moves (Table.moves): on a placement turn the acting seat's view offers
// one family, any free card at any rank, whose members are exactly the legal placements; a
// question is answered through its prompt only; and games played from views alone reach their
// end (plateau-load's bots and the easy bot play this way).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "engine/core/bot.h"
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

// The first placement of a game for three, and the acting seat's view of it.
struct FirstTurn {
  explicit FirstTurn(const engine::Game& game)
      : state(game.NewInitialState(3, Options(), 11)),
        seat(state->ActingSeats().front()),
        view(state->View(seat)) {}
  std::unique_ptr<engine::State> state;
  int seat;
  std::unique_ptr<engine::Message> view;
};

TEST(GlobalissimoPublishedMoves, OneFamilyOfFreeCardsAndRanks) {
  const engine::Game& game = Registered();
  FirstTurn first(game);
  auto& state = first.state;
  const int seat = first.seat;
  const auto& view = static_cast<const View&>(*first.view);
  ASSERT_EQ(view.table().moves_size(), 1);
  const auto& place = view.table().moves(0);
  EXPECT_EQ(place.key(), "place");
  EXPECT_EQ(place.label().key(), "globalissimo.move.place");
  ASSERT_EQ(place.params_size(), 2);
  EXPECT_EQ(place.params(0).path(), "place.slot");
  EXPECT_EQ(place.params(0).values_size(), view.display_size());
  EXPECT_EQ(place.params(1).path(), "place.position");
  EXPECT_EQ(place.params(1).min(), 1);
  EXPECT_EQ(place.params(1).max(), static_cast<int64_t>(view.max_position()));
  const auto moves = engine::PublishedMoves(game, view);
  ASSERT_EQ(moves.size(), static_cast<size_t>(view.display_size()) * view.max_position());
  EXPECT_TRUE(moves[0].in_family);
  // Once a tile lies on a card, that card is no longer offered to the next seat.
  ASSERT_TRUE(state->Apply(seat, *moves[0].action).ok());
  const int next = state->ActingSeats().front();
  const auto after = state->View(next);
  const auto& left = static_cast<const View&>(*after).table().moves(0).params(0).values();
  EXPECT_EQ(std::vector<int64_t>(left.begin(), left.end()), (std::vector<int64_t>{1, 2, 3, 4}));
  EXPECT_TRUE(static_cast<const View&>(*state->View(seat)).table().moves().empty());
}

// A bot lists the family once and draws one of its members when it picks it: every placement
// is still drawn, and only placements are.
TEST(GlobalissimoPublishedMoves, ABotDrawsAMemberOfAFamilyListedWhole) {
  const engine::Game& game = Registered();
  FirstTurn first(game);
  const int seat = first.seat;
  const auto& view = static_cast<const View&>(*first.view);
  const auto whole =
      engine::PublishedMoves(game, view, {.words = false, .families_whole = true});
  ASSERT_EQ(whole.size(), 1u);
  EXPECT_EQ(whole[0].members, static_cast<uint64_t>(view.display_size()) * view.max_position());
  ASSERT_NE(whole[0].family, nullptr);
  EXPECT_TRUE(whole[0].steps.empty());
  const std::set<std::string> members = AsBytes(engine::PublishedActions(game, view));
  ASSERT_EQ(members.size(), whole[0].members);
  std::set<std::string> drawn;
  engine::Rng rng(4);
  for (int k = 0; k < 40 * static_cast<int>(members.size()); ++k) {
    auto moves = engine::BotMoves(game, view, seat, engine::BotLevel::kEasy, rng);
    ASSERT_EQ(moves.size(), 1u);
    const std::string bytes = engine::DeterministicBytes(*moves[0]);
    EXPECT_TRUE(members.contains(bytes)) << "not a published placement";
    drawn.insert(bytes);
  }
  EXPECT_EQ(drawn, members);
}

TEST(GlobalissimoPublishedMoves, GamesPlayedFromViewsAloneEnd) {
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
      const auto moves = engine::PublishedActions(game, view);
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
        EXPECT_TRUE(engine::PublishedActions(game, *state->View(other)).empty())
            << "seat " << other << " is not placing";
      }
    }
  }
}

TEST(GlobalissimoPublishedMoves, SpectatorsAndOtherMessagesGetNothing) {
  const engine::Game& game = Registered();
  Options options;
  auto state = game.NewInitialState(2, options, 5);
  EXPECT_TRUE(engine::PublishedActions(game, *state->View(engine::kSpectator)).empty());
  EXPECT_TRUE(engine::PublishedActions(game, options).empty());
}

}  // namespace
}  // namespace plateau::games::globalissimo
