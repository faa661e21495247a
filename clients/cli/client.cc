#include "clients/cli/client.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iostream>
#include <sstream>
#include <tuple>

#include "clients/cli/pretty.h"
#include "engine/console/record.h"

namespace plateau::cli {

using plateau::v1::ClientMessage;
using plateau::v1::ServerMessage;

void Output::Line(const std::string& text) {
  std::lock_guard<std::mutex> lock(mu_);
  std::cout << text << "\n" << std::flush;
}

void Output::Text(const std::string& text) {
  std::lock_guard<std::mutex> lock(mu_);
  std::cout << text << std::flush;
}

std::function<std::string(int)> ClientState::Namer() const {
  return SeatNamer(SeatNames(room), tracker.has_view() ? tracker.seat() : room.your_seat());
}

void ClientState::ForgetGame() {
  tracker = ViewTracker();
  game_over.reset();
  min_version_for_turn = 0;
  resync_pending = false;
}

std::string SeatsLine(const plateau::v1::RoomInfo& room) {
  std::string out;
  for (const plateau::v1::SeatInfo& s : room.seats()) {
    if (!out.empty()) out += ", ";
    out += SeatNumber(s.seat()) + " ";
    if (s.player_id().empty()) {
      out += "free";
      continue;
    }
    out += s.name();
    static const char* kLevel[] = {"", "easy", "normal"};
    const auto level = [](plateau::v1::BotLevel l) { return l >= 0 && l <= 2 ? kLevel[l] : "?"; };
    if (s.bot() != plateau::v1::BOT_LEVEL_UNSPECIFIED) out += std::string(" (bot, ") + level(s.bot()) + ")";
    // Ready matters only until the start.
    if (s.ready() && s.bot() == plateau::v1::BOT_LEVEL_UNSPECIFIED &&
        room.status() == plateau::v1::ROOM_STATUS_WAITING) {
      out += " (ready)";
    }
    if (s.presence() == plateau::v1::PRESENCE_LEFT) {
      out += " (left)";
    } else if (!s.connected()) {
      out += " (away)";
    }
    if (s.stand_in() != plateau::v1::BOT_LEVEL_UNSPECIFIED) out += std::string(" (a bot plays for them)");
    if (s.rematch()) out += " (wants a rematch)";
  }
  return out;
}

ClientMessage ReenterRoom(const plateau::v1::RoomInfo& room) {
  ClientMessage enter;
  if (room.your_seat() >= 0) {
    enter.mutable_join_room()->set_room_id(room.room_id());
    return enter;
  }
  // A spectator of a private room watches again with the code he came with: the join code when
  // the server sent it to him, else the watch code every member is sent.
  enter.mutable_spectate()->set_room_id(room.room_id());
  enter.mutable_spectate()->set_join_code(room.join_code());
  if (room.join_code().empty()) enter.mutable_spectate()->set_watch_code(room.watch_code());
  return enter;
}

std::string TakenBackText(const ClientState& state) {
  const auto& back = state.tracker.taken_back();
  if (!back.has_value()) return "";
  const auto name = state.Namer();
  std::string words;
  for (const plateau::v1::LogEntry& entry : back->entries) {
    words += (words.empty() ? "" : " ") + state.tracker.game()->TextRenderer().Render(entry.text(), name);
  }
  // Whose it was goes unsaid to a seat that was not told who made the move.
  const std::string who = back->seat >= 0 ? name(back->seat) : "A player";
  return who + " took back a move" + (words.empty() ? "." : ": " + words);
}

std::string RoomLine(const plateau::v1::RoomInfo& room) {
  static const char* kStatus[] = {"?", "waiting", "playing", "finished"};
  int seated = 0;
  for (const auto& s : room.seats()) seated += s.player_id().empty() ? 0 : 1;
  const int status = room.status() >= 0 && room.status() <= 3 ? room.status() : 0;
  std::string out = room.room_id() + " " + room.game();
  if (!room.title().empty()) out += " '" + room.title() + "'";
  out += std::string(" ") + kStatus[status] + " " + std::to_string(seated) + "/" +
         std::to_string(room.max_seats()) + " seated";
  if (room.is_private()) out += " private";
  if (!room.join_code().empty()) out += " code " + room.join_code();
  // A public room needs no code to be watched: its watch code would only be noise there.
  if (room.is_private() && !room.watch_code().empty()) out += " watch code " + room.watch_code();
  return out;
}

void Output::Error(const std::string& text) {
  std::lock_guard<std::mutex> lock(mu_);
  std::cout << std::flush;
  std::cerr << text << "\n" << std::flush;
}

Client::Client(Output& out) : out_(out) {}

Client::~Client() {
  std::shared_ptr<Connection> connection;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
    connection = std::move(connection_);
  }
  cv_.notify_all();
  if (reconnector_.joinable()) reconnector_.join();
  // Closing joins the I/O thread, so no handler runs on a destroyed Client.
  if (connection) connection->Close();
}

