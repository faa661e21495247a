#include "server/storage/pg_store.h"

#include <algorithm>
#include <chrono>
#include <spdlog/spdlog.h>

#include "server/storage/pg_migrations.h"
#include "server/storage/token_hash.h"

namespace plateau::server {
namespace {

using store_rules::NowUnixMs;
using store_rules::SeedFromSql;
using store_rules::SeedToSql;

// The condition for a game row `g` to be listed to the player bound at $`param` (as SQLite's).
std::string ListedTo(int param) {
  const std::string p = "$" + std::to_string(param);
  return "(g.is_private = 0 OR (" + p + " <> '' AND g.game_id IN "
         "(SELECT s.game_id FROM game_seats s WHERE s.player_id = " + p + ")))";
}


// The statements prepared on the connection when the store opens, by name.
struct Statement {
  const char* name;
  const char* sql;
};
constexpr Statement kStatements[] = {
    {"save_player",
     // The upsert renames only when the token already belongs to this same player; otherwise it
     // changes nothing and the conflict is told by the count of rows changed.
     "INSERT INTO players (token_sha256, player_id, name, created_unix_ms, updated_unix_ms, "
     "last_used_unix_ms) VALUES ($1, $2, $3, $4, $4, $4) "
     "ON CONFLICT (token_sha256) DO UPDATE SET name = excluded.name, "
     "updated_unix_ms = excluded.updated_unix_ms WHERE players.player_id = excluded.player_id"},
    {"find_player",
     "SELECT player_id, name, last_used_unix_ms FROM players WHERE token_sha256 = $1"},
    {"find_revoked", "SELECT player_id FROM revoked_tokens WHERE token_sha256 = $1"},
    {"touch_player",
     "UPDATE players SET last_used_unix_ms = greatest(last_used_unix_ms, $2) "
     "WHERE player_id = $1"},
    {"player_of_token", "SELECT player_id FROM players WHERE token_sha256 = $1"},
    {"replace_token",
     "UPDATE players SET token_sha256 = $2, updated_unix_ms = $3, last_used_unix_ms = $3 "
     "WHERE token_sha256 = $1"},
    {"revoke_token",
     "INSERT INTO revoked_tokens (token_sha256, player_id, revoked_unix_ms) VALUES ($1, $2, $3) "
     "ON CONFLICT (token_sha256) DO UPDATE SET player_id = excluded.player_id, "
     "revoked_unix_ms = excluded.revoked_unix_ms"},
    {"begin_game",
     // game_no comes from its sequence: nodes never compute it (max + 1 would race).
     "INSERT INTO games (game_id, game, options, seed, status, started_unix_ms, room_id, "
     "join_code, is_private, title, host_player_id, replay_token, timer, watch_code, undo) "
     "VALUES ($1, $2, $3, $4, 'playing', $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) "
     "RETURNING game_no"},
    {"add_seat",
     "INSERT INTO game_seats (game_id, seat, name, player_id, stand_in) "
     "VALUES ($1, $2, $3, $4, $5)"},
    {"playing_game",
     "SELECT status, game_no, "
     "(SELECT coalesce(max(idx) + 1, 0) FROM game_actions a WHERE a.game_no = g.game_no) "
     "FROM games g WHERE game_id = $1"},
    {"hold_node",
     // First in every transaction of this node that may write to its rooms (a batch, a call
     // outside one): a claim of one of them waits for the commit, then reads what it wrote.
     "SELECT pg_advisory_xact_lock_shared(" PLATEAU_PG_NODE_LOCK_KEY("$1") ")"},
    {"append_action",
     // Fenced: written only while room $8 is this node's ($9) with the epoch it claimed ($10)
     // and the node's lease holds, and game $1 is a game of that room (no foreign key since
     // 0015). The transaction holds the node's lock (hold_node), so no claim lands between
     // this check and the commit. Refused, it changes no row (no error).
     "INSERT INTO game_actions (game_no, idx, seat, action, text, at_unix_ms, origin) "
     "SELECT $1::bigint, $2::integer, $3::integer, $4::bytea, $5::text, $6::bigint, $7::integer "
     "FROM room_owners o JOIN games g ON g.room_id = o.room_id "
     "WHERE o.room_id = $8 AND o.node = $9 AND o.epoch = $10 "
     "AND " PLATEAU_PG_NODE_LIVE("o", "") " AND g.game_no = $1"},
    {"hold_fence",
     // The same check for the other writes to a game, under the same lock.
     "SELECT 1 FROM room_owners o WHERE o.room_id = $1 AND o.node = $2 AND o.epoch = $3 "
     "AND " PLATEAU_PG_NODE_LIVE("o", "")},
    {"claim_room",
     // Free, its node's lease run out, or this node's already: claimed with a new epoch.
     // Another node's live lease: no row. A room held before is claimed only once every other
     // transaction of its holder that took the holder's lock (hold_node) has committed: the
     // claim takes that lock exclusively (to its own commit), a dead node's batch in flight or a
     // store of this same node name before a restart, so the log read after the claim holds
     // every action acknowledged. The lock is taken first, in the rows inserted, and only then
     // the room's row (ON CONFLICT): a holder's batch that writes to that row meanwhile would
     // otherwise wait on the claim while the claim waits on it. Taken again in the WHERE for a
     // holder changed in between (already held: no wait).
     // (expires_unix_ms: its default, for nodes before 0016 during a rolling upgrade.)
     "INSERT INTO room_owners (room_id, node, epoch) "
     "SELECT $1, $2, 1 FROM (SELECT (SELECT CASE WHEN o.node = $2 OR "
     "NOT " PLATEAU_PG_NODE_LIVE("o", "") " THEN (SELECT true FROM "
     "pg_advisory_xact_lock(" PLATEAU_PG_NODE_LOCK_KEY("o.node") ")) ELSE false END "
     "FROM room_owners o WHERE o.room_id = $1) AS held) h WHERE h.held IS DISTINCT FROM false "
     "ON CONFLICT (room_id) DO UPDATE SET node = excluded.node, epoch = room_owners.epoch + 1, "
     "expires_unix_ms = DEFAULT "
     "WHERE CASE WHEN room_owners.node = excluded.node OR "
     "NOT " PLATEAU_PG_NODE_LIVE("room_owners", "") " THEN (SELECT true FROM "
     "pg_advisory_xact_lock(" PLATEAU_PG_NODE_LOCK_KEY("room_owners.node") ")) ELSE false END "
     "RETURNING epoch"},
    {"end_stuck_holders",
     // The sessions still holding the lock of a node whose lease ran out more than a lease ago
     // ($1): a batch left half sent by a node paused or cut off mid-pipeline (no Sync, so no
     // idle timeout applies), which would hold every claim of that node's rooms. Ended, their
     // transactions roll back: nothing in them was acknowledged.
     "SELECT count(pg_terminate_backend(l.pid)) FROM pg_locks l JOIN nodes n "
     "ON l.objid = (hashtext(n.node)::bigint & 4294967295)::oid "
     "WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2 "
     "AND l.classid = " PLATEAU_PG_NODE_LOCK_SPACE "::oid "
     "AND l.pid <> pg_backend_pid() AND n.expires_unix_ms < " PLATEAU_PG_NOW_MS " - $1"},
    {"renew_node",
     "INSERT INTO nodes (node, address, expires_unix_ms) VALUES ($1, $2, "
     PLATEAU_PG_NOW_MS " + $3) ON CONFLICT (node) DO UPDATE SET address = excluded.address, "
     "expires_unix_ms = excluded.expires_unix_ms"},
    {"game_room", "SELECT room_id FROM games WHERE game_id = $1"},
    {"release_room",
     "DELETE FROM room_owners WHERE room_id = $1 AND node = $2 AND epoch = $3"},
    {"room_owner",
     // The holder's address when it is another node and its lease holds, else ''.
     "SELECT CASE WHEN o.node <> $2 AND n.expires_unix_ms > " PLATEAU_PG_NOW_MS
     " THEN coalesce(n.address, '') ELSE '' END "
     "FROM room_owners o LEFT JOIN nodes n ON n.node = o.node WHERE o.room_id = $1"},
    {"forget_idle_rooms",
     // Rooms with no game in play whose node is gone (expired over a lease ago), or this node's
     // own from before it restarted ($1 non-empty): nobody runs them any more.
     "DELETE FROM room_owners o WHERE (o.node = $1 OR " "NOT " PLATEAU_PG_NODE_LIVE("o", " - $2")
     ") AND NOT EXISTS (SELECT 1 FROM games g WHERE g.room_id = o.room_id "
     "AND g.status = 'playing')"},
    {"player_rooms_elsewhere",
     "SELECT DISTINCT g.room_id FROM games g JOIN game_seats s ON s.game_id = g.game_id "
     "JOIN room_owners o ON o.room_id = g.room_id WHERE g.status = 'playing' "
     "AND s.player_id = $1 AND s.left_game = 0 AND o.node <> $2 ORDER BY 1"},
    {"lock_creator",
     // Two nodes opening rooms for one player at once count one after the other.
     "SELECT pg_advisory_xact_lock(hashtext('plateau-creator:' || $1))"},
    {"open_rooms_of",
     // "creator <> ''" lets the prepared (generic) plan use the partial index on creator, which
     // it cannot prove $1 fits: without it, a scan of every room a call.
     "SELECT count(*) FROM room_owners o WHERE o.creator = $1 AND o.creator <> '' "
     "AND o.room_id <> $2 AND " PLATEAU_PG_NODE_LIVE("o", "")},
    {"take_room_token",
     // The creator's allowance (rooms_per_hour $2, burst $3) refilled to now, less one: no row
     // when less than one room is left, and nothing changes.
     "INSERT INTO room_buckets AS b (creator, tokens, at_unix_ms) VALUES ($1, $3::float8 - 1, "
     PLATEAU_PG_NOW_MS ") ON CONFLICT (creator) DO UPDATE SET "
     "tokens = least($3::float8, b.tokens + (excluded.at_unix_ms - b.at_unix_ms) * $2::float8 "
     "/ 3600000.0) - 1, at_unix_ms = excluded.at_unix_ms "
     "WHERE least($3::float8, b.tokens + (excluded.at_unix_ms - b.at_unix_ms) * $2::float8 "
     "/ 3600000.0) >= 1 RETURNING tokens"},
    {"room_token_wait",
     // Seconds until the creator's next room.
     "SELECT ceil((1 - least($3::float8, tokens + (" PLATEAU_PG_NOW_MS " - at_unix_ms) * "
     "$2::float8 / 3600000.0)) * 3600.0 / $2::float8)::bigint FROM room_buckets WHERE creator = $1"},
    {"forget_room_buckets",
     // Allowances full again for a day or more: the same as no row.
     "DELETE FROM room_buckets WHERE at_unix_ms < " PLATEAU_PG_NOW_MS " - 86400000"},
    {"set_creator",
     "UPDATE room_owners SET creator = $3 WHERE room_id = $1 AND node = $2"},
    {"set_codes",
     "UPDATE room_owners SET creator = $3, join_code = $4, watch_code = $5 "
     "WHERE room_id = $1 AND node = $2"},
    {"room_by_join_code",
     "SELECT o.room_id FROM room_owners o WHERE o.join_code = $1 AND o.join_code <> '' "
     "AND o.node <> $2 AND " PLATEAU_PG_NODE_LIVE("o", "") " LIMIT 1"},
    {"code_misses",
     "SELECT count(*), coalesce(min(at_unix_ms), 0), " PLATEAU_PG_NOW_MS
     " FROM code_misses WHERE address = $1 AND at_unix_ms > " PLATEAU_PG_NOW_MS " - $2"},
    {"note_code_miss",
     // Misses older than the window are dropped as the address misses again (and by TakeOver).
     "WITH gone AS (DELETE FROM code_misses WHERE address = $1 AND at_unix_ms <= "
     PLATEAU_PG_NOW_MS " - $2) "
     "INSERT INTO code_misses (address, at_unix_ms) VALUES ($1, " PLATEAU_PG_NOW_MS ")"},
    {"forget_code_misses",
     "DELETE FROM code_misses WHERE at_unix_ms < " PLATEAU_PG_NOW_MS " - 86400000"},
    {"room_by_watch_code",
     "SELECT o.room_id FROM room_owners o WHERE o.watch_code = $1 AND o.watch_code <> '' "
     "AND o.node <> $2 AND " PLATEAU_PG_NODE_LIVE("o", "") " LIMIT 1"},
    {"give_back_rooms",
     // Claimed but not restored (the log could not be read): any node, this one too, may try
     // (node '' has no lease).
     "UPDATE room_owners SET node = '' WHERE room_id = ANY($1::text[]) AND node = $2"},

    {"hand_over_node",
     // The node's lease, its rooms' too, ended a moment ago, not long ago: the live nodes share
     // them (TakeOver), none takes all.
     "UPDATE nodes SET expires_unix_ms = " PLATEAU_PG_NOW_MS " - 1 WHERE node = $1"},
    {"unfinished_rooms", "SELECT DISTINCT room_id FROM games WHERE status = 'playing'"},
    {"unfinished_in_rooms",
     "SELECT game_id FROM games WHERE status = 'playing' AND room_id = ANY($1::text[]) "
     "ORDER BY started_unix_ms, game_id COLLATE \"C\""},
    {"live_nodes",
     "SELECT node FROM nodes WHERE expires_unix_ms > " PLATEAU_PG_NOW_MS
     " ORDER BY node COLLATE \"C\""},
    {"orphan_rooms",
     // Rooms with a game in play whose owner's lease ran out, and whether that was more than a
     // lease ago ($2): then any node takes them, whatever its share.
     "SELECT DISTINCT g.room_id, NOT " PLATEAU_PG_NODE_LIVE("o", " - $2") " FROM games g "
     "JOIN room_owners o ON o.room_id = g.room_id WHERE g.status = 'playing' AND o.node <> $1 "
     "AND NOT " PLATEAU_PG_NODE_LIVE("o", "")},
    {"game_status", "SELECT status FROM games WHERE game_id = $1"},
    {"add_result",
     "INSERT INTO game_results (game_id, seat, name, score, rank, detail) "
     "VALUES ($1, $2, $3, $4, $5, $6)"},
    {"finish_game",
     "UPDATE games SET status = 'finished', finished_unix_ms = $2 WHERE game_id = $1"},
    {"set_stand_in",
     "UPDATE game_seats SET stand_in = $3 WHERE game_id = $1 AND seat = $2 AND EXISTS "
     "(SELECT 1 FROM games g WHERE g.game_id = $1 AND g.status = 'playing')"},
    {"set_left",
     "UPDATE game_seats SET left_game = $3 WHERE game_id = $1 AND seat = $2 AND EXISTS "
     "(SELECT 1 FROM games g WHERE g.game_id = $1 AND g.status = 'playing')"},
    {"record_resume",
     "INSERT INTO game_resumes (game_id, at_unix_ms, grace_ms) SELECT $1::text, $2::bigint, "
     "$3::bigint "
     "WHERE EXISTS (SELECT 1 FROM games WHERE game_id = $1 AND status = 'playing') "
     "ON CONFLICT (game_id, at_unix_ms) DO UPDATE SET grace_ms = excluded.grace_ms"},
    {"keep_taken_back",
     "INSERT INTO game_taken_back (game_no, idx, seat, action, at_unix_ms, origin, "
     "taken_back_unix_ms) SELECT game_no, idx, seat, action, at_unix_ms, origin, $3::bigint "
     "FROM game_actions WHERE game_no = $1 AND idx = $2"},
    {"drop_action", "DELETE FROM game_actions WHERE game_no = $1 AND idx = $2"},
    {"load_game",
     "SELECT game, options, seed, started_unix_ms, finished_unix_ms, room_id, join_code, "
     "is_private, title, host_player_id, replay_token, timer, watch_code, undo FROM games "
     "WHERE game_id = $1"},
    {"load_seats",
     "SELECT seat, name, player_id, stand_in, left_game FROM game_seats WHERE game_id = $1 "
     "ORDER BY seat"},
    {"load_resumes",
     "SELECT at_unix_ms, grace_ms FROM game_resumes WHERE game_id = $1 ORDER BY at_unix_ms"},
    {"load_actions",
     "SELECT a.seat, a.action, a.text, a.at_unix_ms, a.origin FROM games g "
     "JOIN game_actions a ON a.game_no = g.game_no WHERE g.game_id = $1 ORDER BY a.idx"},
    {"load_taken_back",
     // The last take-back is the one stored last (seq stands for SQLite's rowid).
     "SELECT (SELECT count(*) FROM game_taken_back t WHERE t.game_no = g.game_no), "
     "coalesce((SELECT t.idx FROM game_taken_back t WHERE t.game_no = g.game_no "
     "ORDER BY t.seq DESC LIMIT 1), -1) FROM games g WHERE g.game_id = $1"},
    {"load_results",
     "SELECT seat, name, score, rank, detail FROM game_results WHERE game_id = $1 "
     "ORDER BY seat"},
    {"game_access", "SELECT status, is_private, replay_token FROM games WHERE game_id = $1"},
    {"game_players",
     "SELECT player_id FROM game_seats WHERE game_id = $1 AND player_id IS NOT NULL "
     "ORDER BY seat"},
};

}  // namespace

// --- Parameters and outcomes ---

PgStore::Params& PgStore::Params::Text(std::string v) {
  lengths_.push_back(static_cast<int>(v.size()));
  values_.push_back(std::move(v));
  formats_.push_back(0);
  null_.push_back(false);
  return *this;
}

PgStore::Params& PgStore::Params::Int(int64_t v) { return Text(std::to_string(v)); }

PgStore::Params& PgStore::Params::Bytes(std::string v) {
  Text(std::move(v));
  formats_.back() = 1;  // binary: bytes go as they are, no escaping
  return *this;
}

PgStore::Params& PgStore::Params::Null() {
  Text("");
  null_.back() = true;
  return *this;
}

int PgStore::Outcome::changed() const {
  const char* n = result ? PQcmdTuples(result.get()) : "";
  return *n != '\0' ? std::stoi(n) : 0;
}

std::string PgStore::Outcome::Text(int row, int col) const {
  return std::string(PQgetvalue(result.get(), row, col),
                     static_cast<size_t>(PQgetlength(result.get(), row, col)));
}

int64_t PgStore::Outcome::Int(int row, int col) const {
  return IsNull(row, col) ? 0 : std::stoll(PQgetvalue(result.get(), row, col));
}

std::string PgStore::Outcome::Bytes(int row, int col) const {
  // Results come as text: a BYTEA is its hex escape.
  size_t n = 0;
  unsigned char* raw = PQunescapeBytea(
      reinterpret_cast<const unsigned char*>(PQgetvalue(result.get(), row, col)), &n);
  std::string out(reinterpret_cast<const char*>(raw), n);
  PQfreemem(raw);
  return out;
}

bool PgStore::Outcome::IsNull(int row, int col) const {
  return PQgetisnull(result.get(), row, col) != 0;
}

// --- Opening ---

StatusOr<std::unique_ptr<PgStore>> PgStore::Open(const std::string& conninfo) {
  return Open(conninfo, Options());
}

StatusOr<std::unique_ptr<PgStore>> PgStore::Open(const std::string& conninfo, Options options) {
  auto migrations = storage::EmbeddedPgMigrations();
  if (!migrations.ok()) return migrations.status();
  auto c = pg::Connect(conninfo);
  if (!c.ok()) return c.status();
  if (Status st = storage::ApplyPgMigrations(c.value().get(), migrations.value()); !st.ok()) {
    return st;
  }
  if (options.lease.count() <= 0) options.lease = std::chrono::milliseconds(10000);
  if (Status st = Prepare(c.value().get(), options.lease); !st.ok()) return st;
  if (options.node.empty()) options.node = "node";
  std::unique_ptr<PgStore> store(new PgStore(std::move(c).value(), std::move(options)));
  // The node's lease is its rooms': it holds from the start, before the first room is claimed.
  if (Status st = store->RenewLeases(); !st.ok()) return st;
  return store;
}

Status PgStore::Prepare(PGconn* c, std::chrono::milliseconds lease) {
  // Text is UTF-8 whatever the database's default for clients.
  if (PQsetClientEncoding(c, "UTF8") != 0) {
    return Status(pg::codes::kStorageError,
                  std::string("PostgreSQL: cannot use UTF-8: ") + PQerrorMessage(c));
  }
  // A transaction left open by a node paused between batches' statements ends after a lease:
  // its fence lock holds a claim up no longer than that (one paused mid-pipeline is ended by
  // the takeover, end_stuck_holders). No wait for a lock lasts more than a third of a lease:
  // a claim waiting on a stuck holder fails, and the storage thread goes on renewing. Named
  // for the operators.
  if (Status st = pg::Exec(c,
                           "SET application_name = 'plateau'; "
                           "SET idle_in_transaction_session_timeout = " +
                               std::to_string(lease.count()) +
                               "; SET lock_timeout = " +
                               std::to_string(std::max<int64_t>(1, lease.count() / 3)),
                           "configuring the connection");
      !st.ok()) {
    return st;
  }
  for (const Statement& s : kStatements) {
    pg::Result r(PQprepare(c, s.name, s.sql, 0, nullptr));
    if (!r || PQresultStatus(r.get()) != PGRES_COMMAND_OK) {
      return Status(pg::codes::kStorageError,
                    std::string("PostgreSQL refused statement ") + s.name + ": " +
                        (r ? PQresultErrorMessage(r.get()) : PQerrorMessage(c)));
    }
  }
  return Status::Ok();
}

PgStore::PgStore(pg::Connection c, Options options)
    : options_(std::move(options)), c_(std::move(c)) {}

PgStore::~PgStore() {
  std::lock_guard lock(mu_);
  if (in_batch_) {
    Drain();
    pg::Exec(c_.get(), "ROLLBACK", "rolling back an unfinished batch");
  }
}

// --- Running statements ---

PgStore::Outcome PgStore::Finish(PGresult* raw, const std::string& what) {
  Outcome o;
  o.result.reset(raw);
  const ExecStatusType s = raw != nullptr ? PQresultStatus(raw) : PGRES_FATAL_ERROR;
  if (s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK) return o;
  if (raw != nullptr) {
    const char* state = PQresultErrorField(raw, PG_DIAG_SQLSTATE);
    const char* constraint = PQresultErrorField(raw, PG_DIAG_CONSTRAINT_NAME);
    o.sqlstate = state != nullptr ? state : "";
    o.constraint = constraint != nullptr ? constraint : "";
  }
  o.status = pg::Failure(c_.get(), raw, what);
  // A statement that fails outside a savepoint aborts the batch's transaction: all of it is lost.
  if (in_batch_ && savepoints_ == 0) batch_lost_ = true;
  return o;
}

std::vector<const char*> PgStore::Params::Values() const {
  std::vector<const char*> values;
  values.reserve(values_.size());
  for (size_t i = 0; i < values_.size(); ++i) values.push_back(null_[i] ? nullptr : values_[i].data());
  return values;
}

Status PgStore::Connected() {
  if (PQstatus(c_.get()) == CONNECTION_OK) return Status::Ok();
  // A lost connection loses the batch it carried; outside one, it is opened again (the database
  // restarted, a proxy dropped it) with its statements prepared anew.
  if (in_batch_) {
    batch_lost_ = true;
    return Status(pg::codes::kStorageError, "The connection to PostgreSQL was lost mid-batch.");
  }
  PQreset(c_.get());
  if (PQstatus(c_.get()) != CONNECTION_OK) {
    return Status(pg::codes::kStorageError,
                  std::string("PostgreSQL: cannot connect again: ") + PQerrorMessage(c_.get()));
  }
  return Prepare(c_.get(), options_.lease);
}

Status PgStore::Ready() {
  if (Status st = Connected(); !st.ok()) return st;
  return Drain();
}

PgStore::Outcome PgStore::Run(const char* name, const Params& p, const std::string& what) {
  if (in_batch_) return std::move(RunTogether({{name, &p}}, what)[0]);
  if (Status st = Ready(); !st.ok()) return Outcome{nullptr, st, "", ""};
  const std::vector<const char*> values = p.Values();
  return Finish(PQexecPrepared(c_.get(), name, static_cast<int>(values.size()), values.data(),
                               p.lengths_.data(), p.formats_.data(), 0),
                what);
}

PgStore::Outcome PgStore::RunSql(const std::string& sql, const Params& p,
                                 const std::string& what) {
  if (Status st = Ready(); !st.ok()) return Outcome{nullptr, st, "", ""};
  const std::vector<const char*> values = p.Values();
  return Finish(PQexecParams(c_.get(), sql.c_str(), static_cast<int>(values.size()), nullptr,
                             values.data(), p.lengths_.data(), p.formats_.data(), 0),
                what);
}

std::vector<PgStore::Outcome> PgStore::RunTogether(
    const std::vector<std::pair<const char*, const Params*>>& statements, const std::string& what) {
  std::vector<Outcome> out(statements.size());
  if (!in_batch_) {
    for (size_t i = 0; i < statements.size(); ++i) {
      out[i] = Run(statements[i].first, *statements[i].second, what);
      if (out[i].ok()) continue;
      // As in a pipeline: what follows a failure does not run.
      for (size_t j = i + 1; j < out.size(); ++j) out[j] = Outcome{nullptr, out[i].status, "", ""};
      break;
    }
    return out;
  }
  // In the batch's pipeline: what it queued goes out with these statements, one round trip.
  for (const auto& [name, params] : statements) {
    if (Status st = Queue(name, *params); !st.ok()) {
      for (Outcome& o : out) o = Outcome{nullptr, st, "", ""};
      return out;
    }
  }
  if (Status st = Sync(out.data(), static_cast<int>(out.size()), what, false); !st.ok()) {
    for (Outcome& o : out) {
      if (o.ok()) o.status = st;
    }
  }
  return out;
}

Status PgStore::Write(const char* name, const Params& p, const std::string& what) {
  if (!in_batch_) return Run(name, p, what).status;
  return Queue(name, p);
}

template <class SendOne>
Status PgStore::Send(const SendOne& send) {
  if (Status st = Connected(); !st.ok()) return st;
  if (PQpipelineStatus(c_.get()) == PQ_PIPELINE_OFF && PQenterPipelineMode(c_.get()) != 1) {
    batch_lost_ = true;
    return Status(pg::codes::kStorageError,
                  std::string("PostgreSQL: cannot enter pipeline mode: ") + PQerrorMessage(c_.get()));
  }
  if (send() != 1) {
    batch_lost_ = true;
    return Status(pg::codes::kStorageError,
                  std::string("PostgreSQL: cannot send a statement: ") + PQerrorMessage(c_.get()));
  }
  ++queued_;
  return Status::Ok();
}

Status PgStore::QueueSql(const char* sql) {
  return Send(
      [&] { return PQsendQueryParams(c_.get(), sql, 0, nullptr, nullptr, nullptr, nullptr, 0); });
}

Status PgStore::Queue(const char* name, const Params& p, const std::string& fenced_game) {
  const std::vector<const char*> values = p.Values();
  if (Status st = Send([&] {
        return PQsendQueryPrepared(c_.get(), name, static_cast<int>(values.size()), values.data(),
                                   p.lengths_.data(), p.formats_.data(), 0);
      });
      !st.ok()) {
    return st;
  }
  if (!fenced_game.empty()) fenced_.push_back({queued_ - 1, call_, fenced_game});
  return Status::Ok();
}

Status PgStore::Drain() { return Sync(nullptr, 0, "", true); }

Status PgStore::Sync(Outcome* last, int n_last, const std::string& what, bool leave) {
  if (PQpipelineStatus(c_.get()) == PQ_PIPELINE_OFF) {
    const Status lost(pg::codes::kStorageError, "The storage batch was lost.");
    for (int i = 0; i < n_last; ++i) last[i] = Outcome{nullptr, lost, "", ""};
    return batch_lost_ || n_last > 0 ? lost : Status::Ok();
  }
  Status first;
  const bool synced = PQpipelineSync(c_.get()) == 1;
  if (!synced) {
    first = Status(pg::codes::kStorageError,
                   std::string("PostgreSQL: cannot send a batch: ") + PQerrorMessage(c_.get()));
  }
  // Each queued statement's result, each followed by a null; then the sync's own result. The
  // last `n_last` are the caller's; the others are the batch's.
  const int own = queued_ - n_last;
  auto fenced = fenced_.begin();
  for (int position = 0; synced && position < own && first.ok(); ++position) {
    Outcome o = Finish(PQgetResult(c_.get()), "in a batch");
    while (PGresult* extra = PQgetResult(c_.get())) PQclear(extra);
    if (!o.ok()) first = o.status;
    if (fenced != fenced_.end() && fenced->position == position) {
      // The fence refused the append: that call alone fails, and the game's next index is read
      // back before it is trusted again.
      if (o.ok() && o.changed() == 0) {
        settled_[fenced->call] = Status(store_codes::kLeaseLost,
                                        "Game " + fenced->game_id +
                                            " is in a room this node no longer runs; nothing "
                                            "was written.");
        lost_games_.push_back(fenced->game_id);
      }
      ++fenced;
    }
  }
  for (int i = 0; i < n_last; ++i) {
    if (synced && first.ok()) {
      // After a failure of the caller's own, the rest of them come back aborted.
      last[i] = Finish(PQgetResult(c_.get()), what);
      while (PGresult* extra = PQgetResult(c_.get())) PQclear(extra);
    } else {
      last[i] = Outcome{nullptr,
                        first.ok() ? Status(pg::codes::kStorageError, "The storage batch was lost.")
                                   : first,
                        "", ""};
    }
  }
  fenced_.clear();
  // What follows an error in the pipeline is reported aborted: read to the sync all the same.
  for (int nulls = 0; synced && nulls < 2 && PQstatus(c_.get()) == CONNECTION_OK;) {
    PGresult* r = PQgetResult(c_.get());
    if (r == nullptr) {
      ++nulls;  // one between two results; two in a row: nothing more is coming
      continue;
    }
    nulls = 0;
    const bool sync = PQresultStatus(r) == PGRES_PIPELINE_SYNC;
    PQclear(r);
    if (sync) break;
  }
  queued_ = 0;
  if (leave && PQexitPipelineMode(c_.get()) != 1 && first.ok()) {
    first = Status(pg::codes::kStorageError,
                   std::string("PostgreSQL: cannot leave pipeline mode: ") + PQerrorMessage(c_.get()));
  }
  if (!first.ok()) {
    batch_lost_ = true;
    return first;
  }
  return batch_lost_ ? Status(pg::codes::kStorageError, "The storage batch was lost.")
                     : Status::Ok();
}

template <class Body>
Status PgStore::Atomically(const Body& body) {
  if (in_batch_) {
    // A savepoint in the batch's pipeline: it goes out with the body's first statement, and its
    // release (or its undoing) with whatever the batch sends next. Only the statements whose
    // result the body reads cost a round trip.
    const std::string savepoint = "s" + std::to_string(savepoints_);
    if (Status st = QueueSql(("SAVEPOINT " + savepoint).c_str()); !st.ok()) return st;
    ++savepoints_;
    const Status st = body();
    --savepoints_;
    if (st.ok()) {
      const Status released = QueueSql(("RELEASE SAVEPOINT " + savepoint).c_str());
      return released.ok() ? st : released;
    }
    // Refused, or a statement failed (the transaction is then aborted up to the savepoint):
    // undone either way. Should that fail too, the next sync finds the batch lost.
    if (QueueSql(("ROLLBACK TO SAVEPOINT " + savepoint).c_str()).ok()) {
      QueueSql(("RELEASE SAVEPOINT " + savepoint).c_str());
    }
    return st;
  }
  if (Status st = Ready(); !st.ok()) return st;
  if (Status st = pg::Exec(c_.get(), "BEGIN", "starting a transaction"); !st.ok()) return st;
  Status st = HoldNode();
  if (st.ok()) st = body();
  if (st.ok()) {
    st = pg::Exec(c_.get(), "COMMIT", "committing");
    if (st.ok()) return st;
  }
  pg::Exec(c_.get(), "ROLLBACK", "undoing a refused call");
  return st;
}

// --- Batches ---

Status PgStore::BeginBatch() {
  std::lock_guard lock(mu_);
  known_.BeginBatch();
  batch_lost_ = false;
  settled_.clear();
  lost_games_.clear();
  fenced_.clear();
  call_ = 0;
  if (Status st = Connected(); !st.ok()) return st;
  in_batch_ = true;
  // BEGIN leads the pipeline: it goes out with the batch's first statements, no round trip.
  if (Status st = QueueSql("BEGIN"); !st.ok()) return st;
  return HoldNode();
}

Status PgStore::HoldNode() {
  // A node that handed its rooms over writes to none: a claim of them has nothing to wait for.
  if (handed_over_) return Status::Ok();
  return Write("hold_node", Params().Text(options_.node), "holding the rooms of " + options_.node);
}

Status PgStore::CommitBatch() {
  std::lock_guard lock(mu_);
  Status st = batch_lost_ ? Status(pg::codes::kStorageError, "The storage batch was lost.")
                          : Status::Ok();
  if (st.ok()) st = QueueSql("COMMIT");
  if (!st.ok()) {
    Drain();  // what was sent is read all the same
  } else {
    Outcome commit;
    st = Sync(&commit, 1, "committing", true);
    if (!commit.ok()) {
      st = commit.status;
    } else if (std::string_view(PQcmdStatus(commit.result.get())) == "ROLLBACK") {
      // A COMMIT of a transaction already aborted answers "ROLLBACK" without an error.
      batch_lost_ = true;
      st = Status(pg::codes::kStorageError, "PostgreSQL rolled the batch back.");
    }
  }
  if (!st.ok()) {
    known_.DropBatch();  // whatever the caller does next
    return st;
  }
  in_batch_ = false;
  known_.CommitBatch();
  for (const std::string& game_id : lost_games_) known_.Forget(game_id);
  return st;
}

void PgStore::StartCall(size_t call) {
  std::lock_guard lock(mu_);
  call_ = call;
}

Status PgStore::CallOutcome(size_t call) {
  std::lock_guard lock(mu_);
  auto it = settled_.find(call);
  return it == settled_.end() ? Status::Ok() : it->second;
}

// --- Ownership ---

Status PgStore::LeaseLost(const std::string& room_id) const {
  return Status(store_codes::kLeaseLost, "Room " + room_id + " is not run by node " +
                                             options_.node + " now; nothing was written.");
}

StatusOr<int64_t> PgStore::Claim(const std::string& room_id) {
  Outcome o = Run("claim_room", Params().Text(room_id).Text(options_.node),
                  "claiming room " + room_id);
  return Claimed(room_id, o);
}

StatusOr<int64_t> PgStore::Claimed(const std::string& room_id, const Outcome& o) {
  if (!o.ok()) return o.status;
  if (o.rows() == 0) return LeaseLost(room_id);
  return epochs_[room_id] = o.Int(0, 0);
}

StatusOr<PgStore::Fence> PgStore::FenceOf(const std::string& game_id) {
  if (handed_over_) {
    return Status(store_codes::kLeaseLost,
                  "Node " + options_.node + " is stopping and has handed its rooms over.");
  }
  if (renewed_at_ &&
      std::chrono::steady_clock::now() - *renewed_at_ > options_.lease - options_.lease / 5) {
    return Status(store_codes::kLeaseLost, "Node " + options_.node +
                                               " could not renew its leases in time; it writes "
                                               "nothing until it does.");
  }
  Fence fence;
  if (auto room = room_of_.find(game_id); room != room_of_.end()) {
    fence.room_id = room->second;
  } else {
    Outcome o = Run("game_room", Params().Text(game_id), "finding the room of " + game_id);
    if (!o.ok()) return o.status;
    if (o.rows() == 0) return store_rules::GameNotFound(game_id);
    fence.room_id = o.Text(0, 0);
    room_of_[game_id] = fence.room_id;
  }
  if (auto epoch = epochs_.find(fence.room_id); epoch != epochs_.end()) {
    fence.epoch = epoch->second;
    return fence;
  }
  // A game this node never began nor restored (a tool, a test): claimed here, which only
  // succeeds where no other node's lease holds.
  auto claimed = Claim(fence.room_id);
  if (!claimed.ok()) return claimed.status();
  fence.epoch = claimed.value();
  return fence;
}

Status PgStore::HoldFence(const std::string& game_id) {
  auto fence = FenceOf(game_id);
  if (!fence.ok()) return fence.status();
  return Held(fence.value(),
              Run("hold_fence", HoldParams(fence.value()), "checking the lease of " + game_id));
}

PgStore::Params PgStore::HoldParams(const Fence& fence) const {
  return Params().Text(fence.room_id).Text(options_.node).Int(fence.epoch);
}

Status PgStore::Held(const Fence& fence, const Outcome& o) const {
  if (!o.ok()) return o.status;
  return o.rows() == 1 ? Status::Ok() : LeaseLost(fence.room_id);
}

Status PgStore::HandOver() {
  std::lock_guard lock(mu_);
  handed_over_ = true;
  return Run("hand_over_node", Params().Text(options_.node),
             "handing the rooms of " + options_.node + " over")
      .status;
}

Status PgStore::ClaimRoom(const std::string& room_id, const RoomClaim& claim) {
  std::lock_guard lock(mu_);
  if (handed_over_) return LeaseLost(room_id);
  const std::string& creator = claim.creator;
  const int max_open = claim.max_open;
  const bool paced = claim.rooms_per_hour > 0 && claim.burst >= 1;
  const bool counted = !creator.empty() && max_open > 0;
  const bool bucketed = !creator.empty() && paced;
  return Atomically([&]() -> Status {
    if (counted || bucketed) {
      // Held to the batch's end: the count below and the claim see every other node's rooms.
      if (Status locked =
              Write("lock_creator", Params().Text(creator), "counting the rooms of " + creator);
          !locked.ok()) {
        return locked;
      }
    }
    // The count, the creator's token and the claim go out together, in that order: a refusal
    // of any of them undoes all three with the savepoint.
    const Params open_of = Params().Text(creator).Text(room_id);
    const Params bucket = Params()
                              .Text(creator)
                              .Text(std::to_string(claim.rooms_per_hour))
                              .Text(std::to_string(claim.burst));
    const Params room = Params().Text(room_id).Text(options_.node);
    std::vector<std::pair<const char*, const Params*>> statements;
    if (counted) statements.push_back({"open_rooms_of", &open_of});
    if (bucketed) statements.push_back({"take_room_token", &bucket});
    statements.push_back({"claim_room", &room});
    std::vector<Outcome> o = RunTogether(statements, "claiming room " + room_id);
    size_t next = 0;
    if (counted) {
      const Outcome& open = o[next++];
      if (!open.ok()) return open.status;
      if (open.Int(0, 0) >= max_open) return store_rules::TooManyRooms(open.Int(0, 0));
    }
    if (bucketed) {
      const Outcome& taken = o[next++];
      if (!taken.ok()) return taken.status;
      if (taken.rows() == 0) {
        Outcome wait = Run("room_token_wait", bucket, "counting the rooms of " + creator);
        if (!wait.ok()) return wait.status;
        return store_rules::RoomsTooFast(std::max<int64_t>(1, wait.rows() ? wait.Int(0, 0) : 1));
      }
    }
    if (auto claimed = Claimed(room_id, o[next]); !claimed.ok()) return claimed.status();
    const Params codes = Params()
                             .Text(room_id)
                             .Text(options_.node)
                             .Text(creator)
                             .Text(claim.join_code)
                             .Text(claim.watch_code);
    return Write("set_codes", codes, "noting room " + room_id);
  });
}

StatusOr<Store::CodeLookup> PgStore::LookUpCode(const std::string& code, bool watch,
                                                 const std::string& address, int max_misses,
                                                 std::chrono::milliseconds window) {
  std::lock_guard lock(mu_);
  CodeLookup out;
  const bool counted = !address.empty() && max_misses > 0;
  Status st = Atomically([&]() -> Status {
    if (counted) {
      Outcome misses = Run("code_misses", Params().Text(address).Int(window.count()),
                           "counting wrong codes");
      if (!misses.ok()) return misses.status;
      if (misses.Int(0, 0) >= max_misses) {
        // Free again once the oldest miss in the window leaves it.
        out.locked_for = std::chrono::milliseconds(
            std::max<int64_t>(1, misses.Int(0, 1) + window.count() - misses.Int(0, 2)));
        return Status::Ok();
      }
    }
    Outcome o = Run(watch ? "room_by_watch_code" : "room_by_join_code",
                    Params().Text(code).Text(options_.node), "looking a room code up");
    if (!o.ok()) return o.status;
    if (o.rows() != 0) {
      out.room_id = o.Text(0, 0);
      return Status::Ok();
    }
    if (!counted) return Status::Ok();
    return Run("note_code_miss", Params().Text(address).Int(window.count()), "noting a wrong code")
        .status;
  });
  if (!st.ok()) return st;
  return out;
}

Status PgStore::SetRoomCreator(const std::string& room_id, const std::string& creator) {
  std::lock_guard lock(mu_);
  // One statement that refuses nothing: it needs no savepoint of its own.
  return Write("set_creator", Params().Text(room_id).Text(options_.node).Text(creator),
               "noting who opened room " + room_id);
}

Status PgStore::ReleaseRoom(const std::string& room_id) {
  std::lock_guard lock(mu_);
  auto epoch = epochs_.find(room_id);
  if (epoch == epochs_.end()) return Status::Ok();
  // Only this node's claim of that epoch goes: a room taken over keeps its new owner's row.
  // One statement that refuses nothing: it needs no savepoint of its own.
  Status st = Write("release_room", Params().Text(room_id).Text(options_.node).Int(epoch->second),
                    "releasing room " + room_id);
  if (st.ok()) epochs_.erase(epoch);
  return st;
}

StatusOr<Store::RoomOwner> PgStore::FindOwner(const std::string& room_id) {
  std::lock_guard lock(mu_);
  Outcome o = Run("room_owner", Params().Text(room_id).Text(options_.node),
                  "finding the node of room " + room_id);
  if (!o.ok()) return o.status;
  RoomOwner owner;
  owner.known = o.rows() != 0;
  if (owner.known) owner.address = o.Text(0, 0);
  return owner;
}

StatusOr<std::vector<std::string>> PgStore::PlayerRoomsElsewhere(const std::string& player_id) {
  std::lock_guard lock(mu_);
  Outcome o = Run("player_rooms_elsewhere", Params().Text(player_id).Text(options_.node),
                  "finding the rooms of " + player_id);
  if (!o.ok()) return o.status;
  std::vector<std::string> rooms;
  for (int i = 0; i < o.rows(); ++i) rooms.push_back(o.Text(i, 0));
  return rooms;
}

Status PgStore::RenewLeases() {
  std::lock_guard lock(mu_);
  if (handed_over_) return Status::Ok();  // renewing now would take the rooms back
  const auto sent = std::chrono::steady_clock::now();
  const int64_t lease = options_.lease.count();
  // One row renews every room of the node: their leases are its own.
  Status st = Run("renew_node", Params().Text(options_.node).Text(options_.address).Int(lease),
                  "renewing node " + options_.node)
                  .status;
  if (st.ok()) {
    renewed_at_ = sent;
  } else if (!renewed_at_) {
    renewed_at_ = sent - options_.lease;  // never renewed: nothing is written until it is
  }
  return st;
}

void PgStore::RollbackBatch() {
  std::lock_guard lock(mu_);
  Drain();
  known_.DropBatch();
  if (PQtransactionStatus(c_.get()) != PQTRANS_IDLE) {
    pg::Exec(c_.get(), "ROLLBACK", "rolling back a batch");
  }
  in_batch_ = false;
  batch_lost_ = false;
}

bool PgStore::BatchOpen() {
  std::lock_guard lock(mu_);
  return in_batch_ && !batch_lost_;
}

// --- Players ---

Status PgStore::SavePlayer(const std::string& token, const StoredPlayer& player) {
  if (Status st = store_rules::CheckPlayer(token, player); !st.ok()) return st;
  const std::string hash = storage::TokenSha256(token);
  std::lock_guard lock(mu_);
  return Atomically([&]() -> Status {
    Outcome o = Run("save_player",
                    Params().Bytes(hash).Text(player.player_id).Text(player.name).Int(NowUnixMs()),
                    "saving a player");
    if (o.Unique()) {
      return store_rules::PlayerHasAnotherToken(player.player_id);
    }
    if (!o.ok()) return o.status;
    if (o.changed() == 0) {
      return store_rules::TokenOfAnotherPlayer();
    }
    return Status::Ok();
  });
}

StatusOr<std::optional<StoredPlayer>> PgStore::FindPlayer(const std::string& token) {
  const std::string hash = storage::TokenSha256(token);
  std::lock_guard lock(mu_);
  Outcome o = Run("find_player", Params().Bytes(hash), "finding a player");
  if (!o.ok()) return o.status;
  if (o.rows() > 0) {
    StoredPlayer found{o.Text(0, 0), o.Text(0, 1)};
    found.last_used_unix_ms = o.Int(0, 2);
    return std::optional<StoredPlayer>(std::move(found));
  }
  Outcome revoked = Run("find_revoked", Params().Bytes(hash), "finding a revoked token");
  if (!revoked.ok()) return revoked.status;
  if (revoked.rows() == 0) return std::optional<StoredPlayer>();
  StoredPlayer gone;
  gone.player_id = revoked.Text(0, 0);
  gone.revoked = true;
  return std::optional<StoredPlayer>(std::move(gone));
}

// One statement refused by the rows it changed, not by an error: it needs no savepoint (an error
// there is the batch's loss, see Finish).
Status PgStore::TouchPlayer(const std::string& player_id, int64_t at_unix_ms) {
  std::lock_guard lock(mu_);
  Outcome o = Run("touch_player", Params().Text(player_id).Int(at_unix_ms),
                  "noting a player's token in use");
  if (!o.ok()) return o.status;
  if (o.changed() != 1) {
    return store_rules::PlayerNotFound(player_id);
  }
  return Status::Ok();
}

Status PgStore::ReplaceToken(const std::string& old_token, const std::string& new_token,
                             int64_t at_unix_ms) {
  if (Status st = store_rules::CheckReplacement(old_token, new_token); !st.ok()) return st;
  const std::string old_hash = storage::TokenSha256(old_token);
  const std::string new_hash = storage::TokenSha256(new_token);
  std::lock_guard lock(mu_);
  return Atomically([&]() -> Status {
    Outcome found = Run("player_of_token", Params().Bytes(old_hash), "finding the token to replace");
    if (!found.ok()) return found.status;
    if (found.rows() == 0) return store_rules::TokenNotFound();
    const std::string player_id = found.Text(0, 0);
    Outcome replaced = Run("replace_token", Params().Bytes(old_hash).Bytes(new_hash).Int(at_unix_ms),
                           "replacing a token");
    if (replaced.Unique()) return store_rules::NewTokenInUse();
    if (!replaced.ok()) return replaced.status;
    Outcome revoked = Run("revoke_token", Params().Bytes(old_hash).Text(player_id).Int(at_unix_ms),
                          "revoking a token");
    return revoked.status;
  });
}

// --- Games ---

Status PgStore::BeginGame(const plateau::v1::GameRecord& record, const RoomRecord& room) {
  if (Status st = store_rules::CheckNewGame(record); !st.ok()) return st;
  std::lock_guard lock(mu_);
  int64_t game_no = 0;
  Status st = Atomically([&]() -> Status {
    // The room is this node's before its game is: another node's live lease refuses it (and
    // the game written in the same round trip is undone with the savepoint).
    const Params claim = Params().Text(room.room_id).Text(options_.node);
    const Params game = Params()
                            .Text(record.game_id())
                            .Text(record.game())
                            .Bytes(record.options())
                            .Int(SeedToSql(record.seed()))
                            .Int(record.started_unix_ms())
                            .Text(room.room_id)
                            .Text(room.join_code)
                            .Int(room.is_private ? 1 : 0)
                            .Text(room.title)
                            .Text(room.host_player_id)
                            .Text(room.replay_token)
                            .Bytes(room.timer)
                            .Text(room.watch_code)
                            .Int(room.undo ? 1 : 0);
    std::vector<Outcome> both = RunTogether({{"claim_room", &claim}, {"begin_game", &game}},
                                            "storing game " + record.game_id());
    if (auto claimed = Claimed(room.room_id, both[0]); !claimed.ok()) return claimed.status();
    const Outcome& o = both[1];
    if (o.Unique() && o.constraint == "games_pkey") {
      return store_rules::GameExists(record.game_id());
    }
    if (!o.ok()) return o.status;
    game_no = o.Int(0, 0);
    const size_t seats =
        std::max(static_cast<size_t>(record.seat_names_size()), room.seat_player_ids.size());
    for (size_t seat = 0; seat < seats; ++seat) {
      // NULL past the end of either list keeps both lengths exact on the way back.
      Params p;
      p.Text(record.game_id()).Int(static_cast<int64_t>(seat));
      if (seat < static_cast<size_t>(record.seat_names_size())) {
        p.Text(record.seat_names(static_cast<int>(seat)));
      } else {
        p.Null();
      }
      if (seat < room.seat_player_ids.size()) {
        p.Text(room.seat_player_ids[seat]);
      } else {
        p.Null();
      }
      p.Int(seat < room.seat_stand_ins.size() ? room.seat_stand_ins[seat] : 0);
      if (Status st = Write("add_seat", p, "storing the seats of game " + record.game_id());
          !st.ok()) {
        return st;
      }
    }
    return Status::Ok();
  });
  if (!st.ok()) return st;
  // Its next index is known from here: its first append needs no read.
  known_.Set(record.game_id(), Known{game_no, 0}, in_batch_);
  room_of_[record.game_id()] = room.room_id;
  return st;
}

StatusOr<PgStore::Known> PgStore::ReadPlayingGame(const std::string& game_id) {
  Outcome o = Run("playing_game", Params().Text(game_id), "checking game " + game_id);
  if (!o.ok()) return o.status;
  if (o.rows() == 0) return store_rules::GameNotFound(game_id);
  if (o.Text(0, 0) != "playing") {
    return store_rules::GameTakesNoActions(game_id);
  }
  return Known{o.Int(0, 1), static_cast<uint32_t>(o.Int(0, 2))};
}

Status PgStore::AppendAction(const std::string& game_id, uint32_t index,
                             const plateau::v1::ReplayAction& action) {
  std::lock_guard lock(mu_);
  std::optional<Known> known = known_.Find(game_id);
  if (!known) {
    auto read = ReadPlayingGame(game_id);
    if (!read.ok()) return read.status();
    known = read.value();
  }
  if (Status st = store_rules::CheckAppendIndex(game_id, index, known->next); !st.ok()) return st;
  auto fence = FenceOf(game_id);
  if (!fence.ok()) return fence.status();
  Params p;
  p.Int(known->game_no)
      .Int(index)
      .Int(action.seat())
      .Bytes(action.action())
      .Text(action.text())
      .Int(action.at_unix_ms())
      .Int(static_cast<int64_t>(action.origin()))
      .Text(fence.value().room_id)
      .Text(options_.node)
      .Int(fence.value().epoch);
  if (in_batch_) {
    // Checked above: it goes out with the batch, its result (and the fence's) read at the commit.
    if (Status st = Queue("append_action", p, game_id); !st.ok()) return st;
    known_.Set(game_id, Known{known->game_no, index + 1}, true);
    return Status::Ok();
  }
  // Outside a batch, in a transaction of its own all the same: the fence needs the node's lock.
  Outcome o;
  const Status st = Atomically([&]() -> Status {
    o = Run("append_action", p, "storing action " + std::to_string(index) + " of " + game_id);
    return o.status;
  });
  if (!st.ok() || o.changed() != 1) known_.Forget(game_id);  // read back next time
  if (o.Unique()) return store_rules::DuplicateAction(game_id, index);
  if (!st.ok()) return st;
  if (o.changed() != 1) return LeaseLost(fence.value().room_id);
  known_.Set(game_id, Known{known->game_no, index + 1}, false);
  return Status::Ok();
}

Status PgStore::FinishGame(const std::string& game_id,
                           const std::vector<plateau::v1::SeatResult>& results,
                           int64_t finished_unix_ms) {
  if (Status st = store_rules::CheckFinish(game_id, results, finished_unix_ms); !st.ok()) return st;
  std::lock_guard lock(mu_);
  // Whatever happens below, the game's next index is read back before its next append.
  known_.Forget(game_id);
  Status finished = Atomically([&]() -> Status {
    auto fence = FenceOf(game_id);
    if (!fence.ok()) return fence.status();
    // The game's state and the fence in one round trip (the node's lock, taken when the
    // transaction began, keeps a takeover out until the commit); a refusal is undone with the
    // savepoint.
    const Params game = Params().Text(game_id);
    const Params held = HoldParams(fence.value());
    std::vector<Outcome> o =
        RunTogether({{"game_status", &game}, {"hold_fence", &held}}, "checking game " + game_id);
    const Outcome& status = o[0];
    if (!status.ok()) return status.status;
    if (status.rows() == 0) {
      return store_rules::GameNotFound(game_id);
    }
    if (status.Text(0, 0) != "playing") {
      return store_rules::GameAlreadyFinished(game_id);
    }
    if (Status st = Held(fence.value(), o[1]); !st.ok()) return st;
    // One result per seat was checked above (CheckFinish): nothing here is expected to fail.
    for (const auto& r : results) {
      if (Status st = Write("add_result",
                            Params()
                                .Text(game_id)
                                .Int(r.seat())
                                .Text(r.name())
                                .Int(r.score())
                                .Int(r.rank())
                                .Text(r.detail()),
                            "storing the results of " + game_id);
          !st.ok()) {
        return st;
      }
    }
    // The room stays this node's (its players may ask a rematch) until it closes (ReleaseRoom).
    return Write("finish_game", Params().Text(game_id).Int(finished_unix_ms),
                 "finishing game " + game_id);
  });
  if (finished.ok()) room_of_.erase(game_id);
  return finished;
}

Status PgStore::SetStandIn(const std::string& game_id, int seat, int level) {
  std::lock_guard lock(mu_);
  return UpdateSeatInPlay("set_stand_in", game_id, seat, level,
                          "storing who plays seat " + std::to_string(seat) + " of " + game_id);
}

Status PgStore::SetLeft(const std::string& game_id, int seat, bool left) {
  std::lock_guard lock(mu_);
  return UpdateSeatInPlay("set_left", game_id, seat, left ? 1 : 0,
                          "storing whether seat " + std::to_string(seat) + " of " + game_id +
                              " left");
}

Status PgStore::UpdateSeatInPlay(const char* name, const std::string& game_id, int seat,
                                 int value, const std::string& what) {
  return Atomically([&]() -> Status {
    Outcome o = Run(name, Params().Text(game_id).Int(seat).Int(value), what);
    if (!o.ok()) return o.status;
    if (o.changed() != 1) {
      return store_rules::NoSeatInPlay(game_id, seat);
    }
    return HoldFence(game_id);
  });
}

Status PgStore::RecordResume(const std::string& game_id, int64_t at_unix_ms, int64_t grace_ms) {
  std::lock_guard lock(mu_);
  return Atomically([&]() -> Status {
    Outcome o = Run("record_resume", Params().Text(game_id).Int(at_unix_ms).Int(grace_ms),
                    "storing a resume of " + game_id);
    if (!o.ok()) return o.status;
    if (o.changed() != 1) {
      return store_rules::NotInPlay(game_id);
    }
    return HoldFence(game_id);
  });
}

Status PgStore::TakeBackAction(const std::string& game_id, uint32_t index, int64_t at_unix_ms) {
  std::lock_guard lock(mu_);
  known_.Forget(game_id);  // read back by the next append
  return Atomically([&]() -> Status {
    auto read = ReadPlayingGame(game_id);
    if (!read.ok()) return read.status();
    if (Status held = HoldFence(game_id); !held.ok()) return held;
    const int64_t game_no = read.value().game_no;
    if (read.value().next != index + 1) {
      return store_rules::NotLastAction(game_id, index);
    }
    // Kept out of the log first, then dropped from it: one transaction, so never half done.
    Outcome kept = Run("keep_taken_back", Params().Int(game_no).Int(index).Int(at_unix_ms),
                       "keeping action " + std::to_string(index) + " of " + game_id);
    if (!kept.ok()) return kept.status;
    return Run("drop_action", Params().Int(game_no).Int(index),
               "taking back action " + std::to_string(index) + " of " + game_id)
        .status;
  });
}

// --- Loading ---

// Several statements that must see one state of the database: a repeatable-read, read-only
// transaction (outside a batch; inside one, the batch's own transaction already is one view).
class PgStore::ReadSnapshot {
 public:
  explicit ReadSnapshot(PgStore& store) : store_(store) {}
  ~ReadSnapshot() {
    if (open_) pg::Exec(store_.c_.get(), "COMMIT", "ending a read");
  }
  Status Begin() {
    if (Status st = store_.Ready(); !st.ok()) return st;
    if (store_.in_batch_) return Status::Ok();
    Status st = pg::Exec(store_.c_.get(), "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
                         "starting a read");
    open_ = st.ok();
    return st;
  }

