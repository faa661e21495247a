// Bots in seats, through the real server over loopback: the host seats and unseats them before
// the start (with every refusal), a person plays each registered game alone against them to the
// end, and a game with bots goes on after a restart of the server.
#include <gtest/gtest.h>

#include "engine/core/bot.h"
#include "engine/core/registry.h"
#include "test_support.h"

namespace plateau::server::testing {
namespace {

v1::ClientMessage CreateMsg(const std::string& game, int seats) {
  v1::ClientMessage m;
  m.mutable_create_room()->set_game(game);
  m.mutable_create_room()->set_seats(static_cast<uint32_t>(seats));
  m.mutable_create_room()->set_is_private(true);
  return m;
}

v1::ClientMessage AddBotMsg(const std::string& room_id, uint32_t seat,
                            v1::BotLevel level = v1::BOT_EASY) {
  v1::ClientMessage m;
  m.mutable_add_bot()->set_room_id(room_id);
  m.mutable_add_bot()->set_seat(seat);
  m.mutable_add_bot()->set_level(level);
  return m;
}

v1::ClientMessage RemoveBotMsg(const std::string& room_id, uint32_t seat) {
  v1::ClientMessage m;
  m.mutable_remove_bot()->set_room_id(room_id);
  m.mutable_remove_bot()->set_seat(seat);
  return m;
}

std::string ErrorOf(const v1::ServerMessage& m) { return m.has_error() ? m.error().code() : ""; }

v1::ClientMessage HandOverMsg(const std::string& room_id) {
  v1::ClientMessage m;
  m.mutable_leave_room()->set_room_id(room_id);
  m.mutable_leave_room()->set_mode(v1::LEAVE_HAND_TO_BOT);
  return m;
}

class BotsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(engine::Registry::LoadAll().ok());
    server_ = std::make_unique<TestServer>(dir_.File("plateau.db"));
    ASSERT_NE(server_->port(), 0);
  }

  // The `players` seated in `room_id` play from their own views (as easy bots would) until the
  // game is over; every bot move reaches them as Diffs. Returns how many moves they made.
  int PlayAlong(const std::vector<TestClient*>& players, const std::string& room_id,
                const engine::Game& game, int max_rounds) {
    engine::Rng rng(7);
    int moves = 0;
    for (int round = 0; round < max_rounds; ++round) {
      bool over = true;
      for (TestClient* player : players) {
        player->Drain(players.size() > 1 ? 5ms : 20ms);
        HeldView& held = player->view(room_id);
        if (held.game_over) continue;
        over = false;
        if (!held.view) continue;
        auto choices = engine::BotMoves(game, *held.view, held.seat, engine::BotLevel::kEasy, rng);
        if (choices.empty()) continue;  // the others are to move
        // A refusal is possible when someone moved first (simultaneous choices): the next view
        // tells.
        if (player->Call(ActionMsg(room_id, choices[0]->SerializeAsString())).has_accepted()) {
          ++moves;
        }
      }
      if (over) return moves;
    }
    ADD_FAILURE() << "the game did not end in " << max_rounds << " rounds";
    return moves;
  }
  // `host` opens a three-seat Guerre Froide room, `b` and `c` join it and are ready, and the game
  // starts. Returns the room id.
  std::string StartThree(TestClient& host, TestClient& b, TestClient& c) {
    v1::ServerMessage created = host.Call(CreateMsg("guerre_froide", 3));
    EXPECT_TRUE(created.has_room());
    const std::string room_id = created.room().room_id();
    for (TestClient* guest : {&b, &c}) {
      EXPECT_TRUE(guest->Call(JoinMsg(room_id, created.room().join_code())).has_room());
      EXPECT_TRUE(guest->Call(ReadyMsg(room_id)).has_ok());
    }
    EXPECT_TRUE(host.Call(StartMsg(room_id)).has_ok());
    return room_id;
  }

  int PlayAlong(TestClient& player, const std::string& room_id, const engine::Game& game,
                int max_rounds) {
    return PlayAlong(std::vector<TestClient*>{&player}, room_id, game, max_rounds);
  }

  TempDir dir_;
  std::unique_ptr<TestServer> server_;
};

