// Guerre Froide: the faction powers, the events, the Cryptographers, doubled agents, civil
// disorder for everyone, and the balance token's tie rules, each against RULES.md.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "tests/games/guerre_froide/support.h"

namespace plateau::games::guerre_froide::rule_test {
namespace {

// ----- Faction powers (RULES.md, "The faction powers") -----

TEST(GuerreFroidePowers, MilitaryDiscardsAnyOtherGroupInPlay) {
  internal::StateProto s = Struggle(2, "korea", 0);
  Give(s, 0, "army");
  Give(s, 1, "banks");
  Agent(s, 0, AGENT_ANALYST);
  Agent(s, 1, AGENT_ANALYST);
  auto state = Load(s);
  EXPECT_EQ(state->Validate(0, Activate("army", "army")).code(), codes::kBadTarget);  // not itself
  Play(*state, 0, Activate("army", "banks"));
  EXPECT_EQ(P(*state).seats(1).groups_size(), 0);
  EXPECT_TRUE(Has(P(*state).group_discard(), G("banks")));
  EXPECT_TRUE(P(*state).seats(0).groups(0).mobilized());  // used: mobilized
  // A mobilized group cannot act again.
  Play(*state, 1, Recruit());
  EXPECT_EQ(state->Validate(0, Activate("army", "army")).code(), codes::kBadGroup);
}

TEST(GuerreFroidePowers, EconomicFlipsAnotherNonEconomicGroup) {
  internal::StateProto s = Struggle(2, "korea", 0);
  Give(s, 0, "mafia");
  Give(s, 1, "banks");
  Give(s, 1, "radio");
  Agent(s, 0, AGENT_ANALYST);
  Agent(s, 1, AGENT_ANALYST);
  auto state = Load(s);
  EXPECT_EQ(state->Validate(0, Activate("mafia", "banks")).code(), codes::kBadTarget);
  Play(*state, 0, Activate("mafia", "radio"));
  EXPECT_TRUE(P(*state).seats(1).groups(1).mobilized());  // Radio flipped to mobilized
  EXPECT_FALSE(P(*state).seats(1).groups(0).mobilized());
}

TEST(GuerreFroidePowers, MediaLooksAtTheTopGroupPrivatelyThenRecruitsDiscardsOrLeavesIt) {
  for (const std::string choice : {"recruit", "discard", "leave"}) {
    internal::StateProto s = Struggle(2, "korea", 0);
    Give(s, 0, "newspapers");
    Agent(s, 0, AGENT_ANALYST);
    Agent(s, 1, AGENT_ANALYST);
    const uint32_t top = s.group_deck(0);
    auto state = Load(s);
    Play(*state, 0, Activate("newspapers"));
    // Only the Media's player sees the card.
    auto mine = state->View(0);
    auto theirs = state->View(1);
    ASSERT_EQ(static_cast<const View&>(*mine).looking_at_size(), 1);
    EXPECT_EQ(static_cast<const View&>(*mine).looking_at(0), Game().group(top).id());
    EXPECT_EQ(static_cast<const View&>(*theirs).looking_at_size(), 0);
    EXPECT_TRUE(state->Prompts(1).empty());
    Play(*state, 0, Answer(*state, 0, choice));
    const auto& after = P(*state);
    if (choice == "recruit") {
      EXPECT_EQ(after.seats(0).groups(1).card(), top);
    } else if (choice == "discard") {
      EXPECT_TRUE(Has(after.group_discard(), top));
    } else {
      EXPECT_EQ(after.group_deck(0), top);
    }
    EXPECT_EQ(after.to_act(), 1) << choice;  // the answer ends the turn
  }
}

TEST(GuerreFroidePowers, PoliticalRespectsTheReceiversPopulationLimit) {
  internal::StateProto s = Struggle(2, "afghanistan", 0);  // 2 groups at most
  Give(s, 0, "students");                                  // political 1
  Give(s, 1, "guerrillas");
  Give(s, 1, "militia");
  Agent(s, 0, AGENT_ANALYST);
  Agent(s, 1, AGENT_ANALYST);
  auto state = Load(s);
  EXPECT_EQ(state->Validate(0, Activate("students", "students", 1)).code(), codes::kBadTarget);
  // Taking Militia: the taker has room for a second group.
  Play(*state, 0, Activate("students", "militia", 0));
  EXPECT_EQ(P(*state).seats(0).groups_size(), 2);
  // Now the KGB holds two, Afghanistan's limit: it cannot recruit.
  Play(*state, 1, Pass());
  EXPECT_EQ(state->Validate(0, Recruit()).code(), codes::kPopulation);
}

// ----- Events (RULES.md, "The events") -----

TEST(GuerreFroideEvents, NuclearEscalationDiscardsUpToTwoGroupsInTheOrderGiven) {
  internal::StateProto s = Struggle(2, "korea", 0);
  Give(s, 0, "students");
  Give(s, 1, "banks");
  Give(s, 1, "army");
  Hold(s, 0, "nuclear_escalation");
  Agent(s, 0, AGENT_ANALYST);
  Agent(s, 1, AGENT_ANALYST);
  auto state = Load(s);
  const uint32_t vp = Game().objective(O("nuclear_escalation")).vp();
  EXPECT_EQ(state->Validate(0, Use("nuclear_escalation")).code(), codes::kBadTarget);
  Play(*state, 0, Use("nuclear_escalation", {"army", "banks"}));
  const auto& after = P(*state);
  ASSERT_EQ(after.group_discard_size(), 2);
  EXPECT_EQ(after.group_discard(0), G("army"));
  EXPECT_EQ(after.group_discard(1), G("banks"));  // last discarded on top
  EXPECT_EQ(after.seats(0).score(), 0u);          // its VP lost
  EXPECT_TRUE(Has(after.objective_discard(), O("nuclear_escalation")));
  EXPECT_EQ(after.seats(0).won_size(), 0);
  EXPECT_GT(vp, 0u);
}

TEST(GuerreFroideEvents, LiveBenefitRecruitsTheTopOfTheDiscardPile) {
  internal::StateProto s = Struggle(2, "korea", 0);
  Hold(s, 0, "live_benefit");
  Agent(s, 0, AGENT_ANALYST);
  Agent(s, 1, AGENT_ANALYST);
  {
    auto state = Load(s);
    EXPECT_EQ(state->Validate(0, Use("live_benefit")).code(), codes::kNothingToDo);  // empty pile
  }
  Remove(s.mutable_group_deck(), G("army"));
  s.add_group_discard(G("army"));
  auto state = Load(s);
  // Allowed with no group in front of you: it is a recruit.
  Play(*state, 0, Use("live_benefit"));
  EXPECT_EQ(P(*state).seats(0).groups(0).card(), G("army"));
  EXPECT_EQ(P(*state).group_discard_size(), 0);
}

TEST(GuerreFroideEvents, OlympicGamesReadiesEveryMobilizedGroupOfYours) {
  internal::StateProto s = Struggle(2, "korea", 0);
  Give(s, 0, "army", true);
  Give(s, 0, "banks", true);
  Hold(s, 0, "olympic_games");
  Agent(s, 0, AGENT_ANALYST);
  Agent(s, 1, AGENT_ANALYST);
  auto state = Load(s);
  Play(*state, 0, Use("olympic_games"));
  for (const auto& g : P(*state).seats(0).groups()) EXPECT_FALSE(g.mobilized());
}

TEST(GuerreFroideEvents, SummitMeetingBringsAgentsBackFromLeaveBeforeTheChoice) {
  auto state = Game().NewGame(2, "", 3).value();
  internal::StateProto s = P(*state);
  Remove(s.mutable_seats(0)->mutable_hq(), AGENT_DIRECTOR);
  s.mutable_seats(0)->add_leave(AGENT_DIRECTOR);
  Hold(s, 0, "summit_meeting");
  auto st = Load(s);
  Action director;
  director.mutable_choose_agent()->set_agent(AGENT_DIRECTOR);
  EXPECT_EQ(st->Validate(0, director).code(), codes::kAgentUnavailable);
  Play(*st, 0, Use("summit_meeting"));
  EXPECT_TRUE(st->Validate(0, director).ok());
  Play(*st, 0, director);
}

TEST(GuerreFroideEvents, TheNobelPeacePrizeSendsTheAgentOnLeaveInsteadOfTerminated) {
  internal::StateProto s = KgbOverCubaWithTheNobel(AGENT_DIRECTOR, AGENT_ANALYST);
  auto state = Load(s);
  Play(*state, 0, Pass());
  // Revealed before the question.
  ASSERT_EQ(state->ActingSeats(), std::vector<int>{0});
  Play(*state, 0, AnswerYes(*state, 0, true));
  const auto& after = P(*state);
  EXPECT_EQ(after.seats(0).terminated_size(), 0);
  EXPECT_TRUE(Has(after.seats(0).leave(), AGENT_DIRECTOR));
  EXPECT_EQ(after.seats(0).score(), 0u);   // the prize's VP lost
  EXPECT_EQ(after.seats(1).score(), 10u);  // the opponent still claims Cuba
}

TEST(GuerreFroideEvents, SpaceRaceOrdersTheNextObjectivesAndItsVpAreLostBeforeVictory) {
  internal::StateProto s = KgbAheadOnCuba(AGENT_ANALYST, AGENT_ANALYST);
  Hold(s, 0, "space_race");
  const uint32_t vp = Game().objective(O("space_race")).vp();
  // Cuba brings the KGB to the goal - 1 + the Space Race's VP.
  s.mutable_seats(0)->set_score(kGoalTwoPlayers - 10 + vp - 1);
  auto state = Load(s);
  Play(*state, 0, Pass());
  ASSERT_EQ(Asked(P(*state)), internal::ASK_SPACE_RACE);
  Play(*state, 0, AnswerYes(*state, 0, true));
  ASSERT_EQ(Asked(P(*state)), internal::ASK_SPACE_RACE_ORDER);
  const auto prompt = state->Prompts(0).at(0);
  ASSERT_EQ(prompt.options_size(), kSpaceRaceCards);
  Action order;
  order.mutable_core()->mutable_answer()->set_prompt_id(prompt.id());
  for (int i = prompt.options_size() - 1; i >= 0; --i) {
    order.mutable_core()->mutable_answer()->add_options(prompt.options(i).id());
  }
  Play(*state, 0, order);
  const auto& after = P(*state);
  // Reversed on top: the last shown became this turn's objective (turn 2 began).
  EXPECT_EQ(after.objective(),
            Game().ObjectiveIndex(prompt.options(prompt.options_size() - 1).id()));
  EXPECT_NE(after.phase(), PHASE_GAME_OVER);  // 99 after spending: not a winner
  EXPECT_EQ(after.seats(0).score(), kGoalTwoPlayers - 1);
}

// ----- Cryptographers (RULES.md, "The agents") -----

TEST(GuerreFroideAgents, OneDrawnCardResolvesEveryCryptographer) {
  internal::StateProto s =
      KgbAheadOnCuba(AGENT_CRYPTOGRAPHER_DRAW, AGENT_CRYPTOGRAPHER_DRAW, CRYPTOGRAPHER_DRAW);
  ToTop(s, "radio");  // influence 5: both score
  auto state = Load(s);
  Play(*state, 0, Pass());
  const auto& after = P(*state);
  EXPECT_EQ(after.seats(0).score(), 10u + kCryptographerDrawVp);  // Cuba and the draw
  EXPECT_EQ(after.seats(1).score(), kCryptographerDrawVp);
}

TEST(GuerreFroideAgents, TheBiasCryptographerScoresOnTheObjectivesLargestIcon) {
  internal::StateProto s =  // Cuba's largest icon is economic
      KgbAheadOnCuba(AGENT_ANALYST, AGENT_CRYPTOGRAPHER_BIAS, CRYPTOGRAPHER_BIAS);
  ToTop(s, "unions");  // economic, Cuba's largest icon
  auto state = Load(s);
  Play(*state, 0, Pass());
  EXPECT_EQ(P(*state).seats(1).score(), kCryptographerBiasVp);
}

// ----- Doubled agents and civil disorder for everyone -----

TEST(GuerreFroideAgents, TwoAnalystsWithTwoPlayers_OnlyTheNonDominatingOneActs) {
  internal::StateProto s = KgbAheadOnCuba(AGENT_ANALYST, AGENT_ANALYST);
  auto state = Load(s);
  Play(*state, 0, Pass());
  // Seat 0 dominated: seat 1's Analyst orders the top groups next Briefing.
  EXPECT_EQ(Asked(P(*state)), internal::ASK_ANALYST_ORDER);
  EXPECT_EQ(AskedSeat(P(*state)), 1u);
}

TEST(GuerreFroideAgents, TwoAnalystsWithThreePlayers_OnlyTheDominatingOneActs) {
  internal::StateProto s = Struggle(3, "cuba", 0);
  Give(s, 0, "industry");
  Give(s, 1, "students");
  Give(s, 2, "guerrillas");
  Agent(s, 0, AGENT_ANALYST);
  Agent(s, 1, AGENT_ANALYST);
  Agent(s, 2, AGENT_DIRECTOR);
  s.set_passes(2);
  auto state = Load(s);
  Play(*state, 0, Pass());
  EXPECT_EQ(Asked(P(*state)), internal::ASK_ANALYST_ORDER);
  EXPECT_EQ(AskedSeat(P(*state)), 0u);
}

TEST(GuerreFroideCeaseFire, BothPlayersInCivilDisorderSendTheObjectiveToTheBottom) {
  internal::StateProto s = Struggle(2, "honduras", 0);  // stability 4
  Give(s, 0, "army");
  Give(s, 1, "banks");
  Agent(s, 0, AGENT_ANALYST);
  Agent(s, 1, AGENT_DIRECTOR);
  s.set_passes(1);
  auto state = Load(s);
  Play(*state, 0, Pass());
  const auto& after = P(*state);
  ExpectUnclaimedAtTheBottom(after, "honduras");
  EXPECT_EQ(after.seats(0).terminated_size() + after.seats(1).terminated_size(), 2);
  // Both in disorder: no single loser, and the tied holder keeps the balance token.
  EXPECT_EQ(after.balance(), 0);
}

TEST(GuerreFroideCeaseFire, WithThreePlayersTheBestPlayerInOrderDominatesWithoutAnImmediateClaim) {
  internal::StateProto s = Struggle(3, "cuba", 0);
  Give(s, 0, "army");
  Give(s, 0, "banks");  // over
  Give(s, 1, "industry");
  Give(s, 2, "students");
  Agent(s, 0, AGENT_ANALYST);
  Agent(s, 1, AGENT_MASTER_SPY);  // own box with three players: the runner-up claims
  Agent(s, 2, AGENT_DIRECTOR);
  s.set_passes(2);
  auto state = Load(s);
  Play(*state, 0, Pass());
  const auto& after = P(*state);
  EXPECT_EQ(after.seats(2).score(), 10u);  // MI6 (Students, 1) came next and claims Cuba
  EXPECT_EQ(after.seats(1).score(), 0u);
  // MI6's Director: another service dominated, no effect.
}

// ----- The balance token (RULES.md, "The balance token") -----

TEST(GuerreFroideBriefing, TheLoserAmongTheLowestTakesTheBalanceToken) {
  internal::StateProto s = Struggle(2, "cuba", 0);
  Give(s, 0, "army");
  Give(s, 0, "banks");  // seat 0 busts: the loser
  Give(s, 1, "students");
  Agent(s, 0, AGENT_ANALYST);
  Agent(s, 1, AGENT_ANALYST);
  s.set_balance(1);
  s.mutable_seats(0)->set_score(10);  // after Cuba both stand at 10
  s.set_passes(1);
  auto state = Load(s);
  Play(*state, 0, Pass());
  EXPECT_EQ(P(*state).seats(1).score(), 10u);
  EXPECT_EQ(P(*state).balance(), 0);
}

TEST(GuerreFroideBriefing, WithThreePlayersALoserNotAmongTheLowestGivesTheToken) {
  internal::StateProto s = Struggle(3, "cuba", 0);
  Give(s, 0, "industry");
  Give(s, 1, "students");
  Give(s, 2, "army");
  Give(s, 2, "banks");                 // seat 2 busts: the single loser of the cease-fire
  Agent(s, 0, AGENT_DEPUTY_DIRECTOR);  // no agenda: Cuba alone moves the scores
  Agent(s, 1, AGENT_DEPUTY_DIRECTOR);
  Agent(s, 2, AGENT_DIRECTOR);
  s.mutable_seats(1)->set_score(10);  // seat 0 claims Cuba: seats 0 and 1 tie at 10
  s.mutable_seats(2)->set_score(30);
  s.set_passes(2);
  auto state = Load(s);
  Play(*state, 0, Pass());
  ASSERT_EQ(Asked(P(*state)), internal::ASK_BALANCE);
  ASSERT_EQ(AskedSeat(P(*state)), 2u);
  const auto prompt = state->Prompts(2).at(0);
  ASSERT_EQ(prompt.options_size(), 2);  // the two tied players
  Play(*state, 2, Answer(*state, 2, "seat.1"));
  EXPECT_EQ(P(*state).balance(), 1);
  EXPECT_EQ(P(*state).phase(), PHASE_PLANNING);
}

}  // namespace
}  // namespace plateau::games::guerre_froide::rule_test
