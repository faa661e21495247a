// The core's queue of decisions (State::Ask, AskAlongside, Defer, ResolveDeferred), exercised
// through a tiny race (queue_game.proto) so that no real game's rules are involved.
#include <gtest/gtest.h>

#include "engine/core/typed_state.h"
#include "queue_game.pb.h"

namespace plateau::engine {
namespace {

namespace q = plateau::test::queue;

class RaceState : public TypedState<RaceState, q::StateProto, q::Action, q::View> {
 public:
  RaceState(const Game* g, int seats) : TypedState(g, seats) {
    for (int i = 0; i < seats; ++i) s_.add_pos(0);
  }
  std::vector<int64_t> Scores() const override {
    return std::vector<int64_t>(s_.pos().begin(), s_.pos().end());
  }
  const q::StateProto& position() const { return s_; }
  // The queue itself, for a test that arranges it as a game asking twice would.
  google::protobuf::RepeatedPtrField<v1::Decision>* mutable_queue() {
    return mutable_table()->mutable_decisions();
  }
  // A race whose steps stay open beside a question, and one whose redraw keeps given answers.
  bool moves_while_asked = false;
  bool redraws_answers = false;
  // A race whose steps answer a bid as typed moves ("step: 2" bids 2), and what it heard.
  bool typed_bids = false;
  std::vector<std::pair<int, int64_t>> heard;
  // A race whose choices narrow as the position changes (the most squares a choice offers now),
  // and its rules answering a choice themselves.
  int64_t choose_max = 2;
  void Decide(int seat, int64_t squares) {
    v1::Answer a;
    a.set_number(squares);
    AnswerFor(seat, a);
  }

 protected:
  std::vector<int> GameActingSeats() const override { return {s_.to_move()}; }
  bool GameOver() const override {
    return std::any_of(s_.pos().begin(), s_.pos().end(), [](uint32_t p) { return p >= 10; });
  }
  Status TypedValidate(int seat, const q::Action& a) const override {
    if (a.has_core()) return Status("not_asked", "The race asks nothing of its own.");
    if (a.has_step() && (a.step() < 1 || a.step() > 2)) return Status("bad_step", "Step 1 or 2.");
    return Status::Ok();
  }
  void TypedApply(int seat, const q::Action& a) override {
    if (a.has_step()) {
      s_.set_pos(seat, s_.pos(seat) + a.step());
      // Landing on another seat's square: that seat may push the mover back, before the turn
      // passes (the rest of the move waits in the resume message).
      for (int o = 0; o < num_seats(); ++o) {
        if (o == seat || s_.pos(o) != s_.pos(seat)) continue;
        v1::Prompt p = MakePrompt(o, v1::PROMPT_CHOOSE, T("race.react"));
        AddOption(&p, "push", T("race.push"));
        AddOption(&p, "pass", T("race.pass"));
        q::Resume r;
        r.set_mover(seat);
        Ask({std::move(p)}, q::KIND_REACT, r, v1::DEFAULT_PASS, /*reaction=*/true);
        return;
      }
    } else if (a.has_bid()) {
      std::vector<v1::Prompt> asked;
      for (int o = num_seats() - 1; o >= 0; --o)  // any order: the core keeps them in seat order
        asked.push_back(MakePrompt(o, v1::PROMPT_NUMBER, T("race.bid"), 0, 3));
      q::Resume r;
      r.set_mover(seat);
      Ask(std::move(asked), q::KIND_BID, r, v1::DEFAULT_GAME);
      return;
    } else if (a.has_defer()) {
      q::Effect e;
      e.set_amount(a.defer());
      Defer(q::KIND_EFFECT, e);
    } else if (a.has_resolve()) {
      ResolveDeferred(v1::STACK_IN_ORDER);
      return;  // the turn passes once every effect is resolved
    } else if (a.has_choose()) {
      q::Resume r;
      r.set_mover(seat);
      for (int o = 0; o < num_seats(); ++o)
        AskAlongside({MakePrompt(o, v1::PROMPT_NUMBER, T("race.choose"), 0, 2)}, q::KIND_CHOOSE, r,
                     v1::DEFAULT_FIRST_OPTION);
      return;  // the turn passes once every seat has chosen
    }
    NextTurn(seat);
  }
  std::vector<q::Action> TypedLegalActions(int) const override {
    std::vector<q::Action> out;
    out.emplace_back().set_step(1);
    out.emplace_back().set_step(2);
    out.emplace_back().set_bid(true);
    return out;
  }
  q::View TypedView(int) const override {
    q::View v;
    *v.mutable_pos() = s_.pos();
    v.set_to_move(s_.to_move());
    *v.mutable_resolved() = s_.resolved();
    return v;
  }

