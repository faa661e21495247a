// The shared public room list: this node's lines written and announced, the others' read.
#include "server/storage/pg_listing_feed.h"

#include <poll.h>
#include <spdlog/spdlog.h>
#include <sys/eventfd.h>
#include <unistd.h>

namespace plateau::server {

namespace {

constexpr const char* kChannel = "plateau_rooms";

// Lines travel as hex text: libpq's text parameters hold no NUL byte.
std::string Hex(const std::string& bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char b : bytes) {
    out += kDigits[b >> 4];
    out += kDigits[b & 15];
  }
  return out;
}

std::optional<std::string> Unhex(std::string_view hex) {
  if (hex.size() % 2 != 0) return std::nullopt;
  const auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  std::string out;
  out.reserve(hex.size() / 2);
  for (size_t i = 0; i < hex.size(); i += 2) {
    const int hi = digit(hex[i]), lo = digit(hex[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out += static_cast<char>(hi * 16 + lo);
  }
  return out;
}

}  // namespace

PgListingFeed::PgListingFeed(std::string conninfo, std::string node,
                             std::chrono::milliseconds lease, Sink sink)
    : conninfo_(std::move(conninfo)), node_(std::move(node)), lease_(lease), sink_(std::move(sink)) {
  wake_fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}

PgListingFeed::~PgListingFeed() {
  Stop();
  if (wake_fd_ >= 0) close(wake_fd_);
}

void PgListingFeed::Start() {
  if (thread_.joinable()) return;
  thread_ = std::thread([this] { Loop(); });
}

void PgListingFeed::Stop() {
  stopping_ = true;
  Wake();
  if (thread_.joinable()) thread_.join();
}

void PgListingFeed::Publish(const std::string& room_id, std::optional<std::string> info) {
  {
    std::lock_guard lock(mu_);
    outbox_[room_id] = std::move(info);
  }
  Wake();
}

PgListingFeed::Stats PgListingFeed::stats() {
  std::lock_guard lock(mu_);
  return stats_;
}

void PgListingFeed::Wake() {
  if (wake_fd_ < 0) return;
  const uint64_t one = 1;
  [[maybe_unused]] ssize_t n = write(wake_fd_, &one, sizeof one);
}

void PgListingFeed::Loop() {
  while (!stopping_) {
    if (!c_ && !Connect()) {
      c_.reset();
      // Again in a second (or at once when stopping).
      pollfd fd{wake_fd_, POLLIN, 0};
      poll(&fd, 1, 1000);
      uint64_t drained;
      [[maybe_unused]] ssize_t n = read(wake_fd_, &drained, sizeof drained);
      continue;
    }
    const auto now = std::chrono::steady_clock::now();
    bool ok = true;
    if (now >= next_flush_) {
      ok = Flush();
      next_flush_ = now + kRound;
    }
    if (ok && now >= next_clean_) ok = Clean();
    if (ok) ok = ReadNotices();
    if (ok && !told_.empty()) {
      std::set<std::string> ids;
      ids.swap(told_);
      ok = Fetch(ids);
      if (!ok) told_.insert(ids.begin(), ids.end());
    }
    if (!ok) {
      spdlog::warn("room list: lost the connection to PostgreSQL; connecting again");
      c_.reset();
      continue;
    }
    pollfd fds[2] = {{PQsocket(c_.get()), POLLIN, 0}, {wake_fd_, POLLIN, 0}};
    bool waiting;
    {
      std::lock_guard lock(mu_);
      waiting = !outbox_.empty();
    }
    // Woken by a change before its round is due: it waits for the round, notices still read.
    const auto next = waiting ? std::min(next_clean_, next_flush_) : next_clean_;
    const auto until = std::chrono::duration_cast<std::chrono::milliseconds>(
        next - std::chrono::steady_clock::now());
    poll(fds, waiting ? 1 : 2, static_cast<int>(std::clamp<int64_t>(until.count() + 1, 0, 1000)));
    if (fds[1].revents & POLLIN) {
      uint64_t drained;
      [[maybe_unused]] ssize_t n = read(wake_fd_, &drained, sizeof drained);
    }
  }
  // Stopping: this node's rooms leave the list at once (those another node takes over come
  // back under it).
  if (c_) ForgetOwnLines();
  c_.reset();
}

bool PgListingFeed::Connect() {
  auto c = pg::Connect(conninfo_);
  if (!c.ok()) {
    spdlog::warn("room list: cannot connect: {}", c.status().ToString());
    return false;
  }
  c_ = std::move(c.value());
  if (!pg::Exec(c_.get(), std::string("LISTEN ") + kChannel, "listening for room list changes").ok()) {
    return false;
  }
  if (first_connection_) {
    // Lines this node left when its last run ended: its rooms now are published anew.
    if (!ForgetOwnLines()) return false;
    first_connection_ = false;
  } else {
    std::lock_guard lock(mu_);
    ++stats_.reconnects;
  }
  next_clean_ = std::chrono::steady_clock::now();
  // Whatever was announced while no connection listened is read whole.
  told_.clear();
  return LoadAll();
}

bool PgListingFeed::ForgetOwnLines() {
  return pg::Query(c_.get(),
                   "WITH gone AS (DELETE FROM room_listing WHERE node = $1 RETURNING room_id) "
                   "SELECT pg_notify($2, room_id) FROM gone",
                   {node_, std::string(kChannel)}, "deleting this node's lines")
      .ok();
}

bool PgListingFeed::Flush() {
  std::map<std::string, std::optional<std::string>> out;
  {
    std::lock_guard lock(mu_);
    out.swap(outbox_);
  }
  if (out.empty()) return true;
  std::vector<std::string> put_ids, put_hex, gone_ids;
  for (const auto& [id, info] : out) {
    if (info) {
      put_ids.push_back(id);
      put_hex.push_back(Hex(*info));
    } else {
      gone_ids.push_back(id);
    }
  }
  // One statement, so one round trip and its own transaction: the lines written, deleted and
  // announced together (the outbox holds one change per room, as ON CONFLICT requires).
  auto r = pg::Query(
      c_.get(),
      "WITH put AS (INSERT INTO room_listing (room_id, node, info, updated_unix_ms) "
      "SELECT t.id, $1, decode(t.hex, 'hex'), " PLATEAU_PG_NOW_MS
      " FROM unnest($2::text[], $3::text[]) AS t(id, hex) "
      "ON CONFLICT (room_id) DO UPDATE SET node = excluded.node, info = excluded.info, "
      "updated_unix_ms = excluded.updated_unix_ms RETURNING room_id), "
      "gone AS (DELETE FROM room_listing WHERE node = $1 AND room_id = ANY($4::text[]) "
      "RETURNING room_id) "
      "SELECT pg_notify($5, t.id) FROM (SELECT unnest($2::text[]) UNION ALL "
      "SELECT unnest($4::text[])) AS t(id)",
      {node_, pg::TextArray(put_ids), pg::TextArray(put_hex), pg::TextArray(gone_ids),
       std::string(kChannel)},
      "writing room list changes");
  if (!r.ok()) {
    std::lock_guard lock(mu_);
    // A newer change made meanwhile stays; the others are tried again.
    for (auto& [id, info] : out) outbox_.try_emplace(id, std::move(info));
    return PQstatus(c_.get()) == CONNECTION_OK;
  }
  std::lock_guard lock(mu_);
  stats_.written += out.size();
  return true;
}

bool PgListingFeed::Clean() {
  next_clean_ = std::chrono::steady_clock::now() + lease_;
  // A line is kept while its node runs the room (room_owners), and for a lease after it was
  // written (its room's claim may still be on its way).
  auto r = pg::Query(
      c_.get(),
      "WITH gone AS (DELETE FROM room_listing l WHERE updated_unix_ms < " PLATEAU_PG_NOW_MS
      " - $1 AND NOT EXISTS (SELECT 1 FROM room_owners o WHERE o.room_id = l.room_id "
      "AND o.node = l.node AND " PLATEAU_PG_NODE_LIVE("o", "")
      ") RETURNING room_id, node) SELECT room_id, node, pg_notify($2, room_id) FROM gone",
      {std::to_string(lease_.count()), std::string(kChannel)}, "deleting lines of rooms gone");
  if (!r.ok()) return PQstatus(c_.get()) == CONNECTION_OK;
  // This connection's own notices are not read back (ReadNotices): the other nodes' lines it
  // deleted leave this node's list here.
  std::vector<Line> gone;
  PGresult* res = r.value().get();
  for (int i = 0; i < PQntuples(res); ++i) {
    if (node_ != PQgetvalue(res, i, 1)) gone.push_back({PQgetvalue(res, i, 0), std::nullopt});
  }
  {
    std::lock_guard lock(mu_);
    stats_.cleaned += static_cast<uint64_t>(PQntuples(res));
  }
  if (!gone.empty()) sink_(std::move(gone), false);
  return true;
}

bool PgListingFeed::ReadNotices() {
  if (PQconsumeInput(c_.get()) == 0) return false;
  const int self = PQbackendPID(c_.get());
  while (PGnotify* n = PQnotifies(c_.get())) {
    // A notice this connection sent names a change this node made or has applied (Clean).
    if (n->be_pid != self) told_.insert(n->extra);
    PQfreemem(n);
  }
  return true;
}

bool PgListingFeed::Fetch(const std::set<std::string>& ids) {
  auto r = pg::Query(c_.get(),
                     "SELECT room_id, node, encode(info, 'hex') FROM room_listing "
                     "WHERE room_id = ANY($1::text[])",
                     {pg::TextArray(std::vector<std::string>(ids.begin(), ids.end()))},
                     "reading room list changes");
  if (!r.ok()) return PQstatus(c_.get()) == CONNECTION_OK;
  std::vector<Line> lines;
  std::set<std::string> found;
  PGresult* res = r.value().get();
  for (int i = 0; i < PQntuples(res); ++i) {
    const std::string id = PQgetvalue(res, i, 0);
    found.insert(id);
    if (node_ == PQgetvalue(res, i, 1)) continue;  // this node's own line
    lines.push_back({id, Unhex(PQgetvalue(res, i, 2))});
  }
  for (const std::string& id : ids) {
    if (found.count(id) == 0) lines.push_back({id, std::nullopt});
  }
  {
    std::lock_guard lock(mu_);
    stats_.received += lines.size();
  }
  sink_(std::move(lines), false);
  return true;
}

bool PgListingFeed::LoadAll() {
  auto r = pg::Query(c_.get(),
                     "SELECT room_id, encode(info, 'hex') FROM room_listing WHERE node <> $1",
                     {node_}, "reading the room list");
  if (!r.ok()) return false;
  std::vector<Line> lines;
  PGresult* res = r.value().get();
  for (int i = 0; i < PQntuples(res); ++i) {
    lines.push_back({PQgetvalue(res, i, 0), Unhex(PQgetvalue(res, i, 1))});
  }
  {
    std::lock_guard lock(mu_);
    stats_.received += lines.size();
  }
  sink_(std::move(lines), true);
  return true;
}

}  // namespace plateau::server
