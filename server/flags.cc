#include "server/flags.h"

#include <charconv>
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
  --durability MODE            machine: an action is synced to disk before it is acknowledged
                               (survives a power cut); process: written to the OS before it is
                               acknowledged (survives a killed server, not a power cut)
                               (default machine)
  --static DIR                 web client files to serve (default clients/web/dist)
  --threads N                  I/O threads, 1..64 (default 2)
  --max-message-bytes N        largest WebSocket message accepted (default 65536)
  --max-queue-bytes N          outgoing bytes a slow client may have waiting before it is
                               disconnected (default 4194304)
  --idle-timeout-seconds N     close WebSocket connections silent this long (default 300)
  --empty-room-grace-seconds N keep a waiting or finished room this long after its last member
                               disconnects (default 300; an explicit leave removes it at once)
  --log-level LEVEL            trace, debug, info, warn, error, critical, off (default info)
  --help                       this text
)";
}

engine::StatusOr<ServerFlags> ParseFlags(const std::vector<std::string>& args) {
  ServerFlags flags;
  using Setter = std::function<engine::Status(const std::string&, const std::string&)>;
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
      {"durability", [&](const std::string&, const std::string& v) {
         if (v != "machine" && v != "process") return BadValue("durability", v, "machine or process");
         flags.durability = v;
         return engine::Status::Ok();
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

}  // namespace plateau::server
