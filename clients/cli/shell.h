#pragma once
// The terminal client's line commands (interactive or scripted). Each command is one request
// (or a bounded wait) and prints its outcome; a failure is a Status with the server's code and
// reason, or "usage" for a malformed command line.
#include <iosfwd>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "clients/cli/client.h"

namespace plateau::cli {

// What `join` and `watch` are given, as the server's request takes it: a room id, a join code,
// a room id and its code (`join`: the join code; `watch`: the join code or the watch code), or a
// link the web client hands out, pasted whole (http://host/#/join/<room>/<code>,
// #/watch/<room>/<watch code>, #/room/<id>, #/watch/room/<id>, and the older #/join/<code> and
// #/watch/<code>). A watch code lets its holder watch only: `join` refuses it.
struct RoomRef {
  std::string room_id;
  std::string join_code;
  std::string watch_code;
};
engine::StatusOr<RoomRef> ParseRoomRef(const std::vector<std::string>& args, bool watching);

// The web client's links to a room for those its codes were sent to: its invitation (a public
// room's page, or a private room's join link when the join code is known) and its watch link.
// `base` is the server's address, e.g. "http://127.0.0.1:8080/".
std::vector<std::string> RoomLinks(const plateau::v1::RoomInfo& room, const std::string& base);

class Shell {
 public:
  Shell(Client& client, Output& out) : client_(client), out_(out) {}

  Status Execute(std::string_view line);
  bool quit_requested() const { return quit_; }
  static std::string Help();

 private:
  Status Games();
  Status Rooms(const std::vector<std::string>& args);
  Status Create(const std::vector<std::string>& args);
  Status Enter(std::string_view command, const std::vector<std::string>& args);
  Status JoinOpen(const std::vector<std::string>& args);
  Status Act(std::string_view text);
  Status Answer(std::string_view words);
  // Sends one of the game's actions (`said`: how the acceptance line names it).
  Status SendAction(const engine::Message& action, const std::string& said);
  const engine::Game* RoomGame();  // the current room's game, null when unknown
  Status ActFirst(std::string_view alternatives);
  // The moves this seat may try now, read from its view, numbered from 1, with their words: the
  // engine's published moves (their choices' words joined).
  struct Choice {
    std::unique_ptr<google::protobuf::Message> action;
    std::string words;
  };
  std::vector<Choice> Choices();
  Status ListChoices();
  Status PlayChoice(const std::vector<std::string>& args);
  Status View(bool raw);
  Status Log(const std::vector<std::string>& args);
  // Bots, rematches, stand-ins and resigning: add-bot, remove-bot, rematch, replace, take-back,
  // resign.
  Status Seats(std::string_view command, const std::vector<std::string>& args);
  // An action in words, seats named as the room names them.
  std::string Words(const google::protobuf::Message& action);
  // The question asked of this seat now (the first: a seat answers in order), if any; `namer`
  // gets the room's seat names.
  std::optional<engine::v1::Prompt> Asked(std::function<std::string(int)>* namer);
  Status Replays(const std::vector<std::string>& args);
  Status Replay(const std::vector<std::string>& args);
  Status Moves(const std::vector<std::string>& args);
  Status Download(const std::vector<std::string>& args);
  Status Wait(std::string_view command, const std::vector<std::string>& args);
  Status Undo(const std::vector<std::string>& args);
  // The room's line, its seats and the links to hand on.
  Status ShowRoom();

  StatusOr<std::string> CurrentRoomId();
  struct GameRef {
    std::string game_id;
    std::string replay_token;  // a private game's key, when known
  };
  // "last" means the game this session last saw start or finish (with the token its GameOver
  // brought); "<game_id>:<token>" names a private game with its replay token.
  StatusOr<GameRef> GameId(const std::string& word);

  Client& client_;
  Output& out_;
  bool quit_ = false;
};

// Reads commands from `in` until the end or `quit` (blank lines and '#' comments skipped).
// Strict mode (scripts) stops at the first failure with exit status 1, naming `source` and the
// line; otherwise failures are printed and reading goes on.
int RunShell(Shell& shell, std::istream& in, const std::string& source, bool strict, bool prompt,
             Output& out);

}  // namespace plateau::cli
