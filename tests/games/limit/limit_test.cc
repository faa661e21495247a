// LIMIT rule tests. Each test cites the rule-book section it checks (French book, section titles).
#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <google/protobuf/text_format.h>

#include "engine/core/registry.h"
#include "engine/games/limit/limit.h"
#include "tests/games/limit/support.h"

namespace plateau::games::limit {
namespace {

using engine::Registry;

using support::CardId;
using support::Game;
using support::ChoiceCount;
using support::ChoicesOf;
using support::ClearQuestions;
using support::PoliticalTurn;

std::unique_ptr<LimitState> NewState(int seats, uint64_t seed = 7, bool first_game = false) {
  Options o;
  o.set_first_game(first_game);
  std::string bytes;
  o.SerializeToString(&bytes);
  auto s = Game().NewGame(seats, bytes, seed);
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return std::unique_ptr<LimitState>(static_cast<LimitState*>(s.value().release()));
}

Action Text(const std::string& text) {
  Action a;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &a)) << text;
  return a;
}

void SetClasses(internal::NationState* n, std::vector<uint32_t> lv) {
  for (int i = 0; i < 5; ++i) n->set_classes(i, lv[i]);
}

const Prompt* FindPrompt(const View& v, PromptKind kind) {
  for (const auto& p : v.prompts())
    if (p.kind() == kind) return &p;
  return nullptr;
}

// ----- Setup (Mise en place) -----

TEST(LimitSetup, NationBoardAndReserves) {
  auto s = NewState(3);
  const auto& p = s->proto();
  for (const auto& n : p.nations()) {
    // "vous avez donc en stock 8 fossiles, 2 renouvelables, 1 industrielle, 0 militaire et 5 $"
    EXPECT_EQ(n.fossil(), 8u);
    EXPECT_EQ(n.renewable(), 2u);
    EXPECT_EQ(n.industrial(), 1u);
    EXPECT_EQ(n.military(), 0u);
    EXPECT_EQ(n.money(), 5u);
    EXPECT_EQ(n.territories(), 5u);
    EXPECT_EQ(n.pop_rank(), 2u);
    EXPECT_EQ(n.renewable_rank(), 2u);
    EXPECT_EQ(n.disorder(), 5u);  // centre of the 11 positions
    // Starting hand: the four starting cards; three technology cards set aside.
    EXPECT_EQ(n.hand_size(), 4);
    EXPECT_EQ(n.set_aside_size(), 3);
    for (const auto& d : n.decks()) EXPECT_EQ(d.cards_size(), 10);
  }
  // 109 $ per nation in the World Bank; reserves 6+3N pollution, 6+2N destabilisation.
  EXPECT_EQ(p.bank(), 3u * 109u);
  EXPECT_EQ(p.pollution_reserve(), 15u);
  EXPECT_EQ(p.destabilisation_reserve(), 12u);
  EXPECT_EQ(p.colonisation_territories(), 4u);
  EXPECT_EQ(p.colonisation_fossil(), 8u);
  EXPECT_EQ(p.market(0).position(), 2u);  // renewable cube on the 3rd position
  EXPECT_EQ(p.market(3).position(), 3u);  // the others on the 4th
}

TEST(LimitSetup, FirstGameStartsWithFourDollars) {
  // "Comment expliquer le jeu ?": 4 $ instead of 5 $.
  auto s = NewState(2, 1, true);
  EXPECT_EQ(s->proto().nations(0).money(), 4u);
  EXPECT_EQ(s->proto().bank(), 2u * 110u);
}

TEST(LimitSetup, SoloSetup) {
  // Mode solo, mise en place: star nation 5 T + 8 F + 40 $; reserves 1 T + 2 F, 3 P, 2 D.
  auto s = NewState(1);
  const auto& p = s->proto();
  EXPECT_TRUE(p.solo());
  EXPECT_EQ(p.star().territories(), 5u);
  EXPECT_EQ(p.star().fossil(), 8u);
  EXPECT_EQ(p.star().money(), 40u);
  EXPECT_EQ(p.colonisation_territories(), 1u);
  EXPECT_EQ(p.colonisation_fossil(), 2u);
  EXPECT_EQ(p.pollution_reserve(), 3u);
  EXPECT_EQ(p.destabilisation_reserve(), 2u);
  EXPECT_EQ(p.events_size(), 8);
}

// ----- Political phase -----

TEST(LimitPolitical, NewPolicyDrawFiveKeepOneRestUnderDeck) {
  // Nouvelle politique, class A at 1: draw 5, keep 1, the others under the deck in your order.
  auto s = NewState(2);
  ASSERT_EQ(s->ActingSeats().size(), 2u);
  ASSERT_TRUE(s->Apply(0, Text("choose_deck { deck: DECK_SOCIETY }")).ok());
  const auto drawn = s->proto().nations(0).drawn();
  ASSERT_EQ(drawn.size(), 5);
  EXPECT_EQ(s->proto().nations(0).decks(0).cards_size(), 5);
  // Keeping two is refused; keeping one without listing the rest too.
  EXPECT_EQ(s->Validate(0, Text("keep_cards { keep: [0, 1] bottom: [2, 3, 4] }")).code(),
            codes::kBadCards);
  EXPECT_EQ(s->Validate(0, Text("keep_cards { keep: [0] bottom: [2, 3, 4] }")).code(),
            codes::kBadCards);
  ASSERT_TRUE(s->Apply(0, Text("keep_cards { keep: [2] bottom: [4, 3, 1, 0] }")).ok());
  const auto& n = s->proto().nations(0);
  EXPECT_EQ(n.hand_size(), 5);
  EXPECT_EQ(n.hand(4), drawn[2]);
  ASSERT_EQ(n.decks(0).cards_size(), 9);
  EXPECT_EQ(n.decks(0).cards(5), drawn[4]);
  EXPECT_EQ(n.decks(0).cards(8), drawn[0]);
}

// The same decisions through the core's questions: the deck is a choice among the decks that
// still have cards, keeping is one order (the first ones kept, the others under the deck in that
// order), and each answer does exactly what the typed move does.
TEST(LimitDecisions, NewPolicyAnsweredThroughQuestions) {
  auto typed = NewState(2);
  auto asked = NewState(2);
  auto prompts = asked->Prompts(0);
  ASSERT_EQ(prompts.size(), 1u);
  EXPECT_EQ(prompts[0].kind(), engine::v1::PROMPT_CHOOSE);
  ASSERT_EQ(prompts[0].options_size(), 3);
  EXPECT_EQ(prompts[0].options(0).id(), "society");
  EXPECT_EQ(prompts[0].detail().key(), "limit.why.new_policy");
  engine::v1::Answer deck;
  deck.add_options("society");
  ASSERT_TRUE(asked->Apply(0, *Game().WrapAnswer(deck)).ok());
  ASSERT_TRUE(typed->Apply(0, Text("choose_deck { deck: DECK_SOCIETY }")).ok());

  prompts = asked->Prompts(0);
  ASSERT_EQ(prompts.size(), 1u);
  EXPECT_EQ(prompts[0].kind(), engine::v1::PROMPT_ORDER);
  EXPECT_EQ(prompts[0].title().key(), "limit.q.keep_one") << "one card kept: \"the first goes\"";
  ASSERT_EQ(prompts[0].options_size(), 5);
  // The drawn cards are named in their owner's question only.
  EXPECT_EQ(prompts[0].options(2).target().card(),
            std::to_string(asked->proto().nations(0).drawn(2)));
  EXPECT_TRUE(asked->Prompts(1).size() == 1 && asked->Prompts(1)[0].options(0).id() == "society");
  engine::v1::Answer order;
  for (const char* id : {"d2", "d4", "d3", "d1", "d0"}) order.add_options(id);
  ASSERT_TRUE(asked->Apply(0, *Game().WrapAnswer(order)).ok());
  ASSERT_TRUE(typed->Apply(0, Text("keep_cards { keep: [2] bottom: [4, 3, 1, 0] }")).ok());
  EXPECT_EQ(asked->proto().nations(0).DebugString(), typed->proto().nations(0).DebugString());
  // Refused answers change nothing and say why.
  engine::v1::Answer bad;
  bad.add_options("army");
  const std::string before = asked->Serialize();
  EXPECT_EQ(asked->Apply(1, *Game().WrapAnswer(bad)).code(), engine::codes::kBadAnswer);
  EXPECT_EQ(asked->Serialize(), before);
}

// What a timer plays: a pass on a political turn, never a card.
TEST(LimitDecisions, DefaultOnAPoliticalTurnIsToPass) {
  auto s = NewState(2);
  PoliticalTurn(*s, 0, {"public_spending"});
  auto a = s->DefaultAction(0);
  ASSERT_NE(a, nullptr);
  EXPECT_TRUE(static_cast<const Action&>(*a).has_pass());
  EXPECT_TRUE(s->Validate(0, *a).ok());
}

// Nations choose independently (Nouvelle politique): each nation's choice is its own decision of
// the core's queue, open beside the others', and each answer applies at once: nation 0 keeps its
// cards while nation 1 still chooses its deck.
TEST(LimitDecisions, NationsChooseAlongsideEachAnswerAppliedAtOnce) {
  auto s = NewState(2);
  for (int seat : {0, 1}) {
    const engine::v1::Decision* d = s->OpenDecisionOf(seat);
    ASSERT_NE(d, nullptr) << seat;
    EXPECT_EQ(d->kind(), PROMPT_CHOOSE_DECK);
    EXPECT_TRUE(d->alongside());
  }
  EXPECT_EQ(s->ActingSeats(), (std::vector<int>{0, 1}));
  const auto deck = s->Prompts(0);
  ASSERT_EQ(deck.size(), 1u);
  engine::v1::Answer a;
  a.set_prompt_id(deck[0].id());
  a.add_options(deck[0].options(0).id());
  ASSERT_TRUE(s->Apply(0, *Game().WrapAnswer(a)).ok());
  ASSERT_NE(s->OpenDecisionOf(0), nullptr);
  EXPECT_EQ(s->OpenDecisionOf(0)->kind(), PROMPT_KEEP_CARDS);
  EXPECT_GT(s->proto().nations(0).drawn_size(), 0);
  ASSERT_NE(s->OpenDecisionOf(1), nullptr);
  EXPECT_EQ(s->OpenDecisionOf(1)->kind(), PROMPT_CHOOSE_DECK);
  EXPECT_EQ(s->ActingSeats(), (std::vector<int>{0, 1}));
  // The keep question is nation 0's alone: nation 1 is still asked its deck.
  ASSERT_EQ(s->Prompts(0).size(), 1u);
  EXPECT_EQ(s->Prompts(0)[0].kind(), engine::v1::PROMPT_ORDER);
  EXPECT_NE(s->Prompts(0)[0].id(), deck[0].id());
  EXPECT_EQ(s->Prompts(1)[0].title().key(), "limit.q.deck");
}

// A bot samples what its seat cannot tell apart: two games that differ only in the order of
// nation 1's face-down deck, nation 1 then keeping from different draws, give nation 0 the same
// view and the same sample (the open keep question holds no card of the draw).
TEST(LimitDecisions, AnOpenChoiceKeepsNothingHiddenFromTheSample) {
  auto s = NewState(2);
  internal::StateProto other = s->proto();
  auto* deck = other.mutable_nations(1)->mutable_decks(0)->mutable_cards();
  ASSERT_GT(deck->size(), 5);
  std::reverse(deck->begin(), deck->end());
  auto loaded = Game().FromProto(other);
  ASSERT_TRUE(loaded.ok());
  std::unique_ptr<LimitState> t(static_cast<LimitState*>(loaded.value().release()));
  for (LimitState* x : {s.get(), t.get()}) {
    const auto q = x->Prompts(1);
    ASSERT_EQ(q.size(), 1u);
    engine::v1::Answer a;
    a.set_prompt_id(q[0].id());
    a.add_options("society");
    ASSERT_TRUE(x->Apply(1, *Game().WrapAnswer(a)).ok());
  }
  ASSERT_NE(s->proto().nations(1).drawn(0), t->proto().nations(1).drawn(0));
  ASSERT_EQ(engine::DeterministicBytes(*s->View(0)), engine::DeterministicBytes(*t->View(0)));
  EXPECT_EQ(s->SampleForSeat(0, 5)->Serialize(), t->SampleForSeat(0, 5)->Serialize());
}

// A class or factory choice that a later change leaves with one option is answered by the rules,
// through the core, with no move of the nation's: removing Intensive agriculture lowers the
// renewable factory to rank 1, so only the industrial one can still go down.
TEST(LimitDecisions, AChoiceLeftWithOneOptionIsAnsweredByTheRules) {
  auto s = NewState(2);
  auto& p = s->mutable_proto();
  ClearQuestions(p);
  p.set_phase(PHASE_SOCIAL);
  for (auto& n : *p.mutable_nations()) n.set_step(SOCIAL_STEP_DONE);
  auto& n = *p.mutable_nations(0);
  n.add_permanents(CardId("intensive_agriculture"));
  n.set_renewable_rank(2);
  n.set_industrial_rank(2);
  n.set_military_rank(1);
  auto* c = n.add_choices();
  c->set_kind(PROMPT_LOWER_FACTORY);
  c->set_count(1);
  auto loaded = Game().FromProto(internal::StateProto(p));
  ASSERT_TRUE(loaded.ok());
  s.reset(static_cast<LimitState*>(loaded.value().release()));
  ASSERT_EQ(s->Prompts(0).size(), 1u);
  ASSERT_EQ(s->Prompts(0)[0].options_size(), 2);
  ASSERT_TRUE(s->Apply(0, Text("remove_permanent { card: " +
                               std::to_string(CardId("intensive_agriculture")) + " }"))
                  .ok());
  EXPECT_EQ(s->proto().nations(0).renewable_rank(), 1u);
  EXPECT_EQ(s->proto().nations(0).industrial_rank(), 1u);
  EXPECT_EQ(s->History().size(), 1u);
  for (const auto& d : s->table().decisions()) EXPECT_NE(d.kind(), PROMPT_LOWER_FACTORY);
}

// A decision repeated (two standards of living to lower) is a new question each time: a late
// copy of the first answer cannot answer the second.
TEST(LimitDecisions, RepeatedDecisionGetsANewQuestionId) {
  auto s = NewState(2);
  auto& p = s->mutable_proto();
  ClearQuestions(p);
  p.set_phase(PHASE_POLITICAL_DECISIONS);
  p.set_turn(0);
  SetClasses(p.mutable_nations(0), {4, 3, 3, 2, 2});
  SetClasses(p.mutable_nations(1), {4, 3, 3, 2, 2});
  s->StartSocial(false);
  // Industrial shortage on nation 0: no industrial resources, two ranks to serve.
  p.mutable_nations(0)->set_industrial(0);
  p.mutable_nations(0)->set_pop_rank(3);
  s->Advance();
  auto first = s->Prompts(0);
  ASSERT_FALSE(first.empty()) << s->DebugString();
  ASSERT_EQ(first[0].title().key(), "limit.q.lower_class");
  ASSERT_GE(ChoicesOf(p, 0)[0].count(), 2u);
  engine::v1::Answer a;
  a.set_prompt_id(first[0].id());
  a.add_options(first[0].options(0).id());
  ASSERT_TRUE(s->Apply(0, *Game().WrapAnswer(a)).ok());
  auto second = s->Prompts(0);
  ASSERT_FALSE(second.empty());
  EXPECT_NE(second[0].id(), first[0].id());
  a.clear_options();
  a.add_options(second[0].options(0).id());
  EXPECT_EQ(s->Apply(0, *Game().WrapAnswer(a)).code(), engine::codes::kStalePrompt);
}

TEST(LimitPolitical, TechnologicalAdvanceAndHandLimit) {
  // Avancée technologique: class A at 3 gains Market access and Robotisation; Capacité d'action
  // politique: the hand limit is 7 at level 3; Nouvelle politique: 5 drawn, 2 kept.
  auto s = NewState(2);
  auto& p = s->mutable_proto();
  ClearQuestions(p);
  SetClasses(p.mutable_nations(0), {3, 1, 1, 1, 1});
  p.set_phase(PHASE_INTERNATIONAL);
  p.set_international_step(7);
  s->Advance();
  const auto& n = s->proto().nations(0);
  EXPECT_EQ(n.hand_size(), 6);  // 4 starting + 2 technology cards
  EXPECT_EQ(n.set_aside_size(), 1);
  EXPECT_EQ(n.hand_limit(), 7u);
  EXPECT_EQ(n.keep_count(), 2u);
  EXPECT_EQ(s->proto().nations(1).hand_limit(), 5u);
}

