// Players: Hello (a new player, or one coming back with its token), renaming, and the Welcome
// that binds a player to its connection.
#include "server/lobby/lobby.h"

#include <spdlog/spdlog.h>

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
        {
          std::lock_guard lock(mu_);
          // The player's next connections say Hello with this token and get the new name.
          players_by_token_[renamed->token] = renamed;
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
      Welcome(conn, request_id, player);
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
          auto p = std::make_shared<Player>();
          p->player_id = (*found)->player_id;
          p->name = (*found)->name;
          p->token = token;
          PlayerPtr player;
          {
            std::lock_guard lock(mu_);
            // Another connection may have resumed the same player meanwhile: keep one Player.
            player = players_by_token_.emplace(token, std::move(p)).first->second;
          }
          Welcome(conn, request_id, player);
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
        Welcome(conn, request_id, player);
      });
}

void Lobby::Welcome(const ConnectionPtr& conn, uint64_t request_id, const PlayerPtr& player) {
  conn->player = player;
  v1::ServerMessage m;
  m.set_request_id(request_id);
  v1::Welcome* welcome = m.mutable_welcome();
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
  conn->Send(Encode(m));
}

}  // namespace plateau::server