StatusOr<ServerMessage> Client::RequestOn(const std::shared_ptr<Connection>& connection,
                                          ClientMessage request) {
  uint64_t id;
  {
    std::lock_guard<std::mutex> lock(mu_);
    id = next_request_id_++;
    pending_[id];
  }
  request.set_request_id(id);
  if (!connection->Send(request)) {
    std::lock_guard<std::mutex> lock(mu_);
    pending_.erase(id);
    return Status("network", "Not connected.");
  }
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait_for(lock, settings_.timeout, [&] {
    return pending_[id].has_value() || !connection->is_open() || stopping_;
  });
  std::optional<ServerMessage> reply = std::move(pending_[id]);
  pending_.erase(id);
  if (!reply.has_value()) {
    if (!connection->is_open()) return Status("network", "The connection dropped before the server answered.");
    return Status("timeout", "The server did not answer within " +
                                 std::to_string(settings_.timeout.count()) + " ms.");
  }
  if (reply->has_error()) return Status(reply->error().code(), reply->error().reason());
  return std::move(*reply);
}

StatusOr<ServerMessage> Client::Hello(const std::shared_ptr<Connection>& connection,
                                      const std::string& token) {
  ClientMessage hello;
  hello.mutable_hello()->set_name(settings_.name);
  hello.mutable_hello()->set_token(token);
  hello.mutable_hello()->set_protocol_version(1);
  return RequestOn(connection, std::move(hello));
}

std::string WsTarget(const std::string& room_id) {
  // Room ids are short and plain (letters, digits, '-', '_'): anything else is sent no hint.
  const bool plain = !room_id.empty() && room_id.size() <= 64 &&
                     std::all_of(room_id.begin(), room_id.end(), [](char c) {
                       return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
                     });
  return plain ? "/ws?room=" + room_id : "/ws";
}

Status Client::Open(bool first) {
  uint64_t epoch;
  std::string room_id;
  {
    std::lock_guard<std::mutex> lock(mu_);
    epoch = state_.epoch + 1;
    if (state_.in_room) room_id = state_.room.room_id();
  }
  auto connection = std::make_shared<Connection>(
      [this](const ServerMessage& m) { OnMessage(m); },
      [this, epoch](const std::string& reason) { OnClosed(epoch, reason); });
  Status st = connection->Connect(settings_.host, settings_.port, settings_.timeout, WsTarget(room_id));
  if (!st.ok()) return st;
  std::shared_ptr<Connection> old;
  {
    // Pushes and replies on this connection are read from here on.
    std::lock_guard<std::mutex> lock(mu_);
    state_.epoch = epoch;
    old = std::exchange(connection_, connection);
  }
  // A connection that failed while logging in; closed outside the lock, as it joins a thread
  // whose handlers take it.
  if (old) old->Close();

  std::string token;
  if (!settings_.token_file.empty()) {
    std::ifstream in(settings_.token_file);
    std::getline(in, token);
  }
  auto reply = Hello(connection, token);
  if (!reply.ok() && !token.empty() && reply.status().code() != "network" &&
      reply.status().code() != "timeout") {
    out_.Line("The saved token was not accepted (" + reply.status().reason() +
              "); joining as a new player.");
    reply = Hello(connection, "");
  }
  if (!reply.ok()) return reply.status();
  if (!reply.value().has_welcome()) {
    return Status("protocol", "The server answered Hello without a Welcome.");
  }
  welcome_ = reply.value().welcome();
  if (!settings_.token_file.empty() && welcome_.token() != token) {
    std::ofstream out(settings_.token_file, std::ios::trunc);
    out << welcome_.token() << "\n";
    out.close();
    if (!out) {
      out_.Line("warning: could not save the token to " + settings_.token_file);
    } else {
      chmod(settings_.token_file.c_str(), S_IRUSR | S_IWUSR);  // the token is a password
    }
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    state_.online = true;
  }
  cv_.notify_all();
  if (!first) return Status::Ok();
  std::string line = "Welcome, " + welcome_.name() + " (" + welcome_.player_id() + ").";
  if (welcome_.room_ids_size() > 0) {
    line += " Your rooms:";
    for (const std::string& id : welcome_.room_ids()) line += " " + id;
    line += " (use 'join <room>' to return).";
  }
  out_.Line(line);
  return Status::Ok();
}

