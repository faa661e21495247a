// Players: Hello (a new player, or one coming back with its token), renaming, the Welcome that
// binds a player to its connection, tokens that expire unused, and signing out everywhere.
#include "server/lobby/lobby.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>

#include "server/error_codes.h"
#include "server/lobby/ids.h"
#include "server/player_text.h"

namespace plateau::server {

namespace v1 = plateau::v1;

std::optional<std::string> Lobby::ValidName(const ConnectionPtr& conn, uint64_t request_id,
                                            const std::string& wanted) {
  std::string name = Trim(wanted);
  const size_t chars = CodePoints(name);
  if (chars < 1 || chars > kMaxNameChars || HasControlChars(name)) {
    conn->Send(EncodeError(request_id, codes::kBadName,
                           "A name has 1 to " + std::to_string(kMaxNameChars) +
                               " characters, without control characters."));
    return std::nullopt;
  }
  return name;
}

void Lobby::HandleRename(const ConnectionPtr& conn, uint64_t request_id, const v1::Rename& rename) {
  const std::optional<std::string> name = ValidName(conn, request_id, rename.name());
  if (!name) return;
  // A new Player: the old one is shared, read by rooms on other threads, and never changes.
  auto renamed = std::make_shared<Player>(*conn->player);
  renamed->name = *name;
  AnswerAfterStore(
      conn,
      [renamed](Store& store) {
        return store.SavePlayer(renamed->token, StoredPlayer{renamed->player_id, renamed->name});
      },
      [this, conn, request_id, renamed](Status stored) {
        if (!stored.ok()) {
          spdlog::error("cannot rename player {}: {}", renamed->player_id, stored.ToString());
          conn->Send(EncodeError(request_id, codes::kStorageError,
                                 "The new name could not be saved; try again."));
          return;
        }
        bool revoked = false;
        {
          std::lock_guard lock(mu_);
          // Signed out while the name was being stored: the old token stays out.
          revoked = revoked_tokens_.count(renamed->token) != 0;
          // The player's next connections say Hello with this token and get the new name.
          if (!revoked) players_by_token_[renamed->token] = renamed;
        }
        if (revoked) {
          RefuseRevoked(conn, request_id);
          return;
        }
        Welcome(conn, request_id, renamed);
      });
}

void Lobby::HandleHello(const ConnectionPtr& conn, uint64_t request_id, const v1::Hello& hello) {
  if (conn->player) {
    conn->Send(EncodeError(request_id, codes::kAlreadyIdentified,
                           "This connection already said Hello; open a new one to switch."));
    return;
  }
  if (hello.protocol_version() > 1) {
    conn->Send(EncodeError(request_id, codes::kUnsupportedProtocol,
                           "This server speaks protocol version 1."));
    return;
  }
  if (!hello.token().empty()) {
    PlayerPtr player;
    {
      std::lock_guard lock(mu_);
      auto it = players_by_token_.find(hello.token());
      if (it != players_by_token_.end()) player = it->second;
    }
    if (player) {
      int64_t last_used = NowUnixMs();
      {
        std::lock_guard lock(mu_);
        // A token with a connection open is in use whatever its last Hello.
        if (player_connections_.count(player->player_id) == 0) {
          last_used = token_last_used_[player->player_id];
        }
      }
      if (RefuseIfExpired(conn, request_id, last_used)) return;
      Admit(conn, request_id, player);
      return;
    }
    // Not seen since start-up: ask the store, off this thread. This connection reads nothing
    // more until the answer, so its next request finds it identified.
    auto found = std::make_shared<std::optional<StoredPlayer>>();
    AnswerAfterStore(
        conn,
        [token = hello.token(), found](Store& store) {
          auto f = store.FindPlayer(token);
          if (!f.ok()) return f.status();
          *found = std::move(f).value();
          return Status::Ok();
        },
        [this, conn, request_id, token = hello.token(), found](Status looked_up) {
          if (!looked_up.ok()) {
            spdlog::error("cannot look up a player: {}", looked_up.ToString());
            conn->Send(EncodeError(request_id, codes::kStorageError,
                                   "Players cannot be looked up now."));
            return;
          }
          if (!found->has_value()) {
            conn->Send(EncodeError(request_id, codes::kUnknownToken,
                                   "This token is unknown here; say Hello with a name instead."));
            return;
          }
          if ((*found)->revoked) {
            RefuseRevoked(conn, request_id);
            return;
          }
          if (RefuseIfExpired(conn, request_id, (*found)->last_used_unix_ms)) return;
          auto p = std::make_shared<Player>();
          p->player_id = (*found)->player_id;
          p->name = (*found)->name;
          p->token = token;
          PlayerPtr player;
          {
            std::lock_guard lock(mu_);
            // Looked up before a sign-out was stored, answered after it: Admit refuses it.
            if (revoked_tokens_.count(token) == 0) {
              // Another connection may have resumed the same player meanwhile: keep one Player.
              player = players_by_token_.emplace(token, std::move(p)).first->second;
            } else {
              player = std::move(p);
            }
          }
          Admit(conn, request_id, player);
        },
        StorageExecutor::Kind::kRead);
    return;
  }
  if (AddressQuota* address = conn->quota.address.get(); address && address->limited) {
    std::lock_guard lock(address->mu);
    if (!address->new_players.Take(LimitClock::now())) {
      RefuseForLimit(conn, request_id, codes::kRateLimited,
                     "Too many new players from your address; come back with your token, or "
                     "wait a minute.");
      return;
    }
  }
  const std::optional<std::string> name = ValidName(conn, request_id, hello.name());
  if (!name) return;
  auto p = std::make_shared<Player>();
  p->player_id = NewPlayerId();
  p->name = *name;
  p->token = NewToken();
  // Welcomed once stored: a token handed out always works after a restart.
  PlayerPtr player = p;
  AnswerAfterStore(
      conn,
      [player](Store& store) {
        return store.SavePlayer(player->token, StoredPlayer{player->player_id, player->name});
      },
      [this, conn, request_id, player](Status saved) {
        if (!saved.ok()) {
          spdlog::error("cannot save a player: {}", saved.ToString());
          conn->Send(EncodeError(request_id, codes::kStorageError, "Players cannot be saved now."));
          return;
        }
        {
          std::lock_guard lock(mu_);
          players_by_token_[player->token] = player;
        }
        Admit(conn, request_id, player);
      });
}

int64_t Lobby::NowUnixMs() const {
  if (wall_clock_) return wall_clock_();
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

bool Lobby::RefuseIfExpired(const ConnectionPtr& conn, uint64_t request_id,
                            int64_t last_used_unix_ms) {
  if (NowUnixMs() - last_used_unix_ms <= token_inactive_.count()) return false;
  const auto days = std::chrono::duration_cast<std::chrono::hours>(token_inactive_).count() / 24;
  conn->Send(EncodeError(
      request_id, codes::kTokenExpired,
      "This token was not used for " +
          (days >= 1 ? std::to_string(days) + " days" : std::string("too long")) +
          " and has expired; say Hello with a name to start as a new player."));
  return true;
}

void Lobby::NoteTokenUse(const std::string& player_id) {
  const int64_t now = NowUnixMs();
  {
    std::lock_guard lock(mu_);
    int64_t& last = token_last_used_[player_id];
    last = std::max(last, now);
  }
  storage_.Submit(
      [player_id, now](Store& store) { return store.TouchPlayer(player_id, now); },
      [player_id](Status stored) {
        if (!stored.ok()) {
          spdlog::warn("cannot note player {}'s token in use: {}", player_id, stored.ToString());
        }
      });
}

void Lobby::RefuseRevoked(const ConnectionPtr& conn, uint64_t request_id) {
  conn->Send(EncodeError(request_id, codes::kTokenRevoked,
                         "This token was signed out everywhere; say Hello with a name to start "
                         "as a new player."));
}

void Lobby::Admit(const ConnectionPtr& conn, uint64_t request_id, const PlayerPtr& player) {
  std::vector<ConnectionPtr> others;
  bool revoked = false;
  {
    std::lock_guard lock(mu_);
    // Checked under the lock the sign-out takes: either this connection is among those it
    // closes, or it sees the token revoked.
    revoked = revoked_tokens_.count(player->token) != 0;
    if (!revoked) {
      auto& conns = player_connections_[player->player_id];
      for (auto it = conns.begin(); it != conns.end();) {
        auto c = it->second.lock();
        if (!c) {
          it = conns.erase(it);
          continue;
        }
        if (c != conn) others.push_back(std::move(c));
        ++it;
      }
      conns[conn.get()] = conn;
    }
  }
  if (revoked) {
    RefuseRevoked(conn, request_id);
    return;
  }
  NoteTokenUse(player->player_id);
  conn->token_noted_unix_ms = NowUnixMs();
  Welcome(conn, request_id, player);
  if (others.empty()) return;
  // Whoever holds the token takes the seats: the player's other screens learn that it was used.
  v1::ServerMessage m;
  m.mutable_session_notice()->set_kind(v1::SESSION_NOTICE_OPENED_ELSEWHERE);
  m.mutable_session_notice()->set_connections(static_cast<uint32_t>(others.size() + 1));
  const SharedBuffer notice = Encode(m);
  for (const auto& c : others) c->Send(notice);
}

void Lobby::HandleSignOutEverywhere(const ConnectionPtr& conn, uint64_t request_id) {
  const PlayerPtr old = conn->player;
  auto renewed = std::make_shared<Player>(*old);
  renewed->token = NewToken();
  renewed->revoked = std::make_shared<std::atomic<bool>>(false);
  const int64_t now = NowUnixMs();
  AnswerAfterStore(
      conn,
      [old_token = old->token, new_token = renewed->token, now](Store& store) {
        return store.ReplaceToken(old_token, new_token, now);
      },
      [this, conn, request_id, old, renewed](Status stored) {
        if (!stored.ok()) {
          spdlog::error("cannot sign player {} out: {}", old->player_id, stored.ToString());
          conn->Send(EncodeError(request_id, codes::kStorageError,
                                 "Signing out could not be saved; nothing changed, try again."));
          return;
        }
        std::vector<ConnectionPtr> others;
        {
          std::lock_guard lock(mu_);
          revoked_tokens_.insert(old->token);
          old->revoked->store(true);
          players_by_token_.erase(old->token);
          players_by_token_[renewed->token] = renewed;
          auto& conns = player_connections_[old->player_id];
          for (auto& [ptr, weak] : conns) {
            if (auto c = weak.lock(); c && c != conn) others.push_back(std::move(c));
          }
        }
        Welcome(conn, request_id, renewed);
        v1::ServerMessage m;
        m.mutable_session_notice()->set_kind(v1::SESSION_NOTICE_SIGNED_OUT);
        const SharedBuffer notice = Encode(m);
        // Not a graceful close: one that stopped reading would stay open behind its queue.
        for (const auto& c : others) c->CloseWith(notice);
      });
}

void Lobby::Welcome(const ConnectionPtr& conn, uint64_t request_id, const PlayerPtr& player) {
  conn->player = player;
  auto m = std::make_shared<v1::ServerMessage>();
  m->set_request_id(request_id);
  v1::Welcome* welcome = m->mutable_welcome();
  welcome->set_token(player->token);
  welcome->set_player_id(player->player_id);
  welcome->set_name(player->name);
  {
    std::lock_guard lock(mu_);
    auto it = memberships_.find(player->player_id);
    if (it != memberships_.end()) {
      for (const auto& room_id : it->second) welcome->add_room_ids(room_id);
    }
  }
  if (!linked_) return conn->Send(Encode(*m));
  // Several nodes: the games the player sits in on other nodes too, so a client that reached
  // this node re-opens them all (each carried to its node).
  auto elsewhere = std::make_shared<std::vector<std::string>>();
  AnswerAfterStore(
      conn,
      [player_id = player->player_id, elsewhere](Store& store) {
        auto rooms = store.PlayerRoomsElsewhere(player_id);
        if (!rooms.ok()) return rooms.status();
        *elsewhere = std::move(rooms.value());
        return Status::Ok();
      },
      [conn, m, elsewhere](Status st) {
        // Unknown now, the player still gets this node's rooms.
        if (!st.ok()) spdlog::warn("cannot find a player's rooms on other nodes: {}", st.ToString());
        v1::Welcome* welcome = m->mutable_welcome();
        for (const std::string& room_id : *elsewhere) {
          if (std::find(welcome->room_ids().begin(), welcome->room_ids().end(), room_id) ==
              welcome->room_ids().end()) {
            welcome->add_room_ids(room_id);
          }
        }
        conn->Send(Encode(*m));
      },
      StorageExecutor::Kind::kRead);
}

}  // namespace plateau::server
