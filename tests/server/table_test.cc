// People behaving like people, through the real server over loopback: turn timers that run out
// (the server plays the default move, then a bot stands in), timers rebuilt after a restart from
// the stored log, leaving a game by conceding or handing over, and replacing or claiming against a
// player who went away.
#include <gtest/gtest.h>

#include <thread>

#include "engine/core/bot.h"
#include "engine/core/registry.h"
#include "server/room/turn_clocks.h"
#include "test_support.h"

namespace plateau::server::testing {
namespace {

v1::ClientMessage CreateTimed(const std::string& game, int seats, uint32_t per_move,
                              uint32_t abandon) {
  v1::ClientMessage m;
  m.mutable_create_room()->set_game(game);
  m.mutable_create_room()->set_seats(static_cast<uint32_t>(seats));
  if (per_move > 0) {
    v1::TurnTimer* t = m.mutable_create_room()->mutable_timer();
    t->set_mode(v1::TIMER_PER_MOVE);
    t->set_per_move_seconds(per_move);
    t->set_timeouts_to_abandon(abandon);
  }
  return m;
}

v1::ClientMessage LeaveMsg(const std::string& room_id, v1::LeaveMode mode) {
  v1::ClientMessage m;
  m.mutable_leave_room()->set_room_id(room_id);
  m.mutable_leave_room()->set_mode(mode);
  return m;
}

v1::ClientMessage ReplaceMsg(const std::string& room_id, uint32_t seat,
                             v1::ReplaceKind kind = v1::REPLACE_WITH_BOT) {
  v1::ClientMessage m;
  m.mutable_replace_seat()->set_room_id(room_id);
  m.mutable_replace_seat()->set_seat(seat);
  m.mutable_replace_seat()->set_kind(kind);
  return m;
}

v1::ClientMessage TakeBackMsg(const std::string& room_id) {
  v1::ClientMessage m;
  m.mutable_take_back_seat()->set_room_id(room_id);
  return m;
}

v1::ClientMessage PeekMsg(const std::string& room_id) {
  v1::ClientMessage m;
  m.mutable_peek_room()->set_room_id(room_id);
  return m;
}

std::string ErrorOf(const v1::ServerMessage& m) { return m.has_error() ? m.error().code() : ""; }

// Whether the view a client holds logs that `seat` timed out (the core's entry before a move
// the turn timer made): issue 32, a timeout's move read as the player's own.
bool LogsTimeout(const HeldView& held, int seat) {
  const v1::Table* table = held.view ? engine::ViewTable(*held.view) : nullptr;
  if (table == nullptr) return false;
  for (const auto& e : table->log()) {
    if (TextKey(*held.view, e.text()) == "core.timed_out" && e.text().args_size() > 0 &&
        e.text().args(0).seat() == seat)
      return true;
  }
  return false;
}

class TableTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(engine::Registry::LoadAll().ok());
    Restart(std::chrono::seconds(2));
  }
  void Restart(std::chrono::milliseconds offline_grace) {
    if (server_) server_->Stop();
    server_.reset();
    server_ = std::make_unique<TestServer>(dir_.File("plateau.db"), NetLimits{},
                                           std::chrono::minutes(5), TestLimits(), offline_grace);
    ASSERT_NE(server_->port(), 0);
  }
  // `player` makes one move its view allows (as an easy bot would); false if none was accepted.
  bool MoveOnce(TestClient& player, const std::string& room_id) {
    player.Drain(50ms);
    HeldView& held = player.view(room_id);
    if (!held.view) return false;
    engine::Rng rng(3);
    const engine::Game& game = *engine::Registry::Find("guerre_froide");
    for (const auto& move : engine::BotMoves(game, *held.view, held.seat, engine::BotLevel::kEasy, rng)) {
      if (player.Call(ActionMsg(room_id, move->SerializeAsString())).has_accepted()) return true;
    }
    return false;
  }
  // A three-player Guerre Froide room without a timer, `host`'s, the others seated and ready.
  static std::string SeatThree(TestClient& host, TestClient& second, TestClient& third) {
    v1::ServerMessage created = host.Call(CreateTimed("guerre_froide", 3, 0, 0));
    EXPECT_TRUE(created.has_room());
    const std::string room_id = created.room().room_id();
    for (TestClient* c : {&second, &third}) {
      EXPECT_TRUE(c->Call(JoinMsg(room_id)).has_room());
      EXPECT_TRUE(c->Call(ReadyMsg(room_id)).has_ok());
    }
    return room_id;
  }
  std::vector<v1::ActionOrigin> OriginsOf(const std::string& game_id, int seat) {
    std::vector<v1::ActionOrigin> out;
    auto stored = server_->store().LoadGame(game_id);
    EXPECT_TRUE(stored.ok() && stored.value().has_value());
    if (!stored.ok() || !stored.value()) return out;
    for (const auto& a : stored.value()->actions()) {
      if (a.seat() == seat) out.push_back(a.origin());
    }
    return out;
  }

