// The server over loopback with real WebSocket clients: sessions, lobby, rooms, a full game of
// Globalissimo with a spectator, refusals that change nothing, reconnection, slow clients, chat
// and recovery after a restart.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket/rfc6455.hpp>
#include <set>

#include "engine/core/game.h"
#include "games/globalissimo.pb.h"
#include "server/lobby/ids.h"
#include "test_support.h"

namespace plateau::server::testing {
namespace {

namespace g = plateau::games::globalissimo;

v1::ClientMessage CreateRoomMsg(bool is_private, uint32_t seats, uint32_t rounds) {
  v1::ClientMessage m;
  auto* c = m.mutable_create_room();
  c->set_game("globalissimo");
  c->set_is_private(is_private);
  c->set_seats(seats);
  g::Options options;
  options.set_rounds(rounds);
  c->set_options(options.SerializeAsString());
  return m;
}

std::string ErrorCode(const v1::ServerMessage& m) { return m.has_error() ? m.error().code() : ""; }

std::string ChooseAction(const HeldView& held, int seat) { return GlobalissimoMove(held, seat); }

class ServerTest : public ::testing::Test {
 protected:
  void SetUp() override { Start(); }

  void Start(NetLimits limits = {},
             std::chrono::milliseconds empty_room_grace = std::chrono::minutes(5)) {
    server_.reset();
    server_ = std::make_unique<TestServer>(dir_.File("plateau.db"), std::move(limits),
                                           empty_room_grace);
    ASSERT_NE(server_->port(), 0);
  }

  std::unique_ptr<TestClient> Connect(const std::string& name, v1::Welcome* welcome = nullptr) {
    return ConnectAs(server_->port(), name, welcome);
  }

  // The server's own view of `seat` in `room` and its version.
  std::pair<std::string, uint64_t> ServerView(const std::string& room_id, int seat) {
    std::pair<std::string, uint64_t> out;
    EXPECT_TRUE(server_->InspectRoom(room_id, [&](const engine::State* s, uint64_t v) {
      if (s) out.first = WireView(*s, seat);
      out.second = v;
    }));
    return out;
  }

  uint64_t ServerVersion(const std::string& room_id) { return ServerView(room_id, -1).second; }

  // Two players in a started game (a: seat 0 and host, b: seat 1); returns the room id.
  std::string StartTwoPlayerGame(TestClient& a, TestClient& b, uint32_t rounds = 1) {
    return StartGameIn(a, b, CreateRoomMsg(false, 2, rounds));
  }

  // The same in a private room: b comes in with its code, returned in `code`.
  std::string StartPrivateTwoPlayerGame(TestClient& a, TestClient& b, std::string* code) {
    return StartGameIn(a, b, CreateRoomMsg(true, 2, 1), code);
  }

  // Plays the game to its end (bounded); the GameOver `a` received.
  std::optional<v1::ServerMessage> PlayToTheEnd(TestClient& a, TestClient& b,
                                                const std::string& room_id) {
    for (int moves = 0; !a.view(room_id).game_over && moves < 500; ++moves) {
      if (!PlayOneMove({&a, &b}, room_id)) {
        ADD_FAILURE() << "nobody could move";
        return std::nullopt;
      }
    }
    return a.WaitPush([](const v1::ServerMessage& m) { return m.has_game_over(); });
  }

  // Whoever may act in `clients` (indexed by seat) plays one move; returns false if nobody could.
  bool PlayOneMove(std::vector<TestClient*> clients, const std::string& room_id) {
    for (size_t seat = 0; seat < clients.size(); ++seat) {
      TestClient& c = *clients[seat];
      HeldView& held = c.view(room_id);
      if (!held.view || held.game_over) continue;
      const std::string action = ChooseAction(held, static_cast<int>(seat));
      if (action.empty()) continue;
      const uint64_t before = held.version;
      v1::ServerMessage reply = c.Call(ActionMsg(room_id, action));
      EXPECT_TRUE(reply.has_accepted()) << reply.DebugString();
      EXPECT_EQ(reply.accepted().action_index(), before - 1);
      // Everyone's view moves on by exactly one version.
      for (TestClient* other : clients) {
        EXPECT_TRUE(other->WaitPush([&](const v1::ServerMessage& m) {
          return m.has_diff() && m.diff().diff().to_version() == before + 1;
        })) << "no diff to version " << before + 1;
      }
      return true;
    }
    return false;
  }

  // What a crash between a game's last move and its result leaves behind: the game stored to
  // its end but not marked finished. The server must be stopped.
  void ForgetTheResult(const std::string& game_id) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(dir_.File("plateau.db").c_str(), &db), SQLITE_OK);
    const std::string sql =
        "DELETE FROM game_results WHERE game_id = '" + game_id + "';"
        "UPDATE games SET status = 'playing', finished_unix_ms = NULL WHERE game_id = '" +
        game_id + "';";
    ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
  }

  TempDir dir_;
  std::unique_ptr<TestServer> server_;
};

TEST_F(ServerTest, HelloIsRequiredAndTokensResumeThePlayer) {
  TestClient c(server_->port());
  EXPECT_EQ(ErrorCode(c.Call(PingMsg())), "hello_required");
  EXPECT_EQ(ErrorCode(c.Call(HelloName("   "))), "bad_name");
  EXPECT_EQ(ErrorCode(c.Call(HelloName(std::string(33, 'x')))), "bad_name");
  v1::ServerMessage w = c.Call(HelloName("  Ada  "));
  ASSERT_TRUE(w.has_welcome());
  EXPECT_EQ(w.welcome().name(), "Ada");
  EXPECT_EQ(w.welcome().token().size(), 32u);
  EXPECT_TRUE(c.Call(PingMsg()).has_pong());

  TestClient again(server_->port());
  EXPECT_EQ(ErrorCode(again.Call(HelloToken("00112233445566778899aabbccddeeff"))), "unknown_token");
  v1::ServerMessage resumed = again.Call(HelloToken(w.welcome().token()));
  ASSERT_TRUE(resumed.has_welcome());
  EXPECT_EQ(resumed.welcome().player_id(), w.welcome().player_id());
  EXPECT_EQ(resumed.welcome().name(), "Ada");
}

// A host who reloads the page comes back to the room it was sharing the link of.
TEST_F(ServerTest, EmptyWaitingRoomWaitsForItsHostToComeBack) {
  v1::Welcome wa;
  auto a = Connect("Ada", &wa);
  v1::ServerMessage created = a->Call(CreateRoomMsg(true, 2, 1));
  ASSERT_TRUE(created.has_room());
  const std::string room_id = created.room().room_id();
  const std::string code = created.room().join_code();
  a->Close();
  a.reset();
  TestClient again(server_->port());
  ASSERT_TRUE(again.Call(HelloToken(wa.token())).has_welcome());
  v1::ServerMessage rejoined = again.Call(JoinMsg(room_id, code));
  ASSERT_TRUE(rejoined.has_room()) << rejoined.DebugString();
  EXPECT_EQ(rejoined.room().your_seat(), 0);
  EXPECT_EQ(rejoined.room().host_player_id(), wa.player_id());
}

TEST_F(ServerTest, EmptyWaitingRoomIsRemovedAfterTheGracePeriod) {
  Start({}, std::chrono::milliseconds(50));
  auto a = Connect("Ada");
  v1::ServerMessage created = a->Call(CreateRoomMsg(false, 2, 1));
  ASSERT_TRUE(created.has_room());
  const std::string room_id = created.room().room_id();
  ASSERT_EQ(server_->server().lobby().RoomCount(), 1u);
  a->Close();
  a.reset();
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  while (server_->server().lobby().RoomCount() > 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(10ms);
  }
  EXPECT_EQ(server_->server().lobby().RoomCount(), 0u);
  auto b = Connect("Bob");
  EXPECT_EQ(ErrorCode(b->Call(JoinMsg(room_id))), "room_not_found");
}

TEST_F(ServerTest, ListGamesNamesTheProtobufTypes) {
  auto c = Connect("Ada");
  v1::ClientMessage m;
  m.mutable_list_games();
  v1::ServerMessage reply = c->Call(m);
  ASSERT_TRUE(reply.has_game_list());
  bool found = false;
  for (const auto& game : reply.game_list().games()) {
    if (game.id() != "globalissimo") continue;
    found = true;
    EXPECT_EQ(game.options_type(), "plateau.games.globalissimo.Options");
    EXPECT_EQ(game.action_type(), "plateau.games.globalissimo.Action");
    EXPECT_EQ(game.view_type(), "plateau.games.globalissimo.View");
    EXPECT_GE(game.min_seats(), 1u);
    // The game's words travel with it, the core's included, so clients render any phrase.
    std::set<std::string> keys;
    for (const auto& t : game.texts().templates()) keys.insert(t.key());
    EXPECT_TRUE(keys.count("globalissimo.q_capital"));
    EXPECT_TRUE(keys.count("core.resigned"));
    // Its static data too: what views name by id, decodable by the type it names.
    EXPECT_EQ(game.static_type(), "plateau.games.globalissimo.StaticData");
    games::globalissimo::StaticData data;
    ASSERT_TRUE(data.ParseFromString(game.static_data()));
    EXPECT_EQ(data.categories_size(), 10);
    ASSERT_EQ(data.countries_size(), 100);
    EXPECT_FALSE(data.countries(0).name().empty());
  }
  EXPECT_TRUE(found);
}

