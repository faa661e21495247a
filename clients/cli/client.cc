#include "clients/cli/client.h"

#include <sys/stat.h>

#include <fstream>
#include <iostream>
#include <sstream>

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

std::string SeatsLine(const plateau::v1::RoomInfo& room) {
  std::string out;
  for (const plateau::v1::SeatInfo& s : room.seats()) {
    if (!out.empty()) out += ", ";
    out += "seat " + std::to_string(s.seat()) + " ";
    if (s.player_id().empty()) {
      out += "free";
      continue;
    }
    out += s.name();
    if (s.ready()) out += " (ready)";
    if (!s.connected()) out += " (away)";
  }
  return out;
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
  return out;
}

void Output::Error(const std::string& text) {
  std::lock_guard<std::mutex> lock(mu_);
  std::cout << std::flush;
  std::cerr << text << "\n" << std::flush;
}

Client::Client(Output& out) : out_(out) {}

Client::~Client() {
  // Closing joins the I/O thread, so no handler runs on a destroyed Client.
  if (connection_) connection_->Close();
}

StatusOr<ServerMessage> Client::Hello(const std::string& token) {
  ClientMessage hello;
  hello.mutable_hello()->set_name(settings_.name);
  hello.mutable_hello()->set_token(token);
  hello.mutable_hello()->set_protocol_version(1);
  return Request(std::move(hello));
}

Status Client::Connect(const Settings& settings) {
  settings_ = settings;
  connection_ = std::make_unique<Connection>(
      [this](const ServerMessage& m) { OnMessage(m); },
      [this](const std::string& reason) { OnClosed(reason); });
  Status st = connection_->Connect(settings.host, settings.port, settings.timeout);
  if (!st.ok()) return st;

  std::string token;
  if (!settings.token_file.empty()) {
    std::ifstream in(settings.token_file);
    std::getline(in, token);
  }
  auto reply = Hello(token);
  if (!reply.ok() && !token.empty() && reply.status().code() != "network" &&
      reply.status().code() != "timeout") {
    out_.Line("The saved token was not accepted (" + reply.status().reason() +
              "); joining as a new player.");
    reply = Hello("");
  }
  if (!reply.ok()) return reply.status();
  if (!reply.value().has_welcome()) {
    return Status("protocol", "The server answered Hello without a Welcome.");
  }
  welcome_ = reply.value().welcome();
  if (!settings.token_file.empty() && welcome_.token() != token) {
    std::ofstream out(settings.token_file, std::ios::trunc);
    out << welcome_.token() << "\n";
    out.close();
    if (!out) {
      out_.Line("warning: could not save the token to " + settings.token_file);
    } else {
      chmod(settings.token_file.c_str(), S_IRUSR | S_IWUSR);  // the token is a password
    }
  }
  std::string line = "Welcome, " + welcome_.name() + " (" + welcome_.player_id() + ").";
  if (welcome_.room_ids_size() > 0) {
    line += " Your rooms:";
    for (const std::string& id : welcome_.room_ids()) line += " " + id;
    line += " (use 'join <room>' to return).";
  }
  out_.Line(line);
  return Status::Ok();
}

StatusOr<ServerMessage> Client::Request(ClientMessage request) {
  uint64_t id;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (state_.connection_lost || !connection_) {
      return Status("network", "Not connected" +
                                   (state_.lost_reason.empty() ? "" : ": " + state_.lost_reason) +
                                   ".");
    }
    id = next_request_id_++;
    pending_[id];
  }
  request.set_request_id(id);
  if (!connection_->Send(request)) {
    std::lock_guard<std::mutex> lock(mu_);
    pending_.erase(id);
    return Status("network", "Not connected.");
  }
  std::unique_lock<std::mutex> lock(mu_);
  const bool answered = cv_.wait_for(lock, settings_.timeout, [&] {
    return pending_[id].has_value() || state_.connection_lost;
  });
  std::optional<ServerMessage> reply = std::move(pending_[id]);
  pending_.erase(id);
  if (!reply.has_value()) {
    if (state_.connection_lost) return Status("network", "Connection lost: " + state_.lost_reason);
    (void)answered;
    return Status("timeout", "The server did not answer within " +
                                 std::to_string(settings_.timeout.count()) + " ms.");
  }
  if (reply->has_error()) return Status(reply->error().code(), reply->error().reason());
  return std::move(*reply);
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
  if (!state_.in_room || state_.room.room_id() != room.room_id()) {
    state_.tracker = ViewTracker();
    state_.game_over.reset();
    state_.min_version_for_turn = 0;
    state_.resync_pending = false;
  }
  state_.in_room = true;
  state_.room = room;
  if (!room.game_id().empty()) state_.last_game_id = room.game_id();
  cv_.notify_all();
}

void Client::OnClosed(const std::string& reason) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    state_.connection_lost = true;
    state_.lost_reason = reason;
  }
  cv_.notify_all();
  out_.Line("! Disconnected: " + reason + ".");
}

void Client::SendResync(uint64_t have_version) {
  if (state_.resync_pending) return;  // one at a time: the answer covers every later diff
  state_.resync_pending = true;
  ClientMessage m;
  // Its Ok reply (after the missed diffs) is matched to no request and simply dropped.
  m.set_request_id(next_request_id_++);
  m.mutable_resync()->set_room_id(state_.room.room_id());
  m.mutable_resync()->set_have_version(have_version);
  connection_->Send(m);
}

void Client::HandleDiff(const plateau::v1::Diff& diff) {
  std::string error;
  switch (state_.tracker.OnDiff(diff, &error)) {
    case ViewTracker::DiffResult::kApplied:
      state_.resync_pending = false;
      out_.Line("* v" + std::to_string(state_.tracker.version()) + ": " + state_.tracker.TurnText());
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
        state_.room = message.room();
        if (!message.room().game_id().empty()) state_.last_game_id = message.room().game_id();
        if (changed) {
          static const char* kStatus[] = {"", " (waiting)", " (playing)", " (finished)"};
          const int status = message.room().status() >= 0 && message.room().status() <= 3
                                 ? message.room().status()
                                 : 0;
          out_.Line(std::string("* room") + kStatus[status] + ": " + SeatsLine(message.room()));
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
      const bool fresh = !state_.tracker.has_view();
      Status st = state_.tracker.OnSnapshot(message.snapshot());
      state_.resync_pending = false;
      if (!st.ok()) {
        out_.Line("! " + st.reason());
      } else if (fresh && message.snapshot().version() == 1) {
        out_.Line("* the game has started; you are " +
                  (message.snapshot().seat() < 0 ? std::string("watching")
                                                 : "seat " + std::to_string(message.snapshot().seat())) +
                  "; " + state_.tracker.TurnText());
      } else {
        out_.Line("* view v" + std::to_string(state_.tracker.version()) + ": " +
                  state_.tracker.TurnText());
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
                console::FormatResults(message.game_over().results()));
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
