#pragma once
// What the lobby needs to answer ListReplays / GetReplay / ExportReplay, behind an interface so
// the room and lobby layers do not depend on the storage layer. The storage layer's ReplayService
// implements it. Implementations must be safe to call from several connection strands at once.

#include <string>

#include "engine/core/status.h"
#include "plateau/v1/protocol.pb.h"

namespace plateau::server {

// `viewer_player_id` is the player asking. A public game's replay is open to everyone; a private
// game's only to the players seated in it and to requests carrying its replay token. Anyone else
// is answered exactly as for a game that does not exist, so a game id reveals nothing.
class Replays {
 public:
  virtual ~Replays() = default;
  virtual engine::StatusOr<plateau::v1::ReplayList> List(const plateau::v1::ListReplays& request,
                                                         const std::string& viewer_player_id) = 0;
  virtual engine::StatusOr<plateau::v1::Replay> Get(const plateau::v1::GetReplay& request,
                                                    const std::string& viewer_player_id) = 0;
  virtual engine::StatusOr<plateau::v1::ReplayExport> Export(
      const plateau::v1::ExportReplay& request, const std::string& viewer_player_id) = 0;
};


}  // namespace plateau::server
