// Guerre Froide games recorded once and replayed: seeded random playouts (answers, timed-out
// defaults and a resignation included) whose every view after every action is hashed, so a change
// to how the engine asks or resolves anything that a player would see fails here.
//
// The logs and hashes live in recorded_playouts.inc. They are rewritten, from the same seeds, by
// running this test with PLATEAU_RECORD_GF_PLAYOUTS=<path of that file>: only when a change of
// what players see is meant, and said so in the commit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "engine/core/registry.h"
#include "engine/games/guerre_froide/guerre_froide.h"
#include "tests/support/recorded_games.h"

namespace plateau::games::guerre_froide {
namespace {

#include "recorded_playouts.inc"

const engine::Game& Game() {
  EXPECT_TRUE(engine::Registry::LoadAll().ok());
  return *engine::Registry::Find("guerre_froide");
}


// What every recipient sees of `state`, its questions and its results, folded into `h`.
// A seat's published moves go in as the set of actions they offer, not as the tree that
// carries them: how the tree is written is the protocol's (shared words, parts, key-named
// targets), what a seat may do is the game's.
uint64_t FoldViews(uint64_t h, const engine::State& state) {
  for (int r = -1; r < state.num_seats(); ++r) {
    auto view = state.View(r);
    std::vector<std::string> offered;
    for (const auto& a : engine::PublishedActions(state.game(), *view))
      offered.push_back(engine::DeterministicBytes(*a));
    std::sort(offered.begin(), offered.end());
    for (const auto& a : offered) h = testing::Fnv1a(h, a);
    auto* table = static_cast<engine::v1::Table*>(view->GetReflection()->MutableMessage(
        view.get(), view->GetDescriptor()->FindFieldByName("table")));
    table->clear_moves();
    h = testing::Fnv1a(h, engine::DeterministicBytes(*view));
    for (const auto& p : state.Prompts(r)) h = testing::Fnv1a(h, engine::DeterministicBytes(p));
  }
  for (int64_t s : state.Scores()) h = testing::Fnv1a(h, std::to_string(s) + ",");
  for (int r : state.Ranks()) h = testing::Fnv1a(h, std::to_string(r) + ";");
  return h;
}



struct Recorded {
  int seats = 0;
  int variant = 0;
  uint64_t seed = 0;
  std::string hash;
  std::vector<engine::LoggedAction> log;
};

std::vector<Recorded> Parse(const std::string& text) {
  std::vector<Recorded> out;
  std::istringstream in(text);
  std::string word;
  while (in >> word) {
    if (word == "game") {
      out.emplace_back();
      in >> out.back().seats >> out.back().variant >> out.back().seed >> out.back().hash;
    } else if (word == "a" || word == "t") {
      int seat = 0;
      std::string hex;
      in >> seat >> hex;
      out.back().log.push_back({seat, testing::BytesOfHex(hex), word == "t"});
    }
  }
  return out;
}

// Plays one game: mostly random legal moves and answers, a pass now and then so that struggles
// end, a timed-out default move one time in ten, and with three seats one resignation.
std::unique_ptr<engine::State> Play(int seats, int variant, uint64_t seed) {
  const std::string& options = Game().Info().option_variants[variant];
  auto state = Game().NewGame(seats, options, seed).value();
  engine::Rng rng(seed * 7919 + 17);
  const int resign_at = seats == 3 ? 200 + static_cast<int>(rng.Below(200)) : -1;
  for (int step = 0; step < 1500 && !state->IsTerminal(); ++step) {
    const std::vector<int> acting = state->ActingSeats();
    const int seat = acting[rng.Below(acting.size())];
    if (step == resign_at) {
      engine::v1::CoreAction core;
      core.mutable_resign();
      if (state->Apply(seat, *Game().WrapCore(core)).ok()) continue;
    }
    if (rng.Below(10) == 0) {
      auto d = state->DefaultAction(seat);
      EXPECT_TRUE(d != nullptr);
      EXPECT_TRUE(state->Apply(seat, *d, /*timed_out=*/true).ok());
      continue;
    }
    auto legal = state->LegalActions(seat);
    EXPECT_FALSE(legal.empty());
    size_t pick = rng.Below(legal.size());
    if (rng.Below(3) == 0) {
      for (size_t i = 0; i < legal.size(); ++i)
        if (static_cast<const Action&>(*legal[i]).has_pass()) pick = i;
    }
    EXPECT_TRUE(state->Apply(seat, *legal[pick]).ok());
  }
  return state;
}

std::string HashOfReplay(const Recorded& r) {
  uint64_t h = 1469598103934665603ull;
  auto replayed = Game().Replay(r.seats, Game().Info().option_variants[r.variant], r.seed, r.log,
                                [&](size_t, const engine::State& s) { h = FoldViews(h, s); });
  EXPECT_TRUE(replayed.ok()) << replayed.status().ToString();
  return testing::HexOf(std::string(reinterpret_cast<const char*>(&h), sizeof h));
}

TEST(GuerreFroideReplay, RecordedGamesReplayToTheSameViews) {
  if (const char* path = std::getenv("PLATEAU_RECORD_GF_PLAYOUTS")) {
    std::string text;
    std::map<std::string, int> asked;  // which questions the recorded games reach
    for (int seats : {2, 3}) {
      for (int variant = 0; variant < 3; ++variant) {
        for (uint64_t seed : {5, 42}) {
          auto state = Play(seats, variant, seed);
          Recorded r{seats, variant, seed, "", state->History()};
          text += "game " + std::to_string(seats) + " " + std::to_string(variant) + " " +
                  std::to_string(seed) + " " + HashOfReplay(r) + "\n";
          for (const auto& a : r.log)
            text += std::string(a.timed_out ? "t " : "a ") + std::to_string(a.seat) + " " +
                    testing::HexOf(a.action) + "\n";
          Game().Replay(seats, Game().Info().option_variants[variant], seed, r.log,
                        [&](size_t, const engine::State& s) {
                          for (int p = 0; p < s.num_seats(); ++p)
                            for (const auto& q : s.Prompts(p)) ++asked[q.title().key()];
                        });
        }
      }
    }
    for (const auto& [key, n] : asked) std::printf("%s: %d\n", key.c_str(), n);
    FILE* f = std::fopen(path, "w");
    ASSERT_NE(f, nullptr);
    std::fprintf(f, "// Recorded by replay_test.cc (PLATEAU_RECORD_GF_PLAYOUTS): game <seats> "
                    "<option variant> <seed> <hash of views>, then each action (t: timed out) "
                    "as <seat> <hex bytes>.\nconstexpr const char* kRecorded = R\"(\n%s)\";\n",
                 text.c_str());
    std::fclose(f);
    GTEST_SKIP() << "recorded into " << path;
  }
  const std::vector<Recorded> games = Parse(kRecorded);
  ASSERT_EQ(games.size(), 12u);
  for (const auto& r : games) {
    SCOPED_TRACE("seats " + std::to_string(r.seats) + " variant " + std::to_string(r.variant) +
                 " seed " + std::to_string(r.seed));
    EXPECT_GT(r.log.size(), 50u);
    EXPECT_EQ(HashOfReplay(r), r.hash);
  }
}

}  // namespace
}  // namespace plateau::games::guerre_froide
