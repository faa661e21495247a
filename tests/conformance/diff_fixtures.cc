// plateau-diff-fixtures OUT.jsonl [PLAYOUTS]
// Writes one JSON object per line: {"game", "view_type", "from", "ops", "to"} with base64 of the
// previous view, of a plateau.v1.ViewDiff, and of the next view, for every recipient of seeded
// random playouts of every registered game. The web client's tests apply the ops in TypeScript and
// compare, so both diff appliers are held to the same C++-computed diffs.
#include <fstream>
#include <iostream>

#include "engine/core/registry.h"
#include "engine/core/view_diff.h"
#include "tests/conformance/playout.h"

namespace {

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
  for (const engine::Game* game : engine::Registry::All()) {
    for (int p = 0; p < playouts; ++p) {
      const int seats = game->Info().min_seats + p % (game->Info().max_seats - game->Info().min_seats + 1);
      auto state = std::move(game->NewGame(seats, "", 500 + p).value());
      std::vector<std::unique_ptr<engine::Message>> held;
      for (int r : testing::Recipients(*state)) held.push_back(state->View(r));
      auto emit = [&](const engine::State& s) {
        auto recipients = testing::Recipients(s);
        for (size_t i = 0; i < recipients.size(); ++i) {
          auto fresh = s.View(recipients[i]);
          plateau::v1::ViewDiff diff;
          for (auto& op : engine::ComputeDiff(*held[i], *fresh)) *diff.add_ops() = std::move(op);
          out << "{\"game\":\"" << game->Info().id << "\",\"view_type\":\""
              << fresh->GetTypeName() << "\",\"from\":\"" << Base64(engine::DeterministicBytes(*held[i]))
              << "\",\"ops\":\"" << Base64(diff.SerializeAsString()) << "\",\"to\":\""
              << Base64(engine::DeterministicBytes(*fresh)) << "\"}\n";
          held[i] = std::move(fresh);
          ++lines;
        }
      };
      engine::Rng rng(900 + p);
      std::string error;
      if (testing::RandomPlayout(*state, rng, [&](const engine::State& s, int, const engine::Message&) { emit(s); }, &error) < 0) {
        std::cerr << game->Info().id << ": " << error << "\n";
        return 1;
      }
      emit(*state);
    }
  }
  std::cerr << "wrote " << lines << " fixtures to " << argv[1] << "\n";
  return out.good() ? 0 : 1;
}
