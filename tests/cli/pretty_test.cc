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

TEST(PrettyFallback, OtherMessagesUseTheTextFormat) {
  plateau::v1::RoomInfo room;
  room.set_room_id("r1");
  room.set_title("Café");
  EXPECT_EQ(PrettyView(room), "room_id: \"r1\"\ntitle: \"Café\"\n");
}

}  // namespace
}  // namespace plateau::cli