// An invitation shows where it leads before anyone chooses to sit or watch: PeekRoom answers the
// room's RoomInfo (a private room needs its code, as for joining) and makes nobody a member.
TEST_F(ServerTest, PeekingAtAnInvitationEntersNothing) {
  v1::Welcome wa;
  auto a = Connect("Ada", &wa);
  auto b = Connect("Bob");
  v1::ServerMessage priv = a->Call(CreateRoomMsg(true, 3, 1));
  ASSERT_TRUE(priv.has_room());
  const std::string code = priv.room().join_code();
  const std::string room_id = priv.room().room_id();
  EXPECT_EQ(ErrorCode(b->Call(PeekMsg(room_id, ""))), "code_required");
  EXPECT_EQ(ErrorCode(b->Call(PeekMsg("", "ZZZZZZ"))), "room_not_found");
  v1::ServerMessage seen = b->Call(PeekMsg("", code));
  ASSERT_TRUE(seen.has_room()) << seen.DebugString();
  EXPECT_EQ(seen.room().room_id(), room_id);
  EXPECT_EQ(seen.room().your_seat(), -1);
  EXPECT_TRUE(seen.room().join_code().empty());  // codes go to members only
  EXPECT_EQ(seen.room().host_player_id(), wa.player_id());
  EXPECT_EQ(seen.room().seats(0).name(), "Ada");
  EXPECT_EQ(seen.room().spectators_size(), 0);
  // Not a member: nothing to leave, no push for Ada, and the room still needs the code.
  EXPECT_EQ(ErrorCode(b->Call(v1::ClientMessage([&] {
              v1::ClientMessage m;
              m.mutable_leave_room()->set_room_id(room_id);
              return m;
            }()))),
            "not_member");
  EXPECT_EQ(ErrorCode(b->Call(JoinMsg(room_id))), "code_required");
  EXPECT_TRUE(a->PendingPushes(100ms).empty());
  // A member peeking sees its own seat (a client then takes it back without asking).
  EXPECT_EQ(a->Call(PeekMsg(room_id, "")).room().your_seat(), 0);
}

// Two people with the same name at one table are told apart: the second is "Sam (2)" there, in
// the seats, among the watchers and in the chat.
TEST_F(ServerTest, NamesAreUniqueWithinARoom) {
  auto a = Connect("Sam");
  auto b = Connect("sam");
  auto c = Connect("Sam");
  v1::ServerMessage room = a->Call(CreateRoomMsg(false, 3, 1));
  ASSERT_TRUE(room.has_room());
  const std::string id = room.room().room_id();
  v1::ServerMessage joined = b->Call(JoinMsg(id));
  ASSERT_TRUE(joined.has_room());
  EXPECT_EQ(joined.room().seats(0).name(), "Sam");
  EXPECT_EQ(joined.room().seats(1).name(), "sam (2)");
  v1::ServerMessage watching = c->Call(SpectateMsg(id));
  ASSERT_TRUE(watching.has_room());
  ASSERT_EQ(watching.room().spectators_size(), 1);
  EXPECT_EQ(watching.room().spectators(0), "Sam (3)");
  ASSERT_TRUE(b->Call(ChatMsg(id, "hello")).has_ok());
  auto line = a->WaitPush([](const v1::ServerMessage& m) { return m.has_chat(); });
  ASSERT_TRUE(line);
  EXPECT_EQ(line->chat().from_name(), "sam (2)");
  // The watcher takes the free seat: one name for it everywhere.
  v1::ServerMessage seated = c->Call(JoinMsg(id));
  ASSERT_TRUE(seated.has_room());
  EXPECT_EQ(seated.room().seats(2).name(), "Sam (3)");
  ASSERT_TRUE(c->Call(ChatMsg(id, "me too")).has_ok());
  auto mine = a->WaitPush([](const v1::ServerMessage& m) {
    return m.has_chat() && m.chat().text() == "me too";
  });
  ASSERT_TRUE(mine);
  EXPECT_EQ(mine->chat().from_name(), "Sam (3)");
}

// Renaming: the same rules as a first name; the new name is the player's for tables joined from
// then on, for its other connections and after a restart; a table already joined keeps the old.
TEST_F(ServerTest, APlayerRenamesForTheTablesItJoinsNext) {
  v1::Welcome welcome;
  auto a = Connect("Ada", &welcome);
  v1::ServerMessage room = a->Call(CreateRoomMsg(false, 3, 1));
  ASSERT_TRUE(room.has_room());
  const std::string old_room = room.room().room_id();
  auto rename = [](const std::string& name) {
    v1::ClientMessage m;
    m.mutable_rename()->set_name(name);
    return m;
  };
  EXPECT_EQ(ErrorCode(a->Call(rename("   "))), "bad_name");
  EXPECT_EQ(ErrorCode(a->Call(rename(std::string(33, 'x')))), "bad_name");
  v1::ServerMessage renamed = a->Call(rename("  Ada Lovelace "));
  ASSERT_TRUE(renamed.has_welcome()) << renamed.DebugString();
  EXPECT_EQ(renamed.welcome().name(), "Ada Lovelace");
  EXPECT_EQ(renamed.welcome().player_id(), welcome.player_id());
  EXPECT_EQ(renamed.welcome().token(), welcome.token());
  ASSERT_EQ(renamed.welcome().room_ids_size(), 1);

  // The table already joined keeps the name it knew; a new one gets the new name.
  auto b = Connect("Bob");
  v1::ServerMessage joined = b->Call(JoinMsg(old_room));
  ASSERT_TRUE(joined.has_room());
  EXPECT_EQ(joined.room().seats(0).name(), "Ada");
  v1::ServerMessage fresh = a->Call(CreateRoomMsg(false, 2, 1));
  ASSERT_TRUE(fresh.has_room());
  EXPECT_EQ(fresh.room().seats(0).name(), "Ada Lovelace");
  // Another tab saying Hello with the token, and the store after a restart, know it too.
  auto tab = std::make_unique<TestClient>(server_->port());
  EXPECT_EQ(tab->Call(HelloToken(welcome.token())).welcome().name(), "Ada Lovelace");
  auto stored = server_->store().FindPlayer(welcome.token());
  ASSERT_TRUE(stored.ok() && stored.value().has_value());
  EXPECT_EQ(stored.value()->name, "Ada Lovelace");
}

TEST_F(ServerTest, PublicAndPrivateRoomsListJoinAndSpectate) {
  v1::Welcome wa, wb;
  auto a = Connect("Ada", &wa);
  auto b = Connect("Bob", &wb);
  auto s = Connect("Sue");

  EXPECT_EQ(ErrorCode(a->Call(CreateRoomMsg(false, 9, 1))), "bad_options");
  v1::ClientMessage unknown = CreateRoomMsg(false, 2, 1);
  unknown.mutable_create_room()->set_game("chess");
  EXPECT_EQ(ErrorCode(a->Call(unknown)), "unknown_game");
  EXPECT_EQ(ErrorCode(a->Call(CreateRoomMsg(false, 2, 99))), "bad_options");

  v1::ServerMessage pub = a->Call(CreateRoomMsg(false, 2, 1));
  ASSERT_TRUE(pub.has_room());
  EXPECT_EQ(pub.room().your_seat(), 0);
  EXPECT_EQ(pub.room().host_player_id(), wa.player_id());
  EXPECT_EQ(pub.room().status(), v1::ROOM_STATUS_WAITING);
  const std::string pub_id = pub.room().room_id();

  v1::ServerMessage priv = a->Call(CreateRoomMsg(true, 3, 1));
  ASSERT_TRUE(priv.has_room());
  const std::string code = priv.room().join_code();
  EXPECT_TRUE(IsJoinCode(code)) << code;
  const std::string priv_id = priv.room().room_id();

  v1::ClientMessage list;
  list.mutable_list_rooms()->set_game("globalissimo");
  v1::ServerMessage rooms = b->Call(list);
  ASSERT_TRUE(rooms.has_room_list());
  ASSERT_EQ(rooms.room_list().rooms_size(), 1);  // the private room is not listed
  EXPECT_EQ(rooms.room_list().rooms(0).room_id(), pub_id);
  EXPECT_TRUE(rooms.room_list().rooms(0).join_code().empty());  // codes only go to members

  EXPECT_EQ(ErrorCode(b->Call(JoinMsg(priv_id))), "code_required");
  EXPECT_EQ(ErrorCode(b->Call(JoinMsg("", "ZZZZZZ"))), "room_not_found");
  EXPECT_EQ(ErrorCode(b->Call(JoinMsg("r-nope"))), "room_not_found");
  v1::ServerMessage joined = b->Call(JoinMsg("", code));
  ASSERT_TRUE(joined.has_room());
  EXPECT_EQ(joined.room().your_seat(), 1);
  EXPECT_EQ(joined.room().join_code(), code);
  auto push = a->WaitPush([&](const v1::ServerMessage& m) {
    return m.has_room() && m.room().room_id() == priv_id && m.room().seats(1).player_id() == wb.player_id();
  });
  ASSERT_TRUE(push);
  EXPECT_EQ(push->room().your_seat(), 0);  // set per recipient
  EXPECT_TRUE(push->room().seats(1).connected());
  // Joining again is idempotent.
  EXPECT_EQ(b->Call(JoinMsg(priv_id)).room().your_seat(), 1);

  EXPECT_EQ(ErrorCode(s->Call(SpectateMsg(priv_id))), "code_required");
  v1::ServerMessage watching = s->Call(SpectateMsg(pub_id));
  ASSERT_TRUE(watching.has_room());
  EXPECT_EQ(watching.room().your_seat(), -1);
  ASSERT_EQ(watching.room().spectators_size(), 1);
  EXPECT_EQ(watching.room().spectators(0), "Sue");

  // Start rules on the public room: host only, enough players, everyone ready.
  EXPECT_EQ(ErrorCode(a->Call(StartMsg(pub_id))), "not_enough_players");
  ASSERT_TRUE(b->Call(JoinMsg(pub_id)).has_room());
  EXPECT_EQ(ErrorCode(s->Call(JoinMsg(pub_id))), "room_full");
  EXPECT_EQ(ErrorCode(b->Call(StartMsg(pub_id))), "not_host");
  EXPECT_EQ(ErrorCode(a->Call(StartMsg(pub_id))), "not_ready");
  ASSERT_TRUE(b->Call(ReadyMsg(pub_id)).has_ok());
  ASSERT_TRUE(a->Call(StartMsg(pub_id)).has_ok());
  auto snap = s->WaitPush([](const v1::ServerMessage& m) { return m.has_snapshot(); });
  ASSERT_TRUE(snap);
  EXPECT_EQ(snap->snapshot().version(), 1u);
  EXPECT_EQ(snap->snapshot().seat(), -1);
  EXPECT_EQ(snap->snapshot().view_type(), "plateau.games.globalissimo.View");
  auto info = a->WaitPush([](const v1::ServerMessage& m) {
    return m.has_room() && m.room().status() == v1::ROOM_STATUS_PLAYING;
  });
  ASSERT_TRUE(info);
  EXPECT_FALSE(info->room().game_id().empty());
  EXPECT_EQ(ErrorCode(a->Call(StartMsg(pub_id))), "game_started");

  // A late player is told to watch instead; a late spectator gets a snapshot.
  auto late = Connect("Lee");
  EXPECT_EQ(ErrorCode(late->Call(JoinMsg(pub_id))), "game_started");
  ASSERT_TRUE(late->Call(SpectateMsg(pub_id)).has_room());
  EXPECT_TRUE(late->WaitPush([](const v1::ServerMessage& m) { return m.has_snapshot(); }));

  // Welcome lists the rooms a player sits in or watches.
  TestClient again(server_->port());
  v1::ServerMessage resumed = again.Call(HelloToken(wb.token()));
  ASSERT_TRUE(resumed.has_welcome());
  std::set<std::string> ids(resumed.welcome().room_ids().begin(), resumed.welcome().room_ids().end());
  EXPECT_EQ(ids, (std::set<std::string>{pub_id, priv_id}));
}

