#pragma once
// The floor mode's room: two bots playing plateau-floor-server's trivial turn game (see
// bench/floor_server.cc) on one strand. Each acts as soon as its turn comes (paced: at the room's
// next slot, as in the games mode), and its latency is the time from its SubmitAction to the Diff
// that answers it.
#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>
#include <memory>
#include <random>
#include <string>

#include "clients/load/pace.h"
#include "clients/load/room.h"
#include "clients/load/ws_client.h"

namespace plateau::load {

class FloorRoom;

class FloorBot final : public WsClient {
 public:
  FloorBot(FloorRoom& room, int seat, boost::asio::any_io_executor executor,
           std::optional<boost::asio::ip::address> source);
  // Submits when it is this seat's turn, nothing is in flight and the room has gone.
  void MaybeAct();
  void Stop() { Close(); }

 private:
  void OnOpen() override;
  void OnMessage(const plateau::v1::ServerMessage& message, size_t frame_bytes) override;
  void OnClosed(const std::string& error) override;
  void Join();

  FloorRoom& room_;
  const int seat_;
  uint64_t requests_ = 0;
  uint64_t join_id_ = 0;
  bool seated_ = false;  // the game's first view came
  bool to_act_ = false;
  uint64_t submit_id_ = 0;  // the action in flight, 0 when none
  uint64_t version_ = 0;    // the newest view version seen
  Clock::time_point submitted_at_;
};

class FloorRoom final : public RoomBase {
 public:
  FloorRoom(LoadContext& ctx, int index, boost::asio::io_context& ioc);
  FloorRoom(const FloorRoom&) = delete;
  FloorRoom& operator=(const FloorRoom&) = delete;

  void Start() override;
  void Stop() override;
  void Go() override;

  // For its bots, on the strand.
  LoadContext& ctx() { return ctx_; }
  const std::string& room_id() const { return room_id_; }
  bool went() const { return went_ && !failed_ && !stopped_; }
  // Seat 0 joined: seat 1 may join (seats are given in the order of joins).
  void FirstJoined();
  // A bot has the game's first view.
  void Seated();
  void Fail(const std::string& why);
  // Paced mode: as Room::TakeSlot and Room::ReturnSlot.
  bool TakeSlot(FloorBot& bot) { return pace_.Take(bot); }
  void ReturnSlot() { pace_.Return(); }

 private:
  void Settle(bool failed);

  LoadContext& ctx_;
  const int index_;
  const std::string room_id_;
  boost::asio::strand<boost::asio::io_context::executor_type> strand_;
  std::unique_ptr<FloorBot> bots_[2];
  std::mt19937_64 rng_;
  Pace<FloorBot> pace_;
  int seated_ = 0;
  bool settled_ = false;
  bool went_ = false;
  bool failed_ = false;
  bool stopped_ = false;
};

}  // namespace plateau::load
