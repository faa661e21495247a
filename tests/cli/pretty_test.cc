// The terminal rendering of views: Globalissimo's compact form at each phase, and the generic
// text format for any other message. Game: 2 seats, one round, seed 1 (display Sri Lanka,
// United Arab Emirates, Malaysia, Egypt, Poland; exact guesses lead to a question on Colombia).
#include <gtest/gtest.h>

#include <set>

#include "clients/cli/pretty.h"
#include "engine/core/bot.h"
#include "engine/core/registry.h"
#include "plateau/v1/options.pb.h"
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

TEST_F(MoveWordsTest, TheMovesAViewPublishesReadInWords) {
  const engine::Game* game = engine::Registry::Find("guerre_froide");
  auto state = game->NewGame(2, "", 7);
  ASSERT_TRUE(state.ok());
  const auto moves = engine::PublishedMoves(*game, *state.value()->View(0));
  ASSERT_FALSE(moves.empty());
  for (const auto& move : moves) {
    ASSERT_EQ(move.steps.size(), 2u);
    EXPECT_EQ(game->TextRenderer().Render(move.steps[0], names_), "Choose your Agent X");
    const std::string agent = game->TextRenderer().Render(move.steps[1], names_);
    EXPECT_EQ(agent.rfind("the ", 0), 0u) << agent;
    EXPECT_FALSE(Has(agent, "AGENT_") || Has(agent, "{") || Has(agent, "_")) << agent;
    const std::string words = MoveWords(*move.action, names_);
    EXPECT_EQ(words.rfind("choose agent: ", 0), 0u) << words;
  }
}

TEST_F(MoveWordsTest, LimitsPublishedMovesReadAsTheirChoices) {
  // LIMIT publishes its moves: a political turn reads as passing and each card's plays, the
  // card's name first, then its choices in the game's words (a nation by its player's name).
  const engine::Game* game = engine::Registry::Find("limit");
  for (uint64_t seed = 1; seed < 40; ++seed) {
    auto state = game->NewGame(2, "", seed);
    ASSERT_TRUE(state.ok());
    auto& s = *state.value();
    engine::Rng rng(seed);
    // Answer the opening questions until seat 0's political turn.
    for (int steps = 0; steps < 50 && !s.IsTerminal() && !s.Prompts(s.ActingSeats().front()).empty();
         ++steps) {
      const int seat = s.ActingSeats().front();
      ASSERT_TRUE(s.Apply(seat, *engine::RandomMove(s, seat, rng)).ok());
    }
    if (s.IsTerminal() || s.ActingSeats().front() != 0) continue;
    const auto moves = engine::PublishedMoves(*game, *s.View(0));
    ASSERT_FALSE(moves.empty());
    EXPECT_EQ(PublishedMoveWords(*game, moves[0], names_), "Pass");
    for (const auto& move : moves) {
      const std::string words = PublishedMoveWords(*game, move, names_);
      if (move.in_family) continue;
      EXPECT_FALSE(Has(words, "limit.") || Has(words, "{")) << words;
      if (Has(words, "Play ")) {
        EXPECT_EQ(words.rfind("Play ", 0), 0u) << words;
        return;
      }
    }
  }
  FAIL() << "no political turn with a card to play";
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

// LIMIT's target is a seat by the game's mark, not by its name.
TEST_F(MoveWordsTest, LimitsTargetIsASeatCountedFromOne) {
  auto play = Action("limit", "play_card { card: 7 target: 2 }");
  ASSERT_TRUE(SeatsFromPeople(play.get()).ok());
  EXPECT_EQ(engine::Registry::Find("limit")->ActionToText(*play), "play_card { card: 7 target: 1 }");
  EXPECT_TRUE(Has(MoveWords(*play, names_), ", target seat 2")) << MoveWords(*play, names_);
  auto zero = Action("limit", "play_card { card: 7 target: 0 }");
  EXPECT_EQ(SeatsFromPeople(zero.get()).code(), "usage");
  // The star nation of a solo game is no seat: its marker goes as typed, and reads as it is.
  auto star = Action("limit", "play_card { card: 7 target: -2 }");
  ASSERT_TRUE(SeatsFromPeople(star.get()).ok());
  EXPECT_EQ(engine::Registry::Find("limit")->ActionToText(*star), "play_card { card: 7 target: -2 }");
  EXPECT_TRUE(Has(MoveWords(*star, names_), ", target -2")) << MoveWords(*star, names_);
}

// Sets the marked seat field at the end of `path` (fields from the Action down) to `value`.
void SetAlong(google::protobuf::Message* m, const std::vector<const google::protobuf::FieldDescriptor*>& path,
              int64_t value) {
  using google::protobuf::FieldDescriptor;
  const auto* r = m->GetReflection();
  for (size_t i = 0; i + 1 < path.size(); ++i) {
    m = path[i]->is_repeated() ? r->AddMessage(m, path[i]) : r->MutableMessage(m, path[i]);
    r = m->GetReflection();
  }
  const FieldDescriptor* f = path.back();
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32:
      f->is_repeated() ? r->AddInt32(m, f, static_cast<int32_t>(value)) : r->SetInt32(m, f, static_cast<int32_t>(value));
      break;
    case FieldDescriptor::CPPTYPE_INT64:
      f->is_repeated() ? r->AddInt64(m, f, value) : r->SetInt64(m, f, value);
      break;
    case FieldDescriptor::CPPTYPE_UINT32:
      f->is_repeated() ? r->AddUInt32(m, f, static_cast<uint32_t>(value)) : r->SetUInt32(m, f, static_cast<uint32_t>(value));
      break;
    default:
      f->is_repeated() ? r->AddUInt64(m, f, static_cast<uint64_t>(value)) : r->SetUInt64(m, f, static_cast<uint64_t>(value));
      break;
  }
}

