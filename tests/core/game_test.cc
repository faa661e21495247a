// The engine's base contract (guarded Apply, history, replay, text actions, ranks, registry),
// exercised through a tiny game so that no real game's rules are involved.
#include <gtest/gtest.h>

#include "engine/core/registry.h"
#include "engine/core/typed_state.h"
#include "tiny_game.pb.h"

namespace plateau::engine {
namespace {

namespace nim = plateau::test::nim;

class NimState : public TypedState<NimState, nim::StateProto, nim::Action, nim::View> {
 public:
  NimState(const Game* g, int seats, uint32_t stones) : TypedState(g, seats) {
    s_.set_stones(stones);
    s_.set_winner(-1);
    s_.set_asked(-1);
  }
  std::vector<int64_t> Scores() const override {
    std::vector<int64_t> s(num_seats(), 0);
    if (s_.winner() >= 0) s[s_.winner()] = 1;
    return s;
  }

 protected:
  std::vector<int> GameActingSeats() const override {
    if (s_.asked() >= 0) return {s_.asked()};
    return {s_.to_move()};
  }
  bool GameOver() const override { return s_.winner() >= 0; }
  std::vector<v1::Prompt> GamePrompts(int seat) const override {
    if (seat != s_.asked()) return {};
    v1::Prompt p = MakePrompt(seat, v1::PROMPT_CHOOSE, T("nim.who_next"));
    p.set_id(s_.prompt_id());
    AddOption(&p, "left", T("nim.left"));
    AddOption(&p, "right", T("nim.right"));
    return {p};
  }
  Status TypedValidate(int seat, const nim::Action& a) const override {
    if (a.has_core()) return Status::Ok();  // the core checked the answer's shape
    if (s_.asked() >= 0) return Status("answer_first", "Say who moves next first.");
    if (a.take() < 1 || a.take() > 3) return Status("bad_take", "Take 1, 2 or 3 stones.");
    if (a.take() > s_.stones()) return Status("not_enough", "Not that many stones left.");
    return Status::Ok();
  }
  void TypedApply(int seat, const nim::Action& a) override {
    if (a.has_core()) {
      const bool left = a.core().answer().options(0) == "left";
      s_.set_to_move((seat + (left ? num_seats() - 1 : 1)) % num_seats());
      s_.set_asked(-1);
      Log(T("nim.chose", Seat{seat}, Seat{s_.to_move()}));
      return;
    }
    s_.set_stones(s_.stones() - a.take());
    Log(T("nim.took", Seat{seat}, a.take()));
    if (s_.stones() == 0) {
      s_.set_winner(seat);
    } else if (a.take() == 2) {
      s_.set_asked(seat);
      s_.set_prompt_id(NewPromptId(seat));
    } else {
      s_.set_to_move((seat + 1) % num_seats());
    }
  }
  std::vector<nim::Action> TypedLegalActions(int) const override {
    std::vector<nim::Action> out;
    if (s_.asked() >= 0) return out;
    for (uint32_t t = 1; t <= std::min<uint32_t>(3, s_.stones()); ++t) {
      out.emplace_back().set_take(t);
    }
    return out;
  }
  nim::View TypedView(int) const override {
    nim::View v;
    v.set_stones(s_.stones());
    v.set_to_move(s_.to_move());
    v.set_winner(s_.winner());
    return v;
  }
};

class NimGame : public Game {
 public:
  const GameInfo& Info() const override {
    static const GameInfo info{"nim_test", "Nim", 2, 3};
    return info;
  }
  const Message& OptionsPrototype() const override { return nim::Options::default_instance(); }
  const Message& ActionPrototype() const override { return nim::Action::default_instance(); }
  const Message& ViewPrototype() const override { return nim::View::default_instance(); }
  std::unique_ptr<State> NewInitialState(int seats, const Message& options,
                                         uint64_t) const override {
    auto stones = static_cast<const nim::Options&>(options).stones();
    return std::make_unique<NimState>(this, seats, stones == 0 ? 7 : stones);
  }
  StatusOr<std::unique_ptr<State>> Deserialize(std::string_view) const override {
    return Status("unsupported", "not needed here");
  }
};

GameRegistrar registrar("nim_test", [] { return StatusOr<std::unique_ptr<Game>>(std::make_unique<NimGame>()); });

std::string Bytes(uint32_t take) {
  nim::Action a;
  a.set_take(take);
  return a.SerializeAsString();
}

TEST(GameTest, RegistryFindsRegisteredGame) {
  ASSERT_TRUE(Registry::LoadAll().ok());
  ASSERT_NE(Registry::Find("nim_test"), nullptr);
  EXPECT_EQ(Registry::Find("nope"), nullptr);
  EXPECT_FALSE(Registry::All().empty());
}

TEST(GameTest, RefusedActionsChangeNothing) {
  NimGame g;
  auto st = g.NewGame(2, "", 1);
  ASSERT_TRUE(st.ok());
  State& s = *st.value();
  const std::string before = s.Serialize();
  EXPECT_EQ(s.ApplyBytes(1, Bytes(1)).code(), codes::kNotYourTurn);
  EXPECT_EQ(s.ApplyBytes(5, Bytes(1)).code(), codes::kBadSeat);
  EXPECT_EQ(s.ApplyBytes(-1, Bytes(1)).code(), codes::kBadSeat);
  EXPECT_EQ(s.ApplyBytes(0, Bytes(4)).code(), "bad_take");
  EXPECT_EQ(s.ApplyBytes(0, "\xff\xff\xff").code(), codes::kMalformed);
  nim::Options wrong_type;
  EXPECT_EQ(s.Apply(0, wrong_type).code(), codes::kMalformed);
  EXPECT_EQ(s.Serialize(), before);
  EXPECT_TRUE(s.History().empty());
  EXPECT_FALSE(s.ApplyBytes(0, Bytes(4)).reason().empty());
}

TEST(GameTest, HistoryReplaysExactly) {
  NimGame g;
  auto st = g.NewGame(3, nim::Options().SerializeAsString(), 9);
  State& s = *st.value();
  ASSERT_TRUE(s.ApplyText(0, "take: 3").ok());
  ASSERT_TRUE(s.ApplyText(1, "take: 3").ok());
  ASSERT_TRUE(s.ApplyText(2, "take: 1").ok());
  EXPECT_TRUE(s.IsTerminal());
  EXPECT_EQ(s.ApplyText(0, "take: 1").code(), codes::kGameOver);
  ASSERT_EQ(s.History().size(), 3u);
  auto replayed = g.Replay(3, "", 9, s.History());
  ASSERT_TRUE(replayed.ok()) << replayed.status().ToString();
  EXPECT_EQ(replayed.value()->Serialize(), s.Serialize());
  EXPECT_EQ(s.Ranks(), (std::vector<int>{2, 2, 1}));
}

// Issue 32: a move the turn timer made reads as the player's own unless the log says so. The
// core writes it before the move's entries, for every reader, and a replay of the history (with
// its timeouts) writes it again at the same place.
TEST(GameTest, ATimedOutMoveIsLoggedAsSuchAndReplays) {
  NimGame g;
  auto st = g.NewGame(3, nim::Options().SerializeAsString(), 9);
  State& s = *st.value();
  ASSERT_TRUE(s.ApplyText(0, "take: 3").ok());
  const uint64_t from = s.table().log_seq();
  ASSERT_TRUE(s.ApplyBytes(1, Bytes(1), /*timed_out=*/true).ok());
  std::vector<v1::Text> texts;
  for (const LogRef& e : LogOf(s.table())) {
    if (e.seq < from) continue;
    EXPECT_EQ(e.readers, 0u) << "everyone reads it";
    texts.push_back(LogText(e));
  }
  ASSERT_EQ(texts.size(), 2u);
  EXPECT_EQ(texts[0].key(), "core.timed_out");
  EXPECT_EQ(texts[1].key(), "nim.took");
  EXPECT_EQ(g.TextRenderer().Render(texts[0], [](int seat) { return "P" + std::to_string(seat); }),
            "P1 timed out: the turn timer plays for P1.");
  ASSERT_EQ(s.History().size(), 2u);
  EXPECT_FALSE(s.History()[0].timed_out);
  EXPECT_TRUE(s.History()[1].timed_out);
  auto replayed = g.Replay(3, "", 9, s.History());
  ASSERT_TRUE(replayed.ok()) << replayed.status().ToString();
  EXPECT_EQ(replayed.value()->Serialize(), s.Serialize());
  // Without the timeout the same move writes no such line.
  auto plain = g.NewGame(3, nim::Options().SerializeAsString(), 9);
  ASSERT_TRUE(plain.value()->ApplyText(0, "take: 3").ok());
  ASSERT_TRUE(plain.value()->ApplyBytes(1, Bytes(1)).ok());
  for (const LogRef& e : LogOf(plain.value()->table())) EXPECT_NE(LogText(e).key(), "core.timed_out");
}

std::unique_ptr<State> Nim(int seats, uint32_t stones) {
  static const NimGame* game = new NimGame();
  nim::Options o;
  o.set_stones(stones);
  return std::move(game->NewGame(seats, o.SerializeAsString(), 1).value());
}

std::unique_ptr<Message> AnswerAction(const State& s, const std::string& id,
                                      std::vector<std::string> options) {
  v1::Answer a;
  a.set_prompt_id(id);
  for (auto& o : options) a.add_options(o);
  return s.game().WrapAnswer(a);
}

// A question in the middle of a move: the taker of two stones says who moves next; the game
// resumes with the answer.
TEST(GameDecisions, QuestionStopsTheMoveAndTheAnswerResumesIt) {
  auto s = Nim(3, 9);
  ASSERT_TRUE(s->ApplyText(0, "take: 2").ok());
  EXPECT_EQ(s->ActingSeats(), std::vector<int>{0});
  auto prompts = s->Prompts(0);
  ASSERT_EQ(prompts.size(), 1u);
  EXPECT_EQ(prompts[0].seat(), 0);
  // Ids count the seat's own questions only: their gaps say nothing of other seats' questions.
  EXPECT_EQ(prompts[0].id(), "p0.0");
  EXPECT_TRUE(s->Prompts(1).empty());
  EXPECT_TRUE(s->Prompts(kSpectator).empty());
  // The question travels in the seat's view only.
  const auto owned0 = s->View(0);
  const auto& view0 = static_cast<const nim::View&>(*owned0);
  ASSERT_EQ(view0.table().prompts_size(), 1);
  EXPECT_EQ(view0.table().prompts(0).id(), prompts[0].id());
  EXPECT_EQ(static_cast<const nim::View&>(*s->View(1)).table().prompts_size(), 0);
  // Every answer is listed, and only answers: the game's own moves wait.
  auto legal = s->LegalActions(0);
  ASSERT_EQ(legal.size(), 2u);
  for (const auto& a : legal) EXPECT_TRUE(s->Validate(0, *a).ok());
  EXPECT_EQ(s->ApplyText(0, "take: 1").code(), "answer_first");
  // Refused answers change nothing.
  const std::string before = s->Serialize();
  EXPECT_EQ(s->Apply(0, *AnswerAction(*s, "", {"up"})).code(), codes::kBadAnswer);
  EXPECT_EQ(s->Apply(0, *AnswerAction(*s, "", {"left", "right"})).code(), codes::kBadAnswer);
  EXPECT_EQ(s->Apply(0, *AnswerAction(*s, "p99", {"left"})).code(), codes::kStalePrompt);
  EXPECT_EQ(s->Apply(1, *AnswerAction(*s, "", {"left"})).code(), codes::kNotYourTurn);
  EXPECT_EQ(s->Serialize(), before);
  // Answered: seat 0's left neighbour (seat 2) moves next; an answer from it is out of place.
  ASSERT_TRUE(s->Apply(0, *AnswerAction(*s, prompts[0].id(), {"left"})).ok());
  EXPECT_EQ(s->ActingSeats(), std::vector<int>{2});
  EXPECT_EQ(s->Apply(2, *AnswerAction(*s, "", {"left"})).code(), codes::kNothingAsked);
  EXPECT_TRUE(s->Prompts(0).empty());
  // A late copy of the same answer cannot hit the next question.
  ASSERT_TRUE(s->ApplyText(2, "take: 2").ok());
  EXPECT_EQ(s->Apply(2, *AnswerAction(*s, prompts[0].id(), {"left"})).code(),
            codes::kStalePrompt);
  // Answers are in the history like any move: the game replays.
  nim::Options o;
  o.set_stones(9);
  auto same = s->game().Replay(3, o.SerializeAsString(), 1, s->History());
  ASSERT_TRUE(same.ok()) << same.status().ToString();
  EXPECT_EQ(same.value()->Serialize(), s->Serialize());
}

TEST(GameDecisions, DefaultActionIsLegalForEveryActingSeat) {
  auto s = Nim(2, 20);
  for (int i = 0; i < 40 && !s->IsTerminal(); ++i) {
    const int seat = s->ActingSeats().at(0);
    auto a = s->DefaultAction(seat);
    ASSERT_TRUE(a);
    ASSERT_TRUE(s->Apply(seat, *a).ok());
  }
  EXPECT_TRUE(s->IsTerminal());
}

TEST(GameResign, TwoSeatsTheOtherWins) {
  auto s = Nim(2, 9);
  v1::CoreAction resign;
  resign.mutable_resign();
  // Allowed when it is not your turn.
  ASSERT_TRUE(s->Apply(1, *s->game().WrapCore(resign)).ok());
  EXPECT_TRUE(s->IsTerminal());
  EXPECT_TRUE(s->ActingSeats().empty());
  EXPECT_EQ(s->Ranks(), (std::vector<int>{1, 2}));
  EXPECT_EQ(s->Resigned(), std::vector<int>{1});
  EXPECT_EQ(s->Apply(1, *s->game().WrapCore(resign)).code(), codes::kGameOver);
}

TEST(GameResign, ThreeSeatsPlayOnWithDefaultMovesForTheResigned) {
  auto s = Nim(3, 30);
  v1::CoreAction resign;
  resign.mutable_resign();
  ASSERT_TRUE(s->Apply(1, *s->game().WrapCore(resign)).ok());
  EXPECT_FALSE(s->IsTerminal());
  EXPECT_EQ(s->Apply(1, *s->game().WrapCore(resign)).code(), codes::kResigned);
  EXPECT_TRUE(s->LegalActions(1).empty());
  // Seat 0 takes 1: seat 1's turn is played for it (its default: take 1), then seat 2 acts.
  ASSERT_TRUE(s->ApplyText(0, "take: 1").ok());
  EXPECT_EQ(s->ActingSeats(), std::vector<int>{2});
  EXPECT_EQ(static_cast<const nim::View&>(*s->View(2)).stones(), 28u);
  EXPECT_EQ(s->ApplyText(1, "take: 1").code(), codes::kResigned);
  // The log says who resigned, for everyone.
  const auto owned = s->View(kSpectator);
  const auto& log = static_cast<const nim::View&>(*owned).table().log();
  bool said = false;
  for (const auto& e : log) said = said || e.text().key() == "core.resigned";
  EXPECT_TRUE(said);
  // A second resignation leaves one seat: it wins, the last to resign ranks second.
  ASSERT_TRUE(s->Apply(2, *s->game().WrapCore(resign)).ok());
  EXPECT_TRUE(s->IsTerminal());
  EXPECT_EQ(s->Ranks(), (std::vector<int>{1, 3, 2}));
  // Replays exactly: the moves played for resigned seats follow from the history.
  nim::Options o;
  o.set_stones(30);
  auto same = s->game().Replay(3, o.SerializeAsString(), 1, s->History());
  ASSERT_TRUE(same.ok()) << same.status().ToString();
  EXPECT_EQ(same.value()->Serialize(), s->Serialize());
}

TEST(GameContract, GamesWithoutTheCoreMessagesAreRefused) {
  class Bare : public NimGame {
   public:
    const Message& ActionPrototype() const override { return nim::Options::default_instance(); }
  };
  EXPECT_EQ(NimGame().CheckContract(), "");
  EXPECT_NE(Bare().CheckContract().find("CoreAction"), std::string::npos);
}

TEST(GameTest, ReplayReportsTheRefusedIndex) {
  NimGame g;
  std::vector<LoggedAction> log = {{0, Bytes(1)}, {0, Bytes(1)}};
  auto r = g.Replay(2, "", 1, log);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), codes::kNotYourTurn);
  EXPECT_NE(r.status().reason().find("Action 1"), std::string::npos);
}

