// plateau-diff-fixtures OUT.jsonl [PLAYOUTS]
// Writes one JSON object per line: {"game", "view_type", "from", "ops", "to"} with base64 of the
// previous view, of a plateau.v1.ViewDiff, and of the next view, for every recipient of seeded
// random playouts of every registered game: once as the engine's ComputeDiff gives them, and
// once as a server's GameSession sends them (its own log handling included). The web client's
// tests apply the ops in TypeScript and compare, so both diff appliers are held to the same
// C++-computed diffs. A long game (hundreds of actions, large views) writes only every few
// actions' Diffs, at most about kWrittenSteps a playout, so every game weighs alike in the web
// client's tests whatever its length; its views are still carried from action to action.
#include <algorithm>
#include <fstream>
#include <iostream>

#include "engine/core/registry.h"
#include "engine/core/view_diff.h"
#include "plateau/v1/protocol.pb.h"
#include "server/room/game_session.h"
#include "tests/conformance/playout.h"

namespace {

constexpr int kWrittenSteps = 100;

std::string Base64(const std::string& in) {
  static const char* kAlphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    uint32_t n = (uint8_t(in[i]) << 16) | (uint8_t(in[i + 1]) << 8) | uint8_t(in[i + 2]);
    for (int s = 18; s >= 0; s -= 6) out += kAlphabet[(n >> s) & 63];
  }
  if (i < in.size()) {
    uint32_t n = uint8_t(in[i]) << 16;
    if (i + 1 < in.size()) n |= uint8_t(in[i + 1]) << 8;
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    out += i + 1 < in.size() ? kAlphabet[(n >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace plateau;
  if (argc < 2) {
    std::cerr << "usage: plateau-diff-fixtures OUT.jsonl [PLAYOUTS]\n";
    return 2;
  }
  const int playouts = argc > 2 ? std::max(1, std::atoi(argv[2])) : 3;
  if (auto st = engine::Registry::LoadAll(); !st.ok()) {
    std::cerr << st.ToString() << "\n";
    return 1;
  }
  std::ofstream out(argv[1]);
  size_t lines = 0;
  auto write = [&](const engine::Game& game, const engine::Message& from,
                   const plateau::v1::ViewDiff& diff, const engine::Message& to) {
    out << "{\"game\":\"" << game.Info().id << "\",\"view_type\":\"" << to.GetTypeName()
        << "\",\"from\":\"" << Base64(engine::DeterministicBytes(from)) << "\",\"ops\":\""
        << Base64(diff.SerializeAsString()) << "\",\"to\":\""
        << Base64(engine::DeterministicBytes(to)) << "\"}\n";
    ++lines;
  };
  for (const engine::Game* game : engine::Registry::All()) {
    for (int p = 0; p < playouts; ++p) {
      const int seats = game->Info().min_seats + p % (game->Info().max_seats - game->Info().min_seats + 1);
      // The playout's length first (the same seeds play the same game), for the stride.
      std::string error;
      engine::Rng dry_rng(900 + p);
      const int steps = testing::RandomPlayout(*game->NewGame(seats, "", 500 + p).value(), dry_rng,
                                               nullptr, &error);
      if (steps < 0) {
        std::cerr << game->Info().id << ": " << error << "\n";
        return 1;
      }
      const int stride = std::max(1, (steps + kWrittenSteps - 1) / kWrittenSteps);
      auto state = std::move(game->NewGame(seats, "", 500 + p).value());
      std::vector<std::unique_ptr<engine::Message>> held;
      for (int r : testing::Recipients(*state)) held.push_back(state->View(r));
      int step = 0;
      auto emit = [&](const engine::State& s) {
        auto recipients = testing::Recipients(s);
        const bool written = step++ % stride == 0;
        for (size_t i = 0; i < recipients.size(); ++i) {
          auto fresh = s.View(recipients[i]);
          if (written) {
            plateau::v1::ViewDiff diff;
            for (auto& op : engine::ComputeDiff(*held[i], *fresh)) *diff.add_ops() = std::move(op);
            write(*game, *held[i], diff, *fresh);
          }
          held[i] = std::move(fresh);
        }
      };
      engine::Rng rng(900 + p);
      if (testing::RandomPlayout(*state, rng, [&](const engine::State& s, int, const engine::Message&) { emit(s); }, &error) < 0) {
        std::cerr << game->Info().id << ": " << error << "\n";
        return 1;
      }
      step = 0;  // the final position is always written
      emit(*state);

      // The same game as a room plays it: the Diffs a session sends, every recipient watched.
      auto started = server::GameSession::Start(*game, "fixtures", seats, "", 500 + p);
      if (!started.ok()) {
        std::cerr << game->Info().id << ": " << started.status().ToString() << "\n";
        return 1;
      }
      auto session = std::move(started).value();
      session->SetWatched(true);
      std::vector<std::unique_ptr<engine::Message>> sent;
      for (size_t k = 0; k < session->num_views(); ++k) sent.push_back(session->view(k));
      int submitted = 0;
      for (const auto& action : state->History()) {
        auto applied = session->Submit(action.seat, action.action);
        if (!applied.ok()) {
          std::cerr << game->Info().id << ": " << applied.status().ToString() << "\n";
          return 1;
        }
        const bool written = submitted++ % stride == 0;
        for (size_t k = 0; k < session->num_views(); ++k) {
          auto now = session->view(k);
          if (written) {
            plateau::v1::ServerMessage frame;
            frame.ParseFromString(*applied.value().diffs[k]);
            write(*game, *sent[k], frame.diff().diff(), *now);
          }
          sent[k] = std::move(now);
        }
      }
    }
  }
  std::cerr << "wrote " << lines << " fixtures to " << argv[1] << "\n";
  return out.good() ? 0 : 1;
}