Status Client::Connect(const Settings& settings) {
  settings_ = settings;
  Status st = Open(true);
  if (!st.ok()) return st;
  if (settings_.reconnect_for.count() > 0) reconnector_ = std::thread([this] { ReconnectLoop(); });
  return Status::Ok();
}

void Client::ReconnectLoop() {
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    cv_.wait(lock, [&] { return stopping_ || (!state_.online && !state_.connection_lost); });
    if (stopping_) return;
    std::shared_ptr<Connection> old = std::move(connection_);
    lock.unlock();
    if (old) old->Close();  // joins its I/O thread: this thread is not it
    old.reset();
    const auto give_up = std::chrono::steady_clock::now() + settings_.reconnect_for;
    auto pause = std::chrono::milliseconds(200);
    Status st;
    while (true) {
      st = Open(false);
      if (st.ok() || std::chrono::steady_clock::now() >= give_up) break;
      lock.lock();
      // A server restarting takes a moment; a second or two between tries is enough.
      cv_.wait_for(lock, pause, [&] { return stopping_; });
      const bool stop = stopping_;
      lock.unlock();
      if (stop) return;
      pause = std::min(pause * 2, std::chrono::milliseconds(2000));
    }
    if (st.ok()) {
      Resume();
    } else {
      out_.Line("! Could not reconnect: " + st.reason());
      lock.lock();
      state_.connection_lost = true;
      state_.lost_reason = "could not reconnect (" + st.reason() + ")";
      cv_.notify_all();
      lock.unlock();
    }
    lock.lock();
  }
}

void Client::Resume() {
  auto [in_room, room, have_version] = WithState([](const ClientState& s) {
    return std::make_tuple(s.in_room, s.room, s.tracker.has_view() ? s.tracker.version() : 0);
  });
  std::shared_ptr<Connection> connection = WithState([this](const ClientState&) { return connection_; });
  if (!in_room || connection == nullptr) {
    out_.Line("* reconnected.");
    return;
  }
  auto reply = RequestOn(connection, ReenterRoom(room));
  if (!reply.ok()) {
    out_.Line("* reconnected, but room " + room.room_id() + " could not be entered again: " +
              reply.status().reason());
    return;
  }
  if (reply.value().has_room()) EnterRoom(reply.value().room());
  const auto status = reply.value().room().status();
  if (status == plateau::v1::ROOM_STATUS_PLAYING || status == plateau::v1::ROOM_STATUS_FINISHED) {
    // The diffs missed while away, or a fresh view when the server cannot give them.
    ClientMessage resync;
    resync.mutable_resync()->set_room_id(room.room_id());
    resync.mutable_resync()->set_have_version(have_version);
    auto caught_up = RequestOn(connection, resync);
    if (!caught_up.ok()) {
      out_.Line("* reconnected; the view could not be caught up: " + caught_up.status().reason());
      return;
    }
  }
  out_.Line("* reconnected; back in room " + room.room_id() + ": " +
            WithState([](const ClientState& s) { return s.tracker.TurnText(s.Namer()); }));
}