  Status GameCheckAnswer(const v1::Decision& d, int seat, const v1::Answer& a) const override {
    if (d.kind() == q::KIND_BID && a.number() > s_.pos(seat) + 2)
      return Status(codes::kBadAnswer, "You may bid at most two more than your square.");
    return Status::Ok();
  }
  v1::Answer GameDefaultAnswer(const v1::Decision& d, int seat) const override {
    v1::Answer a;
    a.set_number(1);
    return a;
  }
  void GameResume(const v1::Decision& d) override {
    q::Resume r;
    r.ParseFromString(d.resume());
    if (d.kind() == q::KIND_REACT) {
      if (d.answers(0).answer().options(0) == "push") s_.set_pos(r.mover(), s_.pos(r.mover()) - 1);
    } else if (d.kind() == q::KIND_BID) {
      for (const auto& given : d.answers())
        s_.set_pos(given.seat(), s_.pos(given.seat()) + given.answer().number());
    } else if (d.kind() == q::KIND_EFFECT) {
      s_.add_resolved(d.answers(0).answer().yes() ? 100 : 200);
      return;  // the resolution of the effects goes on
    } else if (d.kind() == q::KIND_CHOOSE || d.kind() == q::KIND_AGAIN) {
      // Each seat's choice applies as soon as it is made; two squares earn a question of its own
      // at once, while the others may still be choosing.
      const int seat = d.answers(0).seat();
      const v1::Answer& a = d.answers(0).answer();
      s_.set_pos(seat, s_.pos(seat) + (d.kind() == q::KIND_CHOOSE ? a.number() : a.yes() ? 1 : 0));
      if (d.kind() == q::KIND_CHOOSE && a.number() == 2)
        AskAlongside({MakePrompt(seat, v1::PROMPT_YES_NO, T("race.again"))}, q::KIND_AGAIN,
                     r, v1::DEFAULT_PASS);
      if (table().decisions_size() > 0) return;
    }
    NextTurn(r.mover());
  }
  void GameResolve(const v1::Effect& e) override {
    q::Effect effect;
    effect.ParseFromString(e.data());
    s_.add_resolved(effect.amount());
    // An effect of 0 asks its question in the middle of the resolution.
    if (effect.amount() == 0) {
      q::Resume r;
      r.set_mover(s_.to_move());
      Ask({MakePrompt(s_.to_move(), v1::PROMPT_YES_NO, T("race.sure"))}, q::KIND_EFFECT, r,
          v1::DEFAULT_PASS);
    }
  }
  void GameDeferredResolved() override { NextTurn(s_.to_move()); }
  bool GameMovesWhileAsked() const override { return moves_while_asked; }
  std::optional<v1::Prompt> GameWordPrompt(const v1::Decision& d,
                                           const v1::Prompt& asked) const override {
    if (d.kind() != q::KIND_CHOOSE) return std::nullopt;
    v1::Prompt p = asked;
    p.set_max(choose_max);
    return p;
  }
  bool GameRedrawsAnswers(const v1::Decision&) const override { return redraws_answers; }
  void GameAnswered(const v1::Decision& d, int seat, const v1::Answer& a) override {
    heard.emplace_back(seat, a.number());
  }
  std::optional<v1::Answer> GameAnswerOf(int seat, const Message& action) const override {
    const auto& a = static_cast<const q::Action&>(action);
    if (!typed_bids || !a.has_step() || OpenDecision()->kind() != q::KIND_BID) return std::nullopt;
    v1::Answer out;
    out.set_number(a.step());
    return out;
  }

 private:
  void NextTurn(int from) { s_.set_to_move((from + 1) % num_seats()); }
};

class RaceGame : public TypedGame<q::Options, q::Action, q::View> {
 public:
  RaceGame() : TypedGame(GameInfo{"race_test", "Race", 2, 3}) {}
  StatusOr<std::unique_ptr<State>> Deserialize(std::string_view) const override {
    return Status("unsupported", "not needed here");
  }

