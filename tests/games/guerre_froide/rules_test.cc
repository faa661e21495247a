// Guerre Froide's rules, each test naming the part of RULES.md it checks. Positions are set up
// from a dealt game with the cards of the situation moved into place (GuerreFroideGame::FromProto).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "tests/games/guerre_froide/support.h"

namespace plateau::games::guerre_froide::rule_test {
namespace {

// RULES.md, "The worked example": the KGB's Master Spy against the CIA's Assassin on Cuba, the CIA
// placing its token. The Master Spy gives Cuba to the KGB; the Assassin still terminates the
// Master Spy, but Cuba, already claimed, does not go to the bottom; the KGB scores 10 VP and the
// Assassin goes on leave. (Seat 0 is the KGB, seat 1 the CIA.)
TEST(GuerreFroideRules, WorkedExampleMasterSpyAgainstAssassinOnCuba) {
  internal::StateProto s = Struggle(2, "cuba", 1);
  // Both at 9 under Cuba's 10: the economic icon, Cuba's largest, gives the tie to the CIA
  // (Industry 4 against Food Companies 3).
  Give(s, 1, "industry");
  Give(s, 1, "opposition");
  Give(s, 0, "food_companies");
  Give(s, 0, "newspapers");
  Give(s, 0, "mafia");
  Agent(s, 1, AGENT_ASSASSIN);
  Agent(s, 0, AGENT_MASTER_SPY);
  s.set_passes(1);
  s.mutable_seats(0)->set_passed(true);
  auto state = Load(s);
  Play(*state, 1, Pass());

  const auto& after = P(*state);
  EXPECT_EQ(after.seats(0).score(), 10u);  // Cuba
  EXPECT_EQ(after.seats(1).score(), 0u);
  EXPECT_EQ(after.seats(0).won_size(), 1);
  EXPECT_EQ(after.seats(0).won(0), O("cuba"));
  EXPECT_EQ(std::count(after.objective_deck().begin(), after.objective_deck().end(), O("cuba")), 0);
  // The Master Spy is out of the game; the Assassin is on leave; turn 2 has begun.
  EXPECT_EQ(std::count(after.seats(0).terminated().begin(), after.seats(0).terminated().end(),
                       static_cast<uint32_t>(AGENT_MASTER_SPY)),
            1);
  EXPECT_EQ(std::count(after.seats(1).leave().begin(), after.seats(1).leave().end(),
                       static_cast<uint32_t>(AGENT_ASSASSIN)),
            1);
  EXPECT_EQ(after.turn(), 2u);
  EXPECT_EQ(after.phase(), PHASE_PLANNING);
  // The lowest score takes the balance token.
  EXPECT_EQ(after.balance(), 1);
  // Every view keeps the Debriefing step by step, in initiative order, until the next Cease-fire.
  auto message = state->View(engine::kSpectator);
  const auto& view = static_cast<const View&>(*message);
  ASSERT_EQ(view.debriefing_size(), 2);
  EXPECT_EQ(view.debriefing(0).agent(), AGENT_MASTER_SPY);
  EXPECT_EQ(view.debriefing(0).seat(), 0u);
  EXPECT_TRUE(view.debriefing(0).acted());
  EXPECT_TRUE(view.debriefing(0).removed());  // terminated by the Assassin afterwards
  EXPECT_EQ(view.debriefing(0).outcome().key(), "guerre_froide.master_spy");
  EXPECT_EQ(view.debriefing(1).agent(), AGENT_ASSASSIN);
  EXPECT_EQ(view.debriefing(1).initiative(), 5u);
  EXPECT_TRUE(view.debriefing(1).acted());
  EXPECT_EQ(view.debriefing(1).outcome().key(), "guerre_froide.assassin");
  // Turn 2 has begun and nobody dominates it yet; the Debriefing shown keeps the CIA's token.
  EXPECT_EQ(view.dominating(), -1);
  EXPECT_EQ(view.debriefing_dominating(), 1);
}

// RULES.md, "The worked example", played as a whole turn: the secret picks, the struggle that
// builds both hands of 9 from a stacked group deck (passing is not final; the population limit),
// the Cease-fire, the Debriefing and the Détente, and turn 2's Planning.
TEST(GuerreFroideRules, WorkedExampleAsAWholeTurn) {
  internal::StateProto s = Struggle(2, "cuba", -1);
  s.set_phase(PHASE_PLANNING);
  s.set_balance(0);
  for (const char* id : {"opposition", "mafia", "newspapers", "industry", "food_companies"}) {
    ToTop(s, id);
  }
  auto state = Load(s);
  auto player = [&](int viewer, int seat) {
    auto message = state->View(viewer);
    return static_cast<const View&>(*message).players(seat);
  };

  Play(*state, 0, Choose(AGENT_MASTER_SPY));
  // The CIA knows the KGB has picked, not what: its six agents stay face down.
  EXPECT_TRUE(player(1, 0).chose_agent());
  EXPECT_EQ(player(1, 0).hidden_agents(), 6u);
  EXPECT_EQ(player(1, 0).agents_size(), 0);
  EXPECT_EQ(player(engine::kSpectator, 0).agents_size(), 0);
  EXPECT_EQ(state->Validate(0, Choose(AGENT_DIRECTOR)).code(), engine::codes::kNotYourTurn);
  Play(*state, 1, Choose(AGENT_ASSASSIN));
  EXPECT_EQ(player(0, 1).hidden_agents(), 6u);
  EXPECT_EQ(P(*state).phase(), PHASE_STRUGGLE);

  Play(*state, 0, First(0));
  EXPECT_EQ(state->Validate(0, Pass()).code(), codes::kMustRecruit);
  Play(*state, 0, Recruit());  // Food Companies, 3
  Play(*state, 1, Recruit());  // Industry, 4
  Play(*state, 0, Recruit());  // Newspapers, 4: 7
  Play(*state, 1, Pass());     // not final
  Play(*state, 0, Recruit());  // Mafia, 2: 9
  Play(*state, 1, Recruit());  // Opposition, 5: 9
  EXPECT_EQ(Influence(*state, 0), 9u);
  EXPECT_EQ(Influence(*state, 1), 9u);
  EXPECT_EQ(state->Validate(0, Recruit()).code(), codes::kPopulation);  // Cuba holds 3
  Play(*state, 0, Pass());
  EXPECT_EQ(P(*state).phase(), PHASE_STRUGGLE);
  Play(*state, 1, Pass());

  const auto& after = P(*state);
  EXPECT_EQ(after.seats(0).score(), 10u);
  EXPECT_EQ(after.seats(1).score(), 0u);
  EXPECT_TRUE(Has(after.seats(0).won(), O("cuba")));
  EXPECT_TRUE(Has(after.seats(0).terminated(), AGENT_MASTER_SPY));
  EXPECT_TRUE(Has(after.seats(1).leave(), AGENT_ASSASSIN));
  // The five groups went to the discard pile, which turn 2's Briefing shuffled back.
  EXPECT_EQ(after.group_discard_size(), 0);
  EXPECT_EQ(after.group_deck_size(), 24);
  EXPECT_EQ(after.turn(), 2u);
  EXPECT_EQ(after.phase(), PHASE_PLANNING);
  EXPECT_EQ(after.balance(), 1);
  EXPECT_EQ(state->Validate(0, Choose(AGENT_MASTER_SPY)).code(), codes::kAgentUnavailable);
  EXPECT_EQ(state->Validate(1, Choose(AGENT_ASSASSIN)).code(), codes::kAgentUnavailable);
}

// RULES.md, "4. Cease-fire": over the stability is civil disorder; with two players the other claims
// the objective at once, and the Agent X is terminated unless it is the Deputy Director.
TEST(GuerreFroideRules, CivilDisorderTerminatesTheAgentAndTheOpponentClaims) {
  internal::StateProto s = Struggle(2, "cuba", 0);
  Give(s, 0, "army");        // 6
  Give(s, 0, "banks");       // 6: 12 > 10
  Give(s, 1, "guerrillas");  // 1
  Agent(s, 0, AGENT_DIRECTOR);
  Agent(s, 1, AGENT_ANALYST);
  s.set_passes(1);
  auto state = Load(s);
  Play(*state, 0, Pass());
  const auto& after = P(*state);
  EXPECT_EQ(after.seats(1).score(), 10u);
  EXPECT_EQ(std::count(after.seats(0).terminated().begin(), after.seats(0).terminated().end(),
                       static_cast<uint32_t>(AGENT_DIRECTOR)),
            1);
  // The Analyst still acted: its player orders the top groups in the next Briefing.
  EXPECT_EQ(Asked(after), internal::ASK_ANALYST_ORDER);
  EXPECT_EQ(AskedSeat(after), 1u);
  EXPECT_EQ(after.looking().cards_size(), kAnalystCards);
  // Seat 0, alone at the lowest score, takes the balance token.
  EXPECT_EQ(after.balance(), 0);
}

TEST(GuerreFroideRules, TheDeputyDirectorSurvivesCivilDisorder) {
  internal::StateProto s = Struggle(2, "cuba", 0);
  Give(s, 0, "army");
  Give(s, 0, "banks");
  Give(s, 1, "guerrillas");
  Agent(s, 0, AGENT_DEPUTY_DIRECTOR);
  Agent(s, 1, AGENT_MASTER_SPY);
  s.set_passes(1);
  auto state = Load(s);
  Play(*state, 0, Pass());
  const auto& after = P(*state);
  EXPECT_EQ(after.seats(0).terminated_size(), 0);
  // The claim was made at once: the CIA's Master Spy cannot give it back.
  EXPECT_EQ(after.seats(1).score(), 10u);
  EXPECT_EQ(after.seats(0).score(), 0u);
}

// RULES.md, "The agents": the Director of the dominating service also claims the bottom objective.
TEST(GuerreFroideRules, TheDirectorClaimsTheBottomObjectiveToo) {
  internal::StateProto s = Struggle(2, "cuba", 0);
  Give(s, 0, "industry");
  Give(s, 1, "mafia");
  Agent(s, 0, AGENT_DIRECTOR);
  Agent(s, 1, AGENT_ANALYST);
  s.set_passes(1);
  const uint32_t bottom = s.objective_deck(s.objective_deck_size() - 1);
  auto state = Load(s);
  Play(*state, 0, Pass());
  const auto& after = P(*state);
  EXPECT_EQ(after.seats(0).score(), 10u + Game().objective(bottom).vp());
  EXPECT_NE(std::find(after.seats(0).won().begin(), after.seats(0).won().end(), bottom),
            after.seats(0).won().end());
}

// RULES.md, "The agents", three players: Ambassadors and Assassins act at the same moment, so an
// Assassin detained by an Ambassador still strikes.
TEST(GuerreFroideRules, AmbassadorAndAssassinStrikeAtTheSameMoment) {
  internal::StateProto s = KgbAheadOfTwo(AGENT_ASSASSIN, AGENT_AMBASSADOR, AGENT_DIRECTOR);
  auto state = Load(s);
  Play(*state, 0, Pass());
  // The KGB's Assassin chooses between the CIA's and MI6's agents.
  const auto prompts = state->Prompts(0);
  ASSERT_EQ(prompts.size(), 1u);
  ASSERT_EQ(prompts[0].options_size(), 2);
  Action answer;
  answer.mutable_core()->mutable_answer()->set_prompt_id(prompts[0].id());
  answer.mutable_core()->mutable_answer()->add_options("seat.1");
  Play(*state, 0, answer);
  const auto& after = P(*state);
  // The Ambassador (other box) detained the dominating KGB's Assassin; the Assassin terminated
  // the Ambassador all the same; and Cuba went to the bottom.
  EXPECT_EQ(after.seats(0).detained_size(), 1);
  EXPECT_EQ(after.seats(1).terminated_size(), 1);
  EXPECT_EQ(after.seats(0).score(), 0u);
  EXPECT_EQ(after.objective_deck(after.objective_deck_size() - 1), O("cuba"));
}

// RULES.md, "The faction powers": a group may not be given to an opponent it would push over the
// stability, but may be taken even if it pushes the taker over. (The population limit on the
// receiver: GuerreFroidePowers.PoliticalRespectsTheReceiversPopulationLimit.)
TEST(GuerreFroideRules, PoliticalGroupsMayNotPushTheReceivingOpponentOverTheStability) {
  internal::StateProto s = Struggle(2, "cuba", 0);
  Give(s, 0, "opposition");  // political 5
  Give(s, 0, "army");        // 6
  Give(s, 1, "banks");       // 6
  Agent(s, 0, AGENT_ANALYST);
  Agent(s, 1, AGENT_ANALYST);
  auto state = Load(s);
  Action give;
  give.mutable_activate()->set_group("opposition");
  give.mutable_activate()->set_target("army");
  give.mutable_activate()->set_to_seat(1);
  engine::Status st = state->Validate(0, give);
  EXPECT_EQ(st.code(), codes::kStability) << st.reason();  // 6 + 6 > 10
  Action take = give;
  take.mutable_activate()->set_target("banks");
  take.mutable_activate()->set_to_seat(0);
  // Taking Banks puts the KGB at 17, over Cuba's 10: allowed (three groups, Cuba's population).
  EXPECT_TRUE(state->Validate(0, take).ok()) << state->Validate(0, take).reason();
  const std::string before = state->Serialize();
  EXPECT_FALSE(state->Apply(0, give).ok());
  EXPECT_EQ(state->Serialize(), before);  // a refusal changes nothing
  Action nowhere = give;
  nowhere.mutable_activate()->set_to_seat(0xFFFFFFFFu);
  EXPECT_EQ(state->Validate(0, nowhere).code(), codes::kBadTarget);
}

// RULES.md, Decisions, "Taking with a political group": taking is allowed from an opponent who is over the stability already.
TEST(GuerreFroideRules, APoliticalGroupMayTakeFromAnOpponentOverTheStability) {
  internal::StateProto s = Struggle(2, "cuba", 0);
  Give(s, 0, "opposition");
  Give(s, 1, "banks");  // 6
  Give(s, 1, "army");   // 6: the CIA is at 12, over Cuba's 10
  Agent(s, 0, AGENT_ANALYST);
  Agent(s, 1, AGENT_ANALYST);
  auto state = Load(s);
  Action take;
  take.mutable_activate()->set_group("opposition");
  take.mutable_activate()->set_target("army");
  take.mutable_activate()->set_to_seat(0);
  Play(*state, 0, take);
  EXPECT_EQ(static_cast<const GuerreFroideState&>(*state).Influence(0), 11u);
  EXPECT_EQ(static_cast<const GuerreFroideState&>(*state).Influence(1), 6u);
}

// RULES.md, "2. Planning": nobody sees another's Agent X before the reveal, only that it is chosen.
TEST(GuerreFroideRules, AnotherSeatsAgentXStaysHiddenUntilTheReveal) {
  auto state = Game().NewGame(2, "", 11).value();
  Action choose;
  choose.mutable_choose_agent()->set_agent(AGENT_ASSASSIN);
  Play(*state, 0, choose);
  auto theirs = state->View(1);
  const auto& v = static_cast<const View&>(*theirs);
  EXPECT_TRUE(v.players(0).chose_agent());
  EXPECT_EQ(v.players(0).agents_size(), 0);
  EXPECT_EQ(v.players(0).hidden_agents(), 6u);
  // Which agents are still in play is public; which of them went out is not: one sorted pool.
  ASSERT_EQ(v.players(0).unrevealed_size(), 6);
  for (int i = 1; i < 6; ++i) EXPECT_LT(v.players(0).unrevealed(i - 1), v.players(0).unrevealed(i));
  auto mine = state->View(0);
  const auto& m = static_cast<const View&>(*mine);
  bool found = false;
  for (const auto& a : m.players(0).agents()) {
    found |= a.kind() == AGENT_ASSASSIN && a.status() == AGENT_X;
  }
  EXPECT_TRUE(found);
  // Choosing twice is refused with a reason.
  engine::Status again = state->Validate(0, choose);
  EXPECT_FALSE(again.ok());
}

}  // namespace
}  // namespace plateau::games::guerre_froide::rule_test
