// plateau-cli: a terminal thin client for a Plateau server. It never runs the rules: it sends
// actions, applies the server's view diffs and prints what this player may see.
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iostream>

#include "clients/cli/client.h"
#include "clients/cli/shell.h"
#include "engine/console/command_line.h"
#include "engine/core/registry.h"

namespace plateau::cli {
namespace {

constexpr const char* kHelp = R"(Usage: plateau-cli [--host HOST] [--port PORT] [--name NAME] [--token-file FILE]
                  [--timeout MS] [--reconnect-for MS] [--script FILE]

Connects to ws://HOST:PORT/ws (default 127.0.0.1:8080) and reads commands, one per line, from
the terminal or a script ('#' comments and blank lines are ignored).
  --name NAME        your name for a new player (default: $USER)
  --token-file FILE  where your player token is kept, so you get your seats back next time
                     (default: ~/.plateau-cli-token)
  --timeout MS       how long to wait for each server reply (default 10000)
  --reconnect-for MS when the connection drops (a server restart, a network cut), keep trying
                     to reconnect this long, then log in again with the token, return to the
                     room and catch the game up (default 300000; 0: do not reconnect)
  --script FILE      run FILE ('-' for stdin) and stop at the first failure with exit status 1

)";

int Main(int argc, char** argv) {
  std::vector<std::string> argv_words(argv + 1, argv + argc);
  for (const std::string& a : argv_words) {
    if (a == "--help" || a == "-h") {
      std::cout << kHelp << Shell::Help();
      return 0;
    }
  }
  auto parsed = console::Args::Parse(argv_words, {"host", "port", "name", "token-file", "timeout", "reconnect-for", "script"}, {});
  if (!parsed.ok()) {
    std::cerr << "plateau-cli: " << parsed.status().reason() << "\n\n" << kHelp;
    return 2;
  }
  const console::Args& args = parsed.value();
  if (!args.positionals().empty()) {
    std::cerr << "plateau-cli: unexpected argument '" << args.positionals()[0] << "'.\n\n" << kHelp;
    return 2;
  }
  // The client knows the games only to read and print their actions and views.
  Status loaded = engine::Registry::LoadAll();
  if (!loaded.ok()) {
    std::cerr << "plateau-cli: the games could not be loaded: " << loaded.reason() << "\n";
    return 1;
  }

  Client::Settings settings;
  settings.host = args.Get("host", "127.0.0.1");
  settings.port = args.Get("port", "8080");
  const char* user = std::getenv("USER");
  settings.name = args.Get("name", user != nullptr && *user != '\0' ? user : "Player");
  const char* home = std::getenv("HOME");
  settings.token_file = args.Get(
      "token-file", home != nullptr ? std::string(home) + "/.plateau-cli-token" : ".plateau-cli-token");
  auto timeout = console::ParseUint(args.Get("timeout", "10000"), "--timeout");
  if (!timeout.ok() || timeout.value() == 0) {
    std::cerr << "plateau-cli: --timeout must be a positive number of milliseconds.\n";
    return 2;
  }
  settings.timeout = std::chrono::milliseconds(std::min<uint64_t>(timeout.value(), 3600000));
  auto reconnect_for = console::ParseUint(args.Get("reconnect-for", "300000"), "--reconnect-for");
  if (!reconnect_for.ok()) {
    std::cerr << "plateau-cli: --reconnect-for must be a number of milliseconds (0: never).\n";
    return 2;
  }
  settings.reconnect_for =
      std::chrono::milliseconds(std::min<uint64_t>(reconnect_for.value(), 24ull * 3600 * 1000));

  const std::string script = args.Get("script");
  std::ifstream script_file;
  if (!script.empty() && script != "-") {
    script_file.open(script);
    if (!script_file) {
      std::cerr << "plateau-cli: cannot open script '" << script << "'.\n";
      return 1;
    }
  }

  Output out;
  Client client(out);
  Status st = client.Connect(settings);
  if (!st.ok()) {
    std::cerr << "plateau-cli: " << st.reason() << "\n";
    return 1;
  }
  Shell shell(client, out);
  if (script.empty()) {
    const bool terminal = isatty(STDIN_FILENO);
    if (terminal) out.Line("Type 'help' for commands.");
    // A returning player goes straight back to its latest room (scripts stay explicit).
    if (client.welcome().room_ids_size() > 0) {
      const std::string room = *client.welcome().room_ids().rbegin();
      Status back = shell.Execute("join " + room);
      if (!back.ok()) out.Line("Could not return to room " + room + ": " + back.reason());
    }
    return RunShell(shell, std::cin, "stdin", false, terminal, out);
  }
  if (script == "-") return RunShell(shell, std::cin, "stdin", true, false, out);
  return RunShell(shell, script_file, script, true, false, out);
}

}  // namespace
}  // namespace plateau::cli

int main(int argc, char** argv) { return plateau::cli::Main(argc, argv); }
