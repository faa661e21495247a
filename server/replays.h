#pragma once
// What the lobby needs to answer ListReplays / GetReplay / ExportReplay, behind an interface so
// the room and lobby layers do not depend on the storage layer. The storage layer's ReplayService
// implements it. Implementations must be safe to call from several connection strands at once.

#include "engine/core/status.h"
#include "plateau/v1/protocol.pb.h"

namespace plateau::server {

class Replays {
 public:
  virtual ~Replays() = default;
  virtual engine::StatusOr<plateau::v1::ReplayList> List(const plateau::v1::ListReplays& request) = 0;
  virtual engine::StatusOr<plateau::v1::Replay> Get(const plateau::v1::GetReplay& request) = 0;
  virtual engine::StatusOr<plateau::v1::ReplayExport> Export(
      const plateau::v1::ExportReplay& request) = 0;
};


}  // namespace plateau::server