TEST(LimitPolitical, DiscardToHandLimitGoesUnderDecks) {
  auto s = NewState(2);
  auto& p = s->mutable_proto();
  p.mutable_nations(0)->set_hand_limit(3);
  ASSERT_TRUE(s->Apply(0, Text("choose_deck { deck: DECK_PRODUCTION }")).ok());
  ASSERT_TRUE(s->Apply(0, Text("keep_cards { keep: [0] bottom: [1, 2, 3, 4] }")).ok());
  ASSERT_TRUE(s->Apply(1, Text("choose_deck { deck: DECK_PRODUCTION }")).ok());
  ASSERT_TRUE(s->Apply(1, Text("keep_cards { keep: [0] bottom: [1, 2, 3, 4] }")).ok());
  // Seat 1 has 5 cards, limit 5: fine. Seat 0 must discard 2.
  ASSERT_EQ(s->ActingSeats(), std::vector<int>{0});
  const uint32_t a = s->proto().nations(0).hand(0), b = s->proto().nations(0).hand(1);
  EXPECT_EQ(s->Validate(0, Text("discard { cards: [" + std::to_string(a) + "] }")).code(),
            codes::kBadCards);
  ASSERT_TRUE(s->Apply(0, Text("discard { cards: [" + std::to_string(a) + ", " +
                               std::to_string(b) + "] }"))
                  .ok());
  EXPECT_EQ(s->proto().nations(0).hand_size(), 3);
  EXPECT_EQ(s->proto().phase(), PHASE_POLITICAL_DECISIONS);
}

TEST(LimitPolitical, PublicSpendingAndClassOrder) {
  // Dépense publique: 1 $ per population, disorder -1. Scolarisation: a class never above the one
  // over it (Niveau de vie).
  auto s = NewState(2);
  PoliticalTurn(*s, 0, {"public_spending", "schooling"});
  auto& n = *s->mutable_proto().mutable_nations(0);
  n.set_pop_rank(4);  // 5 population, the book's example
  n.set_money(20);
  const uint32_t bank = s->proto().bank();
  ASSERT_TRUE(s->Apply(0, Text("play_card { card: " + std::to_string(CardId("public_spending")) +
                               " }"))
                  .ok());
  EXPECT_EQ(s->proto().nations(0).money(), 15u);
  EXPECT_EQ(s->proto().bank(), bank + 5);
  EXPECT_EQ(s->proto().nations(0).disorder(), 4u);
  EXPECT_EQ(s->Validate(0, Text("play_card { card: " + std::to_string(CardId("schooling")) +
                                " classes: [1] }"))
                .code(),
            codes::kBadClass);
  ASSERT_TRUE(
      s->Apply(0, Text("play_card { card: " + std::to_string(CardId("schooling")) + " classes: [0] }"))
          .ok());
  EXPECT_EQ(s->proto().nations(0).classes(0), 2u);
  // Two cards played: the turn passes without passing.
  EXPECT_EQ(s->proto().turn(), 1);
  EXPECT_FALSE(s->proto().nations(0).passed());
}

TEST(LimitPolitical, UnpayableCardIsRefusedAndChangesNothing) {
  // Précisions sur les cartes: a card whose cost cannot be paid cannot be played.
  auto s = NewState(2);
  PoliticalTurn(*s, 0, {"public_spending"});
  s->mutable_proto().mutable_nations(0)->set_money(1);  // population 2 needs 2 $
  const std::string before = s->Serialize();
  EXPECT_EQ(s->Validate(0, Text("play_card { card: " + std::to_string(CardId("public_spending")) +
                                " }"))
                .code(),
            codes::kCannotPay);
  EXPECT_EQ(s->Serialize(), before);
}

TEST(LimitPolitical, OffshoreProductionPlayableOnlyWithTheTargetsMoney) {
  // Production délocalisée: the $ given to the target is part of the cost, so the hand's
  // playable flag and the legal actions must count it exactly as the play does.
  auto s = NewState(2);
  PoliticalTurn(*s, 0, {"offshore_production"});
  auto& p = s->mutable_proto();
  const uint32_t gift = Game().board().tracks(1).value(
      static_cast<int>(p.nations(1).industrial_rank()) - 1);
  ASSERT_GT(gift, 0u);
  p.mutable_nations(0)->set_money(gift - 1);
  const Action play = Text("play_card { card: " + std::to_string(CardId("offshore_production")) +
                           " target: 1 }");
  auto playable = [&] {
    auto owned = s->View(0);
    const auto& v = static_cast<const View&>(*owned);
    EXPECT_EQ(v.hand_size(), 1);
    return v.hand_size() == 1 && v.hand(0).playable();
  };
  auto offered = [&] {
    for (const auto& a : s->LegalActions(0))
      if (static_cast<const Action&>(*a).has_play_card()) return true;
    return false;
  };
  EXPECT_EQ(s->Validate(0, play).code(), codes::kCannotPay);
  EXPECT_FALSE(playable());
  EXPECT_FALSE(offered());
  p.mutable_nations(0)->set_money(gift);
  EXPECT_TRUE(s->Validate(0, play).ok());
  EXPECT_TRUE(playable());
  EXPECT_TRUE(offered());
}

TEST(LimitPolitical, PassingIsFinalUnlessTargeted) {
  // Décisions politiques: passing is final unless another nation targets you.
  auto s = NewState(2);
  PoliticalTurn(*s, 0, {"craft"});
  auto& p = s->mutable_proto();
  p.mutable_nations(1)->clear_hand();
  p.mutable_nations(1)->add_hand(CardId("terrorism"));
  p.mutable_nations(1)->set_military(1);
  ASSERT_TRUE(s->Apply(0, Text("pass {}")).ok());
  EXPECT_TRUE(s->proto().nations(0).passed());
  EXPECT_EQ(s->proto().turn(), 1);
  ASSERT_TRUE(s->Apply(1, Text("play_card { card: " + std::to_string(CardId("terrorism")) +
                               " target: 0 }"))
                  .ok());
  EXPECT_FALSE(s->proto().nations(0).passed());
  EXPECT_EQ(s->proto().nations(0).disorder(), 8u);  // Terrorisme: +3
  EXPECT_EQ(s->proto().nations(1).destabilisation(), 1u);
  ASSERT_TRUE(s->Apply(1, Text("pass {}")).ok());
  EXPECT_EQ(s->proto().turn(), 0);  // the targeted nation plays again
}

// RULES.md "Taking a move back": a pass that hands the political turn to a nation still playing
// may be taken back; the last pass ends the phase, and a card played shows it to everyone.
TEST(LimitPolitical, OnlyAPassBeforeTheLastMayBeTakenBack) {
  auto s = NewState(2);
  PoliticalTurn(*s, 0, {"craft"});
  const Action card = Text("play_card { card: " + std::to_string(CardId("craft")) + " }");
  EXPECT_FALSE(s->TakeBackSafe(0, card));
  EXPECT_TRUE(s->TakeBackSafe(0, Text("pass {}")));
  EXPECT_FALSE(s->TakeBackSafe(1, Text("pass {}")));  // not its turn
  ASSERT_TRUE(s->Apply(0, Text("pass {}")).ok());
  EXPECT_FALSE(s->TakeBackSafe(1, Text("pass {}")));  // the last nation to pass ends the phase
  auto solo = NewState(1);
  PoliticalTurn(*solo, 0, {"craft"});
  EXPECT_FALSE(solo->TakeBackSafe(0, Text("pass {}")));
}

TEST(LimitPolitical, ImmediateCardsReturnPermanentCardsStay) {
  // Cartes à effet immédiat / permanent: once everyone passed.
  auto s = NewState(2);
  PoliticalTurn(*s, 0, {"craft", "vegetarianism"});
  s->mutable_proto().mutable_nations(1)->set_passed(true);
  ASSERT_TRUE(s->Apply(0, Text("play_card { card: " + std::to_string(CardId("craft")) +
                               " resource: RESOURCE_INDUSTRIAL }"))
                  .ok());
  EXPECT_EQ(s->proto().nations(0).industrial(), 3u);
  ASSERT_TRUE(
      s->Apply(0, Text("play_card { card: " + std::to_string(CardId("vegetarianism")) + " }")).ok());
  // Two cards: turn goes round to seat 0 again (seat 1 passed); it passes.
  ASSERT_TRUE(s->Apply(0, Text("pass {}")).ok());
  const auto& n = s->proto().nations(0);
  EXPECT_NE(s->proto().phase(), PHASE_POLITICAL_DECISIONS);
  EXPECT_EQ(n.permanents_size(), 1);
  EXPECT_EQ(n.permanents(0), CardId("vegetarianism"));
  // Craft is back in the hand (a new generation may already have added technology cards).
  EXPECT_NE(std::find(n.hand().begin(), n.hand().end(), CardId("craft")), n.hand().end());
  EXPECT_EQ(std::find(n.hand().begin(), n.hand().end(), CardId("vegetarianism")), n.hand().end());
}

TEST(LimitPolitical, WarCardResisted) {
  // La guerre: the target resists by spending as much military; the effect does not apply.
  auto s = NewState(2);
  PoliticalTurn(*s, 0, {"annexation"});
  auto& p = s->mutable_proto();
  p.mutable_nations(0)->set_military(12);
  p.mutable_nations(1)->set_military(11);
  ASSERT_TRUE(s->Apply(0, Text("play_card { card: " + std::to_string(CardId("annexation")) +
                               " target: 1 military: 11 factory: FACTORY_INDUSTRIAL }"))
                  .ok());
  EXPECT_EQ(s->ActingSeats(), std::vector<int>{1});
  ASSERT_TRUE(s->Apply(1, Text("resist { resist: true }")).ok());
  EXPECT_EQ(s->proto().nations(1).military(), 0u);
  EXPECT_EQ(s->proto().nations(1).territories(), 5u);
  EXPECT_EQ(s->proto().nations(0).military(), 1u);
  EXPECT_EQ(s->proto().nations(0).destabilisation(), 2u);
}

TEST(LimitPolitical, WarCardNotResisted) {
  auto s = NewState(2);
  PoliticalTurn(*s, 0, {"annexation"});
  auto& p = s->mutable_proto();
  p.mutable_nations(0)->set_military(10);
  p.mutable_nations(1)->set_military(10);
  p.mutable_nations(1)->set_industrial_rank(3);
  ASSERT_TRUE(s->Apply(0, Text("play_card { card: " + std::to_string(CardId("annexation")) +
                               " target: 1 military: 10 factory: FACTORY_INDUSTRIAL }"))
                  .ok());
  ASSERT_TRUE(s->Apply(1, Text("resist { resist: false }")).ok());
  EXPECT_EQ(s->proto().nations(1).territories(), 4u);
  EXPECT_EQ(s->proto().nations(0).territories(), 6u);
  EXPECT_EQ(s->proto().nations(1).industrial_rank(), 2u);
  EXPECT_EQ(s->proto().nations(1).military(), 10u);
}

TEST(LimitPolitical, TransactionsExample) {
  // Les transactions, example: sell 3 military, take 9 $, the military cube moves one left.
  auto s = NewState(2);
  PoliticalTurn(*s, 0, {"market_access"});
  auto& p = s->mutable_proto();
  p.mutable_nations(0)->set_military(3);
  const uint32_t bank = p.bank();
  ASSERT_TRUE(s->Apply(0, Text("play_card { card: " + std::to_string(CardId("market_access")) +
                               " transactions { resource: RESOURCE_MILITARY sell: true "
                               "quantity: 3 } }"))
                  .ok());
  EXPECT_EQ(s->proto().nations(0).military(), 0u);
  EXPECT_EQ(s->proto().nations(0).money(), 5u + 9u);
  EXPECT_EQ(s->proto().bank(), bank - 9);
  EXPECT_EQ(s->proto().market(2).stock(), 6u);
  EXPECT_EQ(s->proto().market(2).position(), 2u);
}

TEST(LimitPolitical, SellingLimitedByWorldBankAndBuyingAtTopIsTwenty) {
  auto s = NewState(2);
  PoliticalTurn(*s, 0, {"market_access"});
  auto& p = s->mutable_proto();
  p.mutable_nations(0)->set_military(3);
  p.set_bank(8);
  EXPECT_EQ(s->Validate(0, Text("play_card { card: " + std::to_string(CardId("market_access")) +
                                " transactions { resource: RESOURCE_MILITARY sell: true "
                                "quantity: 3 } }"))
                .code(),
            codes::kBadTransaction);
  p.set_bank(100);
  p.mutable_market(1)->set_position(11);
  p.mutable_nations(0)->set_money(40);
  ASSERT_TRUE(s->Apply(0, Text("play_card { card: " + std::to_string(CardId("market_access")) +
                               " transactions { resource: RESOURCE_INDUSTRIAL quantity: 2 } }"))
                  .ok());
  EXPECT_EQ(s->proto().nations(0).money(), 0u);
  EXPECT_EQ(s->proto().market(1).position(), 11u);
}

// ----- Social phase -----

TEST(LimitSocial, FamineExample) {
  // Pénurie de Ressources renouvelables, example: population 20 (rank 6) with 6 renewables.
  auto s = NewState(2);
  auto& n = *s->mutable_proto().mutable_nations(0);
  ClearQuestions(s->mutable_proto(), 0);
  n.set_pop_rank(6);
  n.set_renewable(6);
  n.set_renewable_rank(3);
  n.set_industrial_rank(3);
  n.set_disorder(7);
  s->SocialStepRun(0, SOCIAL_STEP_FEEDING);
  const auto& m = s->proto().nations(0);
  EXPECT_EQ(m.renewable(), 1u);   // 5 spent, 1 kept
  EXPECT_EQ(m.pop_rank(), 4u);    // two ranks lost
  EXPECT_EQ(m.disorder(), 10u);   // +6: to the top...
  EXPECT_EQ(m.destabilisation(), 3u);  // ...and 3 destabilisation tokens
  ASSERT_EQ(ChoiceCount(s->proto(), 0), 1);
  EXPECT_EQ(ChoicesOf(s->proto(), 0)[0].kind(), PROMPT_LOWER_FACTORY);
  EXPECT_EQ(ChoicesOf(s->proto(), 0)[0].count(), 2u);
}

// A log phrase in short form, to compare whole entries: key(args), seats as @seat, names quoted,
// nested phrases in the same form. "limit.log.feeds(@0,5)": seat 0 fed 5.
std::string Short(const engine::v1::Text& t) {
  std::string out = t.key() + "(";
  for (int i = 0; i < t.args_size(); ++i) {
    const engine::v1::Arg& a = t.args(i);
    if (i > 0) out += ",";
    switch (a.value_case()) {
      case engine::v1::Arg::kNumber: out += std::to_string(a.number()); break;
      case engine::v1::Arg::kSeat: out += "@" + std::to_string(a.seat()); break;
      case engine::v1::Arg::kName: out += "'" + a.name() + "'"; break;
      case engine::v1::Arg::kText: out += Short(a.text()); break;
      default: out += "?"; break;
    }
  }
  return out + ")";
}

// A phrase in words as a client writes it, seat N named "PlayerN".
std::string Words(const engine::v1::Text& t) {
  return Game().TextRenderer().Render(t, [](int seat) { return "Player" + std::to_string(seat); });
}

// The log entries numbered `from` and later (`from`: the table's log_seq() before), in the
// position's log, whoever may read them.
std::vector<engine::v1::Text> EntriesSince(const LimitState& s, uint64_t from) {
  std::vector<engine::v1::Text> out;
  for (const engine::LogRef& e : engine::LogOf(s.table()))
    if (e.seq >= from) out.push_back(engine::LogText(e));
  return out;
}

// The same in short form (the social phase explains itself in the log).
std::vector<std::string> LogSince(const LimitState& s, uint64_t from) {
  std::vector<std::string> out;
  for (const auto& t : EntriesSince(s, from)) out.push_back(Short(t));
  return out;
}

// Every famine entry of the log, in short form.
std::vector<std::string> Famines(const LimitState& s) {
  std::vector<std::string> out;
  for (const engine::LogRef& e : engine::LogOf(s.table())) {
    const engine::v1::Text text = engine::LogText(e);
    if (text.key() == "limit.log.famine") out.push_back(Short(text));
  }
  return out;
}

bool Logged(const LimitState& s, const std::string& entry) {
  const auto all = LogSince(s, 0);
  return std::find(all.begin(), all.end(), entry) != all.end();
}

// The entries "limit.log.hit" since `from`, in words.
std::vector<std::string> Hits(const LimitState& s, uint64_t from) {
  std::vector<std::string> out;
  for (const auto& t : EntriesSince(s, from))
    if (t.key() == "limit.log.hit") out.push_back(Words(t));
  return out;
}

