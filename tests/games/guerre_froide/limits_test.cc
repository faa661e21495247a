// Guerre Froide: the edges of the rules — what a power, an event or an agent may not do, and the
// cases where a rule leaves nothing to do — each against RULES.md.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "tests/games/guerre_froide/support.h"

namespace plateau::games::guerre_froide::rule_test {
namespace {

bool StepActed(const engine::State& state, int seat, AgentKind agent) {
  auto view = state.View(engine::kSpectator);
  for (const auto& step : static_cast<const View&>(*view).debriefing()) {
    if (step.seat() == static_cast<uint32_t>(seat) && step.agent() == agent) return step.acted();
  }
  ADD_FAILURE() << "no Debriefing step for seat " << seat << "'s " << AgentKind_Name(agent);
  return false;
}

// ----- Doubles with three players (RULES.md, "The agents") -----

TEST(GuerreFroideLimits, TwoDoubleAgentsNeitherOfTheDominatingService_NoneActs) {
  auto state = Load(KgbAheadOfTwo(AGENT_DEPUTY_DIRECTOR, AGENT_DOUBLE_AGENT, AGENT_DOUBLE_AGENT));
  Play(*state, 0, Pass());
  const auto& after = P(*state);
  EXPECT_NE(Asked(after), internal::ASK_DOUBLE_AGENT);
  EXPECT_FALSE(after.seats(1).sees_next());
  EXPECT_FALSE(after.seats(2).sees_next());
  EXPECT_FALSE(StepActed(*state, 1, AGENT_DOUBLE_AGENT));
  EXPECT_FALSE(StepActed(*state, 2, AGENT_DOUBLE_AGENT));
  EXPECT_EQ(after.seats(0).score(), 10u);
}

TEST(GuerreFroideLimits, TwoAnalystsNeitherOfTheDominatingServiceWithThreePlayers_NoneActs) {
  auto state = Load(KgbAheadOfTwo(AGENT_DEPUTY_DIRECTOR, AGENT_ANALYST, AGENT_ANALYST));
  Play(*state, 0, Pass());
  const auto& after = P(*state);
  EXPECT_EQ(after.phase(), PHASE_PLANNING);  // no Analyst's look at this Briefing
  EXPECT_FALSE(after.seats(1).analyst_next());
  EXPECT_FALSE(after.seats(2).analyst_next());
  EXPECT_EQ(after.balance(), 2);  // MI6, last in the Cease-fire and among the lowest
}

// ----- Influence Struggle -----

TEST(GuerreFroideLimits, WithThreePlayersTwoPassesInARowDoNotEndTheStruggle) {
  internal::StateProto s = Struggle(3, "korea", 0);
  Give(s, 0, "students");
  Give(s, 1, "unions");
  Give(s, 2, "samizdat");
  for (int seat = 0; seat < 3; ++seat) Agent(s, seat, AGENT_DEPUTY_DIRECTOR);
  auto state = Load(s);
  Play(*state, 0, Pass());
  Play(*state, 1, Pass());
  EXPECT_EQ(P(*state).phase(), PHASE_STRUGGLE);
  EXPECT_EQ(P(*state).to_act(), 2);
  Play(*state, 2, Pass());
  EXPECT_EQ(P(*state).turn(), 2u);
}

// ----- Faction powers (RULES.md, "The faction powers") -----

TEST(GuerreFroideLimits, AMilitaryGroupMayDiscardOneOfItsOwnSide) {
  internal::StateProto s = Struggle(2, "korea", 0);
  Give(s, 0, "army");
  Give(s, 0, "banks");
  Agent(s, 0, AGENT_DEPUTY_DIRECTOR);
  Agent(s, 1, AGENT_DEPUTY_DIRECTOR);
  auto state = Load(s);
  Play(*state, 0, Activate("army", "banks"));
  ASSERT_EQ(P(*state).seats(0).groups_size(), 1);
  EXPECT_EQ(P(*state).seats(0).groups(0).card(), G("army"));
  EXPECT_TRUE(Has(P(*state).group_discard(), G("banks")));
}

TEST(GuerreFroideLimits, AnEconomicGroupTurnsAMobilizedGroupBackToReady) {
  internal::StateProto s = Struggle(2, "korea", 0);
  Give(s, 0, "mafia");
  Give(s, 1, "army", /*mobilized=*/true);
  Agent(s, 0, AGENT_DEPUTY_DIRECTOR);
  Agent(s, 1, AGENT_DEPUTY_DIRECTOR);
  auto state = Load(s);
  Play(*state, 0, Activate("mafia", "army"));
  EXPECT_FALSE(P(*state).seats(1).groups(0).mobilized());
  EXPECT_TRUE(P(*state).seats(0).groups(0).mobilized());
}

TEST(GuerreFroideLimits,
     APoliticalGroupNeverMovesBetweenTwoOpponentsNorGivesToOneOverTheStability) {
  internal::StateProto s = Struggle(3, "cuba", 0);
  Give(s, 0, "church");   // political
  Give(s, 0, "militia");  // 2
  Give(s, 1, "army");
  Give(s, 1, "banks");  // the CIA stands at 12, over Cuba's 10
  Give(s, 2, "students");
  for (int seat = 0; seat < 3; ++seat) Agent(s, seat, AGENT_DEPUTY_DIRECTOR);
  auto state = Load(s);
  // From the CIA to MI6: neither side is the Church's.
  EXPECT_EQ(state->Validate(0, Activate("church", "students", 1)).code(), codes::kBadTarget);
  EXPECT_EQ(state->Validate(0, Activate("church", "army", 2)).code(), codes::kBadTarget);
  // Giving Militia to the CIA, already over the stability.
  EXPECT_EQ(state->Validate(0, Activate("church", "militia", 1)).code(), codes::kStability);
  // Giving it to MI6 (1 + 2) is fine.
  EXPECT_TRUE(state->Validate(0, Activate("church", "militia", 2)).ok());
}

TEST(GuerreFroideLimits, AtThePopulationLimitMediaCannotRecruitNorLiveBenefit) {
  internal::StateProto s = Struggle(2, "afghanistan", 0);  // two groups per player
  Give(s, 0, "newspapers");
  Give(s, 0, "students");
  Hold(s, 0, "live_benefit");
  Remove(s.mutable_group_deck(), G("army"));
  s.add_group_discard(G("army"));
  Agent(s, 0, AGENT_DEPUTY_DIRECTOR);
  Agent(s, 1, AGENT_DEPUTY_DIRECTOR);
  auto state = Load(s);
  EXPECT_EQ(state->Validate(0, Use("live_benefit")).code(), codes::kPopulation);
  Play(*state, 0, Activate("newspapers"));
  const std::vector<std::string> options = OptionIds(*state, 0);
  EXPECT_EQ(options, (std::vector<std::string>{"discard", "leave"}));
}

// ----- Planning (RULES.md, "2. Planning") -----

TEST(GuerreFroideLimits, ATerminatedAgentIsNeverPickedAndLeaveEndsOnlyWhenAllHavePicked) {
  auto state = Game().NewGame(2, "", 3).value();
  internal::StateProto s = P(*state);
  Remove(s.mutable_seats(0)->mutable_hq(), AGENT_ASSASSIN);
  s.mutable_seats(0)->add_terminated(AGENT_ASSASSIN);
  Remove(s.mutable_seats(0)->mutable_hq(), AGENT_DIRECTOR);
  s.mutable_seats(0)->add_leave(AGENT_DIRECTOR);
  auto st = Load(s);
  const engine::Status refused = st->Validate(0, Choose(AGENT_ASSASSIN));
  EXPECT_EQ(refused.code(), codes::kAgentUnavailable);
  EXPECT_NE(refused.reason().find("terminated"), std::string::npos) << refused.reason();
  Play(*st, 0, Choose(AGENT_ANALYST));
  EXPECT_TRUE(Has(P(*st).seats(0).leave(), AGENT_DIRECTOR));  // the CIA has not picked yet
  Play(*st, 1, Choose(AGENT_ANALYST));
  EXPECT_TRUE(Has(P(*st).seats(0).hq(), AGENT_DIRECTOR));
  EXPECT_FALSE(Has(P(*st).seats(0).hq(), AGENT_ASSASSIN));  // terminated for good
}

// ----- Agents (RULES.md, "The agents") -----

// An Assassin whose service dominates facing only a Deputy Director: nobody to terminate, yet
// the objective still leaves for the bottom of the deck.
TEST(GuerreFroideLimits, AnAssassinFacingADeputyDirectorStillSendsTheObjectiveAway) {
  auto state = Load(KgbAheadOnCuba(AGENT_ASSASSIN, AGENT_DEPUTY_DIRECTOR));
  Play(*state, 0, Pass());
  const auto& after = P(*state);
  ExpectUnclaimedAtTheBottom(after, "cuba");
  EXPECT_EQ(after.seats(1).terminated_size(), 0);
  EXPECT_TRUE(StepActed(*state, 0, AGENT_ASSASSIN));
  auto view = state->View(1);
  bool told = false;
  for (const auto& step : static_cast<const View&>(*view).debriefing()) {
    told |= step.agent() == AGENT_ASSASSIN &&
            step.outcome().key() == "guerre_froide.assassin_no_target";
  }
  EXPECT_TRUE(told) << "the reveal says what the Assassin did";
}

// A Double Agent's "see" stands even when an Assassin terminates it later in the same turn.
TEST(GuerreFroideLimits, TheDoubleAgentsSightStandsAfterItIsTerminated) {
  internal::StateProto s = Struggle(2, "cuba", 0);
  Give(s, 0, "students");
  Give(s, 1, "industry");  // the CIA dominates
  Agent(s, 0, AGENT_DOUBLE_AGENT);
  Agent(s, 1, AGENT_ASSASSIN);
  AllPassedBut(s, 0);
  auto state = Load(s);
  Play(*state, 0, Pass());
  Play(*state, 0, Answer(*state, 0, "see"));
  const auto& after = P(*state);
  EXPECT_TRUE(Has(after.seats(0).terminated(), AGENT_DOUBLE_AGENT));
  ASSERT_EQ(after.phase(), PHASE_PLANNING);
  EXPECT_TRUE(after.seats(0).sees_next());
  EXPECT_EQ(state->ActingSeats(), std::vector<int>{1});  // the KGB picks after the CIA
}

// ----- Events (RULES.md, "The events") -----

TEST(GuerreFroideLimits, EventsAreRefusedOutsideTheirPhase) {
  auto state = Game().NewGame(2, "", 3).value();
  internal::StateProto s = P(*state);
  Hold(s, 0, "nuclear_escalation");
  Hold(s, 0, "nobel_peace_prize");
  Hold(s, 0, "space_race");
  Hold(s, 0, "summit_meeting");
  auto planning = Load(s);  // Planning, nobody on leave
  EXPECT_EQ(planning->Validate(0, Use("nuclear_escalation", {"army"})).code(), codes::kWrongPhase);
  EXPECT_EQ(planning->Validate(0, Use("nobel_peace_prize")).code(), codes::kWrongPhase);
  EXPECT_EQ(planning->Validate(0, Use("space_race")).code(), codes::kWrongPhase);
  EXPECT_EQ(planning->Validate(0, Use("summit_meeting")).code(), codes::kNothingToDo);
  EXPECT_EQ(planning->Validate(0, Use("cuba")).code(), codes::kBadEvent);  // not held
  Play(*planning, 0, Choose(AGENT_ANALYST));  // too late for the Summit: the pick is made
  EXPECT_FALSE(planning->Validate(0, Use("summit_meeting")).ok());
}

TEST(GuerreFroideLimits, TheNobelPeacePrizeDeclinedLeavesTheAgentTerminatedAndThePrizeKept) {
  internal::StateProto s = KgbOverCubaWithTheNobel(AGENT_DIRECTOR, AGENT_DEPUTY_DIRECTOR);
  const uint32_t prize = Game().objective(O("nobel_peace_prize")).vp();
  auto state = Load(s);
  Play(*state, 0, Pass());
  Play(*state, 0, AnswerYes(*state, 0, false));
  const auto& after = P(*state);
  EXPECT_TRUE(Has(after.seats(0).terminated(), AGENT_DIRECTOR));
  EXPECT_TRUE(Has(after.seats(0).won(), O("nobel_peace_prize")));
  EXPECT_EQ(after.seats(0).score(), prize);
  EXPECT_EQ(after.seats(1).score(), 10u);
}

}  // namespace
}  // namespace plateau::games::guerre_froide::rule_test
