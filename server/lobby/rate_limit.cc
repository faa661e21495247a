// The token buckets and the table of addresses behind the limits (see rate_limit.h).
#include "server/lobby/rate_limit.h"

#include <boost/asio/ip/address.hpp>

#include <algorithm>

namespace plateau::server {

void TokenBucket::Refill(LimitClock::time_point now) {
  if (last_ == LimitClock::time_point{}) {
    last_ = now;
    return;
  }
  const double elapsed = std::chrono::duration<double>(now - last_).count();
  if (elapsed <= 0) return;
  tokens_ = std::min(burst_, tokens_ + elapsed * rate_);
  last_ = now;
}

bool TokenBucket::Take(LimitClock::time_point now) {
  if (unlimited()) return true;
  Refill(now);
  if (tokens_ < 1) return false;
  tokens_ -= 1;
  return true;
}

double TokenBucket::SecondsUntilToken(LimitClock::time_point now) {
  if (unlimited()) return 0;
  Refill(now);
  return tokens_ >= 1 ? 0 : (1 - tokens_) / rate_;
}

bool TokenBucket::Full(LimitClock::time_point now) {
  if (unlimited()) return true;
  Refill(now);
  return tokens_ >= burst_;
}

std::string AddressKey(const std::string& address) {
  boost::system::error_code ec;
  const auto parsed = boost::asio::ip::make_address(address, ec);
  if (ec || !parsed.is_v6()) return address;
  auto v6 = parsed.to_v6();
  if (v6.is_v4_mapped()) {
    return boost::asio::ip::make_address_v4(boost::asio::ip::v4_mapped, v6).to_string();
  }
  auto bytes = v6.to_bytes();
  for (size_t i = 8; i < bytes.size(); ++i) bytes[i] = 0;
  return boost::asio::ip::address_v6(bytes).to_string() + "/64";
}

bool IsLoopbackAddress(const std::string& address) {
  return address == "::1" || address.rfind("127.", 0) == 0 || address.rfind("::ffff:127.", 0) == 0;
}

std::shared_ptr<AddressQuota> AddressTable::Admit(const std::string& address,
                                                  LimitClock::time_point now) {
  std::lock_guard lock(mu_);
  if (++admitted_since_prune_ >= 1024) {
    admitted_since_prune_ = 0;
    Prune(now);
  }
  auto& quota = by_address_[AddressKey(address)];
  if (!quota) {
    quota = std::make_shared<AddressQuota>();
    quota->limited = limits_.limit_loopback || !IsLoopbackAddress(address);
    if (quota->limited) {
      quota->requests = TokenBucket(limits_.ip_requests_per_second,
                                    2 * limits_.ip_requests_per_second);
      quota->new_players = TokenBucket(limits_.ip_new_players_per_minute / 60.0,
                                       limits_.ip_new_players_per_minute);
    }
    // Wrong codes count from every address: no honest client sends them in bulk.
    quota->wrong_codes =
        TokenBucket(limits_.wrong_codes_per_ip /
                        static_cast<double>(ClientLimits::kWrongCodesWindow.count()),
                    limits_.wrong_codes_per_ip);
  }
  std::lock_guard quota_lock(quota->mu);
  if (quota->limited && limits_.connections_per_ip > 0 &&
      quota->connections >= limits_.connections_per_ip) {
    return nullptr;
  }
  ++quota->connections;
  return quota;
}

void AddressTable::Release(const std::shared_ptr<AddressQuota>& quota) {
  if (!quota) return;
  std::lock_guard lock(quota->mu);
  --quota->connections;
}

size_t AddressTable::size() {
  std::lock_guard lock(mu_);
  return by_address_.size();
}

void AddressTable::Prune(LimitClock::time_point now) {
  for (auto it = by_address_.begin(); it != by_address_.end();) {
    AddressQuota& q = *it->second;
    std::lock_guard lock(q.mu);
    if (q.connections == 0 && q.requests.Full(now) && q.wrong_codes.Full(now)) {
      it = by_address_.erase(it);
    } else {
      ++it;
    }
  }
}

}  // namespace plateau::server