// A nation another's card hits is told what it did, in one entry everyone reads; a resisted card
// did nothing and says so.
TEST(LimitPolitical, TheNationHitIsToldWhatTheCardDid) {
  auto s = NewState(2);
  PoliticalTurn(*s, 0, {"annexation"});
  auto& p = s->mutable_proto();
  p.mutable_nations(0)->set_military(10);
  p.mutable_nations(1)->set_military(10);
  p.mutable_nations(1)->set_industrial_rank(3);
  const std::string play = "play_card { card: " + std::to_string(CardId("annexation")) +
                           " target: 1 military: 10 factory: FACTORY_INDUSTRIAL }";
  auto resisted = s->Clone();
  ASSERT_TRUE(s->Apply(0, Text(play)).ok());
  uint64_t from = s->table().log_seq();
  ASSERT_TRUE(s->Apply(1, Text("resist { resist: false }")).ok());
  EXPECT_EQ(Hits(*s, from), std::vector<std::string>{
                                "Player0's Territorial annexation hits Player1: 1 territory lost, 1 factory rank lost."});

  auto& r = static_cast<LimitState&>(*resisted);
  ASSERT_TRUE(r.Apply(0, Text(play)).ok());
  from = r.table().log_seq();
  ASSERT_TRUE(r.Apply(1, Text("resist { resist: true }")).ok());
  EXPECT_TRUE(Hits(r, from).empty()) << "a resisted card has no effect to report";
}

// Issue 32: "Bot 1 sells 1 fossil tokens": the resource's word agrees with the number.
TEST(LimitPolitical, TransactionsAreWordedInTheRightNumber) {
  for (const uint32_t quantity : {1u, 3u}) {
    auto s = NewState(2);
    PoliticalTurn(*s, 0, {"market_access"});
    s->mutable_proto().mutable_nations(0)->set_fossil(3);
    const uint64_t from = s->table().log_seq();
    ASSERT_TRUE(s->Apply(0, Text("play_card { card: " + std::to_string(CardId("market_access")) +
                                 " transactions { resource: RESOURCE_FOSSIL sell: true quantity: " +
                                 std::to_string(quantity) + " } }"))
                    .ok());
    std::vector<std::string> sells;
    for (const auto& t : EntriesSince(*s, from))
      if (t.key() == "limit.log.sells") sells.push_back(Words(t));
    ASSERT_EQ(sells.size(), 1u);
    EXPECT_EQ(sells[0].rfind("Player0 sells " + std::to_string(quantity) +
                                 (quantity == 1 ? " fossil token at " : " fossil tokens at "),
                             0),
              0u)
        << sells[0];
  }
}

// Issue 32: "the first 1 go to your hand": keeping one card is worded for one.
TEST(LimitDecisions, KeepingOneCardIsWordedForOne) {
  EXPECT_EQ(Words(engine::T("limit.q.keep_one")),
            "Put the drawn cards in order: the first goes to your hand, the others under the deck "
            "in that order.");
  EXPECT_NE(Words(engine::T("limit.q.keep", 2)).find("the first 2 go to your hand"), std::string::npos);
}

TEST(LimitSocial, LogSaysWhatEachStepFedConsumedProducedAndTaxed) {
  auto s = NewState(2);
  auto& n = *s->mutable_proto().mutable_nations(0);
  ClearQuestions(s->mutable_proto(), 0);
  n.set_pop_rank(6);
  n.set_renewable(6);
  n.set_disorder(5);
  uint64_t from = s->table().log_seq();
  s->SocialStepRun(0, SOCIAL_STEP_FEEDING);
  // Fed 5 (rank 4); 2 ranks not fed: population -2 ranks, disorder +6, a factory -2 ranks.
  // The disorder's own entry says where it went: 5 + 6 passes the top (10) by one step.
  EXPECT_EQ(LogSince(*s, from),
            (std::vector<std::string>{"limit.log.feeds(@0,5)", "limit.log.famine(@0,2,6)",
                                      "limit.log.disorder_past_top(@0,5,10,limit.cause.famine(),1)"}));
  const auto famine = EntriesSince(*s, from);
  ASSERT_EQ(famine.size(), 3u);
  EXPECT_EQ(Words(famine[2]),
            "Player0's disorder goes from 5 to 10 (famine); 1 step past the end become "
            "destabilisation tokens.");
  EXPECT_EQ(Words(famine[1]),
            "Player0 suffers a famine: 2 ranks not fed, so population -2 ranks, disorder +6 and a "
            "factory of its choice -2 ranks.");
  // Everyone reads the social phase.
  for (const engine::LogRef& e : engine::LogOf(s->table())) EXPECT_EQ(e.readers, 0u);

  auto& m = *s->mutable_proto().mutable_nations(0);

  ClearQuestions(s->mutable_proto(), 0);
  m.set_column(2);
  m.set_pop_rank(5);
  m.set_industrial(20);
  from = s->table().log_seq();
  s->SocialStepRun(0, SOCIAL_STEP_CONSUMPTION);
  EXPECT_EQ(LogSince(*s, from), std::vector<std::string>{"limit.log.consumes(@0,5)"});

  const uint32_t money = s->proto().nations(0).money();
  from = s->table().log_seq();
  s->SocialStepRun(0, SOCIAL_STEP_TAXATION);
  EXPECT_GT(s->proto().nations(0).money(), money);
  EXPECT_EQ(LogSince(*s, from),
            std::vector<std::string>{"limit.log.taxes(@0," +
                                     std::to_string(s->proto().nations(0).money() - money) +
                                     ")"});

  auto& q = *s->mutable_proto().mutable_nations(0);
  q.set_renewable_rank(2);
  q.set_industrial_rank(5);
  q.set_military_rank(1);
  q.set_fossil(5);
  q.set_pollution(0);
  q.set_renewable(0);
  q.set_industrial(0);
  q.set_military(0);
  from = s->table().log_seq();
  s->SocialStepRun(0, SOCIAL_STEP_PRODUCTION);
  EXPECT_EQ(LogSince(*s, from), std::vector<std::string>{"limit.log.produces(@0,2,10,1,2,1)"});
  const auto produced = EntriesSince(*s, from);
  ASSERT_EQ(produced.size(), 1u);
  EXPECT_EQ(Words(produced[0]),
            "Player0 produces 2 renewable, 10 industrial and 1 military, using 2 fossil "
            "(pollution +1).");
}

// The book's industrial shortage (Pénurie de Ressources industrielles): class C level 3,
// population 10, 8 industrial, disorder 5; nation 0 of two, at its consumption step.
std::unique_ptr<LimitState> ShortOfIndustry() {
  auto s = NewState(2);
  auto& n = *s->mutable_proto().mutable_nations(0);
  ClearQuestions(s->mutable_proto(), 0);
  SetClasses(&n, {4, 3, 3, 2, 1});
  n.set_column(3);
  n.set_pop_rank(5);
  n.set_industrial(8);
  return s;
}

TEST(LimitSocial, IndustrialShortageExample) {
  auto s = ShortOfIndustry();
  s->SocialStepRun(0, SOCIAL_STEP_CONSUMPTION);
  const auto& m = s->proto().nations(0);
  EXPECT_EQ(m.industrial(), 3u);
  EXPECT_EQ(m.disorder(), 7u);
  ASSERT_EQ(ChoiceCount(s->proto(), 0), 1);
  EXPECT_EQ(ChoicesOf(s->proto(), 0)[0].kind(), PROMPT_LOWER_CLASS);
  // B cannot go below C (class order); C can.
  EXPECT_EQ(s->Validate(0, Text("choose_class { social_class: 1 }")).code(), codes::kBadClass);
  ASSERT_TRUE(s->Apply(0, Text("choose_class { social_class: 2 }")).ok());
  EXPECT_EQ(s->proto().nations(0).classes(2), 2u);
}

// Issue 32: the social phase runs in one go and its summary is read from the log, so the log
// says which class a forced lowering took and every change of disorder with its cause.
TEST(LimitSocial, ForcedLoweringAndDisorderAreLoggedWithTheirCause) {
  auto s = ShortOfIndustry();
  uint64_t from = s->table().log_seq();
  s->SocialStepRun(0, SOCIAL_STEP_CONSUMPTION);
  EXPECT_EQ(LogSince(*s, from),
            (std::vector<std::string>{"limit.log.consumes(@0,5)",
                                      "limit.log.industrial_shortage(@0,1,2)",
                                      "limit.log.disorder(@0,5,7,limit.cause.industrial_shortage())"}));
  from = s->table().log_seq();
  ASSERT_TRUE(s->Apply(0, Text("choose_class { social_class: 2 }")).ok());
  EXPECT_EQ(LogSince(*s, from),
            std::vector<std::string>{"limit.log.class_down(@0,limit.class('C'),2)"});
  EXPECT_EQ(Words(EntriesSince(*s, from)[0]),
            "Player0 lowers the standard of living of Class C to 2.");
  // A lowering with one option left is made without asking, and logged the same way.
  auto& m = *s->mutable_proto().mutable_nations(0);
  ClearQuestions(s->mutable_proto(), 0);
  SetClasses(&m, {2, 2, 2, 2, 2});  // only E may go down
  m.set_industrial(8);
  m.set_disorder(3);
  from = s->table().log_seq();
  s->SocialStepRun(0, SOCIAL_STEP_CONSUMPTION);
  EXPECT_EQ(LogSince(*s, from),
            (std::vector<std::string>{"limit.log.consumes(@0,5)",
                                      "limit.log.industrial_shortage(@0,1,2)",
                                      "limit.log.disorder(@0,3,5,limit.cause.industrial_shortage())",
                                      "limit.log.class_down(@0,limit.class('E'),1)"}));
  EXPECT_EQ(ChoiceCount(s->proto(), 0), 0);
}

// Issue 32's solo example: generation 1, Schooling raises class A, a pass; in the social phase
// progress raises class A once more, and the class struggle (A - E) takes disorder from 5 to 7,
// which no other entry of the phase mentions.
TEST(LimitSocial, IssueSoloExampleLogsTheClassStruggle) {
  auto s = NewState(1);
  PoliticalTurn(*s, 0, {"schooling"});
  ASSERT_EQ(s->proto().nations(0).disorder(), 5u);
  ASSERT_TRUE(
      s->Apply(0, Text("play_card { card: " + std::to_string(CardId("schooling")) + " classes: [0] }"))
          .ok());
  ASSERT_TRUE(s->Apply(0, Text("pass {}")).ok());
  // Through the social phase: class A whenever a class goes up, the default move otherwise.
  for (int guard = 0; guard < 50 && s->proto().generation() == 1 && !s->IsTerminal(); ++guard) {
    const auto& n = s->proto().nations(0);
    ASSERT_GT(ChoiceCount(s->proto(), 0), 0) << "the phase stopped with nothing asked";
    if (ChoicesOf(s->proto(), 0)[0].kind() == PROMPT_RAISE_CLASS && s->CanRaiseClass(0, 0)) {
      ASSERT_TRUE(s->Apply(0, Text("choose_class { social_class: 0 }")).ok());
    } else {
      auto a = s->DefaultAction(0);
      ASSERT_NE(a, nullptr);
      ASSERT_TRUE(s->Apply(0, *a).ok());
    }
  }
  EXPECT_TRUE(Logged(*s, "limit.log.class_up(@0,limit.class('A'),2)"));  // Schooling
  EXPECT_TRUE(Logged(*s, "limit.log.class_up(@0,limit.class('A'),3)"));  // progress
  EXPECT_TRUE(Logged(*s, "limit.log.disorder(@0,5,7,limit.cause.class_struggle())"));
}

TEST(LimitSocial, ConsumptionRanksByLevel) {
  // Consommation: level 2 = one rank lower, level 4 = one rank higher; Consommation raisonnée
  // one more rank lower.
  auto s = NewState(2);
  auto& n = *s->mutable_proto().mutable_nations(0);
  ClearQuestions(s->mutable_proto(), 0);
  n.set_pop_rank(5);
  n.set_industrial(100);
  n.set_column(2);
  s->SocialStepRun(0, SOCIAL_STEP_CONSUMPTION);
  EXPECT_EQ(s->proto().nations(0).industrial(), 95u);
  s->mutable_proto().mutable_nations(0)->set_column(4);
  s->SocialStepRun(0, SOCIAL_STEP_CONSUMPTION);
  EXPECT_EQ(s->proto().nations(0).industrial(), 75u);
  s->mutable_proto().mutable_nations(0)->add_permanents(CardId("reasoned_consumption"));
  s->SocialStepRun(0, SOCIAL_STEP_CONSUMPTION);
  EXPECT_EQ(s->proto().nations(0).industrial(), 65u);
}

TEST(LimitSocial, RevoltMilitaryShortageExample) {
  // Révolte, example: level 2, population rank 5 counted as rank 4 (5 military), only 4.
  auto s = NewState(2);
  auto& n = *s->mutable_proto().mutable_nations(0);
  ClearQuestions(s->mutable_proto(), 0);
  SetClasses(&n, {3, 2, 2, 2, 1});
  n.set_column(2);
  n.set_pop_rank(5);
  n.set_disorder(9);
  n.set_military(4);
  s->SocialStepRun(0, SOCIAL_STEP_PUBLIC_ORDER);
  const auto& m = s->proto().nations(0);
  EXPECT_EQ(m.military(), 1u);
  ASSERT_EQ(ChoiceCount(s->proto(), 0), 1);
  EXPECT_EQ(ChoicesOf(s->proto(), 0)[0].kind(), PROMPT_LOWER_CLASS);
}

TEST(LimitSocial, ProductionAndFossilShortageExample) {
  // Production example: industrial 10 costs 2 fossil and 1 pollution; with no fossil only 3 are
  // produced, disorder +4 and the factory drops two ranks.
  auto s = NewState(2);
  auto& n = *s->mutable_proto().mutable_nations(0);
  n.set_industrial_rank(5);
  n.set_industrial(9);
  n.set_fossil(5);
  const uint32_t reserve = s->proto().pollution_reserve();
  s->Produce(0, FACTORY_INDUSTRIAL, true);
  EXPECT_EQ(s->proto().nations(0).industrial(), 19u);
  EXPECT_EQ(s->proto().nations(0).fossil(), 3u);
  EXPECT_EQ(s->proto().nations(0).pollution(), 1u);
  EXPECT_EQ(s->proto().pollution_reserve(), reserve - 1);
  auto& m = *s->mutable_proto().mutable_nations(0);
  m.set_military_rank(5);
  m.set_military(18);
  m.set_fossil(0);
  s->Produce(0, FACTORY_MILITARY, true);
  EXPECT_EQ(s->proto().nations(0).military(), 21u);
  EXPECT_EQ(s->proto().nations(0).disorder(), 9u);
  EXPECT_EQ(s->proto().nations(0).military_rank(), 3u);
}

TEST(LimitSocial, EmptyWorldBankMakesAFinancialCrisis) {
  // Imposition, Banque mondiale vide.
  auto s = NewState(2);
  auto& p = s->mutable_proto();
  p.set_bank(3);
  auto& n = *p.mutable_nations(0);
  n.set_column(1);
  n.set_pop_rank(4);
  n.set_money(0);
  s->SocialStepRun(0, SOCIAL_STEP_TAXATION);
  EXPECT_EQ(s->proto().nations(0).money(), 10u);
  EXPECT_EQ(s->proto().bank(), 0u);
  ASSERT_EQ(s->proto().crises_size(), 1);
  EXPECT_EQ(s->proto().crises(0).kind(), CRISIS_FINANCIAL);
  // A second shortage in the same generation adds no second tile.
  s->SocialStepRun(0, SOCIAL_STEP_TAXATION);
  EXPECT_EQ(s->proto().crises_size(), 1);
}

TEST(LimitSocial, DemographyAndTransition) {
  // Niveau de vie: the transition tile moves when a class first reaches 3; Baisse de la
  // mortalité (2+ tokens: +1 rank), Baisse de la natalité (2 tokens removed).
  auto s = NewState(2);
  auto& n = *s->mutable_proto().mutable_nations(0);
  ClearQuestions(s->mutable_proto(), 0);
  SetClasses(&n, {2, 2, 1, 1, 1});
  PoliticalTurn(*s, 0, {"higher_education"});
  s->mutable_proto().mutable_nations(0)->set_money(10);
  ASSERT_TRUE(s->Apply(0, Text("play_card { card: " + std::to_string(CardId("higher_education")) +
                               " classes: [0, 1, 2] }"))
                  .ok());
  EXPECT_EQ(s->proto().nations(0).transition_tokens(), 2u);
  const uint32_t pop = s->proto().nations(0).pop_rank();
  s->SocialStepRun(0, SOCIAL_STEP_MORTALITY);
  EXPECT_EQ(s->proto().nations(0).pop_rank(), pop + 1);
  s->SocialStepRun(0, SOCIAL_STEP_NATALITY);
  EXPECT_EQ(s->proto().nations(0).transition_tokens(), 0u);
}

