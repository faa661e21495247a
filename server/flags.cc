#include "server/flags.h"

#include <charconv>
#include <fstream>
#include <functional>
#include <map>

namespace plateau::server {
namespace {

engine::Status BadValue(const std::string& flag, const std::string& value, const char* expected) {
  return engine::Status("bad_flag", "--" + flag + "=" + value + ": expected " + expected + ".");
}

// Integer in [lo, hi].
template <class T>
engine::Status ParseInt(const std::string& flag, const std::string& value, T lo, T hi, T* out) {
  long long v = 0;
  auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  if (ec != std::errc() || ptr != value.data() + value.size() || v < static_cast<long long>(lo) ||
      v > static_cast<long long>(hi)) {
    return BadValue(flag, value,
                    ("an integer from " + std::to_string(lo) + " to " + std::to_string(hi)).c_str());
  }
  *out = static_cast<T>(v);
  return engine::Status::Ok();
}

}  // namespace

std::string FlagsHelp() {
  return R"(Usage: plateau-server [flags]

  --bind ADDRESS               address to listen on (default 0.0.0.0)
  --port N                     TCP port, 0 for any free one (default 8080)
  --db PATH                    SQLite database file (default plateau.db)
  --store CONNINFO             PostgreSQL instead of the SQLite file: a libpq connection string
                               ("postgres://user@host/db" or "host=... dbname=..."); the
                               schema is migrated at start (default: none, SQLite)
  --node-id NAME               with --store: this node's name among the nodes sharing the
                               database; a node restarted under the same name takes its rooms
                               back at once (default HOST:PORT)
  --lease-ms N                 with --store: a node's rooms pass to another node once it has not
                               renewed its lease for this long, 1000..600000; renewed every
                               third of it (default 10000)
  --node-address HOST:PORT     with --store: where the other nodes reach this one for the links
                               (default BIND:PORT)
  --link-secret-file PATH      with --store: a file holding the secret (16 to 256 bytes, one
                               line) every node of the cluster shares; with it, a client that
                               names a room another node runs is carried there over a link, and
                               links from the other nodes are taken (default none: no links)
  --durability MODE            machine: an action is synced to disk before it is acknowledged
                               (survives a power cut); process: written to the OS before it is
                               acknowledged (survives a killed server, not a power cut)
                               (default machine)
  --commit-interval-us N       least time between two storage commits, 0..1000000: under load
                               each sync then takes the moves of this long (default 2000; 0
                               commits whenever a move waits)
  --static DIR                 web client files to serve (default clients/web/dist)
  --threads N                  network threads, 1..64 (default 2): each runs a shard of the
                               connections and the rooms they create
  --max-message-bytes N        largest WebSocket message accepted (default 65536)
  --max-queue-bytes N          outgoing bytes a slow client may have waiting before it is
                               disconnected (default 4194304)
  --idle-timeout-seconds N     close WebSocket connections silent this long (default 300)
  --empty-room-grace-seconds N keep a waiting or finished room this long after its last member
                               disconnects (default 300; an explicit leave removes it at once)
  --bot-delay-ms N             a bot waits this long before each move, so people can follow
                               (default 600; 0 plays at once)
  --bot-think-ms N             how long a normal bot searches before each move, off the network
                               threads (default 400; it counts toward --bot-delay-ms)
  --offline-grace-seconds N    a player offline this long during a game may be replaced by a bot
                               (or, with two players, lose by claim); also the least time a
                               player to act has after a restart (default 60)
  --abandoned-game-seconds N   a game with none of its players connected this long ends: their
                               seats resign (default 259200, three days)
  --token-inactive-days N      a player's token unused this long is refused; the player starts
                               anew (default 30)
  --log-level LEVEL            trace, debug, info, warn, error, critical, off (default info)
  --trust-proxy BOOL           a reverse proxy on loopback forwards the clients: limit them by
                               the last X-Forwarded-For address (default false)
  --public-metrics BOOL        serve /metrics to any address, not only loopback (default false)
  --agones BOOL                run as an Agones GameServer: Ready once serving, health pings, the
                               counter "rooms", Allocated while it runs rooms, through the SDK
                               sidecar on 127.0.0.1:$AGONES_SDK_HTTP_PORT (default 9358) (default
                               false)

Limits (0 turns one off; a request over a limit is refused with an error code):
  --limit-requests-per-second N     requests per connection, burst twice that (default 200)
  --limit-ip-requests-per-second N  requests per address (default 2000)
  --limit-refusals-before-disconnect N
                               requests refused for rate within 10 s before the connection is
                               cut (default 400)
  --limit-chat-per-minute N    chat messages per connection, burst 5 (default 60)
  --limit-rooms-per-hour N     rooms a player may create per hour, burst 20 (default 36000)
  --limit-open-rooms N         rooms a player created that are waiting or playing (default 10)
  --limit-wrong-codes N        wrong join codes per connection per minute (default 5)
  --limit-ip-wrong-codes N     wrong join codes per address per 10 minutes (default 20)
  --limit-ip-connections N     live WebSocket connections per address (default 64)
  --limit-ip-new-players-per-minute N
                               new players (Hello with a name) per address (default 30)
  --limit-loopback BOOL        apply the per-address request and connection limits to
                               loopback too (default false: a reverse proxy or local tools
                               connect from there; wrong codes count from every address)
  --help                       this text
)";
}

