#pragma once
// The Store on PostgreSQL (schema: schema/postgres/*.sql, applied at Open()), for several nodes
// on one database (docs/multinode.md). The same promises as SqliteStore: an accepted call is
// durable when it returns outside a batch, or when its batch commits.
//
// A batch is one transaction sent in libpq's pipeline mode: BEGIN, the appends and COMMIT go
// out together and their results come back together, one round trip. What an append may be
// refused for (its index, its game's status) is known in memory from this store's own writes,
// so a refused append sends nothing and the others go on. A call that must read first (an
// append to a game this store has not seen, the rarer calls) sends what is queued, then runs on
// its own inside a savepoint: refused, it undoes only itself. A statement that fails in the
// pipeline (what memory did not foresee: another writer) aborts the transaction, and the whole
// batch is reported failed by CommitBatch.
//
// Rooms are owned (docs/multinode.md, section 2): a game is begun, or restored by LoadUnfinished,
// only in a room this node claims in room_owners (free, expired, or already its own; each claim
// raises the room's epoch), and every write to a game's log carries the room's epoch, checked
// in the same statement, inside a transaction that holds the node's fence lock (hold_node), which
// a takeover's claim waits for. Refused by that fence, a pipelined append
// is no error: the batch goes on and that call's outcome (CallOutcome) is lease_lost. Leases are
// renewed by RenewLeases; once it has been called, a store that could not renew for a lease
// (less a fifth) on its own monotonic clock refuses appends itself, sending nothing.
//
// Thread safety: one connection guarded by one mutex, as SqliteStore.
#include <libpq-fe.h>

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "server/storage/pg_util.h"
#include "server/storage/store_rules.h"
#include "server/store.h"

namespace plateau::server {

class PgStore : public Store {
 public:
  // ListFinished returns at most this many summaries whatever the limit asked for (as SQLite's).
  static constexpr uint32_t kMaxListLimit = 500;

  struct Options {
    // This node's name in room_owners and nodes: kept across restarts, a restarted node takes
    // its rooms back at once. Empty: "node".
    std::string node;
    std::string address;  // where other nodes reach it (host:port), for the links between nodes
    std::chrono::milliseconds lease{10000};
  };
  // Connects with a libpq connection string and applies pending migrations.
  static StatusOr<std::unique_ptr<PgStore>> Open(const std::string& conninfo, Options options);
  static StatusOr<std::unique_ptr<PgStore>> Open(const std::string& conninfo);
  ~PgStore() override;

  PgStore(const PgStore&) = delete;
  PgStore& operator=(const PgStore&) = delete;

  // Each as SqliteStore's, with the same refusals.
  Status SavePlayer(const std::string& token, const StoredPlayer& player) override;
  StatusOr<std::optional<StoredPlayer>> FindPlayer(const std::string& token) override;
  Status TouchPlayer(const std::string& player_id, int64_t at_unix_ms) override;
  Status ReplaceToken(const std::string& old_token, const std::string& new_token,
                      int64_t at_unix_ms) override;
  Status BeginGame(const plateau::v1::GameRecord& record, const RoomRecord& room) override;
  Status AppendAction(const std::string& game_id, uint32_t index,
                      const plateau::v1::ReplayAction& action) override;
  Status TakeBackAction(const std::string& game_id, uint32_t index, int64_t at_unix_ms) override;
  Status SetStandIn(const std::string& game_id, int seat, int level) override;
  Status SetLeft(const std::string& game_id, int seat, bool left) override;
  Status RecordResume(const std::string& game_id, int64_t at_unix_ms, int64_t grace_ms) override;
  Status FinishGame(const std::string& game_id,
                    const std::vector<plateau::v1::SeatResult>& results,
                    int64_t finished_unix_ms) override;
  StatusOr<std::optional<plateau::v1::GameRecord>> LoadGame(const std::string& game_id) override;
  StatusOr<std::optional<GameAccess>> LoadGameAccess(const std::string& game_id) override;
  StatusOr<std::vector<plateau::v1::ReplaySummary>> ListFinished(
      const std::string& game, uint32_t limit, const std::string& before_game_id,
      const std::string& viewer_player_id) override;
  StatusOr<std::vector<Unfinished>> LoadUnfinished() override;
  // Rooms of nodes whose lease ran out: this node claims those a stable hash of the room's id
  // gives to its rank among the nodes alive, and any left expired for more than a lease.
  StatusOr<std::vector<Unfinished>> TakeOver() override;
  Status HandOver() override;
  Status ClaimRoom(const std::string& room_id, const RoomClaim& claim) override;
  // A room of this node's with nothing noted (a tool, a test).
  Status ClaimRoom(const std::string& room_id) { return ClaimRoom(room_id, RoomClaim()); }
  StatusOr<CodeLookup> LookUpCode(const std::string& code, bool watch, const std::string& address,
                                  int max_misses, std::chrono::milliseconds window) override;
  Status SetRoomCreator(const std::string& room_id, const std::string& creator) override;
  Status ReleaseRoom(const std::string& room_id) override;
  StatusOr<RoomOwner> FindOwner(const std::string& room_id) override;
  StatusOr<std::vector<std::string>> PlayerRoomsElsewhere(const std::string& player_id) override;