TEST(LimitSocial, ClassStruggleExample) {
  // Lutte des classes, example: A 4, E 1: three steps, only one possible, 2 destabilisation.
  auto s = NewState(2);
  auto& n = *s->mutable_proto().mutable_nations(0);
  SetClasses(&n, {4, 3, 2, 1, 1});
  n.set_disorder(9);
  s->SocialStepRun(0, SOCIAL_STEP_CLASS_STRUGGLE);
  EXPECT_EQ(s->proto().nations(0).disorder(), 10u);
  EXPECT_EQ(s->proto().nations(0).destabilisation(), 2u);
}

TEST(LimitSocial, EconomicGrowthRespectsTerritory) {
  // Croissance économique level 1: renewable +1 rank, never past the last territory.
  auto s = NewState(2);
  auto& n = *s->mutable_proto().mutable_nations(0);
  n.set_column(1);
  n.set_renewable_rank(6);  // 5 territories: the top rank allowed
  s->SocialStepRun(0, SOCIAL_STEP_ECONOMIC_GROWTH);
  EXPECT_EQ(s->proto().nations(0).renewable_rank(), 6u);
  s->mutable_proto().mutable_nations(0)->set_renewable_rank(2);
  s->SocialStepRun(0, SOCIAL_STEP_ECONOMIC_GROWTH);
  EXPECT_EQ(s->proto().nations(0).renewable_rank(), 3u);
}

TEST(LimitView, RenewableTrackShowsTheRanksTerritoriesCover) {
  // The board draws the covered ranks from the engine's figure, never from its own sum.
  auto s = NewState(2);
  auto& n = *s->mutable_proto().mutable_nations(0);
  n.set_renewable_rank(2);
  const auto rank_of = [&](int seat) {
    const auto view = s->View(1);
    return static_cast<const View&>(*view).nations(seat).renewable_max_rank();
  };
  const uint32_t top = rank_of(0);
  ASSERT_GT(top, 1u);
  n.set_territories(n.territories() - 1);
  EXPECT_EQ(rank_of(0), top - 1) << "one territory fewer covers one rank more";
  EXPECT_EQ(rank_of(1), top) << "each nation's own territories";
  n.set_territories(0);
  EXPECT_GE(rank_of(0), 1u) << "the first rank is never covered";
}

// ----- International phase -----

TEST(LimitInternational, EcologicalCrisisExample) {
  // Crise écologique, example: the second one; you have the most population (30).
  auto s = NewState(3);
  auto& p = s->mutable_proto();
  ClearQuestions(p);
  for (auto& n : *p.mutable_nations()) {
    n.set_renewable_rank(5);
    n.set_fossil(3);
  }
  auto* c = p.add_crises();
  c->set_kind(CRISIS_ECOLOGICAL);
  c->set_generation(1);
  p.set_generation(2);
  p.set_pollution_reserve(0);
  p.set_phase(PHASE_INTERNATIONAL);
  p.set_international_step(3);
  SetClasses(p.mutable_nations(0), {3, 2, 2, 1, 1});
  p.mutable_nations(0)->set_pop_rank(7);  // 30
  p.mutable_nations(1)->set_pop_rank(5);  // 10
  p.mutable_nations(2)->set_pop_rank(4);  // 5
  s->RunInternational();
  const auto& q = s->proto();
  for (const auto& n : q.nations()) {
    EXPECT_EQ(n.renewable_rank(), 3u);  // two ecological tiles: two ranks
    EXPECT_EQ(n.fossil(), 2u);
  }
  EXPECT_EQ(q.nations(0).pop_rank(), 6u);  // 30 -> 20
  EXPECT_EQ(q.nations(0).disorder(), 8u);
  EXPECT_EQ(q.nations(0).classes(0), 2u);  // the highest class goes down
  EXPECT_EQ(q.nations(1).pop_rank(), 5u);  // 10: nothing
  EXPECT_EQ(q.nations(2).pop_rank(), 5u);  // 5 -> 10
}

TEST(LimitInternational, FinancialCrisisRichestGetsDestabilisation) {
  // Crise financière: 1 $ per population per financial tile, one standard of living, the richest
  // receives 2 destabilisation (ties: 1 each).
  auto s = NewState(2);
  auto& p = s->mutable_proto();
  ClearQuestions(p);
  p.set_phase(PHASE_INTERNATIONAL);
  p.set_international_step(1);
  auto* c = p.add_crises();
  c->set_kind(CRISIS_FINANCIAL);
  c->set_generation(p.generation());
  p.mutable_nations(0)->set_money(30);
  p.mutable_nations(1)->set_money(12);
  SetClasses(p.mutable_nations(0), {2, 1, 1, 1, 1});
  s->RunInternational();
  EXPECT_EQ(s->proto().nations(0).money(), 28u);
  EXPECT_EQ(s->proto().nations(0).classes(0), 1u);
  s->RunInternational();
  EXPECT_EQ(s->proto().nations(0).destabilisation(), 2u);
  EXPECT_EQ(s->proto().nations(1).destabilisation(), 0u);
}

TEST(LimitInternational, ColdWarAndMilitaryCrisis) {
  // Guerre froide: more than 15 military gives 1 destabilisation; the empty reserve then starts
  // a military crisis.
  auto s = NewState(2);
  auto& p = s->mutable_proto();
  ClearQuestions(p);
  p.set_phase(PHASE_INTERNATIONAL);
  p.set_international_step(0);
  p.set_destabilisation_reserve(1);
  p.mutable_nations(0)->set_military(16);
  p.mutable_nations(1)->set_military(15);
  s->RunInternational();
  EXPECT_EQ(s->proto().nations(0).destabilisation(), 1u);
  EXPECT_EQ(s->proto().nations(1).destabilisation(), 0u);
  EXPECT_EQ(s->proto().destabilisation_reserve(), 0u);
  p.set_international_step(4);
  SetClasses(p.mutable_nations(1), {2, 2, 2, 2, 2});
  s->RunInternational();
  ASSERT_EQ(s->proto().crises_size(), 1);
  EXPECT_EQ(s->proto().crises(0).kind(), CRISIS_MILITARY);
  EXPECT_EQ(s->proto().nations(1).classes(4), 1u);  // the lowest class goes down
  // Military spent (the next sub-step, where allies may help): population 2, one rank lower = 1.
  s->RunInternational();
  EXPECT_EQ(s->proto().nations(0).military(), 15u);
}

// ----- End of game -----

TEST(LimitScoring, BookExample) {
  // Comptage des points, example: 32 + 15 + 20 + 1 - 18 = 50.
  auto s = NewState(2);
  auto& p = s->mutable_proto();
  auto& n = *p.mutable_nations(0);
  SetClasses(&n, {3, 3, 3, 2, 2});
  n.set_pop_rank(7);  // 30
  n.set_money(154);
  n.set_territories(4);
  n.set_military(4);
  n.set_pollution(5);
  n.set_destabilisation(8);
  for (int i = 0; i < 4; ++i) {
    auto* c = p.add_crises();
    c->set_kind(static_cast<CrisisKind>(1 + i % 3));
    c->set_generation(i + 1);
  }
  const ScoreLine l = s->ScoreOf(0);
  EXPECT_EQ(l.gross_happiness(), 32);
  EXPECT_EQ(l.financial(), 15);
  EXPECT_EQ(l.territory(), 20);
  EXPECT_EQ(l.military(), 1);
  EXPECT_EQ(l.pollution_penalty() + l.destabilisation_penalty(), -18);
  EXPECT_EQ(l.total(), 50);
}

// The solo verdict (RULES.md, "Solo verdict"): over the board's 100 VP the nation beats the star
// nation, otherwise the star nation wins; the result's detail says it first, the view publishes it.
TEST(LimitScoring, SoloVerdictAgainstTheStarNation) {
  auto s = NewState(1);
  auto& n = *s->mutable_proto().mutable_nations(0);
  n.set_territories(30);  // 150 VP of territory alone
  EXPECT_TRUE(s->SoloWon());
  EXPECT_EQ(s->ResultDetail(0).rfind("beats the star nation (over 100 VP): ", 0), 0u)
      << s->ResultDetail(0);
  n.set_territories(0);
  EXPECT_LE(s->Scores()[0], 100);
  EXPECT_FALSE(s->SoloWon());
  EXPECT_EQ(s->ResultDetail(0).rfind("the star nation wins (over 100 VP needed): ", 0), 0u)
      << s->ResultDetail(0);
  const auto view = s->View(0);
  const auto& v = static_cast<const View&>(*view);
  EXPECT_EQ(v.solo_target(), 100u);
  EXPECT_FALSE(v.solo_won()) << "no verdict before the game is over";
  // With two nations there is no star nation and no verdict.
  auto two = NewState(2);
  EXPECT_EQ(two->ResultDetail(0).rfind("happiness ", 0), 0u);
  const auto other = two->View(0);
  EXPECT_EQ(static_cast<const View&>(*other).solo_target(), 0u);
}

TEST(LimitScoring, MoneyWorthlessAfterFiveCrises) {
  auto s = NewState(2);
  auto& p = s->mutable_proto();
  p.mutable_nations(0)->set_money(200);
  for (int i = 0; i < 5; ++i) p.add_crises()->set_kind(CRISIS_MILITARY);
  EXPECT_EQ(s->ScoreOf(0).financial(), 0);
}


TEST(LimitCards, VegetarianismFeedsOneRankLower) {
  // Végétarisme: population 20 eats as if 10.
  auto s = NewState(2);
  auto& n = *s->mutable_proto().mutable_nations(0);
  ClearQuestions(s->mutable_proto(), 0);
  n.set_pop_rank(6);
  n.set_renewable(12);
  n.add_permanents(CardId("vegetarianism"));
  s->SocialStepRun(0, SOCIAL_STEP_FEEDING);
  EXPECT_EQ(s->proto().nations(0).renewable(), 2u);
  EXPECT_EQ(s->proto().nations(0).pop_rank(), 6u);
}

TEST(LimitCards, RobotisationOnlyIndustrialOrMilitary) {
  // Robotisation: industrial or military, +2 ranks, pay the value at the cube.
  auto s = NewState(2);
  PoliticalTurn(*s, 0, {"robotisation"});
  s->mutable_proto().mutable_nations(0)->set_money(10);
  s->mutable_proto().mutable_nations(0)->set_industrial_rank(3);
  const std::string card = std::to_string(CardId("robotisation"));
  EXPECT_EQ(s->Validate(0, Text("play_card { card: " + card + " factory: FACTORY_RENEWABLE }")).code(),
            codes::kBadFactory);
  ASSERT_TRUE(s->Apply(0, Text("play_card { card: " + card + " factory: FACTORY_INDUSTRIAL }")).ok());
  EXPECT_EQ(s->proto().nations(0).industrial_rank(), 5u);
  EXPECT_EQ(s->proto().nations(0).money(), 7u);
}

TEST(LimitCards, ColonisationTakesFromTheReserve) {
  // Colonisation: 5 M spent, 2 D received, 1 T and 2 F from the colonisation reserve.
  auto s = NewState(2);
  PoliticalTurn(*s, 0, {"colonisation"});
  s->mutable_proto().mutable_nations(0)->set_military(5);
  const uint32_t t = s->proto().colonisation_territories();
  ASSERT_TRUE(
      s->Apply(0, Text("play_card { card: " + std::to_string(CardId("colonisation")) + " }")).ok());
  const auto& n = s->proto().nations(0);
  EXPECT_EQ(n.territories(), 6u);
  EXPECT_EQ(n.fossil(), 10u);
  EXPECT_EQ(n.destabilisation(), 2u);
  EXPECT_EQ(s->proto().colonisation_territories(), t - 1);
}

TEST(LimitCards, SharedPaymentFailsThenCannotBeRetried) {
  // Nettoyage de la planète: other nations may contribute; if 50 $ are not gathered the card
  // stays in hand (decision: and cannot be tried again this generation).
  auto s = NewState(2);
  PoliticalTurn(*s, 0, {"planet_cleanup"});
  auto& p = s->mutable_proto();
  p.mutable_nations(0)->set_money(30);
  p.mutable_nations(1)->set_money(30);
  const std::string card = std::to_string(CardId("planet_cleanup"));
  ASSERT_TRUE(s->Apply(0, Text("play_card { card: " + card + " }")).ok());
  EXPECT_EQ(s->ActingSeats(), std::vector<int>{1});
  ASSERT_TRUE(s->Apply(1, Text("contribute { amount: 10 }")).ok());
  EXPECT_EQ(s->proto().nations(0).money(), 30u);
  EXPECT_EQ(s->proto().nations(1).money(), 30u);
  EXPECT_EQ(s->Validate(0, Text("play_card { card: " + card + " }")).code(), codes::kAlreadyTried);
}

TEST(LimitCards, ContributionPromptSaysWhatIsStillMissing) {
  auto s = NewState(3);
  PoliticalTurn(*s, 0, {"planet_cleanup"});
  auto& p = s->mutable_proto();
  p.mutable_nations(0)->set_money(30);
  p.mutable_nations(1)->set_money(30);
  p.mutable_nations(2)->set_money(30);
  ASSERT_TRUE(
      s->Apply(0, Text("play_card { card: " + std::to_string(CardId("planet_cleanup")) + " }")).ok());
  auto missing = [&](int seat) -> int {
    auto owned = s->View(seat);
    const Prompt* pr = FindPrompt(static_cast<const View&>(*owned), PROMPT_CONTRIBUTE);
    return pr == nullptr ? -1 : static_cast<int>(pr->missing());
  };
  EXPECT_EQ(missing(1), 20);
  ASSERT_TRUE(s->Apply(1, Text("contribute { amount: 8 }")).ok());
  EXPECT_EQ(missing(2), 12);
}

// What other nations gave to a shared payment is theirs to know until it is paid: a bot's sample
// (State::SampleForSeat) spreads it again over the nations that gave, keeping the total the
// "missing" figure shows, and comes out the same whatever the split really was.
TEST(LimitCards, ASampleRedrawsTheContributionsOthersGave) {
  auto s = NewState(4);
  PoliticalTurn(*s, 0, {"planet_cleanup"});
  auto& p = s->mutable_proto();
  for (int k = 0; k < 4; ++k) p.mutable_nations(k)->set_money(30);
  ASSERT_TRUE(
      s->Apply(0, Text("play_card { card: " + std::to_string(CardId("planet_cleanup")) + " }")).ok());
  ASSERT_TRUE(s->Apply(1, Text("contribute { amount: 8 }")).ok());
  ASSERT_TRUE(s->Apply(2, Text("contribute { amount: 4 }")).ok());
  auto given = [](const engine::State& st, int k) {
    return static_cast<const LimitState&>(st).proto().pending().contributions(k);
  };
  auto without_log = [](const engine::State& st, int seat) {
    auto v = st.View(seat);
    static_cast<View&>(*v).mutable_table()->clear_log();
    return engine::DeterministicBytes(*v);
  };
  std::set<int32_t> firsts;
  for (uint64_t salt = 1; salt <= 40; ++salt) {
    auto sample = s->SampleForSeat(3, salt);
    EXPECT_EQ(given(*sample, 1) + given(*sample, 2), 12) << salt;  // 50 - 30 - 8 missing
    EXPECT_EQ(given(*sample, 3), -1);
    EXPECT_EQ(without_log(*sample, 3), without_log(*s, 3)) << salt;
    firsts.insert(given(*sample, 1));
    // Nation 1 giving 2 and nation 2 giving 10 looks the same to nation 3: same sample.
    auto twin = NewState(4);
    auto& tp = twin->mutable_proto();
    tp = s->proto();
    tp.mutable_pending()->set_contributions(1, 2);
    tp.mutable_pending()->set_contributions(2, 10);
    EXPECT_EQ(twin->SampleForSeat(3, salt)->Serialize(), sample->Serialize()) << salt;
  }
  EXPECT_GT(firsts.size(), 3u) << "the split is not redrawn";
  // Once enough is given "missing" reads 0: the total itself is unknown, only that it suffices.
  auto t = NewState(4);
  PoliticalTurn(*t, 0, {"planet_cleanup"});
  for (int k = 0; k < 4; ++k) t->mutable_proto().mutable_nations(k)->set_money(30);
  ASSERT_TRUE(
      t->Apply(0, Text("play_card { card: " + std::to_string(CardId("planet_cleanup")) + " }")).ok());
  ASSERT_TRUE(t->Apply(1, Text("contribute { amount: 25 }")).ok());
  std::set<int32_t> totals;
  for (uint64_t salt = 1; salt <= 40; ++salt) {
    auto sample = t->SampleForSeat(3, salt);
    const int32_t g = given(*sample, 1);
    EXPECT_GE(g, 20) << salt;  // at least what makes nothing missing
    EXPECT_LE(g, 30) << salt;  // at most its money
    EXPECT_EQ(without_log(*sample, 3), without_log(*t, 3)) << salt;
    totals.insert(g);
  }
  EXPECT_GT(totals.size(), 3u);
}

