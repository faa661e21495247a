// Guerre Froide's published moves (Table.moves): a group, then what its power acts on, then where
// a political group sends it; an event, then its groups; keyed by ids so a choice that stays open
// keeps its key; only the seat that acts gets any. And games played from views alone, by the easy
// bot over those moves, reach their end with every struggle ending.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "engine/core/bot.h"
#include "engine/core/rng.h"
#include "engine/core/table.h"
#include "tests/games/guerre_froide/support.h"

namespace plateau::games::guerre_froide::rule_test {
namespace {

using Choices = google::protobuf::RepeatedPtrField<engine::v1::MoveChoice>;

std::vector<std::string> Keys(const Choices& choices) {
  std::vector<std::string> out;
  for (const auto& c : choices) out.push_back(c.key());
  return out;
}

// The choice reached by `path` (keys from the root), or null.
const engine::v1::MoveChoice* Find(const Choices& roots, const std::vector<std::string>& path) {
  const Choices* level = &roots;
  const engine::v1::MoveChoice* found = nullptr;
  for (const auto& key : path) {
    found = nullptr;
    for (const auto& c : *level) {
      if (c.key() == key) found = &c;
    }
    if (found == nullptr) return nullptr;
    level = &found->next();
  }
  return found;
}

// The words of the choice at the end of `path`: its own, or those its step shares.
engine::v1::Text WordsAt(const Choices& roots, const std::vector<std::string>& path) {
  const auto* node = Find(roots, path);
  if (node == nullptr) return {};
  const std::vector<std::string> up(path.begin(), path.end() - 1);
  return engine::MoveWords(up.empty() ? nullptr : Find(roots, up), *node);
}

View ViewOf(const engine::State& state, int seat) {
  return static_cast<const View&>(*state.View(seat));
}

std::string Bytes(const Action& a) { return engine::DeterministicBytes(a); }

// The action at the end of `path`, rebuilt from the parts on the way (MoveChoice.action).
std::string ActionAt(const Choices& roots, const std::vector<std::string>& path) {
  Action a;
  if (!a.ParseFromString(engine::MoveActionAt(roots, path))) return "not an action";
  return Bytes(a);
}

std::set<std::string> AsBytes(const std::vector<std::unique_ptr<engine::Message>>& actions) {
  std::set<std::string> out;
  for (const auto& a : actions) out.insert(engine::DeterministicBytes(*a));
  return out;
}

// Seat 0 (Guerrillas, military; Students, political) against seat 1 (Mafia, economic; Cinema,
// media) on Cuba, seat 0 to act.
internal::StateProto FourGroups() {
  internal::StateProto s = Struggle(2, "cuba", 0);
  Give(s, 0, "guerrillas");
  Give(s, 0, "students");
  Give(s, 1, "mafia");
  Give(s, 1, "cinema");
  Agent(s, 0, AGENT_DIRECTOR);
  Agent(s, 1, AGENT_DIRECTOR);
  return s;
}

TEST(GuerreFroidePublishedMoves, AGroupThenItsTargetThenASeat) {
  auto state = Load(FourGroups());
  const View view = ViewOf(*state, 0);
  const Choices& moves = view.table().moves();
  EXPECT_EQ(Keys(moves), (std::vector<std::string>{"recruit", "pass", "guerrillas",
                                                   "students"}));
  EXPECT_EQ(ActionAt(moves, {"recruit"}), Bytes(Recruit()));
  EXPECT_EQ(Find(moves, {"pass"})->label().key(), "guerre_froide.m.pass");

  // A military group discards any other group in play: each a leaf, targeting that card.
  const auto* military = Find(moves, {"guerrillas"});
  ASSERT_NE(military, nullptr);
  // The card is named by the key alone (key_target), not a second time in the target.
  EXPECT_EQ(military->key_target(), engine::v1::KEY_TARGET_CARD);
  EXPECT_FALSE(military->has_target());
  EXPECT_EQ(engine::MoveTarget(*military).card(), "guerrillas");
  EXPECT_EQ(military->label().key(), "guerre_froide.m.activate");
  EXPECT_EQ(Keys(military->next()), (std::vector<std::string>{"students", "mafia", "cinema"}));
  const auto& on_mafia = military->next(1);
  EXPECT_EQ(engine::MoveTarget(on_mafia).card(), "mafia");
  const engine::v1::Text discard = WordsAt(moves, {"guerrillas", "mafia"});
  EXPECT_EQ(discard.key(), "guerre_froide.m.discard");
  EXPECT_EQ(discard.args(0).name(), "Mafia");
  // The words every target shares go once, on the group's node; each target carries its name.
  EXPECT_EQ(military->next_label().key(), "guerre_froide.m.discard");
  EXPECT_EQ(on_mafia.label().key(), "");
  EXPECT_EQ(ActionAt(moves, {"guerrillas", "mafia"}), Bytes(Activate("guerrillas", "mafia")));
  // The group's id goes once, on the group's node; each target's node adds only the target.
  Action part;
  ASSERT_TRUE(part.ParseFromString(military->action()));
  EXPECT_EQ(part.activate().group(), "guerrillas");
  EXPECT_EQ(part.activate().target(), "");
  ASSERT_TRUE(part.ParseFromString(on_mafia.action()));
  EXPECT_EQ(part.activate().group(), "");
  EXPECT_EQ(part.activate().target(), "mafia");
  EXPECT_TRUE(on_mafia.next().empty());

  // A political group takes an opponent's group, or gives one of the mover's: then a seat.
  const auto* political = Find(moves, {"students"});
  ASSERT_NE(political, nullptr);
  EXPECT_EQ(Keys(political->next()), (std::vector<std::string>{"guerrillas", "mafia", "cinema"}));
  const auto* give = Find(moves, {"students", "guerrillas", "1"});
  ASSERT_NE(give, nullptr);
  EXPECT_EQ(Find(moves, {"students", "guerrillas"})->next_size(), 1);
  EXPECT_EQ(give->key_target(), engine::v1::KEY_TARGET_SEAT);
  EXPECT_EQ(engine::MoveTarget(*give).seat(), 1);
  EXPECT_EQ(WordsAt(moves, {"students", "guerrillas", "1"}).key(), "guerre_froide.m.give");
  EXPECT_EQ(ActionAt(moves, {"students", "guerrillas", "1"}),
            Bytes(Activate("students", "guerrillas", 1)));
  const auto* take = Find(moves, {"students", "cinema", "0"});
  ASSERT_NE(take, nullptr);
  EXPECT_EQ(WordsAt(moves, {"students", "cinema", "0"}).key(), "guerre_froide.m.take");
  EXPECT_EQ(ActionAt(moves, {"students", "cinema", "0"}), Bytes(Activate("students", "cinema", 0)));

  // The seat that waits and a spectator are offered nothing.
  EXPECT_TRUE(ViewOf(*state, 1).table().moves().empty());
  EXPECT_TRUE(ViewOf(*state, engine::kSpectator).table().moves().empty());
}

TEST(GuerreFroidePublishedMoves, KeysNameCardsSoAnOpenChoiceKeepsItsKey) {
  auto state = Load(FourGroups());
  const std::vector<std::string> take_cinema = {"students", "cinema", "0"};
  const std::string before = ActionAt(ViewOf(*state, 0).table().moves(), take_cinema);
  // Mafia, listed before Cinema, leaves the table: Cinema moves up a place, not its key.
  Play(*state, 0, Activate("guerrillas", "mafia"));
  Play(*state, 1, Recruit());
  const View after = ViewOf(*state, 0);
  const auto* still = Find(after.table().moves(), take_cinema);
  ASSERT_NE(still, nullptr);
  EXPECT_EQ(ActionAt(after.table().moves(), take_cinema), before);
  EXPECT_EQ(Find(after.table().moves(), {"guerrillas"}), nullptr) << "it is mobilized";
  EXPECT_EQ(Find(after.table().moves(), {"students", "mafia"}), nullptr);
}

TEST(GuerreFroidePublishedMoves, NuclearEscalationThenOneGroupThenAnotherOrNone) {
  internal::StateProto s = FourGroups();
  Hold(s, 0, "nuclear_escalation");
  auto state = Load(s);
  const View view = ViewOf(*state, 0);
  const auto* use = Find(view.table().moves(), {"nuclear_escalation"});
  ASSERT_NE(use, nullptr);
  EXPECT_EQ(engine::MoveTarget(*use).card(), "nuclear_escalation");
  EXPECT_EQ(Keys(use->next()),
            (std::vector<std::string>{"guerrillas", "students", "mafia", "cinema"}));
  EXPECT_EQ(Keys(use->next(2).next()),
            (std::vector<std::string>{"none", "guerrillas", "students", "cinema"}));
  EXPECT_EQ(ActionAt(view.table().moves(), {"nuclear_escalation", "mafia", "none"}),
            Bytes(Use("nuclear_escalation", {"mafia"})));
  EXPECT_EQ(ActionAt(view.table().moves(), {"nuclear_escalation", "mafia", "cinema"}),
            Bytes(Use("nuclear_escalation", {"mafia", "cinema"})));
}

TEST(GuerreFroidePublishedMoves, PlanningOffersTheAgentsInHeadquarters) {
  internal::StateProto s = Struggle(2, "cuba", 0);
  s.set_phase(PHASE_PLANNING);
  s.set_to_act(-1);
  Remove(s.mutable_seats(0)->mutable_hq(), AGENT_ASSASSIN);
  s.mutable_seats(0)->add_leave(AGENT_ASSASSIN);
  auto state = Load(s);
  const View view = ViewOf(*state, 0);
  const auto* agent = Find(view.table().moves(), {"agent"});
  ASSERT_NE(agent, nullptr);
  EXPECT_EQ(Keys(agent->next()), (std::vector<std::string>{"master_spy", "deputy_director",
                                                           "double_agent", "analyst", "director"}));
  EXPECT_EQ(ActionAt(view.table().moves(), {"agent", "master_spy"}), Bytes(Choose(AGENT_MASTER_SPY)));
  // Both choose at once: each its own agents.
  EXPECT_NE(Find(ViewOf(*state, 1).table().moves(), {"agent", "assassin"}), nullptr);
}

TEST(GuerreFroidePublishedMoves, TheBalanceHolderChoosesWhoOpens) {
  internal::StateProto s = Struggle(3, "cuba", -1);
  auto state = Load(s);
  const View view = ViewOf(*state, 0);
  const auto* first = Find(view.table().moves(), {"first"});
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(Keys(first->next()), (std::vector<std::string>{"0", "1", "2"}));
  EXPECT_EQ(engine::MoveTarget(first->next(2)).seat(), 2);
  EXPECT_EQ(ActionAt(view.table().moves(), {"first", "2"}), Bytes(First(2)));
}

// The easy bot's plain strategy: no pass while a group still fits, only a pass once none does.
TEST(GuerreFroidePublishedMoves, TheEasyBotBuildsThenPasses) {
  const engine::Game& game = Game();
  engine::Rng rng(3);
  internal::StateProto s = FourGroups();  // influence 1 + 1 on Cuba (10): room for a group
  Hold(s, 0, "nuclear_escalation");
  auto building = Load(s);
  const auto view = building->View(0);
  const auto moves = engine::BotMoves(game, *view, 0, engine::BotLevel::kEasy, rng);
  ASSERT_FALSE(moves.empty());
  for (const auto& m : moves) {
    const auto& a = static_cast<const Action&>(*m);
    EXPECT_FALSE(a.has_pass());
    EXPECT_LE(a.use_event().groups_size(), 1) << "escalating on two groups crowds out the rest";
  }
  EXPECT_TRUE(AsBytes(moves).count(Bytes(Recruit())));

  Give(s, 0, "army");  // three groups, Cuba's most, at 8 of its 10: no group would fit
  auto full = Load(s);
  const auto passing = engine::BotMoves(game, *full->View(0), 0, engine::BotLevel::kEasy, rng);
  ASSERT_EQ(passing.size(), 1u);
  EXPECT_EQ(engine::DeterministicBytes(*passing[0]), Bytes(Pass()));
}

// Plays a game from the seats' views only: each acting seat's published moves are exactly its
// legal actions, the easy bot's first proposal is accepted, and each struggle ends.
void PlayFromViews(int seats, uint64_t seed) {
  const engine::Game& game = Game();
  std::unique_ptr<engine::State> state = game.NewGame(seats, "", seed).value();
  engine::Rng rng(seed);
  int steps = 0;
  int struggle_actions = 0;
  while (!state->IsTerminal()) {
    ASSERT_LT(++steps, 5000) << "the game does not end";
    const std::vector<int> acting = state->ActingSeats();
    const int seat = acting[rng.Below(acting.size())];
    const auto message = state->View(seat);
    const auto& view = static_cast<const View&>(*message);
    if (view.table().prompts_size() == 0) {
      EXPECT_EQ(AsBytes(engine::PublishedActions(game, view)), AsBytes(state->LegalActions(seat)))
          << "step " << steps;
    } else {
      EXPECT_TRUE(view.table().moves().empty()) << "an answer is not a move";
    }
    for (int other = 0; other < seats; ++other) {
      if (std::find(acting.begin(), acting.end(), other) != acting.end()) continue;
      EXPECT_TRUE(ViewOf(*state, other).table().moves().empty()) << "seat " << other << " waits";
    }
    const auto moves = engine::BotMoves(game, view, seat, engine::BotLevel::kEasy, rng);
    ASSERT_FALSE(moves.empty()) << "seat " << seat << " acts but its view offers nothing";
    const bool struggle = view.phase() == PHASE_STRUGGLE;
    if (view.table().prompts_size() > 0) {
      // A drawn answer, then the plainest: tried in order, as a server does.
      bool answered = false;
      for (const auto& m : moves) answered = answered || state->Apply(seat, *m).ok();
      ASSERT_TRUE(answered);
    } else {
      engine::Status st = state->Apply(seat, *moves[0]);
      ASSERT_TRUE(st.ok()) << st.reason();
    }
    struggle_actions = struggle ? struggle_actions + 1 : 0;
    ASSERT_LT(struggle_actions, 200) << "a struggle does not end";
    if (::testing::Test::HasFailure()) return;
  }
}

TEST(GuerreFroidePublishedMoves, TwoPlayersPlayToTheEndFromTheirViews) {
  for (uint64_t seed = 1; seed <= 5; ++seed) PlayFromViews(2, seed);
}

TEST(GuerreFroidePublishedMoves, ThreePlayersPlayToTheEndFromTheirViews) {
  for (uint64_t seed = 1; seed <= 5; ++seed) PlayFromViews(3, seed);
}

}  // namespace
}  // namespace plateau::games::guerre_froide::rule_test