// A private room's watch link carries its watch code, not its join code: whoever holds it
// watches, never sits, and is not told the join code; the join code still seats him.
TEST_F(ServerTest, AWatchCodeLetsItsHolderWatchAPrivateRoomAndNeverSit) {
  auto a = Connect("Ada");
  auto s = Connect("Sue");
  auto t = Connect("Tom");
  v1::ServerMessage priv = a->Call(CreateRoomMsg(true, 3, 1));
  ASSERT_TRUE(priv.has_room());
  const std::string room_id = priv.room().room_id();
  const std::string code = priv.room().join_code();
  const std::string watch = priv.room().watch_code();
  ASSERT_EQ(watch.size(), 12u) << priv.DebugString();
  ASSERT_NE(watch, code);

  // The watch code is no join code, with the room id or without, for joining or peeking.
  EXPECT_EQ(ErrorCode(t->Call(JoinMsg("", watch))), "room_not_found");
  EXPECT_EQ(ErrorCode(t->Call(JoinMsg(room_id, watch))), "room_not_found");
  EXPECT_EQ(ErrorCode(t->Call(PeekMsg(room_id, watch))), "room_not_found");
  EXPECT_EQ(ErrorCode(t->Call(SpectateMsg(room_id, watch))), "room_not_found");
  // A wrong watch code watches nothing.
  EXPECT_EQ(ErrorCode(t->Call(WatchMsg(room_id, watch == "AAAAAAAAAAAA" ? "BBBBBBBBBBBB"
                                                                         : "AAAAAAAAAAAA"))),
            "room_not_found");

  v1::ServerMessage watching = s->Call(WatchMsg(room_id, watch));
  ASSERT_TRUE(watching.has_room()) << watching.DebugString();
  EXPECT_EQ(watching.room().your_seat(), -1);
  EXPECT_EQ(watching.room().watch_code(), watch);
  EXPECT_TRUE(watching.room().join_code().empty());
  // A watcher by the watch code may not sit, though a member and a seat is free, nor by id.
  EXPECT_EQ(ErrorCode(s->Call(JoinMsg(room_id))), "code_required");
  EXPECT_EQ(ErrorCode(s->Call(JoinMsg(room_id, watch))), "room_not_found");
  // Nor learns the join code from the room's pushes.
  ASSERT_TRUE(t->Call(JoinMsg(room_id, code)).has_room());
  auto push = s->WaitPush([](const v1::ServerMessage& m) {
    return m.has_room() && m.room().seats(1).player_id() != "";
  });
  ASSERT_TRUE(push);
  EXPECT_TRUE(push->room().join_code().empty());
  EXPECT_EQ(push->room().watch_code(), watch);
  // The watch code alone (no room id) finds the room too, as a code alone does.
  auto u = Connect("Uma");
  EXPECT_TRUE(u->Call(WatchMsg("", watch)).has_room());
  EXPECT_EQ(ErrorCode(u->Call(JoinMsg(room_id))), "code_required");

  // Given the join code, the watcher may sit.
  v1::ServerMessage sat = s->Call(JoinMsg(room_id, code));
  ASSERT_TRUE(sat.has_room()) << sat.DebugString();
  EXPECT_EQ(sat.room().your_seat(), 2);
  EXPECT_EQ(sat.room().join_code(), code);
}

// A spectator who came with the join code holds it: it is sent to him and he may sit.
TEST_F(ServerTest, ASpectatorWithTheJoinCodeMayTakeASeat) {
  auto a = Connect("Ada");
  auto s = Connect("Sue");
  v1::ServerMessage priv = a->Call(CreateRoomMsg(true, 2, 1));
  const std::string room_id = priv.room().room_id();
  const std::string code = priv.room().join_code();
  v1::ServerMessage watching = s->Call(SpectateMsg(room_id, code));
  ASSERT_TRUE(watching.has_room()) << watching.DebugString();
  EXPECT_EQ(watching.room().join_code(), code);
  EXPECT_EQ(s->Call(JoinMsg(room_id)).room().your_seat(), 1);
}

// The watch code is stored with the game: after a restart the same watch link still watches.
TEST_F(ServerTest, AWatchCodeSurvivesARestart) {
  std::string room_id, watch, code;
  {
    auto a = Connect("Ada");
    auto b = Connect("Bob");
    room_id = StartPrivateTwoPlayerGame(*a, *b, &code);
    v1::ServerMessage info = a->Call(PeekMsg(room_id));
    ASSERT_TRUE(info.has_room());
    watch = info.room().watch_code();
    ASSERT_FALSE(watch.empty());
  }
  server_->Stop();
  Start();
  auto s = Connect("Sue");
  v1::ServerMessage watching = s->Call(WatchMsg(room_id, watch));
  ASSERT_TRUE(watching.has_room()) << watching.DebugString();
  EXPECT_EQ(watching.room().status(), v1::ROOM_STATUS_PLAYING);
  EXPECT_EQ(watching.room().watch_code(), watch);
  EXPECT_TRUE(watching.room().join_code().empty());
  EXPECT_TRUE(s->WaitPush([](const v1::ServerMessage& m) { return m.has_snapshot(); }));
  auto t = Connect("Tom");
  EXPECT_TRUE(t->Call(WatchMsg("", watch)).has_room());
  EXPECT_EQ(ErrorCode(t->Call(JoinMsg("", watch))), "room_not_found");
}

TEST_F(ServerTest, LeavingBeforeStartFreesTheSeatAndPassesHost) {
  v1::Welcome wb;
  auto a = Connect("Ada");
  auto b = Connect("Bob", &wb);
  v1::ServerMessage created = a->Call(CreateRoomMsg(false, 3, 1));
  const std::string room_id = created.room().room_id();
  ASSERT_TRUE(b->Call(JoinMsg(room_id)).has_room());
  v1::ClientMessage leave;
  leave.mutable_leave_room()->set_room_id(room_id);
  ASSERT_TRUE(a->Call(leave).has_ok());
  auto info = b->WaitPush([](const v1::ServerMessage& m) { return m.has_room(); });
  ASSERT_TRUE(info);
  EXPECT_EQ(info->room().host_player_id(), wb.player_id());
  EXPECT_TRUE(info->room().seats(0).player_id().empty());
  ASSERT_TRUE(b->Call(leave).has_ok());
  // The empty room is gone.
  EXPECT_EQ(ErrorCode(a->Call(JoinMsg(room_id))), "room_not_found");
}