  Status BeginBatch() override;
  Status CommitBatch() override;
  void RollbackBatch() override;
  bool BatchOpen() override;
  void StartCall(size_t call) override;
  Status CallOutcome(size_t call) override;
  Status RenewLeases() override;

  // Parameters of one statement, in text form but for bytes (binary), or NULL.
  class Params {
   public:
    Params& Text(std::string v);
    Params& Int(int64_t v);
    Params& Bytes(std::string v);
    Params& Null();

   private:
    friend class PgStore;
    // Each value's characters, null for NULL (valid while these parameters are).
    std::vector<const char*> Values() const;
    std::vector<std::string> values_;
    std::vector<int> formats_, lengths_;
    std::vector<bool> null_;
  };

 private:
  PgStore(pg::Connection c, Options options);

  // A statement's outcome: its result, or why it failed (with the SQLSTATE and the constraint
  // it broke, which tell the refusals apart).
  struct Outcome {
    pg::Result result;
    Status status;
    std::string sqlstate, constraint;
    bool ok() const { return status.ok(); }
    int rows() const { return result ? PQntuples(result.get()) : 0; }
    int changed() const;
    std::string Text(int row, int col) const;
    int64_t Int(int row, int col) const;
    std::string Bytes(int row, int col) const;
    bool IsNull(int row, int col) const;
    bool Unique() const { return sqlstate == "23505"; }
  };

  // Prepares kStatements on `c` (at Open, and again after a reconnection).
  static Status Prepare(PGconn* c, std::chrono::milliseconds lease);

  // Every helper below expects mu_ to be held.
  // Ok when connected; outside a batch, a lost connection is opened again first.
  Status Connected();
  // Connected, and what the batch queued sent: a synchronous statement may run.
  Status Ready();
  // Runs prepared statement `name` now and reads its result: inside a batch, sent with what the
  // batch has queued (one round trip, the pipeline kept); outside, after sending it.
  Outcome Run(const char* name, const Params& p, const std::string& what);
  // Runs `statements` in order and reads their results: inside a batch, all in one round trip
  // (after a failed one, the rest fail unrun); outside, one after the other, as far as the first
  // failure.
  std::vector<Outcome> RunTogether(
      const std::vector<std::pair<const char*, const Params*>>& statements,
      const std::string& what);
  // A statement whose result is only that it ran: queued inside a batch (settled with the next
  // round trip; should it fail, the batch is lost), run now outside one. For statements that
  // cannot be refused once the call's checks passed.
  Status Write(const char* name, const Params& p, const std::string& what);
  // Runs `sql` with parameters now (statements not worth preparing: the replay list's shapes).
  Outcome RunSql(const std::string& sql, const Params& p, const std::string& what);
  Outcome Finish(PGresult* r, const std::string& what);
  // Queues statement `name` in the batch's pipeline; its result is read at the next Drain.
  // `fenced_game` non-empty: the statement is an append that changes no row when the ownership
  // fence refuses it, which settles the current call as lease_lost.
  Status Queue(const char* name, const Params& p, const std::string& fenced_game = "");
  // Sends one statement with `send` (a PQsend… call) in pipeline mode, entered if need be; the
  // batch is lost if it cannot be.
  template <class SendOne>
  Status Send(const SendOne& send);
  // Queues `sql` (no parameters: BEGIN, COMMIT, a savepoint's statements) in the pipeline.
  Status QueueSql(const char* sql);
  // Sends what is queued and reads its results, leaving pipeline mode; the batch is lost if one
  // failed.
  Status Drain();
  // Sends what is queued with a sync and reads every result: the batch is lost if one of its own
  // failed; the last `n_last` statements queued are the caller's and their outcomes go to
  // `last` (a failure of one is the caller's to undo). Leaves pipeline mode when `leave`.
  Status Sync(Outcome* last, int n_last, const std::string& what, bool leave);
  // Runs `body` in a transaction of its own, or a savepoint inside a batch: committed (or
  // released) when it returns ok, undone otherwise.
  template <class Body>
  Status Atomically(const Body& body);

