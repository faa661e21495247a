// LIMIT's recorded games: seeded random playouts stored with a digest of every view after every
// move, replayed to the same digests, so a change in how the engine asks its questions that a
// player could see (a question, an option, a prompt id, a log line) fails here.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "engine/core/rng.h"
#include "engine/games/limit/limit.h"
#include "games/limit.pb.h"
#include "tests/conformance/playout.h"
#include "tests/games/limit/support.h"
#include "tests/support/recorded_games.h"

namespace plateau::games::limit {
namespace {

constexpr const char* kReplayFile = PLATEAU_SOURCE_DIR "/tests/games/limit/data/replays.txt";

// One recorded game: how it was set up and what was played.
struct Recorded {
  int seats = 0;
  bool alliances = false;
  uint64_t seed = 0;
  std::vector<engine::LoggedAction> log;
  uint64_t digest = 0;  // every recipient's view after every move, folded
};

// The games recorded: solo, and two to six nations with and without the Alliance step (with it,
// votes, fees and calls for help are asked).
const std::vector<std::pair<int, bool>> kSetups = {{1, false}, {1, false}, {2, true},  {2, false},
                                                   {3, true},  {3, false}, {4, true},  {4, true},
                                                   {5, true},  {6, true},  {6, false}, {3, true}};


// Each recipient's view as it sees it, without the published move tree: the moves are the
// engine's offer of plays, changed on their own account and checked by the conformance suite;
// the questions, their options, ids and the log stay in.
uint64_t FoldViews(uint64_t h, const engine::State& state) {
  for (int seat : testing::Recipients(state)) {
    auto view = state.View(seat);
    auto& v = static_cast<View&>(*view);
    v.mutable_table()->clear_moves();
    h = testing::Fnv1a(h, engine::DeterministicBytes(v));
  }
  return h;
}



std::string OptionsBytes(bool alliances) {
  Options o;
  o.set_alliances(alliances);
  return engine::DeterministicBytes(o);
}

std::vector<Recorded> Load() {
  std::vector<Recorded> out;
  std::ifstream in(kReplayFile);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string word;
    fields >> word;
    if (word == "game") {
      out.emplace_back();
      int alliances = 0;
      fields >> out.back().seats >> alliances >> out.back().seed;
      out.back().alliances = alliances != 0;
    } else if (out.empty()) {
      continue;  // the heading
    } else if (word == "a") {
      engine::LoggedAction a;
      std::string hex;
      fields >> a.seat >> hex;
      a.action = testing::BytesOfHex(hex == "-" ? "" : hex);
      out.back().log.push_back(std::move(a));
    } else if (word == "digest") {
      fields >> std::hex >> out.back().digest;
    }
  }
  return out;
}

// Writes the games anew (PLATEAU_RECORD_LIMIT_REPLAYS=1): done once on a build whose behaviour
// is the reference, never to make a failing replay pass.
TEST(LimitReplay, Record) {
  if (std::getenv("PLATEAU_RECORD_LIMIT_REPLAYS") == nullptr) GTEST_SKIP();
  const auto& game = support::Game();
  std::ofstream out(kReplayFile);
  out << "# LIMIT games played at random, with a digest of every view after every move "
         "(tests/games/limit/replay_test.cc)\n";
  uint64_t seed = 9001;
  std::map<std::string, int> asked;
  for (const auto& [seats, alliances] : kSetups) {
    ++seed;
    auto state = game.NewGame(seats, OptionsBytes(alliances), seed);
    ASSERT_TRUE(state.ok()) << state.status().ToString();
    engine::Rng rng(seed * 7919);
    uint64_t digest = FoldViews(14695981039346656037ull, *state.value());
    std::vector<engine::LoggedAction> log;
    std::string error;
    const int steps = testing::RandomPlayout(
        *state.value(), rng,
        [&](const engine::State& s, int seat, const engine::Message& action) {
          log.push_back({seat, engine::DeterministicBytes(action)});
          // What the games asked, so the file's coverage of the questions can be read off.
          for (const auto& p : s.Prompts(seat)) ++asked[p.title().key()];
        },
        &error);
    ASSERT_GE(steps, 0) << error;
    // The digest is folded by replaying, as the check does.
    auto replayed = game.Replay(seats, OptionsBytes(alliances), seed, log,
                                [&](size_t, const engine::State& s) { digest = FoldViews(digest, s); });
    ASSERT_TRUE(replayed.ok()) << replayed.status().ToString();
    out << "game " << seats << " " << (alliances ? 1 : 0) << " " << seed << "\n";
    for (const auto& a : log) out << "a " << a.seat << " " << (a.action.empty() ? "-" : testing::HexOf(a.action)) << "\n";
    out << "digest " << std::hex << digest << std::dec << "\n";
  }
  for (const auto& [key, n] : asked) std::cout << "answered " << key << ": " << n << "\n";
}

TEST(LimitReplay, RecordedGamesReplayToTheSameViews) {
  const auto& game = support::Game();
  const auto games = Load();
  ASSERT_EQ(games.size(), kSetups.size()) << "missing or unreadable " << kReplayFile;
  for (const auto& r : games) {
    SCOPED_TRACE("seats " + std::to_string(r.seats) + " seed " + std::to_string(r.seed));
    ASSERT_FALSE(r.log.empty());
    auto start = game.NewGame(r.seats, OptionsBytes(r.alliances), r.seed);
    ASSERT_TRUE(start.ok());
    uint64_t digest = FoldViews(14695981039346656037ull, *start.value());
    auto replayed = game.Replay(r.seats, OptionsBytes(r.alliances), r.seed, r.log,
                                [&](size_t, const engine::State& s) { digest = FoldViews(digest, s); });
    ASSERT_TRUE(replayed.ok()) << replayed.status().ToString();
    EXPECT_TRUE(replayed.value()->IsTerminal());
    EXPECT_EQ(digest, r.digest) << "a view differs from the recorded game's somewhere";
  }
}

}  // namespace
}  // namespace plateau::games::limit
