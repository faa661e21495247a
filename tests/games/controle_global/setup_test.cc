// Contrôle Global: set-up for 3 to 6 players, a random playout to the end, and determinism.
#include "tests/games/controle_global/support.h"

#include "engine/core/rng.h"

namespace plateau::games::controle_global::rule_test {
namespace {

TEST(ControleGlobalSetup, DealsTheWorldForEachPlayerCount) {
  for (int n = 3; n <= 6; ++n) {
    auto state = Game().NewGame(n, "", 11).value();
    auto s = PositionOf(*state);
    EXPECT_EQ(s.regions_size(), 3 * n + 2) << n;
    EXPECT_EQ(s.phase(), PHASE_FACTIONS);
    // The last player in turn order picks a faction first.
    EXPECT_EQ(state->ActingSeats(), std::vector<int>{static_cast<int>(s.turn_order(n - 1))});
    for (const auto& r : s.regions()) {
      uint32_t stock = 0;
      for (uint32_t x : r.stock()) {
        EXPECT_GE(x, 1u);
        EXPECT_LE(x, 4u);
        stock += x;
      }
      EXPECT_EQ(stock, 9 - r.development()) << r.name();
      EXPECT_GE(r.development(), 1u);
      EXPECT_LE(r.development(), 4u);
    }
    // The world is in one piece.
    std::vector<int> seen(s.regions_size(), 0), todo = {0};
    seen[0] = 1;
    while (!todo.empty()) {
      int at = todo.back();
      todo.pop_back();
      for (uint32_t nb : s.regions(at).neighbours()) {
        if (!seen[nb]) {
          seen[nb] = 1;
          todo.push_back(static_cast<int>(nb));
        }
      }
    }
    EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), s.regions_size()) << n;
  }
}

TEST(ControleGlobalSetup, FactionsRegionsCubesAndHandsForEachPlayerCount) {
  for (int n = 3; n <= 6; ++n) {
    auto state = PastSetup(n, 5);
    auto s = PositionOf(*state);
    EXPECT_EQ(s.round(), 1u);
    for (int seat = 0; seat < n; ++seat) {
      const auto& st = s.seats(seat);
      ASSERT_GE(st.faction(), 0);
      EXPECT_EQ(st.hand_size(), 4);
      for (uint32_t card : st.hand()) {
        EXPECT_EQ(Game().pile(Game().PileOf(card)).tier(), TIER_LOWER);
      }
      ASSERT_EQ(st.picked_size(), 2);
      EXPECT_NE(st.picked(0), st.picked(1));
      // Four cubes: each starting category in each starting region.
      const Faction& f = Game().faction(st.faction());
      uint32_t cubes = 0;
      for (const auto& r : s.regions()) {
        for (int cat = 0; cat < kCategories; ++cat) cubes += r.cubes(seat * kCategories + cat);
      }
      EXPECT_EQ(cubes, 4u);
      for (uint32_t region : st.picked()) {
        for (int c : f.categories()) {
          EXPECT_EQ(CubesOf(s, static_cast<int>(region), seat, Cat(static_cast<Category>(c))), 1u);
        }
      }
    }
    for (const auto& r : s.regions()) {
      int picks = 0;
      for (const auto& st : s.seats()) picks += std::count(st.picked().begin(), st.picked().end(), &r - &s.regions(0));
      EXPECT_LE(picks, 2);
    }
    // Set-up never feeds civil society.
    EXPECT_EQ(s.civil_size(), 0);
  }
}

