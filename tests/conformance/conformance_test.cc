// The conformance suite: properties every registered game must have, checked over seeded random
// playouts. A new game is covered by registering it; nothing here names a game.
//
// PLATEAU_CONFORMANCE_PLAYOUTS scales the number of playouts per (game, seat count); the default
// runs thousands in total across games and seat counts.
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>

#include "engine/core/registry.h"
#include "engine/core/view_diff.h"
#include "tests/conformance/playout.h"

namespace plateau::testing {
namespace {

using engine::DeterministicBytes;
using engine::Game;
using engine::Registry;
using engine::Rng;
using engine::State;

int PlayoutsPerSeatCount() {
  const char* env = std::getenv("PLATEAU_CONFORMANCE_PLAYOUTS");
  return env != nullptr ? std::max(1, std::atoi(env)) : 400;
}

// The heavier checks replay fewer games; they shrink with the setting above (sanitizer runs use a
// small one) but never below two games per seat count.
int Scaled(int at_default) { return std::max(2, at_default * PlayoutsPerSeatCount() / 400); }

std::vector<std::string> GameIds() {
  engine::Status st = Registry::LoadAll();
  if (!st.ok()) {
    ADD_FAILURE() << st.ToString();
    return {};
  }
  std::vector<std::string> ids;
  for (const Game* g : Registry::All()) ids.push_back(g->Info().id);
  return ids;
}

class ConformanceTest : public ::testing::TestWithParam<std::string> {
 protected:
  const Game& game() const { return *Registry::Find(GetParam()); }

  std::unique_ptr<State> NewState(int seats, uint64_t seed) const {
    auto s = game().NewGame(seats, "", seed);
    EXPECT_TRUE(s.ok()) << s.status().ToString();
    return s.ok() ? std::move(s.value()) : nullptr;
  }

