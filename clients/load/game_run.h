#pragma once
// The games mode: rooms of bots playing one game for a measured window.
#include "clients/load/options.h"
#include "engine/core/game.h"

namespace plateau::load {

// Plays `game` with `seats` bots per room as `options` say, prints the report, and returns the
// exit status (0, or 1 when connections failed or rooms gave up).
int RunGames(const LoadOptions& options, const engine::Game& game, int seats);

}  // namespace plateau::load
