#include "clients/load/room.h"

#include <algorithm>
#include <boost/asio/post.hpp>
#include <chrono>

#include "engine/core/bot.h"
#include "engine/core/table.h"
#include "engine/core/view_diff.h"
#include "server/error_codes.h"

namespace plateau::load {

namespace asio = boost::asio;
namespace v1 = plateau::v1;

namespace {

// After a refusal a bot picks again at once this many times in a row; then it waits for its view
// to change, or for a back-off (doubling from 20 ms to 1 s) in case it is alone to act.
constexpr int kImmediatePicks = 3;
constexpr std::chrono::milliseconds kFirstBackoff{20};
constexpr std::chrono::milliseconds kMaxBackoff{1000};
// A bot's view arena is copied afresh once it holds this much more than four copies of the view.
constexpr size_t kViewArenaSlack = 16 * 1024;

}  // namespace

// ----- Bot -----

Bot::Bot(Room& room, int index, asio::any_io_executor executor,
         std::optional<asio::ip::address> source, uint64_t seed)
    : WsClient(executor, room.ctx().server, std::move(source)),
      room_(room),
      index_(index),
      rng_(seed),
      retry_(executor) {}

uint64_t Bot::Request(v1::ClientMessage message, Purpose purpose) {
  message.set_request_id((++requests_ << kPurposeBits) | purpose);
  Send(message);
  return message.request_id();
}

void Bot::Succeed(const Bot& lost, Clock::time_point lost_at) {
  token_ = lost.token_;
  joined_ = lost.joined_;
  lost_at_ = lost_at;
}

void Bot::OnOpen() {
  v1::ClientMessage m;
  m.mutable_hello()->set_name("load r" + std::to_string(room_.index()) + " s" +
                              std::to_string(index_));
  m.mutable_hello()->set_protocol_version(1);
  m.mutable_hello()->set_token(token_);  // empty at first: a new player
  Request(std::move(m), kHello);
}

void Bot::CreateRoom() {
  v1::ClientMessage m;
  v1::CreateRoom* create = m.mutable_create_room();
  create->set_game(room_.ctx().game->Info().id);
  create->set_seats(static_cast<uint32_t>(room_.ctx().seats));
  Request(std::move(m), kCreate);
}

void Bot::JoinRoom(const std::string& room_id) {
  joined_ = room_id;
  v1::ClientMessage m;
  m.mutable_join_room()->set_room_id(room_id);
  Request(std::move(m), kJoin);
}

void Bot::SetReady(const std::string& room_id) {
  v1::ClientMessage m;
  m.mutable_set_ready()->set_room_id(room_id);
  m.mutable_set_ready()->set_ready(true);
  Request(std::move(m), kReady);
}

void Bot::StartGame(const std::string& room_id) {
  v1::ClientMessage m;
  m.mutable_start_game()->set_room_id(room_id);
  Request(std::move(m), kStart);
}

void Bot::LeaveFinished(const std::string& room_id) {
  // A finished room stays on the server while a member is connected: leaving lets it go, as a
  // player closing the game would.
  v1::ClientMessage m;
  m.mutable_leave_room()->set_room_id(room_id);
  Request(std::move(m), kLeave);
  joined_.clear();
  has_view_ = false;
  view_room_.clear();
  acting_.clear();
  game_over_ = false;
  resyncing_ = false;
  left_submit_id_ = submit_id_;  // its answer is still counted (OnSubmitReply)
  submit_id_ = 0;
  wait_for_view_ = false;
  refusals_ = 0;
  retry_.cancel();
}

void Bot::Stop() {
  retry_.cancel();
  Close();
}

void Bot::OnClosed(const std::string& error) {
  LoadContext& ctx = room_.ctx();
  ctx.metrics->ConnectionClosed();
  retry_.cancel();
  if (!error.empty() && !ctx.stopping.load()) {
    // Its node stopped or died: another connection takes the seat back (--reconnect).
    if (ctx.reconnect) return room_.Reconnect(*this, lost_at_.value_or(Clock::now()));
    ctx.metrics->ConnectionError(error);
    room_.Fail(error);
  }
}

void Bot::OnMessage(const v1::ServerMessage& message, size_t frame_bytes) {
  if (message.request_id() != 0) {
    OnReply(message);
    // An accepted action's answer is also the mover's Diff.
    if (!message.has_diff()) return;
  }
  if (message.has_diff() || message.has_snapshot()) {
    room_.ctx().metrics->ViewFrame(message.has_diff(), frame_bytes);
  }
  switch (message.body_case()) {
    case v1::ServerMessage::kSnapshot: OnSnapshot(message.snapshot()); break;
    case v1::ServerMessage::kDiff: OnDiff(message.diff()); break;
    case v1::ServerMessage::kGameOver: room_.GameOver(message.game_over().room_id()); break;
    default: break;  // room updates and chat change nothing a bot acts on
  }
}

void Bot::OnReply(const v1::ServerMessage& message) {
  const auto purpose =
      static_cast<Purpose>(message.request_id() & ((uint64_t{1} << kPurposeBits) - 1));
  if (purpose == kSubmit) return OnSubmitReply(message);
  Metrics& metrics = *room_.ctx().metrics;
  if (message.has_error()) {
    const v1::Error& error = message.error();
    if (purpose == kLeave) return;  // the finished room may be gone already
    metrics.LobbyError(error.code());
    if (purpose == kResync) {
      resyncing_ = false;
      return;
    }
    // Taking a seat back after a lost connection, joining a room another node runs, or any
    // request to a node that is stopping: the room may be between nodes for a moment, so
    // another connection tries again.
    namespace sc = plateau::server::codes;
    if (room_.ctx().reconnect &&
        (lost_at_ || error.code() == sc::kShuttingDown ||
         (purpose == kJoin && error.code() == sc::kRoomMoved))) {
      room_.Reconnect(*this, lost_at_.value_or(Clock::now()));
      return Stop();
    }
    return room_.Fail("request refused: " + error.code() + ": " + error.reason());
  }
  switch (purpose) {
    case kHello:
      welcomed_ = true;
      token_ = message.welcome().token();
      if (lost_at_ && !joined_.empty()) {
        // Its seat back: the room again (as a member), then the view from scratch.
        v1::ClientMessage m;
        m.mutable_join_room()->set_room_id(joined_);
        Request(std::move(m), kRejoin);
        break;
      }
      if (lost_at_) {
        room_.ctx().metrics->Reconnected(Clock::now() - *lost_at_);
        lost_at_.reset();
      }
      room_.Welcomed(*this);
      break;
    case kRejoin:
      // Back in a room whose game has not begun: ready again, as at the first join.
      if (message.has_room() && message.room().status() == v1::ROOM_STATUS_WAITING) {
        if (lost_at_) room_.ctx().metrics->Reconnected(Clock::now() - *lost_at_);
        lost_at_.reset();
        room_.Joined(*this, message.room().room_id());
        break;
      }
      view_room_ = joined_;
      has_view_ = false;
      RequestResync(0);
      break;
    case kCreate:
      if (message.has_room()) {
        joined_ = message.room().room_id();
        room_.Created(joined_);
      }
      break;
    case kJoin:
      if (message.has_room()) room_.Joined(*this, message.room().room_id());
      break;
    case kReady:
      room_.Ready(*this);
      break;
    case kStart:
      room_.Started();
      break;
    case kResync:
      // The missed diffs (or a snapshot) came before this reply.
      resyncing_ = false;
      MaybeAct();
      break;
    default:
      break;
  }
}

void Bot::OnSubmitReply(const v1::ServerMessage& message) {
  const bool current = message.request_id() == submit_id_;
  if (!current && message.request_id() != left_submit_id_) return;
  Metrics& metrics = *room_.ctx().metrics;
  const std::string code = message.has_accepted() ? ""
                           : message.has_error()  ? message.error().code()
                                                  : "no_result";
  if (code.empty()) metrics.Accepted(Clock::now() - submitted_at_);
  else metrics.Refused(code);
  if (!current) {
    // The game ended before its answer came: counted all the same, and nothing else to do.
    left_submit_id_ = 0;
    return;
  }
  submit_id_ = 0;
  if (code.empty()) {
    refusals_ = 0;
    // Its effect arrives as the next diff: acting before it would act on a stale view.
    wait_for_view_ = true;
    return;
  }
  // A move the rules refused gives its slot back (the rate asked is of accepted actions); the
  // server turning the request away (slow down, try again, no game) does not: retrying at once
  // would press hardest on a server asking for less.
  namespace sc = plateau::server::codes;
  if (code != sc::kRateLimited && code != sc::kStorageError && code != sc::kShuttingDown &&
      code != sc::kRoomMoved &&
      code != sc::kGameNotRunning && code != sc::kRoomNotFound && code != sc::kNotSeated &&
      code != "no_result") {
    room_.ReturnSlot();
  }
  if (++refusals_ < kImmediatePicks) return MaybeAct();  // another random pick
  wait_for_view_ = true;
  RetryLater();
}

void Bot::RetryLater() {
  const int doublings = std::min(refusals_ - kImmediatePicks, 6);
  retry_.expires_after(std::min<Clock::duration>(kFirstBackoff * (1 << doublings), kMaxBackoff));
  retry_.async_wait([this](const boost::system::error_code& ec) {
    if (ec) return;  // cancelled: the view changed, or the bot stopped
    wait_for_view_ = false;
    MaybeAct();
  });
}

void Bot::OnSnapshot(const v1::Snapshot& snapshot) {
  if (snapshot.room_id() != room_.room_id()) return;  // a game this bot has left
  NewViewArena(false);  // what an earlier view left on its arena goes with it
  if (snapshot.view_type() != view_->GetTypeName() || !view_->ParseFromString(snapshot.view())) {
    has_view_ = false;
    return room_.Fail("a snapshot whose view is not a " + view_->GetTypeName());
  }
  view_arena_base_ = view_arena_->SpaceUsed();
  has_view_ = true;
  if (lost_at_) {
    room_.ctx().metrics->Reconnected(Clock::now() - *lost_at_);
    lost_at_.reset();
  }
  view_room_ = snapshot.room_id();
  version_ = snapshot.version();
  seat_ = snapshot.seat();
  acting_.assign(snapshot.acting_seats().begin(), snapshot.acting_seats().end());
  game_over_ = snapshot.game_over();
  // Over while this seat was away: its GameOver went to the lost connection.
  if (game_over_) return room_.GameOver(snapshot.room_id());
  ViewChanged();
}

void Bot::OnDiff(const v1::Diff& diff) {
  if (!has_view_ || diff.room_id() != view_room_) return;
  const uint64_t from = diff.diff().from_version();
  if (from < version_) return;  // already applied (a resync may send it again)
  if (from > version_) return RequestResync(version_);  // some were missed
  if (!engine::ApplyDiff(diff.diff().ops(), view_).ok()) {
    // Ops before the bad one stay applied: only a fresh snapshot can be trusted now.
    has_view_ = false;
    return RequestResync(0);
  }
  version_ = diff.diff().to_version();
  // Past a few views' worth of dropped messages, the view moves to a fresh arena.
  if (view_arena_->SpaceUsed() > 4 * view_arena_base_ + kViewArenaSlack) NewViewArena(true);
  acting_.assign(diff.acting_seats().begin(), diff.acting_seats().end());
  game_over_ = diff.game_over();
  ViewChanged();
}

void Bot::NewViewArena(bool copy) {
  auto arena = std::make_unique<google::protobuf::Arena>();
  google::protobuf::Message* view = room_.ctx().game->ViewPrototype().New(arena.get());
  if (copy && view_ != nullptr) view->CopyFrom(*view_);
  view_ = view;
  view_arena_ = std::move(arena);  // the old view goes with its arena
  view_arena_base_ = view_arena_->SpaceUsed();
}

void Bot::ViewChanged() {
  wait_for_view_ = false;
  refusals_ = 0;
  retry_.cancel();
  MaybeAct();
}

void Bot::RequestResync(uint64_t have_version) {
  if (resyncing_) return;
  resyncing_ = true;
  room_.ctx().metrics->Resynced();
  v1::ClientMessage m;
  m.mutable_resync()->set_room_id(view_room_);
  m.mutable_resync()->set_have_version(have_version);
  Request(std::move(m), kResync);
}

void Bot::MaybeAct() {
  if (!is_open() || room_.ctx().stopping.load(std::memory_order_relaxed) || !has_view_ ||
      view_room_ != room_.room_id() || game_over_ || resyncing_ || submit_id_ != 0 ||
      wait_for_view_) {
    return;
  }
  if (std::find(acting_.begin(), acting_.end(), seat_) == acting_.end()) return;
  std::unique_ptr<google::protobuf::Message> action = Choose();
  if (!action) return;  // nothing this view offers: the next diff may
  if (!room_.TakeSlot(*this)) return;
  v1::ClientMessage m;
  v1::SubmitAction* submit = m.mutable_action();
  submit->set_room_id(view_room_);
  submit->set_action(action->SerializeAsString());
  submit->set_view_version(version_);
  submitted_at_ = Clock::now();
  submit_id_ = Request(std::move(m), kSubmit);
}

std::unique_ptr<google::protobuf::Message> Bot::Choose() {
  auto moves = engine::BotMoves(*room_.ctx().game, *view_, seat_, engine::BotLevel::kEasy, rng_);
  if (moves.empty()) return nullptr;
  return std::move(moves[0]);
}

// ----- Room -----

Room::Room(LoadContext& ctx, int index, asio::io_context& ioc, uint64_t seed)
    : ctx_(ctx),
      index_(index),
      strand_(asio::make_strand(ioc)),
      rng_(seed),
      pace_(strand_, ctx_.rooms, ctx_.rate) {
  const int first = index * ctx_.seats;
  for (int i = 0; i < ctx_.seats; ++i) {
    bots_.push_back(std::make_unique<Bot>(
        *this, i, strand_, SourceAddress(ctx_.server, ctx_.rooms * ctx_.seats, first + i),
        rng_()));
  }
}

void Room::Start() {
  // The host first; the guests once its room exists, naming it (`/ws?room=ID`) so that the
  // server seats their connections on the room's shard, as a player opening a room's link does.
  asio::post(strand_, [this] {
    if (stopped_) return;
    ctx_.metrics->ConnectionOpened();
    bots_.front()->Connect();
  });
}

void Room::Stop() {
  asio::post(strand_, [this] {
    stopped_ = true;
    pace_.Stop();
    for (auto& bot : bots_) bot->Stop();
  });
}

void Room::Welcomed(Bot& bot) {
  if (failed_ || stopped_) return;
  if (&bot == bots_.front().get()) {
    if (room_id_.empty() && !creating_) {
      creating_ = true;
      bot.CreateRoom();
    }
    return;
  }
  // A guest welcomed after the room was created joins now; the others joined in Created.
  if (!room_id_.empty() && bot.joined() != room_id_) bot.JoinRoom(room_id_);
}

void Room::Created(const std::string& room_id) {
  creating_ = false;
  if (failed_ || stopped_) return;
  room_id_ = room_id;
  ready_.clear();
  bots_.front()->SetReady(room_id_);
  for (size_t i = 1; i < bots_.size(); ++i) {
    if (bots_[i]->welcomed()) {
      bots_[i]->JoinRoom(room_id_);
    } else if (!bots_[i]->connecting()) {
      ctx_.metrics->ConnectionOpened();
      bots_[i]->Connect("/ws?room=" + room_id_);
    }
  }
}

void Room::Joined(Bot& bot, const std::string& room_id) {
  if (failed_ || stopped_ || room_id != room_id_) return;
  bot.SetReady(room_id_);
}

void Room::Ready(Bot& bot) {
  if (failed_ || stopped_) return;
  // The server answers SetReady once the seat is marked ready, so when every bot has its answer
  // the host's StartGame finds them all ready.
  // Counted by seat: a seat taken back after a lost connection (Reconnect forgets it) says it is
  // ready again.
  if (!ready_.insert(bot.index()).second || ready_.size() != bots_.size()) return;
  if (went_) {
    bots_.front()->StartGame(room_id_);
    return;
  }
  waiting_for_go_ = true;
  Settle(false);
}

void Room::Go() {
  asio::post(strand_, [this] {
    went_ = true;
    if (!waiting_for_go_ || failed_ || stopped_) return;
    waiting_for_go_ = false;
    bots_.front()->StartGame(room_id_);
  });
}

void Room::Started() { pace_.Start(rng_); }

void Room::GameOver(const std::string& room_id) {
  if (room_id_.empty() || room_id != room_id_) return;  // another bot reported it first
  ctx_.metrics->GameFinished();
  const std::string finished = room_id_;
  room_id_.clear();
  for (auto& bot : bots_) bot->LeaveFinished(finished);
  if (failed_ || stopped_ || ctx_.stopping.load()) return;
  // A finished room cannot start again (StartGame wants a waiting room): the same players meet
  // in a new one.
  creating_ = true;
  bots_.front()->CreateRoom();
}

void Room::Fail(const std::string& why) {
  if (failed_ || stopped_) return;
  failed_ = true;
  ctx_.metrics->RoomFailed("room " + std::to_string(index_) + ": " + why);
  pace_.Stop();
  Settle(true);
  for (auto& bot : bots_) bot->Stop();
}

void Room::Reconnect(Bot& lost, Clock::time_point lost_at) {
  if (failed_ || stopped_ || ctx_.stopping.load()) return;
  const auto waited = Clock::now() - lost_at;
  if (waited > std::chrono::seconds(30)) return Fail("a seat could not be taken back in 30 s");
  auto seat = std::find_if(bots_.begin(), bots_.end(),
                           [&](const std::unique_ptr<Bot>& b) { return b.get() == &lost; });
  if (seat == bots_.end()) return;  // already replaced
  const int i = lost.index();
  // A host whose room was being created starts over: its request went with the connection. A
  // seat of a game not begun says again that it is ready.
  if (i == 0 && creating_) creating_ = false;
  ready_.erase(i);
  auto next = std::make_unique<Bot>(
      *this, i, strand_, SourceAddress(ctx_.server, ctx_.rooms * ctx_.seats, index_ * ctx_.seats + i),
      rng_());
  next->Succeed(lost, lost_at);
  Bot* fresh = next.get();
  retired_.push_back(std::move(*seat));
  *seat = std::move(next);
  // A pause as long as the seat has been away, between 100 ms and a second: a node being taken
  // over is not asked again at once.
  const auto pause = std::clamp<Clock::duration>(waited, std::chrono::milliseconds(100),
                                                 std::chrono::seconds(1));
  auto timer = std::make_shared<asio::steady_timer>(strand_, pause);
  timer->async_wait([this, timer, fresh](const boost::system::error_code& ec) {
    if (ec || failed_ || stopped_ || ctx_.stopping.load()) return;
    ctx_.metrics->ConnectionOpened();
    fresh->Connect(room_id_.empty() ? "/ws" : "/ws?room=" + room_id_);
  });
}

void Room::Settle(bool failed) {
  if (settled_) return;
  settled_ = true;
  ctx_.room_settled(failed);
}

void Room::ReturnSlot() { pace_.Return(); }

bool Room::TakeSlot(Bot& bot) { return pace_.Take(bot); }

}  // namespace plateau::load