TEST_F(BotsTest, TheHostSeatsAndUnseatsBotsBeforeTheStartAndNobodyElseCan) {
  auto host = ConnectAs(server_->port(), "Ada");
  auto guest = ConnectAs(server_->port(), "Bob");
  v1::ServerMessage created = host->Call(CreateMsg("globalissimo", 4));
  ASSERT_TRUE(created.has_room());
  const std::string room_id = created.room().room_id();
  ASSERT_TRUE(guest->Call(JoinMsg(room_id, created.room().join_code())).has_room());  // seat 1

  v1::ServerMessage added = host->Call(AddBotMsg(room_id, 2));
  ASSERT_TRUE(added.has_room()) << added.DebugString();
  const v1::SeatInfo& bot = added.room().seats(2);
  EXPECT_EQ(bot.bot(), v1::BOT_EASY);
  EXPECT_EQ(bot.name(), "Bot 1");
  EXPECT_TRUE(bot.ready());
  EXPECT_TRUE(bot.connected());
  EXPECT_EQ(added.room().seats(1).bot(), v1::BOT_LEVEL_UNSPECIFIED);  // Bob is a person
  // The guest sees the bot arrive.
  EXPECT_TRUE(guest->WaitPush([](const v1::ServerMessage& m) {
    return m.has_room() && m.room().seats(2).bot() == v1::BOT_EASY;
  }));

  EXPECT_EQ(ErrorOf(host->Call(AddBotMsg(room_id, 2))), "seat_taken");
  EXPECT_EQ(ErrorOf(host->Call(AddBotMsg(room_id, 1))), "seat_taken");  // Bob's
  EXPECT_EQ(ErrorOf(host->Call(AddBotMsg(room_id, 4))), "no_such_seat");
  EXPECT_EQ(ErrorOf(host->Call(AddBotMsg(room_id, 3, v1::BOT_LEVEL_UNSPECIFIED))), "bad_bot_level");
  EXPECT_EQ(ErrorOf(guest->Call(AddBotMsg(room_id, 3))), "not_host");
  EXPECT_EQ(ErrorOf(guest->Call(RemoveBotMsg(room_id, 2))), "not_host");
  EXPECT_EQ(ErrorOf(host->Call(RemoveBotMsg(room_id, 1))), "not_a_bot");
  EXPECT_EQ(ErrorOf(host->Call(RemoveBotMsg(room_id, 3))), "not_a_bot");

  // A second bot takes the next name; the first one leaves.
  v1::ServerMessage second = host->Call(AddBotMsg(room_id, 3));
  ASSERT_TRUE(second.has_room());
  EXPECT_EQ(second.room().seats(3).name(), "Bot 2");
  v1::ServerMessage removed = host->Call(RemoveBotMsg(room_id, 2));
  ASSERT_TRUE(removed.has_room());
  EXPECT_TRUE(removed.room().seats(2).player_id().empty());
  EXPECT_EQ(removed.room().seats(2).bot(), v1::BOT_LEVEL_UNSPECIFIED);

  // Once started, bots stay as they are.
  ASSERT_TRUE(guest->Call(ReadyMsg(room_id)).has_ok());
  ASSERT_TRUE(host->Call(StartMsg(room_id)).has_ok());
  EXPECT_EQ(ErrorOf(host->Call(AddBotMsg(room_id, 0))), "game_started");
  EXPECT_EQ(ErrorOf(host->Call(RemoveBotMsg(room_id, 2))), "game_started");
}