// A move is acknowledged and shown to anyone only once it is durable; while its sync is slow,
// every other connection is served (no network thread waits on the disk), and requests to the
// busy room wait their turn in order.
TEST_F(ServerTest, NothingIsSentBeforeItIsStoredAndASlowSyncStallsNobodyElse) {
  auto a = Connect("Ada");
  auto b = Connect("Bob");
  const std::string room_id = StartTwoPlayerGame(*a, *b);
  TestClient* mover = nullptr;
  std::string action;
  for (TestClient* c : {a.get(), b.get()}) {
    const int seat = c == a.get() ? 0 : 1;
    action = ChooseAction(c->view(room_id), seat);
    if (!action.empty()) {
      mover = c;
      break;
    }
  }
  ASSERT_NE(mover, nullptr);
  const uint64_t before = mover->view(room_id).version;

  server_->gate().Hold();
  const uint64_t id = mover->Send(ActionMsg(room_id, action));
  const uint64_t chat = mover->Send(ChatMsg(room_id, "after my move"));
  // Reaches the storage thread and waits there.
  for (int i = 0; i < 200 && server_->gate().waiting() == 0; ++i) std::this_thread::sleep_for(5ms);
  ASSERT_EQ(server_->gate().waiting(), 1);
  // Others are served meanwhile: a ping, even a new room (a new player's Hello, being stored,
  // would wait for the disk like the move).
  EXPECT_TRUE(b->Call(PingMsg(), 1s).has_pong());
  EXPECT_TRUE(a->Call(CreateRoomMsg(false, 2, 1), 1s).has_room());
  // Nobody has heard of the move, and the room's next request waits behind it.
  for (TestClient* c : {a.get(), b.get()}) {
    for (const auto& m : c->PendingPushes(200ms)) {
      EXPECT_FALSE(m.has_diff()) << "a diff before the move was stored";
      EXPECT_FALSE(m.has_chat()) << "a later request overtook the move";
    }
  }
  server_->gate().Release();
  v1::ServerMessage reply = mover->WaitReply(id);
  EXPECT_TRUE(reply.has_accepted()) << reply.DebugString();
  EXPECT_TRUE(mover->WaitReply(chat).has_ok());
  for (TestClient* c : {a.get(), b.get()}) {
    EXPECT_TRUE(c->WaitPush([&](const v1::ServerMessage& m) {
      return m.has_diff() && m.diff().diff().to_version() == before + 1;
    }));
  }
  auto stored = server_->store().LoadGame(server_->store().LoadUnfinished().value()[0].record.game_id());
  ASSERT_TRUE(stored.ok() && stored.value().has_value());
  EXPECT_EQ(stored.value()->actions_size(), 1);
  // Only the move itself: its text is for readers, written by the replay service when a replay
  // is read, not on every move's path.
  EXPECT_FALSE(stored.value()->actions(0).action().empty());
  EXPECT_TRUE(stored.value()->actions(0).text().empty());
}

// A connection waiting on the store (its reading paused) that is closed meanwhile — here by the
// server's shutdown — is still counted gone: shutdown does not wait out its deadline for it.
TEST_F(ServerTest, AConnectionClosedWhileItWaitsOnTheStoreIsCountedGone) {
  server_->gate().Hold();
  TestClient c(server_->port());
  c.Send(HelloName("Paused"));
  for (int i = 0; i < 200 && server_->gate().waiting() == 0; ++i) std::this_thread::sleep_for(5ms);
  ASSERT_EQ(server_->gate().waiting(), 1);
  ASSERT_EQ(server_->server().lobby().ConnectionCount(), 1u);
  server_->server().Shutdown();
  EXPECT_TRUE(c.WaitClosed(2s));  // the client answers the close handshake
  size_t left = 1;
  for (int i = 0; i < 200 && (left = server_->server().lobby().ConnectionCount()) > 0; ++i)
    std::this_thread::sleep_for(5ms);
  EXPECT_EQ(left, 0u) << "a paused connection closed by the server was never reported";
  server_->gate().Release();
}

// SIGTERM (TestServer::StopAsOnSignal: the binary's own path) with requests in flight: one client
// waits on the store (a Rename, the sync held) with pings sent behind it, another has not yet
// read the answers to its requests (game lists, queued for it). Each request taken is answered,
// what was queued reaches its client, and only then does each connection close, with 1001, well
// within the deadline; the pings are refused or, unread, left to the reconnection.
TEST_F(ServerTest, OnSignalRequestsInFlightAreAnsweredAndFlushedBeforeA1001Close) {
  auto renaming = Connect("Before");
  TestClient unread(server_->port(), /*receive_buffer=*/4096);
  ASSERT_TRUE(unread.Call(HelloName("Unread")).has_welcome());
  const uint64_t taken_before = server_->metrics().requests.value();
  std::vector<uint64_t> lists;
  for (int i = 0; i < 8; ++i) {
    v1::ClientMessage m;
    m.mutable_list_games();
    lists.push_back(unread.Send(m));
  }
  // Every list taken before the signal (a slow machine may read them late): the promise is about
  // requests taken, and those read after it are refused.
  for (int i = 0; i < 1000 && server_->metrics().requests.value() < taken_before + 8; ++i)
    std::this_thread::sleep_for(5ms);
  ASSERT_GE(server_->metrics().requests.value(), taken_before + 8);
  server_->gate().Hold();
  v1::ClientMessage rename;
  rename.mutable_rename()->set_name("After");
  const uint64_t renamed_id = renaming->Send(rename);
  std::vector<uint64_t> pings;
  for (int i = 0; i < 3; ++i) pings.push_back(renaming->Send(PingMsg()));
  for (int i = 0; i < 200 && server_->gate().waiting() == 0; ++i) std::this_thread::sleep_for(5ms);
  ASSERT_EQ(server_->gate().waiting(), 1);

  const auto start = std::chrono::steady_clock::now();
  std::thread signal([&] { server_->StopAsOnSignal(); });
  std::this_thread::sleep_for(100ms);
  server_->gate().Release();

  const v1::ServerMessage renamed = renaming->WaitReply(renamed_id, 3s);
  ASSERT_TRUE(renamed.has_welcome()) << "the Rename taken before the signal was not answered";
  EXPECT_EQ(renamed.welcome().name(), "After");
  for (uint64_t id : pings) {
    const v1::ServerMessage pong = renaming->WaitReply(id, 200ms);
    EXPECT_FALSE(pong.has_pong()) << "a request read after the signal was taken";
    if (pong.has_error()) {
      EXPECT_EQ(ErrorCode(pong), "shutting_down");
    }
  }
  EXPECT_TRUE(renaming->WaitClosed(3s));
  EXPECT_EQ(renaming->close_code(), 1001);

  int answered = 0;
  for (uint64_t id : lists) answered += unread.WaitReply(id, 3s).has_game_list() ? 1 : 0;
  EXPECT_EQ(answered, static_cast<int>(lists.size())) << "queued replies were lost";
  EXPECT_TRUE(unread.WaitClosed(3s));
  EXPECT_EQ(unread.close_code(), 1001);

  signal.join();
  EXPECT_LT(std::chrono::steady_clock::now() - start, Server::kStopDeadline);
}

// SIGTERM while a room has a request it has not run yet (its strand busy with something else):
// the request was taken before the signal, so its answer goes out before the connection closes.
TEST_F(ServerTest, OnSignalARequestARoomHasNotRunYetIsAnsweredBeforeTheClose) {
  auto creator = Connect("Creator");
  const v1::ServerMessage created = creator->Call(CreateRoomMsg(false, 2, 1));
  ASSERT_TRUE(created.has_room());
  const std::string room_id = created.room().room_id();
  // The member asking runs on the other shard: the room's held thread cannot keep its request
  // from being taken (on the room's own shard it would wait unread, and be refused).
  Lobby& lobby = server_->server().lobby();
  const size_t room_shard = lobby.ShardOfRoom(room_id).value();
  std::unique_ptr<TestClient> host;
  for (int i = 0; i < 4 && !host; ++i) {
    const std::vector<size_t> before = lobby.ConnectionsPerShard();
    auto c = Connect("Host" + std::to_string(i));
    if (lobby.ConnectionsPerShard()[room_shard] == before[room_shard]) host = std::move(c);
  }
  ASSERT_TRUE(host);
  ASSERT_TRUE(host->Call(JoinMsg(room_id)).has_room());
  // The room's strand is held until `release`, as by a long piece of work.
  std::promise<void> held, release;
  std::shared_future<void> released = release.get_future().share();
  server_->server().lobby().FindRoom(room_id)->Inspect(
      [&held, released](const engine::State*, uint64_t) {
        held.set_value();
        released.wait_for(5s);
      });
  ASSERT_EQ(held.get_future().wait_for(2s), std::future_status::ready);
  const uint64_t chat = host->Send(ChatMsg(room_id, "last words"));
  std::this_thread::sleep_for(50ms);  // taken by the lobby, waiting for the room

  const auto start = std::chrono::steady_clock::now();
  std::thread signal([&] { server_->StopAsOnSignal(); });
  std::this_thread::sleep_for(100ms);
  release.set_value();

  const v1::ServerMessage answer = host->WaitReply(chat, 3s);
  EXPECT_TRUE(answer.has_ok()) << "the request taken before the signal was not answered";
  EXPECT_TRUE(host->WaitClosed(3s));
  EXPECT_EQ(host->close_code(), 1001);
  EXPECT_TRUE(creator->WaitClosed(3s));  // its close answered too, or the stop waits for it
  signal.join();
  EXPECT_LT(std::chrono::steady_clock::now() - start, Server::kStopDeadline);
}

