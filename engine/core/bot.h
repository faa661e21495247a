#pragma once
// Bots: players that see exactly one seat's view, as a client does, never the State. The server
// runs them in seats and the load generator plays with them; whatever they choose goes through
// the same validation as a person's move.
#include <memory>
#include <string_view>
#include <vector>

#include "engine/core/game.h"
#include "engine/core/rng.h"

namespace plateau::engine {

enum class BotLevel {
  kEasy = 1,  // plausible and quick: an answer drawn from its question, or one of the game's
              // moves from the view (Game::MovesFromView) at random
};

// The names players see and the protocol carries ("easy").
std::string_view BotLevelName(BotLevel level);

// What `seat` would play seeing only `view`, best first: the first is the bot's choice and the
// others are what it tries if the rules refuse it (MovesFromView's moves may be refused). Empty
// when the view asks nothing of the seat, or `view` is not this game's.
std::vector<std::unique_ptr<Message>> BotMoves(const Game& game, const Message& view, int seat,
                                               BotLevel level, Rng& rng);

}  // namespace plateau::engine
