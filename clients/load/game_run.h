#pragma once
// The games mode: rooms of bots playing one game for a measured window; and the floor mode.
#include "clients/load/options.h"
#include "engine/core/game.h"

namespace plateau::load {

// Plays `game` with `seats` bots per room as `options` say, prints the report, and returns the
// exit status (0, or 1 when connections failed or rooms gave up).
int RunGames(const LoadOptions& options, const engine::Game& game, int seats);

// The floor mode: rooms of two bots playing plateau-floor-server's trivial turn game (see
// bench/floor_server.cc), closed loop or paced, reported as RunGames reports.
int RunFloor(const LoadOptions& options);

}  // namespace plateau::load