// Every registered game, one person against bots in every other seat (easy, then normal), played
// to the end: the bots' moves go through the rules, the store and the Diffs like anybody's, and
// the person's view is the server's at the end.
TEST_F(BotsTest, APersonAloneFinishesEveryGameAgainstBots) {
  for (const v1::BotLevel level : {v1::BOT_EASY, v1::BOT_NORMAL})
  for (const engine::Game* game : engine::Registry::All()) {
    SCOPED_TRACE(game->Info().id + " against " + v1::BotLevel_Name(level));
    const int seats = std::min(3, game->Info().max_seats);
    auto player = ConnectAs(server_->port(), "Solo");
    v1::ServerMessage created = player->Call(CreateMsg(game->Info().id, seats));
    ASSERT_TRUE(created.has_room()) << created.DebugString();
    const std::string room_id = created.room().room_id();
    for (int seat = 1; seat < seats; ++seat) {
      v1::ServerMessage added = player->Call(AddBotMsg(room_id, static_cast<uint32_t>(seat), level));
      ASSERT_TRUE(added.has_room());
      EXPECT_EQ(added.room().seats(seat).bot(), level);
    }
    ASSERT_TRUE(player->Call(StartMsg(room_id)).has_ok());
    ASSERT_TRUE(player->WaitPush([](const v1::ServerMessage& m) { return m.has_snapshot(); }));
    const int moves = PlayAlong(*player, room_id, *game, 20000);
    auto over = player->WaitPush([](const v1::ServerMessage& m) { return m.has_game_over(); }, 2s);
    ASSERT_TRUE(over.has_value() || player->view(room_id).game_over);
    EXPECT_GT(moves, 0);
    EXPECT_EQ(player->gaps, 0);
    // The person's view, built from Diffs, is the server's; the bots' moves were stored.
    std::string server_view;
    ASSERT_TRUE(server_->InspectRoom(room_id, [&](const engine::State* s, uint64_t version) {
      ASSERT_NE(s, nullptr);
      EXPECT_TRUE(s->IsTerminal());
      EXPECT_GT(s->History().size(), static_cast<size_t>(moves));  // the bots played too
      server_view = WireView(*s, 0);
      EXPECT_EQ(version, player->view(room_id).version);
    }));
    EXPECT_EQ(engine::DeterministicBytes(*player->view(room_id).view), server_view);
  }
}

// A restart finds the bots in their seats (stored like the players), at their levels, and they go
// on playing.
TEST_F(BotsTest, BotsPlayOnAfterARestart) {
  const std::string db = dir_.File("plateau.db");
  const engine::Game& game = *engine::Registry::Find("guerre_froide");
  std::string room_id;
  std::string token;
  {
    v1::Welcome welcome;
    auto player = ConnectAs(server_->port(), "Kim", &welcome);
    token = welcome.token();
    v1::ServerMessage created = player->Call(CreateMsg("guerre_froide", 3));
    ASSERT_TRUE(created.has_room());
    room_id = created.room().room_id();
    ASSERT_TRUE(player->Call(AddBotMsg(room_id, 1)).has_room());
    ASSERT_TRUE(player->Call(AddBotMsg(room_id, 2, v1::BOT_NORMAL)).has_room());
    ASSERT_TRUE(player->Call(StartMsg(room_id)).has_ok());
    ASSERT_TRUE(player->WaitPush([](const v1::ServerMessage& m) { return m.has_snapshot(); }));
    player->Drain(100ms);
  }
  server_->Stop();
  server_ = std::make_unique<TestServer>(db);
  ASSERT_NE(server_->port(), 0);
  auto player = std::make_unique<TestClient>(server_->port());
  ASSERT_TRUE(player->Call(HelloToken(token)).has_welcome());
  v1::ServerMessage joined = player->Call(JoinMsg(room_id));
  ASSERT_TRUE(joined.has_room()) << joined.DebugString();
  EXPECT_EQ(joined.room().seats(1).bot(), v1::BOT_EASY);
  EXPECT_EQ(joined.room().seats(2).bot(), v1::BOT_NORMAL);  // the level is kept
  ASSERT_TRUE(player->Call(ResyncMsg(room_id, 0)).has_ok());
  EXPECT_GT(PlayAlong(*player, room_id, game, 20000), 0);
  EXPECT_TRUE(player->view(room_id).game_over);
}

v1::ClientMessage RematchMsg(const std::string& room_id, bool accept,
                             bool without_absent = false) {
  v1::ClientMessage m;
  m.mutable_rematch()->set_room_id(room_id);
  m.mutable_rematch()->set_accept(accept);
  m.mutable_rematch()->set_without_absent(without_absent);
  return m;
}

