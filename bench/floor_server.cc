// plateau-floor-server: what a board-game server's network path costs on this machine with no
// game in it, so that Plateau's figures can be read against a floor measured beside them.
//
// It is Beast's asynchronous WebSocket server as its examples write it (a strand and a
// websocket::stream<tcp_stream> per connection, one write in flight and a queue), speaking
// Plateau's protobuf frames for a trivial two-seat turn game: no rules, no views, no storage,
// no lobby. `plateau-load --floor` drives it:
//   - JoinRoom{room_id}: the first connection to name a room takes seat 0, the second seat 1
//     (answered Ok; a third is refused). Once both sit, each gets a Snapshot (version 0, its
//     seat, seat 0 to act).
//   - SubmitAction{room_id}: from the seat whose turn it is, the version goes up by one and both
//     seats get a Diff whose ops carry --diff-bytes of payload (the mover's copy answers the
//     request, as Plateau's does); from the other seat, Error{not_your_turn}.
// Loopback only, like every load run here.
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "plateau/v1/protocol.pb.h"

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace v1 = plateau::v1;
using tcp = asio::ip::tcp;

class Session;

struct FloorRoom {
  std::mutex mu;
  std::shared_ptr<Session> seats[2];  // guarded by mu
  int joined = 0;                     // guarded by mu
  uint64_t version = 0;               // guarded by mu
};

struct Shared {
  std::string payload;  // one op's bytes in every Diff
  std::mutex mu;
  std::unordered_map<std::string, std::shared_ptr<FloorRoom>> rooms;  // guarded by mu
};

using Frame = std::shared_ptr<const std::string>;

Frame Serialize(const v1::ServerMessage& m) {
  return std::make_shared<const std::string>(m.SerializeAsString());
}

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket socket, Shared& shared) : ws_(std::move(socket)), shared_(shared) {}

  void Start() {
    // As Plateau does: small frames each awaited by a player, so Nagle's algorithm only delays.
    beast::error_code ignored;
    beast::get_lowest_layer(ws_).socket().set_option(tcp::no_delay(true), ignored);
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws_.binary(true);
    ws_.async_accept(beast::bind_front_handler(&Session::OnAccept, shared_from_this()));
  }

  // From any thread.
  void Send(Frame frame) {
    asio::post(ws_.get_executor(), [self = shared_from_this(), frame = std::move(frame)] {
      self->outbox_.push_back(std::move(frame));
      if (self->outbox_.size() == 1) self->DoWrite();
    });
  }

 private:
  void OnAccept(beast::error_code ec) {
    if (ec) return;
    DoRead();
  }

  void DoRead() {
    ws_.async_read(buffer_, beast::bind_front_handler(&Session::OnRead, shared_from_this()));
  }

  void OnRead(beast::error_code ec, size_t) {
    if (ec) return Leave();
    v1::ClientMessage m;
    const bool parsed = m.ParseFromArray(buffer_.data().data(), static_cast<int>(buffer_.size()));
    buffer_.consume(buffer_.size());
    if (!parsed) {
      Refuse(0, "bad_message");
    } else if (m.has_join_room()) {
      Join(m.request_id(), m.join_room().room_id());
    } else if (m.has_action()) {
      Act(m.request_id());
    } else {
      Refuse(m.request_id(), "not_supported");
    }
    DoRead();
  }

  void Join(uint64_t request_id, const std::string& room_id) {
    if (room_) return Refuse(request_id, "already_seated");
    std::shared_ptr<FloorRoom> room;
    {
      std::lock_guard<std::mutex> lock(shared_.mu);
      auto& slot = shared_.rooms[room_id];
      if (!slot) slot = std::make_shared<FloorRoom>();
      room = slot;
    }
    std::shared_ptr<Session> seats[2];
    {
      std::lock_guard<std::mutex> lock(room->mu);
      if (room->joined == 2) return Refuse(request_id, "room_full");
      seat_ = room->joined++;
      room->seats[seat_] = shared_from_this();
      if (room->joined == 2) {
        seats[0] = room->seats[0];
        seats[1] = room->seats[1];
      }
    }
    room_ = room;
    room_id_ = room_id;
    v1::ServerMessage ok;
    ok.set_request_id(request_id);
    ok.mutable_ok();
    Send(Serialize(ok));
    for (int s = 0; s < 2 && seats[s]; ++s) {
      v1::ServerMessage snapshot;
      v1::Snapshot* sn = snapshot.mutable_snapshot();
      sn->set_room_id(room_id);
      sn->set_seat(s);
      sn->add_acting_seats(0);
      seats[s]->Send(Serialize(snapshot));
    }
  }

  void Act(uint64_t request_id) {
    if (!room_) return Refuse(request_id, "not_seated");
    std::shared_ptr<Session> other;
    uint64_t version;
    {
      std::lock_guard<std::mutex> lock(room_->mu);
      if (room_->joined < 2 || static_cast<int>(room_->version % 2) != seat_) {
        return Refuse(request_id, "not_your_turn");
      }
      version = ++room_->version;
      other = room_->seats[1 - seat_];
    }
    v1::ServerMessage m;
    v1::Diff* diff = m.mutable_diff();
    diff->set_room_id(room_id_);
    diff->mutable_diff()->set_from_version(version - 1);
    diff->mutable_diff()->set_to_version(version);
    diff->mutable_diff()->add_ops()->set_set_message(shared_.payload);
    diff->add_acting_seats(static_cast<int>(version % 2));
    auto to_other = Serialize(m);
    m.set_request_id(request_id);
    m.mutable_accepted()->set_action_index(version - 1);
    // The mover's answer is queued before the other seat can see the Diff: the other seat's next
    // move runs on another strand, and its Diff to this seat must land behind this answer.
    Send(Serialize(m));
    if (other) other->Send(std::move(to_other));
  }

  void Refuse(uint64_t request_id, const char* code) {
    v1::ServerMessage m;
    m.set_request_id(request_id);
    m.mutable_error()->set_code(code);
    Send(Serialize(m));
  }

  // The seat is given up, so the room's other session is not kept alive by it.
  void Leave() {
    if (!room_) return;
    std::lock_guard<std::mutex> lock(room_->mu);
    room_->seats[seat_].reset();
  }

  void DoWrite() {
    ws_.async_write(asio::buffer(*outbox_.front()),
                    beast::bind_front_handler(&Session::OnWrite, shared_from_this()));
  }

  void OnWrite(beast::error_code ec, size_t) {
    if (ec) return;
    outbox_.pop_front();
    if (!outbox_.empty()) DoWrite();
  }

  websocket::stream<beast::tcp_stream> ws_;
  Shared& shared_;
  beast::flat_buffer buffer_;
  std::deque<Frame> outbox_;
  std::shared_ptr<FloorRoom> room_;
  std::string room_id_;
  int seat_ = -1;
};

