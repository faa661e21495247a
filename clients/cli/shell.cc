#include "clients/cli/shell.h"

#include "clients/cli/pretty.h"
#include "clients/cli/world_map.h"

#include <algorithm>
#include <fstream>
#include <istream>
#include <thread>

#include "engine/console/command_line.h"
#include "engine/console/record.h"
#include "engine/core/data.h"
#include "engine/core/registry.h"

namespace plateau::cli {
namespace {

using console::kUsage;
using plateau::v1::ClientMessage;
using plateau::v1::ServerMessage;

constexpr std::chrono::milliseconds kDefaultWait{60000};
constexpr size_t kLogContext = 4;  // log entries `view` prints even when already seen
constexpr size_t kLogPage = 20;

struct CommandHelp {
  const char* usage;
  const char* what;
};

constexpr CommandHelp kCommands[] = {
    {"games", "list the games the server offers"},
    {"rooms [game]", "list public rooms"},
    {"create <game> [--private] [--seats N] [--options TEXT] [title]",
     "open a room (you sit in seat 1 and are host); TEXT is the game's Options in text format, "
     "e.g. --options 'rounds: 1'"},
    {"join <room_id|code|link> [join code]",
     "take a seat in a room (or return to yours): its id, its join code, both, or an invitation "
     "link pasted from the web client (http://host/#/join/<room>/<code>)"},
    {"join-open <game> [timeout_ms]", "wait for a public room of <game> with a free seat and join it"},
    {"watch <room_id|code|link> [watch code]",
     "watch a room as a spectator: a private room needs its watch code (or its join code), given "
     "after the room id or in a watch link pasted from the web client (http://host/#/watch/<room>/<watch code>)"},
    {"leave [keep|concede|bot]",
     "leave the current room; during a game your seat waits for you (keep, the default), you "
     "resign (concede), or a bot plays it from now on (bot)"},
    {"resign", "resign from the game under way; it goes on without you"},
    {"replace <seat> [bot|claim]",
     "during a game, for a player who left or has been away past the room's grace time: a bot "
     "plays their seat (bot, the default), or, with two players, they resign and you win (claim)"},
    {"take-back", "take your seat back from the bot playing it"},
    {"rematch [no]",
     "after the game: offer a rematch, or accept the one offered; it starts once every player "
     "accepted (bots always do). 'rematch no' withdraws or declines the offer"},
    {"room",
     "show the current room, its seats, its codes (the join code only to those who may sit) and "
     "the web links to hand on"},
    {"ready [off]", "say you are ready (or not) for the game to start"},
    {"start", "start the game (host; every seated player must be ready)"},
    {"say <text>", "chat in the current room"},
    {"add-bot <seat> [easy|normal]", "host, before the start: a bot the server plays takes free seat <seat> (normal by default)"},
    {"remove-bot <seat>", "host, before the start: the bot in seat <seat> leaves it"},
    {"act <action>", "play an action in the game's text format, seats counted from 1, e.g. act place { slot: 1 position: 2 }"},
    {"answer <words>",
     "answer the question asked of you: an option's number or name (several separated by commas), "
     "a number, yes or no, or the text; a point on the world map as a latitude and a longitude "
     "(48.9N 2.3E)"},
    {"undo",
     "take back your last move, when the room allows it, nobody has acted since and it revealed "
     "nothing ('view' and the move's acceptance say when you may)"},
    {"choices", "list the moves you may make now in words, numbered, or the question asked of you"},
    {"play <n>", "make move n of the list 'choices' prints"},
    {"act-first <action> || <action> ...", "play the first of these actions the server accepts"},
    {"play-until-over <action> || ...", "on each of your turns play the first accepted action (an action, or 'answer <words>'), until the game ends; it goes on across reconnections"},
    {"view [raw]",
     "print your current view of the game and the log entries you have not seen yet (at least the "
     "last four; raw: every field, in text format)"},
    {"log [page]", "the game's log as you have read it, 20 entries a page, page 1 the newest"},
    {"turn", "say whose turn it is"},
    {"replays [game]", "list finished games"},
    {"replay <game_id[:token]|last> [step] [seat|spectator]", "show one step of a finished game as a seat (counted from 1) sees it, or a spectator (a private game needs its token unless you played in it)"},
    {"moves <game_id[:token]|last> [seat|spectator]", "list every move of a finished game in words, as that seat (counted from 1) or a spectator reads them"},
    {"download <game_id[:token]|last> <file>", "save a finished game's record, replayable with 'plateau-engine replay'"},
    {"wait-turn [timeout_ms]", "wait until you may act (or the game is over)"},
    {"wait-game-over [timeout_ms]", "wait for the game's results"},
    {"wait-seated <n> [timeout_ms]", "wait until n seats of the current room are taken"},
    {"wait-ready [timeout_ms]", "wait until every seat is taken and every player is ready"},
    {"wait-away <seat> [timeout_ms]", "wait until the player of a seat has left the table or lost the connection"},
    {"wait-start [timeout_ms]", "wait until a game is under way in the current room (its first view is here)"},
    {"wait-version <n> [timeout_ms]", "wait until your view of the game reaches version n (the 'vN' lines)"},
    {"sleep <ms>", "pause"},
    {"help", "this list"},
    {"quit", "leave the client"},
};

std::chrono::milliseconds WaitArg(const std::vector<std::string>& args, size_t index,
                                  Status* error) {
  if (args.size() <= index) return kDefaultWait;
  auto ms = console::ParseUint(args[index], "The timeout (ms)");
  if (!ms.ok()) {
    *error = ms.status();
    return kDefaultWait;
  }
  return std::chrono::milliseconds(std::min<uint64_t>(ms.value(), 24ull * 3600 * 1000));
}

int Seated(const plateau::v1::RoomInfo& room) {
  return static_cast<int>(std::count_if(room.seats().begin(), room.seats().end(),
                                        [](const auto& s) { return !s.player_id().empty(); }));
}

// Join codes are six characters of the server's unambiguous alphabet; room ids are longer.
bool LooksLikeJoinCode(std::string_view s) {
  static constexpr std::string_view kAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
  return s.size() == 6 && std::all_of(s.begin(), s.end(), [](char c) {
           return kAlphabet.find(c) != std::string_view::npos;
         });
}

// A seat as people type it, counted from 1; the wire's count from 0. The server checks the range.
StatusOr<int> SeatArg(const std::string& word) {
  auto seat = console::ParseUint(word, "The seat");
  if (!seat.ok()) return seat.status();
  if (seat.value() < 1 || seat.value() > 1024) return Status(kUsage, "Seats are counted from 1.");
  return static_cast<int>(seat.value()) - 1;
}

std::vector<std::string> SplitAlternatives(std::string_view text) {
  std::vector<std::string> out;
  while (true) {
    size_t bar = text.find("||");
    out.emplace_back(console::Trim(text.substr(0, bar)));
    if (bar == std::string_view::npos) break;
    text.remove_prefix(bar + 2);
  }
  return out;
}

constexpr const char* kUndoHint = "'undo' takes it back";

std::string FailureText(const Status& st) {
  if (st.code() == kUsage || st.code() == "network" || st.code() == "timeout" ||
      st.code() == "protocol") {
    return "error: " + st.reason();
  }
  return "refused: " + st.code() + ": " + st.reason();
}

}  // namespace

std::string Shell::Help() {
  std::string out = "Commands:\n";
  for (const CommandHelp& c : kCommands) out += std::string("  ") + c.usage + "\n      " + c.what + "\n";
  return out;
}

StatusOr<std::string> Shell::CurrentRoomId() {
  return client_.WithState([](const ClientState& s) -> StatusOr<std::string> {
    if (!s.in_room) return Status(kUsage, "You are in no room: create, join or watch one first.");
    return s.room.room_id();
  });
}

StatusOr<Shell::GameRef> Shell::GameId(const std::string& word) {
  if (word != "last") {
    const size_t colon = word.find(':');
    if (colon == std::string::npos) return GameRef{word, ""};
    return GameRef{word.substr(0, colon), word.substr(colon + 1)};
  }
  GameRef ref = client_.WithState([](const ClientState& s) {
    const bool over = s.game_over.has_value() && s.game_over->game_id() == s.last_game_id;
    return GameRef{s.last_game_id, over ? s.game_over->replay_token() : ""};
  });
  if (ref.game_id.empty()) return Status(kUsage, "No game seen yet in this session: give a game id.");
  return ref;
}

Status Shell::Games() {
  ClientMessage m;
  m.mutable_list_games();
  auto reply = client_.Request(m);
  if (!reply.ok()) return reply.status();
  for (const plateau::v1::GameInfo& g : reply.value().game_list().games()) {
    out_.Line(g.id() + "\t" + g.title() + "\t" + std::to_string(g.min_seats()) + "-" +
              std::to_string(g.max_seats()) + " seats");
  }
  return Status::Ok();
}

Status Shell::Rooms(const std::vector<std::string>& args) {
  if (args.size() > 1) return Status(kUsage, "rooms takes at most a game id.");
  ClientMessage m;
  m.mutable_list_rooms()->set_game(args.empty() ? "" : args[0]);
  auto reply = client_.Request(m);
  if (!reply.ok()) return reply.status();
  if (reply.value().room_list().rooms().empty()) out_.Line("No public rooms.");
  const auto& list = reply.value().room_list();
  for (const auto& room : list.rooms()) out_.Line(RoomLine(room));
  if (!list.next_after_room_id().empty()) {
    out_.Line("(" + std::to_string(list.rooms_size()) + " of " + std::to_string(list.total()) +
              " rooms shown)");
  }
  return Status::Ok();
}

Status Shell::Create(const std::vector<std::string>& words) {
  auto parsed = console::Args::Parse(words, {"seats", "options"}, {"private"});
  if (!parsed.ok()) return parsed.status();
  const console::Args& args = parsed.value();
  if (args.positionals().empty()) return Status(kUsage, "create needs a game id.");
  const std::string game_id = args.positionals()[0];
  const engine::Game* game = engine::Registry::Find(game_id);
  if (game == nullptr) {
    return Status(kUsage, "This client does not know the game '" + game_id + "' (see 'games').");
  }
  std::unique_ptr<engine::Message> options(game->OptionsPrototype().New());
  std::string error = engine::ParseTextFormat(args.Get("options"), options.get());
  if (!error.empty()) {
    return Status(kUsage, "Cannot read the options as " + options->GetTypeName() + ": " + error);
  }
  auto seats = console::ParseUint(args.Get("seats", std::to_string(game->Info().min_seats)), "--seats");
  if (!seats.ok()) return seats.status();
  std::string title;
  for (size_t i = 1; i < args.positionals().size(); ++i) {
    title += (title.empty() ? "" : " ") + args.positionals()[i];
  }
  ClientMessage m;
  plateau::v1::CreateRoom* create = m.mutable_create_room();
  create->set_game(game_id);
  create->set_options(engine::DeterministicBytes(*options));
  create->set_is_private(args.Has("private"));
  create->set_seats(static_cast<uint32_t>(std::min<uint64_t>(seats.value(), UINT32_MAX)));
  create->set_title(title);
  auto reply = client_.Request(m);
  if (!reply.ok()) return reply.status();
  if (!reply.value().has_room()) return Status("protocol", "CreateRoom was not answered with a room.");
  client_.EnterRoom(reply.value().room());
  out_.Line("created " + RoomLine(reply.value().room()) + "; you are " +
            SeatNumber(reply.value().room().your_seat()));
  return Status::Ok();
}

StatusOr<RoomRef> ParseRoomRef(const std::vector<std::string>& args, bool watching) {
  const std::string command = watching ? "watch" : "join";
  if (args.empty() || args.size() > 2) {
    return Status(kUsage, command + " needs a room id or a join code (then optionally the room's " +
                              (watching ? "watch code" : "join code") + "), or a link to the room.");
  }
  RoomRef ref;
  const size_t hash = args[0].find("#/");
  if (hash != std::string::npos) {
    if (args.size() > 1) return Status(kUsage, "A link says it all: give it alone.");
    std::string path = args[0].substr(hash + 2);
    path = path.substr(0, path.find('?'));
    std::vector<std::string> parts;
    for (size_t from = 0; from <= path.size();) {
      const size_t slash = std::min(path.find('/', from), path.size());
      if (slash > from) parts.push_back(path.substr(from, slash - from));
      from = slash + 1;
    }
    const size_t n = parts.size();
    if (n == 2 && parts[0] == "room") {
      ref.room_id = parts[1];
    } else if (n == 3 && parts[0] == "join") {
      ref.room_id = parts[1];
      ref.join_code = parts[2];
    } else if (n == 3 && parts[0] == "watch" && parts[1] == "room") {
      ref.room_id = parts[2];
    } else if (n == 3 && parts[0] == "watch") {
      ref.room_id = parts[1];
      ref.watch_code = parts[2];
    } else if (n == 2 && (parts[0] == "join" || parts[0] == "watch")) {
      ref.join_code = parts[1];
    } else {
      return Status(kUsage, "That is no link to a room (#/join/..., #/watch/... or #/room/...).");
    }
  } else if (args.size() == 2) {
    ref.room_id = args[0];
    (watching && !LooksLikeJoinCode(args[1]) ? ref.watch_code : ref.join_code) = args[1];
  } else if (LooksLikeJoinCode(args[0])) {
    ref.join_code = args[0];
  } else {
    ref.room_id = args[0];
  }
  if (!watching && !ref.watch_code.empty()) {
    return Status(kUsage, "A watch link lets you watch only: use 'watch' with it, and ask for the "
                          "room's invitation (its join code) to sit.");
  }
  return ref;
}

std::vector<std::string> RoomLinks(const plateau::v1::RoomInfo& room, const std::string& base) {
  std::vector<std::string> links;
  if (!room.is_private()) {
    links.push_back("invitation: " + base + "#/room/" + room.room_id());
  } else if (!room.join_code().empty()) {
    links.push_back("invitation: " + base + "#/join/" + room.room_id() + "/" + room.join_code());
  }
  if (!room.is_private()) {
    links.push_back("watch link: " + base + "#/watch/room/" + room.room_id());
  } else if (!room.watch_code().empty()) {
    links.push_back("watch link: " + base + "#/watch/" + room.room_id() + "/" + room.watch_code());
  }
  return links;
}

Status Shell::Enter(std::string_view command, const std::vector<std::string>& args) {
  auto ref = ParseRoomRef(args, command == "watch");
  if (!ref.ok()) return ref.status();
  ClientMessage m;
  if (command == "join") {
    m.mutable_join_room()->set_room_id(ref.value().room_id);
    m.mutable_join_room()->set_join_code(ref.value().join_code);
  } else {
    m.mutable_spectate()->set_room_id(ref.value().room_id);
    m.mutable_spectate()->set_join_code(ref.value().join_code);
    m.mutable_spectate()->set_watch_code(ref.value().watch_code);
  }
  auto reply = client_.Request(m);
  if (!reply.ok()) return reply.status();
  if (!reply.value().has_room()) return Status("protocol", "The server did not answer with a room.");
  client_.EnterRoom(reply.value().room());
  const int seat = reply.value().room().your_seat();
  const bool started = reply.value().room().status() == plateau::v1::ROOM_STATUS_PLAYING ||
                       reply.value().room().status() == plateau::v1::ROOM_STATUS_FINISHED;
  if (started && !client_.WithState([](const ClientState& s) { return s.tracker.has_view(); })) {
    // Returning to (or watching) a game under way: ask for its view. The server sends the
    // Snapshot before the Ok that answers the Resync, so the view is here when this returns.
    ClientMessage resync;
    resync.mutable_resync()->set_room_id(reply.value().room().room_id());
    resync.mutable_resync()->set_have_version(0);
    auto caught_up = client_.Request(resync);
    if (!caught_up.ok()) return caught_up.status();
  }
  out_.Line((command == "join" ? "joined " : "watching ") + RoomLine(reply.value().room()) +
            (seat >= 0 ? "; you are " + SeatNumber(seat) : std::string()));
  out_.Line("  " + SeatsLine(reply.value().room()));
  return Status::Ok();
}

Status Shell::JoinOpen(const std::vector<std::string>& args) {
  if (args.empty() || args.size() > 2) return Status(kUsage, "join-open needs a game id.");
  Status error;
  const auto timeout = WaitArg(args, 1, &error);
  if (!error.ok()) return error;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  Status last = Status("timeout", "No open " + args[0] + " room appeared within " +
                                      std::to_string(timeout.count()) + " ms.");
  do {
    ClientMessage m;
    m.mutable_list_rooms()->set_game(args[0]);
    auto reply = client_.Request(m);
    if (!reply.ok()) return reply.status();
    for (const auto& room : reply.value().room_list().rooms()) {
      if (room.status() != plateau::v1::ROOM_STATUS_WAITING ||
          Seated(room) >= static_cast<int>(room.max_seats())) {
        continue;
      }
      Status st = Enter("join", {room.room_id()});
      if (st.ok()) return st;
      last = st;  // taken meanwhile, perhaps: look again
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  } while (std::chrono::steady_clock::now() < deadline);
  return last;
}

Status Shell::SendAction(const engine::Message& action, const std::string& said) {
  auto room_id = CurrentRoomId();
  if (!room_id.ok()) return room_id.status();
  const uint64_t version = client_.WithState([](const ClientState& s) { return s.tracker.version(); });
  ClientMessage m;
  m.mutable_action()->set_room_id(room_id.value());
  m.mutable_action()->set_action(engine::DeterministicBytes(action));
  m.mutable_action()->set_view_version(version);
  auto reply = client_.Request(m);
  if (!reply.ok()) return reply.status();
  const uint64_t index = reply.value().accepted().action_index();
  client_.NoteAccepted(index);
  // The mover's Diff rides on the acceptance, so the view already says whether it may go back.
  const bool may_undo = client_.WithState([](const ClientState& s) { return s.tracker.can_undo(); });
  out_.Line("accepted: " + said + " (action " + std::to_string(index + 1) + ")" +
            (may_undo ? std::string("; ") + kUndoHint : ""));
  return Status::Ok();
}

const engine::Game* Shell::RoomGame() {
  return client_.WithState([](const ClientState& s) {
    const engine::Game* g = s.tracker.game();
    return g != nullptr ? g : engine::Registry::Find(s.room.game());
  });
}

Status Shell::Act(std::string_view text) {
  if (auto room_id = CurrentRoomId(); !room_id.ok()) return room_id.status();
  const engine::Game* game = RoomGame();
  if (game == nullptr) return Status(kUsage, "This client does not know this room's game.");
  if (text.empty()) return Status(kUsage, "act needs an action in text format.");
  auto action = game->ParseActionText(text);
  if (!action.ok()) return Status(kUsage, action.status().reason());
  if (Status st = SeatsFromPeople(action.value().get()); !st.ok()) return st;
  return SendAction(*action.value(), Words(*action.value()));
}

Status Shell::Answer(std::string_view words) {
  if (auto room_id = CurrentRoomId(); !room_id.ok()) return room_id.status();
  const engine::Game* game = RoomGame();
  if (game == nullptr) return Status(kUsage, "This client does not know this room's game.");
  std::function<std::string(int)> namer;
  const auto prompt = Asked(&namer);
  if (!prompt.has_value()) return Status(kUsage, "Nothing is asked of you now.");
  // A map question: a terminal draws no map, so the player points with a latitude and longitude
  // and the answer is the region there (a map number still works too).
  std::string pointed;
  const auto& options = game->OptionsOf(*prompt);
  if (prompt->max() <= 1 && !options.empty() && options[0].target().has_region() &&
      LooksLikeLatLon(words)) {
    auto point = ParseLatLon(words);
    if (!point.ok()) return point.status();
    const std::string region = RegionAt(point.value());
    const auto it = std::find_if(options.begin(), options.end(),
                                 [&](const auto& o) { return o.target().region() == region; });
    if (region.empty() || it == options.end()) {
      return Status("bad_answer", "No country of the map lies at " + std::string(console::Trim(words)) +
                                      ": point inside one (latitude first, e.g. 48.9N 2.3E).");
    }
    pointed = it->id();
    words = pointed;
  }
  auto answer = game->AnswerFromWords(*prompt, words, namer);
  if (!answer.ok()) return answer.status();
  return SendAction(*game->WrapAnswer(answer.value()), "answer " + std::string(console::Trim(words)));
}

std::vector<Shell::Choice> Shell::Choices() {
  const engine::Game* game = RoomGame();
  if (game == nullptr) return {};
  return client_.WithState([game](const ClientState& s) {
    std::vector<Choice> out;
    if (!s.tracker.has_view() || s.tracker.seat() < 0 || s.tracker.game_over()) return out;
    const auto namer = s.Namer();
    for (auto& move : engine::PublishedMoves(*game, *s.tracker.view())) {
      std::string words = PublishedMoveWords(*game, move, namer);
      out.push_back({std::move(move.action), std::move(words)});
    }
    return out;
  });
}

std::string Shell::Words(const google::protobuf::Message& action) {
  return MoveWords(action, client_.WithState([](const ClientState& s) { return s.Namer(); }));
}

std::optional<engine::v1::Prompt> Shell::Asked(std::function<std::string(int)>* namer) {
  return client_.WithState([namer](const ClientState& s) {
    std::optional<engine::v1::Prompt> asked;
    if (namer != nullptr) *namer = s.Namer();
    const engine::v1::Table* table = s.tracker.has_view() ? engine::ViewTable(*s.tracker.view()) : nullptr;
    if (table == nullptr || s.tracker.game_over()) return asked;
    // The first, as a seat answers its questions in order.
    for (const auto& p : table->prompts()) {
      if (static_cast<int>(p.seat()) == s.tracker.seat()) return std::optional<engine::v1::Prompt>(p);
    }
    return asked;
  });
}

Status Shell::ListChoices() {
  if (auto room_id = CurrentRoomId(); !room_id.ok()) return room_id.status();
  std::function<std::string(int)> namer;
  const auto prompt = Asked(&namer);
  const engine::Game* game = RoomGame();
  // A question first: it is answered before anything else, in the engine's words.
  if (prompt.has_value() && game != nullptr) {
    out_.Text(game->PromptText(*prompt, namer));
    out_.Line("Answer with 'answer <number or name>'.");
    return Status::Ok();
  }
  const auto moves = Choices();
  if (moves.empty()) {
    out_.Line("No move to make now ('turn' says whose turn it is).");
    return Status::Ok();
  }
  for (size_t i = 0; i < moves.size(); ++i)
    out_.Line("  " + std::to_string(i + 1) + ". " + moves[i].words);
  out_.Line("Play one with 'play <n>'.");
  return Status::Ok();
}

Status Shell::PlayChoice(const std::vector<std::string>& args) {
  if (args.size() != 1) return Status(kUsage, "play needs the number of a move from 'choices'.");
  auto n = console::ParseUint(args[0], "The move's number");
  if (!n.ok()) return n.status();
  if (auto room_id = CurrentRoomId(); !room_id.ok()) return room_id.status();
  // Listed again from the view now: a list printed earlier may be out of date.
  const auto moves = Choices();
  if (n.value() == 0 || n.value() > moves.size()) {
    return Status(kUsage, moves.empty() ? "No move to make now."
                                        : "Choose a move from 1 to " + std::to_string(moves.size()) +
                                              " ('choices' lists them).");
  }
  const Choice& move = moves[n.value() - 1];
  return SendAction(*move.action, move.words);
}

Status Shell::ActFirst(std::string_view alternatives) {
  std::vector<std::string> options = SplitAlternatives(alternatives);
  Status last;
  for (const std::string& text : options) {
    auto [command, rest] = console::SplitFirstWord(text);
    Status st = command == "answer" ? Answer(rest) : Act(text);
    if (st.ok()) return st;
    // Only the rules' refusals move on to the next alternative; anything else is a real failure.
    // An answer that does not fit the question (a name not among the options) moves on too.
    if ((st.code() == kUsage && command != "answer") || st.code() == "network" ||
        st.code() == "timeout") {
      return st;
    }
    last = st;
  }
  return Status(last.code(), "None of the " + std::to_string(options.size()) +
                                 " actions was accepted; the last refusal: " + last.reason());
}

Status Shell::View(bool raw) {
  return client_.WithState([this, raw](ClientState& s) -> Status {
    if (!s.tracker.has_view()) return Status(kUsage, "No game view yet: the game has not started.");
    if (raw) {
      out_.Text(console::MessageText(*s.tracker.view()));
    } else {
      out_.Text(PrettyView(*s.tracker.view(), SeatNames(s.room), s.tracker.seat(), false));
      // Every entry not printed yet, so a whole round's resolution is read even when it wrote
      // more than a screen's worth; at least the last few for context.
      const auto entries = s.tracker.LogToShow(kLogContext);
      const auto name = s.Namer();
      if (!entries.empty()) out_.Line("Log:");
      for (const auto* entry : entries) out_.Line("  " + s.tracker.game()->TextRenderer().Render(entry->text(), name));
      if (entries.size() < s.tracker.log().size()) {
        out_.Line("  (" + std::to_string(s.tracker.log().size() - entries.size()) +
                  " earlier entries: 'log' pages through them)");
      }
      s.tracker.MarkLogShown();
    }
    out_.Line("(v" + std::to_string(s.tracker.version()) + ", " + s.tracker.TurnText(s.Namer()) +
              (s.tracker.can_undo() ? std::string("; your last move: ") + kUndoHint : "") + ")");
    return Status::Ok();
  });
}

Status Shell::Undo(const std::vector<std::string>& args) {
  if (!args.empty()) return Status(kUsage, "undo takes no arguments.");
  auto room_id = CurrentRoomId();
  if (!room_id.ok()) return room_id.status();
  ClientMessage m;
  m.mutable_undo_move()->set_room_id(room_id.value());
  // The server alone judges (its refusal says which rule stops it); the take-back's Diff comes
  // before this answer and has already said so.
  auto reply = client_.Request(m);
  if (!reply.ok()) return reply.status();
  out_.Line("your move is taken back: " +
            client_.WithState([](const ClientState& s) { return s.tracker.TurnText(s.Namer()); }));
  return Status::Ok();
}

Status Shell::ShowRoom() {
  auto room = client_.WithState([](const ClientState& s) { return s.room; });
  out_.Line(RoomLine(room));
  out_.Line("  " + SeatsLine(room));
  const std::string base = "http://" + client_.settings().host + ":" + client_.settings().port + "/";
  for (const std::string& link : RoomLinks(room, base)) out_.Line("  " + link);
  return Status::Ok();
}

Status Shell::Log(const std::vector<std::string>& args) {
  if (args.size() > 1) return Status(kUsage, "log takes at most a page number.");
  uint64_t page = 1;
  if (!args.empty()) {
    auto n = console::ParseUint(args[0], "The page");
    if (!n.ok()) return n.status();
    if (n.value() == 0) return Status(kUsage, "Pages are counted from 1 (the newest entries).");
    page = n.value();
  }
  return client_.WithState([this, page](const ClientState& s) -> Status {
    if (!s.tracker.has_view()) return Status(kUsage, "No game view yet: the game has not started.");
    const auto& log = s.tracker.log();
    if (log.empty()) {
      out_.Line("The log is empty.");
      return Status::Ok();
    }
    const LogPage p = PageOfLog(log.size(), page, kLogPage);
    if (p.first == p.end) {
      return Status(kUsage, "The log has " + std::to_string(p.pages) + " page" +
                                (p.pages == 1 ? "" : "s") + ".");
    }
    out_.Line("Log, entries " + std::to_string(p.first + 1) + "-" + std::to_string(p.end) + " of " +
              std::to_string(log.size()) + " (page " + std::to_string(page) + " of " +
              std::to_string(p.pages) + (page < p.pages ? "; 'log " + std::to_string(page + 1) + "' for older ones" : "") + "):");
    const auto name = s.Namer();
    for (size_t i = p.first; i < p.end; ++i) {
      out_.Line("  " + s.tracker.game()->TextRenderer().Render(log[i].text(), name));
    }
    return Status::Ok();
  });
}

Status Shell::Replays(const std::vector<std::string>& args) {
  if (args.size() > 1) return Status(kUsage, "replays takes at most a game id.");
  ClientMessage m;
  m.mutable_list_replays()->set_game(args.empty() ? "" : args[0]);
  auto reply = client_.Request(m);
  if (!reply.ok()) return reply.status();
  if (reply.value().replay_list().replays().empty()) out_.Line("No finished games.");
  for (const auto& r : reply.value().replay_list().replays()) {
    // A private game is listed with its key, ready to give to `replay` or to a friend.
    const std::string id =
        r.replay_token().empty() ? r.game_id() : r.game_id() + ":" + r.replay_token();
    std::string line = id + " " + r.game() + " " + std::to_string(r.steps()) + " steps:";
    for (const auto& res : r.results()) {
      line += " " + res.name() + " " + std::to_string(res.score()) + " (#" + std::to_string(res.rank()) + ")";
    }
    out_.Line(line);
  }
  return Status::Ok();
}

static StatusOr<int> ViewerSeat(const std::string& word) {
  if (word == "spectator") return engine::kSpectator;
  auto seat = SeatArg(word);
  if (!seat.ok()) return Status(kUsage, seat.status().reason() + " (Or say 'spectator'.)");
  return seat;
}

Status Shell::Moves(const std::vector<std::string>& args) {
  if (args.empty() || args.size() > 2) {
    return Status(kUsage, "moves needs a game id (or 'last'), then optionally a seat.");
  }
  auto game_id = GameId(args[0]);
  if (!game_id.ok()) return game_id.status();
  ClientMessage m;
  m.mutable_get_replay()->set_game_id(game_id.value().game_id);
  m.mutable_get_replay()->set_replay_token(game_id.value().replay_token);
  m.mutable_get_replay()->set_seat(engine::kSpectator);
  m.mutable_get_replay()->set_with_moves(true);
  if (args.size() > 1) {
    auto seat = ViewerSeat(args[1]);
    if (!seat.ok()) return seat.status();
    m.mutable_get_replay()->set_seat(seat.value());
  }
  auto reply = client_.Request(m);
  if (!reply.ok()) return reply.status();
  const plateau::v1::Replay& r = reply.value().replay();
  const engine::Game* game = engine::Registry::Find(r.summary().game());
  if (game == nullptr) return Status(kUsage, "This client does not know the game '" + r.summary().game() + "'.");
  const auto name = SeatNamer(SeatNames(r.summary()), engine::kSpectator);
  static const char* kOrigin[] = {"", " (time ran out)", " (bot standing in)", " (win claimed)", " (game expired)"};
  for (const plateau::v1::ReplayMove& move : r.moves()) {
    std::string line = move.step() == 0 ? "set-up:" : std::to_string(move.step()) + ".";
    for (const auto& words : move.words()) line += " " + game->TextRenderer().Render(words, name);
    if (move.origin() > 0 && move.origin() < 5) line += kOrigin[move.origin()];
    out_.Line(line);
  }
  return Status::Ok();
}

Status Shell::Replay(const std::vector<std::string>& args) {
  if (args.empty() || args.size() > 3) {
    return Status(kUsage, "replay needs a game id (or 'last'), then optionally a step and a seat.");
  }
  auto game_id = GameId(args[0]);
  if (!game_id.ok()) return game_id.status();
  ClientMessage m;
  m.mutable_get_replay()->set_game_id(game_id.value().game_id);
  m.mutable_get_replay()->set_replay_token(game_id.value().replay_token);
  m.mutable_get_replay()->set_seat(engine::kSpectator);
  if (args.size() > 1) {
    auto step = console::ParseUint(args[1], "The step");
    if (!step.ok()) return step.status();
    m.mutable_get_replay()->set_step(static_cast<uint32_t>(std::min<uint64_t>(step.value(), UINT32_MAX)));
  }
  if (args.size() > 2) {
    auto seat = ViewerSeat(args[2]);
    if (!seat.ok()) return seat.status();
    m.mutable_get_replay()->set_seat(seat.value());
  }
  // The move that led here is shown in words, as the replay's list of moves writes it.
  m.mutable_get_replay()->set_with_moves(true);
  auto reply = client_.Request(m);
  if (!reply.ok()) return reply.status();
  const plateau::v1::Replay& r = reply.value().replay();
  const std::vector<std::string> names = SeatNames(r.summary());
  // Whoever reads a replay may not have played: no seat is called "you", the chosen one included.
  const auto name = SeatNamer(names, engine::kSpectator);
  out_.Line("game " + r.summary().game_id() + " (" + r.summary().game() + "), step " +
            std::to_string(r.step()) + " of " + std::to_string(r.summary().steps()) + ", " +
            (r.seat() < 0 ? std::string("as a spectator sees it") : "as " + name(r.seat()) + " saw it"));
  const engine::Game* game = GameForViewType(r.view_type());
  if (game == nullptr) return Status(kUsage, "This client does not know the view type '" + r.view_type() + "'.");
  if (r.has_last_action()) {
    std::string words;
    for (const plateau::v1::ReplayMove& move : r.moves()) {
      if (move.step() != r.step()) continue;
      for (const auto& text : move.words()) words += " " + game->TextRenderer().Render(text, name);
    }
    out_.Line("last move:" + (words.empty() ? " played by " + name(static_cast<int>(r.last_action().seat()))
                                            : words));
  }
  std::unique_ptr<engine::Message> view(game->ViewPrototype().New());
  if (!view->ParseFromString(r.view())) return Status("protocol", "The replay's view could not be decoded.");
  out_.Text(PrettyView(*view, names, engine::kSpectator));
  return Status::Ok();
}

Status Shell::Download(const std::vector<std::string>& args) {
  if (args.size() != 2) return Status(kUsage, "download needs a game id (or 'last') and a file name.");
  auto game_id = GameId(args[0]);
  if (!game_id.ok()) return game_id.status();
  ClientMessage m;
  m.mutable_export_replay()->set_game_id(game_id.value().game_id);
  m.mutable_export_replay()->set_replay_token(game_id.value().replay_token);
  auto reply = client_.Request(m);
  if (!reply.ok()) return reply.status();
  std::ofstream out(args[1], std::ios::binary | std::ios::trunc);
  out << reply.value().replay_export().record();
  out.close();
  if (!out) return Status(kUsage, "Cannot write '" + args[1] + "'.");
  out_.Line("saved game " + game_id.value().game_id + " to " + args[1] + " (" +
            std::to_string(reply.value().replay_export().record().size()) + " bytes)");
  return Status::Ok();
}

Status Shell::Wait(std::string_view command, const std::vector<std::string>& args) {
  Status error;
  if (command == "wait-seated") {
    if (args.empty() || args.size() > 2) return Status(kUsage, "wait-seated needs a number of seats.");
    auto n = console::ParseUint(args[0], "The number of seats");
    if (!n.ok()) return n.status();
    const auto timeout = WaitArg(args, 1, &error);
    if (!error.ok()) return error;
    if (!CurrentRoomId().ok()) return CurrentRoomId().status();
    Status st = client_.WaitUntil(
        [n = n.value()](const ClientState& s) { return Seated(s.room) >= static_cast<int>(n); },
        timeout, std::to_string(n.value()) + " seated players");
    if (st.ok()) out_.Line("seated: " + client_.WithState([](const ClientState& s) { return SeatsLine(s.room); }));
    return st;
  }
  if (command == "wait-away") {
    if (args.empty() || args.size() > 2) return Status(kUsage, "wait-away needs a seat.");
    auto seat = SeatArg(args[0]);
    if (!seat.ok()) return seat.status();
    const auto timeout = WaitArg(args, 1, &error);
    if (!error.ok()) return error;
    if (!CurrentRoomId().ok()) return CurrentRoomId().status();
    Status st = client_.WaitUntil(
        [seat = seat.value()](const ClientState& s) {
          return seat < s.room.seats_size() &&
                 (s.room.seats(seat).presence() == plateau::v1::PRESENCE_LEFT ||
                  s.room.seats(seat).presence() == plateau::v1::PRESENCE_OFFLINE);
        },
        timeout, SeatNumber(seat.value()) + "'s player to be away");
    if (st.ok()) out_.Line("away: " + client_.WithState([](const ClientState& s) { return SeatsLine(s.room); }));
    return st;
  }
  if (command == "wait-version") {
    if (args.empty() || args.size() > 2) return Status(kUsage, "wait-version needs a version.");
    auto version = console::ParseUint(args[0], "The version");
    if (!version.ok()) return version.status();
    const auto timeout = WaitArg(args, 1, &error);
    if (!error.ok()) return error;
    if (!CurrentRoomId().ok()) return CurrentRoomId().status();
    Status st = client_.WaitUntil(
        [v = version.value()](const ClientState& s) { return s.tracker.has_view() && s.tracker.version() >= v; },
        timeout, "version " + std::to_string(version.value()) + " of the view");
    if (st.ok()) {
      out_.Line(client_.WithState([](const ClientState& s) {
        return "(v" + std::to_string(s.tracker.version()) + ", " + s.tracker.TurnText(s.Namer()) + ")";
      }));
    }
    return st;
  }
  if (args.size() > 1) return Status(kUsage, std::string(command) + " takes at most a timeout (ms).");
  const auto timeout = WaitArg(args, 0, &error);
  if (!error.ok()) return error;
  if (command == "wait-ready") {
    if (!CurrentRoomId().ok()) return CurrentRoomId().status();
    return client_.WaitUntil(
        [](const ClientState& s) {
          return Seated(s.room) == s.room.seats_size() &&
                 std::all_of(s.room.seats().begin(), s.room.seats().end(),
                             [](const auto& seat) { return seat.ready(); });
        },
        timeout, "every seat to be taken and ready");
  }
  if (command == "wait-start") {
    if (!CurrentRoomId().ok()) return CurrentRoomId().status();
    Status st = client_.WaitUntil(
        [](const ClientState& s) {
          return s.tracker.has_view() && !s.tracker.game_over() && !s.game_over.has_value();
        },
        timeout, "a game to start");
    if (st.ok()) out_.Line(client_.WithState([](const ClientState& s) { return s.tracker.TurnText(s.Namer()); }));
    return st;
  }
  if (command == "wait-game-over") {
    return client_.WaitUntil([](const ClientState& s) { return s.game_over.has_value(); }, timeout,
                             "the end of the game");
  }
  // wait-turn
  Status st = client_.WaitUntil(
      [](const ClientState& s) {
        return s.game_over.has_value() || s.tracker.game_over() ||
               (s.tracker.IsMyTurn() && s.tracker.version() >= s.min_version_for_turn);
      },
      timeout, "your turn");
  if (st.ok()) out_.Line(client_.WithState([](const ClientState& s) { return s.tracker.TurnText(s.Namer()); }));
  return st;
}

Status Shell::Seats(std::string_view command, const std::vector<std::string>& args) {
  auto room_id = CurrentRoomId();
  if (!room_id.ok()) return room_id.status();
  if (command == "resign") {
    if (!args.empty()) return Status(kUsage, "resign takes no arguments.");
    const engine::Game* game = RoomGame();
    if (game == nullptr) return Status(kUsage, "This client does not know this room's game.");
    engine::v1::CoreAction core;
    core.mutable_resign();
    return SendAction(*game->WrapCore(core), "resign");
  }
  ClientMessage m;
  std::string done;
  if (command == "add-bot") {
    if (args.empty() || args.size() > 2) return Status(kUsage, "add-bot needs a seat, then optionally easy or normal.");
    auto seat = SeatArg(args[0]);
    if (!seat.ok()) return seat.status();
    plateau::v1::BotLevel level = plateau::v1::BOT_NORMAL;
    if (args.size() == 2) {
      if (args[1] != "easy" && args[1] != "normal") return Status(kUsage, "Bots play easy or normal.");
      level = args[1] == "easy" ? plateau::v1::BOT_EASY : plateau::v1::BOT_NORMAL;
    }
    m.mutable_add_bot()->set_room_id(room_id.value());
    m.mutable_add_bot()->set_seat(static_cast<uint32_t>(seat.value()));
    m.mutable_add_bot()->set_level(level);
  } else if (command == "remove-bot") {
    if (args.size() != 1) return Status(kUsage, "remove-bot needs a seat.");
    auto seat = SeatArg(args[0]);
    if (!seat.ok()) return seat.status();
    m.mutable_remove_bot()->set_room_id(room_id.value());
    m.mutable_remove_bot()->set_seat(static_cast<uint32_t>(seat.value()));
  } else if (command == "rematch") {
    if (args.size() > 1 || (args.size() == 1 && args[0] != "no")) {
      return Status(kUsage, "rematch takes nothing, or 'no'.");
    }
    m.mutable_rematch()->set_room_id(room_id.value());
    m.mutable_rematch()->set_accept(args.empty());
    done = args.empty() ? "rematch asked: a new game starts once every player accepts" : "no rematch";
  } else if (command == "replace") {
    if (args.empty() || args.size() > 2 || (args.size() == 2 && args[1] != "bot" && args[1] != "claim")) {
      return Status(kUsage, "replace needs a seat, then optionally bot or claim.");
    }
    auto seat = SeatArg(args[0]);
    if (!seat.ok()) return seat.status();
    const bool claim = args.size() == 2 && args[1] == "claim";
    m.mutable_replace_seat()->set_room_id(room_id.value());
    m.mutable_replace_seat()->set_seat(static_cast<uint32_t>(seat.value()));
    m.mutable_replace_seat()->set_kind(claim ? plateau::v1::REPLACE_CLAIM_WIN : plateau::v1::REPLACE_WITH_BOT);
    done = claim ? "win claimed" : "a bot plays " + SeatNumber(seat.value()) + " now";
  } else {  // take-back
    if (!args.empty()) return Status(kUsage, "take-back takes no arguments.");
    m.mutable_take_back_seat()->set_room_id(room_id.value());
    done = "your seat is yours again";
  }
  auto reply = client_.Request(m);
  if (!reply.ok()) return reply.status();
  // Adding and removing bots are answered with the room, which the host is not pushed.
  if (reply.value().has_room()) {
    client_.EnterRoom(reply.value().room());
    out_.Line("seats: " + SeatsLine(reply.value().room()));
  } else {
    out_.Line(done.empty() ? "ok" : done);
  }
  return Status::Ok();
}

Status Shell::Execute(std::string_view line) {
  auto [command, rest] = console::SplitFirstWord(line);
  // Action text and chat keep their own spacing and quotes; the others split like a shell.
  if (command == "act") return Act(rest);
  if (command == "answer") return Answer(rest);
  if (command == "act-first") return ActFirst(rest);
  if (command == "play-until-over") {
    while (true) {
      Status st = Wait("wait-turn", {});
      if (!st.ok()) return st;
      const bool over = client_.WithState(
          [](const ClientState& s) { return s.game_over.has_value() || s.tracker.game_over(); });
      if (over) return Wait("wait-game-over", {});
      st = ActFirst(rest);
      // A connection that drops with the action on its way: whether it counted shows in the view
      // once reconnected, so the loop simply waits for the next turn.
      if (!st.ok() && st.code() != "network") return st;
    }
  }
  if (command == "say") {
    auto room_id = CurrentRoomId();
    if (!room_id.ok()) return room_id.status();
    if (rest.empty()) return Status(kUsage, "say needs some text.");
    ClientMessage m;
    m.mutable_chat()->set_room_id(room_id.value());
    m.mutable_chat()->set_text(std::string(rest));
    return client_.Request(m).status();
  }
  auto words = console::SplitQuotedWords(rest);
  if (!words.ok()) return words.status();
  const std::vector<std::string>& args = words.value();
  auto no_args = [&]() -> Status {
    return args.empty() ? Status::Ok()
                        : Status(kUsage, "'" + std::string(command) + "' takes no arguments.");
  };

  if (command == "help") {
    out_.Text(Help());
    return no_args();
  }
  if (command == "choices") {
    Status st = no_args();
    return st.ok() ? ListChoices() : st;
  }
  if (command == "play") return PlayChoice(args);
  if (command == "quit") {
    quit_ = true;
    return no_args();
  }
  if (command == "games") return no_args().ok() ? Games() : no_args();
  if (command == "rooms") return Rooms(args);
  if (command == "create") return Create(args);
  if (command == "join" || command == "watch") return Enter(command, args);
  if (command == "join-open") return JoinOpen(args);
  if (command == "replays") return Replays(args);
  if (command == "replay") return Replay(args);
  if (command == "moves") return Moves(args);
  if (command == "download") return Download(args);
  if (command == "view") {
    if (args.size() > 1 || (args.size() == 1 && args[0] != "raw")) {
      return Status(kUsage, "view takes nothing, or 'raw'.");
    }
    return View(args.size() == 1);
  }
  if (command == "turn") {
    if (!no_args().ok()) return no_args();
    out_.Line(client_.WithState([](const ClientState& s) { return s.tracker.TurnText(s.Namer()); }));
    return Status::Ok();
  }
  if (command == "sleep") {
    if (args.size() != 1) return Status(kUsage, "sleep needs a number of milliseconds.");
    auto ms = console::ParseUint(args[0], "The pause (ms)");
    if (!ms.ok()) return ms.status();
    std::this_thread::sleep_for(std::chrono::milliseconds(std::min<uint64_t>(ms.value(), 3600000)));
    return Status::Ok();
  }
  if (command.substr(0, 5) == "wait-" &&
      (command == "wait-turn" || command == "wait-game-over" || command == "wait-seated" ||
       command == "wait-ready" || command == "wait-start" || command == "wait-away" ||
       command == "wait-version")) {
    return Wait(command, args);
  }

  if (command == "add-bot" || command == "remove-bot" || command == "rematch" ||
      command == "replace" || command == "take-back" || command == "resign") {
    return Seats(command, args);
  }
  if (command == "log") return Log(args);
  if (command == "undo") return Undo(args);

  // The remaining commands act on the current room.
  if (command == "room" || command == "ready" || command == "start" || command == "leave") {
    auto room_id = CurrentRoomId();
    if (!room_id.ok()) return room_id.status();
    ClientMessage m;
    if (command == "room") return no_args().ok() ? ShowRoom() : no_args();
    if (command == "ready") {
      if (args.size() > 1 || (args.size() == 1 && args[0] != "off")) {
        return Status(kUsage, "ready takes nothing, or 'off'.");
      }
      m.mutable_set_ready()->set_room_id(room_id.value());
      m.mutable_set_ready()->set_ready(args.empty());
    } else if (command == "start") {
      if (!no_args().ok()) return no_args();
      m.mutable_start_game()->set_room_id(room_id.value());
    } else {
      static const std::pair<const char*, plateau::v1::LeaveMode> kModes[] = {
          {"keep", plateau::v1::LEAVE_KEEP_SEAT},
          {"concede", plateau::v1::LEAVE_CONCEDE},
          {"bot", plateau::v1::LEAVE_HAND_TO_BOT}};
      const auto* mode = args.size() == 1 ? std::find_if(std::begin(kModes), std::end(kModes),
                                                         [&](const auto& k) { return args[0] == k.first; })
                                          : std::begin(kModes);
      if (args.size() > 1 || mode == std::end(kModes)) {
        return Status(kUsage, "leave takes nothing, or keep, concede or bot.");
      }
      m.mutable_leave_room()->set_room_id(room_id.value());
      m.mutable_leave_room()->set_mode(mode->second);
    }
    auto reply = client_.Request(m);
    if (!reply.ok()) return reply.status();
    if (command == "leave") {
      client_.WithState([](ClientState& s) {
        s.in_room = false;
        s.tracker = ViewTracker();
        return 0;
      });
    }
    out_.Line(command == "ready" ? (args.empty() ? "ready" : "not ready") : "ok");
    return Status::Ok();
  }
  return Status(kUsage, "Unknown command '" + std::string(command) + "'; try 'help'.");
}

int RunShell(Shell& shell, std::istream& in, const std::string& source, bool strict, bool prompt,
             Output& out) {
  std::string line;
  int line_number = 0;
  while (!shell.quit_requested()) {
    if (prompt) out.Text("> ");
    if (!std::getline(in, line)) break;
    ++line_number;
    std::string_view command = console::StripComment(line);
    if (command.empty()) continue;
    if (strict) out.Line("> " + std::string(command));
    Status st = shell.Execute(command);
    if (st.ok()) continue;
    if (strict) {
      out.Error(source + ":" + std::to_string(line_number) + ": " + FailureText(st));
      return 1;
    }
    out.Line(FailureText(st));
  }
  return 0;
}

}  // namespace plateau::cli