// A rematch: asked for by one player once the game is over, accepted by every other (bots always
// agree), withdrawn by a no; then a new game in the same room, same seats, new seed and game id.
TEST_F(BotsTest, ARematchStartsOnceEveryPlayerAcceptsWithTheSameSeats) {
  const engine::Game& game = *engine::Registry::Find("guerre_froide");
  auto ada = ConnectAs(server_->port(), "Ada");
  auto bob = ConnectAs(server_->port(), "Bob");
  auto eve = ConnectAs(server_->port(), "Eve");
  v1::ServerMessage created = ada->Call(CreateMsg("guerre_froide", 3));
  ASSERT_TRUE(created.has_room());
  const std::string room_id = created.room().room_id();
  const std::string code = created.room().join_code();
  ASSERT_TRUE(bob->Call(JoinMsg(room_id, code)).has_room());
  ASSERT_TRUE(bob->Call(ReadyMsg(room_id)).has_ok());
  ASSERT_TRUE(ada->Call(AddBotMsg(room_id, 2)).has_room());
  ASSERT_TRUE(eve->Call(SpectateMsg(room_id, code)).has_room());
  ASSERT_TRUE(ada->Call(StartMsg(room_id)).has_ok());
  EXPECT_EQ(ErrorOf(bob->Call(RematchMsg(room_id, true))), "game_not_over");
  ASSERT_GT(PlayAlong({ada.get(), bob.get()}, room_id, game, 20000), 0);
  std::string first_game;
  ASSERT_TRUE(server_->InspectRoom(room_id, [&](const engine::State* s, uint64_t) {
    ASSERT_NE(s, nullptr);
    EXPECT_TRUE(s->IsTerminal());
  }));
  first_game = ada->Call(PeekMsg(room_id)).room().game_id();
  ASSERT_FALSE(first_game.empty());

  EXPECT_EQ(ErrorOf(eve->Call(RematchMsg(room_id, true))), "not_seated");
  ASSERT_TRUE(bob->Call(RematchMsg(room_id, true)).has_ok());
  auto asked = ada->WaitPush([](const v1::ServerMessage& m) {
    return m.has_room() && m.room().seats(1).rematch();
  });
  ASSERT_TRUE(asked);
  EXPECT_FALSE(asked->room().seats(0).rematch());  // Ada has not answered
  EXPECT_TRUE(asked->room().seats(2).rematch());   // the bot agrees
  EXPECT_EQ(asked->room().status(), v1::ROOM_STATUS_FINISHED);
  // Ada says no: the offer is gone for everyone.
  ASSERT_TRUE(ada->Call(RematchMsg(room_id, false)).has_ok());
  EXPECT_FALSE(ada->Call(PeekMsg(room_id)).room().seats(1).rematch());
  // Asked again, accepted by all: a new game with the same seats.
  ASSERT_TRUE(bob->Call(RematchMsg(room_id, true)).has_ok());
  ASSERT_TRUE(ada->Call(RematchMsg(room_id, true)).has_ok());
  for (TestClient* c : {ada.get(), bob.get(), eve.get()}) {
    auto snapshot = c->WaitPush([](const v1::ServerMessage& m) {
      return m.has_snapshot() && m.snapshot().version() == 1;
    });
    ASSERT_TRUE(snapshot) << "no new game's Snapshot";
  }
  v1::ServerMessage again = ada->Call(PeekMsg(room_id));
  EXPECT_EQ(again.room().status(), v1::ROOM_STATUS_PLAYING);
  EXPECT_NE(again.room().game_id(), first_game);
  EXPECT_EQ(again.room().seats(0).name(), "Ada");
  EXPECT_EQ(again.room().seats(1).name(), "Bob");
  EXPECT_EQ(again.room().seats(2).bot(), v1::BOT_EASY);
  EXPECT_FALSE(again.room().seats(0).rematch());
  // The first game stays stored, finished.
  auto stored = server_->store().LoadGame(first_game);
  ASSERT_TRUE(stored.ok() && stored.value().has_value());
  EXPECT_GT(stored.value()->results_size(), 0);
  // The second game plays to its end too; then a player who left blocks a third.
  ASSERT_GT(PlayAlong({ada.get(), bob.get()}, room_id, game, 20000), 0);
  v1::ClientMessage leave;
  leave.mutable_leave_room()->set_room_id(room_id);
  ASSERT_TRUE(bob->Call(leave).has_ok());
  EXPECT_EQ(ErrorOf(ada->Call(RematchMsg(room_id, true))), "player_left");
}