TEST(LimitSocial, GrowthPromptSaysWhetherTheFactoryGoesUpOrDown) {
  for (uint32_t column : {3u, 4u}) {
    auto s = NewState(2);
    auto& n = *s->mutable_proto().mutable_nations(0);
    ClearQuestions(s->mutable_proto(), 0);
    n.set_column(column);
    n.set_industrial_rank(3);
    n.set_military_rank(3);
    s->SocialStepRun(0, SOCIAL_STEP_ECONOMIC_GROWTH);
    auto owned = s->View(0);
    const Prompt* pr = FindPrompt(static_cast<const View&>(*owned), PROMPT_GROWTH_FACTORY);
    ASSERT_NE(pr, nullptr) << column;
    EXPECT_EQ(pr->factory_down(), column == 4) << column;
  }
}

TEST(LimitCards, SharedPaymentSucceeds) {
  auto s = NewState(2);
  PoliticalTurn(*s, 0, {"planet_cleanup"});
  auto& p = s->mutable_proto();
  p.mutable_nations(0)->set_money(30);
  p.mutable_nations(0)->set_pollution(2);
  p.mutable_nations(1)->set_money(30);
  p.mutable_nations(1)->set_pollution(1);
  p.set_pollution_reserve(p.pollution_reserve() - 3);
  ASSERT_TRUE(
      s->Apply(0, Text("play_card { card: " + std::to_string(CardId("planet_cleanup")) + " }")).ok());
  ASSERT_TRUE(s->Apply(1, Text("contribute { amount: 25 }")).ok());
  EXPECT_EQ(s->proto().nations(0).money(), 5u);
  EXPECT_EQ(s->proto().nations(1).money(), 5u);
  EXPECT_EQ(s->proto().nations(0).pollution(), 0u);  // its own one, then everyone's
  EXPECT_EQ(s->proto().nations(1).pollution(), 0u);
}

TEST(LimitSolo, StarNationResistsWithItsMilitaryValue) {
  // Mode solo: targeted cards use the star nation's row for the current generation.
  auto s = NewState(1);
  PoliticalTurn(*s, 0, {"military_operation"});
  s->mutable_proto().mutable_nations(0)->set_military(3);  // generation 1: star military 1
  const std::string card = std::to_string(CardId("military_operation"));
  EXPECT_EQ(s->Validate(0, Text("play_card { card: " + card +
                                " target: 0 military: 3 resource: RESOURCE_FOSSIL }"))
                .code(),
            codes::kBadTarget);
  ASSERT_TRUE(s->Apply(0, Text("play_card { card: " + card +
                               " target: -2 military: 3 resource: RESOURCE_FOSSIL }"))
                  .ok());
  EXPECT_EQ(s->proto().nations(0).fossil(), 10u);
  EXPECT_EQ(s->proto().star().fossil(), 6u);
  // Generation 6: the star has 10 military and resists 3.
  PoliticalTurn(*s, 0, {"military_operation"});
  s->mutable_proto().set_generation(6);
  s->mutable_proto().mutable_nations(0)->set_military(3);
  ASSERT_TRUE(s->Apply(0, Text("play_card { card: " + card +
                               " target: -2 military: 3 resource: RESOURCE_FOSSIL }"))
                  .ok());
  EXPECT_EQ(s->proto().star().fossil(), 6u);
}

TEST(LimitSolo, EventCardReplacesAllianceStep) {
  // Mode solo: an event card is drawn and applied, then discarded.
  auto s = NewState(1);
  auto& p = s->mutable_proto();
  ClearQuestions(p, 0);
  p.set_phase(PHASE_INTERNATIONAL);
  p.set_international_step(6);
  s->RunInternational();
  EXPECT_EQ(s->proto().events_size(), 7);
  EXPECT_EQ(s->proto().event_discard_size(), 1);
  // The view names the event drawn; its text is in the static data.
  auto owned = s->View(0);
  EXPECT_EQ(static_cast<const View&>(*owned).last_event_id(),
            static_cast<int32_t>(s->proto().event_discard(0)));
}

// ----- Alliances (3 Alliance (facultative), Les implications des alliances) -----

std::unique_ptr<LimitState> NewAllianceState(int seats, uint64_t seed = 7) {
  Options o;
  o.set_alliances(true);
  std::string bytes;
  o.SerializeToString(&bytes);
  auto s = Game().NewGame(seats, bytes, seed);
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return std::unique_ptr<LimitState>(static_cast<LimitState*>(s.value().release()));
}

// Opens the Alliance step (after the crises) with `leader` playing first.
void AllianceStep(LimitState& s, int leader) {
  auto& p = s.mutable_proto();
  ClearQuestions(p);
  p.mutable_pending()->Clear();
  p.set_leader(leader);
  p.set_phase(PHASE_INTERNATIONAL);
  p.set_international_step(6);
  s.Advance();
}

void Ally(LimitState& s, AllianceKind k, std::vector<int> seats, uint32_t group) {
  auto& p = s.mutable_proto();
  for (int i : seats) {
    auto* n = p.mutable_nations(i);
    if (k == ALLIANCE_MILITARY) n->set_military_group(group);
    else n->set_economic_group(group);
  }
  p.set_next_group(std::max(p.next_group(), group + 1));
}

bool HasAction(const LimitState& s, int seat, const std::string& text) {
  const std::string want = Text(text).SerializeAsString();
  for (const auto& a : s.LegalActions(seat))
    if (a->SerializeAsString() == want) return true;
  return false;
}

TEST(LimitAlliance, OptionAcceptedSoloIgnoresIt) {
  // 3 Alliance (facultative): an option; in solo the event card replaces the step.
  EXPECT_TRUE(NewAllianceState(3)->proto().alliances());
  EXPECT_FALSE(NewAllianceState(1)->proto().alliances());
  auto s = NewAllianceState(3);
  AllianceStep(*s, 1);
  EXPECT_EQ(s->proto().phase(), PHASE_ALLIANCE);
  EXPECT_EQ(s->ActingSeats(), std::vector<int>{1});
  auto v = s->View(1);
  const auto& view = static_cast<const View&>(*v);
  ASSERT_EQ(view.prompts_size(), 1);
  EXPECT_EQ(view.prompts(0).kind(), PROMPT_ALLIANCE_TURN);
}

TEST(LimitAlliance, TurnMovesAreExactlyTheLegalMoves) {
  // The UI offers the moves the view publishes: they must be the legal actions, Accord and fee
  // included.
  auto s = NewAllianceState(3);
  AllianceStep(*s, 0);
  Ally(*s, ALLIANCE_MILITARY, {0, 1}, 1);
  s->mutable_proto().mutable_nations(2)->set_money(0);  // the fee cannot be paid with seat 2 alone
  s->mutable_proto().mutable_nations(0)->set_money(0);
  auto owned = s->View(2);
  const auto& v = static_cast<const View&>(*owned);
  const Prompt* p = FindPrompt(v, PROMPT_ALLIANCE_TURN);
  ASSERT_NE(p, nullptr);
  const int seat = static_cast<int>(p->seat());
  auto mine = s->View(seat);
  std::vector<std::string> listed;
  bool proposes = false;
  for (const auto& a : engine::PublishedActions(Game(), *mine)) {
    const auto& act = static_cast<const Action&>(*a);
    if (act.has_remove_permanent()) continue;
    proposes = proposes || act.has_alliance_propose();
    EXPECT_TRUE(s->Validate(seat, act).ok());
    listed.push_back(act.SerializeAsString());
  }
  std::vector<std::string> legal;
  for (const auto& a : s->LegalActions(seat)) {
    const auto& act = static_cast<const Action&>(*a);
    if (act.has_pass() || act.has_alliance_propose() || act.has_alliance_leave() ||
        act.has_alliance_exclude())
      legal.push_back(act.SerializeAsString());
  }
  std::sort(listed.begin(), listed.end());
  std::sort(legal.begin(), legal.end());
  EXPECT_EQ(listed, legal);
  EXPECT_GT(listed.size(), 1u);
  EXPECT_TRUE(proposes);
}

TEST(LimitAlliance, AcceptedProposalPaysTheFeeAndTurnsTokens) {
  // Faire une proposition: the nation asked accepts; 2 $ to the World Bank, paid by one nation or
  // shared; the tokens show Accord, and those nations may not propose that kind again this
  // generation; at the end of the step every token shows Négociation again.
  auto s = NewAllianceState(3);
  AllianceStep(*s, 0);
  const uint32_t bank = s->proto().bank();
  ASSERT_TRUE(s->Apply(0, Text("alliance_propose { kind: ALLIANCE_MILITARY to_seat: 1 }")).ok());
  EXPECT_EQ(s->ActingSeats(), std::vector<int>{1});
  ASSERT_TRUE(s->Apply(1, Text("alliance_vote { accept: true }")).ok());
  // Both members are asked for the fee, simultaneously.
  EXPECT_EQ(s->ActingSeats(), (std::vector<int>{0, 1}));
  EXPECT_EQ(s->Validate(0, Text("contribute { amount: 3 }")).code(), codes::kBadParameter);
  ASSERT_TRUE(s->Apply(0, Text("contribute { amount: 1 }")).ok());
  ASSERT_TRUE(s->Apply(1, Text("contribute { amount: 1 }")).ok());
  EXPECT_EQ(s->proto().bank(), bank + 2);
  EXPECT_EQ(s->proto().nations(0).money(), 4u);
  EXPECT_EQ(s->proto().nations(1).money(), 4u);
  const auto& n0 = s->proto().nations(0);
  EXPECT_NE(n0.military_group(), 0u);
  EXPECT_EQ(n0.military_group(), s->proto().nations(1).military_group());
  EXPECT_TRUE(n0.military_accord());
  // Seat 1's turn: its military token shows Accord, its economic one does not.
  EXPECT_EQ(s->proto().turn(), 1);
  EXPECT_EQ(s->Validate(1, Text("alliance_propose { kind: ALLIANCE_MILITARY to_seat: 2 }")).code(),
            codes::kBadAlliance);
  EXPECT_TRUE(s->Validate(1, Text("alliance_propose { kind: ALLIANCE_ECONOMIC to_seat: 2 }")).ok());
  // Seat 2 may not join an alliance whose tokens show Accord.
  ASSERT_TRUE(s->Apply(1, Text("pass {}")).ok());
  EXPECT_EQ(s->Validate(2, Text("alliance_propose { kind: ALLIANCE_MILITARY to_seat: 0 }")).code(),
            codes::kBadAlliance);
  ASSERT_TRUE(s->Apply(2, Text("pass {}")).ok());
  EXPECT_NE(s->proto().phase(), PHASE_ALLIANCE);
  EXPECT_FALSE(s->proto().nations(0).military_accord());
  EXPECT_NE(s->proto().nations(0).military_group(), 0u);  // still allied
}

TEST(LimitAlliance, RefusedProposalEndsTheTurnAndChangesNothing) {
  // "Si la Nation refuse, votre tour est terminé."
  auto s = NewAllianceState(3);
  AllianceStep(*s, 0);
  const std::string nations = s->proto().nations(0).SerializeAsString();
  ASSERT_TRUE(s->Apply(0, Text("alliance_propose { kind: ALLIANCE_ECONOMIC to_seat: 2 }")).ok());
  ASSERT_TRUE(s->Apply(2, Text("alliance_vote { accept: false }")).ok());
  EXPECT_EQ(s->proto().turn(), 1);
  EXPECT_EQ(s->proto().nations(0).SerializeAsString(), nations);
  EXPECT_EQ(s->proto().nations(2).economic_group(), 0u);
}

TEST(LimitAlliance, JoiningNeedsEveryMemberOfTheAlliancesConcerned) {
  // An existing alliance: every member must agree to welcome a new ally (or to merge).
  auto s = NewAllianceState(4);
  Ally(*s, ALLIANCE_ECONOMIC, {0, 1}, 1);
  Ally(*s, ALLIANCE_ECONOMIC, {2, 3}, 2);
  AllianceStep(*s, 2);
  ASSERT_TRUE(s->Apply(2, Text("alliance_propose { kind: ALLIANCE_ECONOMIC to_seat: 0 }")).ok());
  // Voters: seat 0 (asked), seat 1 (its ally), seat 3 (the proposer's ally).
  EXPECT_EQ(s->ActingSeats(), (std::vector<int>{0, 1, 3}));
  ASSERT_TRUE(s->Apply(0, Text("alliance_vote { accept: true }")).ok());
  ASSERT_TRUE(s->Apply(3, Text("alliance_vote { accept: true }")).ok());
  ASSERT_TRUE(s->Apply(1, Text("alliance_vote { accept: false }")).ok());
  EXPECT_EQ(s->proto().nations(0).economic_group(), 1u);
  EXPECT_EQ(s->proto().nations(2).economic_group(), 2u);
  EXPECT_EQ(s->proto().turn(), 3);
  // Seat 3 tries again; everyone agrees: the two alliances merge, all four tokens show Accord.
  ASSERT_TRUE(s->Apply(3, Text("alliance_propose { kind: ALLIANCE_ECONOMIC to_seat: 1 }")).ok());
  for (int i : {0, 1, 2}) ASSERT_TRUE(s->Apply(i, Text("alliance_vote { accept: true }")).ok());
  for (int i : {0, 1, 2, 3}) ASSERT_TRUE(s->Apply(i, Text("contribute { amount: 2 }")).ok());
  const uint32_t g = s->proto().nations(0).economic_group();
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(s->proto().nations(i).economic_group(), g);
    EXPECT_TRUE(s->proto().nations(i).economic_accord());
  }
  // Offers are taken from the proposer first: seat 3 pays the whole fee.
  EXPECT_EQ(s->proto().nations(3).money(), 3u);
  EXPECT_EQ(s->proto().nations(1).money(), 5u);
}

TEST(LimitAlliance, FeeNotPaidOrNotPayable) {
  // "Pour valider cette Alliance, il faut payer 2 $": without them the alliance is not formed.
  auto s = NewAllianceState(3);
  AllianceStep(*s, 0);
  ASSERT_TRUE(s->Apply(0, Text("alliance_propose { kind: ALLIANCE_MILITARY to_seat: 1 }")).ok());
  ASSERT_TRUE(s->Apply(1, Text("alliance_vote { accept: true }")).ok());
  ASSERT_TRUE(s->Apply(0, Text("contribute { amount: 1 }")).ok());
  ASSERT_TRUE(s->Apply(1, Text("contribute { amount: 0 }")).ok());
  EXPECT_EQ(s->proto().nations(0).military_group(), 0u);
  EXPECT_EQ(s->proto().nations(0).money(), 5u);
  // Decision: a proposal the nations concerned cannot pay together is refused at once.
  s->mutable_proto().mutable_nations(1)->set_money(1);
  s->mutable_proto().mutable_nations(2)->set_money(0);
  EXPECT_EQ(s->Validate(1, Text("alliance_propose { kind: ALLIANCE_MILITARY to_seat: 2 }")).code(),
            codes::kCannotPay);
}

TEST(LimitAlliance, LeavingAndALoneToken) {
  // Sortir d'une alliance: the token comes back on Négociation; a token left alone in the centre
  // goes back to its nation. Decision: the alliance that lost a member is changed (Accord).
  auto s = NewAllianceState(4);
  Ally(*s, ALLIANCE_MILITARY, {0, 1, 2}, 1);
  Ally(*s, ALLIANCE_ECONOMIC, {2, 3}, 2);
  AllianceStep(*s, 0);
  EXPECT_EQ(s->Validate(3, Text("pass {}")).code(), engine::codes::kNotYourTurn);
  ASSERT_TRUE(s->Apply(0, Text("alliance_leave { kind: ALLIANCE_MILITARY }")).ok());
  EXPECT_EQ(s->proto().nations(0).military_group(), 0u);
  EXPECT_TRUE(s->proto().nations(1).military_accord());
  EXPECT_TRUE(s->proto().nations(2).military_accord());
  ASSERT_TRUE(s->Apply(1, Text("pass {}")).ok());
  ASSERT_TRUE(s->Apply(2, Text("alliance_leave { kind: ALLIANCE_ECONOMIC }")).ok());
  EXPECT_EQ(s->proto().nations(2).economic_group(), 0u);
  EXPECT_EQ(s->proto().nations(3).economic_group(), 0u);
  EXPECT_FALSE(s->proto().nations(3).economic_accord());
}

