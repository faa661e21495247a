// LIMIT's published moves (Table.moves): a card first, then its choices, every leaf and every
// member of a family leaf a play the rules accept, the edges of each range refused one step past
// it; and games played from views alone, by the easy bot reading those moves, reach their end.
#include <gtest/gtest.h>

#include <google/protobuf/text_format.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "engine/core/bot.h"
#include "engine/core/families.h"
#include "engine/core/registry.h"
#include "engine/core/rng.h"
#include "engine/core/table.h"
#include "engine/games/limit/limit.h"
#include "tests/games/limit/support.h"

namespace plateau::games::limit {
namespace {

using support::CardId;
using support::Game;
using support::PoliticalTurn;

std::unique_ptr<LimitState> NewState(int seats, uint64_t seed) {
  auto s = Game().NewGame(seats, "", seed);
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return std::unique_ptr<LimitState>(static_cast<LimitState*>(s.value().release()));
}

View ViewOf(const LimitState& s, int seat) { return static_cast<const View&>(*s.View(seat)); }

const engine::v1::MoveChoice* Child(const google::protobuf::RepeatedPtrField<engine::v1::MoveChoice>& level,
                                    const std::string& key) {
  for (const auto& c : level)
    if (c.key() == key) return &c;
  return nullptr;
}

// The action at the end of `keys`, rebuilt from the parts on the way (MoveChoice.action).
Action ActionOf(const google::protobuf::RepeatedPtrField<engine::v1::MoveChoice>& roots,
                const std::vector<std::string>& keys) {
  Action a;
  EXPECT_TRUE(a.ParseFromString(engine::MoveActionAt(roots, keys)));
  return a;
}

std::set<std::string> Bytes(const std::vector<std::unique_ptr<engine::Message>>& actions) {
  std::set<std::string> out;
  for (const auto& a : actions) out.insert(engine::DeterministicBytes(*a));
  return out;
}

TEST(LimitPublishedMoves, ACardFirstThenItsChoices) {
  auto s = NewState(3, 5);
  PoliticalTurn(*s, 0, {"schooling", "military_operation", "political_reform"});
  auto& n = *s->mutable_proto().mutable_nations(0);
  n.set_money(30);
  n.set_military(7);
  for (int k = 0; k < 5; ++k) n.set_classes(k, 4 - (k > 2 ? 2 : k));  // 4 3 2 2 2
  const View view = ViewOf(*s, 0);
  const auto& moves = view.table().moves();
  ASSERT_NE(Child(moves, "pass"), nullptr);
  EXPECT_TRUE(ActionOf(moves, {"pass"}).has_pass());

  // Schooling raises one class: only B, C (both below the class above) can; the card is the
  // root, its target the card itself, and each class leads to the play.
  const auto* school = Child(moves, std::to_string(CardId("schooling")));
  ASSERT_NE(school, nullptr);
  EXPECT_EQ(school->key_target(), engine::v1::KEY_TARGET_CARD) << "the card named by its key";
  std::set<std::string> classes;
  for (const auto& c : school->next()) classes.insert(c.key());
  EXPECT_EQ(classes, (std::set<std::string>{"B", "C"}));
  // A choice followed only by the play is that play.
  const Action raise = ActionOf(moves, {school->key(), "C"});
  ASSERT_EQ(raise.play_card().classes_size(), 1);
  EXPECT_EQ(raise.play_card().classes(0), 2u);
  // The card's id goes once, on its node; a class's node adds only the class, and the class's
  // words are shared on the card's node (next_label), each class keeping its own name.
  Action part;
  ASSERT_TRUE(part.ParseFromString(school->action()));
  EXPECT_EQ(part.play_card().card(), static_cast<uint32_t>(CardId("schooling")));
  EXPECT_EQ(part.play_card().classes_size(), 0);
  ASSERT_TRUE(part.ParseFromString(Child(school->next(), "C")->action()));
  EXPECT_EQ(part.play_card().card(), 0u);
  ASSERT_EQ(part.play_card().classes_size(), 1);
  EXPECT_EQ(school->next_label().key(), "limit.class");
  EXPECT_EQ(engine::MoveWords(school, *Child(school->next(), "C")).key(), "limit.class");

  // A war card: a target, then every commitment from the minimum (3) to the whole stock (7) as
  // one family leaf; one more than the stock is refused.
  const auto* war = Child(moves, std::to_string(CardId("military_operation")));
  ASSERT_NE(war, nullptr);
  const auto* target = Child(war->next(), "2");
  ASSERT_NE(target, nullptr);
  EXPECT_EQ(target->key_target(), engine::v1::KEY_TARGET_SEAT) << "the nation named by its key";
  const auto* loot = target->next(0).next_size() > 0 ? &target->next(0) : nullptr;
  ASSERT_NE(loot, nullptr) << "the loot's resource is chosen after the target";
  const auto& commit = loot->next(0);
  ASSERT_EQ(commit.params_size(), 1);
  EXPECT_EQ(commit.params(0).path(), "play_card.military");
  EXPECT_EQ(commit.params(0).min(), 3);
  EXPECT_EQ(commit.params(0).max(), 7);
  Action more = ActionOf(moves, {war->key(), "2", loot->key(), commit.key()});
  more.mutable_play_card()->set_military(8);
  EXPECT_FALSE(s->Validate(0, more).ok());

  // Political reform: one leaf per deck that still has cards.
  n.mutable_decks(1)->clear_cards();
  const View after = ViewOf(*s, 0);
  const auto* reform = Child(after.table().moves(), std::to_string(CardId("political_reform")));
  ASSERT_NE(reform, nullptr);
  EXPECT_NE(Child(reform->next(), "d1"), nullptr);
  EXPECT_EQ(Child(reform->next(), "d2"), nullptr);

  // Only the nation whose turn it is has moves; a spectator never.
  EXPECT_TRUE(ViewOf(*s, 1).table().moves().empty());
  EXPECT_TRUE(ViewOf(*s, engine::kSpectator).table().moves().empty());
}

TEST(LimitPublishedMoves, TransactionsUpToWhatThePaymentLeaves) {
  auto s = NewState(2, 3);
  PoliticalTurn(*s, 0, {"market_access"});
  auto& p = s->mutable_proto();
  p.mutable_nations(0)->set_military(3);
  p.mutable_nations(0)->set_money(9);
  const View view = ViewOf(*s, 0);
  const auto* market = Child(view.table().moves(), std::to_string(CardId("market_access")));
  ASSERT_NE(market, nullptr);
  ASSERT_NE(Child(market->next(), "none"), nullptr);
  const auto* sell = Child(market->next(), "s3");
  ASSERT_NE(sell, nullptr);
  ASSERT_EQ(sell->params_size(), 1);
  // The quantity is every transaction leaf's param: its path goes once, on the card.
  EXPECT_EQ(sell->params(0).path(), "");
  ASSERT_EQ(market->next_paths_size(), 1);
  EXPECT_EQ(market->next_paths(0), "play_card.transactions.quantity");
  EXPECT_EQ(sell->params(0).max(), 3) << "the whole military stock";
  const auto* buy = Child(market->next(), "b2");
  ASSERT_NE(buy, nullptr);
  ASSERT_EQ(buy->params_size(), 1);
  // Every quantity offered is accepted, one more is refused.
  Action edge = ActionOf(view.table().moves(), {market->key(), "b2"});
  const uint32_t top = static_cast<uint32_t>(buy->params(0).max());
  edge.mutable_play_card()->mutable_transactions(0)->set_quantity(top);
  EXPECT_TRUE(s->Validate(0, edge).ok());
  edge.mutable_play_card()->mutable_transactions(0)->set_quantity(top + 1);
  EXPECT_FALSE(s->Validate(0, edge).ok());
  // A family leaf's members are its quantities, each accepted.
  engine::v1::ActionFamily family;
  family.set_base(engine::MoveActionAt(view.table().moves(), {market->key(), "b2"}));
  *family.mutable_params() = buy->params();
  family.mutable_params(0)->set_path(market->next_paths(0));
  const auto members = engine::EnumerateFamily(Action(), family, 100);
  ASSERT_EQ(members.size(), top);
  for (const auto& m : members) EXPECT_TRUE(s->Validate(0, *m).ok());
}

// Plays a game to its end from views alone through the easy bot; the first move it proposes
// from published moves is always accepted, and every action the rules list is published.
void PlayFromViews(int seats, bool alliances, uint64_t seed) {
  const LimitGame& game = Game();
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
    auto moves = engine::BotMoves(game, view, seat, engine::BotLevel::kEasy, rng);
    ASSERT_FALSE(moves.empty()) << "seat " << seat << " acts but its view offers nothing";
    const bool asked = view.table().prompts_size() > 0;
    if (!asked) {
      const auto published = Bytes(engine::PublishedActions(game, view));
      for (const auto& legal : state->LegalActions(seat))
        EXPECT_TRUE(published.count(engine::DeterministicBytes(*legal)) > 0)
            << game.ActionToText(*legal) << " is legal but not published";
      ASSERT_TRUE(state->Apply(seat, *moves[0]).ok()) << game.ActionToText(*moves[0]);
      continue;
    }
    bool applied = false;
    for (const auto& m : moves) {
      if (state->Apply(seat, *m).ok()) {
        applied = true;
        break;
      }
    }
    ASSERT_TRUE(applied) << "seat " << seat << ": no answer the bot gave was accepted";
  }
}

TEST(LimitPublishedMoves, GamesPlayedFromViewsAloneEnd) {
  PlayFromViews(3, false, 1);
  PlayFromViews(4, true, 2);
}

TEST(LimitPublishedMoves, SoloGamePlayedFromViewsAloneEnds) { PlayFromViews(1, false, 3); }

}  // namespace
}  // namespace plateau::games::limit