// A player who left during the game, handing his seat to a bot, does not hold a rematch up: the
// bot agrees for him. A player who leaves the finished table with nobody in his seat ends an
// offer already made, and a rematch with him is refused; one without the away players needs
// enough seats left.
TEST_F(BotsTest, ARematchKeepsTheBotOfAPlayerWhoLeftButNotAnEmptySeat) {
  const engine::Game& game = *engine::Registry::Find("guerre_froide");
  auto ada = ConnectAs(server_->port(), "Ada");
  auto bob = ConnectAs(server_->port(), "Bob");
  auto cy = ConnectAs(server_->port(), "Cy");
  const std::string room_id = StartThree(*ada, *bob, *cy);
  ASSERT_TRUE(bob->Call(HandOverMsg(room_id)).has_ok());
  ASSERT_GT(PlayAlong({ada.get(), cy.get()}, room_id, game, 20000), 0);
  v1::ServerMessage over = ada->Call(PeekMsg(room_id));
  ASSERT_EQ(over.room().rematch().absent_seats_size(), 1);
  EXPECT_EQ(over.room().rematch().absent_seats(0), 1u);
  EXPECT_EQ(over.room().rematch().unavailable(), "");
  ASSERT_TRUE(ada->Call(RematchMsg(room_id, true)).has_ok());
  v1::ServerMessage asked = cy->Call(PeekMsg(room_id));
  EXPECT_TRUE(asked.room().seats(0).rematch());
  EXPECT_TRUE(asked.room().seats(1).rematch());  // Bob's stand-in agrees for him
  EXPECT_FALSE(asked.room().seats(2).rematch());
  // Cy leaves the finished table: the offer ends, and asking again is refused.
  v1::ClientMessage leave;
  leave.mutable_leave_room()->set_room_id(room_id);
  ASSERT_TRUE(cy->Call(leave).has_ok());
  v1::ServerMessage gone = ada->Call(PeekMsg(room_id));
  EXPECT_FALSE(gone.room().seats(0).rematch());
  EXPECT_EQ(gone.room().rematch().unavailable(), "Cy has left the table.");
  EXPECT_EQ(gone.room().rematch().without_unavailable(), "Guerre Froide needs at least 2 players.");
  EXPECT_EQ(ErrorOf(ada->Call(RematchMsg(room_id, true))), "player_left");
  EXPECT_EQ(ErrorOf(ada->Call(RematchMsg(room_id, true, true))), "not_enough_players");
}