engine::StatusOr<ServerFlags> ParseFlags(const std::vector<std::string>& args) {
  ServerFlags flags;
  using Setter = std::function<engine::Status(const std::string&, const std::string&)>;
  const auto Bool = [](bool* out) -> Setter {
    return [=](const std::string& f, const std::string& v) {
      if (v == "true" || v == "yes" || v == "1") {
        *out = true;
      } else if (v == "false" || v == "no" || v == "0") {
        *out = false;
      } else {
        return BadValue(f, v, "true or false");
      }
      return engine::Status::Ok();
    };
  };
  // A whole number from 0 to `hi`, stored times `scale` (rates are whole numbers per unit).
  const auto Rate = [](double* out, int hi, double scale = 1) -> Setter {
    return [=](const std::string& f, const std::string& v) {
      int n = 0;
      engine::Status st = ParseInt<int>(f, v, 0, hi, &n);
      if (st.ok()) *out = n * scale;
      return st;
    };
  };
  const std::map<std::string, Setter> setters = {
      {"bind", [&](const std::string&, const std::string& v) {
         if (v.empty()) return BadValue("bind", v, "an address");
         flags.bind = v;
         return engine::Status::Ok();
       }},
      {"port", [&](const std::string& f, const std::string& v) {
         return ParseInt<uint16_t>(f, v, 0, 65535, &flags.port);
       }},
      {"db", [&](const std::string&, const std::string& v) {
         if (v.empty()) return BadValue("db", v, "a file path");
         flags.db = v;
         return engine::Status::Ok();
       }},
      {"store", [&](const std::string&, const std::string& v) {
         if (v.empty()) return BadValue("store", v, "a PostgreSQL connection string");
         flags.store = v;
         return engine::Status::Ok();
       }},
      {"node-id", [&](const std::string&, const std::string& v) {
         if (v.empty()) return BadValue("node-id", v, "a name");
         flags.node_id = v;
         return engine::Status::Ok();
       }},
      {"node-address", [&](const std::string&, const std::string& v) {
         if (v.empty() || v.rfind(':') == std::string::npos) {
           return BadValue("node-address", v, "HOST:PORT");
         }
         flags.node_address = v;
         return engine::Status::Ok();
       }},
      {"link-secret-file", [&](const std::string&, const std::string& v) {
         if (v.empty()) return BadValue("link-secret-file", v, "a file's path");
         flags.link_secret_file = v;
         return engine::Status::Ok();
       }},
      {"lease-ms", [&](const std::string& f, const std::string& v) {
         return ParseInt<int>(f, v, 1000, 600000, &flags.lease_ms);
       }},
      {"static", [&](const std::string&, const std::string& v) {
         flags.static_dir = v;
         return engine::Status::Ok();
       }},
      {"threads", [&](const std::string& f, const std::string& v) {
         return ParseInt<int>(f, v, 1, 64, &flags.threads);
       }},
      {"max-message-bytes", [&](const std::string& f, const std::string& v) {
         return ParseInt<size_t>(f, v, 256, size_t{64} << 20, &flags.max_message_bytes);
       }},
      {"max-queue-bytes", [&](const std::string& f, const std::string& v) {
         return ParseInt<size_t>(f, v, 1024, size_t{1} << 30, &flags.max_queue_bytes);
       }},
      {"idle-timeout-seconds", [&](const std::string& f, const std::string& v) {
         return ParseInt<int>(f, v, 1, 86400, &flags.idle_timeout_seconds);
       }},
      {"empty-room-grace-seconds", [&](const std::string& f, const std::string& v) {
         return ParseInt<int>(f, v, 0, 86400, &flags.empty_room_grace_seconds);
       }},
      {"bot-delay-ms", [&](const std::string& f, const std::string& v) {
         return ParseInt<int>(f, v, 0, 10000, &flags.bot_delay_ms);
       }},
      {"bot-think-ms", [&](const std::string& f, const std::string& v) {
         return ParseInt<int>(f, v, 10, 10000, &flags.bot_think_ms);
       }},
      {"offline-grace-seconds", [&](const std::string& f, const std::string& v) {
         return ParseInt<int>(f, v, 1, 86400, &flags.offline_grace_seconds);
       }},
      {"abandoned-game-seconds", [&](const std::string& f, const std::string& v) {
         return ParseInt<int>(f, v, 1, 365 * 86400, &flags.abandoned_game_seconds);
       }},
      {"token-inactive-days", [&](const std::string& f, const std::string& v) {
         return ParseInt<int>(f, v, 1, 3650, &flags.token_inactive_days);
       }},
      {"commit-interval-us", [&](const std::string& f, const std::string& v) {
         return ParseInt<int>(f, v, 0, 1000000, &flags.commit_interval_us);
       }},
      {"durability", [&](const std::string&, const std::string& v) {
         if (v != "machine" && v != "process") return BadValue("durability", v, "machine or process");
         flags.durability = v;
         return engine::Status::Ok();
       }},
      {"limit-requests-per-second", Rate(&flags.limits.requests_per_second, 1000000)},
      {"limit-ip-requests-per-second", Rate(&flags.limits.ip_requests_per_second, 10000000)},
      {"limit-refusals-before-disconnect", [&](const std::string& f, const std::string& v) {
         return ParseInt<int>(f, v, 0, 1000000, &flags.limits.refusals_before_disconnect);
       }},
      {"limit-chat-per-minute", Rate(&flags.limits.chat_per_second, 100000, 1 / 60.0)},
      {"limit-rooms-per-hour", Rate(&flags.limits.rooms_per_hour, 1000000)},
      {"limit-open-rooms", [&](const std::string& f, const std::string& v) {
         return ParseInt<int>(f, v, 0, 1000000, &flags.limits.open_rooms_per_player);
       }},
      {"limit-wrong-codes", [&](const std::string& f, const std::string& v) {
         return ParseInt<int>(f, v, 0, 1000000, &flags.limits.wrong_codes_per_connection);
       }},
      {"limit-ip-wrong-codes", [&](const std::string& f, const std::string& v) {
         return ParseInt<int>(f, v, 0, 1000000, &flags.limits.wrong_codes_per_ip);
       }},
      {"limit-ip-connections", [&](const std::string& f, const std::string& v) {
         return ParseInt<int>(f, v, 0, 10000000, &flags.limits.connections_per_ip);
       }},
      {"limit-loopback", Bool(&flags.limits.limit_loopback)},
      {"trust-proxy", Bool(&flags.trust_proxy)},
      {"public-metrics", Bool(&flags.public_metrics)},
      {"agones", Bool(&flags.agones)},
      {"limit-ip-new-players-per-minute", [&](const std::string& f, const std::string& v) {
         return ParseInt<int>(f, v, 0, 1000000, &flags.limits.ip_new_players_per_minute);
       }},
      {"log-level", [&](const std::string&, const std::string& v) {
         static const char* kLevels[] = {"trace", "debug", "info", "warn", "error", "critical",
                                         "off"};
         for (const char* level : kLevels) {
           if (v == level) {
             flags.log_level = v;
             return engine::Status::Ok();
           }
         }
         return BadValue("log-level", v, "one of trace, debug, info, warn, error, critical, off");
       }},
  };
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--help" || arg == "-h") {
      flags.help = true;
      continue;
    }
    if (arg.rfind("--", 0) != 0) {
      return engine::Status("bad_flag", "Unexpected argument '" + arg + "' (see --help).");
    }
    std::string name = arg.substr(2);
    std::string value;
    const size_t eq = name.find('=');
    if (eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    } else {
      if (setters.count(name) == 0) {
        return engine::Status("bad_flag", "Unknown flag --" + name + " (see --help).");
      }
      if (i + 1 >= args.size()) {
        return engine::Status("bad_flag", "--" + name + " needs a value.");
      }
      value = args[++i];
    }
    auto it = setters.find(name);
    if (it == setters.end()) {
      return engine::Status("bad_flag", "Unknown flag --" + name + " (see --help).");
    }
    engine::Status st = it->second(name, value);
    if (!st.ok()) return st;
  }
  return flags;
}

engine::StatusOr<std::string> ReadLinkSecret(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return engine::Status("bad_flag", "cannot read '" + path + "'.");
  std::string secret;
  std::getline(in, secret);
  if (!secret.empty() && secret.back() == '\r') secret.pop_back();
  if (secret.size() < 16 || secret.size() > 256) {
    return engine::Status("bad_flag", "the secret in '" + path + "' must be 16 to 256 characters.");
  }
  for (char c : secret) {
    if (c < 0x21 || c > 0x7e) {
      return engine::Status("bad_flag", "the secret in '" + path +
                                            "' must be printable ASCII without spaces.");
    }
  }
  return secret;
}

}  // namespace plateau::server
