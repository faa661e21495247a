// AgonesSdk against a stub of the Agones SDK sidecar's REST API (its paths and verbs, on
// loopback): Ready first, health pings, the rooms counter, Allocated with the first room and
// Ready again with none; a refused call is made again; an absent sidecar costs failures, nothing
// more.
#include "server/net/agones_sdk.h"

#include <gtest/gtest.h>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace plateau::server {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
using tcp = boost::asio::ip::tcp;
using namespace std::chrono_literals;

// Answers each request on its own connection, as the sidecar does, and keeps "VERB target body".
class StubSidecar {
 public:
  StubSidecar() : acceptor_(ioc_, {boost::asio::ip::make_address("127.0.0.1"), 0}) {
    thread_ = std::thread([this] { Serve(); });
  }
  ~StubSidecar() {
    stopping_ = true;
    boost::system::error_code ignored;
    tcp::socket poke(ioc_);
    poke.connect(acceptor_.local_endpoint(), ignored);  // wakes the accept
    thread_.join();
  }
  uint16_t port() const { return acceptor_.local_endpoint().port(); }
  // The next `n` requests for `target` are answered 500.
  void Refuse(const std::string& target, int n) {
    std::lock_guard lock(mu_);
    refuse_ = target;
    refusals_ = n;
  }
  std::vector<std::string> seen() {
    std::lock_guard lock(mu_);
    return seen_;
  }
  size_t Count(const std::string& line) {
    auto all = seen();
    return static_cast<size_t>(std::count(all.begin(), all.end(), line));
  }
  bool WaitFor(const std::string& line, size_t times = 1) {
    for (int i = 0; i < 300; ++i) {
      if (Count(line) >= times) return true;
      std::this_thread::sleep_for(10ms);
    }
    return false;
  }

 private:
  void Serve() {
    while (!stopping_) {
      tcp::socket socket(ioc_);
      boost::system::error_code ec;
      acceptor_.accept(socket, ec);
      if (ec || stopping_) continue;
      beast::flat_buffer buffer;
      http::request<http::string_body> req;
      http::read(socket, buffer, req, ec);
      if (ec) continue;
      http::response<http::string_body> res{http::status::ok, 11};
      {
        std::lock_guard lock(mu_);
        seen_.push_back(std::string(req.method_string()) + " " + std::string(req.target()) + " " +
                        req.body());
        if (std::string(req.target()) == refuse_ && refusals_ > 0) {
          --refusals_;
          res.result(http::status::internal_server_error);
        }
      }
      res.set(http::field::content_type, "application/json");
      res.body() = "{}";
      res.prepare_payload();
      http::write(socket, res, ec);
    }
  }

  boost::asio::io_context ioc_;
  tcp::acceptor acceptor_;
  std::thread thread_;
  std::atomic<bool> stopping_{false};
  std::mutex mu_;
  std::vector<std::string> seen_;
  std::string refuse_;
  int refusals_ = 0;
};

class AgonesTest : public ::testing::Test {
 protected:
  std::shared_ptr<AgonesSdk> Start(uint16_t port) {
    AgonesSdk::Options options;
    options.port = port;
    options.tick = 20ms;
    options.health_every_ticks = 2;
    auto sdk = std::make_shared<AgonesSdk>(ioc_.get_executor(), options, [this] { return rooms_.load(); });
    sdk->Start();
    thread_ = std::thread([this] { ioc_.run(); });
    return sdk;
  }
  void TearDown() override {
    work_.reset();
    if (thread_.joinable()) {
      ioc_.stop();
      thread_.join();
    }
  }
  boost::asio::io_context ioc_;
  std::optional<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> work_{
      ioc_.get_executor()};
  std::thread thread_;
  std::atomic<size_t> rooms_{0};
};

TEST_F(AgonesTest, ReadyHealthTheRoomsCounterAndAllocatedWhileRoomsRun) {
  StubSidecar sidecar;
  auto sdk = Start(sidecar.port());
  ASSERT_TRUE(sidecar.WaitFor("PATCH /v1beta1/counters/rooms {\"count\":\"0\"}"));
  ASSERT_FALSE(sidecar.seen().empty());
  EXPECT_EQ(sidecar.seen().front(), "POST /ready {}");
  EXPECT_TRUE(sidecar.WaitFor("POST /health {}", 2));

  rooms_ = 2;
  EXPECT_TRUE(sidecar.WaitFor("PATCH /v1beta1/counters/rooms {\"count\":\"2\"}"));
  EXPECT_TRUE(sidecar.WaitFor("POST /allocate {}"));
  rooms_ = 3;
  EXPECT_TRUE(sidecar.WaitFor("PATCH /v1beta1/counters/rooms {\"count\":\"3\"}"));
  rooms_ = 0;
  EXPECT_TRUE(sidecar.WaitFor("PATCH /v1beta1/counters/rooms {\"count\":\"0\"}", 2));
  EXPECT_TRUE(sidecar.WaitFor("POST /ready {}", 2));
  // Allocated once, the counter told once per value: nothing is repeated while it holds.
  std::this_thread::sleep_for(100ms);
  EXPECT_EQ(sidecar.Count("POST /allocate {}"), 1u);
  EXPECT_EQ(sidecar.Count("PATCH /v1beta1/counters/rooms {\"count\":\"2\"}"), 1u);
  EXPECT_EQ(sdk->calls_failed(), 0u);
  sdk->Stop();
}

TEST_F(AgonesTest, ARefusedCallIsMadeAgainAtTheNextTick) {
  StubSidecar sidecar;
  sidecar.Refuse("/allocate", 2);
  rooms_ = 1;
  auto sdk = Start(sidecar.port());
  EXPECT_TRUE(sidecar.WaitFor("POST /allocate {}", 3));
  EXPECT_EQ(sdk->calls_failed(), 2u);
  std::this_thread::sleep_for(100ms);
  EXPECT_EQ(sidecar.Count("POST /allocate {}"), 3u);  // accepted the third time, then no more
  sdk->Stop();
}

TEST_F(AgonesTest, NoSidecarCostsFailedCallsOnly) {
  uint16_t port;
  {
    // A port that was free a moment ago: nothing listens there.
    boost::asio::io_context ioc;
    tcp::acceptor a(ioc, {boost::asio::ip::make_address("127.0.0.1"), 0});
    port = a.local_endpoint().port();
  }
  auto sdk = Start(port);
  for (int i = 0; i < 200 && sdk->calls_failed() < 3; ++i) std::this_thread::sleep_for(10ms);
  EXPECT_GE(sdk->calls_failed(), 3u);
  EXPECT_EQ(sdk->calls_ok(), 0u);
  sdk->Stop();
}

TEST(AgonesPortTest, TheSidecarsPortComesFromTheEnvironment) {
  unsetenv("AGONES_SDK_HTTP_PORT");
  EXPECT_EQ(AgonesSdk::PortFromEnvironment(), 9358);
  setenv("AGONES_SDK_HTTP_PORT", "9400", 1);
  EXPECT_EQ(AgonesSdk::PortFromEnvironment(), 9400);
  setenv("AGONES_SDK_HTTP_PORT", "94x", 1);
  EXPECT_EQ(AgonesSdk::PortFromEnvironment(), 9358);
  unsetenv("AGONES_SDK_HTTP_PORT");
}

}  // namespace
}  // namespace plateau::server
