// Guerre Froide's rules, each test naming the part of RULES.md it checks. Positions are set up
// from a dealt game with the cards of the situation moved into place (GuerreFroideGame::FromProto).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "engine/core/registry.h"
#include "engine/games/guerre_froide/guerre_froide.h"

namespace plateau::games::guerre_froide {
namespace {

const GuerreFroideGame& Game() {
  EXPECT_TRUE(engine::Registry::LoadAll().ok());
  return *dynamic_cast<const GuerreFroideGame*>(engine::Registry::Find("guerre_froide"));
}

uint32_t G(const std::string& id) {
  const int i = Game().GroupIndex(id);
  EXPECT_GE(i, 0) << id;
  return static_cast<uint32_t>(i);
}
uint32_t O(const std::string& id) {
  const int i = Game().ObjectiveIndex(id);
  EXPECT_GE(i, 0) << id;
  return static_cast<uint32_t>(i);
}

template <class R>
void Remove(R* list, uint32_t x) {
  auto it = std::find(list->begin(), list->end(), x);
  ASSERT_NE(it, list->end()) << x;
  list->erase(it);
}

// A position in the influence struggle of turn 1 on `objective`, every Agent X chosen, no group
// in play; `to_act` moves next.
internal::StateProto Struggle(int seats, const std::string& objective, int to_act,
                              CryptographerOption crypto = CRYPTOGRAPHER_NONE) {
  Options options;
  options.set_cryptographer(crypto);
  auto state = Game().NewInitialState(seats, options, 7);
  internal::StateProto s;
  s.ParseFromString(state->Serialize());
  s.mutable_objective_deck()->Add(static_cast<uint32_t>(s.objective()));
  Remove(s.mutable_objective_deck(), O(objective));
  s.set_objective(static_cast<int32_t>(O(objective)));
  s.set_phase(PHASE_STRUGGLE);
  s.set_to_act(to_act);
  s.set_balance(0);
  return s;
}

void GiveGroup(internal::StateProto& s, int seat, const std::string& id, bool mobilized = false) {
  Remove(s.mutable_group_deck(), G(id));
  auto* g = s.mutable_seats(seat)->add_groups();
  g->set_card(G(id));
  g->set_mobilized(mobilized);
}

void SetAgentX(internal::StateProto& s, int seat, AgentKind agent) {
  Remove(s.mutable_seats(seat)->mutable_hq(), agent);
  s.mutable_seats(seat)->add_agent_x(agent);
}

std::unique_ptr<engine::State> Load(const internal::StateProto& s) {
  auto state = Game().FromProto(s);
  EXPECT_TRUE(state.ok()) << state.status().reason();
  return std::move(state).value();
}

const internal::StateProto& P(const engine::State& state) {
  return static_cast<const GuerreFroideState&>(state).proto();
}

Action Pass() {
  Action a;
  a.mutable_pass();
  return a;
}

void Play(engine::State& state, int seat, const Action& a) {
  engine::Status st = state.Apply(seat, a);
  ASSERT_TRUE(st.ok()) << st.code() << ": " << st.reason();
}

// RULES.md, the worked example: the KGB's Master Spy against the CIA's Assassin on Cuba, the CIA
// placing its token. The Master Spy gives Cuba to the KGB; the Assassin still terminates the
// Master Spy, but Cuba, already claimed, does not go to the bottom; the KGB scores 10 VP and the
// Assassin goes on leave. (Seat 0 is the KGB, seat 1 the CIA.)
TEST(GuerreFroideRules, WorkedExampleMasterSpyAgainstAssassinOnCuba) {
  internal::StateProto s = Struggle(2, "cuba", 1);
  // Both at 9 under Cuba's 10: the economic icon, Cuba's largest, gives the tie to the CIA
  // (Industry 4 against Food Companies 3).
  GiveGroup(s, 1, "industry");
  GiveGroup(s, 1, "opposition");
  GiveGroup(s, 0, "food_companies");
  GiveGroup(s, 0, "newspapers");
  GiveGroup(s, 0, "mafia");
  SetAgentX(s, 1, AGENT_ASSASSIN);
  SetAgentX(s, 0, AGENT_MASTER_SPY);
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
}

// RULES.md, "Cease-fire": over the stability is civil disorder; with two players the other claims
// the objective at once, and the Agent X is terminated unless it is the Deputy Director.
TEST(GuerreFroideRules, CivilDisorderTerminatesTheAgentAndTheOpponentClaims) {
  internal::StateProto s = Struggle(2, "cuba", 0);
  GiveGroup(s, 0, "army");        // 6
  GiveGroup(s, 0, "banks");       // 6: 12 > 10
  GiveGroup(s, 1, "guerrillas");  // 1
  SetAgentX(s, 0, AGENT_DIRECTOR);
  SetAgentX(s, 1, AGENT_ANALYST);
  s.set_passes(1);
  auto state = Load(s);
  Play(*state, 0, Pass());
  const auto& after = P(*state);
  EXPECT_EQ(after.seats(1).score(), 10u);
  EXPECT_EQ(std::count(after.seats(0).terminated().begin(), after.seats(0).terminated().end(),
                       static_cast<uint32_t>(AGENT_DIRECTOR)),
            1);
  // The Analyst still acted: its player orders the top groups in the next Briefing.
  EXPECT_EQ(after.pending().ask(), internal::ASK_ANALYST_ORDER);
  EXPECT_EQ(after.pending().seat(), 1u);
  EXPECT_EQ(after.pending().looking_size(), kAnalystCards);
  // The loser of the cease-fire, tied for the lowest score, takes the balance token.
  EXPECT_EQ(after.balance(), 0);
}

TEST(GuerreFroideRules, TheDeputyDirectorSurvivesCivilDisorder) {
  internal::StateProto s = Struggle(2, "cuba", 0);
  GiveGroup(s, 0, "army");
  GiveGroup(s, 0, "banks");
  GiveGroup(s, 1, "guerrillas");
  SetAgentX(s, 0, AGENT_DEPUTY_DIRECTOR);
  SetAgentX(s, 1, AGENT_MASTER_SPY);
  s.set_passes(1);
  auto state = Load(s);
  Play(*state, 0, Pass());
  const auto& after = P(*state);
  EXPECT_EQ(after.seats(0).terminated_size(), 0);
  // The claim was made at once: the CIA's Master Spy cannot give it back.
  EXPECT_EQ(after.seats(1).score(), 10u);
  EXPECT_EQ(after.seats(0).score(), 0u);
}

// RULES.md, "Agents": the Director of the dominating service also claims the bottom objective.
TEST(GuerreFroideRules, TheDirectorClaimsTheBottomObjectiveToo) {
  internal::StateProto s = Struggle(2, "cuba", 0);
  GiveGroup(s, 0, "industry");
  GiveGroup(s, 1, "mafia");
  SetAgentX(s, 0, AGENT_DIRECTOR);
  SetAgentX(s, 1, AGENT_ANALYST);
  s.set_passes(1);
  const uint32_t bottom = s.objective_deck(s.objective_deck_size() - 1);
  auto state = Load(s);
  Play(*state, 0, Pass());
  const auto& after = P(*state);
  EXPECT_EQ(after.seats(0).score(), 10u + Game().objective(bottom).vp());
  EXPECT_NE(std::find(after.seats(0).won().begin(), after.seats(0).won().end(), bottom),
            after.seats(0).won().end());
}

// RULES.md, "Agents", three players: Ambassadors and Assassins act at the same moment, so an
// Assassin detained by an Ambassador still strikes.
TEST(GuerreFroideRules, AmbassadorAndAssassinStrikeAtTheSameMoment) {
  internal::StateProto s = Struggle(3, "cuba", 0);
  GiveGroup(s, 0, "industry");  // KGB 4: dominates
  GiveGroup(s, 1, "mafia");     // CIA 2
  GiveGroup(s, 2, "students");  // MI6 1
  SetAgentX(s, 0, AGENT_ASSASSIN);
  SetAgentX(s, 1, AGENT_AMBASSADOR);
  SetAgentX(s, 2, AGENT_DIRECTOR);
  s.set_passes(2);
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

// RULES.md, "Political": a group may not be given to an opponent it would push over the
// stability, and the receiver must stay within the population limit.
TEST(GuerreFroideRules, PoliticalGroupsRespectStabilityAndPopulation) {
  internal::StateProto s = Struggle(2, "cuba", 0);
  GiveGroup(s, 0, "opposition");  // political 5
  GiveGroup(s, 0, "army");        // 6
  GiveGroup(s, 1, "banks");       // 6
  SetAgentX(s, 0, AGENT_ANALYST);
  SetAgentX(s, 1, AGENT_ANALYST);
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
  // Taking a group that pushes you over is allowed, but Cuba allows three groups: 3 is fine.
  EXPECT_TRUE(state->Validate(0, take).ok()) << state->Validate(0, take).reason();
  const std::string before = state->Serialize();
  EXPECT_FALSE(state->Apply(0, give).ok());
  EXPECT_EQ(state->Serialize(), before);  // a refusal changes nothing
  Action nowhere = give;
  nowhere.mutable_activate()->set_to_seat(0xFFFFFFFFu);
  EXPECT_EQ(state->Validate(0, nowhere).code(), codes::kBadTarget);
}

// RULES.md, "Political": taking is allowed from an opponent who is over the stability already.
TEST(GuerreFroideRules, APoliticalGroupMayTakeFromAnOpponentOverTheStability) {
  internal::StateProto s = Struggle(2, "cuba", 0);
  GiveGroup(s, 0, "opposition");
  GiveGroup(s, 1, "banks");       // 6
  GiveGroup(s, 1, "army");        // 6: the CIA is at 12, over Cuba's 10
  SetAgentX(s, 0, AGENT_ANALYST);
  SetAgentX(s, 1, AGENT_ANALYST);
  auto state = Load(s);
  Action take;
  take.mutable_activate()->set_group("opposition");
  take.mutable_activate()->set_target("army");
  take.mutable_activate()->set_to_seat(0);
  Play(*state, 0, take);
  EXPECT_EQ(static_cast<const GuerreFroideState&>(*state).Influence(0), 11u);
  EXPECT_EQ(static_cast<const GuerreFroideState&>(*state).Influence(1), 6u);
}

// RULES.md, "Planning": nobody sees another's Agent X before the reveal, only that it is chosen.
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
}  // namespace plateau::games::guerre_froide