// Fee offers are made at once and shown only when everyone has answered: a bot's sample draws
// the others' offers again, and two positions that differ only in them give the same sample. The
// votes, logged for everyone as they are cast, are kept.
TEST(LimitAlliance, ASampleRedrawsTheOthersFeeOffersNotTheirVotes) {
  auto s = NewAllianceState(4);
  Ally(*s, ALLIANCE_ECONOMIC, {0, 1}, 1);
  Ally(*s, ALLIANCE_ECONOMIC, {2, 3}, 2);
  AllianceStep(*s, 2);
  ASSERT_TRUE(s->Apply(2, Text("alliance_propose { kind: ALLIANCE_ECONOMIC to_seat: 0 }")).ok());
  ASSERT_TRUE(s->Apply(0, Text("alliance_vote { accept: true }")).ok());
  ASSERT_TRUE(s->Apply(3, Text("alliance_vote { accept: true }")).ok());
  auto same_but = [&](const LimitState& from, auto change) {
    auto twin = NewAllianceState(4);
    twin->mutable_proto() = from.proto();
    change(twin->mutable_proto());
    return twin;
  };
  std::set<int32_t> seen;
  for (uint64_t salt = 1; salt <= 20; ++salt) {
    auto sample = s->SampleForSeat(1, salt);
    const auto& votes = static_cast<const LimitState&>(*sample).proto().alliance_pending().votes();
    EXPECT_EQ(votes.Get(0), 1);
    EXPECT_EQ(votes.Get(1), -1);  // the seat's own question is still open
    EXPECT_EQ(votes.Get(2), 2);   // the proposer is not asked
    EXPECT_EQ(votes.Get(3), 1);
  }

  // Accepted: the fee is asked of all four. Seats 0 and 3 offer; seat 1's sample draws them anew.
  ASSERT_TRUE(s->Apply(1, Text("alliance_vote { accept: true }")).ok());
  ASSERT_TRUE(s->Apply(0, Text("contribute { amount: 2 }")).ok());
  ASSERT_TRUE(s->Apply(3, Text("contribute { amount: 1 }")).ok());
  seen.clear();
  for (uint64_t salt = 1; salt <= 20; ++salt) {
    auto sample = s->SampleForSeat(1, salt);
    const auto& fee = static_cast<const LimitState&>(*sample).proto().alliance_pending().fee();
    EXPECT_EQ(fee.Get(1), -1);
    EXPECT_EQ(fee.Get(2), -1);
    for (int k : {0, 3}) {
      EXPECT_GE(fee.Get(k), 0);
      EXPECT_LE(fee.Get(k), static_cast<int32_t>(kAllianceFee));
    }
    seen.insert(fee.Get(0) * 3 + fee.Get(3));
    auto twin = same_but(*s, [](auto& p) { p.mutable_alliance_pending()->set_fee(3, 0); });
    EXPECT_EQ(twin->SampleForSeat(1, salt)->Serialize(), sample->Serialize()) << salt;
  }
  EXPECT_GT(seen.size(), 2u) << "the fee offers are not redrawn";
}

TEST(LimitAlliance, ExclusionNeedsEveryOtherMember) {
  // Exclure: every member must agree; a changed alliance cannot change again.
  auto s = NewAllianceState(4);
  Ally(*s, ALLIANCE_MILITARY, {0, 1, 2, 3}, 1);
  s->mutable_proto().set_demilitarised(true);
  AllianceStep(*s, 0);
  EXPECT_EQ(s->Validate(0, Text("alliance_exclude { kind: ALLIANCE_ECONOMIC seat: 1 }")).code(),
            codes::kBadAlliance);
  ASSERT_TRUE(s->Apply(0, Text("alliance_exclude { kind: ALLIANCE_MILITARY seat: 3 }")).ok());
  EXPECT_EQ(s->ActingSeats(), (std::vector<int>{1, 2}));
  ASSERT_TRUE(s->Apply(1, Text("alliance_vote { accept: true }")).ok());
  ASSERT_TRUE(s->Apply(2, Text("alliance_vote { accept: true }")).ok());
  EXPECT_EQ(s->proto().nations(3).military_group(), 0u);
  EXPECT_TRUE(s->proto().nations(1).military_accord());
  EXPECT_EQ(s->proto().turn(), 1);
  EXPECT_EQ(s->Validate(1, Text("alliance_exclude { kind: ALLIANCE_MILITARY seat: 2 }")).code(),
            codes::kBadAlliance);
  // A refused exclusion changes nothing.
  auto t = NewAllianceState(3);
  Ally(*t, ALLIANCE_ECONOMIC, {0, 1, 2}, 1);
  AllianceStep(*t, 0);
  ASSERT_TRUE(t->Apply(0, Text("alliance_exclude { kind: ALLIANCE_ECONOMIC seat: 2 }")).ok());
  ASSERT_TRUE(t->Apply(1, Text("alliance_vote { accept: false }")).ok());
  EXPECT_EQ(t->proto().nations(2).economic_group(), 1u);
  EXPECT_FALSE(t->proto().nations(2).economic_accord());
}

TEST(LimitAlliance, DemilitarisationBookExample) {
  // Démilitarisation, example: star, square and diamond are military allies; star and circle are
  // economic allies. Star proposes a military alliance to circle, which accepts: every nation is in
  // the same military alliance. Square then proposes an economic alliance to diamond, which
  // accepts; diamond, both tokens on Accord, cannot propose and does nothing; circle does nothing.
  auto s = NewAllianceState(4);
  const int star = 0, square = 1, diamond = 2, circle = 3;
  Ally(*s, ALLIANCE_MILITARY, {star, square, diamond}, 1);
  Ally(*s, ALLIANCE_ECONOMIC, {star, circle}, 2);
  auto& p = s->mutable_proto();
  p.mutable_nations(square)->set_military_rank(5);     // produces 10: at least +5
  p.mutable_nations(square)->set_industrial_rank(2);
  p.mutable_nations(diamond)->set_military_rank(3);    // produces 3: unchanged
  p.mutable_nations(star)->set_military(7);
  p.mutable_nations(star)->set_destabilisation(3);
  p.mutable_nations(circle)->set_destabilisation(1);
  p.set_destabilisation_reserve(p.destabilisation_reserve() - 4);
  const uint32_t reserve = p.destabilisation_reserve();
  AllianceStep(*s, star);
  ASSERT_TRUE(s->Apply(star, Text("alliance_propose { kind: ALLIANCE_MILITARY to_seat: 3 }")).ok());
  for (int i : {square, diamond, circle})
    ASSERT_TRUE(s->Apply(i, Text("alliance_vote { accept: true }")).ok());
  ASSERT_TRUE(s->Apply(star, Text("contribute { amount: 2 }")).ok());
  for (int i : {square, diamond, circle}) ASSERT_TRUE(s->Apply(i, Text("contribute { amount: 0 }")).ok());
  const auto& q = s->proto();
  EXPECT_TRUE(q.demilitarised());
  EXPECT_EQ(q.nations(square).industrial_rank(), 3u);
  EXPECT_EQ(q.nations(square).military_rank(), 1u);
  EXPECT_EQ(q.nations(diamond).military_rank(), 3u);
  EXPECT_EQ(q.nations(diamond).industrial_rank(), 1u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(q.nations(i).military(), 0u);
    EXPECT_EQ(q.nations(i).disorder(), 4u);
    EXPECT_EQ(q.nations(i).classes(0), 2u);  // the only class that may rise: applied at once
  }
  EXPECT_EQ(q.nations(star).destabilisation(), 1u);    // up to 2 go back
  EXPECT_EQ(q.nations(circle).destabilisation(), 0u);
  EXPECT_EQ(q.destabilisation_reserve(), reserve + 3);
  EXPECT_EQ(q.turn(), square);
  ASSERT_TRUE(s->Apply(square, Text("alliance_propose { kind: ALLIANCE_ECONOMIC to_seat: 2 }")).ok());
  ASSERT_TRUE(s->Apply(diamond, Text("alliance_vote { accept: true }")).ok());
  ASSERT_TRUE(s->Apply(square, Text("contribute { amount: 2 }")).ok());
  ASSERT_TRUE(s->Apply(diamond, Text("contribute { amount: 0 }")).ok());
  EXPECT_EQ(s->proto().turn(), diamond);
  // Diamond: no proposal possible, but it could leave either alliance (the book says so).
  for (const auto& a : s->LegalActions(diamond))
    EXPECT_FALSE(static_cast<const Action&>(*a).has_alliance_propose());
  EXPECT_TRUE(HasAction(*s, diamond, "alliance_leave { kind: ALLIANCE_MILITARY }"));
  EXPECT_TRUE(HasAction(*s, diamond, "alliance_leave { kind: ALLIANCE_ECONOMIC }"));
  ASSERT_TRUE(s->Apply(diamond, Text("pass {}")).ok());
  ASSERT_TRUE(s->Apply(circle, Text("pass {}")).ok());
  EXPECT_NE(s->proto().phase(), PHASE_ALLIANCE);
}

TEST(LimitAlliance, DemilitarisationOncePerGame) {
  // "Il ne peut y avoir qu'une seule Démilitarisation par partie."
  auto s = NewAllianceState(2);
  s->mutable_proto().set_demilitarised(true);
  s->mutable_proto().mutable_nations(0)->set_military(6);
  AllianceStep(*s, 0);
  ASSERT_TRUE(s->Apply(0, Text("alliance_propose { kind: ALLIANCE_MILITARY to_seat: 1 }")).ok());
  ASSERT_TRUE(s->Apply(1, Text("alliance_vote { accept: true }")).ok());
  ASSERT_TRUE(s->Apply(0, Text("contribute { amount: 2 }")).ok());
  ASSERT_TRUE(s->Apply(1, Text("contribute { amount: 0 }")).ok());
  EXPECT_NE(s->proto().nations(1).military_group(), 0u);
  EXPECT_EQ(s->proto().nations(0).military(), 6u);
}

// Seat 0 attacks seat 1 (2 military) with an annexation of 5; seat 2 is seat 1's military ally.
std::unique_ptr<LimitState> AttackOnAlly(uint32_t ally_military) {
  auto s = NewAllianceState(3);
  Ally(*s, ALLIANCE_MILITARY, {1, 2}, 1);
  PoliticalTurn(*s, 0, {"annexation"});
  auto& p = s->mutable_proto();
  p.mutable_nations(0)->set_military(12);
  p.mutable_nations(1)->set_military(2);
  p.mutable_nations(2)->set_military(ally_military);
  EXPECT_TRUE(s->Apply(0, Text("play_card { card: " + std::to_string(CardId("annexation")) +
                               " target: 1 military: 10 factory: FACTORY_INDUSTRIAL }"))
                  .ok());
  return s;
}

// Help answers are secret until every ally has answered: the sample of an ally still to answer
// draws the other's answer again, within its stock and what was asked.
TEST(LimitAlliance, ASampleRedrawsAnotherAllysHelp) {
  auto s = NewAllianceState(4);
  Ally(*s, ALLIANCE_MILITARY, {1, 2, 3}, 1);
  PoliticalTurn(*s, 0, {"annexation"});
  auto& p = s->mutable_proto();
  p.mutable_nations(0)->set_military(12);
  p.mutable_nations(1)->set_military(2);
  p.mutable_nations(2)->set_military(5);
  p.mutable_nations(3)->set_military(6);
  ASSERT_TRUE(s->Apply(0, Text("play_card { card: " + std::to_string(CardId("annexation")) +
                               " target: 1 military: 10 factory: FACTORY_INDUSTRIAL }"))
                  .ok());
  ASSERT_TRUE(s->Apply(1, Text("request_help { ask: true }")).ok());
  ASSERT_EQ(s->ActingSeats(), (std::vector<int>{2, 3}));
  ASSERT_TRUE(s->Apply(2, Text("give_help { amount: 5 }")).ok());
  std::set<int32_t> seen;
  for (uint64_t salt = 1; salt <= 20; ++salt) {
    auto sample = s->SampleForSeat(3, salt);
    const auto& help = static_cast<const LimitState&>(*sample).proto().nations(1).help();
    EXPECT_EQ(help.given(3), -1);
    EXPECT_GE(help.given(2), 0);
    EXPECT_LE(help.given(2), 5);  // its stock, under the 8 asked
    seen.insert(help.given(2));
    auto twin = NewAllianceState(4);
    twin->mutable_proto() = s->proto();
    twin->mutable_proto().mutable_nations(1)->mutable_help()->set_given(2, 1);
    EXPECT_EQ(twin->SampleForSeat(3, salt)->Serialize(), sample->Serialize()) << salt;
  }
  EXPECT_GT(seen.size(), 2u) << "the help is not redrawn";
}

TEST(LimitAlliance, AlliesHelpToResist) {
  // Alliance militaire: a targeted nation may ask its military allies for military to resist
  // (La guerre: only the target asks).
  auto s = AttackOnAlly(10);
  EXPECT_EQ(s->ActingSeats(), std::vector<int>{1});
  {
    auto v = s->View(1);
    const auto& view = static_cast<const View&>(*v);
    ASSERT_EQ(view.prompts_size(), 1);
    EXPECT_EQ(view.prompts(0).kind(), PROMPT_HELP_REQUEST);
    EXPECT_EQ(view.prompts(0).amount(), 8u);
    EXPECT_EQ(view.prompts(0).resource(), RESOURCE_MILITARY);
  }
  ASSERT_TRUE(s->Apply(1, Text("request_help { ask: true }")).ok());
  EXPECT_EQ(s->ActingSeats(), std::vector<int>{2});
  EXPECT_EQ(s->Validate(2, Text("give_help { amount: 9 }")).code(), codes::kBadAmount);
  ASSERT_TRUE(s->Apply(2, Text("give_help { amount: 8 }")).ok());
  EXPECT_EQ(s->proto().nations(2).military(), 2u);
  EXPECT_EQ(s->proto().nations(1).military(), 0u);  // 2 + 8 spent to resist
  EXPECT_EQ(s->proto().nations(1).territories(), 5u);
  EXPECT_EQ(s->proto().turn(), 0);
}

TEST(LimitAlliance, RefusedHelpMayBreakTheAlliance) {
  // Refus d'aide: the nation refused may break the alliance; every member, itself included,
  // receives a destabilisation token and takes its token back.
  auto s = AttackOnAlly(10);
  ASSERT_TRUE(s->Apply(1, Text("request_help { ask: true }")).ok());
  ASSERT_TRUE(s->Apply(2, Text("give_help { amount: 3 }")).ok());
  EXPECT_EQ(s->proto().nations(2).military(), 10u);  // too little: nothing moves
  EXPECT_EQ(s->ActingSeats(), std::vector<int>{1});
  const uint32_t d1 = s->proto().nations(1).destabilisation();
  ASSERT_TRUE(s->Apply(1, Text("break_alliance { do_break: true }")).ok());
  EXPECT_EQ(s->proto().nations(1).territories(), 4u);  // the annexation applied
  EXPECT_EQ(s->proto().nations(1).destabilisation(), d1 + 1);
  EXPECT_EQ(s->proto().nations(2).destabilisation(), 1u);
  EXPECT_EQ(s->proto().nations(1).military_group(), 0u);
  EXPECT_EQ(s->proto().nations(2).military_group(), 0u);
  // Allies too weak together: no request is offered, the attack simply applies.
  auto t = AttackOnAlly(7);
  EXPECT_EQ(t->proto().nations(1).territories(), 4u);
  EXPECT_EQ(t->proto().turn(), 0);
}

// Seat 0 (population 5, no renewables) is about to starve in the social phase; seat 1 is its
// economic ally and has already finished its social steps.
std::unique_ptr<LimitState> FamineWithAlly(uint32_t ally_renewable) {
  auto s = NewAllianceState(2);
  Ally(*s, ALLIANCE_ECONOMIC, {0, 1}, 1);
  auto& p = s->mutable_proto();
  ClearQuestions(p);
  s->StartSocial(false);
  p.mutable_nations(0)->set_pop_rank(4);
  p.mutable_nations(0)->set_renewable(0);
  p.mutable_nations(1)->set_renewable(ally_renewable);
  p.mutable_nations(1)->set_step(SOCIAL_STEP_DONE);
  s->Advance();
  return s;
}