 private:
  PgStore& store_;
  bool open_ = false;
};

Status PgStore::LoadResults(const std::string& game_id,
                            google::protobuf::RepeatedPtrField<plateau::v1::SeatResult>* results) {
  Outcome o = Run("load_results", Params().Text(game_id), "loading the results of " + game_id);
  if (!o.ok()) return o.status;
  for (int i = 0; i < o.rows(); ++i) {
    plateau::v1::SeatResult* r = results->Add();
    r->set_seat(static_cast<uint32_t>(o.Int(i, 0)));
    r->set_name(o.Text(i, 1));
    r->set_score(o.Int(i, 2));
    r->set_rank(static_cast<uint32_t>(o.Int(i, 3)));
    r->set_detail(o.Text(i, 4));
  }
  return Status::Ok();
}

StatusOr<std::optional<plateau::v1::GameRecord>> PgStore::LoadGameLocked(
    const std::string& game_id, RoomRecord* room) {
  plateau::v1::GameRecord record;
  {
    Outcome o = Run("load_game", Params().Text(game_id), "loading game " + game_id);
    if (!o.ok()) return o.status;
    if (o.rows() == 0) return std::optional<plateau::v1::GameRecord>();
    record.set_game_id(game_id);
    record.set_game(o.Text(0, 0));
    record.set_options(o.Bytes(0, 1));
    record.set_seed(SeedFromSql(o.Int(0, 2)));
    record.set_started_unix_ms(o.Int(0, 3));
    record.set_finished_unix_ms(o.Int(0, 4));  // NULL while playing: 0
    if (room != nullptr) {
      room->room_id = o.Text(0, 5);
      room->join_code = o.Text(0, 6);
      room->is_private = o.Int(0, 7) != 0;
      room->title = o.Text(0, 8);
      room->host_player_id = o.Text(0, 9);
      room->replay_token = o.Text(0, 10);
      room->timer = o.Bytes(0, 11);
      room->watch_code = o.Text(0, 12);
      room->undo = o.Int(0, 13) != 0;
    }
  }
  {
    Outcome o = Run("load_seats", Params().Text(game_id), "loading the seats of " + game_id);
    if (!o.ok()) return o.status;
    std::vector<std::string> player_ids;
    std::vector<int> stand_ins;
    std::vector<bool> left;
    for (int i = 0; i < o.rows(); ++i) {
      if (!o.IsNull(i, 1)) record.add_seat_names(o.Text(i, 1));
      if (!o.IsNull(i, 2)) {
        player_ids.push_back(o.Text(i, 2));
        stand_ins.push_back(static_cast<int>(o.Int(i, 3)));
        left.push_back(o.Int(i, 4) != 0);
      }
    }
    if (room != nullptr) {
      room->seat_player_ids = std::move(player_ids);
      room->seat_stand_ins = std::move(stand_ins);
      room->seat_left = std::move(left);
    }
  }
  if (room != nullptr) {
    Outcome o = Run("load_resumes", Params().Text(game_id), "loading the resumes of " + game_id);
    if (!o.ok()) return o.status;
    room->resumes.clear();
    for (int i = 0; i < o.rows(); ++i) room->resumes.push_back({o.Int(i, 0), o.Int(i, 1)});
  }
  {
    Outcome o = Run("load_actions", Params().Text(game_id), "loading the actions of " + game_id);
    if (!o.ok()) return o.status;
    for (int i = 0; i < o.rows(); ++i) {
      plateau::v1::ReplayAction* a = record.add_actions();
      a->set_seat(static_cast<int32_t>(o.Int(i, 0)));
      a->set_action(o.Bytes(i, 1));
      a->set_text(o.Text(i, 2));
      a->set_at_unix_ms(o.Int(i, 3));
      const int64_t origin = o.Int(i, 4);
      // An origin this build does not know reads as the player's own move.
      if (plateau::v1::ActionOrigin_IsValid(static_cast<int>(origin))) {
        a->set_origin(static_cast<plateau::v1::ActionOrigin>(origin));
      }
    }
  }
  if (room != nullptr) {
    // The last take-back sits at the log's end while no action took its index again.
    Outcome o = Run("load_taken_back", Params().Text(game_id), "loading the take-backs of " + game_id);
    if (!o.ok()) return o.status;
    room->taken_back = o.rows() > 0 ? static_cast<uint32_t>(o.Int(0, 0)) : 0;
    room->taken_back_last = room->taken_back > 0 && o.Int(0, 1) == record.actions_size();
  }
  if (Status st = LoadResults(game_id, record.mutable_results()); !st.ok()) return st;
  return std::optional<plateau::v1::GameRecord>(std::move(record));
}

StatusOr<std::optional<plateau::v1::GameRecord>> PgStore::LoadGame(const std::string& game_id) {
  std::lock_guard lock(mu_);
  ReadSnapshot read(*this);
  if (Status st = read.Begin(); !st.ok()) return st;
  return LoadGameLocked(game_id, nullptr);
}

StatusOr<std::optional<GameAccess>> PgStore::LoadGameAccess(const std::string& game_id) {
  std::lock_guard lock(mu_);
  ReadSnapshot read(*this);
  if (Status st = read.Begin(); !st.ok()) return st;
  Outcome o = Run("game_access", Params().Text(game_id), "checking access to game " + game_id);
  if (!o.ok()) return o.status;
  if (o.rows() == 0) return std::optional<GameAccess>();
  GameAccess access;
  access.finished = o.Text(0, 0) == "finished";
  access.is_private = o.Int(0, 1) != 0;
  access.replay_token = o.Text(0, 2);
  Outcome players = Run("game_players", Params().Text(game_id), "loading the players of " + game_id);
  if (!players.ok()) return players.status;
  for (int i = 0; i < players.rows(); ++i) access.seat_player_ids.push_back(players.Text(i, 0));
  return std::optional<GameAccess>(std::move(access));
}

StatusOr<std::vector<plateau::v1::ReplaySummary>> PgStore::ListFinished(
    const std::string& game, uint32_t limit, const std::string& before_game_id,
    const std::string& viewer_player_id) {
  limit = std::min(limit, kMaxListLimit);
  std::vector<plateau::v1::ReplaySummary> out;
  if (limit == 0) return out;
  std::lock_guard lock(mu_);
  ReadSnapshot read(*this);
  if (Status st = read.Begin(); !st.ok()) return st;
  std::optional<int64_t> cursor_ms;
  if (!before_game_id.empty()) {
    // A private game hidden from the viewer is no cursor either: paging must not reveal it.
    Outcome o = RunSql("SELECT g.finished_unix_ms FROM games g WHERE g.game_id = $1 AND "
                       "g.status = 'finished' AND " + ListedTo(2),
                       Params().Text(before_game_id).Text(viewer_player_id),
                       "reading the page cursor");
    if (!o.ok()) return o.status;
    if (o.rows() == 0) {
      return store_rules::BadCursor(before_game_id);
    }
    cursor_ms = o.Int(0, 0);
  }
  // The parameters a shape uses are numbered in order: $1 the viewer, then the game, the cursor.
  Params p;
  p.Text(viewer_player_id);
  std::string sql =
      "SELECT g.game_id, g.game, g.finished_unix_ms, "
      "(SELECT count(*) FROM game_actions a WHERE a.game_no = g.game_no), g.is_private, "
      "g.replay_token FROM games g WHERE g.status = 'finished' AND " + ListedTo(1);
  int n = 1;
  if (!game.empty()) {
    sql += " AND g.game = $" + std::to_string(++n);
    p.Text(game);
  }
  if (cursor_ms.has_value()) {
    // Ids compare as bytes, as on SQLite, whatever the database's collation.
    sql += " AND (g.finished_unix_ms, g.game_id COLLATE \"C\") < ($" + std::to_string(n + 1) +
           "::bigint, $" + std::to_string(n + 2) + ")";
    n += 2;
    p.Int(*cursor_ms).Text(before_game_id);
  }
  sql += " ORDER BY g.finished_unix_ms DESC, g.game_id COLLATE \"C\" DESC LIMIT $" +
         std::to_string(++n);
  p.Int(limit);
  Outcome o = RunSql(sql, p, "listing finished games");
  if (!o.ok()) return o.status;
  for (int i = 0; i < o.rows(); ++i) {
    plateau::v1::ReplaySummary& summary = out.emplace_back();
    summary.set_game_id(o.Text(i, 0));
    summary.set_game(o.Text(i, 1));
    summary.set_finished_unix_ms(o.Int(i, 2));
    summary.set_steps(static_cast<uint32_t>(o.Int(i, 3)));
    if (o.Int(i, 4) != 0) {
      summary.set_is_private(true);
      summary.set_replay_token(o.Text(i, 5));
    }
  }
  for (auto& summary : out) {
    if (Status st = LoadResults(summary.game_id(), summary.mutable_results()); !st.ok()) return st;
  }
  return out;
}

StatusOr<std::vector<Store::Unfinished>> PgStore::LoadUnfinished() {
  std::lock_guard lock(mu_);
  // Only the rooms this node can claim come back here: another node's live lease keeps its own.
  std::vector<std::string> claimed;
  // Rooms this node had open without a game in play closed with its last run.
  Outcome stale = Run("forget_idle_rooms", Params().Text(options_.node).Int(options_.lease.count()),
                      "forgetting the rooms of a previous run");
  if (!stale.ok()) return stale.status;
  Outcome rooms = Run("unfinished_rooms", Params(), "listing the rooms of unfinished games");
  if (!rooms.ok()) return rooms.status;
  for (int i = 0; i < rooms.rows(); ++i) {
    const std::string room_id = rooms.Text(i, 0);
    auto epoch = Claim(room_id);
    if (epoch.ok()) claimed.push_back(room_id);
    else if (epoch.status().code() != store_codes::kLeaseLost) return epoch.status();
  }
  return AdoptClaimed(claimed);
}

namespace {

// FNV-1a: the same on every node and build, unlike std::hash.
uint64_t StableHash(const std::string& s) {
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ULL;
  return h;
}

}  // namespace

StatusOr<std::vector<Store::Unfinished>> PgStore::TakeOver() {
  std::lock_guard lock(mu_);
  Outcome live = Run("live_nodes", Params(), "listing the nodes alive");
  if (!live.ok()) return live.status;
  int rank = -1;
  for (int i = 0; i < live.rows(); ++i) {
    if (live.Text(i, 0) == options_.node) rank = i;
  }
  // A node that is not alive itself (it could not renew) takes nothing over.
  if (rank < 0) return std::vector<Unfinished>();
  Outcome rooms = Run("orphan_rooms", Params().Text(options_.node).Int(options_.lease.count()),
                      "listing the rooms of dead nodes");
  if (!rooms.ok()) return rooms.status;
  // Rooms without a game in play are not taken over: a dead node's are forgotten.
  Outcome idle = Run("forget_idle_rooms", Params().Text("").Int(options_.lease.count()),
                     "forgetting the idle rooms of dead nodes");
  if (!idle.ok()) return idle.status;
  Outcome misses = Run("forget_code_misses", Params(), "forgetting old wrong codes");
  if (!misses.ok()) return misses.status;
  Outcome buckets = Run("forget_room_buckets", Params(), "forgetting full allowances");
  if (!buckets.ok()) return buckets.status;
  if (rooms.rows() > 0) {
    Outcome ended = Run("end_stuck_holders", Params().Int(options_.lease.count()),
                        "ending the transactions left by dead nodes");
    if (!ended.ok()) return ended.status;
    if (ended.Int(0, 0) > 0) {
      spdlog::warn("node {}: ended {} transaction(s) left open by nodes dead for over a lease",
                   options_.node, ended.Int(0, 0));
    }
  }
  std::vector<std::string> claimed;
  for (int i = 0; i < rooms.rows(); ++i) {
    const std::string room_id = rooms.Text(i, 0);
    const bool overdue = rooms.Text(i, 1) == "t";
    if (!overdue && StableHash(room_id) % static_cast<uint64_t>(live.rows()) !=
                        static_cast<uint64_t>(rank)) {
      continue;  // another live node's share
    }
    auto epoch = Claim(room_id);
    if (epoch.ok()) {
      claimed.push_back(room_id);
    } else if (epoch.status().code() != store_codes::kLeaseLost) {
      // Its holder's transaction did not end within the lock timeout: tried again next round
      // (and ended then, once over a lease dead). The rooms claimed so far are still adopted.
      spdlog::warn("node {}: room {} not taken over this round: {}", options_.node, room_id,
                   epoch.status().ToString());
      break;
    }
  }
  if (claimed.empty()) return std::vector<Unfinished>();
  return AdoptClaimed(claimed);
}

StatusOr<std::vector<Store::Unfinished>> PgStore::AdoptClaimed(
    const std::vector<std::string>& rooms) {
  if (rooms.empty()) return std::vector<Unfinished>();
  StatusOr<std::vector<Unfinished>> games = LoadRooms(rooms);
  if (!games.ok()) {
    // Claimed and renewed but run by nobody would be lost: given back for the next try.
    Run("give_back_rooms", Params().Text(pg::TextArray(rooms)).Text(options_.node),
        "giving rooms back");
    for (const std::string& room : rooms) epochs_.erase(room);
  }
  return games;
}

StatusOr<std::vector<Store::Unfinished>> PgStore::LoadRooms(const std::vector<std::string>& rooms) {
  std::vector<Unfinished> out;
  if (rooms.empty()) return out;
  ReadSnapshot read(*this);
  if (Status st = read.Begin(); !st.ok()) return st;
  Outcome ids = Run("unfinished_in_rooms", Params().Text(pg::TextArray(rooms)),
                    "listing unfinished games");
  if (!ids.ok()) return ids.status;
  for (int i = 0; i < ids.rows(); ++i) {
    Unfinished u;
    auto record = LoadGameLocked(ids.Text(i, 0), &u.room);
    if (!record.ok()) return record.status();
    if (!record.value().has_value()) continue;  // cannot happen inside one snapshot
    u.record = std::move(*record.value());
    room_of_[u.record.game_id()] = u.room.room_id;
    out.push_back(std::move(u));
  }
  return out;
}

}  // namespace plateau::server
