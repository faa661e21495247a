#pragma once
// Games register a factory with a static GameRegistrar in their own folder; the core never names
// a game. Factories run in LoadAll(), at start-up, so a malformed data file is reported then with
// the game and the reason, rather than on first use.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/core/game.h"

namespace plateau::engine {

using GameFactory = std::function<StatusOr<std::unique_ptr<Game>>()>;

class Registry {
 public:
  // Builds every registered game. Returns the first failure (with the game id in the reason).
  // Idempotent: later calls return the first result.
  static Status LoadAll();
  // Null until LoadAll() succeeded, or for an unknown id.
  static const Game* Find(std::string_view id);
  // Loaded games, sorted by id.
  static std::vector<const Game*> All();

  static void AddFactory(std::string id, GameFactory factory);
};

struct GameRegistrar {
  GameRegistrar(std::string id, GameFactory factory) {
    Registry::AddFactory(std::move(id), std::move(factory));
  }
};

// A game's one registration, in its own .cc: PLATEAU_REGISTER_GAME("limit", MakeLimit), where
// MakeLimit() returns StatusOr<std::unique_ptr<Game>> (its data parsed and checked). The game's
// library is linked whole (plateau_games), so the registrar always runs.
#define PLATEAU_REGISTER_GAME(id, factory) \
  static const ::plateau::engine::GameRegistrar plateau_game_registrar_(id, factory)

}  // namespace plateau::engine
