#include "tests/server/pg_test_server.h"

#include <pwd.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

#include <gtest/gtest.h>

#include "server/storage/pg_util.h"

namespace plateau::server::testing {

namespace fs = std::filesystem;
using engine::Status;
using engine::StatusOr;

namespace {

// The newest installed server's programs (Debian: /usr/lib/postgresql/<major>/bin).
std::string FindBin() {
  std::vector<fs::path> found;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/usr/lib/postgresql", ec)) {
    if (fs::exists(entry.path() / "bin" / "initdb")) found.push_back(entry.path() / "bin");
  }
  if (found.empty()) return "";
  std::sort(found.begin(), found.end(), [](const fs::path& a, const fs::path& b) {
    return std::stoi(a.parent_path().filename()) < std::stoi(b.parent_path().filename());
  });
  return found.back().string();
}

// Whether process `pid` still runs: a zombie (killed, not yet reaped) does not.
bool Alive(pid_t pid) {
  if (kill(pid, 0) != 0 && errno == ESRCH) return false;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  std::getline(stat, line);
  const size_t close = line.rfind(')');
  return close == std::string::npos || close + 2 >= line.size() || line[close + 2] != 'Z';
}

}  // namespace

StatusOr<std::unique_ptr<PgTestServer>> PgTestServer::Start() {
  std::unique_ptr<PgTestServer> s(new PgTestServer());
  s->bin_ = FindBin();
  if (s->bin_.empty()) {
    return Status("no_postgres", "PostgreSQL's server is not installed (/usr/lib/postgresql/*/bin).");
  }
  char tmpl[] = "/tmp/plateau-pg-XXXXXX";
  if (mkdtemp(tmpl) == nullptr) return Status("io", "cannot make a temporary folder");
  s->dir_ = tmpl;
  if (geteuid() == 0) {
    const passwd* pw = getpwnam("postgres");
    if (pw == nullptr) return Status("no_postgres", "running as root and no `postgres` user.");
    if (chown(s->dir_.c_str(), pw->pw_uid, pw->pw_gid) != 0) {
      return Status("io", "cannot hand " + s->dir_ + " to the postgres user");
    }
    s->as_user_ = "runuser -u postgres -- ";
  }
  s->StopOrphans();
  std::ofstream(s->dir_ + "/owner") << getpid() << "\n";
  // ctest runs each test in a process of its own: initdb once into a template shared by them
  // all (made aside, then renamed into place, so processes starting together never see half of
  // one), and each server starts on a copy of it.
  // Per user and major version: a template another user made may not be readable.
  const std::string tmpl_dir = "/tmp/plateau-pg-template-" + std::to_string(geteuid()) + "-" +
                               fs::path(s->bin_).parent_path().filename().string();
  std::error_code exists_ec;
  if (!fs::exists(tmpl_dir + "/PG_VERSION", exists_ec)) {
    const std::string making = s->dir_ + "/template";
    // The tests' own cluster: trust on its private socket, nothing synced at creation (it is
    // thrown away), the server's defaults otherwise (fsync on: a commit is durable).
    if (!s->Run(s->bin_ + "/initdb -D " + making + " -A trust -U plateau -E UTF8 --locale=C "
                "--no-sync")) {
      return Status("postgres", "initdb failed: see " + s->dir_ + "/log");
    }
    std::error_code ec;
    fs::rename(making, tmpl_dir, ec);  // another process may have been first: its copy serves
    if (ec) fs::remove_all(making, ec);
  }
  if (!s->Run("cp -a " + tmpl_dir + " " + s->dir_ + "/data")) {
    return Status("postgres", "cannot copy the template cluster: see " + s->dir_ + "/log");
  }
  // Stopped by the destructor even if it does not say it started (it may have, late).
  s->started_ = true;
  if (!s->Run(s->bin_ + "/pg_ctl -D " + s->dir_ + "/data -w -t 60 -l " + s->dir_ +
              "/server.log -o \"-c listen_addresses='' -k " + s->dir_ + " -p 5432\" start")) {
    return Status("postgres", "the server did not start: see " + s->dir_ + "/server.log");
  }
  return s;
}

void PgTestServer::StopOrphans() const {
  // A test process killed before its destructor ran (a timeout, a crash) leaves its server
  // running: the next one stops it and removes its folder.
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/tmp", ec)) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with("plateau-pg-") || name.starts_with("plateau-pg-template-")) continue;
    const std::string dir = entry.path().string();
    if (dir == dir_) continue;
    pid_t owner = 0;
    std::ifstream(dir + "/owner") >> owner;
    if (owner <= 0 || Alive(owner)) continue;
    std::error_code missing;
    if (fs::exists(dir + "/data/postmaster.pid", missing)) {
      std::system(("cd " + dir + " && " + as_user_ + bin_ + "/pg_ctl -D " + dir +
                   "/data -m immediate -w stop >/dev/null 2>&1")
                      .c_str());
    }
    fs::remove_all(dir, missing);
  }
}

PgTestServer::~PgTestServer() {
  if (started_) Run(bin_ + "/pg_ctl -D " + dir_ + "/data -m immediate -w stop");
  std::error_code ec;
  if (!dir_.empty()) fs::remove_all(dir_, ec);
}

bool PgTestServer::Run(const std::string& command) const {
  // From the cluster's folder: PostgreSQL's programs go back to the working directory, which the
  // `postgres` user may not be allowed into (a build tree under /root).
  const std::string line = "cd " + dir_ + " && " + as_user_ + command + " >> " + dir_ + "/log 2>&1";
  return std::system(line.c_str()) == 0;
}

std::string PgTestServer::ConnInfo(const std::string& name) const {
  return "host=" + dir_ + " port=5432 user=plateau dbname=" + name;
}

StatusOr<std::string> PgTestServer::NewDatabase() {
  const std::string name = "t" + std::to_string(++databases_);
  auto c = pg::Connect(ConnInfo("postgres"));
  if (!c.ok()) return c.status();
  if (Status st = pg::Exec(c.value().get(), "CREATE DATABASE " + name, "creating a database");
      !st.ok()) {
    return st;
  }
  return ConnInfo(name);
}

PgTestServer* SharedPgTestServer() {
  static std::unique_ptr<PgTestServer> server = [] {
    auto started = PgTestServer::Start();
    EXPECT_TRUE(started.ok()) << started.status().ToString();
    return started.ok() ? std::move(started).value() : nullptr;
  }();
  return server.get();
}

std::string NewTestDatabase() {
  PgTestServer* server = SharedPgTestServer();
  if (server == nullptr) return "";
  auto db = server->NewDatabase();
  EXPECT_TRUE(db.ok()) << db.status().ToString();
  return db.ok() ? db.value() : "";
}

}  // namespace plateau::server::testing
