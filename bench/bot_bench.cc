// plateau-bot-bench: how well the bots play, per registered game. Seeded games at the game's
// smallest table (two seats, or its minimum) pit the normal bot (search) against easy bots and
// against random players, the normal bot taking each seat in turn. It reports per game and
// opponent the normal bot's share: the fraction of the other seats it finishes ahead of (a tie
// counts half), so 50% is even at any table; its mean think time and playouts per decision, and
// the easy bot's think time. The normal bot searches a fixed number of playouts, so a run is
// reproducible; the server stops it by a time budget instead.
//
//   plateau-bot-bench [--games 200] [--playouts 100] [--horizon N] [--game limit]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "engine/core/bot.h"
#include "engine/core/registry.h"

namespace {

using plateau::engine::BotLevel;
using plateau::engine::Game;
using plateau::engine::Message;
using plateau::engine::Rng;
using plateau::engine::State;

enum class Player { kNormal, kEasy, kRandom };

struct Options {
  int games = 200;
  int playouts = 100;
  int horizon = -1;  // -1: the game's own (GameInfo::bot_horizon)
  std::string game;
};

struct Tally {
  double won = 0;
  int games = 0;
  int unfinished = 0;
  long actions = 0;
  double normal_seconds = 0;
  long normal_decisions = 0;
  long playouts = 0;
  double easy_seconds = 0;
  long easy_decisions = 0;
};

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// The moves `who` would play in seat `seat`, best first.
std::vector<std::unique_ptr<Message>> Choose(const State& state, int seat, Player who,
                                             const Options& o, Rng& rng, Tally& t) {
  std::vector<std::unique_ptr<Message>> moves;
  const double start = Now();
  switch (who) {
    case Player::kNormal: {
      plateau::engine::SearchBudget budget;
      budget.max_playouts = o.playouts;
      budget.horizon = o.horizon >= 0 ? o.horizon : state.game().Info().bot_horizon;
      plateau::engine::SearchStats stats;
      auto sample = state.SampleForSeat(seat, rng.Next());
      moves = plateau::engine::SearchMoves(*sample, seat, budget, rng, &stats);
      t.normal_seconds += Now() - start;
      ++t.normal_decisions;
      t.playouts += stats.playouts;
      break;
    }
    case Player::kEasy: {
      auto view = state.View(seat);
      moves = plateau::engine::BotMoves(state.game(), *view, seat, BotLevel::kEasy, rng);
      t.easy_seconds += Now() - start;
      ++t.easy_decisions;
      break;
    }
    case Player::kRandom:
      moves.push_back(plateau::engine::RandomMove(state, seat, rng));
      break;
  }
  return moves;
}

// The table the bots meet at: two seats, or the game's minimum.
int TableSize(const Game& game) { return std::max(2, game.Info().min_seats); }

// One game; the normal bot's share of it (of the other seats, those it finishes ahead of, a tie
// counting half), or -1 if it did not end.
double PlayOne(const Game& game, uint64_t seed, int normal_seat, Player opponent,
               const Options& o, Tally& t) {
  const int seats = TableSize(game);
  auto made = game.NewGame(seats, "", seed);
  if (!made.ok()) return -1;
  State& state = *made.value();
  Rng rng(seed * 0x9e3779b97f4a7c15ULL + 17);
  for (int steps = 0; !state.IsTerminal(); ++steps, ++t.actions) {
    if (steps > 5000) return -1;
    const auto acting = state.ActingSeats();
    if (acting.empty()) return -1;
    const int seat = acting[rng.Below(acting.size())];
    const Player who = seat == normal_seat ? Player::kNormal : opponent;
    bool played = false;
    for (const auto& move : Choose(state, seat, who, o, rng, t)) {
      if (move != nullptr && state.Apply(seat, *move).ok()) {
        played = true;
        break;
      }
    }
    if (!played) {
      auto fallback = state.DefaultAction(seat);
      if (fallback == nullptr || !state.Apply(seat, *fallback).ok()) return -1;
    }
  }
  const auto ranks = state.Ranks();
  double ahead = 0;
  for (int other = 0; other < seats; ++other) {
    if (other == normal_seat) continue;
    ahead += ranks[normal_seat] < ranks[other] ? 1 : ranks[normal_seat] == ranks[other] ? 0.5 : 0;
  }
  return ahead / (seats - 1);
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  const char* usage =
      "usage: plateau-bot-bench [--games N] [--playouts N] [--horizon N] [--game ID]\n";
  for (int i = 1; i < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--help" || flag == "-h") {
      std::printf("%s", usage);
      return 0;
    }
    if (i + 1 >= argc) {
      std::fprintf(stderr, "%s needs a value\n%s", flag.c_str(), usage);
      return 2;
    }
    if (flag != "--games" && flag != "--playouts" && flag != "--horizon" && flag != "--game") {
      std::fprintf(stderr, "unknown flag %s\n%s", flag.c_str(), usage);
      return 2;
    }
    const char* value = argv[i + 1];
    char* end = nullptr;
    const long number = std::strtol(value, &end, 10);
    const bool numeric = end != value && *end == '\0' && number >= 0 && number <= 1000000;
    if (flag == "--game") {
      o.game = value;
    } else if (!numeric) {
      std::fprintf(stderr, "%s takes a whole number from 0 to 1000000, not '%s'\n%s", flag.c_str(),
                   value, usage);
      return 2;
    } else if (flag == "--games") {
      o.games = static_cast<int>(number);
    } else if (flag == "--playouts") {
      o.playouts = static_cast<int>(number);
    } else {
      o.horizon = static_cast<int>(number);
    }
  }
  if (auto st = plateau::engine::Registry::LoadAll(); !st.ok()) {
    std::fprintf(stderr, "%s\n", st.ToString().c_str());
    return 1;
  }
  std::printf("| game | opponent | games | normal wins | think ms (normal) | playouts | think ms (easy) | actions per game |\n");
  std::printf("| --- | --- | --- | --- | --- | --- | --- | --- |\n");
  for (const Game* game : plateau::engine::Registry::All()) {
    if (!o.game.empty() && game->Info().id != o.game) continue;
    for (Player opponent : {Player::kEasy, Player::kRandom}) {
      Tally t;
      for (int g = 0; g < o.games; ++g) {
        const double share = PlayOne(*game, 5000 + static_cast<uint64_t>(g), g % TableSize(*game),
                                     opponent, o, t);
        if (share < 0) {
          ++t.unfinished;
          continue;
        }
        t.won += share;
        ++t.games;
      }
      std::printf("| %s | %s | %d%s | %.1f%% | %.2f | %.0f | %s | %.0f |\n", game->Info().title.c_str(),
                  opponent == Player::kEasy ? "easy" : "random", t.games,
                  t.unfinished ? (" (" + std::to_string(t.unfinished) + " unfinished)").c_str() : "",
                  t.games ? 100.0 * t.won / t.games : 0.0,
                  t.normal_decisions ? 1000.0 * t.normal_seconds / t.normal_decisions : 0.0,
                  t.normal_decisions ? static_cast<double>(t.playouts) / t.normal_decisions : 0.0,
                  t.easy_decisions
                      ? std::to_string(1000.0 * t.easy_seconds / t.easy_decisions).substr(0, 5).c_str()
                      : "-",
                  static_cast<double>(t.actions) / std::max(1, t.games + t.unfinished));
      std::fflush(stdout);
    }
  }
  return 0;
}
