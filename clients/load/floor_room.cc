#include "clients/load/floor_room.h"

#include <boost/asio/post.hpp>

namespace plateau::load {

namespace asio = boost::asio;
namespace v1 = plateau::v1;

// ----- FloorBot -----

FloorBot::FloorBot(FloorRoom& room, int seat, asio::any_io_executor executor,
                   std::optional<asio::ip::address> source)
    : WsClient(std::move(executor), room.ctx().server, std::move(source)),
      room_(room),
      seat_(seat) {}

// Seat 1 connects only once seat 0 holds its seat (FirstJoined): seats go in the order of joins.
void FloorBot::OnOpen() { Join(); }

void FloorBot::Join() {
  v1::ClientMessage m;
  m.set_request_id(join_id_ = ++requests_);
  m.mutable_join_room()->set_room_id(room_.room_id());
  Send(m);
}

void FloorBot::MaybeAct() {
  if (!to_act_ || submit_id_ != 0 || !seated_ || !room_.went() || room_.ctx().stopping.load()) {
    return;
  }
  if (!room_.TakeSlot(*this)) return;
  v1::ClientMessage m;
  m.set_request_id(submit_id_ = ++requests_);
  v1::SubmitAction* action = m.mutable_action();
  action->set_room_id(room_.room_id());
  action->set_action("move");
  submitted_at_ = Clock::now();
  Send(m);
}

void FloorBot::OnMessage(const v1::ServerMessage& message, size_t frame_bytes) {
  Metrics& metrics = *room_.ctx().metrics;
  if (message.has_error()) {
    if (message.request_id() != 0 && message.request_id() == submit_id_) {
      // The floor refuses only out of turn, which this bot never is: counted, not fatal.
      submit_id_ = 0;
      metrics.Refused(message.error().code());
      room_.ReturnSlot();
      return;
    }
    metrics.LobbyError(message.error().code());
    return room_.Fail("the floor server refused: " + message.error().code());
  }
  if (message.request_id() != 0 && message.request_id() == join_id_) {
    if (seat_ == 0) room_.FirstJoined();
    return;
  }
  const google::protobuf::RepeatedField<int32_t>* acting = nullptr;
  if (message.has_snapshot()) {
    metrics.ViewFrame(false, frame_bytes);
    acting = &message.snapshot().acting_seats();
    if (!seated_) {
      seated_ = true;
      room_.Seated();
    }
  } else if (message.has_diff()) {
    metrics.ViewFrame(true, frame_bytes);
    // Only the newest version says whose turn it is: a late answer must not undo a newer turn.
    if (message.diff().diff().to_version() > version_) {
      version_ = message.diff().diff().to_version();
      acting = &message.diff().acting_seats();
    }
    if (message.request_id() != 0 && message.request_id() == submit_id_) {
      submit_id_ = 0;
      metrics.Accepted(Clock::now() - submitted_at_);
    }
  } else {
    return;
  }
  if (acting != nullptr) {
    to_act_ = false;
    for (int32_t s : *acting) to_act_ = to_act_ || s == seat_;
  }
  MaybeAct();
}

void FloorBot::OnClosed(const std::string& error) {
  LoadContext& ctx = room_.ctx();
  ctx.metrics->ConnectionClosed();
  if (!error.empty() && !ctx.stopping.load()) {
    ctx.metrics->ConnectionError(error);
    room_.Fail(error);
  }
}

// ----- FloorRoom -----

FloorRoom::FloorRoom(LoadContext& ctx, int index, asio::io_context& ioc)
    : ctx_(ctx),
      index_(index),
      room_id_("floor-" + std::to_string(index)),
      strand_(asio::make_strand(ioc)),
      rng_(0x9e3779b97f4a7c15ULL * static_cast<uint64_t>(index + 1)),
      pace_(strand_, ctx.rooms, ctx.rate) {
  for (int s = 0; s < 2; ++s) {
    bots_[s] = std::make_unique<FloorBot>(*this, s, strand_,
                                          SourceAddress(ctx.server, 2 * ctx.rooms, 2 * index + s));
  }
}

void FloorRoom::Start() {
  asio::post(strand_, [this] {
    if (stopped_) return;
    ctx_.metrics->ConnectionOpened();
    bots_[0]->Connect();
  });
}

void FloorRoom::FirstJoined() {
  if (failed_ || stopped_) return;
  ctx_.metrics->ConnectionOpened();
  bots_[1]->Connect();
}

void FloorRoom::Stop() {
  asio::post(strand_, [this] {
    stopped_ = true;
    pace_.Stop();
    for (auto& bot : bots_) bot->Stop();
  });
}

void FloorRoom::Seated() {
  if (++seated_ == 2) Settle(false);
}

void FloorRoom::Go() {
  asio::post(strand_, [this] {
    went_ = true;
    pace_.Start(rng_);
    for (auto& bot : bots_) bot->MaybeAct();
  });
}

void FloorRoom::Fail(const std::string& why) {
  if (failed_ || stopped_) return;
  failed_ = true;
  ctx_.metrics->RoomFailed("room " + std::to_string(index_) + ": " + why);
  pace_.Stop();
  Settle(true);
  for (auto& bot : bots_) bot->Stop();
}

void FloorRoom::Settle(bool failed) {
  if (settled_) return;
  settled_ = true;
  ctx_.room_settled(failed);
}

}  // namespace plateau::load
