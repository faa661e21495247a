#pragma once
// plateau-load's command line, parsed and checked apart from main() so every bound reads in one
// place.
#include <boost/asio/ip/address.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/status.h"

namespace plateau::load {

struct LoadOptions {
  // Loopback only: load traffic never leaves this machine.
  boost::asio::ip::address host = boost::asio::ip::make_address("127.0.0.1");
  uint16_t port = 0;
  std::string game = "globalissimo";
  int rooms = 10;
  int seats = 0;               // 0: the game's fewest
  int threads = 1;
  double rate = 0;             // accepted actions per second wanted in all; 0: closed loop
  int duration_seconds = 10;
  int warmup_seconds = 2;
  int server_pid = 0;          // 0: no server statistics
  int store_pid = 0;           // 0: no database server's CPU (its main process otherwise)
  int idle_connections = 0;    // > 0: the idle-connection probe instead of games
  bool floor = false;          // plateau-floor-server's trivial game instead of a Plateau game
  bool reconnect = false;      // a lost connection is opened again (several nodes), not a failure
  bool json = false;
  bool help = false;
};

engine::StatusOr<LoadOptions> ParseOptions(const std::vector<std::string>& args);
std::string Help();

}  // namespace plateau::load