// Three players, one closes his tab and a bot takes his seat; once the game is over the two
// others have their rematch without waiting for him, the bot keeping his seat. He finds the table
// among his rooms when he comes back and takes his seat back. Or the two choose to play without
// him.
TEST_F(BotsTest, TheOthersRematchWhileABotHoldsTheSeatOfAPlayerWhoWentAway) {
  server_->Stop();
  server_ = std::make_unique<TestServer>(dir_.File("away.db"), NetLimits{},
                                         std::chrono::minutes(5), TestLimits(), 100ms);
  ASSERT_NE(server_->port(), 0);
  const engine::Game& game = *engine::Registry::Find("guerre_froide");
  v1::Welcome cy_welcome;
  auto ada = ConnectAs(server_->port(), "Ada");
  auto bob = ConnectAs(server_->port(), "Bob");
  auto cy = ConnectAs(server_->port(), "Cy", &cy_welcome);
  const std::string room_id = StartThree(*ada, *bob, *cy);
  cy.reset();  // Cy closes his tab
  ASSERT_TRUE(ada->WaitPush([](const v1::ServerMessage& m) {
    return m.has_room() && m.room().seats(2).presence() == v1::PRESENCE_OFFLINE;
  }));
  std::this_thread::sleep_for(150ms);
  v1::ClientMessage replace;
  replace.mutable_replace_seat()->set_room_id(room_id);
  replace.mutable_replace_seat()->set_seat(2);
  ASSERT_TRUE(ada->Call(replace).has_ok());
  ASSERT_GT(PlayAlong({ada.get(), bob.get()}, room_id, game, 20000), 0);
  const std::string first_game = ada->Call(PeekMsg(room_id)).room().game_id();

  // The kept bot is stored with the new game, not by a write of its own after it.
  server_->gate().FailStandIns(true);
  ASSERT_TRUE(bob->Call(RematchMsg(room_id, true)).has_ok());
  ASSERT_TRUE(ada->Call(RematchMsg(room_id, true)).has_ok());
  for (TestClient* c : {ada.get(), bob.get()}) {
    ASSERT_TRUE(c->WaitPush([](const v1::ServerMessage& m) {
      return m.has_snapshot() && m.snapshot().version() == 1;
    })) << "no new game's Snapshot";
  }
  v1::ServerMessage again = ada->Call(PeekMsg(room_id));
  EXPECT_EQ(again.room().status(), v1::ROOM_STATUS_PLAYING);
  EXPECT_NE(again.room().game_id(), first_game);
  ASSERT_EQ(again.room().seats_size(), 3);
  EXPECT_EQ(again.room().seats(2).name(), "Cy");
  EXPECT_EQ(again.room().seats(2).stand_in(), v1::BOT_EASY);
  EXPECT_EQ(again.room().seats(2).presence(), v1::PRESENCE_OFFLINE);
  // The bot stands in for him in the store too: a restart would keep it there.
  auto unfinished = server_->store().LoadUnfinished();
  ASSERT_TRUE(unfinished.ok());
  ASSERT_EQ(unfinished.value().size(), 1u);
  EXPECT_EQ(unfinished.value()[0].room.seat_stand_ins.at(2), v1::BOT_EASY);
  server_->gate().FailStandIns(false);

  // Cy comes back: the table is among his rooms, and he takes his seat back.
  auto back = std::make_unique<TestClient>(server_->port());
  v1::ServerMessage welcomed = back->Call(HelloToken(cy_welcome.token()));
  ASSERT_TRUE(welcomed.has_welcome());
  ASSERT_EQ(welcomed.welcome().room_ids_size(), 1);
  EXPECT_EQ(welcomed.welcome().room_ids(0), room_id);
  ASSERT_TRUE(back->Call(JoinMsg(room_id)).has_room());
  v1::ClientMessage take_back;
  take_back.mutable_take_back_seat()->set_room_id(room_id);
  ASSERT_TRUE(back->Call(take_back).has_ok());
  v1::ServerMessage seated = ada->Call(PeekMsg(room_id));
  EXPECT_EQ(seated.room().seats(2).stand_in(), v1::BOT_LEVEL_UNSPECIFIED);
  EXPECT_EQ(seated.room().seats(2).presence(), v1::PRESENCE_ONLINE);

  // Cy goes again, handing his seat to a bot; after this game the others play without him.
  ASSERT_TRUE(back->Call(HandOverMsg(room_id)).has_ok());
  ASSERT_GT(PlayAlong({ada.get(), bob.get()}, room_id, game, 20000), 0);
  ASSERT_TRUE(ada->Call(RematchMsg(room_id, true)).has_ok());
  // Bob answers on other terms: a new offer, which Ada must accept again.
  ASSERT_TRUE(bob->Call(RematchMsg(room_id, true, true)).has_ok());
  v1::ServerMessage terms = ada->Call(PeekMsg(room_id));
  EXPECT_TRUE(terms.room().rematch().without_absent());
  EXPECT_FALSE(terms.room().seats(0).rematch());
  EXPECT_EQ(terms.room().status(), v1::ROOM_STATUS_FINISHED);
  ASSERT_TRUE(ada->Call(RematchMsg(room_id, true, true)).has_ok());
  ASSERT_TRUE(ada->WaitPush([](const v1::ServerMessage& m) {
    return m.has_snapshot() && m.snapshot().version() == 1;
  }));
  v1::ServerMessage two = ada->Call(PeekMsg(room_id));
  EXPECT_EQ(two.room().status(), v1::ROOM_STATUS_PLAYING);
  ASSERT_EQ(two.room().seats_size(), 2);
  EXPECT_EQ(two.room().seats(0).name(), "Ada");
  EXPECT_EQ(two.room().seats(1).name(), "Bob");
  auto later = std::make_unique<TestClient>(server_->port());
  EXPECT_EQ(later->Call(HelloToken(cy_welcome.token())).welcome().room_ids_size(), 0);
}