void Accept(tcp::acceptor& acceptor, asio::io_context& ioc, Shared& shared) {
  acceptor.async_accept(asio::make_strand(ioc), [&](beast::error_code ec, tcp::socket socket) {
    if (!ec) std::make_shared<Session>(std::move(socket), shared)->Start();
    if (acceptor.is_open()) Accept(acceptor, ioc, shared);
  });
}

int Usage(const char* why) {
  std::fprintf(stderr,
               "plateau-floor-server: %s\n"
               "usage: plateau-floor-server --port P [--threads N (1..64, default 2)] "
               "[--diff-bytes B (0..65536, default 540)]\n",
               why);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  long port = -1, threads = 2, diff_bytes = 540;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) return Usage(("missing value after " + flag).c_str());
    char* end = nullptr;
    const long value = std::strtol(argv[++i], &end, 10);
    if (*end != '\0') return Usage(("not a number after " + flag).c_str());
    if (flag == "--port") port = value;
    else if (flag == "--threads") threads = value;
    else if (flag == "--diff-bytes") diff_bytes = value;
    else return Usage(("unknown flag " + flag).c_str());
  }
  if (port < 0 || port > 65535) return Usage("--port must be from 0 to 65535");
  if (threads < 1 || threads > 64) return Usage("--threads must be from 1 to 64");
  if (diff_bytes < 0 || diff_bytes > 65536) return Usage("--diff-bytes must be from 0 to 65536");

  Shared shared;
  shared.payload.assign(static_cast<size_t>(diff_bytes), 'x');
  asio::io_context ioc(static_cast<int>(threads));
  tcp::acceptor acceptor(ioc);
  const tcp::endpoint endpoint(asio::ip::make_address("127.0.0.1"),
                               static_cast<unsigned short>(port));
  beast::error_code ec;
  acceptor.open(endpoint.protocol(), ec);
  if (!ec) acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    std::fprintf(stderr, "plateau-floor-server: cannot listen on 127.0.0.1:%ld: %s\n", port,
                 ec.message().c_str());
    return 1;
  }
  std::printf("plateau-floor-server: listening on 127.0.0.1:%u\n", acceptor.local_endpoint().port());
  std::fflush(stdout);
  Accept(acceptor, ioc, shared);

  // SIGTERM or SIGINT: stop at once (nothing here is worth keeping).
  asio::signal_set signals(ioc, SIGINT, SIGTERM);
  signals.async_wait([&](beast::error_code, int) { ioc.stop(); });

  std::vector<std::thread> pool;
  for (long i = 1; i < threads; ++i) pool.emplace_back([&] { ioc.run(); });
  ioc.run();
  for (auto& t : pool) t.join();
  return 0;
}
