// The terminal rendering of views: Globalissimo's compact form at each phase, and the generic
// text format for any other message. Game: 2 seats, one round, seed 1 (display Sri Lanka,
// United Arab Emirates, Malaysia, Egypt, Poland; exact guesses lead to a question on Colombia).
#include <gtest/gtest.h>

#include "clients/cli/pretty.h"
#include "engine/core/registry.h"
#include "plateau/v1/protocol.pb.h"

namespace plateau::cli {
namespace {

class PrettyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(engine::Registry::LoadAll().ok());
    const engine::Game* game = engine::Registry::Find("globalissimo");
    ASSERT_NE(game, nullptr);
    auto state = game->NewGame(2, std::string("\x08\x01", 2), 1);  // Options{rounds: 1}
    ASSERT_TRUE(state.ok()) << state.status().ToString();
    state_ = std::move(state.value());
  }
  // Seats named as the room names them; here seat 2 (wire seat 1) has no name yet.
  std::string Render(int seat) { return PrettyView(*state_->View(seat), {"Ann", ""}); }
  std::unique_ptr<engine::State> state_;
};

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST_F(PrettyTest, PlacementShowsCardsAndWhoActs) {
  const std::string out = Render(0);
  EXPECT_TRUE(Has(out, "Round 1/1 - Highest point (m) - placement - to act: Ann (you)\n")) << out;
  EXPECT_TRUE(Has(out, "P from 1 = highest to 5")) << out;
  EXPECT_TRUE(Has(out, "  [0] 🇱🇰 Sri Lanka  (free)\n")) << out;
  EXPECT_TRUE(Has(out, "  seat 2: 0 squares, barriers 0 orange / 0 violet\n")) << out;
  EXPECT_FALSE(Has(out, "2,524 m")) << "values are hidden before the reveal\n" << out;
  EXPECT_FALSE(Has(out, "track")) << out;
}

TEST_F(PrettyTest, TilesAndQuestion) {
  ASSERT_TRUE(state_->ApplyText(0, "place { slot: 2 position: 1 }").ok());
  EXPECT_TRUE(Has(Render(1), "  [2] 🇲🇾 Malaysia  Ann guessed #1\n")) << Render(1);
  ASSERT_TRUE(state_->ApplyText(1, "place { slot: 3 position: 2 }").ok());
  ASSERT_TRUE(state_->ApplyText(0, "answer_capital { text: \"Paris\" }").ok());
  const std::string out = Render(1);
  EXPECT_TRUE(Has(out, "Question (orange barrier) for seat 2 (you): the capital of 🇨🇴 Colombia?\n"))
      << out;
  EXPECT_TRUE(Has(out, "Asked of you: What is the capital of Colombia?")) << out;
  EXPECT_TRUE(Has(out, "  Answer: a text of 1 to 100 characters.\n")) << out;
  EXPECT_TRUE(Has(out, "  wrong so far: Paris\n")) << out;
}

TEST_F(PrettyTest, GameOverShowsTheRevealAndRanks) {
  ASSERT_TRUE(state_->ApplyText(0, "place { slot: 0 position: 1 }").ok());
  ASSERT_TRUE(state_->ApplyText(1, "place { slot: 4 position: 2 }").ok());
  const std::string out = PrettyView(*state_->View(engine::kSpectator));
  EXPECT_TRUE(Has(out, "game over")) << out;
  EXPECT_TRUE(Has(out, "  [0] 🇱🇰 Sri Lanka  #3 2,524 m  seat 1 guessed #1: 1 pts\n")) << out;
  EXPECT_TRUE(Has(out, ", rank 1\n")) << out;
  EXPECT_TRUE(Has(out, "Log:\n")) << out;
}

TEST_F(PrettyTest, ViewWithoutLogLeavesOnlyTheLogOut) {
  ASSERT_TRUE(state_->ApplyText(0, "place { slot: 0 position: 1 }").ok());
  ASSERT_TRUE(state_->ApplyText(1, "place { slot: 4 position: 2 }").ok());
  const auto view = state_->View(engine::kSpectator);
  const std::string with = PrettyView(*view);
  const std::string without = PrettyView(*view, {}, engine::kSpectator, false);
  EXPECT_TRUE(Has(with, "Log:\n")) << with;
  EXPECT_FALSE(Has(without, "Log:")) << without;
  EXPECT_EQ(with.substr(0, without.size()), without);
}