// A player whose connection drops at the end of the game (a reload) is not left out of a rematch
// "without the away players" before the grace ReplaceSeat waits too (60 s here).
TEST_F(BotsTest, ARematchWithoutTheAwayPlayersWaitsForTheGraceOfOneWhoLostHisConnection) {
  const engine::Game& game = *engine::Registry::Find("guerre_froide");
  auto ada = ConnectAs(server_->port(), "Ada");
  auto bob = ConnectAs(server_->port(), "Bob");
  auto cy = ConnectAs(server_->port(), "Cy");
  const std::string room_id = StartThree(*ada, *bob, *cy);
  ASSERT_GT(PlayAlong({ada.get(), bob.get(), cy.get()}, room_id, game, 20000), 0);
  cy.reset();
  ASSERT_TRUE(ada->WaitPush([](const v1::ServerMessage& m) {
    return m.has_room() && m.room().seats(2).presence() == v1::PRESENCE_OFFLINE;
  }));
  v1::ServerMessage over = ada->Call(PeekMsg(room_id));
  EXPECT_EQ(over.room().rematch().absent_seats_size(), 0);
  EXPECT_NE(over.room().rematch().without_unavailable().find("Cy may still come back"),
            std::string::npos)
      << over.room().rematch().ShortDebugString();
  EXPECT_EQ(ErrorOf(ada->Call(RematchMsg(room_id, true, true))), "too_early");
  EXPECT_EQ(ErrorOf(bob->Call(RematchMsg(room_id, true, true))), "too_early");
  EXPECT_EQ(ada->Call(PeekMsg(room_id)).room().status(), v1::ROOM_STATUS_FINISHED);
}

// The reason a rematch without the away players cannot start yet ("wait N s") is pushed again
// when the grace of the one who lost his connection ends, with nobody doing anything; a player
// back within his grace is not pushed about again.
TEST_F(BotsTest, TheRematchsWaitForAPlayerWhoLostHisConnectionIsPushedAgainWhenHisGraceEnds) {
  server_.reset();
  server_ = std::make_unique<TestServer>(dir_.File("grace.db"), NetLimits{}, std::chrono::minutes(5),
                                         TestLimits(), /*offline_grace=*/2s);
  ASSERT_NE(server_->port(), 0);
  const engine::Game& game = *engine::Registry::Find("guerre_froide");
  v1::Welcome bob_welcome;
  auto ada = ConnectAs(server_->port(), "Ada");
  auto bob = ConnectAs(server_->port(), "Bob", &bob_welcome);
  auto cy = ConnectAs(server_->port(), "Cy");
  const std::string room_id = StartThree(*ada, *bob, *cy);
  ASSERT_GT(PlayAlong({ada.get(), bob.get(), cy.get()}, room_id, game, 20000), 0);
  cy.reset();
  auto offline = ada->WaitPush([](const v1::ServerMessage& m) {
    return m.has_room() && m.room().seats(2).presence() == v1::PRESENCE_OFFLINE;
  });
  ASSERT_TRUE(offline);
  const auto went = std::chrono::steady_clock::now();
  EXPECT_NE(offline->room().rematch().without_unavailable().find("Cy may still come back"),
            std::string::npos)
      << offline->room().rematch().ShortDebugString();
  auto over = ada->WaitPush(
      [](const v1::ServerMessage& m) {
        return m.has_room() && m.room().rematch().absent_seats_size() == 1;
      },
      5s);
  ASSERT_TRUE(over) << "the room was not pushed again when Cy's grace ended";
  EXPECT_GE(std::chrono::steady_clock::now() - went, 1500ms);
  EXPECT_EQ(over->room().rematch().absent_seats(0), 2u);
  EXPECT_EQ(over->room().rematch().without_unavailable(), "");
  EXPECT_TRUE(ada->Call(RematchMsg(room_id, true, true)).has_ok());

  // Bob goes and comes back within his grace: the wait for him ends with his return.
  bob.reset();
  ASSERT_TRUE(ada->WaitPush([](const v1::ServerMessage& m) {
    return m.has_room() && m.room().seats(1).presence() == v1::PRESENCE_OFFLINE;
  }));
  bob = std::make_unique<TestClient>(server_->port());
  ASSERT_TRUE(bob->Call(HelloToken(bob_welcome.token())).has_welcome());
  ASSERT_TRUE(bob->Call(JoinMsg(room_id)).has_room());
  ASSERT_TRUE(ada->WaitPush([](const v1::ServerMessage& m) {
    return m.has_room() && m.room().seats(1).presence() == v1::PRESENCE_ONLINE;
  }));
  for (const v1::ServerMessage& m : ada->PendingPushes(2500ms)) {
    EXPECT_FALSE(m.has_room()) << "pushed again after Bob's return: " << m.ShortDebugString();
  }
}

