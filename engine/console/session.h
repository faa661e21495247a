#pragma once
// The rules console's game session: one game in progress and the line commands that act on it
// and inspect it. Every command either succeeds (printing its output) or returns a Status and
// changes nothing, so a typo in a long script never leaves the game half-changed.
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>

#include "engine/core/game.h"

namespace plateau::console {

using engine::Status;
using engine::StatusOr;

class Session {
 public:
  // Starts `game` for `num_seats` from options in text format (empty: defaults) and `seed`.
  static StatusOr<std::unique_ptr<Session>> Start(const engine::Game& game, int num_seats,
                                                  std::string_view options_text, uint64_t seed);

  // Runs one command line (comments already stripped, not blank). Prints to `out` on success.
  // Failures: kUsage for a malformed command, kExpectationFailed for a check that did not hold,
  // the engine's code for a refused action.
  Status Execute(std::string_view line, std::ostream& out);

  // Relative file names in commands (load-position) are read from here: a script's own folder, so
  // a script and the positions it loads travel together.
  void set_base_dir(std::string dir) { base_dir_ = std::move(dir); }

  bool quit_requested() const { return quit_; }
  const engine::State& state() const { return *state_; }
  const std::string& options_bytes() const { return options_bytes_; }
  uint64_t seed() const { return seed_; }

  // One line per command: its usage and what it does.
  static std::string Help();

 private:
  Session(const engine::Game& game, std::unique_ptr<engine::State> state, std::string options_bytes,
          uint64_t seed);

  StatusOr<int> Seat(std::string_view word, bool allow_spectator) const;
  StatusOr<std::unique_ptr<engine::Message>> Action(std::string_view text) const;
  std::string ActingText() const;
  Status LoadPosition(const std::string& path, std::ostream& out);

  const engine::Game& game_;
  std::unique_ptr<engine::State> state_;
  std::string options_bytes_;
  uint64_t seed_;
  bool quit_ = false;
  bool loaded_position_ = false;  // the history no longer starts at the setup
  std::string base_dir_;
};

// Reads commands from `in` one per line (blank lines and `#` comments skipped) until the end or
// `quit`. Returns the process exit status: in strict mode (scripts) the first failing command
// stops the run with 1 and a message naming `source` and the line; otherwise failures are
// reported and reading goes on. `prompt` prints "> " before each line (interactive terminals).
int RunCommands(Session& session, std::istream& in, const std::string& source, bool strict,
                bool prompt, std::ostream& out, std::ostream& err);

// How a failed command is shown: "refused: <code>: <reason>" for a refused action,
// "expectation failed: <reason>" and "error: <reason>" for the others.
std::string FailureText(const Status& status);

}  // namespace plateau::console