  std::vector<int> SeatCounts() const {
    std::vector<int> out;
    for (int n = game().Info().min_seats; n <= game().Info().max_seats; ++n) out.push_back(n);
    return out;
  }
};

std::vector<std::string> ViewsOf(const State& s) {
  std::vector<std::string> out;
  for (int r : Recipients(s)) out.push_back(DeterministicBytes(*s.View(r)));
  return out;
}

// Structural invariants of a position, whatever the game.
void CheckInvariants(const State& s) {
  auto acting = s.ActingSeats();
  if (s.IsTerminal()) {
    EXPECT_TRUE(acting.empty()) << "a finished game still has acting seats";
    auto ranks = s.Ranks();
    ASSERT_EQ(ranks.size(), static_cast<size_t>(s.num_seats()));
    EXPECT_NE(std::find(ranks.begin(), ranks.end(), 1), ranks.end()) << "nobody ranked first";
    for (int r : ranks) EXPECT_TRUE(r >= 1 && r <= s.num_seats());
    EXPECT_EQ(s.Scores().size(), static_cast<size_t>(s.num_seats()));
    return;
  }
  ASSERT_FALSE(acting.empty());
  std::set<int> unique(acting.begin(), acting.end());
  EXPECT_EQ(unique.size(), acting.size()) << "a seat listed twice as acting";
  for (int seat = 0; seat < s.num_seats(); ++seat) {
    const bool is_acting = unique.count(seat) > 0;
    auto legal = s.LegalActions(seat);
    if (!is_acting) {
      EXPECT_TRUE(legal.empty()) << "seat " << seat << " may not act but has legal actions";
    } else {
      EXPECT_FALSE(legal.empty()) << "seat " << seat << " acts but has no legal action";
      for (const auto& a : legal) {
        engine::Status st = s.Validate(seat, *a);
        EXPECT_TRUE(st.ok()) << s.game().ActionToText(*a) << " listed legal but " << st.ToString();
      }
    }
  }
  EXPECT_TRUE(s.LegalActions(engine::kSpectator).empty());
}

TEST_P(ConformanceTest, RandomPlayoutsReachTheEndWithInvariants) {
  const int playouts = PlayoutsPerSeatCount();
  for (int seats : SeatCounts()) {
    for (int p = 0; p < playouts; ++p) {
      const uint64_t seed = 1000003ULL * static_cast<uint64_t>(p) + static_cast<uint64_t>(seats);
      auto state = NewState(seats, seed);
      ASSERT_NE(state, nullptr);
      Rng rng(seed ^ 0x5eedULL);
      // Full invariant checks on a sample of positions keep the suite fast but broad.
      const bool deep = p % 20 == 0;
      std::string error;
      int steps = RandomPlayout(*state, rng, [&](const State& s, int, const engine::Message&) {
        if (deep || rng.Below(16) == 0) CheckInvariants(s);
      }, &error);
      ASSERT_GE(steps, 0) << GetParam() << " seats=" << seats << " seed=" << seed << ": " << error;
      CheckInvariants(*state);
      if (HasFatalFailure() || HasFailure()) {
        FAIL() << "seats=" << seats << " seed=" << seed;
      }
    }
  }
}

TEST_P(ConformanceTest, SameSeedAndActionsReplayExactly) {
  for (int seats : SeatCounts()) {
    for (uint64_t seed : {1ULL, 77ULL, 123456789ULL}) {
      auto state = NewState(seats, seed);
      Rng rng(seed);
      std::string error;
      ASSERT_GE(RandomPlayout(*state, rng, nullptr, &error), 0) << error;
      auto replayed = game().Replay(seats, "", seed, state->History());
      ASSERT_TRUE(replayed.ok()) << replayed.status().ToString();
      EXPECT_EQ(replayed.value()->Serialize(), state->Serialize());
      EXPECT_EQ(ViewsOf(*replayed.value()), ViewsOf(*state));
    }
    // The seed matters: some pair of seeds must deal differently.
    std::set<std::string> starts;
    for (uint64_t seed = 1; seed <= 8; ++seed) starts.insert(NewState(seats, seed)->Serialize());
    EXPECT_GT(starts.size(), 1u) << "the seed does not change the initial position";
  }
}

TEST_P(ConformanceTest, CloneAndSerializeRoundTrip) {
  for (int seats : SeatCounts()) {
    for (int p = 0; p < Scaled(20); ++p) {
      const uint64_t seed = 31ULL * static_cast<uint64_t>(p) + 5;
      auto state = NewState(seats, seed);
      Rng rng(seed);
      std::string error;
      int steps = RandomPlayout(*state, rng, [&](const State& s, int, const engine::Message&) {
        auto clone = s.Clone();
        ASSERT_EQ(clone->Serialize(), s.Serialize());
        ASSERT_EQ(ViewsOf(*clone), ViewsOf(s));
        auto restored = game().Deserialize(s.Serialize());
        ASSERT_TRUE(restored.ok()) << restored.status().ToString();
        ASSERT_EQ(restored.value()->Serialize(), s.Serialize());
        ASSERT_EQ(ViewsOf(*restored.value()), ViewsOf(s));
        ASSERT_EQ(restored.value()->ActingSeats(), s.ActingSeats());
      }, &error);
      ASSERT_GE(steps, 0) << error;
      if (HasFatalFailure()) return;
    }
  }
}

// The protocol's promise: a recipient holding view N that applies diff N->N+1 has view N+1.
TEST_P(ConformanceTest, PreviousViewPlusDiffIsNewViewForEveryRecipient) {
  for (int seats : SeatCounts()) {
    for (int p = 0; p < Scaled(30); ++p) {
      const uint64_t seed = 7919ULL * static_cast<uint64_t>(p) + 3;
      auto state = NewState(seats, seed);
      std::vector<std::unique_ptr<engine::Message>> held;
      for (int r : Recipients(*state)) held.push_back(state->View(r));
      Rng rng(seed);
      std::string error;
      // The hook runs before each action; compare after it by checking at the next step.
      auto check = [&](const State& s) {
        auto recipients = Recipients(s);
        for (size_t i = 0; i < recipients.size(); ++i) {
          auto fresh = s.View(recipients[i]);
          auto ops = engine::ComputeDiff(*held[i], *fresh);
          engine::Status st = engine::ApplyDiff(ops, held[i].get());
          ASSERT_TRUE(st.ok()) << st.ToString();
          ASSERT_EQ(DeterministicBytes(*held[i]), DeterministicBytes(*fresh))
              << "recipient " << recipients[i] << " after " << s.History().size() << " actions";
        }
      };
      int steps = RandomPlayout(*state, rng, [&](const State& s, int, const engine::Message&) {
        check(s);
      }, &error);
      ASSERT_GE(steps, 0) << error;
      check(*state);
      if (HasFatalFailure()) return;
    }
  }
}

// Nothing hidden reaches a seat: redrawing everything a seat cannot see leaves its view's bytes
// identical. The redraw must really change the position somewhere, or the check proves nothing.
TEST_P(ConformanceTest, HiddenInformationDoesNotReachTheView) {
  for (int seats : SeatCounts()) {
    int changed = 0, checked = 0;
    for (int p = 0; p < Scaled(25); ++p) {
      const uint64_t seed = 104729ULL * static_cast<uint64_t>(p) + 11;
      auto state = NewState(seats, seed);
      Rng rng(seed);
      std::string error;
      int steps = RandomPlayout(*state, rng, [&](const State& s, int, const engine::Message&) {
        if (s.IsTerminal()) return;
        for (int r : Recipients(s)) {
          auto other = s.PerturbHidden(r, rng.Next());
          ASSERT_NE(other, nullptr);
          ASSERT_EQ(DeterministicBytes(*other->View(r)), DeterministicBytes(*s.View(r)))
              << "recipient " << r << " sees hidden information after " << s.History().size()
              << " actions";
          ASSERT_EQ(other->ActingSeats(), s.ActingSeats());
          changed += other->Serialize() != s.Serialize() ? 1 : 0;
          ++checked;
        }
      }, &error);
      ASSERT_GE(steps, 0) << error;
      if (HasFatalFailure()) return;
    }
    EXPECT_GT(changed, checked / 4) << "PerturbHidden rarely changes anything: is it a no-op?";
  }
}

// Untrusted bytes: refused with a code and no change, or (if they happen to decode to a legal
// action) accepted exactly as the decoded action would be.
TEST_P(ConformanceTest, GarbageAndWrongSeatActionsChangeNothing) {
  for (int seats : SeatCounts()) {
    auto state = NewState(seats, 99);
    Rng rng(99);
    std::string error;
    int steps = RandomPlayout(*state, rng, [&](const State& s, int seat, const engine::Message& chosen) {
      const std::string before = s.Serialize();
      for (int k = 0; k < 4; ++k) {
        std::string junk(rng.Below(24), '\0');
        for (char& c : junk) c = static_cast<char>(rng.Below(256));
        auto copy = s.Clone();
        engine::Status st = copy->ApplyBytes(seat, junk);
        if (!st.ok()) {
          EXPECT_FALSE(st.code().empty());
          EXPECT_FALSE(st.reason().empty());
          EXPECT_EQ(copy->Serialize(), before);
        }
      }
      auto acting = s.ActingSeats();
      for (int other = 0; other < s.num_seats(); ++other) {
        if (std::find(acting.begin(), acting.end(), other) != acting.end()) continue;
        auto copy = s.Clone();
        engine::Status st = copy->Apply(other, chosen);
        EXPECT_EQ(st.code(), engine::codes::kNotYourTurn);
        EXPECT_EQ(copy->Serialize(), before);
      }
      auto copy = s.Clone();
      EXPECT_EQ(copy->Apply(s.num_seats(), chosen).code(), engine::codes::kBadSeat);
      EXPECT_EQ(copy->Serialize(), before);
    }, &error);
    ASSERT_GE(steps, 0) << error;
    auto last = state->LegalActions(0);
    EXPECT_TRUE(last.empty());
  }
}

INSTANTIATE_TEST_SUITE_P(AllGames, ConformanceTest, ::testing::ValuesIn(GameIds()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

}  // namespace
}  // namespace plateau::testing