TEST_F(ServerTest, TwoPlayersAndASpectatorPlayAFullGame) {
  auto a = Connect("Ada");
  auto b = Connect("Bob");
  auto s = Connect("Sue");
  const std::string room_id = StartTwoPlayerGame(*a, *b, /*rounds=*/2);
  ASSERT_TRUE(s->Call(SpectateMsg(room_id)).has_room());
  ASSERT_TRUE(s->WaitPush([](const v1::ServerMessage& m) { return m.has_snapshot(); }));

  int moves = 0;
  while (!a->view(room_id).game_over && moves < 500) {
    ASSERT_TRUE(PlayOneMove({a.get(), b.get()}, room_id)) << "nobody could move";
    s->WaitPush([&](const v1::ServerMessage& m) {
      return m.has_diff() && m.diff().diff().to_version() == a->view(room_id).version;
    });
    ++moves;
  }
  ASSERT_TRUE(a->view(room_id).game_over);
  EXPECT_EQ(a->view(room_id).version, static_cast<uint64_t>(moves) + 1);

  // GameOver, then the room is FINISHED.
  std::string game_id;
  for (TestClient* c : {a.get(), b.get(), s.get()}) {
    auto over = c->WaitPush([](const v1::ServerMessage& m) { return m.has_game_over(); });
    ASSERT_TRUE(over);
    EXPECT_EQ(over->game_over().results_size(), 2);
    EXPECT_EQ(over->game_over().replay_token(), "");  // a public game needs no key
    game_id = over->game_over().game_id();
    EXPECT_TRUE(c->WaitPush([](const v1::ServerMessage& m) {
      return m.has_room() && m.room().status() == v1::ROOM_STATUS_FINISHED;
    }));
    EXPECT_EQ(c->gaps, 0);
  }

  // Every client's view, built from Diffs alone, is the server's view for its seat.
  EXPECT_EQ(engine::DeterministicBytes(*a->view(room_id).view), ServerView(room_id, 0).first);
  EXPECT_EQ(engine::DeterministicBytes(*b->view(room_id).view), ServerView(room_id, 1).first);
  EXPECT_EQ(engine::DeterministicBytes(*s->view(room_id).view), ServerView(room_id, -1).first);

  // The stored game replays to the same final position.
  v1::ClientMessage get;
  get.mutable_get_replay()->set_game_id(game_id);
  get.mutable_get_replay()->set_step(static_cast<uint32_t>(moves));
  get.mutable_get_replay()->set_seat(1);
  v1::ServerMessage replay = a->Call(get);
  ASSERT_TRUE(replay.has_replay()) << replay.DebugString();
  EXPECT_EQ(replay.replay().view(), ServerView(room_id, 1).first);
  v1::ClientMessage list;
  list.mutable_list_replays();
  v1::ServerMessage replays = a->Call(list);
  ASSERT_TRUE(replays.has_replay_list());
  ASSERT_GE(replays.replay_list().replays_size(), 1);
  EXPECT_EQ(replays.replay_list().replays(0).game_id(), game_id);
  get.mutable_get_replay()->set_step(100000);
  EXPECT_EQ(ErrorCode(a->Call(get)), "step_out_of_range");

  // A client that missed the end (a reload) gets the results again when it resyncs.
  ASSERT_TRUE(b->Call(ResyncMsg(room_id, 0)).has_ok());
  auto again = b->WaitPush([](const v1::ServerMessage& m) { return m.has_game_over(); });
  ASSERT_TRUE(again);
  EXPECT_EQ(again->game_over().game_id(), game_id);

  // No more moves once it is over.
  g::Action place;
  place.mutable_place()->set_slot(0);
  place.mutable_place()->set_position(1);
  EXPECT_EQ(ErrorCode(a->Call(ActionMsg(room_id, place.SerializeAsString()))), "game_not_running");
}

// Shards (docs/threading.md): a connection whose upgrade names a room (`/ws?room=ID`, as the web
// client does on a room's link) runs on that room's shard; any other hint only leaves placement
// to the turn, and a moved connection plays as any other.
TEST_F(ServerTest, ARoomsLinkSeatsTheConnectionOnTheRoomsShardAndOtherHintsChangeNothing) {
  Lobby& lobby = server_->server().lobby();
  ASSERT_EQ(lobby.ShardCount(), 2u);
  auto a = Connect("Ada");
  v1::ServerMessage created = a->Call(CreateRoomMsg(false, 2, 1));
  ASSERT_TRUE(created.has_room());
  const std::string room_id = created.room().room_id();
  const std::optional<size_t> shard = lobby.ShardOfRoom(room_id);
  ASSERT_TRUE(shard.has_value());
  EXPECT_FALSE(lobby.ShardOfRoom("no-such-room").has_value());

  auto hello = [&](const std::string& target, const std::string& name) {
    auto c = std::make_unique<TestClient>(server_->port(), 0, target);
    EXPECT_TRUE(c->Call(HelloName(name)).has_welcome()) << target;
    return c;
  };
  // Four in a row: the turn alone would put two of them on each shard.
  std::vector<size_t> before = lobby.ConnectionsPerShard();
  std::vector<std::unique_ptr<TestClient>> guests;
  for (int i = 0; i < 4; ++i) guests.push_back(hello("/ws?room=" + room_id, "G" + std::to_string(i)));
  std::vector<size_t> after = lobby.ConnectionsPerShard();
  EXPECT_EQ(after[*shard], before[*shard] + 4);
  EXPECT_EQ(after[1 - *shard], before[1 - *shard]);

  // Hints naming nothing: spread in turn, one on each shard per two connections.
  before = after;
  for (const std::string& target : std::vector<std::string>{
           "/ws?room=no-such-room", "/ws?room=", "/ws?x=1&room=%00", "/ws?room=" + std::string(80, 'r')}) {
    guests.push_back(hello(target, "H" + std::to_string(guests.size())));
  }
  after = lobby.ConnectionsPerShard();
  EXPECT_EQ(after[0], before[0] + 2);
  EXPECT_EQ(after[1], before[1] + 2);

  // Alternating with sockets that move to the room, the others still spread: a WebSocket that
  // names no room takes a turn of its own, not the listener's.
  before = after;
  for (int i = 0; i < 4; ++i) {
    guests.push_back(hello("/ws?room=" + room_id, "M" + std::to_string(i)));
    guests.push_back(hello("/ws", "N" + std::to_string(i)));
  }
  after = lobby.ConnectionsPerShard();
  EXPECT_EQ(after[*shard], before[*shard] + 4 + 2);
  EXPECT_EQ(after[1 - *shard], before[1 - *shard] + 2);

  // A moved connection sits, plays and follows the game like any other.
  TestClient& b = *guests.front();
  ASSERT_TRUE(b.Call(JoinMsg(room_id)).has_room());
  ASSERT_TRUE(b.Call(ReadyMsg(room_id)).has_ok());
  ASSERT_TRUE(a->Call(StartMsg(room_id)).has_ok());
  ASSERT_TRUE(a->WaitPush([](const v1::ServerMessage& m) { return m.has_snapshot(); }));
  ASSERT_TRUE(b.WaitPush([](const v1::ServerMessage& m) { return m.has_snapshot(); }));
  for (int moves = 0; moves < 6 && !a->view(room_id).game_over; ++moves) {
    ASSERT_TRUE(PlayOneMove({a.get(), &b}, room_id)) << "nobody could move";
  }
  EXPECT_EQ(engine::DeterministicBytes(*b.view(room_id).view), ServerView(room_id, 1).first);
  EXPECT_EQ(b.gaps, 0);
}

