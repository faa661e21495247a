// Guerre Froide played by simple bots, to check that the designed cards give a game of the box's
// shape (RULES.md, "Simulation"): how many turns a game lasts, how often players bust, and how
// often each agent's player wins the turn's objective. The bots recruit while the average group
// still fits under the stability, strike the leader's biggest group with a military group, and
// pass otherwise; they pick agents and answer questions at random.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>

#include "engine/core/registry.h"
#include "engine/games/guerre_froide/guerre_froide.h"

namespace plateau::games::guerre_froide {
namespace {

const GuerreFroideGame& Game() {
  EXPECT_TRUE(engine::Registry::LoadAll().ok());
  return *dynamic_cast<const GuerreFroideGame*>(engine::Registry::Find("guerre_froide"));
}

struct Stats {
  int games = 0;
  int turns = 0;
  int seat_turns = 0;
  int busts = 0;
  int recruits = 0;  // recruits made (Live Benefit's included)
  int unfinished = 0;
  std::map<AgentKind, std::pair<int, int>> agent_wins;  // kind -> (turns won, turns played)
};

// The bot's move for `seat` in `s` (no question open).
Action BotMove(const internal::StateProto& s, int seat, engine::Rng& rng,
               const std::vector<std::unique_ptr<engine::Message>>& legal) {
  const auto& me = s.seats(seat);
  const auto& objective = Game().objective(static_cast<uint32_t>(s.objective()));
  auto influence = [&](int p) {
    uint32_t total = 0;
    for (const auto& gs : s.seats(p).groups()) total += Game().group(gs.card()).influence();
    return total;
  };
  Action a;
  if (s.phase() == PHASE_PLANNING || s.to_act() < 0) {
    a.CopyFrom(*legal[rng.Below(legal.size())]);
    return a;
  }
  const uint32_t mine = influence(seat);
  const bool room = me.groups_size() < static_cast<int>(objective.population());
  if (me.groups_size() == 0 || (room && mine + 4 <= objective.stability())) {
    a.mutable_recruit();
    return a;
  }
  // The leader under the stability, if ahead: its biggest group, hit by a ready military group.
  int leader = -1;
  for (int p = 0; p < static_cast<int>(s.num_seats()); ++p) {
    if (p != seat && influence(p) <= objective.stability() && influence(p) > mine &&
        (leader < 0 || influence(p) > influence(leader))) {
      leader = p;
    }
  }
  if (leader >= 0) {
    for (const auto& gs : me.groups()) {
      if (gs.mobilized() || Game().group(gs.card()).faction() != FACTION_MILITARY) continue;
      uint32_t best = 0;
      std::string target;
      for (const auto& theirs : s.seats(leader).groups()) {
        const auto& card = Game().group(theirs.card());
        if (card.influence() > best) best = card.influence(), target = card.id();
      }
      a.mutable_activate()->set_group(Game().group(gs.card()).id());
      a.mutable_activate()->set_target(target);
      return a;
    }
  }
  a.mutable_pass();
  return a;
}

void PlayOne(int seats, uint64_t seed, Stats& stats) {
  auto state = Game().NewGame(seats, "", seed).value();
  engine::Rng rng(seed * 31 + 7);
  const auto& gf = static_cast<const GuerreFroideState&>(*state);
  uint32_t turn = 0;
  int objective = -1;
  std::vector<AgentKind> agents(seats);
  std::vector<size_t> won_before(seats);
  auto close_turn = [&](const internal::StateProto& s) {
    for (int p = 0; p < seats; ++p) {
      bool won = false;
      for (int i = static_cast<int>(won_before[p]); i < s.seats(p).won_size(); ++i) {
        won |= static_cast<int>(s.seats(p).won(i)) == objective;
      }
      auto& counts = stats.agent_wins[agents[p]];
      counts.first += won;
      counts.second += 1;
    }
    // Who went over the stability: the Debriefing record keeps each civil disorder's fate until
    // the next Cease-fire (the flag itself is cleared when the next turn begins).
    stats.seat_turns += seats;
    for (const auto& step : s.debriefing()) {
      stats.busts += step.outcome().key().rfind("guerre_froide.disorder_", 0) == 0;
    }
  };
  for (int step = 0; step < 5000 && !state->IsTerminal(); ++step) {
    const auto& s = gf.proto();
    if (s.turn() != turn) {
      if (turn > 0) close_turn(s);
      turn = s.turn();
      objective = s.objective();
      for (int p = 0; p < seats; ++p) won_before[p] = static_cast<size_t>(s.seats(p).won_size());
    }
    if (s.phase() == PHASE_STRUGGLE) {
      for (int p = 0; p < seats; ++p) agents[p] = static_cast<AgentKind>(s.seats(p).agent_x(0));
    }
    const int seat = state->ActingSeats()[0];
    const auto prompts = state->Prompts(seat);
    std::unique_ptr<engine::Message> move;
    if (!prompts.empty()) {
      move = Game().WrapAnswer(engine::DrawAnswer(prompts[0], Game().OptionsOf(prompts[0]), rng));
    } else {
      auto legal = state->LegalActions(seat);
      ASSERT_FALSE(legal.empty());
      move = std::make_unique<Action>(BotMove(s, seat, rng, legal));
    }
    const auto& action = static_cast<const Action&>(*move);
    const bool recruiting =
        action.has_recruit() ||
        (action.has_use_event() &&
         Game().objective(static_cast<uint32_t>(Game().ObjectiveIndex(action.use_event().objective())))
                 .event() == EVENT_LIVE_BENEFIT);
    ASSERT_TRUE(state->Apply(seat, *move).ok()) << Game().ActionToText(*move);
    stats.recruits += recruiting;
  }
  if (!state->IsTerminal()) {
    ++stats.unfinished;
    return;
  }
  close_turn(gf.proto());
  ++stats.games;
  stats.turns += static_cast<int>(gf.proto().turn());
}

void Report(const char* what, const Stats& st) {
  std::printf(
      "%s: %d games, %.1f turns on average, %.0f%% of players over the stability per turn, "
      "%.2f recruits per turn (%.2f per player)\n",
      what, st.games, double(st.turns) / st.games, 100.0 * st.busts / st.seat_turns,
      double(st.recruits) / st.turns,
      double(st.recruits) / st.seat_turns);
  for (const auto& [kind, counts] : st.agent_wins) {
    std::printf("  %-22s won the objective in %4.1f%% of %d turns\n", AgentKind_Name(kind).c_str(),
                100.0 * counts.first / counts.second, counts.second);
  }
}

// The box: a 30 to 60 minute game. At two to four minutes a turn that is about 10 to 20 turns;
// busting must be a real risk without being the usual end of a struggle; each player recruits
// three to five groups a turn.
TEST(GuerreFroideSimulation, GamesLastLikeTheBoxAndBustingIsARealRisk) {
  for (int seats : {2, 3}) {
    Stats st;
    for (uint64_t seed = 1; seed <= 300; ++seed) PlayOne(seats, seed, st);
    Report(seats == 2 ? "2 players, to 100 VP" : "3 players, to 65 VP", st);
    ASSERT_GT(st.games, 0);
    EXPECT_EQ(st.unfinished, 0);
    const double turns = double(st.turns) / st.games;
    EXPECT_GE(turns, 8.0);
    EXPECT_LE(turns, 25.0);
    const double bust = double(st.busts) / st.seat_turns;
    EXPECT_GE(bust, 0.05);
    EXPECT_LE(bust, 0.40);
    // Stability against population and influence: a player's struggle takes three to five
    // recruits.
    const double recruits = double(st.recruits) / st.seat_turns;
    EXPECT_GE(recruits, 3.0);
    EXPECT_LE(recruits, 5.0);
  }
}

}  // namespace
}  // namespace plateau::games::guerre_froide
