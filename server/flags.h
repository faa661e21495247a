#pragma once
// Command-line flags of plateau-server. Parsed here (not in main) so they are tested.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/status.h"
#include "server/lobby/rate_limit.h"

namespace plateau::server {

struct ServerFlags {
  std::string bind = "0.0.0.0";
  uint16_t port = 8080;
  std::string db = "plateau.db";
  std::string store;  // a PostgreSQL connection string; empty: the SQLite file `db`
  std::string node_id;  // with --store: this node's name; empty: "HOST:PORT"
  int lease_ms = 10000;  // with --store: how long a node's claim on its rooms lasts unrenewed
  std::string node_address;      // with --store: where other nodes reach this one; empty: BIND:PORT
  std::string link_secret_file;  // with --store: the links' shared secret; empty: no links
  std::string durability = "machine";  // or "process"; see FlagsHelp
  int commit_interval_us = 2000;       // see StorageExecutor
  std::string static_dir = "clients/web/dist";
  int threads = 2;
  size_t max_message_bytes = 64 * 1024;
  size_t max_queue_bytes = 4 * 1024 * 1024;
  int idle_timeout_seconds = 300;
  int empty_room_grace_seconds = 300;
  int bot_delay_ms = 600;
  int bot_think_ms = 400;
  int offline_grace_seconds = 60;
  int abandoned_game_seconds = 72 * 3600;
  int token_inactive_days = 30;
  std::string log_level = "info";
  ClientLimits limits;  // the --limit-* flags
  bool trust_proxy = false;
  bool public_metrics = false;
  bool agones = false;  // report to an Agones SDK sidecar (net/agones_sdk.h)
  bool help = false;
};

// Accepts "--name value" and "--name=value". Unknown flags and bad values are errors with a
// message naming the flag.
engine::StatusOr<ServerFlags> ParseFlags(const std::vector<std::string>& args);
std::string FlagsHelp();
// The links' secret from --link-secret-file: its first line, 16 to 256 printable characters
// (it travels in an HTTP header), or why not.
engine::StatusOr<std::string> ReadLinkSecret(const std::string& path);

}  // namespace plateau::server