TEST(GameTest, OptionsAndSeatsValidated) {
  NimGame g;
  EXPECT_EQ(g.NewGame(1, "", 1).status().code(), codes::kBadOptions);
  EXPECT_EQ(g.NewGame(4, "", 1).status().code(), codes::kBadOptions);
  EXPECT_EQ(g.NewGame(2, "\xff", 1).status().code(), codes::kBadOptions);
}

TEST(GameTest, TextActions) {
  NimGame g;
  auto a = g.ParseActionText("take: 2");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(g.ActionToText(*a.value()), "take: 2");
  auto bad = g.ParseActionText("take: banana");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), codes::kMalformed);
  EXPECT_NE(bad.status().reason().find("line 1"), std::string::npos);
}

TEST(GameTest, LegalActionsEmptyForNonActingSeat) {
  NimGame g;
  auto s = g.NewGame(2, "", 1);
  EXPECT_EQ(s.value()->LegalActions(0).size(), 3u);
  EXPECT_TRUE(s.value()->LegalActions(1).empty());
}

TEST(GameTest, RanksShareTiesAndSkip) {
  EXPECT_EQ(RanksFromScores({5, 7, 7, 1}), (std::vector<int>{3, 1, 1, 4}));
  EXPECT_EQ(RanksFromScores({2, 2}), (std::vector<int>{1, 1}));
}

}  // namespace
}  // namespace plateau::engine