StatusOr<ServerMessage> Client::Request(ClientMessage request) {
  std::shared_ptr<Connection> connection;
  {
    std::unique_lock<std::mutex> lock(mu_);
    // While reconnecting, the request waits for the connection rather than failing at once.
    cv_.wait_for(lock, settings_.timeout,
                 [&] { return state_.online || state_.connection_lost || stopping_; });
    if (!state_.online) {
      if (state_.connection_lost) {
        return Status("network", "Not connected" +
                                     (state_.lost_reason.empty() ? "" : ": " + state_.lost_reason) + ".");
      }
      return Status("network", "Not connected: still trying to reconnect.");
    }
    connection = connection_;
  }
  return RequestOn(connection, std::move(request));
}

Status Client::WaitUntil(const std::function<bool(const ClientState&)>& ready,
                         std::chrono::milliseconds timeout, const std::string& what) {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait_for(lock, timeout, [&] { return ready(state_) || state_.connection_lost; });
  if (ready(state_)) return Status::Ok();
  if (state_.connection_lost) return Status("network", "Connection lost: " + state_.lost_reason);
  return Status("timeout", "Gave up waiting for " + what + " after " +
                               std::to_string(timeout.count()) + " ms.");
}

void Client::NoteAccepted(uint64_t action_index) {
  std::lock_guard<std::mutex> lock(mu_);
  // The start snapshot is version 1 and each accepted action adds one, so the view that first
  // includes action i is version i + 2.
  state_.min_version_for_turn = std::max(state_.min_version_for_turn, action_index + 2);
}

void Client::EnterRoom(const plateau::v1::RoomInfo& room) {
  std::lock_guard<std::mutex> lock(mu_);
  const bool next_game = !room.game_id().empty() && !state_.room.game_id().empty() &&
                         room.game_id() != state_.room.game_id();
  if (!state_.in_room || state_.room.room_id() != room.room_id() || next_game) state_.ForgetGame();
  state_.in_room = true;
  state_.room = room;
  if (!room.game_id().empty()) state_.last_game_id = room.game_id();
  cv_.notify_all();
}

void Client::OnClosed(uint64_t epoch, const std::string& reason) {
  bool reconnecting;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (epoch != state_.epoch || stopping_) return;
    state_.online = false;
    state_.resync_pending = false;
    reconnecting = settings_.reconnect_for.count() > 0;
    if (!reconnecting) {
      state_.connection_lost = true;
      state_.lost_reason = reason;
    }
  }
  cv_.notify_all();
  out_.Line("! Disconnected: " + reason + (reconnecting ? "; reconnecting..." : "."));
}

void Client::SendResync(uint64_t have_version) {
  if (state_.resync_pending) return;  // one at a time: the answer covers every later diff
  state_.resync_pending = true;
  ClientMessage m;
  // Its Ok reply (after the missed diffs) is matched to no request and simply dropped.
  m.set_request_id(next_request_id_++);
  m.mutable_resync()->set_room_id(state_.room.room_id());
  m.mutable_resync()->set_have_version(have_version);
  if (connection_ == nullptr || !connection_->Send(m)) state_.resync_pending = false;
}

void Client::HandleDiff(const plateau::v1::Diff& diff) {
  std::string error;
  switch (state_.tracker.OnDiff(diff, &error)) {
    case ViewTracker::DiffResult::kApplied:
      state_.resync_pending = false;
      if (state_.tracker.taken_back().has_value()) out_.Line("* " + TakenBackText(state_));
      out_.Line("* v" + std::to_string(state_.tracker.version()) + ": " +
                state_.tracker.TurnText(state_.Namer()));
      break;
    case ViewTracker::DiffResult::kDuplicate:
      break;
    case ViewTracker::DiffResult::kGap:
      if (!state_.resync_pending) {
        out_.Line("* missed an update; asking the server to catch up from v" +
                  std::to_string(state_.tracker.version()));
      }
      SendResync(state_.tracker.version());
      break;
    case ViewTracker::DiffResult::kBroken:
      out_.Line("* an update did not apply (" + error + "); asking for a fresh view");
      SendResync(0);
      break;
  }
}