void SeatPaths(const google::protobuf::Descriptor* type, std::vector<const google::protobuf::FieldDescriptor*>* path,
               std::set<const google::protobuf::Descriptor*>* on_path,
               std::vector<std::vector<const google::protobuf::FieldDescriptor*>>* out) {
  using google::protobuf::FieldDescriptor;
  if (!on_path->insert(type).second) return;  // a recursive message (Text): once is enough
  for (int i = 0; i < type->field_count(); ++i) {
    const FieldDescriptor* f = type->field(i);
    path->push_back(f);
    if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
      SeatPaths(f->message_type(), path, on_path, out);
    } else if (f->options().GetExtension(plateau::v1::seat)) {
      out->push_back(*path);
    }
    path->pop_back();
  }
  on_path->erase(type);
}

// Every field any game marks as a seat in its actions, however deep: typed from 1 and sent from
// 0, and read back by the seat's name, never by the wire's number.
TEST_F(MoveWordsTest, EveryMarkedSeatOfEveryGamesActionsCountsFromOne) {
  std::set<std::string> seen;
  for (const engine::Game* game : engine::Registry::All()) {
    std::vector<std::vector<const google::protobuf::FieldDescriptor*>> paths;
    std::vector<const google::protobuf::FieldDescriptor*> path;
    std::set<const google::protobuf::Descriptor*> on_path;
    SeatPaths(game->ActionPrototype().GetDescriptor(), &path, &on_path, &paths);
    for (const auto& p : paths) {
      const std::string field = p.back()->full_name();
      seen.insert(field);
      std::unique_ptr<engine::Message> typed(game->ActionPrototype().New());
      SetAlong(typed.get(), p, 2);  // as typed: the second seat
      ASSERT_TRUE(SeatsFromPeople(typed.get()).ok()) << field;
      std::unique_ptr<engine::Message> wire(game->ActionPrototype().New());
      SetAlong(wire.get(), p, 1);
      EXPECT_EQ(typed->SerializeAsString(), wire->SerializeAsString()) << field << " is not sent from 0";
      const std::string words = MoveWords(*wire, names_);
      EXPECT_TRUE(Has(words, "seat 2")) << field << " reads \"" << words << "\"";
      std::unique_ptr<engine::Message> zero(game->ActionPrototype().New());
      SetAlong(zero.get(), p, 0);
      EXPECT_EQ(SeatsFromPeople(zero.get()).code(), "usage") << field << " takes a seat 0";
    }
  }
  EXPECT_EQ(seen.count("plateau.games.limit.PlayCard.target"), 1u);
  EXPECT_EQ(seen.count("plateau.games.guerre_froide.ChooseFirst.seat"), 1u);
}

TEST(PrettyFallback, OtherMessagesUseTheTextFormat) {
  plateau::v1::RoomInfo room;
  room.set_room_id("r1");
  room.set_title("Café");
  EXPECT_EQ(PrettyView(room), "room_id: \"r1\"\ntitle: \"Café\"\n");
}

}  // namespace
}  // namespace plateau::cli