 protected:
  std::unique_ptr<State> NewTypedState(int seats, const q::Options&, uint64_t) const override {
    return std::make_unique<RaceState>(this, seats);
  }
};

const RaceGame& Race() {
  static const RaceGame game;
  return game;
}

std::unique_ptr<RaceState> NewRace(int seats) {
  auto s = Race().NewGame(seats, "", 1);
  return std::unique_ptr<RaceState>(static_cast<RaceState*>(s.value().release()));
}

std::unique_ptr<Message> Answer(const State& s, int seat, std::vector<std::string> options) {
  v1::Answer a;
  a.set_prompt_id(s.Prompts(seat).at(0).id());
  for (auto& o : options) a.add_options(std::move(o));
  return s.game().WrapAnswer(a);
}

std::unique_ptr<Message> Number(const State& s, int seat, int64_t n) {
  v1::Answer a;
  a.set_prompt_id(s.Prompts(seat).at(0).id());
  a.set_number(n);
  return s.game().WrapAnswer(a);
}

const q::View& AsView(const std::unique_ptr<Message>& v) { return static_cast<const q::View&>(*v); }

// Seat 0 lands on seat 1's square: seat 1, not the mover, is asked mid-move; the mover's step is
// already made, and the answer resumes the rest of the move.
TEST(DecisionQueue, AReactionIsAskedOfANonMoverMidMove) {
  auto s = NewRace(3);
  ASSERT_TRUE(s->ApplyText(0, "step: 1").ok());  // 0 at 1, seat 1 to move
  ASSERT_TRUE(s->ApplyText(1, "step: 1").ok());  // 1 lands on 0's square: 0 may react
  ASSERT_NE(s->OpenDecision(), nullptr);
  EXPECT_TRUE(s->OpenDecision()->reaction());
  EXPECT_EQ(s->ActingSeats(), std::vector<int>{0});
  EXPECT_EQ(s->position().pos(1), 1u) << "the mover's step is made before the question";
  // The mover waits, and the game's own moves wait for everyone.
  EXPECT_EQ(s->ApplyText(1, "step: 1").code(), codes::kNotYourTurn);
  EXPECT_EQ(s->ApplyText(0, "step: 1").code(), codes::kAnswerFirst);
  ASSERT_EQ(s->LegalActions(0).size(), 2u) << "only the two answers are legal";
  const std::string before = s->Serialize();
  const Status refused = s->Apply(0, *Answer(*s, 0, {"jump"}));
  EXPECT_EQ(refused.code(), codes::kBadAnswer);
  EXPECT_NE(refused.reason().find("jump"), std::string::npos) << refused.reason();
  EXPECT_EQ(s->Serialize(), before);
  EXPECT_TRUE(s->LegalActions(1).empty());
  ASSERT_TRUE(s->Apply(0, *Answer(*s, 0, {"push"})).ok());
  EXPECT_EQ(s->OpenDecision(), nullptr);
  EXPECT_EQ(s->position().pos(1), 0u) << "pushed back";
  EXPECT_EQ(s->ActingSeats(), std::vector<int>{2}) << "the mover's turn ended as it resumed";
  // The answers are in the history: the game replays.
  auto same = Race().Replay(3, "", 1, s->History());
  ASSERT_TRUE(same.ok()) << same.status().ToString();
  EXPECT_EQ(same.value()->Serialize(), s->Serialize());
}

// A turn timer (DefaultAction, played as timed out) takes the decision's default: pass.
TEST(DecisionQueue, ATimerTakesThePassDefault) {
  auto s = NewRace(2);
  ASSERT_TRUE(s->ApplyText(0, "step: 2").ok());
  ASSERT_TRUE(s->ApplyText(1, "step: 2").ok());
  ASSERT_EQ(s->ActingSeats(), std::vector<int>{0});
  auto by_default = s->DefaultAction(0);
  ASSERT_NE(by_default, nullptr);
  const v1::CoreAction* core = Race().CoreOf(*by_default);
  ASSERT_NE(core, nullptr);
  EXPECT_EQ(core->answer().options(0), "pass");
  ASSERT_TRUE(s->Apply(0, *by_default, /*timed_out=*/true).ok());
  EXPECT_EQ(s->position().pos(1), 2u) << "passing leaves the mover where it landed";
  EXPECT_EQ(s->ActingSeats(), std::vector<int>{0});
}

// Every seat is asked at once; they answer in any order, and the game resumes only when all have
// answered, with the answers in seat order: the same position whoever answered first.
TEST(DecisionQueue, SeveralSeatsAskedAtOnceResumeWhenAllHaveAnswered) {
  std::string ends[2];
  for (int order = 0; order < 2; ++order) {
    auto s = NewRace(3);
    ASSERT_TRUE(s->ApplyText(0, "bid: true").ok());
    EXPECT_EQ(s->ActingSeats(), (std::vector<int>{0, 1, 2}));
    const std::vector<int> seats = order == 0 ? std::vector<int>{2, 0, 1} : std::vector<int>{1, 2, 0};
    for (size_t k = 0; k < seats.size(); ++k) {
      const int seat = seats[k];
      EXPECT_EQ(s->position().pos(0) + s->position().pos(1) + s->position().pos(2), 0u)
          << "nothing resumes before every seat has answered";
      ASSERT_TRUE(s->Apply(seat, *Number(*s, seat, seat)).ok());
      EXPECT_TRUE(s->Prompts(seat).empty()) << "answered: no longer asked";
      if (k + 1 < seats.size()) EXPECT_FALSE(s->IsActing(seat)) << "answered: waits for the others";
    }
    EXPECT_EQ(s->OpenDecision(), nullptr);
    EXPECT_EQ(s->position().pos(1), 1u);
    EXPECT_EQ(s->position().pos(2), 2u);
    ends[order] = s->Serialize();
  }
  EXPECT_EQ(ends[0], ends[1]);
}

// A timer answering one of the seats asked at once plays the game's default (a bid of 1).
TEST(DecisionQueue, TheGamesDefaultAnswersForATimer) {
  auto s = NewRace(2);
  ASSERT_TRUE(s->ApplyText(0, "bid: true").ok());
  auto a = s->DefaultAction(1);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(Race().CoreOf(*a)->answer().number(), 1);
}

// Effects put aside resolve later, first in first out; one that asks pauses the resolution until
// it is answered, then the rest follow and the game hears the end.
TEST(DecisionQueue, DeferredEffectsResolveInOrderAndPauseOnAQuestion) {
  auto s = NewRace(2);
  ASSERT_TRUE(s->ApplyText(0, "defer: 5").ok());
  ASSERT_TRUE(s->ApplyText(1, "defer: 0").ok());
  ASSERT_TRUE(s->ApplyText(0, "defer: 7").ok());
  EXPECT_TRUE(s->position().resolved().empty()) << "nothing resolves before it is asked to";
  ASSERT_TRUE(s->ApplyText(1, "resolve: true").ok());
  EXPECT_EQ(std::vector<uint32_t>(s->position().resolved().begin(), s->position().resolved().end()),
            (std::vector<uint32_t>{5, 0}));
  ASSERT_EQ(s->ActingSeats(), std::vector<int>{1}) << "the effect of 0 asks the resolver";
  v1::Answer yes;
  yes.set_yes(true);
  ASSERT_TRUE(s->Apply(1, *Race().WrapAnswer(yes)).ok());
  EXPECT_EQ(std::vector<uint32_t>(s->position().resolved().begin(), s->position().resolved().end()),
            (std::vector<uint32_t>{5, 0, 100, 7}));
  EXPECT_EQ(s->table().deferred_size(), 0);
  EXPECT_EQ(s->table().resolving(), v1::STACK_IDLE);
  EXPECT_EQ(s->ActingSeats(), std::vector<int>{0}) << "the turn passed once all were resolved";
}

// A bad answer is refused with a reason that names the mistake, and changes nothing.
TEST(DecisionQueue, BadAnswersAreRefusedWithAReasonAndChangeNothing) {
  auto s = NewRace(2);
  ASSERT_TRUE(s->ApplyText(0, "bid: true").ok());
  const std::string before = s->Serialize();
  Status st = s->Apply(0, *Number(*s, 0, 9));
  EXPECT_EQ(st.code(), codes::kBadAnswer);
  EXPECT_NE(st.reason().find("3"), std::string::npos) << st.reason();  // the range, from the shape
  st = s->Apply(0, *Number(*s, 0, 3));
  EXPECT_EQ(st.code(), codes::kBadAnswer);  // the game's own check: at most two more than 0
  EXPECT_NE(st.reason().find("at most two"), std::string::npos) << st.reason();
  v1::Answer stale;
  stale.set_prompt_id("p0.99");
  stale.set_number(1);
  EXPECT_EQ(s->Apply(0, *Race().WrapAnswer(stale)).code(), codes::kStalePrompt);
  EXPECT_EQ(s->Serialize(), before);
  // Answered once, a second answer from the same seat is out of place.
  ASSERT_TRUE(s->Apply(0, *Number(*s, 0, 1)).ok());
  const std::string answered = s->Serialize();
  v1::Answer again;
  again.set_number(1);
  EXPECT_EQ(s->Apply(0, *Race().WrapAnswer(again)).code(), codes::kNotYourTurn);
  EXPECT_EQ(s->Serialize(), answered);
}

// A seat's question reaches its view only; an answer given while others still think is kept
// from them, even from a bot's search (PerturbHidden draws it again for the others).
TEST(DecisionQueue, QuestionsAndAnswersStayWithTheirSeat) {
  auto s = NewRace(3);
  ASSERT_TRUE(s->ApplyText(0, "step: 2").ok());
  ASSERT_TRUE(s->ApplyText(1, "step: 2").ok());  // seat 0 asked to react
  EXPECT_EQ(AsView(s->View(0)).table().prompts_size(), 1);
  EXPECT_EQ(AsView(s->View(1)).table().prompts_size(), 0);
  EXPECT_EQ(AsView(s->View(2)).table().prompts_size(), 0);
  EXPECT_EQ(AsView(s->View(kSpectator)).table().prompts_size(), 0);
  EXPECT_EQ(AsView(s->View(0)).table().prompts(0).id(), "p0.0");
  ASSERT_TRUE(s->Apply(0, *Answer(*s, 0, {"pass"})).ok());

  ASSERT_TRUE(s->ApplyText(2, "bid: true").ok());
  ASSERT_TRUE(s->Apply(1, *Number(*s, 1, 3)).ok());
  for (int r : {0, 2}) {
    const std::string seen = DeterministicBytes(*s->View(r));
    int changed = 0;
    for (uint64_t salt = 1; salt <= 16; ++salt) {
      auto other = s->PerturbHidden(r, salt);
      EXPECT_EQ(DeterministicBytes(*other->View(r)), seen);
      changed += other->Serialize() != s->Serialize() ? 1 : 0;
    }
    EXPECT_GT(changed, 0) << "seat 1's secret bid is kept as it is for seat " << r;
  }
  // Seat 1 knows its own answer: its redraw keeps it.
  EXPECT_EQ(s->PerturbHidden(1, 5)->Serialize(), s->Serialize());
}

// A game whose own moves stay open beside a question: a seat still asked may make one (the
// decision stays open and still waits for its answer); a seat that answered may not.
TEST(DecisionQueue, MovesStayOpenBesideAQuestionWhenTheGameSaysSo) {
  auto s = NewRace(2);
  ASSERT_TRUE(s->ApplyText(0, "bid: true").ok());
  EXPECT_EQ(s->ApplyText(1, "step: 1").code(), codes::kAnswerFirst) << "waits by default";
  s->moves_while_asked = true;
  EXPECT_EQ(s->LegalActions(1).size(), 3u + 3u) << "its three moves beside its three bids";
  ASSERT_TRUE(s->ApplyText(1, "step: 1").ok());
  EXPECT_EQ(s->position().pos(1), 1u);
  ASSERT_NE(s->OpenDecision(), nullptr) << "the question stays open";
  EXPECT_EQ(s->ActingSeats(), (std::vector<int>{0, 1}));
  ASSERT_TRUE(s->Apply(1, *Number(*s, 1, 2)).ok());
  EXPECT_EQ(s->ApplyText(1, "step: 1").code(), codes::kNotYourTurn) << "answered: no longer asked";
  ASSERT_TRUE(s->Apply(0, *Number(*s, 0, 1)).ok());
  EXPECT_EQ(s->OpenDecision(), nullptr);
  EXPECT_EQ(s->position().pos(1), 3u);
}

// A game that draws pending answers again itself: the core's redraw leaves them as given.
TEST(DecisionQueue, AGameThatRedrawsAnswersItselfKeepsTheCoresHandsOff) {
  auto s = NewRace(3);
  ASSERT_TRUE(s->ApplyText(0, "bid: true").ok());
  ASSERT_TRUE(s->Apply(1, *Number(*s, 1, 2)).ok());
  int changed = 0;
  for (uint64_t salt = 1; salt <= 16; ++salt)
    changed += s->PerturbHidden(0, salt)->Serialize() != s->Serialize() ? 1 : 0;
  EXPECT_GT(changed, 0) << "the core draws seat 1's bid again";
  s->redraws_answers = true;
  for (uint64_t salt = 1; salt <= 16; ++salt)
    EXPECT_EQ(s->PerturbHidden(0, salt)->Serialize(), s->Serialize());
}

// Each answer is heard as it is given (the last one too), in the order given, before the game
// resumes with all of them in seat order.
TEST(DecisionQueue, TheGameHearsEachAnswerAsItIsGiven) {
  auto s = NewRace(3);
  ASSERT_TRUE(s->ApplyText(0, "bid: true").ok());
  ASSERT_TRUE(s->Apply(2, *Number(*s, 2, 1)).ok());
  EXPECT_EQ(s->heard, (std::vector<std::pair<int, int64_t>>{{2, 1}}));
  ASSERT_TRUE(s->Apply(0, *Number(*s, 0, 0)).ok());
  ASSERT_TRUE(s->Apply(1, *Number(*s, 1, 2)).ok());
  EXPECT_EQ(s->heard, (std::vector<std::pair<int, int64_t>>{{2, 1}, {0, 0}, {1, 2}}));
  EXPECT_EQ(s->OpenDecision(), nullptr);
  EXPECT_EQ(s->position().pos(1), 2u);
}

// A game's own move may stand for an answer: checked as that answer (the shape, then the game),
// stored with the question's id, and replayed from the log as it was played.
TEST(DecisionQueue, AGamesTypedMoveAnswersAsTheAnswerItStandsFor) {
  auto s = NewRace(2);
  s->typed_bids = true;
  ASSERT_TRUE(s->ApplyText(0, "bid: true").ok());
  const std::string before = s->Serialize();
  EXPECT_EQ(s->ApplyText(0, "step: 3").code(), codes::kBadAnswer) << "beyond the game's limit";
  EXPECT_EQ(s->Serialize(), before);
  ASSERT_TRUE(s->ApplyText(0, "step: 2").ok());
  ASSERT_EQ(s->OpenDecision()->answers_size(), 1);
  EXPECT_EQ(s->OpenDecision()->answers(0).answer().number(), 2);
  EXPECT_EQ(s->OpenDecision()->answers(0).answer().prompt_id(), s->OpenDecision()->prompts(0).id());
  EXPECT_EQ(s->ApplyText(0, "step: 1").code(), codes::kNotYourTurn) << "answered already";
  ASSERT_TRUE(s->ApplyText(1, "step: 1").ok());
  EXPECT_EQ(s->OpenDecision(), nullptr);
  EXPECT_EQ(s->position().pos(0), 2u);
  EXPECT_EQ(s->position().pos(1), 1u);
  ASSERT_TRUE(s->ApplyText(1, "step: 1").ok()) << "no question open: a step is a step again";
  EXPECT_EQ(s->position().pos(1), 2u);
}

// Asked alongside, every seat has its own question open at once; each answer applies as soon as
// it is given, and a seat's next question opens at once while the others still think. The same
// answers give the same position whoever answers first.
TEST(DecisionQueue, SeatsAskedAlongsideEachAnswerTheirOwnQuestionAppliedAtOnce) {
  std::string ends[2];
  for (int order = 0; order < 2; ++order) {
    auto s = NewRace(2);
    ASSERT_TRUE(s->ApplyText(0, "choose: true").ok());
    EXPECT_EQ(s->ActingSeats(), (std::vector<int>{0, 1}));
    ASSERT_EQ(s->Prompts(0).size(), 1u);
    ASSERT_EQ(s->Prompts(1).size(), 1u);
    EXPECT_EQ(s->Prompts(0)[0].id(), "p0.0");
    EXPECT_EQ(s->Prompts(1)[0].id(), "p1.0");
    EXPECT_EQ(s->LegalActions(1).size(), 3u) << "its own three answers, nothing else";
    if (order == 1) {
      ASSERT_TRUE(s->Apply(1, *Number(*s, 1, 1)).ok());
      EXPECT_EQ(s->position().pos(1), 1u) << "applied as soon as it was given";
      EXPECT_EQ(s->ActingSeats(), std::vector<int>{0});
    }
    ASSERT_TRUE(s->Apply(0, *Number(*s, 0, 2)).ok());
    EXPECT_EQ(s->position().pos(0), 2u) << "applied as soon as it was given";
    ASSERT_EQ(s->Prompts(0).size(), 1u) << "its next question is open at once";
    EXPECT_EQ(s->Prompts(0)[0].id(), "p0.1");
    if (order == 0) {
      EXPECT_EQ(s->ActingSeats(), (std::vector<int>{0, 1}));
      EXPECT_EQ(s->Prompts(1)[0].id(), "p1.0") << "seat 1's question is the one it was asked";
      ASSERT_TRUE(s->Apply(1, *Number(*s, 1, 1)).ok());
      EXPECT_EQ(s->position().pos(1), 1u);
      EXPECT_EQ(s->ActingSeats(), std::vector<int>{0}) << "only the follow-up is left";
    }
    v1::Answer yes;
    yes.set_prompt_id(s->Prompts(0)[0].id());
    yes.set_yes(true);
    ASSERT_TRUE(s->Apply(0, *Race().WrapAnswer(yes)).ok());
    EXPECT_EQ(s->position().pos(0), 3u);
    EXPECT_EQ(s->OpenDecision(), nullptr);
    EXPECT_EQ(s->ActingSeats(), std::vector<int>{1}) << "the turn passed once all had chosen";
    auto same = Race().Replay(2, "", 1, s->History());
    ASSERT_TRUE(same.ok()) << same.status().ToString();
    EXPECT_EQ(same.value()->Serialize(), s->Serialize());
    ends[order] = DeterministicBytes(s->position());
  }
  EXPECT_EQ(ends[0], ends[1]);
}

// A bad answer to one of the questions open alongside is refused with nothing changed: out of
// range or with another seat's question's id; the game's moves wait.
TEST(DecisionQueue, ABadAnswerAlongsideIsRefusedAndChangesNothing) {
  auto s = NewRace(2);
  ASSERT_TRUE(s->ApplyText(0, "choose: true").ok());
  const std::string before = s->Serialize();
  EXPECT_EQ(s->Apply(1, *Number(*s, 1, 5)).code(), codes::kBadAnswer);
  v1::Answer borrowed;
  borrowed.set_prompt_id(s->Prompts(0)[0].id());
  borrowed.set_number(1);
  EXPECT_EQ(s->Apply(1, *Race().WrapAnswer(borrowed)).code(), codes::kStalePrompt);
  EXPECT_EQ(s->ApplyText(0, "step: 1").code(), codes::kAnswerFirst);
  EXPECT_EQ(s->Serialize(), before);
  ASSERT_TRUE(s->Apply(1, *Number(*s, 1, 0)).ok());
  EXPECT_EQ(s->Apply(1, *Number(*s, 0, 0)).code(), codes::kNotYourTurn)
      << "answered: seat 1 is asked nothing more";
  EXPECT_EQ(s->ActingSeats(), std::vector<int>{0});
}

// Each question open alongside reaches its own seat's view only, and a bot's sample of one seat
// keeps its view while the other seat's question stays asked.
TEST(DecisionQueue, AQuestionAskedAlongsideIsNotInAnotherSeatsView) {
  auto s = NewRace(3);
  ASSERT_TRUE(s->ApplyText(0, "choose: true").ok());
  ASSERT_TRUE(s->Apply(2, *Number(*s, 2, 2)).ok());  // seat 2's follow-up is asked
  for (int seat = 0; seat < 3; ++seat) {
    const auto view = s->View(seat);
    const auto& prompts = AsView(view).table().prompts();
    ASSERT_EQ(prompts.size(), 1) << seat;
    EXPECT_EQ(prompts[0].id(), s->Prompts(seat)[0].id());
    EXPECT_EQ(prompts[0].seat(), seat);
  }
  EXPECT_EQ(AsView(s->View(2)).table().prompts(0).kind(), v1::PROMPT_YES_NO);
  EXPECT_EQ(AsView(s->View(kSpectator)).table().prompts_size(), 0);
  for (int seat = 0; seat < 3; ++seat)
    for (uint64_t salt = 1; salt <= 4; ++salt)
      EXPECT_EQ(DeterministicBytes(*s->PerturbHidden(seat, salt)->View(seat)),
                DeterministicBytes(*s->View(seat)));
}

// A timer's default for each seat answers that seat's own question (its own id, its policy); a
// resigned seat's question is answered for it at once while the others keep theirs.
TEST(DecisionQueue, DefaultsAnswerEachSeatsOwnQuestionAlongside) {
  auto s = NewRace(3);
  ASSERT_TRUE(s->ApplyText(0, "choose: true").ok());
  ASSERT_TRUE(s->Apply(1, *Number(*s, 1, 2)).ok());
  auto first = s->DefaultAction(0);
  auto again = s->DefaultAction(1);
  ASSERT_NE(first, nullptr);
  ASSERT_NE(again, nullptr);
  EXPECT_EQ(Race().CoreOf(*first)->answer().prompt_id(), s->Prompts(0)[0].id());
  EXPECT_EQ(Race().CoreOf(*first)->answer().number(), 0) << "the plainest number";
  EXPECT_EQ(Race().CoreOf(*again)->answer().prompt_id(), s->Prompts(1)[0].id());
  EXPECT_FALSE(Race().CoreOf(*again)->answer().yes()) << "the pass default: no";
  ASSERT_TRUE(s->Apply(1, *again, /*timed_out=*/true).ok());
  EXPECT_EQ(s->position().pos(1), 2u);
  v1::CoreAction resign;
  resign.mutable_resign();
  q::Action quit;
  *quit.mutable_core() = resign;
  ASSERT_TRUE(s->Apply(2, quit).ok());
  EXPECT_EQ(s->position().pos(2), 0u) << "answered 0 for the resigned seat";
  EXPECT_EQ(s->ActingSeats(), std::vector<int>{0});
  ASSERT_TRUE(s->Apply(0, *first).ok());
  EXPECT_EQ(s->OpenDecision(), nullptr);
}

// A seat's second question asked alongside waits behind its first, and a decision asked the
// usual way holds back those asked alongside after it: a reaction in front interrupts them.
TEST(DecisionQueue, AlongsideDecisionsWaitForTheirSeatsEarlierOneAndForAnInterruption) {
  auto s = NewRace(2);
  ASSERT_TRUE(s->ApplyText(0, "choose: true").ok());
  auto* queue = s->mutable_queue();
  // Seat 1's second choice, queued as a game asking twice would queue it.
  v1::Decision second = queue->Get(1);
  second.mutable_prompts(0)->set_id("p1.9");
  *queue->Add() = second;
  EXPECT_EQ(s->Prompts(1)[0].id(), "p1.0") << "its first question first";
  ASSERT_TRUE(s->Apply(1, *Number(*s, 1, 0)).ok());
  EXPECT_EQ(s->Prompts(1)[0].id(), "p1.9") << "then its second";
  // A decision not asked alongside, first in the queue, is the only one open.
  v1::Decision interrupt = queue->Get(0);
  interrupt.set_alongside(false);
  interrupt.mutable_prompts(0)->set_id("p0.9");
  queue->Add(std::move(interrupt));
  for (int i = queue->size() - 1; i > 0; --i) queue->SwapElements(i, i - 1);
  EXPECT_EQ(s->ActingSeats(), std::vector<int>{0});
  EXPECT_EQ(s->Prompts(0)[0].id(), "p0.9");
  EXPECT_TRUE(s->Prompts(1).empty()) << "held back by the decision in front";
}

// An open question is worded as the position stands now: its narrowed options reach the seat's
// view, the answer's checks, the legal answers and the defaults, under the id it was asked with.
TEST(DecisionQueue, AnOpenQuestionIsWordedAsThePositionStandsNow) {
  auto s = NewRace(2);
  ASSERT_TRUE(s->ApplyText(0, "choose: true").ok());
  ASSERT_EQ(s->LegalActions(1).size(), 3u);
  s->choose_max = 1;
  ASSERT_EQ(s->Prompts(1).size(), 1u);
  EXPECT_EQ(s->Prompts(1)[0].max(), 1);
  EXPECT_EQ(s->Prompts(1)[0].id(), "p1.0");
  EXPECT_EQ(AsView(s->View(1)).table().prompts(0).max(), 1);
  EXPECT_EQ(s->LegalActions(1).size(), 2u);
  const std::string before = s->Serialize();
  EXPECT_EQ(s->Apply(1, *Number(*s, 1, 2)).code(), codes::kBadAnswer) << "no longer offered";
  EXPECT_EQ(s->Serialize(), before);
  ASSERT_TRUE(s->Apply(1, *Number(*s, 1, 1)).ok());
  EXPECT_EQ(s->position().pos(1), 1u);
}

// The rules may answer a seat's open question themselves: applied as the seat's answer would be
// (at once, its follow-up asked), with no action of the seat's in the history.
TEST(DecisionQueue, TheRulesMayAnswerAnOpenQuestionThemselves) {
  auto s = NewRace(2);
  ASSERT_TRUE(s->ApplyText(0, "choose: true").ok());
  const size_t played = s->History().size();
  s->Decide(1, 2);
  EXPECT_EQ(s->position().pos(1), 2u);
  EXPECT_EQ(s->History().size(), played);
  ASSERT_EQ(s->Prompts(1).size(), 1u) << "its follow-up";
  EXPECT_EQ(s->Prompts(1)[0].id(), "p1.1");
  EXPECT_EQ(s->Prompts(0)[0].id(), "p0.0") << "the other seat still has its question";
  EXPECT_EQ(s->ActingSeats(), (std::vector<int>{0, 1}));
}

}  // namespace
}  // namespace plateau::engine