void Client::OnMessage(const ServerMessage& message) {
  std::lock_guard<std::mutex> lock(mu_);
  const bool is_reply = message.request_id() != 0;
  switch (message.body_case()) {
    case ServerMessage::kRoom:
      // Replies to create/join/watch are adopted by the command; pushes update the current room.
      if (!is_reply && state_.in_room && message.room().room_id() == state_.room.room_id()) {
        const bool changed = SeatsLine(message.room()) != SeatsLine(state_.room) ||
                             message.room().status() != state_.room.status();
        // A rematch: the room pushes its new game's id before the game's first view.
        if (!message.room().game_id().empty() && !state_.room.game_id().empty() &&
            message.room().game_id() != state_.room.game_id()) {
          state_.ForgetGame();
          out_.Line("* a new game starts in this room (game " + message.room().game_id() + ")");
        }
        state_.room = message.room();
        if (!message.room().game_id().empty()) state_.last_game_id = message.room().game_id();
        if (changed) {
          static const char* kStatus[] = {"", " (waiting)", " (playing)", " (finished)"};
          const int status = message.room().status() >= 0 && message.room().status() <= 3
                                 ? message.room().status()
                                 : 0;
          out_.Line(std::string("* room") + kStatus[status] + ": " + SeatsLine(message.room()));
          const auto& seats = message.room().seats();
          const int you = message.room().your_seat();
          const bool asked = std::any_of(seats.begin(), seats.end(), [](const auto& x) {
            return x.rematch() && x.bot() == plateau::v1::BOT_LEVEL_UNSPECIFIED;
          });
          if (status == plateau::v1::ROOM_STATUS_FINISHED && asked && you >= 0 && you < seats.size() &&
              !seats[you].rematch()) {
            out_.Line("* a rematch is offered: 'rematch' accepts it, 'rematch no' declines");
          }
        }
      }
      break;
    case ServerMessage::kSnapshot: {
      // A resumed player may be sent its game before it re-opens the room: adopt that room.
      if (!state_.in_room) {
        state_.in_room = true;
        state_.room.Clear();
        state_.room.set_room_id(message.snapshot().room_id());
      } else if (message.snapshot().room_id() != state_.room.room_id()) {
        break;  // a room this client has left; nothing to show
      }
      // A rematch whose room push was missed (a reconnection): the next game starts over at
      // version 1, below the finished game's.
      if (state_.tracker.has_view() && state_.tracker.game_over() &&
          message.snapshot().version() < state_.tracker.version()) {
        state_.ForgetGame();
      }
      const bool fresh = !state_.tracker.has_view();
      Status st = state_.tracker.OnSnapshot(message.snapshot());
      state_.resync_pending = false;
      if (!st.ok()) {
        out_.Line("! " + st.reason());
      } else if (fresh && message.snapshot().version() == 1) {
        out_.Line("* the game has started; you are " +
                  (message.snapshot().seat() < 0 ? std::string("watching")
                                                 : SeatNumber(message.snapshot().seat())) +
                  "; " + state_.tracker.TurnText(state_.Namer()));
      } else {
        out_.Line("* view v" + std::to_string(state_.tracker.version()) + ": " +
                  state_.tracker.TurnText(state_.Namer()));
      }
      break;
    }
    case ServerMessage::kDiff:
      // Only the current room's diffs: a Resync for another room would ask for the wrong game.
      if (state_.in_room && message.diff().room_id() == state_.room.room_id()) {
        HandleDiff(message.diff());
      }
      break;
    case ServerMessage::kGameOver:
      state_.game_over = message.game_over();
      if (!message.game_over().game_id().empty()) state_.last_game_id = message.game_over().game_id();
      out_.Text("* game over (game " + message.game_over().game_id() + "):\n" +
                console::FormatResults(message.game_over().results(), 1));
      break;
    case ServerMessage::kChat:
      out_.Line("[" + message.chat().from_name() + "] " + message.chat().text());
      break;
    case ServerMessage::kError:
      if (!is_reply) out_.Line("! server: " + message.error().code() + ": " + message.error().reason());
      break;
    default:
      break;
  }
  if (is_reply) {
    auto it = pending_.find(message.request_id());
    if (it != pending_.end() && !it->second.has_value()) it->second = message;
  }
  cv_.notify_all();
}

}  // namespace plateau::cli