TEST(LimitAlliance, EconomicAlliesHelpAgainstAShortage) {
  // Alliance économique: a nation about to suffer a renewable (industrial, fossil) shortage may
  // ask its economic allies for them so that it does not suffer it.
  auto s = FamineWithAlly(9);
  EXPECT_EQ(s->ActingSeats(), std::vector<int>{0});
  ASSERT_TRUE(s->Apply(0, Text("request_help { ask: true }")).ok());
  ASSERT_TRUE(s->Apply(1, Text("give_help { amount: 5 }")).ok());
  EXPECT_EQ(s->proto().nations(1).renewable(), 4u);
  // Fed: no famine (population would have dropped a rank and disorder risen by 3).
  EXPECT_GE(s->proto().nations(0).pop_rank(), 4u);
  EXPECT_TRUE(Logged(*s, "limit.log.help_asked(@0,5,limit.res.renewable_n(5))"));
  EXPECT_TRUE(Logged(*s, "limit.log.help_given(@1,5,limit.res.renewable_n(5),@0)"));
  EXPECT_TRUE(Logged(*s, "limit.log.feeds(@0,5)"));
  EXPECT_EQ(Famines(*s), std::vector<std::string>{});
}

TEST(LimitAlliance, ShortageSufferedWhenNotAskedOrRefused) {
  auto s = FamineWithAlly(9);
  ASSERT_TRUE(s->Apply(0, Text("request_help { ask: false }")).ok());
  EXPECT_EQ(s->proto().nations(1).renewable(), 9u);
  // Population 5 (rank 4) and nothing to eat: 4 ranks not fed, disorder +12.
  EXPECT_EQ(Famines(*s), std::vector<std::string>{"limit.log.famine(@0,4,12)"});
  // Refused, and the alliance is kept.
  auto t = FamineWithAlly(9);
  ASSERT_TRUE(t->Apply(0, Text("request_help { ask: true }")).ok());
  ASSERT_TRUE(t->Apply(1, Text("give_help { amount: 0 }")).ok());
  ASSERT_TRUE(t->Apply(0, Text("break_alliance { do_break: false }")).ok());
  EXPECT_NE(t->proto().nations(0).economic_group(), 0u);
  EXPECT_EQ(t->proto().nations(1).destabilisation(), 0u);  // not broken: nobody got a token
  // Allies holding less than what is missing: no request.
  auto u = FamineWithAlly(4);
  for (const auto& a : u->LegalActions(0))
    EXPECT_FALSE(static_cast<const Action&>(*a).has_request_help());
}

// A request made after the allies spent what they held (their stock was counted when the
// shortage came) asks nobody: it lapses and the shortage is suffered, instead of waiting forever
// for answers no seat can give (the game froze with no acting seat before).
TEST(LimitAlliance, RequestToAlliesWithNothingLeftLapses) {
  auto s = FamineWithAlly(9);
  ASSERT_EQ(s->ActingSeats(), std::vector<int>{0});
  s->mutable_proto().mutable_nations(1)->set_renewable(0);
  ASSERT_TRUE(s->Apply(0, Text("request_help { ask: true }")).ok());
  EXPECT_FALSE(s->IsTerminal());
  EXPECT_FALSE(s->ActingSeats().empty());
  EXPECT_FALSE(s->proto().nations(0).help().waiting());
  EXPECT_TRUE(Logged(*s, "limit.log.help_lapsed(@0)"));
  EXPECT_EQ(Famines(*s), std::vector<std::string>{"limit.log.famine(@0,4,12)"});
  // Nobody refused: the alliance stands and no break is offered.
  for (const auto& a : s->LegalActions(0))
    EXPECT_FALSE(static_cast<const Action&>(*a).has_break_alliance());
  EXPECT_NE(s->proto().nations(0).economic_group(), 0u);
}

TEST(LimitAlliance, EconomicAlliesGiveFossilForProduction) {
  // Alliance économique, fossil shortage (Pénurie de Ressources fossiles): the ally's fossil lets
  // the industrial factory produce at its rank, so it does not lose ranks.
  auto s = NewAllianceState(2);
  Ally(*s, ALLIANCE_ECONOMIC, {0, 1}, 1);
  auto& p = s->mutable_proto();
  ClearQuestions(p);
  s->StartSocial(false);
  p.mutable_nations(0)->set_step(SOCIAL_STEP_PRODUCTION);
  p.mutable_nations(0)->set_industrial_rank(5);  // produces 10: 2 fossil
  p.mutable_nations(0)->set_fossil(0);
  p.mutable_nations(1)->set_step(SOCIAL_STEP_DONE);
  s->Advance();
  ASSERT_EQ(s->ActingSeats(), std::vector<int>{0});
  ASSERT_TRUE(s->Apply(0, Text("request_help { ask: true }")).ok());
  ASSERT_TRUE(s->Apply(1, Text("give_help { amount: 2 }")).ok());
  EXPECT_EQ(s->proto().nations(1).fossil(), 6u);
  EXPECT_EQ(s->proto().nations(0).industrial_rank(), 5u);
  EXPECT_EQ(s->proto().nations(0).fossil(), 0u);
}

TEST(LimitAlliance, MilitaryAlliesHelpInAMilitaryCrisis) {
  // Alliance militaire: a nation about to suffer a military shortage (here the military crisis:
  // 1 military per population one rank lower) may ask its military allies.
  auto s = NewAllianceState(2);
  Ally(*s, ALLIANCE_MILITARY, {0, 1}, 1);
  auto& p = s->mutable_proto();
  ClearQuestions(p);
  p.set_phase(PHASE_INTERNATIONAL);
  p.set_international_step(4);
  p.set_destabilisation_reserve(0);
  p.mutable_nations(0)->set_pop_rank(5);   // 10: spends 5
  p.mutable_nations(0)->set_military(0);
  p.mutable_nations(1)->set_military(10);  // population 2: spends 1
  s->Advance();
  ASSERT_EQ(s->proto().crises_size(), 1);
  ASSERT_EQ(s->ActingSeats(), std::vector<int>{0});
  EXPECT_EQ(s->proto().nations(1).military(), 9u);
  ASSERT_TRUE(s->Apply(0, Text("request_help { ask: true }")).ok());
  ASSERT_TRUE(s->Apply(1, Text("give_help { amount: 5 }")).ok());
  EXPECT_EQ(s->proto().nations(0).military(), 0u);
  EXPECT_EQ(s->proto().nations(1).military(), 4u);
  EXPECT_EQ(s->proto().phase(), PHASE_ALLIANCE);  // no class to lower: the step moved on
}

TEST(LimitAlliance, EconomicAllyPaysPartOfACard) {
  // Alliance économique: an ally may pay part or all of a card's $ cost so that it can be played.
  auto s = NewAllianceState(3);
  const std::string play = "play_card { card: " + std::to_string(CardId("public_spending")) + " }";
  PoliticalTurn(*s, 0, {"public_spending"});
  s->mutable_proto().mutable_nations(0)->set_money(1);  // population 2: 2 $
  EXPECT_EQ(s->Validate(0, Text(play)).code(), codes::kCannotPay);  // no ally yet
  Ally(*s, ALLIANCE_ECONOMIC, {0, 2}, 1);
  ASSERT_TRUE(s->Apply(0, Text(play)).ok());
  EXPECT_EQ(s->ActingSeats(), std::vector<int>{2});  // seat 1 is no ally: not asked
  ASSERT_TRUE(s->Apply(2, Text("contribute { amount: 1 }")).ok());
  EXPECT_EQ(s->proto().nations(0).money(), 0u);
  EXPECT_EQ(s->proto().nations(2).money(), 4u);
  EXPECT_EQ(s->proto().nations(0).disorder(), 4u);
  // Refused: the card stays in hand; the player may break the alliance.
  PoliticalTurn(*s, 0, {"public_spending"});
  s->mutable_proto().mutable_nations(0)->set_money(1);
  ASSERT_TRUE(s->Apply(0, Text(play)).ok());
  ASSERT_TRUE(s->Apply(2, Text("contribute { amount: 0 }")).ok());
  EXPECT_EQ(s->ActingSeats(), std::vector<int>{0});
  ASSERT_TRUE(s->Apply(0, Text("break_alliance { do_break: true }")).ok());
  EXPECT_EQ(s->proto().nations(2).economic_group(), 0u);
  EXPECT_EQ(s->proto().nations(2).destabilisation(), 1u);
  EXPECT_EQ(s->proto().nations(0).hand_size(), 1);
}

// ----- Permanent cards removed "à tout moment" -----

// RULES.md "Disorder as a cost": a disorder cost is paid on the track, never turned into
// destabilisation; the whole raise must fit below the top.
TEST(LimitPolitical, DisorderCostMustFitOnTheTrack) {
  auto s = NewState(2);
  PoliticalTurn(*s, 0, {"conscription", "vegetarianism"});
  auto& p = s->mutable_proto();
  const Action conscription =
      Text("play_card { card: " + std::to_string(CardId("conscription")) + " }");
  const Action vegetarianism =
      Text("play_card { card: " + std::to_string(CardId("vegetarianism")) + " }");
  auto playable = [&](const std::string& key) {
    auto owned = s->View(0);
    for (const auto& c : static_cast<const View&>(*owned).hand())
      if (c.id() == CardId(key)) return c.playable();
    ADD_FAILURE() << key << " not in hand";
    return false;
  };
  p.mutable_nations(0)->set_disorder(10);  // at the top: no disorder cost can be paid
  EXPECT_EQ(s->Validate(0, conscription).code(), codes::kCannotPay);
  EXPECT_EQ(s->Validate(0, vegetarianism).code(), codes::kCannotPay);
  EXPECT_FALSE(playable("conscription"));
  p.mutable_nations(0)->set_disorder(9);  // room for +1, not for +2
  EXPECT_EQ(s->Validate(0, vegetarianism).code(), codes::kCannotPay);
  EXPECT_FALSE(playable("vegetarianism"));
  EXPECT_TRUE(playable("conscription"));
  ASSERT_TRUE(s->Apply(0, conscription).ok());
  EXPECT_EQ(s->proto().nations(0).disorder(), 10u);
  EXPECT_EQ(s->proto().nations(0).destabilisation(), 0u);
}

// RULES.md "Surtaxe and the World Bank": Surtaxe needs its 10 $ plus 2 $ per population in the
// bank; no LIMIT money and no crisis tile pay for a card.
TEST(LimitCards, SurtaxNeedsTheWholePayoutInTheWorldBank) {
  auto s = NewState(2);
  PoliticalTurn(*s, 0, {"surtax"});
  auto& p = s->mutable_proto();
  p.mutable_nations(0)->set_pop_rank(5);  // population 10: 20 $ to receive
  p.mutable_nations(0)->set_money(0);
  const Action play = Text("play_card { card: " + std::to_string(CardId("surtax")) + " }");
  p.set_bank(29);
  EXPECT_EQ(s->Validate(0, play).code(), codes::kCannotPay);
  {
    auto owned = s->View(0);
    const auto& v = static_cast<const View&>(*owned);
    ASSERT_EQ(v.hand_size(), 1);
    EXPECT_FALSE(v.hand(0).playable());
  }
  p.set_bank(30);
  const uint64_t to_limit = p.money_to_limit();
  ASSERT_TRUE(s->Apply(0, play).ok());
  EXPECT_EQ(s->proto().nations(0).money(), 20u);
  EXPECT_EQ(s->proto().bank(), 0u);
  EXPECT_EQ(s->proto().money_to_limit(), to_limit + 10);
  EXPECT_EQ(s->proto().crises_size(), 0);
}

// RULES.md "Lowest / highest class": tied lowest classes lose from the bottom of the run (E); at
// level 1 the step passes to the lowest class that can still go down; all at 1 lose nothing.
TEST(LimitInternational, MilitaryCrisisLowestClassWithTies) {
  auto s = NewState(3);
  auto& p = s->mutable_proto();
  ClearQuestions(p);
  p.set_phase(PHASE_INTERNATIONAL);
  p.set_destabilisation_reserve(0);
  p.set_international_step(4);
  SetClasses(p.mutable_nations(0), {3, 2, 2, 2, 2});
  SetClasses(p.mutable_nations(1), {3, 2, 2, 1, 1});
  SetClasses(p.mutable_nations(2), {1, 1, 1, 1, 1});
  s->RunInternational();
  ASSERT_EQ(s->proto().crises_size(), 1);
  auto levels = [&](int seat) {
    const auto& c = s->proto().nations(seat).classes();
    return std::vector<uint32_t>(c.begin(), c.end());
  };
  EXPECT_EQ(levels(0), (std::vector<uint32_t>{3, 2, 2, 2, 1}));
  EXPECT_EQ(levels(1), (std::vector<uint32_t>{3, 2, 1, 1, 1}));
  EXPECT_EQ(levels(2), (std::vector<uint32_t>{1, 1, 1, 1, 1}));
}

// RULES.md "Shared payments": for Nettoyage de la planète and Aide humanitaire the other nations
// holding money are asked even when the player could pay alone; offers first, the player pays
// the rest.
TEST(LimitCards, SharedPaymentOpenEvenWhenThePlayerCanPayAlone) {
  for (const std::string key : {"planet_cleanup", "humanitarian_aid"}) {
    auto s = NewState(3);
    PoliticalTurn(*s, 0, {key});
    auto& p = s->mutable_proto();
    p.mutable_nations(0)->set_money(60);
    p.mutable_nations(1)->set_money(30);
    p.mutable_nations(2)->set_money(0);  // nothing to give: not asked
    const uint32_t bank = p.bank();
    ASSERT_TRUE(s->Apply(0, Text("play_card { card: " + std::to_string(CardId(key)) + " }")).ok())
        << key;
    EXPECT_EQ(s->ActingSeats(), std::vector<int>{1}) << key;
    ASSERT_TRUE(s->Apply(1, Text("contribute { amount: 20 }")).ok()) << key;
    EXPECT_EQ(s->proto().nations(0).money(), 30u) << key;
    EXPECT_EQ(s->proto().nations(1).money(), 10u) << key;
    EXPECT_EQ(s->proto().bank(), bank + 50) << key;
    const auto& hand = s->proto().nations(0).hand();
    EXPECT_EQ(std::find(hand.begin(), hand.end(), CardId(key)), hand.end()) << key;
  }
  // Nobody else holds money: the card is paid at once.
  auto s = NewState(2);
  PoliticalTurn(*s, 0, {"planet_cleanup"});
  s->mutable_proto().mutable_nations(0)->set_money(50);
  s->mutable_proto().mutable_nations(1)->set_money(0);
  ASSERT_TRUE(
      s->Apply(0, Text("play_card { card: " + std::to_string(CardId("planet_cleanup")) + " }")).ok());
  EXPECT_EQ(s->proto().nations(0).money(), 0u);
  EXPECT_EQ(s->ActingSeats(), std::vector<int>{0});
}

TEST(LimitCards, PermanentCardRemovedWheneverTheOwnerActs) {
  // Planification politique / Agriculture intensive: removable at any time (decision: whenever
  // the owner may act, also while a decision is asked of it); not while it may not act.
  auto s = NewState(2);
  auto& p = s->mutable_proto();
  ClearQuestions(p);
  p.set_phase(PHASE_SOCIAL);
  p.mutable_nations(0)->add_permanents(CardId("political_planning"));
  p.mutable_nations(1)->add_permanents(CardId("intensive_agriculture"));
  p.mutable_nations(1)->set_renewable_rank(3);
  SetClasses(p.mutable_nations(0), {3, 2, 1, 1, 1});
  auto* c = p.mutable_nations(0)->add_choices();
  c->set_kind(PROMPT_RAISE_CLASS);
  c->set_count(1);
  // Loaded as a printed position is, the choice written in it is asked through the core's queue.
  auto loaded = Game().FromProto(internal::StateProto(p));
  ASSERT_TRUE(loaded.ok());
  s.reset(static_cast<LimitState*>(loaded.value().release()));
  const std::string remove_planning =
      "remove_permanent { card: " + std::to_string(CardId("political_planning")) + " }";
  const std::string remove_agriculture =
      "remove_permanent { card: " + std::to_string(CardId("intensive_agriculture")) + " }";
  EXPECT_TRUE(HasAction(*s, 0, remove_planning));
  EXPECT_EQ(s->Validate(1, Text(remove_agriculture)).code(), engine::codes::kNotYourTurn);
  const uint32_t disorder = s->proto().nations(0).disorder();
  ASSERT_TRUE(s->Apply(0, Text(remove_planning)).ok());
  EXPECT_EQ(s->proto().nations(0).permanents_size(), 0);
  EXPECT_EQ(s->proto().nations(0).disorder(), disorder + 2);
  // The decision asked is still open, in the core's queue.
  ASSERT_NE(s->OpenDecisionOf(0), nullptr);
  ASSERT_EQ(ChoiceCount(s->proto(), 0), 1);
  EXPECT_EQ(ChoicesOf(s->proto(), 0)[0].kind(), PROMPT_RAISE_CLASS);
}

