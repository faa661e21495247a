// Guerre Froide: the rest of a turn against RULES.md — who opens the struggle and how it ends,
// the Cease-fire's tie-breaks, the agents' boxes and doubles, the Détente's victory check and the
// end of the objective deck.
#include <gtest/gtest.h>

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tests/games/guerre_froide/support.h"

namespace plateau::games::guerre_froide::rule_test {
namespace {

// What `seat`'s `agent` did in the last Debriefing, as every view shows it.
std::optional<DebriefStep> StepOf(const engine::State& state, int seat, AgentKind agent) {
  auto view = state.View(engine::kSpectator);
  for (const auto& step : static_cast<const View&>(*view).debriefing()) {
    if (step.seat() == static_cast<uint32_t>(seat) && step.agent() == agent) return step;
  }
  return std::nullopt;
}

// Moves every group card of the deck to the face-up discard pile.
void EmptyGroupDeck(internal::StateProto& s) {
  while (s.group_deck_size() > 0) {
    s.add_group_discard(s.group_deck(s.group_deck_size() - 1));
    s.mutable_group_deck()->RemoveLast();
  }
}

// ----- Setup and Briefing (RULES.md, "Setup", "1. Briefing") -----

// Both decks dealt whole; six agents each with two players, seven with three (the Ambassador
// joins), one more with a Cryptographer option; the balance token at a seat the seed draws.
TEST(GuerreFroideSetup, TheDecksAgentsAndBalanceTokenAreDealtFromTheSeed) {
  struct Case {
    int seats;
    CryptographerOption crypto;
    int agents;
  };
  for (const Case c : {Case{2, CRYPTOGRAPHER_NONE, 6}, Case{3, CRYPTOGRAPHER_NONE, 7},
                       Case{2, CRYPTOGRAPHER_DRAW, 7}, Case{3, CRYPTOGRAPHER_BIAS, 8}}) {
    Options options;
    options.set_cryptographer(c.crypto);
    std::set<int> holders;
    for (uint64_t seed = 1; seed <= 30; ++seed) {
      auto state = Game().NewInitialState(c.seats, options, seed);
      const auto& s = P(*state);
      EXPECT_EQ(s.turn(), 1u);
      EXPECT_EQ(s.phase(), PHASE_PLANNING);
      EXPECT_EQ(s.objective_deck_size() + 1, 21);  // the 21st is this turn's objective
      EXPECT_EQ(s.group_deck_size(), 24);
      for (const auto& seat : s.seats()) {
        EXPECT_EQ(seat.hq_size(), c.agents) << c.seats << " " << c.crypto;
        EXPECT_EQ(Has(seat.hq(), AGENT_AMBASSADOR), c.seats == 3);
        EXPECT_EQ(seat.score(), 0u);
      }
      holders.insert(s.balance());
      EXPECT_EQ(P(*Game().NewInitialState(c.seats, options, seed)).balance(), s.balance());
    }
    EXPECT_EQ(static_cast<int>(holders.size()), c.seats);  // every seat can be drawn
  }
}

// From the second turn on, the group discard pile goes back into the deck.
TEST(GuerreFroideBriefing, TheGroupDiscardsAreShuffledBackFromTheSecondTurn) {
  internal::StateProto s = KgbAheadOnCuba(AGENT_DEPUTY_DIRECTOR, AGENT_DEPUTY_DIRECTOR);
  Remove(s.mutable_group_deck(), G("army"));
  s.add_group_discard(G("army"));  // discarded during turn 1
  auto state = Load(s);
  Play(*state, 0, Pass());
  ASSERT_EQ(P(*state).turn(), 2u);
  EXPECT_EQ(P(*state).group_discard_size(), 0);
  EXPECT_EQ(P(*state).group_deck_size(), 24);  // Army and both groups that were in play
}

// An Analyst who acted: at the next Briefing its player alone sees the top three groups and puts
// them back in the order of its choice.
TEST(GuerreFroideBriefing, TheAnalystReordersTheTopThreeGroupsAlone) {
  internal::StateProto s = KgbAheadOnCuba(AGENT_ANALYST, AGENT_DEPUTY_DIRECTOR);
  auto state = Load(s);
  Play(*state, 0, Pass());
  ASSERT_EQ(Asked(P(*state)), internal::ASK_ANALYST_ORDER);
  EXPECT_EQ(state->ActingSeats(), std::vector<int>{0});
  auto theirs = state->View(1);
  EXPECT_EQ(static_cast<const View&>(*theirs).looking_at_size(), 0);
  auto mine = state->View(0);
  const auto& seen = static_cast<const View&>(*mine).looking_at();
  ASSERT_EQ(seen.size(), kAnalystCards);
  Action order;
  order.mutable_core()->mutable_answer()->set_prompt_id(state->Prompts(0).at(0).id());
  for (int i = seen.size() - 1; i >= 0; --i)
    order.mutable_core()->mutable_answer()->add_options(seen[i]);
  Play(*state, 0, order);
  const auto& after = P(*state);
  EXPECT_EQ(after.phase(), PHASE_PLANNING);
  ASSERT_EQ(after.group_deck_size(), 24);
  for (int i = 0; i < kAnalystCards; ++i) {
    EXPECT_EQ(Game().group(after.group_deck(i)).id(), seen[kAnalystCards - 1 - i]);
  }
}

// The Analyst's question lives in the core's queue, its cards in the game's zones: the other
// seat's bot draws those cards again, and the question it then sees the Analyst answer names the
// redrawn cards, so the sample plays on with every card in one place.
TEST(GuerreFroideBriefing, AnOpponentsSampleAsksTheAnalystAboutTheRedrawnCards) {
  auto state = Load(KgbAheadOnCuba(AGENT_ANALYST, AGENT_DEPUTY_DIRECTOR));
  Play(*state, 0, Pass());
  ASSERT_EQ(Asked(P(*state)), internal::ASK_ANALYST_ORDER);
  int redrawn = 0;
  for (uint64_t salt = 1; salt <= 20; ++salt) {
    auto sample = state->SampleForSeat(1, salt);
    const auto& looked = P(*sample).looking().cards();
    std::vector<std::string> cards;
    for (uint32_t c : looked) cards.push_back(Game().group(c).id());
    const auto prompt = sample->Prompts(0).at(0);
    EXPECT_EQ(prompt.id(), state->Prompts(0).at(0).id());
    std::vector<std::string> offered;
    for (const auto& o : prompt.options()) offered.push_back(o.id());
    EXPECT_EQ(offered, cards);
    redrawn += offered != OptionIds(*state, 0);
    // Answered as drawn, the sample's deck holds each of its cards once.
    auto answer = sample->DefaultAction(0);
    ASSERT_NE(answer, nullptr);
    ASSERT_TRUE(sample->Apply(0, *answer).ok());
    std::vector<uint32_t> deck(P(*sample).group_deck().begin(), P(*sample).group_deck().end());
    std::sort(deck.begin(), deck.end());
    EXPECT_EQ(std::adjacent_find(deck.begin(), deck.end()), deck.end());
  }
  EXPECT_GT(redrawn, 0);
}

// ----- Influence Struggle (RULES.md, "3. Influence Struggle") -----

// The balance token's holder chooses who opens; turns then go round in seat order.
TEST(GuerreFroideStruggle, TheBalanceHolderChoosesWhoOpensThenTurnsGoRoundInSeatOrder) {
  internal::StateProto s = Struggle(3, "korea", -1);
  s.set_balance(2);
  Agent(s, 0, AGENT_ANALYST);
  Agent(s, 1, AGENT_ANALYST);
  Agent(s, 2, AGENT_ANALYST);
  auto state = Load(s);
  EXPECT_EQ(state->ActingSeats(), std::vector<int>{2});
  EXPECT_EQ(state->Validate(0, First(0)).code(), engine::codes::kNotYourTurn);
  EXPECT_EQ(state->Validate(2, Recruit()).code(), codes::kWrongPhase);
  EXPECT_EQ(state->Validate(2, First(3)).code(), engine::codes::kBadSeat);
  Play(*state, 2, First(1));
  EXPECT_EQ(P(*state).to_act(), 1);
  EXPECT_EQ(state->Validate(1, First(0)).code(), codes::kWrongPhase);  // chosen once
  Play(*state, 1, Recruit());
  EXPECT_EQ(P(*state).to_act(), 2);
  Play(*state, 2, Recruit());
  EXPECT_EQ(P(*state).to_act(), 0);  // round the table
  Play(*state, 0, Recruit());
  EXPECT_EQ(P(*state).to_act(), 1);
}

// The last log entry's words, seat N named "PlayerN".
std::string LastWords(const engine::State& state) {
  const size_t n = engine::LogSize(state.table());
  if (n == 0) return "";
  return state.game().TextRenderer().Render(engine::LogText(engine::LogAt(state.table(), n - 1)), [](int seat) {
    return "Player" + std::to_string(seat);
  });
}

// Issue 32: "Tom (you) lets Tom (you) open the influence struggle": choosing oneself reads as
// opening.
TEST(GuerreFroideStruggle, ChoosingOneselfToOpenIsWordedAsOpening) {
  internal::StateProto s = Struggle(3, "korea", -1);
  s.set_balance(2);
  for (int seat = 0; seat < 3; ++seat) Agent(s, seat, AGENT_ANALYST);
  auto self = Load(s);
  Play(*self, 2, First(2));
  EXPECT_EQ(LastWords(*self), "Player2 opens the influence struggle.");
  auto other = Load(s);
  Play(*other, 2, First(0));
  EXPECT_EQ(LastWords(*other), "Player2 lets Player0 open the influence struggle.");
}

// A player with no group must recruit; a pass is not final; the struggle ends when everyone has
// passed one after the other.
TEST(GuerreFroideStruggle, PassingIsNotFinalAndTheStruggleEndsWhenAllPassInARow) {
  internal::StateProto s = Struggle(2, "korea", 0);
  Agent(s, 0, AGENT_DEPUTY_DIRECTOR);
  Agent(s, 1, AGENT_DEPUTY_DIRECTOR);
  auto state = Load(s);
  EXPECT_EQ(state->Validate(0, Pass()).code(), codes::kMustRecruit);
  Play(*state, 0, Recruit());
  Play(*state, 1, Recruit());
  Play(*state, 0, Pass());
  Play(*state, 1, Recruit());  // the pass before it does not count any more
  Play(*state, 0, Recruit());  // seat 0 acts again after passing
  EXPECT_EQ(P(*state).seats(0).groups_size(), 2);
  Play(*state, 1, Pass());
  EXPECT_EQ(P(*state).phase(), PHASE_STRUGGLE);
  Play(*state, 0, Pass());
  EXPECT_EQ(P(*state).turn(), 2u);  // both passed in a row: Cease-fire, and on to turn 2
}

// RULES.md, "Taking a move back": a pass that hands the turn on may be taken back; a recruit
// draws a group, and the pass that ends the struggle starts the Cease-fire.
TEST(GuerreFroideStruggle, OnlyAPassThatHandsTheTurnOnMayBeTakenBack) {
  internal::StateProto s = Struggle(2, "korea", 0);
  Agent(s, 0, AGENT_DEPUTY_DIRECTOR);
  Agent(s, 1, AGENT_DEPUTY_DIRECTOR);
  auto state = Load(s);
  EXPECT_FALSE(state->TakeBackSafe(0, Recruit()));
  EXPECT_FALSE(state->TakeBackSafe(0, Pass()));  // refused: a player without a group recruits
  Play(*state, 0, Recruit());
  Play(*state, 1, Recruit());
  EXPECT_TRUE(state->TakeBackSafe(0, Pass()));
  Play(*state, 0, Pass());
  EXPECT_FALSE(state->TakeBackSafe(1, Pass()));  // both in a row: the Cease-fire
  EXPECT_FALSE(state->TakeBackSafe(1, Recruit()));
}

// RULES.md, "3. Influence Struggle": the phase ends at once when the group deck runs out.
TEST(GuerreFroideStruggle, AnExhaustedGroupDeckEndsTheStruggleAtOnce) {
  internal::StateProto s = Struggle(2, "cuba", 0);
  Give(s, 1, "students");
  Agent(s, 0, AGENT_DEPUTY_DIRECTOR);
  Agent(s, 1, AGENT_DEPUTY_DIRECTOR);
  Remove(s.mutable_group_deck(), G("navy"));
  EmptyGroupDeck(s);
  s.add_group_deck(G("navy"));  // the last card
  auto state = Load(s);
  Play(*state, 0, Recruit());
  // Nobody passed, yet the Cease-fire came: the KGB (Navy 4) dominated and claimed Cuba.
  EXPECT_EQ(P(*state).seats(0).score(), 10u);
  EXPECT_EQ(P(*state).turn(), 2u);
}

// ----- Cease-fire (RULES.md, "4. Cease-fire") -----

// Equal influence, neither holds the largest icon's faction: the next icon decides.
TEST(GuerreFroideCeaseFire, TiesGoToTheNextBiasIconWhenNobodyHoldsTheLargest) {
  internal::StateProto s = Struggle(2, "cuba", 0);  // economic > military > political > media
  s.set_balance(1);                                 // seat order alone would favour the CIA
  Give(s, 0, "church");                             // political 3
  Give(s, 0, "militia");                            // military 2: 5
  Give(s, 1, "opposition");                         // political 5: 5
  Agent(s, 0, AGENT_DEPUTY_DIRECTOR);
  Agent(s, 1, AGENT_DEPUTY_DIRECTOR);
  AllPassedBut(s, 1);
  auto state = Load(s);
  Play(*state, 1, Pass());
  // Nobody holds economic; the KGB holds a military group and the CIA none: the KGB dominates,
  // though the CIA's political group is stronger.
  EXPECT_EQ(P(*state).seats(0).score(), 10u);
  EXPECT_EQ(P(*state).seats(1).score(), 0u);
}

// Players holding no group at all are ordered from the balance token's holder.
TEST(GuerreFroideCeaseFire, PlayersWithoutAnyGroupAreOrderedFromTheBalanceHolder) {
  for (int holder : {0, 1}) {
    internal::StateProto s = Struggle(2, "cuba", 0);
    s.set_phase(PHASE_PLANNING);
    s.set_to_act(-1);
    s.set_balance(holder);
    EmptyGroupDeck(s);
    auto state = Load(s);
    Play(*state, 0, Choose(AGENT_DEPUTY_DIRECTOR));
    Play(*state, 1, Choose(AGENT_DEPUTY_DIRECTOR));
    // No group to recruit: straight to the Cease-fire, where nothing parts the two players.
    EXPECT_EQ(P(*state).seats(holder).score(), 10u) << holder;
    EXPECT_EQ(P(*state).seats(1 - holder).score(), 0u) << holder;
  }
}

// ----- Agents (RULES.md, "The agents") -----

TEST(GuerreFroideAgents, TheMasterSpysOwnBoxWithTwoPlayersGivesTheObjectiveToTheOpponent) {
  internal::StateProto s = KgbAheadOnCuba(AGENT_MASTER_SPY, AGENT_DEPUTY_DIRECTOR);
  auto state = Load(s);
  Play(*state, 0, Pass());
  EXPECT_EQ(P(*state).seats(0).score(), 0u);   // the KGB dominated...
  EXPECT_EQ(P(*state).seats(1).score(), 10u);  // ...and its Master Spy handed Cuba over
  ASSERT_TRUE(StepOf(*state, 0, AGENT_MASTER_SPY).has_value());
  EXPECT_TRUE(StepOf(*state, 0, AGENT_MASTER_SPY)->acted());
}

// Three players: the own box goes to the runner-up; with nobody left in order, to the bottom.
TEST(GuerreFroideAgents, TheMasterSpysOwnBoxWithoutARunnerUpSendsTheObjectiveToTheBottom) {
  internal::StateProto s = Struggle(3, "cuba", 0);
  Give(s, 0, "industry");
  Give(s, 1, "army");
  Give(s, 1, "banks");  // 12: civil disorder
  Give(s, 2, "air_force");
  Give(s, 2, "ruling_party");  // 11: civil disorder
  Agent(s, 0, AGENT_MASTER_SPY);
  Agent(s, 1, AGENT_ANALYST);
  Agent(s, 2, AGENT_DIRECTOR);
  AllPassedBut(s, 0);
  auto state = Load(s);
  Play(*state, 0, Pass());
  const auto& after = P(*state);
  ExpectUnclaimedAtTheBottom(after, "cuba");
  EXPECT_TRUE(Has(after.seats(1).terminated(), AGENT_ANALYST));
  EXPECT_TRUE(Has(after.seats(2).terminated(), AGENT_DIRECTOR));
}

// Three players, two Master Spies, neither of the dominating service: neither acts, and the
// dominating service claims the objective after the last agenda. (Acting, the KGB's spy would
// have taken Cuba from the box "another service dominates".)
TEST(GuerreFroideAgents, TwoMasterSpiesWithThreePlayers_OnlyOneOfTheDominatingServiceActs) {
  internal::StateProto s = Struggle(3, "cuba", 0);
  Give(s, 0, "mafia");     // 2
  Give(s, 1, "industry");  // 4: dominates
  Give(s, 2, "students");  // 1
  Agent(s, 0, AGENT_MASTER_SPY);
  Agent(s, 1, AGENT_DEPUTY_DIRECTOR);
  Agent(s, 2, AGENT_MASTER_SPY);
  AllPassedBut(s, 0);
  auto state = Load(s);
  Play(*state, 0, Pass());
  EXPECT_EQ(P(*state).seats(0).score(), 0u);
  EXPECT_EQ(P(*state).seats(1).score(), 10u);
  EXPECT_EQ(P(*state).seats(2).score(), 0u);
  ASSERT_TRUE(StepOf(*state, 0, AGENT_MASTER_SPY).has_value());
  EXPECT_FALSE(StepOf(*state, 0, AGENT_MASTER_SPY)->acted());
  EXPECT_FALSE(StepOf(*state, 2, AGENT_MASTER_SPY)->acted());
}

// Two players, two Master Spies: only the dominating service's acts, and the objective goes to
// the player who did not dominate.
TEST(GuerreFroideAgents, TwoMasterSpiesWithTwoPlayers_TheNonDominatingPlayerClaims) {
  for (int dominating : {0, 1}) {
    internal::StateProto s = Struggle(2, "cuba", 0);
    Give(s, dominating, "industry");
    Give(s, 1 - dominating, "students");
    Agent(s, 0, AGENT_MASTER_SPY);
    Agent(s, 1, AGENT_MASTER_SPY);
    AllPassedBut(s, 0);
    auto state = Load(s);
    Play(*state, 0, Pass());
    EXPECT_EQ(P(*state).seats(dominating).score(), 0u) << dominating;
    EXPECT_EQ(P(*state).seats(1 - dominating).score(), 10u) << dominating;
    // Only the spy of the dominating service acted.
    EXPECT_TRUE(StepOf(*state, dominating, AGENT_MASTER_SPY)->acted()) << dominating;
    EXPECT_FALSE(StepOf(*state, 1 - dominating, AGENT_MASTER_SPY)->acted()) << dominating;
  }
}

// Two Double Agents: only the one of the dominating service acts. Choosing "see", its player
// picks last next turn and sees the others' Agent X before picking; nobody sees theirs.
TEST(GuerreFroideAgents, TheDoubleAgentsSeeingPlayerPicksLastAndSeesTheOthersPicks) {
  internal::StateProto s = KgbAheadOnCuba(AGENT_DOUBLE_AGENT, AGENT_DOUBLE_AGENT);
  auto state = Load(s);
  Play(*state, 0, Pass());
  ASSERT_EQ(Asked(P(*state)), internal::ASK_DOUBLE_AGENT);
  ASSERT_EQ(state->ActingSeats(), std::vector<int>{0});  // the CIA's Double Agent does nothing
  const std::vector<std::string> options = OptionIds(*state, 0);
  EXPECT_EQ(options.at(0), "see");
  // Every agent of the CIA's headquarters may be sent on leave but the Deputy Director.
  EXPECT_EQ(std::count(options.begin(), options.end(),
                       "leave.1." + std::to_string(AGENT_DEPUTY_DIRECTOR)),
            0);
  EXPECT_EQ(std::count(options.begin(), options.end(), "leave.1." + std::to_string(AGENT_ASSASSIN)),
            1);
  Play(*state, 0, Answer(*state, 0, "see"));
  EXPECT_FALSE(StepOf(*state, 1, AGENT_DOUBLE_AGENT)->acted());
  EXPECT_TRUE(StepOf(*state, 0, AGENT_DOUBLE_AGENT)->acted());

  // Turn 2's Planning: the CIA picks first, the KGB waits and may not pick yet.
  ASSERT_EQ(P(*state).phase(), PHASE_PLANNING);
  EXPECT_EQ(state->ActingSeats(), std::vector<int>{1});
  EXPECT_EQ(state->Validate(0, Choose(AGENT_ASSASSIN)).code(), engine::codes::kNotYourTurn);
  Play(*state, 1, Choose(AGENT_ASSASSIN));
  EXPECT_EQ(state->ActingSeats(), std::vector<int>{0});
  auto seer = state->View(0);
  bool sees = false;
  for (const auto& a : static_cast<const View&>(*seer).players(1).agents()) {
    sees |= a.kind() == AGENT_ASSASSIN && a.status() == AGENT_X;
  }
  EXPECT_TRUE(sees);
  Play(*state, 0, Choose(AGENT_DIRECTOR));
  // Once the struggle begins, the KGB's sight ends, and the CIA never saw the KGB's pick.
  auto cia = state->View(1);
  EXPECT_EQ(static_cast<const View&>(*cia).players(0).hidden_agents(), 6u);
  auto kgb = state->View(0);
  EXPECT_EQ(static_cast<const View&>(*kgb).players(1).hidden_agents(), 6u);
}

// "Send on leave": the agent cannot be picked next turn and comes back once all have picked.
TEST(GuerreFroideAgents, TheDoubleAgentSendsAnOpponentsAgentOnLeave) {
  internal::StateProto s = KgbAheadOnCuba(AGENT_DOUBLE_AGENT, AGENT_DEPUTY_DIRECTOR);
  auto state = Load(s);
  Play(*state, 0, Pass());
  Play(*state, 0, Answer(*state, 0, "leave.1." + std::to_string(AGENT_DIRECTOR)));
  ASSERT_EQ(P(*state).phase(), PHASE_PLANNING);
  EXPECT_TRUE(Has(P(*state).seats(1).leave(), AGENT_DIRECTOR));
  EXPECT_EQ(state->Validate(1, Choose(AGENT_DIRECTOR)).code(), codes::kAgentUnavailable);
  Play(*state, 1, Choose(AGENT_MASTER_SPY));
  Play(*state, 0, Choose(AGENT_ASSASSIN));
  EXPECT_TRUE(Has(P(*state).seats(1).hq(), AGENT_DIRECTOR));
  EXPECT_EQ(P(*state).seats(1).leave_size(), 0);
}

// Three players: an Ambassador whose service does not dominate detains the dominating service's
// Agent X; a Director detained that way is gone before its initiative, so only this turn's
// objective is claimed.
TEST(GuerreFroideAgents, AnAmbassadorDetainsTheDominatingDirectorBeforeItActs) {
  internal::StateProto s = KgbAheadOfTwo(AGENT_DIRECTOR, AGENT_AMBASSADOR, AGENT_DEPUTY_DIRECTOR);
  const uint32_t bottom = s.objective_deck(s.objective_deck_size() - 1);
  auto state = Load(s);
  Play(*state, 0, Pass());
  const auto& after = P(*state);
  EXPECT_TRUE(Has(after.seats(0).detained(), AGENT_DIRECTOR));
  EXPECT_EQ(after.seats(0).score(), 10u);  // Cuba, after the last agenda; not the bottom card
  EXPECT_EQ(after.objective_deck(after.objective_deck_size() - 1), bottom);
  const auto director = StepOf(*state, 0, AGENT_DIRECTOR);
  ASSERT_TRUE(director.has_value());
  EXPECT_TRUE(director->removed());
  EXPECT_FALSE(director->acted());
}

// The Ambassador's own box: detain the Agent X of one opponent of your choice. A detained agent
// has left the game.
TEST(GuerreFroideAgents, TheAmbassadorsOwnBoxDetainsAnOpponentOfItsChoice) {
  internal::StateProto s = Struggle(3, "cuba", 0);
  Give(s, 0, "mafia");
  Give(s, 1, "industry");  // dominates
  Give(s, 2, "students");
  Agent(s, 0, AGENT_DIRECTOR);
  Agent(s, 1, AGENT_AMBASSADOR);
  Agent(s, 2, AGENT_MASTER_SPY);
  AllPassedBut(s, 0);
  auto state = Load(s);
  Play(*state, 0, Pass());
  ASSERT_EQ(Asked(P(*state)), internal::ASK_TARGET);
  EXPECT_EQ(OptionIds(*state, 1), (std::vector<std::string>{"seat.0", "seat.2"}));
  Play(*state, 1, Answer(*state, 1, "seat.0"));
  const auto& after = P(*state);
  EXPECT_TRUE(Has(after.seats(0).detained(), AGENT_DIRECTOR));
  EXPECT_FALSE(Has(after.seats(0).hq(), AGENT_DIRECTOR));
  EXPECT_FALSE(Has(after.seats(0).leave(), AGENT_DIRECTOR));
  // MI6's Master Spy (another service dominates) took Cuba before the Ambassador acted.
  EXPECT_EQ(after.seats(2).score(), 10u);
  // MI6, ranked last but not among the lowest, hands the balance token to one of them.
  ASSERT_EQ(Asked(after), internal::ASK_BALANCE);
  Play(*state, 2, Answer(*state, 2, "seat.0"));
  ASSERT_EQ(P(*state).phase(), PHASE_PLANNING);
  EXPECT_EQ(state->Validate(0, Choose(AGENT_DIRECTOR)).code(), codes::kAgentUnavailable);
}

// The Director's own box with an empty objective deck: this turn's objective is then the bottom
// card, claimed once. At the next Briefing the used events are shuffled into a new deck.
TEST(GuerreFroideAgents, TheDirectorWithAnEmptyDeckClaimsThisTurnsObjectiveOnce) {
  internal::StateProto s = KgbAheadOnCuba(AGENT_DIRECTOR, AGENT_DEPUTY_DIRECTOR);
  for (uint32_t c : s.objective_deck()) s.add_objective_discard(c);
  s.clear_objective_deck();
  auto state = Load(s);
  Play(*state, 0, Pass());
  const auto& after = P(*state);
  EXPECT_EQ(after.seats(0).score(), 10u);
  EXPECT_EQ(after.seats(0).won_size(), 1);
  // Turn 2 began on a reshuffled deck of the 20 other objectives.
  EXPECT_EQ(after.turn(), 2u);
  EXPECT_EQ(after.objective_discard_size(), 0);
  EXPECT_EQ(after.objective_deck_size() + 1, 20);
  EXPECT_NE(after.objective(), static_cast<int32_t>(O("cuba")));
}

// Three players all in civil disorder: nobody dominates, the objective goes to the bottom
// unclaimed, every Agent X but a Deputy Director is terminated, and there is no single loser.
TEST(GuerreFroideCeaseFire, WithThreePlayersAllInCivilDisorderNobodyDominates) {
  internal::StateProto s = Struggle(3, "honduras", 0);  // stability 4
  Give(s, 0, "army");
  Give(s, 1, "banks");
  Give(s, 2, "television");
  Agent(s, 0, AGENT_MASTER_SPY);
  Agent(s, 1, AGENT_DEPUTY_DIRECTOR);
  Agent(s, 2, AGENT_DIRECTOR);
  AllPassedBut(s, 0);
  auto state = Load(s);
  Play(*state, 0, Pass());
  const auto& after = P(*state);
  ExpectUnclaimedAtTheBottom(after, "honduras");
  EXPECT_TRUE(Has(after.seats(0).terminated(), AGENT_MASTER_SPY));
  EXPECT_TRUE(Has(after.seats(1).hq(), AGENT_DEPUTY_DIRECTOR));
  EXPECT_TRUE(Has(after.seats(2).terminated(), AGENT_DIRECTOR));
  EXPECT_EQ(after.loser(), -1);
  EXPECT_EQ(after.balance(), 0);  // all tied at 0: the holder keeps it
}

// ----- Détente (RULES.md, "6. Détente") -----

// Agents X still in play go on leave, but the Deputy Director goes home and may be picked again.
TEST(GuerreFroideDetente, AgentsGoOnLeaveButTheDeputyDirectorGoesHome) {
  internal::StateProto s = KgbAheadOnCuba(AGENT_DEPUTY_DIRECTOR, AGENT_ASSASSIN);
  auto state = Load(s);
  Play(*state, 0, Pass());
  const auto& after = P(*state);
  ASSERT_EQ(after.phase(), PHASE_PLANNING);
  EXPECT_TRUE(Has(after.seats(0).hq(), AGENT_DEPUTY_DIRECTOR));
  EXPECT_EQ(after.seats(0).leave_size(), 0);
  EXPECT_TRUE(Has(after.seats(1).leave(), AGENT_ASSASSIN));
  EXPECT_TRUE(state->Validate(0, Choose(AGENT_DEPUTY_DIRECTOR)).ok());
  EXPECT_EQ(state->Validate(1, Choose(AGENT_ASSASSIN)).code(), codes::kAgentUnavailable);
}

// ----- The end (RULES.md, "Victory and the end of the game") -----

// At the goal together: the game goes on; one player alone highest at a Détente wins.
TEST(GuerreFroideVictory, ATieAtTheTopPlaysOnUntilOnePlayerAloneIsHighest) {
  internal::StateProto s = KgbAheadOnCuba(AGENT_DEPUTY_DIRECTOR, AGENT_DEPUTY_DIRECTOR);
  s.mutable_seats(0)->set_score(kGoalTwoPlayers - 10);
  s.mutable_seats(1)->set_score(kGoalTwoPlayers);
  auto state = Load(s);
  Play(*state, 0, Pass());
  EXPECT_EQ(P(*state).seats(0).score(), kGoalTwoPlayers);
  EXPECT_EQ(P(*state).phase(), PHASE_PLANNING);  // 100 each: on to turn 2

  internal::StateProto next = P(*state);
  const uint32_t objective = static_cast<uint32_t>(next.objective());
  Give(next, 1, "army");
  Agent(next, 0, AGENT_DEPUTY_DIRECTOR);
  Agent(next, 1, AGENT_DEPUTY_DIRECTOR);
  next.set_phase(PHASE_STRUGGLE);
  AllPassedBut(next, 0);
  Give(next, 0, "guerrillas");
  auto later = Load(next);
  const uint32_t stability = Game().objective(objective).stability();
  ASSERT_GE(stability, 6u);  // the CIA's Army keeps within it
  Play(*later, 0, Pass());
  EXPECT_EQ(P(*later).phase(), PHASE_GAME_OVER);
  ASSERT_EQ(P(*later).winners_size(), 1);
  EXPECT_EQ(P(*later).winners(0), 1u);
}

// With the objective deck and its discard pile both empty, the game ends at the Briefing: the
// highest score wins, shared by those who tie.
TEST(GuerreFroideVictory, NoObjectiveLeftEndsTheGameAndATieSharesTheWin) {
  internal::StateProto s = KgbAheadOnCuba(AGENT_DEPUTY_DIRECTOR, AGENT_DEPUTY_DIRECTOR);
  // Every other objective already claimed, none used: nothing left in the deck or its pile.
  for (int i = 0; i < s.objective_deck_size(); ++i) {
    s.mutable_seats(i % 2)->add_won(s.objective_deck(i));
  }
  s.clear_objective_deck();
  // Scores below the goal, equal once the KGB claims Cuba.
  s.mutable_seats(0)->set_score(40);
  s.mutable_seats(1)->set_score(50);
  auto state = Load(s);
  Play(*state, 0, Pass());
  const auto& after = P(*state);
  EXPECT_EQ(after.phase(), PHASE_GAME_OVER);
  ASSERT_EQ(after.winners_size(), 2);
  EXPECT_EQ(after.winners(0), 0u);
  EXPECT_EQ(after.winners(1), 1u);
}

// With three players the goal is 65 VP.
TEST(GuerreFroideVictory, ThreePlayersWinAtSixtyFive) {
  internal::StateProto s =
      KgbAheadOfTwo(AGENT_DEPUTY_DIRECTOR, AGENT_DEPUTY_DIRECTOR, AGENT_DEPUTY_DIRECTOR);
  s.mutable_seats(0)->set_score(kGoalThreePlayers - 10);
  s.mutable_seats(1)->set_score(kGoalThreePlayers - 1);
  auto state = Load(s);
  Play(*state, 0, Pass());
  EXPECT_EQ(kGoalThreePlayers, 65u);
  EXPECT_EQ(P(*state).phase(), PHASE_GAME_OVER);
  ASSERT_EQ(P(*state).winners_size(), 1);
  EXPECT_EQ(P(*state).winners(0), 0u);
}

}  // namespace
}  // namespace plateau::games::guerre_froide::rule_test