TEST_F(ServerTest, RefusedRequestsChangeNothing) {
  auto a = Connect("Ada");
  auto b = Connect("Bob");
  auto s = Connect("Sue");
  auto outsider = Connect("Out");
  const std::string room_id = StartTwoPlayerGame(*a, *b);
  ASSERT_TRUE(s->Call(SpectateMsg(room_id)).has_room());
  s->Drain();
  const HeldView& held = a->view(room_id);
  const int to_act = static_cast<const g::View&>(*held.view).to_act();
  ASSERT_GE(to_act, 0);
  TestClient& actor = to_act == 0 ? *a : *b;
  TestClient& waiter = to_act == 0 ? *b : *a;
  const std::string legal = ChooseAction(actor.view(room_id), to_act);
  ASSERT_FALSE(legal.empty());
  const uint64_t version = ServerVersion(room_id);
  const std::string view_before = ServerView(room_id, to_act).first;

  // The waiting player acts out of turn (for its own seat: the server decides the seat).
  EXPECT_EQ(ErrorCode(waiter.Call(ActionMsg(room_id, legal))), "not_your_turn");
  EXPECT_EQ(ErrorCode(s->Call(ActionMsg(room_id, legal))), "not_seated");
  EXPECT_EQ(ErrorCode(outsider->Call(ActionMsg(room_id, legal))), "not_seated");
  EXPECT_EQ(ErrorCode(actor.Call(ActionMsg("r-missing", legal))), "room_not_found");
  EXPECT_EQ(ErrorCode(actor.Call(ActionMsg(room_id, "\xff\xff\xff"))), "malformed");
  g::Action bad_slot;
  bad_slot.mutable_place()->set_slot(99);
  bad_slot.mutable_place()->set_position(1);
  v1::ServerMessage engine_refusal = actor.Call(ActionMsg(room_id, bad_slot.SerializeAsString()));
  ASSERT_TRUE(engine_refusal.has_error());
  EXPECT_FALSE(engine_refusal.error().reason().empty());

  // Bytes that are no ClientMessage at all: an error, and the connection stays usable.
  ASSERT_TRUE(actor.SendRaw("\x0a\xff\xff\xff\xff"));
  auto malformed = actor.WaitPush([](const v1::ServerMessage& m) { return m.has_error(); });
  ASSERT_TRUE(malformed);
  EXPECT_EQ(malformed->error().code(), "malformed");
  EXPECT_TRUE(actor.Call(PingMsg()).has_pong());

  // Nothing moved: no diff anywhere, same version, same state.
  for (TestClient* c : {a.get(), b.get(), s.get()}) {
    for (const auto& m : c->PendingPushes(200ms)) EXPECT_FALSE(m.has_diff()) << m.DebugString();
  }
  EXPECT_EQ(ServerVersion(room_id), version);
  EXPECT_EQ(ServerView(room_id, to_act).first, view_before);

  // And the legal move still goes through.
  v1::ServerMessage ok = actor.Call(ActionMsg(room_id, legal));
  ASSERT_TRUE(ok.has_accepted());
  EXPECT_EQ(ok.accepted().action_index(), 0u);
  EXPECT_EQ(ServerVersion(room_id), version + 1);
}

// A connection's actions go to the room its last action went to without the lobby's lookups
// (Connection::action_room): naming another room must still reach that room, and the room named
// must still refuse what it no longer takes.
TEST_F(ServerTest, EachActionGoesToTheRoomItNamesWhicheverRoomTheLastOneWentTo) {
  auto a = Connect("Ada");
  auto b = Connect("Bob");
  const std::string first = StartTwoPlayerGame(*a, *b);
  ASSERT_TRUE(PlayToTheEnd(*a, *b, first));
  const std::string second = StartTwoPlayerGame(*a, *b);
  ASSERT_NE(second, first);
  a->Drain();
  b->Drain();
  ASSERT_TRUE(PlayOneMove({a.get(), b.get()}, second));

  const int to_act = static_cast<const g::View&>(*a->view(second).view).to_act();
  ASSERT_GE(to_act, 0);
  TestClient& actor = to_act == 0 ? *a : *b;
  const std::string legal = ChooseAction(actor.view(second), to_act);
  ASSERT_FALSE(legal.empty());
  const uint64_t version = ServerVersion(second);
  // The finished game's room refuses it, and the second room does not move.
  EXPECT_EQ(ErrorCode(actor.Call(ActionMsg(first, legal))), "game_not_running");
  // Left by one player, the room is still there and its game still over; left by both, it is
  // gone.
  v1::ClientMessage leave;
  leave.mutable_leave_room()->set_room_id(first);
  EXPECT_FALSE(actor.Call(leave).has_error());
  EXPECT_EQ(ErrorCode(actor.Call(ActionMsg(first, legal))), "game_not_running");
  TestClient& other = &actor == a.get() ? *b : *a;
  EXPECT_FALSE(other.Call(leave).has_error());
  EXPECT_EQ(ErrorCode(actor.Call(ActionMsg(first, legal))), "room_not_found");
  EXPECT_EQ(ErrorCode(actor.Call(ActionMsg("r-missing", legal))), "room_not_found");
  EXPECT_EQ(ServerVersion(second), version);
  // Back to the room being played: the move is taken there.
  ASSERT_TRUE(actor.Call(ActionMsg(second, legal)).has_accepted());
  EXPECT_EQ(ServerVersion(second), version + 1);
}

TEST_F(ServerTest, OversizedFrameClosesWithCode1009) {
  NetLimits limits;
  limits.max_message_bytes = 1024;
  Start(limits);
  auto a = Connect("Ada");
  auto b = Connect("Bob");
  ASSERT_TRUE(a->SendRaw(ChatMsg("x", std::string(4000, 'y')).SerializeAsString()));
  EXPECT_TRUE(a->WaitClosed(5s));
  EXPECT_EQ(a->close_code(), static_cast<uint16_t>(boost::beast::websocket::close_code::too_big));
  // Others are unaffected.
  EXPECT_TRUE(b->Call(PingMsg()).has_pong());
}

TEST_F(ServerTest, DroppedPlayerReconnectsAndCatchesUp) {
  v1::Welcome wb;
  auto a = std::make_unique<TestClient>(server_->port());
  ASSERT_TRUE(a->Call(HelloName("Ada")).has_welcome());
  auto b = Connect("Bob", &wb);
  // Enough rounds that the game cannot end during the few moves below.
  const std::string room_id = StartTwoPlayerGame(*a, *b, 6);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(PlayOneMove({a.get(), b.get()}, room_id));
  const uint64_t held_version = b->view(room_id).version;
  b->Close();
  auto gone = a->WaitPush([](const v1::ServerMessage& m) {
    return m.has_room() && !m.room().seats(1).connected();
  });
  ASSERT_TRUE(gone);
  // Ada plays on while Bob is away, if it is her turn: one move, whose Diff stays well within what
  // the room keeps for resync (about the size of Bob's view; more moves could pass it).
  int moved = 0;
  while (moved < 1) {
    const std::string action = ChooseAction(a->view(room_id), 0);
    if (action.empty()) break;
    const uint64_t next = a->view(room_id).version + 1;
    ASSERT_TRUE(a->Call(ActionMsg(room_id, action)).has_accepted());
    ASSERT_TRUE(a->WaitPush([&](const v1::ServerMessage& m) {
      return m.has_diff() && m.diff().diff().to_version() == next;
    }));
    ++moved;
  }

  TestClient b2(server_->port());
  v1::ServerMessage w = b2.Call(HelloToken(wb.token()));
  ASSERT_TRUE(w.has_welcome());
  ASSERT_EQ(w.welcome().room_ids_size(), 1);
  EXPECT_EQ(w.welcome().room_ids(0), room_id);
  v1::ServerMessage joined = b2.Call(JoinMsg(room_id));
  ASSERT_TRUE(joined.has_room());
  EXPECT_EQ(joined.room().your_seat(), 1);
  EXPECT_TRUE(joined.room().seats(1).connected());
  // The new connection resumes from the view the old one held.
  HeldView& held = b2.view(room_id);
  held.view.reset(b->view(room_id).view->New());
  held.view->CopyFrom(*b->view(room_id).view);
  held.version = held_version;
  ASSERT_TRUE(b2.Call(ResyncMsg(room_id, held_version)).has_ok());
  b2.Drain(100ms);
  EXPECT_EQ(b2.gaps, 0);
  EXPECT_EQ(b2.snapshots, 0);  // the gap was small: Diffs, not a Snapshot
  EXPECT_EQ(held.version, ServerVersion(room_id));
  EXPECT_EQ(Unheld(*held.view), ServerView(room_id, 1).first);

  // have_version 0 asks for a snapshot.
  ASSERT_TRUE(b2.Call(ResyncMsg(room_id, 0)).has_ok());
  b2.Drain(100ms);
  EXPECT_EQ(b2.snapshots, 1);
  EXPECT_EQ(Unheld(*held.view), ServerView(room_id, 1).first);
  // And the game goes on with the reconnected player.
  EXPECT_TRUE(PlayOneMove({a.get(), &b2}, room_id)) << a->view(room_id).view->ShortDebugString().substr(0, 300) << "\n---\n" << held.view->ShortDebugString().substr(0, 300) << " a.v=" << a->view(room_id).version << " b.v=" << held.version << " server=" << ServerVersion(room_id);
}

TEST_F(ServerTest, SlowClientIsDroppedWithoutStallingOthers) {
  NetLimits limits;
  limits.max_queue_bytes = 16 * 1024;
  limits.socket_send_buffer = 4096;  // no kernel auto-tuning: the flood below must overflow
  Start(limits);
  auto a = Connect("Ada");
  auto b = Connect("Bob");
  v1::ServerMessage created = a->Call(CreateRoomMsg(false, 2, 1));
  const std::string room_id = created.room().room_id();
  ASSERT_TRUE(b->Call(SpectateMsg(room_id)).has_room());
  auto slow = std::make_unique<TestClient>(server_->port(), /*receive_buffer=*/4096);
  ASSERT_TRUE(slow->Call(HelloName("Slow")).has_welcome());
  ASSERT_TRUE(slow->Call(SpectateMsg(room_id)).has_room());
  // From here on `slow` never reads. 400 lines of 400 bytes is ~160 KB: far more than the small
  // socket buffers on both ends plus the 16 KiB queue can hold.
  const std::string line(400, 'z');
  constexpr int kLines = 400;
  int received = 0;
  for (int i = 0; i < kLines; ++i) {
    ASSERT_TRUE(a->Call(ChatMsg(room_id, line)).has_ok()) << "line " << i;
    // Bob keeps reading, so only the slow client falls behind.
    if (b->WaitPush([](const v1::ServerMessage& m) { return m.has_chat(); })) ++received;
  }
  EXPECT_EQ(received, kLines);
  // The slow spectator was cut off: it is no longer in the room.
  auto info = a->WaitPush([](const v1::ServerMessage& m) {
    return m.has_room() && m.room().spectators_size() == 1;
  }, 5s);
  ASSERT_TRUE(info);
  EXPECT_EQ(info->room().spectators(0), "Bob");
  EXPECT_TRUE(slow->WaitClosed(5s));
}

