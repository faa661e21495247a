// The lobby's frame: construction and shutdown, the connections it knows, the limits every
// request is charged against, and the routing of each client request to its handler or room.
#include "server/lobby/lobby.h"

#include <boost/asio/post.hpp>

#include "server/error_codes.h"
#include "server/log_throttle.h"

namespace plateau::server {
namespace {

// A code that turned out right: the wrong-code tokens it took, the connection's and its
// address's, are given back.
void ReturnWrongCode(ConnectionQuota& quota) {
  quota.wrong_codes.Return();
  if (quota.address) {
    std::lock_guard lock(quota.address->mu);
    quota.address->wrong_codes.Return();
  }
}

namespace v1 = plateau::v1;

std::string ToUpper(std::string s) {
  for (char& c : s) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return s;
}

}  // namespace

Lobby::Lobby(boost::asio::any_io_executor executor, Store& store, StorageExecutor& storage,
             Replays* replays, std::chrono::milliseconds empty_room_grace, ClientLimits limits,
             Metrics* metrics)
    : executor_(std::move(executor)),
      store_(store),
      storage_(storage),
      replays_(replays),
      empty_room_grace_(empty_room_grace),
      limits_(limits),
      metrics_(metrics),
      addresses_(limits_),
      flush_timer_(executor_),
      takeover_timer_(executor_) {}

Lobby::~Lobby() {
  // The I/O threads have stopped: a room still waiting on the store would keep, in the requests it
  // holds back, references to itself and to connections that nothing else will ever release.
  bot_pool_.join();
  for (auto& [id, room] : rooms_) room->DropPending();
}

void Lobby::Think(std::function<void()> job) { boost::asio::post(bot_pool_, std::move(job)); }

std::shared_ptr<AddressQuota> Lobby::AdmitAddress(const std::string& address) {
  return addresses_.Admit(address, LimitClock::now());
}

void Lobby::OnOpen(const ConnectionPtr& conn) {
  ConnectionQuota& quota = conn->quota;
  quota.requests = TokenBucket(limits_.requests_per_second, 2 * limits_.requests_per_second);
  quota.chat = TokenBucket(limits_.chat_per_second, 5);
  quota.wrong_codes = TokenBucket(limits_.wrong_codes_per_connection / 60.0,
                                  limits_.wrong_codes_per_connection);
  {
    std::lock_guard lock(mu_);
    connections_[conn.get()] = conn;
    if (!closing_all_) return;
  }
  conn->Close(/*graceful=*/true);  // opened while the server shuts down, after CloseAll
}

void Lobby::OnClosed(const ConnectionPtr& conn) {
  std::vector<std::shared_ptr<Room>> rooms;
  {
    std::lock_guard lock(mu_);
    connections_.erase(conn.get());
    watchers_.erase(conn.get());
    if (conn->player) {
      auto mine = player_connections_.find(conn->player->player_id);
      if (mine != player_connections_.end()) {
        mine->second.erase(conn.get());
        if (mine->second.empty()) player_connections_.erase(mine);
      }
      auto it = memberships_.find(conn->player->player_id);
      if (it != memberships_.end()) {
        for (const auto& room_id : it->second) {
          auto r = rooms_.find(room_id);
          if (r != rooms_.end()) rooms.push_back(r->second);
        }
      }
    }
  }
  for (auto& room : rooms) room->Detach(conn->player, conn);
  // The token was in use until now. Not while stopping: the storage thread may be gone.
  if (conn->player && !stopping_.load()) NoteTokenUse(conn->player->player_id);
}

void Lobby::StopTakingRequests() { stopping_ = true; }

std::shared_ptr<void> Lobby::HoldRequest() {
  requests_in_flight_->fetch_add(1);
  return std::shared_ptr<void>(nullptr,
                               [count = requests_in_flight_](void*) { count->fetch_sub(1); });
}

void Lobby::AnswerAfterStore(const ConnectionPtr& conn, StorageExecutor::Work work,
                             std::function<void(Status)> answer, StorageExecutor::Kind kind) {
  conn->PauseReading();
  storage_.Submit(
      std::move(work),
      [conn, answer = std::move(answer), ticket = HoldRequest()](Status status) mutable {
        conn->Dispatch([conn, answer = std::move(answer), ticket = std::move(ticket), status] {
          conn->ResumeReading();
          answer(status);
        });
      },
      kind);
}

void Lobby::CloseAll() {
  stopping_ = true;
  std::vector<ConnectionPtr> conns;
  std::vector<std::shared_ptr<Room>> rooms;
  std::vector<std::string> in_use;
  {
    std::lock_guard lock(mu_);
    closing_all_ = true;
    for (const auto& [player_id, mine] : player_connections_) in_use.push_back(player_id);
    for (auto& [ptr, weak] : connections_) {
      if (auto c = weak.lock()) conns.push_back(std::move(c));
    }
    for (auto& [id, room] : rooms_) rooms.push_back(room);
  }
  {
    std::lock_guard lock(mu_);
    watchers_.clear();
    flush_scheduled_ = true;  // no more pushes
    flush_timer_.cancel();
  }
  boost::asio::post(executor_, [this] { takeover_timer_.cancel(); });
  // Their closes are not noted (see OnClosed): the tokens were in use until now. The storage
  // thread runs what is queued before it stops.
  for (const auto& player_id : in_use) NoteTokenUse(player_id);
  for (auto& room : rooms) room->DetachAll();
  for (auto& c : conns) c->Close(/*graceful=*/true);
}

size_t Lobby::QueuedBytes() {
  std::lock_guard lock(mu_);
  size_t total = 0;
  for (const auto& [ptr, weak] : connections_) {
    if (auto c = weak.lock()) total += c->QueuedBytes();
  }
  return total;
}

size_t Lobby::ConnectionCount() {
  std::lock_guard lock(mu_);
  return connections_.size();
}

std::vector<size_t> Lobby::ConnectionsPerShard() {
  std::vector<size_t> counts(shards_.size(), 0);
  std::lock_guard lock(mu_);
  for (const auto& [ptr, weak] : connections_) {
    if (ptr->shard < counts.size()) ++counts[ptr->shard];
  }
  return counts;
}

// ---------------------------------------------------------------------------------------------

void Lobby::OnMessage(const ConnectionPtr& conn, std::string_view frame) {
  v1::ClientMessage message;
  if (!message.ParseFromArray(frame.data(), static_cast<int>(frame.size()))) {
    conn->Send(EncodeError(0, engine::codes::kMalformed, "The message could not be decoded as a ClientMessage."));
    return;
  }
  const uint64_t id = message.request_id();
  // Counted before the check: once shutdown has set stopping_, it sees every request that got
  // past it (see Quiet), so a request accepted meanwhile is answered before the close.
  std::shared_ptr<void> ticket = HoldRequest();
  if (stopping_.load()) {
    conn->Send(EncodeError(id, codes::kShuttingDown,
                           "The server is restarting; reconnect in a moment."));
    return;
  }
  if (metrics_) metrics_->requests.Inc();
  if (!AdmitRequest(conn, id)) return;
  if (message.body_case() == v1::ClientMessage::kHello) {
    HandleHello(conn, id, message.hello());
    return;
  }
  if (!conn->player) {
    conn->Send(EncodeError(id, codes::kHelloRequired, "Say Hello first."));
    return;
  }
  const PlayerPtr& player = conn->player;
  if (player->revoked->load()) {
    RefuseRevoked(conn, id);
    return;
  }
  if (const int64_t now = NowUnixMs(); now - conn->token_noted_unix_ms >= kTokenNoteIntervalMs) {
    conn->token_noted_unix_ms = now;
    NoteTokenUse(player->player_id);
  }
  bool has_code = false;
  switch (message.body_case()) {
    case v1::ClientMessage::kPing: {
      v1::ServerMessage m;
      m.set_request_id(id);
      m.mutable_pong();
      conn->Send(Encode(m));
      return;
    }
    case v1::ClientMessage::kListGames:
      HandleListGames(conn, id);
      return;
    case v1::ClientMessage::kListRooms:
      HandleListRooms(conn, id, message.list_rooms());
      return;
    case v1::ClientMessage::kCreateRoom:
      HandleCreateRoom(conn, id, message.create_room());
      return;
    case v1::ClientMessage::kJoinRoom:
      if (auto room = RouteToRoom(conn, id, message.join_room().room_id(),
                                  message.join_room().join_code(), &has_code)) {
        room->Join(conn, player, id, has_code);
      }
      return;
    case v1::ClientMessage::kSpectate: {
      const auto& spectate = message.spectate();
      // The join code when it comes, else the watch code: one code per request is looked up.
      const bool by_watch_code = spectate.join_code().empty() && !spectate.watch_code().empty();
      if (auto room = RouteToRoom(conn, id, spectate.room_id(),
                                  by_watch_code ? spectate.watch_code() : spectate.join_code(),
                                  &has_code, by_watch_code ? CodeKind::kWatch : CodeKind::kJoin)) {
        room->Spectate(conn, player, id, has_code && !by_watch_code, has_code && by_watch_code);
      }
      return;
    }
    case v1::ClientMessage::kLeaveRoom:
      if (message.leave_room().room_id() == conn->action_room_id) {
        conn->action_room_id.clear();
        conn->action_room.reset();
      }
      if (auto room = RouteToRoom(conn, id, message.leave_room().room_id(), "", &has_code)) {
        room->Leave(conn, player, id, message.leave_room().mode());
      }
      return;
    case v1::ClientMessage::kSetReady:
      if (auto room = RouteToRoom(conn, id, message.set_ready().room_id(), "", &has_code)) {
        room->SetReady(conn, player, id, message.set_ready().ready());
      }
      return;
    case v1::ClientMessage::kPeekRoom:
      if (auto room = RouteToRoom(conn, id, message.peek_room().room_id(),
                                  message.peek_room().join_code(), &has_code)) {
        room->Peek(conn, player, id, has_code);
      }
      return;
    case v1::ClientMessage::kRematch:
      if (auto room = RouteToRoom(conn, id, message.rematch().room_id(), "", &has_code)) {
        room->Rematch(conn, player, id, message.rematch().accept(),
                      message.rematch().without_absent());
      }
      return;
    case v1::ClientMessage::kRename:
      HandleRename(conn, id, message.rename());
      return;
    case v1::ClientMessage::kSignOutEverywhere:
      HandleSignOutEverywhere(conn, id);
      return;
    case v1::ClientMessage::kReplaceSeat:
      if (auto room = RouteToRoom(conn, id, message.replace_seat().room_id(), "", &has_code)) {
        room->ReplaceSeat(conn, player, id, message.replace_seat().seat(),
                          message.replace_seat().kind());
      }
      return;
    case v1::ClientMessage::kTakeBackSeat:
      if (auto room = RouteToRoom(conn, id, message.take_back_seat().room_id(), "", &has_code)) {
        room->TakeBackSeat(conn, player, id);
      }
      return;
    case v1::ClientMessage::kUndoMove:
      if (auto room = RouteToRoom(conn, id, message.undo_move().room_id(), "", &has_code)) {
        room->UndoMove(conn, player, id);
      }
      return;
    case v1::ClientMessage::kAddBot:
      if (auto room = RouteToRoom(conn, id, message.add_bot().room_id(), "", &has_code)) {
        room->AddBot(conn, player, id, message.add_bot().seat(), message.add_bot().level());
      }
      return;
    case v1::ClientMessage::kRemoveBot:
      if (auto room = RouteToRoom(conn, id, message.remove_bot().room_id(), "", &has_code)) {
        room->RemoveBot(conn, player, id, message.remove_bot().seat());
      }
      return;
    case v1::ClientMessage::kStartGame:
      if (auto room = RouteToRoom(conn, id, message.start_game().room_id(), "", &has_code)) {
        room->Start(conn, player, id);
      }
      return;
    case v1::ClientMessage::kChat:
      if (!conn->quota.chat.Take(LimitClock::now())) {
        RefuseForLimit(conn, id, codes::kChatRateLimited,
                       "You are sending chat messages too fast; wait a moment.");
        return;
      }
      if (auto room = RouteToRoom(conn, id, message.chat().room_id(), "", &has_code)) {
        room->Chat(conn, player, id, message.chat().text());
      }
      return;
    case v1::ClientMessage::kAction: {
      // Routed through the connection's last room when it is the one named (see
      // Connection::action_room): on every action, the lookups below take the lobby's lock and
      // compare ids through three maps. The room checks membership and seat itself.
      const std::string& room_id = message.action().room_id();
      std::shared_ptr<Room> room;
      if (!room_id.empty() && room_id == conn->action_room_id) room = conn->action_room.lock();
      if (!room) {
        // Dropped first: the weak pointer would keep a dead room's memory (one block with its
        // count) until the connection acts elsewhere.
        conn->action_room_id.clear();
        conn->action_room.reset();
        room = RouteToRoom(conn, id, room_id, "", &has_code);
        if (!room) return;
        conn->action_room_id = room_id;
        conn->action_room = room;
      }
      room->SubmitAction(conn, player, id, message.action().action(), std::move(ticket));
      return;
    }
    case v1::ClientMessage::kResync:
      if (auto room = RouteToRoom(conn, id, message.resync().room_id(), "", &has_code)) {
        room->Resync(conn, player, id, message.resync().have_version());
      }
      return;
    case v1::ClientMessage::kListReplays:
    case v1::ClientMessage::kGetReplay:
    case v1::ClientMessage::kExportReplay:
      HandleReplays(conn, message);
      return;
    case v1::ClientMessage::kHello:
    case v1::ClientMessage::BODY_NOT_SET:
      break;
  }
  conn->Send(EncodeError(id, engine::codes::kMalformed, "The message has no request this server knows."));
}

bool Lobby::AdmitRequest(const ConnectionPtr& conn, uint64_t request_id) {
  const auto now = LimitClock::now();
  ConnectionQuota& quota = conn->quota;
  bool ok = quota.requests.Take(now);
  if (ok && quota.address && quota.address->limited) {
    std::lock_guard lock(quota.address->mu);
    ok = quota.address->requests.Take(now);
  }
  if (ok) return true;
  if (now - quota.window_start > ClientLimits::kAbuseWindow) {
    quota.window_start = now;
    quota.refusals = 0;
  }
  if (limits_.refusals_before_disconnect > 0 &&
      ++quota.refusals >= limits_.refusals_before_disconnect) {
    if (quota.refusals > limits_.refusals_before_disconnect) return false;  // already cut
    ClientLog(spdlog::level::warn, "closing connection from {}: {} requests refused for rate in {} s",
              conn->remote_address, quota.refusals, ClientLimits::kAbuseWindow.count());
    if (metrics_) metrics_->connections_dropped.Inc("request_flood");
    conn->Close(/*graceful=*/false);
    return false;
  }
  RefuseForLimit(conn, request_id, codes::kRateLimited,
                 "Too many requests: at most " +
                     std::to_string(static_cast<int>(limits_.requests_per_second)) +
                     " a second per connection. Slow down.");
  return false;
}

void Lobby::RefuseForLimit(const ConnectionPtr& conn, uint64_t request_id, const char* code,
                           const std::string& reason) {
  if (metrics_) metrics_->limits_hit.Inc(code);
  conn->Send(EncodeError(request_id, code, reason));
}

std::shared_ptr<Room> Lobby::RouteToRoom(const ConnectionPtr& conn, uint64_t request_id,
                                         const std::string& room_id, const std::string& code,
                                         bool* has_code, CodeKind kind) {
  *has_code = false;
  std::shared_ptr<Room> room;
  if (!room_id.empty() && code.empty() && conn->player) {
    // A member going back to its room (another tab, a reconnection) needs no code. One that
    // brings a code has it checked below: a spectator may be showing the join code to sit.
    std::lock_guard lock(mu_);
    auto rooms = memberships_.find(conn->player->player_id);
    if (rooms != memberships_.end() && rooms->second.count(room_id) != 0) {
      auto it = rooms_.find(room_id);
      if (it != rooms_.end()) return it->second;
    }
  }
  bool wrong_code = false;
  bool elsewhere = false;  // perhaps another node's room: its code is checked there
  {
    std::lock_guard lock(mu_);
    std::string id = room_id;
    elsewhere = linked_ && !id.empty() && rooms_.count(id) == 0;
    if (!code.empty() && !elsewhere) {
      const auto& codes = kind == CodeKind::kWatch ? room_by_watch_code_ : room_by_code_;
      auto found = codes.find(ToUpper(code));
      // A code naming another room than the id given is as good as a wrong code.
      if (found != codes.end() && (id.empty() || id == found->second)) {
        id = found->second;
        *has_code = true;
      } else {
        id.clear();
        wrong_code = true;
      }
    }
    auto it = rooms_.find(id);
    if (it != rooms_.end()) room = it->second;
  }
  // A room id with that room's code is an invitation, not a guess: it costs nothing and is never
  // locked out. Any other code (a wrong one, or a code alone, which looks a room up) costs a
  // token of the connection and one of its address (each taken under its own lock, so
  // connections racing on an address cannot all spend its last one), given back when the code
  // was right. Locked out, those are all refused, right or wrong: a lookup learns nothing and a
  // wrong code never gets through. Only someone holding a private room's id, 64 random bits
  // given to its members along with a code, could tell a right code from a wrong one there.
  if (!code.empty() && (room_id.empty() || wrong_code)) {
    const auto now = LimitClock::now();
    ConnectionQuota& quota = conn->quota;
    double wait = 0;
    const bool took_own = quota.wrong_codes.Take(now);
    if (!took_own) wait = quota.wrong_codes.SecondsUntilToken(now);
    bool took_address = false;
    if (quota.address && took_own) {
      std::lock_guard lock(quota.address->mu);
      took_address = quota.address->wrong_codes.Take(now);
      if (!took_address) wait = quota.address->wrong_codes.SecondsUntilToken(now);
    }
    if (!took_own || (quota.address && !took_address)) {
      if (took_own) quota.wrong_codes.Return();
      *has_code = false;
      RefuseForLimit(conn, request_id, codes::kCodeLockout,
                     "Too many wrong room codes; try again in " +
                         std::to_string(static_cast<int>(wait) + 1) + " s.");
      return nullptr;
    }
    if (!wrong_code) ReturnWrongCode(quota);
  }
  if (elsewhere) {
    // Perhaps another node's: the client is told to come back naming it (wsUrl does), and its
    // connection is then carried there. The connection reads nothing more until it knows.
    conn->PauseReading();
    FindOwner(room_id, [conn, request_id, ticket = HoldRequest()](Store::RoomOwner owner) {
      // Known but run by nobody alive: between a dead owner and the next, found on retrying.
      conn->Dispatch([conn, request_id, elsewhere = owner.known] {
        conn->ResumeReading();
        conn->Send(elsewhere ? EncodeError(request_id, codes::kRoomMoved,
                                           "This room runs on another node; reconnect to reach it.")
                             : EncodeError(request_id, codes::kRoomNotFound, "There is no such room."));
      });
    });
  } else if (!room && linked_ && room_id.empty() && wrong_code) {
    // A code alone that no room here has may be another node's room's. Found there, it was no
    // wrong code (its tokens are given back) and the client is told which room to reconnect
    // naming; the code itself is checked again by that room's node.
    // The address's wrong codes are counted over every node too: a guesser spreading his tries
    // over the nodes is locked out as on one.
    auto found = std::make_shared<Store::CodeLookup>();
    // Counted as the address's own bucket is: whenever the address is (loopback too).
    const bool counted = conn->quota.address != nullptr;
    AnswerAfterStore(
        conn,
        [code = ToUpper(code), watch = kind == CodeKind::kWatch, found,
         address = counted ? conn->remote_address : std::string(),
         max_misses = limits_.wrong_codes_per_ip](Store& store) {
          auto r = store.LookUpCode(code, watch, address, max_misses,
                                    ClientLimits::kWrongCodesWindow);
          if (!r.ok()) return r.status();
          *found = std::move(r.value());
          return Status::Ok();
        },
        [this, conn, request_id, found](Status st) {
          if (st.ok() && found->locked_for.count() > 0) {
            const auto seconds = found->locked_for.count() / 1000 + 1;
            return RefuseForLimit(conn, request_id, codes::kCodeLockout,
                                  "Too many wrong room codes; try again in " +
                                      std::to_string(seconds) + " s.");
          }
          if (!st.ok() || found->room_id.empty()) {
            conn->Send(EncodeError(request_id, codes::kRoomNotFound, "There is no such room."));
            return;
          }
          ReturnWrongCode(conn->quota);
          v1::ServerMessage m;
          m.set_request_id(request_id);
          m.mutable_error()->set_code(codes::kRoomMoved);
          m.mutable_error()->set_reason("This room runs on another node; reconnect to reach it.");
          m.mutable_error()->set_room_id(found->room_id);
          conn->Send(Encode(m));
        },
        StorageExecutor::Kind::kRead);
  } else if (!room) {
    conn->Send(EncodeError(request_id, codes::kRoomNotFound, "There is no such room."));
  }
  return room;
}

}  // namespace plateau::server
