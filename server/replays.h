#pragma once
// What the lobby needs to answer ListReplays / GetReplay / ExportReplay. The storage layer's
// ReplayService does the work; ReplaysAdapter wraps it so this library does not depend on it.
#include <mutex>

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

// Any service with List/Get/Export of the right shape. Calls arrive from several connection
// strands at once; the mutex spares the service from being thread-safe itself.
template <class Service>
class ReplaysAdapter : public Replays {
 public:
  explicit ReplaysAdapter(Service& service) : service_(service) {}
  engine::StatusOr<plateau::v1::ReplayList> List(const plateau::v1::ListReplays& r) override {
    std::lock_guard lock(mu_);
    return service_.List(r);
  }
  engine::StatusOr<plateau::v1::Replay> Get(const plateau::v1::GetReplay& r) override {
    std::lock_guard lock(mu_);
    return service_.Get(r);
  }
  engine::StatusOr<plateau::v1::ReplayExport> Export(const plateau::v1::ExportReplay& r) override {
    std::lock_guard lock(mu_);
    return service_.Export(r);
  }

 private:
  std::mutex mu_;
  Service& service_;
};

}  // namespace plateau::server