TEST_F(ServerTest, ChatReachesMembersAndIsKeptForLateComers) {
  auto a = Connect("Ada");
  auto b = Connect("Bob");
  auto out = Connect("Out");
  v1::ServerMessage created = a->Call(CreateRoomMsg(false, 2, 1));
  const std::string room_id = created.room().room_id();
  EXPECT_EQ(ErrorCode(a->Call(ChatMsg(room_id, "   "))), "empty_chat");
  EXPECT_EQ(ErrorCode(a->Call(ChatMsg(room_id, std::string(501, 'a')))), "chat_too_long");
  EXPECT_TRUE(a->Call(ChatMsg(room_id, std::string(500, 'a'))).has_ok());
  EXPECT_EQ(ErrorCode(out->Call(ChatMsg(room_id, "hi"))), "not_member");
  for (int i = 0; i < 55; ++i) ASSERT_TRUE(a->Call(ChatMsg(room_id, "line " + std::to_string(i))).has_ok());

  ASSERT_TRUE(b->Call(JoinMsg(room_id)).has_room());
  std::vector<std::string> history;
  while (auto m = b->WaitPush([](const v1::ServerMessage& m) { return m.has_chat(); }, 300ms)) {
    history.push_back(m->chat().text());
  }
  ASSERT_EQ(history.size(), 50u);  // the last 50 lines
  EXPECT_EQ(history.front(), "line 5");
  EXPECT_EQ(history.back(), "line 54");

  ASSERT_TRUE(b->Call(ChatMsg(room_id, "hello Ada")).has_ok());
  auto got = a->WaitPush(
      [](const v1::ServerMessage& m) { return m.has_chat() && m.chat().text() == "hello Ada"; });
  ASSERT_TRUE(got);
  EXPECT_EQ(got->chat().text(), "hello Ada");
  EXPECT_EQ(got->chat().from_name(), "Bob");
  EXPECT_EQ(got->chat().room_id(), room_id);
}

TEST_F(ServerTest, AFinishedGameNoLongerCountsAsAnOpenRoom) {
  ClientLimits limits = TestLimits();
  limits.open_rooms_per_player = 1;
  server_.reset();
  server_ = std::make_unique<TestServer>(dir_.File("plateau.db"), NetLimits{},
                                         std::chrono::minutes(5), limits);
  auto a = Connect("Ada");
  auto b = Connect("Bob");
  const std::string room_id = StartTwoPlayerGame(*a, *b);
  EXPECT_EQ(ErrorCode(a->Call(CreateRoomMsg(false, 2, 1))), "too_many_rooms");
  ASSERT_TRUE(PlayToTheEnd(*a, *b, room_id));
  // Its room is still there (the players look at the results), but no longer open.
  EXPECT_NE(server_->server().lobby().FindRoom(room_id), nullptr);
  EXPECT_TRUE(a->Call(CreateRoomMsg(false, 2, 1)).has_room());
}

TEST_F(ServerTest, UnfinishedRoomComesBackAfterARestart) {
  v1::Welcome wa, wb;
  std::string room_id;
  uint64_t version = 0;
  std::string view0;
  {
    auto a = Connect("Ada", &wa);
    auto b = Connect("Bob", &wb);
    room_id = StartTwoPlayerGame(*a, *b, 2);
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(PlayOneMove({a.get(), b.get()}, room_id));
    version = ServerVersion(room_id);
    view0 = ServerView(room_id, 0).first;
  }
  server_->Stop();
  Start();  // a second server on the same database file
  EXPECT_EQ(ServerVersion(room_id), version);
  EXPECT_EQ(ServerView(room_id, 0).first, view0);

  TestClient a(server_->port());
  v1::ServerMessage w = a.Call(HelloToken(wa.token()));
  ASSERT_TRUE(w.has_welcome());
  EXPECT_EQ(w.welcome().player_id(), wa.player_id());
  ASSERT_EQ(w.welcome().room_ids_size(), 1);
  EXPECT_EQ(w.welcome().room_ids(0), room_id);
  v1::ServerMessage joined = a.Call(JoinMsg(room_id));
  ASSERT_TRUE(joined.has_room());
  EXPECT_EQ(joined.room().status(), v1::ROOM_STATUS_PLAYING);
  EXPECT_EQ(joined.room().your_seat(), 0);
  ASSERT_TRUE(a.Call(ResyncMsg(room_id, version - 1)).has_ok());
  a.Drain(100ms);
  EXPECT_EQ(a.view(room_id).version, version);
  EXPECT_EQ(engine::DeterministicBytes(*a.view(room_id).view), view0);

  TestClient b(server_->port());
  ASSERT_TRUE(b.Call(HelloToken(wb.token())).has_welcome());
  ASSERT_TRUE(b.Call(JoinMsg(room_id)).has_room());
  ASSERT_TRUE(b.Call(ResyncMsg(room_id, 0)).has_ok());
  b.Drain(100ms);
  EXPECT_TRUE(PlayOneMove({&a, &b}, room_id));
  EXPECT_EQ(ServerVersion(room_id), version + 1);
}

// The server stopped after storing a game's last move but before its result: on restart the game
// is finished, its result stored, GameOver sent on resync and its replay available.
TEST_F(ServerTest, AGameStoredToItsEndButNotMarkedFinishedIsFinishedOnRestart) {
  v1::Welcome wa;
  std::string room_id, game_id;
  {
    auto a = Connect("Ada", &wa);
    auto b = Connect("Bob");
    room_id = StartTwoPlayerGame(*a, *b);
    auto over = PlayToTheEnd(*a, *b, room_id);
    ASSERT_TRUE(over);
    game_id = over->game_over().game_id();
  }
  server_->Stop();
  ASSERT_NO_FATAL_FAILURE(ForgetTheResult(game_id));
  Start();
  TestClient a(server_->port());
  ASSERT_TRUE(a.Call(HelloToken(wa.token())).has_welcome());
  v1::ServerMessage joined = a.Call(JoinMsg(room_id));
  ASSERT_TRUE(joined.has_room()) << joined.DebugString();
  EXPECT_EQ(joined.room().status(), v1::ROOM_STATUS_FINISHED);
  ASSERT_TRUE(a.Call(ResyncMsg(room_id, 0)).has_ok());
  auto over = a.WaitPush([](const v1::ServerMessage& m) { return m.has_game_over(); });
  ASSERT_TRUE(over);
  EXPECT_EQ(over->game_over().results_size(), 2);
  auto stored = server_->store().LoadGame(game_id);
  ASSERT_TRUE(stored.ok() && stored.value().has_value());
  EXPECT_GT(stored.value()->finished_unix_ms(), 0);
  EXPECT_EQ(stored.value()->results_size(), 2);
  v1::ClientMessage get;
  get.mutable_get_replay()->set_game_id(game_id);
  get.mutable_get_replay()->set_step(0);
  EXPECT_TRUE(a.Call(get).has_replay());
}

v1::ClientMessage GetReplayMsg(const std::string& game_id, const std::string& token) {
  v1::ClientMessage m;
  m.mutable_get_replay()->set_game_id(game_id);
  m.mutable_get_replay()->set_seat(-1);
  m.mutable_get_replay()->set_replay_token(token);
  return m;
}

v1::ClientMessage ExportReplayMsg(const std::string& game_id, const std::string& token) {
  v1::ClientMessage m;
  m.mutable_export_replay()->set_game_id(game_id);
  m.mutable_export_replay()->set_replay_token(token);
  return m;
}

// The summary of `game_id` in the replay list `c` gets, if it is listed there.
std::optional<v1::ReplaySummary> Listed(TestClient& c, const std::string& game_id) {
  v1::ClientMessage list;
  list.mutable_list_replays();
  v1::ServerMessage reply = c.Call(list);
  EXPECT_TRUE(reply.has_replay_list()) << reply.DebugString();
  for (const auto& r : reply.replay_list().replays()) {
    if (r.game_id() == game_id) return r;
  }
  return std::nullopt;
}

