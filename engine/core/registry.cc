#include "engine/core/registry.h"

#include <algorithm>
#include <map>
#include <mutex>

namespace plateau::engine {
namespace {

struct Store {
  std::map<std::string, GameFactory, std::less<>> factories;
  std::map<std::string, std::unique_ptr<Game>, std::less<>> games;
  std::once_flag once;
  Status load_status;
};

Store& TheStore() {
  static Store* store = new Store();  // never destroyed: games outlive every other static
  return *store;
}

}  // namespace

void Registry::AddFactory(std::string id, GameFactory factory) {
  TheStore().factories.emplace(std::move(id), std::move(factory));
}

Status Registry::LoadAll() {
  Store& s = TheStore();
  std::call_once(s.once, [&s] {
    for (auto& [id, factory] : s.factories) {
      auto game = factory();
      if (!game.ok()) {
        s.load_status = Status(game.status().code(),
                               "game '" + id + "' failed to load: " + game.status().reason());
        s.games.clear();
        return;
      }
      std::string broken = game.value()->CheckContract();
      if (!broken.empty()) {
        s.load_status = Status(codes::kBadData, "game '" + id + "' failed to load: " + broken + ".");
        s.games.clear();
        return;
      }
      s.games.emplace(id, std::move(game.value()));
    }
  });
  return s.load_status;
}

const Game* Registry::Find(std::string_view id) {
  auto& games = TheStore().games;
  auto it = games.find(id);
  return it == games.end() ? nullptr : it->second.get();
}

std::vector<const Game*> Registry::All() {
  std::vector<const Game*> out;
  for (auto& [id, game] : TheStore().games) out.push_back(game.get());
  return out;
}

}  // namespace plateau::engine
