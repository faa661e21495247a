#pragma once
// The limits that keep one client from hurting the others: token buckets per connection, per
// player and per address, and the table of addresses. Times are passed in, so tests drive them.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace plateau::server {

using LimitClock = std::chrono::steady_clock;

// Holds up to `burst` tokens, refilled at `rate` per second. A rate of 0 means no limit.
class TokenBucket {
 public:
  TokenBucket() = default;
  TokenBucket(double rate_per_second, double burst)
      : rate_(rate_per_second), burst_(burst), tokens_(burst) {}

  bool unlimited() const { return rate_ <= 0; }
  // Takes one token if there is one.
  bool Take(LimitClock::time_point now);
  // Seconds until a token is there (0 when one is).
  double SecondsUntilToken(LimitClock::time_point now);
  // Gives back a token taken (a check that turned out not to count).
  void Return() {
    if (!unlimited()) tokens_ = std::min(burst_, tokens_ + 1);
  }
  // Full again (nothing taken is remembered): the bucket can be forgotten.
  bool Full(LimitClock::time_point now);

 private:
  void Refill(LimitClock::time_point now);

  double rate_ = 0;
  double burst_ = 0;
  double tokens_ = 0;
  LimitClock::time_point last_{};
};

// Every limit, each 0 for none. Set from the command line (see flags.h, README).
struct ClientLimits {
  // Requests of any kind, per connection and per address (burst: twice the rate).
  double requests_per_second = 200;
  double ip_requests_per_second = 2000;
  // Refused for rate this many times within kAbuseWindow: the connection is cut.
  int refusals_before_disconnect = 400;
  // Chat messages per connection (burst 5).
  double chat_per_second = 1;
  // Rooms a player may create per hour (burst 20), and may have open (waiting or playing) at once.
  // The open rooms bound what one player holds; the rate bounds churn, and is set so a bot
  // finishing a quick game every tenth of a second still gets its next room.
  double rooms_per_hour = 36000;
  static constexpr double kRoomsBurst = 20;
  int open_rooms_per_player = 10;
  // Wrong join codes: per connection, per minute; per address, per 10 minutes. Past either, every
  // code from there is refused until the bucket refills, except a room id with that room's code
  // (an invitation), which is never refused for them.
  int wrong_codes_per_connection = 5;
  int wrong_codes_per_ip = 20;
  // Live WebSocket connections per address.
  int connections_per_ip = 64;
  // New players (Hello with a name) per address per minute (burst: as many).
  int ip_new_players_per_minute = 30;
  // Loopback is where a reverse proxy and local tools (the load generator) connect from; the
  // per-address request and connection limits skip it unless this is set. Wrong codes still count.
  bool limit_loopback = false;

  static constexpr std::chrono::seconds kAbuseWindow{10};
  // An address's wrong codes come back over this long (its bucket; over every node, the count).
  static constexpr std::chrono::seconds kWrongCodesWindow{600};
};

// What one address has used. Shared by the connections from it; its own lock, so a request never
// waits on the lobby's.
struct AddressQuota {
  std::mutex mu;
  bool limited = true;  // false for loopback unless limit_loopback
  int connections = 0;
  TokenBucket requests;
  TokenBucket wrong_codes;
  TokenBucket new_players;
};

// Per connection; touched only on the connection's strand (the lobby's message handler).
struct ConnectionQuota {
  TokenBucket requests;
  TokenBucket chat;
  TokenBucket wrong_codes;
  int refusals = 0;
  LimitClock::time_point window_start{};
  std::shared_ptr<AddressQuota> address;  // null: not counted per address (tests)
};

// The addresses with live connections or a remembered lockout.
class AddressTable {
 public:
  explicit AddressTable(const ClientLimits& limits) : limits_(limits) {}

  // A new connection from `address`: its quota, or null when the address has too many.
  std::shared_ptr<AddressQuota> Admit(const std::string& address, LimitClock::time_point now);
  // The connection is gone (safe after the table itself is gone).
  static void Release(const std::shared_ptr<AddressQuota>& quota);
  size_t size();

 private:
  // Forgets addresses with no connection whose buckets are full again.
  void Prune(LimitClock::time_point now);

  const ClientLimits& limits_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<AddressQuota>> by_address_;
  size_t admitted_since_prune_ = 0;
};

bool IsLoopbackAddress(const std::string& address);
// The key an address is limited under: IPv4 as is (IPv4-mapped IPv6 as IPv4), IPv6 by its /64,
// since one host commonly holds a whole /64.
std::string AddressKey(const std::string& address);

}  // namespace plateau::server