// A private room's finished game: its members get the replay link's token with the results; a
// player who was not in the room neither lists nor opens it, until given the token.
TEST_F(ServerTest, APrivateGamesReplayIsForItsMembersAndWhoeverTheyGiveTheLinkTo) {
  auto a = Connect("Ada");
  auto b = Connect("Bob");
  auto s = Connect("Sue");
  auto x = Connect("Xan");
  std::string code;
  const std::string room_id = StartPrivateTwoPlayerGame(*a, *b, &code);
  ASSERT_TRUE(s->Call(SpectateMsg(room_id, code)).has_room());
  ASSERT_TRUE(s->WaitPush([](const v1::ServerMessage& m) { return m.has_snapshot(); }));
  int moves = 0;
  while (!a->view(room_id).game_over && moves++ < 500) {
    ASSERT_TRUE(PlayOneMove({a.get(), b.get()}, room_id));
  }
  std::string game_id, token;
  for (TestClient* c : {a.get(), b.get(), s.get()}) {
    auto over = c->WaitPush([](const v1::ServerMessage& m) { return m.has_game_over(); });
    ASSERT_TRUE(over);
    game_id = over->game_over().game_id();
    if (token.empty()) token = over->game_over().replay_token();
    EXPECT_EQ(over->game_over().replay_token(), token);
  }
  ASSERT_EQ(token.size(), 32u);

  // The seated players find it in their list, with the token to share.
  for (TestClient* c : {a.get(), b.get()}) {
    auto mine = Listed(*c, game_id);
    ASSERT_TRUE(mine);
    EXPECT_TRUE(mine->is_private());
    EXPECT_EQ(mine->replay_token(), token);
    EXPECT_TRUE(c->Call(GetReplayMsg(game_id, "")).has_replay());
    EXPECT_TRUE(c->Call(ExportReplayMsg(game_id, "")).has_replay_export());
  }

  // Anyone else is answered as for a game that never was, with or without a wrong token.
  EXPECT_FALSE(Listed(*x, game_id));
  const std::string unknown_id = "g0000000000000000";
  v1::ServerMessage nothing = x->Call(GetReplayMsg(unknown_id, ""));
  ASSERT_EQ(ErrorCode(nothing), "replay_not_found");
  std::string expected = nothing.error().reason();
  expected.replace(expected.find(unknown_id), unknown_id.size(), game_id);
  for (const std::string& wrong : {std::string(), std::string(32, '0'), token.substr(0, 31)}) {
    v1::ServerMessage hidden = x->Call(GetReplayMsg(game_id, wrong));
    EXPECT_EQ(ErrorCode(hidden), "replay_not_found") << wrong;
    EXPECT_EQ(hidden.error().reason(), expected) << wrong;
    v1::ServerMessage no_file = x->Call(ExportReplayMsg(game_id, wrong));
    EXPECT_EQ(ErrorCode(no_file), "replay_not_found") << wrong;
    EXPECT_EQ(no_file.error().reason(), expected) << wrong;
  }

  // The link opens it, to the stranger and to the spectator, and lists it for neither.
  for (TestClient* c : {x.get(), s.get()}) {
    v1::ServerMessage linked = c->Call(GetReplayMsg(game_id, token));
    ASSERT_TRUE(linked.has_replay()) << linked.DebugString();
    EXPECT_EQ(linked.replay().summary().game_id(), game_id);
    EXPECT_TRUE(c->Call(ExportReplayMsg(game_id, token)).has_replay_export());
    EXPECT_FALSE(Listed(*c, game_id));
  }
}

// A private game finished on restart (its last move stored, its result not) announces the token
// it was stored with.
TEST_F(ServerTest, APrivateGameFinishedOnRestartKeepsItsReplayToken) {
  v1::Welcome wa;
  std::string room_id, game_id, token;
  {
    auto a = Connect("Ada", &wa);
    auto b = Connect("Bob");
    std::string code;
    room_id = StartPrivateTwoPlayerGame(*a, *b, &code);
    auto over = PlayToTheEnd(*a, *b, room_id);
    ASSERT_TRUE(over);
    game_id = over->game_over().game_id();
    token = over->game_over().replay_token();
  }
  ASSERT_FALSE(token.empty());
  server_->Stop();
  ASSERT_NO_FATAL_FAILURE(ForgetTheResult(game_id));
  Start();
  TestClient a(server_->port());
  ASSERT_TRUE(a.Call(HelloToken(wa.token())).has_welcome());
  ASSERT_TRUE(a.Call(JoinMsg(room_id)).has_room());
  ASSERT_TRUE(a.Call(ResyncMsg(room_id, 0)).has_ok());
  auto over = a.WaitPush([](const v1::ServerMessage& m) { return m.has_game_over(); });
  ASSERT_TRUE(over);
  EXPECT_EQ(over->game_over().replay_token(), token);

  auto x = Connect("Xan");
  EXPECT_EQ(ErrorCode(x->Call(GetReplayMsg(game_id, ""))), "replay_not_found");
  EXPECT_TRUE(x->Call(GetReplayMsg(game_id, token)).has_replay());
}

TEST_F(ServerTest, HealthzOverLoopback) {
  namespace http = boost::beast::http;
  boost::asio::io_context ioc;
  boost::beast::tcp_stream stream(ioc);
  stream.connect({boost::asio::ip::make_address("127.0.0.1"), server_->port()});
  http::request<http::empty_body> req{http::verb::get, "/healthz", 11};
  req.set(http::field::host, "127.0.0.1");
  http::write(stream, req);
  boost::beast::flat_buffer buffer;
  http::response<http::string_body> res;
  // Bounded: the socket gets a receive timeout, so a missing answer fails instead of hanging.
  struct timeval tv{5, 0};
  setsockopt(stream.socket().native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  http::read(stream, buffer, res);
  EXPECT_EQ(res.result(), http::status::ok);
  EXPECT_EQ(res.body(), R"({"status":"ok"})");
}


// Sends `request` as raw bytes on a fresh connection and returns the status line of the answer
// ("" if none came). Asynchronous with one deadline for everything, so it cannot hang: the
// blocking calls would wait past a socket timeout.
std::string StatusLineFor(uint16_t port, const std::string& request) {
  boost::asio::io_context ioc;
  boost::asio::ip::tcp::socket socket(ioc);
  std::string received;
  char chunk[4096];
  std::function<void()> read = [&] {
    socket.async_read_some(boost::asio::buffer(chunk), [&](boost::system::error_code ec, size_t n) {
      received.append(chunk, n);
      if (!ec && received.find("\r\n") == std::string::npos) return read();
      boost::system::error_code ignored;
      socket.close(ignored);  // also ends a write the server stopped reading
    });
  };
  socket.async_connect({boost::asio::ip::make_address("127.0.0.1"), port},
                       [&](boost::system::error_code ec) {
                         if (ec) return;
                         // Reading from the start: the answer may come before the request has
                         // all been sent.
                         read();
                         boost::asio::async_write(socket, boost::asio::buffer(request),
                                                  [](boost::system::error_code, size_t) {});
                       });
  ioc.run_for(5s);
  return received.substr(0, received.find("\r\n"));
}

TEST_F(ServerTest, OversizedRequestsAreAnsweredBeforeTheConnectionCloses) {
  NetLimits limits;
  limits.http_body_limit = 1024;
  limits.http_header_limit = 1024;
  Start(limits);
  const std::string host = "Host: 127.0.0.1\r\n";
  // A GET with a body is refused for its size first, not for its method.
  const std::string big_body = "GET / HTTP/1.1\r\n" + host + "Content-Length: 200000\r\n\r\n" +
                               std::string(200000, 'x');
  EXPECT_EQ(StatusLineFor(server_->port(), big_body), "HTTP/1.1 413 Payload Too Large");
  const std::string big_chunk = "POST /healthz HTTP/1.1\r\n" + host +
                                "Transfer-Encoding: chunked\r\n\r\n1000\r\n" +
                                std::string(4096, 'x') + "\r\n0\r\n\r\n";
  EXPECT_EQ(StatusLineFor(server_->port(), big_chunk), "HTTP/1.1 413 Payload Too Large");
  const std::string big_header =
      "GET /healthz HTTP/1.1\r\n" + host + "X-Filler: " + std::string(4000, 'a') + "\r\n\r\n";
  EXPECT_EQ(StatusLineFor(server_->port(), big_header),
            "HTTP/1.1 431 Request Header Fields Too Large");
  // Under the limits, the same server still answers.
  EXPECT_EQ(StatusLineFor(server_->port(), "GET /healthz HTTP/1.1\r\n" + host + "\r\n"),
            "HTTP/1.1 200 OK");
  EXPECT_EQ(StatusLineFor(server_->port(), "GET /healthz HTTP/1.1\r\n\r\n"),
            "HTTP/1.1 400 Bad Request");
}

TEST_F(ServerTest, BadWebSocketHandshakesAreRefusedWithoutASession) {
  const auto upgrade = [](const std::string& extra) {
    return "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\n"
           "Upgrade: websocket\r\n" +
           extra + "\r\n";
  };
  EXPECT_EQ(StatusLineFor(server_->port(), upgrade("Sec-WebSocket-Key: c2hvcnQ=\r\n"
                                                   "Sec-WebSocket-Version: 13\r\n")),
            "HTTP/1.1 400 Bad Request");
  EXPECT_EQ(StatusLineFor(server_->port(), upgrade("Sec-WebSocket-Version: 13\r\n")),
            "HTTP/1.1 400 Bad Request");
  EXPECT_EQ(StatusLineFor(server_->port(), upgrade("Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                                                   "Sec-WebSocket-Version: 8\r\n")),
            "HTTP/1.1 426 Upgrade Required");
  EXPECT_EQ(server_->server().lobby().ConnectionCount(), 0u);
  // A well-formed handshake still upgrades.
  EXPECT_EQ(StatusLineFor(server_->port(), upgrade("Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                                                   "Sec-WebSocket-Version: 13\r\n")),
            "HTTP/1.1 101 Switching Protocols");
}

}  // namespace
}  // namespace plateau::server::testing