// The host hands his seat to a bot and goes; the two others rematch without him and one of them
// becomes the host, before and after a restart.
TEST_F(BotsTest, ARematchWithoutTheHostPassesTheTableToAPlayerWhoStays) {
  const engine::Game& game = *engine::Registry::Find("guerre_froide");
  v1::Welcome bob_welcome;
  auto ada = ConnectAs(server_->port(), "Ada");
  auto bob = ConnectAs(server_->port(), "Bob", &bob_welcome);
  auto cy = ConnectAs(server_->port(), "Cy");
  const std::string room_id = StartThree(*ada, *bob, *cy);
  ASSERT_TRUE(ada->Call(HandOverMsg(room_id)).has_ok());
  ada.reset();
  ASSERT_GT(PlayAlong({bob.get(), cy.get()}, room_id, game, 20000), 0);
  ASSERT_TRUE(bob->Call(RematchMsg(room_id, true, true)).has_ok());
  ASSERT_TRUE(cy->Call(RematchMsg(room_id, true, true)).has_ok());
  ASSERT_TRUE(bob->WaitPush([](const v1::ServerMessage& m) {
    return m.has_snapshot() && m.snapshot().version() == 1;
  }));
  v1::ServerMessage two = bob->Call(PeekMsg(room_id));
  ASSERT_EQ(two.room().seats_size(), 2);
  EXPECT_EQ(two.room().host_player_id(), bob_welcome.player_id());
  bob.reset();
  cy.reset();
  server_->Stop();
  server_ = std::make_unique<TestServer>(dir_.File("plateau.db"));
  auto back = std::make_unique<TestClient>(server_->port());
  ASSERT_TRUE(back->Call(HelloToken(bob_welcome.token())).has_welcome());
  v1::ServerMessage restored = back->Call(PeekMsg(room_id));
  EXPECT_EQ(restored.room().host_player_id(), bob_welcome.player_id());
}

// A rematch makes the room open again: it counts toward its host's open rooms like a new one.
TEST_F(BotsTest, ARematchCountsAsAnOpenRoomOfItsHost) {
  server_->Stop();
  ClientLimits limits = TestLimits();
  limits.open_rooms_per_player = 1;
  server_ = std::make_unique<TestServer>(dir_.File("limited.db"), NetLimits{},
                                         std::chrono::minutes(5), limits);
  ASSERT_NE(server_->port(), 0);
  const engine::Game& game = *engine::Registry::Find("guerre_froide");
  auto player = ConnectAs(server_->port(), "Lone");
  v1::ServerMessage created = player->Call(CreateMsg("guerre_froide", 2));
  ASSERT_TRUE(created.has_room());
  const std::string room_id = created.room().room_id();
  EXPECT_EQ(ErrorOf(player->Call(CreateMsg("guerre_froide", 2))), "too_many_rooms");
  ASSERT_TRUE(player->Call(AddBotMsg(room_id, 1)).has_room());
  ASSERT_TRUE(player->Call(StartMsg(room_id)).has_ok());
  ASSERT_GT(PlayAlong(*player, room_id, game, 20000), 0);
  ASSERT_TRUE(player->Call(RematchMsg(room_id, true)).has_ok());  // the bot agrees: it starts
  EXPECT_EQ(ErrorOf(player->Call(CreateMsg("guerre_froide", 2))), "too_many_rooms");
}

// A game whose result could not be stored still looks unfinished in the store: a rematch in the
// same room is refused, so a restart never finds two games of one room.
TEST_F(BotsTest, NoRematchWhenTheResultCouldNotBeStored) {
  const engine::Game& game = *engine::Registry::Find("guerre_froide");
  auto player = ConnectAs(server_->port(), "Pat");
  v1::ServerMessage created = player->Call(CreateMsg("guerre_froide", 2));
  ASSERT_TRUE(created.has_room());
  const std::string room_id = created.room().room_id();
  ASSERT_TRUE(player->Call(AddBotMsg(room_id, 1)).has_room());
  server_->gate().FailResults(true);
  ASSERT_TRUE(player->Call(StartMsg(room_id)).has_ok());
  ASSERT_GT(PlayAlong(*player, room_id, game, 20000), 0);
  EXPECT_EQ(ErrorOf(player->Call(RematchMsg(room_id, true))), "storage_error");
  EXPECT_FALSE(player->Call(PeekMsg(room_id)).room().seats(1).rematch());
}

}  // namespace
}  // namespace plateau::server::testing