// Moves in words, from real games' actions and the moves their views allow.
class MoveWordsTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(engine::Registry::LoadAll().ok()); }
  std::unique_ptr<engine::Message> Action(const std::string& game, const std::string& text) {
    auto action = engine::Registry::Find(game)->ParseActionText(text);
    EXPECT_TRUE(action.ok()) << text;
    return action.ok() ? std::move(action.value()) : nullptr;
  }
  std::function<std::string(int)> names_ = SeatNamer({"Ann", ""}, 0);
};

TEST_F(MoveWordsTest, NamesTheMoveAndItsValues) {
  // Zeros are values: slot 0 is the first card.
  EXPECT_EQ(MoveWords(*Action("globalissimo", "place { slot: 0 position: 1 }"), names_),
            "place: slot 0, position 1");
  EXPECT_EQ(MoveWords(*Action("guerre_froide", "choose_agent { agent: AGENT_DIRECTOR }"), names_),
            "choose agent: director");
  EXPECT_EQ(MoveWords(*Action("guerre_froide", "choose_agent { agent: AGENT_MASTER_SPY }"), names_),
            "choose agent: master spy");
  EXPECT_EQ(MoveWords(*Action("guerre_froide", "recruit {}"), names_), "recruit");
  EXPECT_EQ(MoveWords(*Action("guerre_froide", "core { resign {} }"), names_), "resign");
}

TEST_F(MoveWordsTest, SeatsAreNamedAsPeopleCountThem) {
  EXPECT_EQ(MoveWords(*Action("guerre_froide", "choose_first { seat: 0 }"), names_),
            "choose first: Ann (you)");
  EXPECT_EQ(MoveWords(*Action("guerre_froide", "choose_first { seat: 1 }"), names_),
            "choose first: seat 2");
  EXPECT_EQ(MoveWords(*Action("guerre_froide", "activate { group: \"g1\" target: \"g2\" to_seat: 1 }"), names_),
            "activate: group g1, target g2, to seat seat 2");
}

TEST_F(MoveWordsTest, TheMovesAViewAllowsReadInWords) {
  const engine::Game* game = engine::Registry::Find("guerre_froide");
  auto state = game->NewGame(2, "", 7);
  ASSERT_TRUE(state.ok());
  const auto moves = game->MovesFromView(*state.value()->View(0), 0);
  ASSERT_FALSE(moves.empty());
  for (const auto& move : moves) {
    const std::string words = MoveWords(*move, names_);
    EXPECT_EQ(words.rfind("choose agent: ", 0), 0u) << words;
    EXPECT_FALSE(Has(words, "AGENT_") || Has(words, "{") || Has(words, "_")) << words;
  }
}

TEST_F(MoveWordsTest, TypedSeatsCountFromOne) {
  auto first = Action("guerre_froide", "choose_first { seat: 2 }");
  ASSERT_TRUE(SeatsFromPeople(first.get()).ok());
  // Typed 2, sent as the wire's 1, read back as the second seat.
  EXPECT_EQ(engine::Registry::Find("guerre_froide")->ActionToText(*first), "choose_first { seat: 1 }");
  EXPECT_EQ(MoveWords(*first, names_), "choose first: seat 2");
  auto nested = Action("guerre_froide", "activate { group: \"g1\" to_seat: 1 }");
  ASSERT_TRUE(SeatsFromPeople(nested.get()).ok());
  EXPECT_EQ(MoveWords(*nested, names_), "activate: group g1, to seat Ann (you)");
  auto zero = Action("guerre_froide", "choose_first { seat: 0 }");
  EXPECT_EQ(SeatsFromPeople(zero.get()).code(), "usage");
  // Not a seat: left as typed.
  auto place = Action("globalissimo", "place { slot: 0 position: 1 }");
  ASSERT_TRUE(SeatsFromPeople(place.get()).ok());
  EXPECT_EQ(MoveWords(*place, names_), "place: slot 0, position 1");
}

TEST(PrettyFallback, OtherMessagesUseTheTextFormat) {
  plateau::v1::RoomInfo room;
  room.set_room_id("r1");
  room.set_title("Café");
  EXPECT_EQ(PrettyView(room), "room_id: \"r1\"\ntitle: \"Café\"\n");
}

}  // namespace
}  // namespace plateau::cli