  // The games this store writes (store_rules::NextIndexes).
  using Known = store_rules::NextIndexes::Known;
  store_rules::NextIndexes known_;
  StatusOr<Known> ReadPlayingGame(const std::string& game_id);

  // Ownership: the rooms this node claimed, with the epoch of its claim, and each game's room.
  const Options options_;
  std::unordered_map<std::string, int64_t> epochs_;
  std::unordered_map<std::string, std::string> room_of_;
  // When the last successful renewal was sent (steady clock); unset until RenewLeases is first
  // called, and then the store fences itself once a lease has passed without one.
  std::optional<std::chrono::steady_clock::time_point> renewed_at_;
  bool handed_over_ = false;  // HandOver was called: nothing is renewed or written any more
  // The room of `game_id` and this node's epoch in it, claimed now if this node never claimed
  // it; refused (lease_lost) when another node holds it or this node's own lease has run out.
  struct Fence {
    std::string room_id;
    int64_t epoch = 0;
  };
  StatusOr<Fence> FenceOf(const std::string& game_id);
  // Claims `room_id` for this node (inside whatever transaction is open): its new epoch, or
  // lease_lost when another node's lease on it holds.
  StatusOr<int64_t> Claim(const std::string& room_id);
  // How claim_room's outcome `o` ended for `room_id`: its epoch, noted, or why not.
  StatusOr<int64_t> Claimed(const std::string& room_id, const Outcome& o);
  // Inside a transaction: the fence holds for `game_id`; the node's lock, taken when the
  // transaction began (HoldNode), keeps any takeover from committing in between.
  Status HoldFence(const std::string& game_id);
  // Takes the node's fence lock (hold_node) in the transaction just begun.
  Status HoldNode();
  // hold_fence's parameters for `fence`, and whether its outcome `o` found the fence holding.
  Params HoldParams(const Fence& fence) const;
  Status Held(const Fence& fence, const Outcome& o) const;
  Status LeaseLost(const std::string& room_id) const;
  // The unfinished games of `rooms` (claimed by this node), in one read-only snapshot.
  StatusOr<std::vector<Unfinished>> LoadRooms(const std::vector<std::string>& rooms);
  // Restores `rooms`, just claimed: their games, or the claims given back on failure.
  StatusOr<std::vector<Unfinished>> AdoptClaimed(const std::vector<std::string>& rooms);
  // Outcomes settled at the commit, by call; the call now running; the pipelined fenced
  // statements whose results are not read yet; the games whose append the fence refused in this
  // batch.
  std::unordered_map<size_t, Status> settled_;
  size_t call_ = 0;
  struct Fenced {
    int position;  // among the results the next Drain reads
    size_t call;
    std::string game_id;
  };
  std::vector<Fenced> fenced_;
  std::vector<std::string> lost_games_;
  Status UpdateSeatInPlay(const char* name, const std::string& game_id, int seat, int value,
                          const std::string& what);
  StatusOr<std::optional<plateau::v1::GameRecord>> LoadGameLocked(const std::string& game_id,
                                                                   RoomRecord* room);
  Status LoadResults(const std::string& game_id,
                     google::protobuf::RepeatedPtrField<plateau::v1::SeatResult>* results);
  // A read-only snapshot for the loads' several statements (none inside a batch).
  class ReadSnapshot;

  std::mutex mu_;
  pg::Connection c_;
  bool in_batch_ = false;
  bool batch_lost_ = false;
  int queued_ = 0;  // statements sent in the pipeline whose results are not read yet
  int savepoints_ = 0;
};

}  // namespace plateau::server