  TempDir dir_;
  std::unique_ptr<TestServer> server_;
};

TEST_F(TableTest, TimersOutsideTheirLimitsAreRefusedAndEveryGameOffersPresets) {
  auto ada = ConnectAs(server_->port(), "Ada");
  EXPECT_EQ(ErrorOf(ada->Call(CreateTimed("guerre_froide", 2, 5, 0))), "bad_timer");
  EXPECT_EQ(ErrorOf(ada->Call(CreateTimed("guerre_froide", 2, 30, 21))), "bad_timer");
  v1::ClientMessage clock = CreateTimed("guerre_froide", 2, 0, 0);
  clock.mutable_create_room()->mutable_timer()->set_mode(v1::TIMER_CLOCK);
  clock.mutable_create_room()->mutable_timer()->set_bank_seconds(10);
  EXPECT_EQ(ErrorOf(ada->Call(clock)), "bad_timer");
  v1::ServerMessage created = ada->Call(CreateTimed("guerre_froide", 2, 30, 3));
  ASSERT_TRUE(created.has_room()) << created.DebugString();
  EXPECT_EQ(created.room().timer().mode(), v1::TIMER_PER_MOVE);
  EXPECT_EQ(created.room().timer().per_move_seconds(), 30u);
  EXPECT_EQ(created.room().offline_grace_seconds(), 2u);
  EXPECT_FALSE(created.room().seats(0).has_clock());  // not started
  v1::ClientMessage list;
  list.mutable_list_games();
  v1::ServerMessage games = ada->Call(list);
  ASSERT_TRUE(games.has_game_list());
  for (const v1::GameInfo& g : games.game_list().games()) {
    SCOPED_TRACE(g.id());
    ASSERT_GE(g.timer_presets_size(), 2);
    for (const v1::TimerPreset& p : g.timer_presets()) {
      EXPECT_EQ(TurnClocks::Invalid(p.timer()), "") << p.DebugString();
      EXPECT_FALSE(p.name().empty());
    }
  }
}