TEST(LimitView, CardsCarryTheirParameterChoicesAndClassSteps) {
  // What the UI needs to build a play form comes from the engine's card data: the printed part
  // from the static data (under the card's id), the prices from the owner's view.
  auto s = NewState(2);
  PoliticalTurn(*s, 0, {"urbanisation", "indoctrination", "robotisation", "military_operation"});
  auto& p = s->mutable_proto();
  p.mutable_nations(0)->set_military_rank(3);
  auto owned = s->View(0);
  const auto& v = static_cast<const View&>(*owned);
  ASSERT_EQ(v.hand_size(), 4);
  const auto& data = static_cast<const StaticData&>(*Game().StaticData());
  auto printed = [&](int i) -> const Card& { return data.cards(static_cast<int>(v.hand(i).id())); };
  EXPECT_EQ(printed(0).id(), v.hand(0).id());
  EXPECT_EQ(printed(0).key(), "urbanisation");
  EXPECT_EQ(printed(0).class_steps().steps(), 2u);
  EXPECT_FALSE(printed(0).class_steps().down());
  EXPECT_EQ(printed(1).class_steps().steps(), 1u);
  EXPECT_TRUE(printed(1).class_steps().down());
  EXPECT_FALSE(printed(1).class_steps().on_target());
  // The view's card is its id and what the owner's position sets, nothing printed.
  EXPECT_TRUE(v.hand(0).name().empty());
  EXPECT_TRUE(v.hand(0).effect_text().empty());
  EXPECT_FALSE(v.hand(0).has_class_steps());
  const Card& robot = printed(2);
  EXPECT_EQ(robot.tech_level(), 3u);
  ASSERT_EQ(robot.factory_options_size(), 2);
  EXPECT_EQ(robot.factory_options(0), FACTORY_INDUSTRIAL);
  EXPECT_EQ(robot.factory_options(1), FACTORY_MILITARY);
  EXPECT_EQ(printed(3).resource_options_size(), 3);
  // A resource outside the card's options is refused.
  EXPECT_EQ(s->Validate(0, Text("play_card { card: " + std::to_string(CardId("military_operation")) +
                                " target: 1 military: 10 resource: RESOURCE_MILITARY }"))
                .code(),
            codes::kBadParameter);
}

TEST(LimitPublishedMoves, MarketCardsOfferAsManyTransactionsAsAPlayMakes) {
  // Bourse: two transactions per market card instead of one.
  auto s = NewState(2);
  PoliticalTurn(*s, 0, {"market_access", "soft_power"});
  auto most = [&] {
    auto owned = s->View(0);
    int n = -1;
    for (const auto& a : engine::PublishedActions(Game(), *owned)) {
      const auto& act = static_cast<const Action&>(*a);
      if (act.has_play_card() && act.play_card().card() == CardId("market_access"))
        n = std::max(n, act.play_card().transactions_size());
    }
    return n;
  };
  EXPECT_EQ(most(), 1);
  s->mutable_proto().mutable_nations(0)->add_permanents(CardId("stock_exchange"));
  EXPECT_EQ(most(), 2);
}

TEST(LimitView, StaticDataIsThePrintedBoardPricesAndEvents) {
  const auto& data = static_cast<const StaticData&>(*Game().StaticData());
  const auto& b = data.board();
  const auto& d = Game().board();
  auto s = NewState(3);
  ASSERT_EQ(b.population_size(), d.population_size());
  EXPECT_EQ(b.population(2), d.population(2));
  EXPECT_EQ(b.demographic_index_size(), d.demographic_index_size());
  ASSERT_EQ(b.tracks_size(), 3);
  EXPECT_EQ(b.tracks(1).factory(), FACTORY_INDUSTRIAL);
  EXPECT_EQ(b.tracks(1).value(4), s->TrackValue(FACTORY_INDUSTRIAL, 5));
  EXPECT_EQ(b.tracks(2).fossil_size(), d.tracks(2).fossil_size());
  EXPECT_EQ(b.tracks(2).pollution(7), d.tracks(2).pollution(7));
  EXPECT_EQ(b.territory_rank_bonus(), d.territory_rank_bonus());
  EXPECT_EQ(std::vector<uint32_t>(data.prices().begin(), data.prices().end()),
            std::vector<uint32_t>(d.prices().begin(), d.prices().end()));
  ASSERT_EQ(data.events_size(), d.events_size());
  for (int i = 0; i < d.events_size(); ++i) {
    EXPECT_EQ(data.events(i).id(), static_cast<uint32_t>(i));
    EXPECT_EQ(data.events(i).name(), d.events(i).name());
    EXPECT_EQ(data.events(i).text(), d.events(i).text());
  }
  ASSERT_EQ(data.cards_size(), Game().cards().cards_size());
  for (int i = 0; i < data.cards_size(); ++i) {
    EXPECT_EQ(data.cards(i).id(), static_cast<uint32_t>(i));
    EXPECT_EQ(data.cards(i).name(), Game().cards().cards(i).name());
    // Nothing in it depends on a position.
    EXPECT_FALSE(data.cards(i).playable());
  }
  // A market track's position indexes the static prices.
  auto owned = s->View(-1);
  const auto& market = static_cast<const View&>(*owned).market();
  ASSERT_EQ(market.tracks_size(), 4);
  EXPECT_LT(market.tracks(0).position(), static_cast<uint32_t>(data.prices_size()));
}

TEST(LimitView, TerminalTextNamesCardsAndPricesFromTheGame) {
  // The view names cards by id: the terminal finds their printed names and costs, and the
  // market's prices, in the game's own data.
  auto s = NewState(2);
  PoliticalTurn(*s, 0, {"urbanisation", "craft"});
  const auto& craft = Game().CardTemplate(CardId("craft"));
  const std::string text = Game().ViewText(*s->View(0), [](int seat) {
    return "seat" + std::to_string(seat);
  });
  // In the interface's language, the name printed on the card beside it.
  EXPECT_NE(text.find("[" + std::to_string(CardId("craft")) + "] Craft (Artisanat) - "),
            std::string::npos) << text;
  EXPECT_EQ(craft.name(), "Artisanat");
  EXPECT_NE(text.find(craft.cost_text() + " / " + craft.effect_text()), std::string::npos) << text;
  const auto& market = s->proto().market(0);
  const uint32_t price = Game().board().prices(static_cast<int>(market.position()));
  EXPECT_NE(text.find("Market: R " + std::to_string(price) + "$"), std::string::npos) << text;
}

TEST(LimitView, LogKeepsTheLatestEntriesAndMostlyAppends) {
  // The core trims the table's log by half when it holds 80 entries (its LogLimit()), so
  // updates between trims only append.
  constexpr int kLimit = 80;
  auto s = NewState(2);
  int trims = 0, last_size = static_cast<int>(engine::LogSize(s->table()));
  for (int k = 0; k < 200; ++k) {
    PoliticalTurn(*s, 0, {});
    s->mutable_proto().mutable_nations(1)->set_passed(false);
    ASSERT_TRUE(s->Apply(0, Text("pass {}")).ok());
    const int size = static_cast<int>(engine::LogSize(s->table()));
    ASSERT_LE(size, kLimit);
    if (size < last_size) {
      ++trims;
      ASSERT_GE(size, kLimit / 2);
    }
    last_size = size;
    const engine::LogRef last = engine::LogAt(s->table(), static_cast<size_t>(size - 1));
    EXPECT_EQ(Short(engine::LogText(last)), "limit.log.passes(@0)");
    EXPECT_EQ(last.seq + 1, s->table().log_seq());
    // Every view carries it, spectators' included (a pass is public).
    for (int viewer = -1; viewer < 2; ++viewer) {
      auto owned = s->View(viewer);
      const auto& log = static_cast<const View&>(*owned).table().log();
      ASSERT_EQ(log.size(), size);
      EXPECT_EQ(log[size - 1].seq(), last.seq);
      EXPECT_EQ(log[size - 1].text().key(), "limit.log.passes");
    }
  }
  EXPECT_GT(trims, 1);
}

// Every phrase LIMIT logs in played games has its template (the conformance suite checks it
// too), names seats as arguments (never "Seat N" in words), and is read by real seats only.
TEST(LimitView, EveryLoggedPhraseHasWordsAndNoSeatText) {
  const engine::Catalogue& words = Game().TextRenderer();
  // The templates themselves never spell a seat.
  int log_templates = 0;
  for (const auto& t : Game().Texts().templates()) {
    if (t.key().rfind("limit.log.", 0) != 0) continue;
    ++log_templates;
    EXPECT_EQ(t.en().find("Seat "), std::string::npos) << t.key();
  }
  EXPECT_GT(log_templates, 0);
  std::set<std::string> keys;
  uint64_t entries = 0;
  for (int seats : {1, 2, 3, 4}) {
    auto s = seats % 2 == 0 ? NewAllianceState(seats, 31 + seats) : NewState(seats, 31 + seats);
    engine::Rng rng(static_cast<uint64_t>(seats) * 17);
    uint64_t next = 0;  // entries before this number were checked already
    auto check_new = [&]() {
      for (const engine::LogRef& e : engine::LogOf(s->table())) {
        if (e.seq < next) continue;
        ++entries;
        const engine::v1::Text text = engine::LogText(e);
        keys.insert(text.key());
        EXPECT_EQ(words.MissingKeys(text), std::vector<std::string>{}) << Short(text);
        const std::string w = Words(text);
        EXPECT_EQ(w.find("Seat "), std::string::npos) << w;
        EXPECT_EQ(w.find("{?}"), std::string::npos) << "an argument is missing: " << w;
        // Only seats of the game may read a private entry.
        EXPECT_EQ(e.readers & ~engine::kLogRestricted & ~((1u << seats) - 1), 0u) << Short(text);
      }
      next = s->table().log_seq();
    };
    check_new();
    int steps = 0;
    while (!s->IsTerminal()) {
      ASSERT_LT(++steps, 20000) << "game does not end";
      auto acting = s->ActingSeats();
      ASSERT_FALSE(acting.empty());
      const int seat = acting[rng.Below(acting.size())];
      auto legal = s->LegalActions(seat);
      if (legal.empty() && !s->Prompts(seat).empty())
        legal.push_back(Game().WrapAnswer(engine::DrawAnswer(s->Prompts(seat)[0], rng)));
      ASSERT_FALSE(legal.empty());
      ASSERT_TRUE(s->Apply(seat, *legal[rng.Below(legal.size())]).ok());
      check_new();
    }
    EXPECT_EQ(engine::LogText(engine::LogAt(s->table(), engine::LogSize(s->table()) - 1)).key(),
              "limit.log.game_over");
  }
  EXPECT_GT(entries, 100u);
  // Generations, political turns, the social phase and the end at least.
  EXPECT_GE(keys.size(), 10u);
  for (const char* k : {"limit.log.generation", "limit.log.social_phase", "limit.log.feeds",
                        "limit.log.produces", "limit.log.resilience", "limit.log.game_over"})
    EXPECT_EQ(keys.count(k), 1u) << k;
}

// ----- Random playouts -----

void CheckInvariants(const LimitState& s) {
  const auto& p = s.proto();
  uint64_t money = p.bank(), fossil = p.colonisation_fossil(), pollution = p.pollution_reserve();
  uint64_t destab = p.destabilisation_reserve(), territories = p.colonisation_territories();
  for (const auto& m : p.market())
    if (m.resource() == RESOURCE_FOSSIL) fossil += m.stock();
  for (const auto& n : p.nations()) {
    money += n.money();
    fossil += n.fossil();
    pollution += n.pollution();
    destab += n.destabilisation();
    territories += n.territories();
    for (int c = 1; c < 5; ++c) ASSERT_LE(n.classes(c), n.classes(c - 1)) << "class order broken";
    for (int c = 0; c < 5; ++c) ASSERT_TRUE(n.classes(c) >= 1 && n.classes(c) <= 4);
    ASSERT_LT(n.disorder(), 11u);
    ASSERT_GE(n.pop_rank(), 1u);
    ASSERT_LE(n.pop_rank(), 9u);
    ASSERT_LE(static_cast<int>(n.renewable_rank()),
              std::max<int>(1, std::min<int>(8, n.territories() + 1)));
  }
  if (p.solo()) {
    money += p.star().money();
    fossil += p.star().fossil();
    pollution += p.star().pollution();
    destab += p.star().destabilisation();
    territories += p.star().territories();
  }
  ASSERT_EQ(money, p.initial_money() + p.money_from_limit() - p.money_to_limit());
  ASSERT_EQ(fossil, p.initial_fossil() + p.fossil_from_limit() - p.fossil_to_limit());
  ASSERT_EQ(pollution, p.initial_pollution() + p.excess_pollution());
  ASSERT_TRUE(p.excess_pollution() == 0 || p.pollution_reserve() == 0);
  ASSERT_EQ(destab, p.initial_destabilisation() + p.destabilisation_from_limit());
  ASSERT_EQ(territories + p.territories_to_limit(), p.initial_territories());
}

void CheckViews(const LimitState& s) {
  for (int viewer = -1; viewer < s.num_seats(); ++viewer) {
    auto v = s.View(viewer);
    const auto& view = static_cast<const View&>(*v);
    if (viewer < 0) {
      ASSERT_EQ(view.hand_size(), 0);
    } else {
      ASSERT_EQ(view.hand_size(), s.proto().nations(viewer).hand_size());
    }
    for (const auto& pr : view.prompts())
      if (static_cast<int>(pr.seat()) != viewer) {
        ASSERT_EQ(pr.drawn_size(), 0);
      }
  }
}

class LimitPlayout : public ::testing::TestWithParam<int> {};

void CheckAlliances(const LimitState& s) {
  // No token stays alone in the centre; a group's tokens share one side.
  const auto& p = s.proto();
  for (const auto& n : p.nations()) {
    for (bool military : {true, false}) {
      const uint32_t g = military ? n.military_group() : n.economic_group();
      if (g == 0) continue;
      int members = 0;
      for (const auto& m : p.nations())
        members += (military ? m.military_group() : m.economic_group()) == g;
      ASSERT_GE(members, 2) << "an alliance token alone in the centre";
    }
  }
}

TEST_P(LimitPlayout, RandomGamesEndWithInvariants) {
  const int seats = GetParam();
  int allied = 0, helped = 0;  // positions with an alliance / a help answer awaited
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    auto s = seed % 2 == 0 ? NewAllianceState(seats, seed * 101 + seats)
                           : NewState(seats, seed * 101 + seats);
    engine::Rng rng(seed);
    int steps = 0;
    while (!s->IsTerminal()) {
      ASSERT_LT(++steps, 20000) << "game does not end";
      CheckInvariants(*s);
      CheckAlliances(*s);
      for (const auto& n : s->proto().nations()) {
        allied += n.military_group() != 0 || n.economic_group() != 0;
      }
      for (const auto& d : s->table().decisions()) helped += d.kind() == PROMPT_HELP_ANSWER;
      if (steps % 7 == 0) CheckViews(*s);
      auto acting = s->ActingSeats();
      ASSERT_FALSE(acting.empty());
      const int seat = acting[rng.Below(acting.size())];
      auto legal = s->LegalActions(seat);
      // Too many orders of ten drawn cards to list: the question describes them; draw one.
      if (legal.empty() && !s->Prompts(seat).empty())
        legal.push_back(Game().WrapAnswer(engine::DrawAnswer(s->Prompts(seat)[0], rng)));
      ASSERT_FALSE(legal.empty()) << s->DebugString();
      if (steps % 11 == 0) {
        // Checking an action never changes the position (validation writes nothing), and what a
        // seat cannot see never reaches its view.
        const std::string before = s->Serialize();
        for (const auto& a : legal) ASSERT_TRUE(s->Validate(seat, *a).ok());
        for (int other = 0; other < seats; ++other) s->LegalActions(other);
        ASSERT_EQ(s->Serialize(), before);
        auto perturbed = s->PerturbHidden(seat, seed + steps);
        ASSERT_EQ(engine::DeterministicBytes(*perturbed->View(seat)),
                  engine::DeterministicBytes(*s->View(seat)));
      }
      const auto& a = *legal[rng.Below(legal.size())];
      auto st = s->Apply(seat, a);
      ASSERT_TRUE(st.ok()) << st.ToString();
    }
    CheckInvariants(*s);
    EXPECT_EQ(s->proto().scores_size(), seats);
    const auto& p = s->proto();
    EXPECT_TRUE(p.generation() == 7 || p.crises_size() >= 4);
  }
  // Random play with the option must reach the alliance rules, or they go untested here.
  if (seats > 1) {
    EXPECT_GT(allied, 0);
  }
  if (seats > 2) {
    EXPECT_GT(helped, 0);
  }
}

INSTANTIATE_TEST_SUITE_P(Seats, LimitPlayout, ::testing::Values(1, 2, 3, 4, 6));

}  // namespace
}  // namespace plateau::games::limit
