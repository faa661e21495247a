#include "clients/load/options.h"

#include <cmath>
#include <cstdlib>

#include "engine/console/command_line.h"

namespace plateau::load {
namespace {

using engine::Status;

constexpr const char* kUsage = "usage";

// `--name` as a whole number in [lo, hi], left unchanged when the flag is absent.
Status IntFlag(const console::Args& args, const std::string& name, int64_t lo, int64_t hi,
               int* out) {
  if (!args.Has(name)) return Status::Ok();
  auto v = console::ParseInt(args.Get(name), "--" + name);
  if (!v.ok()) return v.status();
  if (v.value() < lo || v.value() > hi) {
    return Status(kUsage, "--" + name + " must be from " + std::to_string(lo) + " to " +
                              std::to_string(hi) + ".");
  }
  *out = static_cast<int>(v.value());
  return Status::Ok();
}

}  // namespace

std::string Help() {
  return R"(Usage: plateau-load --port P [flags]

Plays games against a running plateau-server over WebSockets on this machine, with bots that
act from their own views only, and reports throughput, latency and (with --server-pid) the
server's CPU time and memory.

  --port P                 the server's port (required)
  --host ADDRESS           the server's address; loopback only (default 127.0.0.1)
  --game ID                a registered game (default globalissimo)
  --rooms N                rooms playing at once, 1..5000 (default 10)
  --seats N                bot players per room (default: the game's fewest)
  --threads N              I/O threads, 1..64 (default 1)
  --rate R                 paced: R accepted actions per second in all, each room submitting
                           every rooms/R seconds (default: closed loop, each bot acts as soon
                           as it may)
  --duration-seconds S     the measured window, 1..600 (default 10)
  --warmup-seconds W       played but not counted, 0..120 (default 2): every room is seated
                           first, then all games start together, and the window opens W s later
  --server-pid PID         report the server's CPU time per action and its memory
  --store-pid PID          also report the CPU time per action of a database server the
                           server writes to (PostgreSQL's main process: it and its children,
                           over the same window)
  --idle-connections N     instead of games: open N connections, 1..20000, that say Hello and
                           stay idle, and report the server's memory per connection (needs
                           --server-pid)
  --floor                  instead of a Plateau server, drive plateau-floor-server (a bare
                           Beast WebSocket server with a trivial two-seat turn game, built in
                           bench/): the floor to read the server's figures against, closed
                           loop or paced (--rate)
  --reconnect              a bot whose connection is lost (its node stopped or died) opens
                           another naming its room, says Hello with its token and takes its
                           seat back, as the web client does, instead of giving the room up;
                           reports how many did and the longest time until a view came back
  --json                   print one JSON object instead of one metric per line
  --help                   this text

It stops by itself after the window (every socket closed); past warmup + duration + 30 s it
exits with status 3 whatever happens. Exit status 1: connections failed or rooms gave up.
)";
}

engine::StatusOr<LoadOptions> ParseOptions(const std::vector<std::string>& argv) {
  auto parsed = console::Args::Parse(
      argv,
      {"host", "port", "game", "rooms", "seats", "threads", "rate", "duration-seconds",
       "warmup-seconds", "server-pid", "store-pid", "idle-connections"},
      {"json", "help", "floor", "reconnect"});
  if (!parsed.ok()) return parsed.status();
  const console::Args& args = parsed.value();
  LoadOptions o;
  if (args.Has("help")) {
    o.help = true;
    return o;
  }
  if (!args.positionals().empty()) {
    return Status(kUsage, "Unexpected argument '" + args.positionals()[0] + "'.");
  }
  o.json = args.Has("json");

  std::string host = args.Get("host", "127.0.0.1");
  if (host == "localhost") host = "127.0.0.1";
  boost::system::error_code ec;
  o.host = boost::asio::ip::make_address(host, ec);
  if (ec || !o.host.is_loopback()) {
    return Status(kUsage, "--host must be a loopback address (127.0.0.0/8 or ::1), not '" + host +
                              "': load traffic only goes to this machine.");
  }
  if (!args.Has("port")) return Status(kUsage, "--port is required.");
  int port = 0;
  for (Status st : {IntFlag(args, "port", 1, 65535, &port),
                    IntFlag(args, "rooms", 1, 5000, &o.rooms),
                    IntFlag(args, "seats", 1, 64, &o.seats),
                    IntFlag(args, "threads", 1, 64, &o.threads),
                    IntFlag(args, "duration-seconds", 1, 600, &o.duration_seconds),
                    IntFlag(args, "warmup-seconds", 0, 120, &o.warmup_seconds),
                    IntFlag(args, "server-pid", 1, 1 << 22, &o.server_pid),
                    IntFlag(args, "store-pid", 1, 1 << 22, &o.store_pid),
                    IntFlag(args, "idle-connections", 1, 20000, &o.idle_connections)}) {
    if (!st.ok()) return st;
  }
  o.port = static_cast<uint16_t>(port);
  o.game = args.Get("game", o.game);
  if (args.Has("rate")) {
    const std::string text = args.Get("rate");
    char* end = nullptr;
    const double rate = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(rate) || rate <= 0 || rate > 1e7) {
      return Status(kUsage, "--rate must be a number of actions per second above 0.");
    }
    o.rate = rate;
  }
  o.floor = args.Has("floor");
  o.reconnect = args.Has("reconnect");
  if (o.floor && (o.idle_connections > 0 || args.Has("game") || args.Has("seats"))) {
    return Status(kUsage, "--floor plays its own two-seat game: it takes no --game, --seats or "
                          "--idle-connections.");
  }
  if (o.idle_connections > 0 && o.server_pid == 0) {
    return Status(kUsage,
                  "--idle-connections measures the server's memory: it needs --server-pid.");
  }
  return o;
}

}  // namespace plateau::load