// Bob never moves: his clock runs out, the server plays the game's default move for him (stored
// as the clock's), and after the room's one allowed timeout a bot stands in until he takes his
// seat back.
TEST_F(TableTest, ATimedOutSeatIsPlayedForThenHandedToABotUntilItsPlayerReturns) {
  v1::Welcome welcome;
  auto ada = ConnectAs(server_->port(), "Ada", &welcome);
  auto bob = ConnectAs(server_->port(), "Bob");
  const std::string room_id = StartGameIn(*ada, *bob, CreateTimed("guerre_froide", 2, 10, 1));
  v1::ServerMessage info = ada->Call(PeekMsg(room_id));
  ASSERT_TRUE(info.has_room());
  const std::string game_id = info.room().game_id();
  EXPECT_TRUE(info.room().seats(1).clock().running());  // both choose an agent at once
  EXPECT_LE(info.room().seats(1).clock().remaining_ms(), 10'000u);
  EXPECT_GT(info.room().seats(1).clock().remaining_ms(), 5'000u);
  ASSERT_TRUE(MoveOnce(*ada, room_id));

  auto stood_in = ada->WaitPush(
      [](const v1::ServerMessage& m) {
        return m.has_room() && m.room().seats(1).stand_in() == v1::BOT_EASY;
      },
      25s);
  ASSERT_TRUE(stood_in) << "no bot stood in for Bob";
  EXPECT_GE(stood_in->room().seats(1).clock().timeouts(), 1u);
  // The Diffs say who moved and how: Ada herself, the clock for Bob, then the bot standing in.
  const auto told = [&](int seat, v1::ActionOrigin origin) {
    return std::any_of(ada->diff_frames().begin(), ada->diff_frames().end(),
                       [&](const v1::ServerMessage& m) {
                         return m.diff().has_mover_seat() && m.diff().mover_seat() == seat &&
                                m.diff().mover_origin() == origin;
                       });
  };
  EXPECT_TRUE(told(0, v1::ORIGIN_PLAYER));
  EXPECT_TRUE(told(1, v1::ORIGIN_CLOCK));
  for (const auto end = std::chrono::steady_clock::now() + 15s;
       !told(1, v1::ORIGIN_STAND_IN) && std::chrono::steady_clock::now() < end;) {
    if (!MoveOnce(*ada, room_id)) ada->Drain(100ms);
  }
  EXPECT_TRUE(told(1, v1::ORIGIN_STAND_IN)) << "no Diff named the bot standing in for Bob";
  EXPECT_FALSE(told(0, v1::ORIGIN_CLOCK));
  const auto origins = OriginsOf(game_id, 1);
  ASSERT_FALSE(origins.empty());
  EXPECT_EQ(origins.front(), v1::ORIGIN_CLOCK);
  // Every reader's log says the timer played for Bob: the other seat (from its Diffs), Bob
  // himself, and a spectator arriving later (from a Snapshot).
  EXPECT_TRUE(LogsTimeout(ada->view(room_id), 1));
  EXPECT_FALSE(LogsTimeout(ada->view(room_id), 0)) << "Ada moved herself";
  bob->Drain();
  EXPECT_TRUE(LogsTimeout(bob->view(room_id), 1));
  auto cy = ConnectAs(server_->port(), "Cy");
  ASSERT_TRUE(cy->Call(SpectateMsg(room_id)).has_room());
  cy->Drain();
  EXPECT_TRUE(LogsTimeout(cy->view(room_id), 1));

  ASSERT_TRUE(bob->Call(TakeBackMsg(room_id)).has_ok());
  EXPECT_EQ(ErrorOf(bob->Call(TakeBackMsg(room_id))), "no_stand_in");
  EXPECT_EQ(ErrorOf(ada->Call(TakeBackMsg(room_id))), "no_stand_in");
  v1::ServerMessage back = ada->Call(PeekMsg(room_id));
  EXPECT_EQ(back.room().seats(1).stand_in(), v1::BOT_LEVEL_UNSPECIFIED);
  EXPECT_EQ(back.room().seats(1).clock().timeouts(), 0u);

  // A restart does not find Bob abandoned again: taking the seat back cleared his timeouts.
  ada.reset();
  bob.reset();
  Restart(std::chrono::seconds(60));
  ada = std::make_unique<TestClient>(server_->port());
  ASSERT_TRUE(ada->Call(HelloToken(welcome.token())).has_welcome());
  v1::ServerMessage again = ada->Call(JoinMsg(room_id));
  ASSERT_TRUE(again.has_room()) << again.DebugString();
  EXPECT_EQ(again.room().seats(1).stand_in(), v1::BOT_LEVEL_UNSPECIFIED);
  EXPECT_EQ(again.room().seats(1).clock().timeouts(), 0u);
}

// The clocks come back from the stored log after a restart: the timeouts counted, and a running
// deadline kept where it was, not restarted.
TEST_F(TableTest, TimersSurviveARestart) {
  v1::Welcome welcome;
  std::string room_id;
  v1::RoomInfo before;
  {
    auto ada = ConnectAs(server_->port(), "Ada", &welcome);
    auto bob = ConnectAs(server_->port(), "Bob");
    room_id = StartGameIn(*ada, *bob, CreateTimed("guerre_froide", 2, 10, 0));
    // Nobody moves: both agents are chosen by the clock about ten seconds in.
    auto both = ada->WaitPush(
        [](const v1::ServerMessage& m) {
          return m.has_room() && m.room().seats(0).clock().timeouts() >= 1 &&
                 m.room().seats(1).clock().timeouts() >= 1;
        },
        25s);
    ASSERT_TRUE(both) << "the clocks did not play";
    std::this_thread::sleep_for(4s);
    before = ada->Call(PeekMsg(room_id)).room();
  }
  Restart(std::chrono::seconds(1));
  auto ada = std::make_unique<TestClient>(server_->port());
  ASSERT_TRUE(ada->Call(HelloToken(welcome.token())).has_welcome());
  v1::ServerMessage joined = ada->Call(JoinMsg(room_id));
  ASSERT_TRUE(joined.has_room()) << joined.DebugString();
  const v1::RoomInfo& after = joined.room();
  EXPECT_EQ(after.timer().mode(), v1::TIMER_PER_MOVE);
  EXPECT_EQ(after.timer().per_move_seconds(), 10u);
  bool running = false;
  for (int seat = 0; seat < 2; ++seat) {
    SCOPED_TRACE(seat);
    EXPECT_EQ(after.seats(seat).clock().timeouts(), before.seats(seat).clock().timeouts());
    if (after.seats(seat).clock().running()) {
      running = true;
      // About 6 s were left at the stop; a clock started afresh would show about 10.
      EXPECT_LT(after.seats(seat).clock().remaining_ms(), 8'500u);
    }
  }
  EXPECT_TRUE(running);
  // The game replayed from the store still says which moves the timer made.
  ASSERT_TRUE(ada->Call(ResyncMsg(room_id, 0)).has_ok());
  ada->Drain();
  ASSERT_TRUE(ada->view(room_id).view) << "no snapshot after the restart";
  EXPECT_TRUE(LogsTimeout(ada->view(room_id), 0));
  EXPECT_TRUE(LogsTimeout(ada->view(room_id), 1));
  EXPECT_EQ(after.seats(1).presence(), v1::PRESENCE_OFFLINE);  // Bob has not come back
  EXPECT_EQ(after.seats(0).presence(), v1::PRESENCE_ONLINE);
}

// A chess clock across two restarts: the first gives the seats to act a long grace, the second
// replays it from the store, so a move made within that grace banked what was really left.
TEST_F(TableTest, AClockKeepsTheGraceOfAnEarlierRestart) {
  v1::Welcome welcome;
  std::string room_id;
  {
    auto ada = ConnectAs(server_->port(), "Ada", &welcome);
    auto bob = ConnectAs(server_->port(), "Bob");
    v1::ClientMessage create = CreateTimed("guerre_froide", 2, 0, 0);
    v1::TurnTimer* t = create.mutable_create_room()->mutable_timer();
    t->set_mode(v1::TIMER_CLOCK);
    t->set_bank_seconds(30);
    room_id = StartGameIn(*ada, *bob, create);
    std::this_thread::sleep_for(2s);
  }
  Restart(std::chrono::seconds(120));  // both choose an agent at once: each has 120 s now
  auto ada = std::make_unique<TestClient>(server_->port());
  ASSERT_TRUE(ada->Call(HelloToken(welcome.token())).has_welcome());
  v1::ServerMessage joined = ada->Call(JoinMsg(room_id));
  ASSERT_TRUE(joined.has_room());
  EXPECT_GT(joined.room().seats(0).clock().remaining_ms(), 100'000u);
  ASSERT_TRUE(ada->Call(ResyncMsg(room_id, 0)).has_ok());
  ASSERT_TRUE(MoveOnce(*ada, room_id));  // banks what was left of the 120 s
  v1::ServerMessage moved = ada->Call(PeekMsg(room_id));
  ASSERT_FALSE(moved.room().seats(0).clock().running());
  const uint64_t bank = moved.room().seats(0).clock().remaining_ms();
  EXPECT_GT(bank, 100'000u);
  ada.reset();
  Restart(std::chrono::seconds(1));
  ada = std::make_unique<TestClient>(server_->port());
  ASSERT_TRUE(ada->Call(HelloToken(welcome.token())).has_welcome());
  v1::ServerMessage again = ada->Call(JoinMsg(room_id));
  ASSERT_TRUE(again.has_room());
  ASSERT_FALSE(again.room().seats(0).clock().running());
  // The same bank, not what the 30 s clock had left before the first restart.
  EXPECT_EQ(again.room().seats(0).clock().remaining_ms(), bank);
}

TEST_F(TableTest, LeavingAGameConcedesOrHandsTheSeatToABot) {
  auto ada = ConnectAs(server_->port(), "Ada");
  auto bob = ConnectAs(server_->port(), "Bob");
  auto cy = ConnectAs(server_->port(), "Cy");
  const std::string room_id = SeatThree(*ada, *bob, *cy);
  ASSERT_TRUE(ada->Call(StartMsg(room_id)).has_ok());

  EXPECT_EQ(ErrorOf(ada->Call(LeaveMsg(room_id, static_cast<v1::LeaveMode>(9)))), "bad_leave_mode");
  EXPECT_EQ(ada->Call(PeekMsg(room_id)).room().seats(0).presence(), v1::PRESENCE_ONLINE);

  ASSERT_TRUE(bob->Call(LeaveMsg(room_id, v1::LEAVE_HAND_TO_BOT)).has_ok());
  auto handed = ada->WaitPush([](const v1::ServerMessage& m) {
    return m.has_room() && m.room().seats(1).stand_in() == v1::BOT_EASY;
  });
  ASSERT_TRUE(handed);
  EXPECT_EQ(handed->room().seats(1).presence(), v1::PRESENCE_LEFT);

  v1::ServerMessage conceded = cy->Call(LeaveMsg(room_id, v1::LEAVE_CONCEDE));
  EXPECT_TRUE(conceded.has_accepted()) << conceded.DebugString();  // stored like a move
  ASSERT_TRUE(server_->InspectRoom(room_id, [](const engine::State* s, uint64_t) {
    ASSERT_NE(s, nullptr);
    EXPECT_TRUE(s->HasResigned(2));
    EXPECT_FALSE(s->HasResigned(1));
  }));
  EXPECT_EQ(ada->Call(PeekMsg(room_id)).room().seats(2).presence(), v1::PRESENCE_LEFT);

  // Bob comes back to the table and takes his seat back from the bot.
  v1::ServerMessage rejoined = bob->Call(JoinMsg(room_id));
  ASSERT_TRUE(rejoined.has_room());
  EXPECT_EQ(rejoined.room().seats(1).presence(), v1::PRESENCE_ONLINE);
  ASSERT_TRUE(bob->Call(TakeBackMsg(room_id)).has_ok());
  EXPECT_EQ(ada->Call(PeekMsg(room_id)).room().seats(1).stand_in(), v1::BOT_LEVEL_UNSPECIFIED);
}

// A player who left stays "left" across a restart (not merely offline), so the others may still
// replace his seat at once; one who came back before the restart is not.
TEST_F(TableTest, APlayerWhoLeftHasStillLeftAfterARestart) {
  v1::Welcome welcome, bob_welcome, cy_welcome;
  auto ada = ConnectAs(server_->port(), "Ada", &welcome);
  auto bob = ConnectAs(server_->port(), "Bob", &bob_welcome);
  auto cy = ConnectAs(server_->port(), "Cy", &cy_welcome);
  const std::string room_id = SeatThree(*ada, *bob, *cy);
  ASSERT_TRUE(ada->Call(StartMsg(room_id)).has_ok());
  ASSERT_TRUE(bob->Call(LeaveMsg(room_id, v1::LEAVE_KEEP_SEAT)).has_ok());
  ASSERT_TRUE(cy->Call(LeaveMsg(room_id, v1::LEAVE_KEEP_SEAT)).has_ok());
  // Bob's next connection (another tab, a reconnect) does not list the room: a client that
  // rejoins every listed room would undo his leaving. He is still seated, and left.
  auto rooms_of = [&](const v1::Welcome& w) {
    TestClient again(server_->port());
    v1::ServerMessage hello = again.Call(HelloToken(w.token()));
    EXPECT_TRUE(hello.has_welcome());
    return std::vector<std::string>(hello.welcome().room_ids().begin(),
                                    hello.welcome().room_ids().end());
  };
  EXPECT_EQ(rooms_of(bob_welcome), std::vector<std::string>{});
  EXPECT_EQ(ada->Call(PeekMsg(room_id)).room().seats(1).presence(), v1::PRESENCE_LEFT);
  ASSERT_TRUE(cy->Call(JoinMsg(room_id)).has_room());  // Cy comes back: listed again
  EXPECT_EQ(rooms_of(cy_welcome), std::vector<std::string>{room_id});
  ada.reset();
  bob.reset();
  cy.reset();
  Restart(std::chrono::seconds(60));
  auto ada2 = std::make_unique<TestClient>(server_->port());
  ASSERT_TRUE(ada2->Call(HelloToken(welcome.token())).has_welcome());
  v1::ServerMessage back = ada2->Call(JoinMsg(room_id));
  ASSERT_TRUE(back.has_room()) << back.DebugString();
  EXPECT_EQ(back.room().seats(0).presence(), v1::PRESENCE_ONLINE);
  EXPECT_EQ(back.room().seats(1).presence(), v1::PRESENCE_LEFT);
  EXPECT_EQ(back.room().seats(2).presence(), v1::PRESENCE_OFFLINE);
  // Bob's seat may be handed to a bot at once; Cy's only after the grace.
  EXPECT_EQ(ErrorOf(ada2->Call(ReplaceMsg(room_id, 2))), "too_early");
  ASSERT_TRUE(ada2->Call(ReplaceMsg(room_id, 1)).has_ok());
  EXPECT_EQ(ada2->Call(PeekMsg(room_id)).room().seats(1).stand_in(), v1::BOT_EASY);
}

TEST_F(TableTest, APlayerGoneLongerThanTheGraceIsReplacedByABotOrLosesByClaim) {
  auto ada = ConnectAs(server_->port(), "Ada");
  auto bob = ConnectAs(server_->port(), "Bob");
  auto cy = ConnectAs(server_->port(), "Cy");
  auto eve = ConnectAs(server_->port(), "Eve");
  const std::string room_id = SeatThree(*ada, *bob, *cy);
  ASSERT_TRUE(eve->Call(SpectateMsg(room_id)).has_room());
  ASSERT_TRUE(ada->Call(StartMsg(room_id)).has_ok());

  EXPECT_EQ(ErrorOf(ada->Call(ReplaceMsg(room_id, 1))), "player_present");
  EXPECT_EQ(ErrorOf(ada->Call(ReplaceMsg(room_id, 0))), "not_replaceable");
  EXPECT_EQ(ErrorOf(ada->Call(ReplaceMsg(room_id, 3))), "no_such_seat");
  EXPECT_EQ(ErrorOf(ada->Call(ReplaceMsg(room_id, 1, v1::REPLACE_CLAIM_WIN))), "claim_needs_two");
  EXPECT_EQ(ErrorOf(eve->Call(ReplaceMsg(room_id, 1))), "not_seated");

  bob.reset();  // Bob's connection drops
  auto offline = ada->WaitPush([](const v1::ServerMessage& m) {
    return m.has_room() && m.room().seats(1).presence() == v1::PRESENCE_OFFLINE;
  });
  ASSERT_TRUE(offline);
  EXPECT_EQ(ErrorOf(ada->Call(ReplaceMsg(room_id, 1))), "too_early");
  std::this_thread::sleep_for(2100ms);
  ASSERT_TRUE(ada->Call(ReplaceMsg(room_id, 1)).has_ok());
  EXPECT_EQ(ada->Call(PeekMsg(room_id)).room().seats(1).stand_in(), v1::BOT_EASY);
  EXPECT_EQ(ErrorOf(cy->Call(ReplaceMsg(room_id, 1))), "not_replaceable");  // a bot plays it

  // Two players: the one who stayed may claim the win.
  auto dan = ConnectAs(server_->port(), "Dan");
  auto fay = ConnectAs(server_->port(), "Fay");
  const std::string duel = StartGameIn(*dan, *fay, CreateTimed("guerre_froide", 2, 0, 0));
  fay.reset();
  ASSERT_TRUE(dan->WaitPush([](const v1::ServerMessage& m) {
    return m.has_room() && m.room().seats(1).presence() == v1::PRESENCE_OFFLINE;
  }));
  std::this_thread::sleep_for(2100ms);
  v1::ServerMessage claimed = dan->Call(ReplaceMsg(duel, 1, v1::REPLACE_CLAIM_WIN));
  EXPECT_TRUE(claimed.has_accepted()) << claimed.DebugString();
  auto over = dan->WaitPush([](const v1::ServerMessage& m) { return m.has_game_over(); });
  ASSERT_TRUE(over);
  for (const v1::SeatResult& r : over->game_over().results()) {
    EXPECT_EQ(r.rank(), r.seat() == 0 ? 1u : 2u) << r.DebugString();
  }
  const std::string game_id = dan->Call(PeekMsg(duel)).room().game_id();
  const auto origins = OriginsOf(game_id, 1);
  ASSERT_FALSE(origins.empty());
  EXPECT_EQ(origins.back(), v1::ORIGIN_CLAIM);
}

// A game nobody comes back to ends: after the room's time with no player connected, every
// player's seat resigns (stored with its origin) and the result is stored like any other.
TEST_F(TableTest, AGameEveryPlayerLeftEndsAfterItsTime) {
  server_->Stop();
  server_.reset();
  server_ = std::make_unique<TestServer>(dir_.File("abandoned.db"), NetLimits{},
                                         std::chrono::minutes(5), TestLimits(),
                                         std::chrono::seconds(60), std::chrono::seconds(1));
  ASSERT_NE(server_->port(), 0);
  std::string room_id, game_id;
  {
    auto ada = ConnectAs(server_->port(), "Ada");
    auto bob = ConnectAs(server_->port(), "Bob");
    room_id = StartGameIn(*ada, *bob, CreateTimed("guerre_froide", 2, 0, 0));
    game_id = ada->Call(PeekMsg(room_id)).room().game_id();
  }
  // Players who leave with the Leave button while their tabs stay open count as gone too.
  auto cy = ConnectAs(server_->port(), "Cy");
  auto dee = ConnectAs(server_->port(), "Dee");
  const std::string left_room = StartGameIn(*cy, *dee, CreateTimed("guerre_froide", 2, 0, 0));
  const std::string left_game = cy->Call(PeekMsg(left_room)).room().game_id();
  ASSERT_TRUE(cy->Call(LeaveMsg(left_room, v1::LEAVE_KEEP_SEAT)).has_ok());
  ASSERT_TRUE(dee->Call(LeaveMsg(left_room, v1::LEAVE_KEEP_SEAT)).has_ok());
  auto finished = [&](const std::string& id) {
    auto stored = server_->store().LoadGame(id);
    return stored.ok() && stored.value() && stored.value()->results_size() == 2;
  };
  for (int i = 0; i < 60 && !(finished(game_id) && finished(left_game)); ++i) {
    std::this_thread::sleep_for(100ms);
  }
  ASSERT_TRUE(finished(game_id)) << "the abandoned game did not end";
  ASSERT_TRUE(finished(left_game)) << "the game both players left did not end";
  const auto origins = OriginsOf(game_id, 0);
  ASSERT_FALSE(origins.empty());
  EXPECT_EQ(origins.back(), v1::ORIGIN_EXPIRED);
}

}  // namespace
}  // namespace plateau::server::testing
