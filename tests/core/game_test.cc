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
  }
  std::vector<int> ActingSeats() const override {
    if (IsTerminal()) return {};
    return {s_.to_move()};
  }
  bool IsTerminal() const override { return s_.winner() >= 0; }
  std::vector<int64_t> Scores() const override {
    std::vector<int64_t> s(num_seats(), 0);
    if (s_.winner() >= 0) s[s_.winner()] = 1;
    return s;
  }
  std::unique_ptr<State> PerturbHidden(int, uint64_t) const override { return Clone(); }

 protected:
  Status TypedValidate(int, const nim::Action& a) const override {
    if (a.take() < 1 || a.take() > 3) return Status("bad_take", "Take 1, 2 or 3 stones.");
    if (a.take() > s_.stones()) return Status("not_enough", "Not that many stones left.");
    return Status::Ok();
  }
  void TypedApply(int seat, const nim::Action& a) override {
    s_.set_stones(s_.stones() - a.take());
    if (s_.stones() == 0) s_.set_winner(seat);
    s_.set_to_move((seat + 1) % num_seats());
  }
  std::vector<nim::Action> TypedLegalActions(int) const override {
    std::vector<nim::Action> out;
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
  ASSERT_TRUE(s.ApplyText(1, "take: 2").ok());
  ASSERT_TRUE(s.ApplyText(2, "take: 2").ok());
  EXPECT_TRUE(s.IsTerminal());
  EXPECT_EQ(s.ApplyText(0, "take: 1").code(), codes::kGameOver);
  ASSERT_EQ(s.History().size(), 3u);
  auto replayed = g.Replay(3, "", 9, s.History());
  ASSERT_TRUE(replayed.ok()) << replayed.status().ToString();
  EXPECT_EQ(replayed.value()->Serialize(), s.Serialize());
  EXPECT_EQ(s.Ranks(), (std::vector<int>{2, 2, 1}));
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