// RULES.md, Set-up 6: the starting cubes go down in turn order, so players holding as many cubes
// of a category after set-up stand on its table in the first round's turn order.
TEST(ControleGlobalSetup, StartingTiesKeepTheFirstTurnOrder) {
  int tied_holders = 0;
  for (int n : {4, 6}) {
    for (uint64_t seed = 1; seed <= 12; ++seed) {
      const auto s = PositionOf(*PastSetup(n, seed));
      std::vector<int> turn_place(static_cast<size_t>(n));
      for (int k = 0; k < n; ++k) turn_place[s.turn_order(k)] = k;
      for (int cat = 0; cat < kCategories; ++cat) {
        std::vector<uint32_t> total(static_cast<size_t>(n), 0);
        for (const auto& r : s.regions()) {
          for (int seat = 0; seat < n; ++seat) total[seat] += r.cubes(seat * kCategories + cat);
        }
        const auto& order = s.orders(cat).seats();
        for (int a = 0; a < n; ++a) {
          for (int b = a + 1; b < n; ++b) {
            const uint32_t x = order[a], y = order[b];
            EXPECT_GE(total[x], total[y]) << "seed " << seed << ", category " << cat;
            if (total[x] != total[y]) continue;
            tied_holders += total[x] > 0 && a + 1 == b ? 1 : 0;
            EXPECT_LT(turn_place[x], turn_place[y]) << n << " players, seed " << seed << ", category " << cat;
          }
        }
      }
    }
  }
  EXPECT_GT(tied_holders, 0) << "no two starting factions shared a category: the check saw no tie";
}

// The end variants apply at the player count they were written for; elsewhere the standard end.
TEST(ControleGlobalSetup, EndVariantsOnlyAtTheirPlayerCount) {
  for (auto [rule, seats] : {std::pair{END_TWO_AT_VI, 6}, std::pair{END_TWO_AT_V, 3}}) {
    Options o;
    o.set_end_rule(rule);
    for (int n = 3; n <= 6; ++n) {
      ASSERT_TRUE(Game().ValidateOptions(n, o).ok());
      auto state = Game().NewGame(n, o.SerializeAsString(), 1).value();
      EXPECT_EQ(PositionOf(*state).end_rule(), n == seats ? rule : END_ONE_AT_VI) << n;
    }
  }
}

// Plays random legal moves and answers to the end; returns the log of moves.
std::vector<engine::LoggedAction> RandomGame(int seats, uint64_t seed, std::string options,
                                             std::unique_ptr<engine::State>* out) {
  auto state = Game().NewGame(seats, options, seed).value();
  engine::Rng rng(seed * 7 + 1);
  std::vector<engine::LoggedAction> log;
  for (int moves = 0; !state->IsTerminal() && moves < 40000; ++moves) {
    auto acting = state->ActingSeats();
    EXPECT_FALSE(acting.empty());
    if (acting.empty()) break;
    const int seat = acting[rng.Below(acting.size())];
    auto legal = state->LegalActions(seat);
    EXPECT_FALSE(legal.empty());
    if (legal.empty()) break;
    const auto& a = *legal[rng.Below(legal.size())];
    auto st = state->Apply(seat, a);
    EXPECT_TRUE(st.ok()) << st.reason();
    log.push_back({seat, a.SerializeAsString()});
  }
  *out = std::move(state);
  return log;
}

TEST(ControleGlobalPlayout, RandomGamesEndAndReplayExactly) {
  int seed = 1;
  for (int n = 3; n <= 6; ++n) {
    for (const std::string& options : Game().Info().option_variants) {
      Options o;
      o.ParseFromString(options);
      if (!Game().ValidateOptions(n, o).ok()) continue;
      std::unique_ptr<engine::State> end;
      auto log = RandomGame(n, ++seed, options, &end);
      ASSERT_TRUE(end->IsTerminal()) << n << " players";
      // Determinism: the same seed and log give the same position.
      auto again = Game().Replay(n, options, seed, log);
      ASSERT_TRUE(again.ok()) << again.status().reason();
      EXPECT_EQ(again.value()->Serialize(), end->Serialize());
      // A position survives its own bytes.
      auto back = Game().Deserialize(end->Serialize());
      ASSERT_TRUE(back.ok()) << back.status().reason();
    }
  }
}

}  // namespace
}  // namespace plateau::games::controle_global::rule_test
