#pragma once
// A PostgreSQL server of the tests' own: a cluster made by initdb in a temporary folder,
// listening only on a Unix socket in that folder (no TCP port), stopped and deleted at the end.
// Run as the `postgres` user when the tests run as root, since PostgreSQL refuses root.
#include <memory>
#include <string>

#include "engine/core/status.h"

namespace plateau::server::testing {

class PgTestServer {
 public:
  // initdb and start (a few seconds); refused when PostgreSQL's server is not installed.
  static engine::StatusOr<std::unique_ptr<PgTestServer>> Start();
  ~PgTestServer();  // stops the server at once and removes its folder

  PgTestServer(const PgTestServer&) = delete;
  PgTestServer& operator=(const PgTestServer&) = delete;

  // A new, empty database, as a libpq connection string.
  engine::StatusOr<std::string> NewDatabase();
  // The connection string of database `name`.
  std::string ConnInfo(const std::string& name) const;

 private:
  PgTestServer() = default;
  // Stops the servers of test processes that died without stopping theirs.
  void StopOrphans() const;
  // Runs `command` as the server's user; its output goes to the folder's log.
  bool Run(const std::string& command) const;

  std::string dir_;      // the cluster, its socket and its log
  std::string bin_;      // PostgreSQL's programs
  std::string as_user_;  // the prefix that runs a command as `postgres`, when root
  bool started_ = false;
  int databases_ = 0;
};

// The test process's server, started by the first test that needs one and stopped at exit
// (ctest runs each test in its own process; a whole binary run shares one). Null, after a
// failed expectation saying why, when it cannot start.
PgTestServer* SharedPgTestServer();
// A new database on that server for one test, as a connection string; empty, after a failed
// expectation saying why, when there is none.
std::string NewTestDatabase();

}  // namespace plateau::server::testing
