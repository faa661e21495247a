#pragma once
// The engine contract every game implements. Pure and deterministic: no I/O, clocks, threads or
// hidden randomness, so (game, options, seed, action log) replays a game exactly.
//
// A Game is immutable (rules, option schema, loaded card data) and makes States. A State is the
// mutable position: who may act now (several seats at once in a simultaneous step), validation
// with a stable code and a reason, application, per-seat views, and results.
//
// Options, actions and views are the protobuf messages a game declares in proto/games/<game>.proto;
// the core handles them through reflection and never names a game.
#include <google/protobuf/message.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/status.h"

namespace plateau::engine {

using google::protobuf::Message;

// The seat used for spectators: a view for nobody in particular.
inline constexpr int kSpectator = -1;

struct GameInfo {
  std::string id;     // stable identifier, e.g. "globalissimo"
  std::string title;  // shown to people
  int min_seats = 1;
  int max_seats = 1;
};

struct LoggedAction {
  int seat;
  std::string action;  // the game's Action message, serialized
};

class State;

class Game {
 public:
  virtual ~Game() = default;

  virtual const GameInfo& Info() const = 0;
  virtual const Message& OptionsPrototype() const = 0;
  virtual const Message& ActionPrototype() const = 0;
  virtual const Message& ViewPrototype() const = 0;

  // Checks options for a game of `num_seats`; the default accepts any options within seat limits.
  virtual Status ValidateOptions(int num_seats, const Message& options) const;

  // A new game. Options must have passed ValidateOptions.
  virtual std::unique_ptr<State> NewInitialState(int num_seats, const Message& options,
                                                 uint64_t seed) const = 0;

  // Restores a position produced by State::Serialize().
  virtual StatusOr<std::unique_ptr<State>> Deserialize(std::string_view bytes) const = 0;

  // --- Conveniences built on the above (not virtual) ---

  // Options from their serialized form; empty bytes mean defaults.
  StatusOr<std::unique_ptr<Message>> ParseOptions(std::string_view bytes) const;
  StatusOr<std::unique_ptr<State>> NewGame(int num_seats, std::string_view options_bytes,
                                           uint64_t seed) const;
  // Replays a log from the start; fails with the index of the first refused action.
  StatusOr<std::unique_ptr<State>> Replay(int num_seats, std::string_view options_bytes,
                                          uint64_t seed,
                                          const std::vector<LoggedAction>& log) const;

  std::unique_ptr<Message> NewAction() const;
  StatusOr<std::unique_ptr<Message>> ParseActionBytes(std::string_view bytes) const;
  // Text form is protobuf text format, e.g. `place { slot: 2 position: 3 }`.
  StatusOr<std::unique_ptr<Message>> ParseActionText(std::string_view text) const;
  std::string ActionToText(const Message& action) const;
};

class State {
 public:
  virtual ~State() = default;

  const Game& game() const { return *game_; }
  int num_seats() const { return num_seats_; }

  // Seats that may act now. More than one in a simultaneous step. Empty once the game is over.
  virtual std::vector<int> ActingSeats() const = 0;
  virtual bool IsTerminal() const = 0;
  bool IsActing(int seat) const;

  // The one guarded entry: checks seat, turn and legality, then applies and logs the action.
  // A refused action changes nothing.
  Status Validate(int seat, const Message& action) const;
  Status Apply(int seat, const Message& action);
  Status ApplyBytes(int seat, std::string_view action_bytes);
  Status ApplyText(int seat, std::string_view action_text);

  // Every legal action of `seat` now; empty when it may not act. A parameterised action with a
  // free-text argument (a typed answer) is listed with one representative argument.
  virtual std::vector<std::unique_ptr<Message>> LegalActions(int seat) const = 0;

  // What `seat` may know, as the game's View message. kSpectator for onlookers. Contains nothing
  // the seat may not know; once the game is over everything may be revealed.
  virtual std::unique_ptr<Message> View(int seat) const = 0;

  // Final results, meaningful once terminal. Ranks: 1 is first; tied seats share a rank and the
  // next rank is skipped, unless the game says otherwise.
  virtual std::vector<int64_t> Scores() const = 0;
  virtual std::vector<int> Ranks() const;
  virtual std::string ResultDetail(int seat) const { return {}; }

  virtual std::unique_ptr<State> Clone() const = 0;
  // The whole position (not the history), deterministic bytes: equal positions, equal bytes.
  virtual std::string Serialize() const = 0;
  // Readable dump of the whole position, for the rules console and test failures.
  virtual std::string DebugString() const = 0;
  // An empty message of the type DebugString() prints, so a designer can edit a printed position
  // and load it back (through Game::Deserialize, which checks it). Null when a game keeps its
  // position in another form.
  virtual std::unique_ptr<Message> NewPositionMessage() const { return nullptr; }

  // For the conformance suite: a copy of this position in which everything `seat` cannot see is
  // drawn again from `salt` (deck order, other hands, face-down cards, the seed) while everything
  // it can see is kept. The seat's view of the copy must be byte-identical.
  virtual std::unique_ptr<State> PerturbHidden(int seat, uint64_t salt) const = 0;

  const std::vector<LoggedAction>& History() const { return history_; }

 protected:
  State(const Game* game, int num_seats) : game_(game), num_seats_(num_seats) {}
  State(const State&) = default;
  State& operator=(const State&) = default;

  // Rule checks for an action whose type is already known to be the game's Action message and
  // whose seat is already known to be acting.
  virtual Status DoValidate(int seat, const Message& action) const = 0;
  // Applies an action DoValidate accepted. Must not fail.
  virtual void DoApply(int seat, const Message& action) = 0;

 private:
  const Game* game_;
  int num_seats_;
  std::vector<LoggedAction> history_;
};

// Serializes a message deterministically (views and states are compared as bytes).
std::string DeterministicBytes(const Message& m);

// Default ranking: by score, descending; ties share a rank and leave the next one empty.
std::vector<int> RanksFromScores(const std::vector<int64_t>& scores);

}  // namespace plateau::engine
