// Taking back a move through the real server over loopback: accepted for the seat's own last
// move when the rules say it revealed nothing; refused once another seat acted, for a move that
// revealed something, and in a room without the option; stored, so a restart and the finished
// game's replay play the game without it.
#include <gtest/gtest.h>

#include <future>
#include <thread>

#include "engine/core/bot.h"
#include "engine/core/registry.h"
#include "games/globalissimo.pb.h"
#include "tests/server/test_support.h"

namespace plateau::server::testing {
namespace {

std::string ErrorOf(const v1::ServerMessage& m) { return m.has_error() ? m.error().code() : ""; }

// A two-seat Globalissimo room of two rounds (the first one ends with the game still on); `undo`
// unset leaves the server's default.
v1::ClientMessage CreateMsg(std::optional<bool> undo) {
  v1::ClientMessage m;
  m.mutable_create_room()->set_game("globalissimo");
  m.mutable_create_room()->set_seats(2);
  games::globalissimo::Options o;
  o.set_rounds(2);
  m.mutable_create_room()->set_options(o.SerializeAsString());
  if (undo) m.mutable_create_room()->set_undo(*undo);
  return m;
}

v1::ClientMessage UndoMsg(const std::string& room_id) {
  v1::ClientMessage m;
  m.mutable_undo_move()->set_room_id(room_id);
  return m;
}

std::string Place(uint32_t slot, uint32_t position) {
  games::globalissimo::Action a;
  a.mutable_place()->set_slot(slot);
  a.mutable_place()->set_position(position);
  return a.SerializeAsString();
}

class UndoTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(engine::Registry::LoadAll().ok());
    Restart();
  }
  void Restart() {
    if (server_) server_->Stop();
    server_.reset();
    server_ = std::make_unique<TestServer>(dir_.File("plateau.db"), NetLimits{});
    ASSERT_NE(server_->port(), 0);
  }
  // Ada (seat 0, host) and Bob (seat 1) in a started game; `first`/`second` in turn order.
  std::string Seat(std::optional<bool> undo) {
    ada_ = ConnectAs(server_->port(), "Ada", &wa_);
    bob_ = ConnectAs(server_->port(), "Bob", &wb_);
    const std::string room_id = StartGameIn(*ada_, *bob_, CreateMsg(undo));
    const bool ada_first = ada_->view(room_id).acting == std::vector<int>{0};
    first_ = ada_first ? ada_.get() : bob_.get();
    second_ = ada_first ? bob_.get() : ada_.get();
    return room_id;
  }
  // The server's views of both seats and the spectators, and its version.
  std::pair<std::vector<std::string>, uint64_t> ServerViews(const std::string& room_id) {
    std::pair<std::vector<std::string>, uint64_t> out;
    EXPECT_TRUE(server_->InspectRoom(room_id, [&](const engine::State* s, uint64_t v) {
      if (s) {
        for (int seat : {0, 1, engine::kSpectator})
          out.first.push_back(WireView(*s, seat));
      }
      out.second = v;
    }));
    return out;
  }

  TempDir dir_;
  std::unique_ptr<TestServer> server_;
  v1::Welcome wa_, wb_;
  std::unique_ptr<TestClient> ada_, bob_;
  TestClient* first_ = nullptr;
  TestClient* second_ = nullptr;
};

TEST_F(UndoTest, TheRoomOptionIsOnByDefaultAndShown) {
  auto ada = ConnectAs(server_->port(), "Ada");
  v1::ServerMessage on = ada->Call(CreateMsg(std::nullopt));
  ASSERT_TRUE(on.has_room());
  EXPECT_TRUE(on.room().undo());
  v1::ServerMessage off = ada->Call(CreateMsg(false));
  ASSERT_TRUE(off.has_room());
  EXPECT_FALSE(off.room().undo());
}

TEST_F(UndoTest, ASafeMoveIsTakenBackForEveryoneAndItsIndexIsPlayedAgain) {
  const std::string room_id = Seat(std::nullopt);
  const auto before = ServerViews(room_id);
  EXPECT_FALSE(first_->view(room_id).can_undo);
  v1::ServerMessage moved = first_->Call(ActionMsg(room_id, Place(0, 1)));
  ASSERT_TRUE(moved.has_accepted()) << moved.DebugString();
  EXPECT_EQ(moved.accepted().action_index(), 0u);
  first_->Drain(100ms);
  second_->Drain(100ms);
  EXPECT_TRUE(first_->view(room_id).can_undo);    // its own move, which revealed nothing
  EXPECT_FALSE(second_->view(room_id).can_undo);  // not its move
  EXPECT_EQ(ErrorOf(second_->Call(UndoMsg(room_id))), "nothing_to_undo");

  ASSERT_TRUE(first_->Call(UndoMsg(room_id)).has_ok());
  first_->Drain(100ms);
  second_->Drain(100ms);
  const auto after = ServerViews(room_id);
  EXPECT_EQ(after.first, before.first);           // every view as before the move
  EXPECT_EQ(after.second, before.second + 2);     // one version for the move, one for taking it back
  for (TestClient* c : {first_, second_}) {
    EXPECT_EQ(c->view(room_id).version, after.second);
    EXPECT_EQ(c->gaps, 0);
  }
  const int first_seat = first_->view(room_id).seat;
  EXPECT_EQ(Unheld(*first_->view(room_id).view), before.first[first_seat]);
  // The take-back's Diff names its seat to both, as the move's did.
  for (TestClient* c : {first_, second_}) {
    ASSERT_EQ(c->diff_frames().size(), 2u);
    for (const v1::ServerMessage& m : c->diff_frames()) {
      EXPECT_TRUE(m.diff().has_mover_seat() && m.diff().mover_seat() == first_seat)
          << m.diff().ShortDebugString();
    }
  }
  EXPECT_FALSE(first_->view(room_id).can_undo);
  EXPECT_EQ(ErrorOf(first_->Call(UndoMsg(room_id))), "nothing_to_undo");  // once

  moved = first_->Call(ActionMsg(room_id, Place(1, 2)));
  ASSERT_TRUE(moved.has_accepted()) << moved.DebugString();
  EXPECT_EQ(moved.accepted().action_index(), 0u);  // the index taken back is played again
}

TEST_F(UndoTest, RefusedOnceAnotherSeatActedAndForAMoveThatRevealed) {
  const std::string room_id = Seat(std::nullopt);
  ASSERT_TRUE(first_->Call(ActionMsg(room_id, Place(0, 1))).has_accepted());
  // The second tile of two turns the cards over: it revealed their ranks.
  ASSERT_TRUE(second_->Call(ActionMsg(room_id, Place(1, 1))).has_accepted());
  second_->Drain(100ms);
  EXPECT_FALSE(second_->view(room_id).can_undo);
  EXPECT_EQ(ErrorOf(first_->Call(UndoMsg(room_id))), "undo_too_late");
  v1::ServerMessage unsafe = second_->Call(UndoMsg(room_id));
  EXPECT_EQ(ErrorOf(unsafe), "undo_unsafe");
  EXPECT_FALSE(unsafe.error().reason().empty());
  auto spectator = ConnectAs(server_->port(), "Eve");
  EXPECT_EQ(ErrorOf(spectator->Call(UndoMsg(room_id))), "not_seated");
}

TEST_F(UndoTest, RefusedWhenTheRoomDoesNotAllowIt) {
  const std::string room_id = Seat(false);
  EXPECT_FALSE(ada_->Call(PeekMsg(room_id)).room().undo());
  ASSERT_TRUE(first_->Call(ActionMsg(room_id, Place(0, 1))).has_accepted());
  first_->Drain(100ms);
  EXPECT_FALSE(first_->view(room_id).can_undo);
  EXPECT_EQ(ErrorOf(first_->Call(UndoMsg(room_id))), "undo_off");
}

// Taken back, the mover's clock resumes where it stood before the move: the time it thought
// before moving stays spent, where a clock started afresh would show the whole allowance again.
TEST_F(UndoTest, TheMoversClockResumesAsBeforeTheMove) {
  v1::ClientMessage create = CreateMsg(std::nullopt);
  v1::TurnTimer* timer = create.mutable_create_room()->mutable_timer();
  timer->set_mode(v1::TIMER_PER_MOVE);
  timer->set_per_move_seconds(30);
  ada_ = ConnectAs(server_->port(), "Ada", &wa_);
  bob_ = ConnectAs(server_->port(), "Bob", &wb_);
  const std::string room_id = StartGameIn(*ada_, *bob_, create);
  const int first_seat = ada_->view(room_id).acting.at(0);
  TestClient* first = first_seat == 0 ? ada_.get() : bob_.get();
  std::this_thread::sleep_for(2s);  // thinking
  ASSERT_TRUE(first->Call(ActionMsg(room_id, Place(0, 1))).has_accepted());
  const v1::RoomInfo moved = ada_->Call(PeekMsg(room_id)).room();
  EXPECT_FALSE(moved.seats(first_seat).clock().running());
  EXPECT_TRUE(moved.seats(1 - first_seat).clock().running());
  ASSERT_TRUE(first->Call(UndoMsg(room_id)).has_ok());
  const v1::RoomInfo back = ada_->Call(PeekMsg(room_id)).room();
  EXPECT_TRUE(back.seats(first_seat).clock().running());
  EXPECT_FALSE(back.seats(1 - first_seat).clock().running());
  EXPECT_LT(back.seats(first_seat).clock().remaining_ms(), 28'500u);
  EXPECT_GT(back.seats(first_seat).clock().remaining_ms(), 20'000u);
}

TEST_F(UndoTest, ATakeBackSurvivesARestartAndTheReplayPlaysWithoutIt) {
  const std::string room_id = Seat(std::nullopt);
  const std::string game_id = ada_->Call(PeekMsg(room_id)).room().game_id();
  const int first_seat = first_ == ada_.get() ? 0 : 1;
  ASSERT_TRUE(first_->Call(ActionMsg(room_id, Place(0, 1))).has_accepted());
  ASSERT_TRUE(first_->Call(UndoMsg(room_id)).has_ok());
  const auto taken_back = ServerViews(room_id);
  ada_.reset();
  bob_.reset();
  Restart();  // acknowledged means stored: the new server reads the log without the move
  const auto restored = ServerViews(room_id);
  EXPECT_EQ(restored.first, taken_back.first);
  auto stored = server_->store().LoadGame(game_id);
  ASSERT_TRUE(stored.ok() && stored.value().has_value());
  EXPECT_EQ(stored.value()->actions_size(), 0);

  // The game goes on to its end; its replay is the game without the move taken back.
  TestClient first(server_->port()), second(server_->port());
  ASSERT_TRUE(first.Call(HelloToken(first_seat == 0 ? wa_.token() : wb_.token())).has_welcome());
  ASSERT_TRUE(second.Call(HelloToken(first_seat == 0 ? wb_.token() : wa_.token())).has_welcome());
  for (TestClient* c : {&first, &second}) {
    ASSERT_TRUE(c->Call(JoinMsg(room_id)).has_room());
    ASSERT_TRUE(c->Call(ResyncMsg(room_id, 0)).has_ok());
  }
  ASSERT_TRUE(first.Call(ActionMsg(room_id, Place(2, 3))).has_accepted());
  const engine::Game& game = *engine::Registry::Find("globalissimo");
  engine::Rng rng(5);
  for (int step = 0; step < 200 && !first.view(room_id).game_over; ++step) {
    for (TestClient* c : {&first, &second}) {
      c->Drain(50ms);
      const HeldView& held = c->view(room_id);
      if (held.game_over) break;
      if (std::find(held.acting.begin(), held.acting.end(), held.seat) == held.acting.end()) continue;
      for (const auto& move : engine::BotMoves(game, *held.view, held.seat, engine::BotLevel::kEasy, rng)) {
        if (c->Call(ActionMsg(room_id, move->SerializeAsString())).has_accepted()) break;
      }
    }
  }
  first.Drain(100ms);
  ASSERT_TRUE(first.view(room_id).game_over);
  stored = server_->store().LoadGame(game_id);
  ASSERT_TRUE(stored.ok() && stored.value().has_value());
  const v1::GameRecord& record = *stored.value();
  ASSERT_GT(record.actions_size(), 0);
  EXPECT_EQ(record.actions(0).action(), Place(2, 3));  // the move made again, not the one taken back
  std::vector<engine::LoggedAction> log;
  for (const auto& a : record.actions()) log.push_back({a.seat(), a.action()});
  auto replayed = game.Replay(2, record.options(), record.seed(), log);
  ASSERT_TRUE(replayed.ok()) << replayed.status().ToString();
  EXPECT_TRUE(replayed.value()->IsTerminal());
  EXPECT_EQ(WireView(*replayed.value(), first_seat),
            engine::DeterministicBytes(*first.view(room_id).view));
}

// A take-back is one version more while the log is one shorter: a restored game numbers its
// versions as the live one did, so a client away across the restart, holding a version from
// before the take-back, is brought to the position the game has now.
TEST_F(UndoTest, AClientAwayAcrossARestartAfterATakeBackResyncsToTheRightPosition) {
  const std::string room_id = Seat(std::nullopt);
  const int first_seat = first_ == ada_.get() ? 0 : 1;
  ASSERT_TRUE(first_->Call(ActionMsg(room_id, Place(0, 1))).has_accepted());
  first_->Drain(100ms);
  // What the first seat held after its move (version 2) when its connection dropped.
  const HeldView& held = first_->view(room_id);
  ASSERT_EQ(held.version, 2u);
  std::unique_ptr<google::protobuf::Message> away(held.view->New());
  away->CopyFrom(*held.view);
  ASSERT_TRUE(first_->Call(UndoMsg(room_id)).has_ok());
  ASSERT_TRUE(first_->Call(ActionMsg(room_id, Place(1, 2))).has_accepted());
  const auto live = ServerViews(room_id);
  EXPECT_EQ(live.second, 4u);  // two moves and a take-back
  ada_.reset();
  bob_.reset();
  Restart();
  const auto restored = ServerViews(room_id);
  EXPECT_EQ(restored.first, live.first);
  EXPECT_EQ(restored.second, live.second);

  TestClient back(server_->port());
  ASSERT_TRUE(back.Call(HelloToken(first_seat == 0 ? wa_.token() : wb_.token())).has_welcome());
  ASSERT_TRUE(back.Call(JoinMsg(room_id)).has_room());
  back.Drain(100ms);
  HeldView& mine = back.view(room_id);
  mine.view = std::move(away);
  mine.version = 2;
  mine.seat = first_seat;
  ASSERT_TRUE(back.Call(ResyncMsg(room_id, 2)).has_ok());
  back.Drain(200ms);
  EXPECT_EQ(back.view(room_id).version, restored.second);
  EXPECT_EQ(engine::DeterministicBytes(*back.view(room_id).view),
            restored.first[static_cast<size_t>(first_seat)]);
}

// After a take-back nobody may take back, not even the move before it; a restart keeps it so.
TEST_F(UndoTest, NobodyMayTakeBackAfterATakeBackEvenAcrossARestart) {
  v1::ClientMessage create = CreateMsg(std::nullopt);
  create.mutable_create_room()->set_seats(3);
  std::vector<v1::Welcome> welcomes(3);
  std::vector<std::unique_ptr<TestClient>> clients;
  for (const char* name : {"Ada", "Bob", "Cyd"})
    clients.push_back(ConnectAs(server_->port(), name, &welcomes[clients.size()]));
  const v1::ServerMessage created = clients[0]->Call(create);
  ASSERT_TRUE(created.has_room());
  const std::string room_id = created.room().room_id();
  for (size_t i = 1; i < 3; ++i) {
    ASSERT_TRUE(clients[i]->Call(JoinMsg(room_id)).has_room());
    ASSERT_TRUE(clients[i]->Call(ReadyMsg(room_id)).has_ok());
  }
  ASSERT_TRUE(clients[0]->Call(StartMsg(room_id)).has_ok());
  auto drain = [&] {
    for (auto& c : clients) c->Drain(100ms);
  };
  drain();
  // The client in the seat that acts now.
  auto acting = [&]() -> size_t {
    const int seat = clients[0]->view(room_id).acting.at(0);
    for (size_t i = 0; i < clients.size(); ++i)
      if (clients[i]->view(room_id).seat == seat) return i;
    ADD_FAILURE() << "no client in seat " << seat;
    return 0;
  };
  const size_t one = acting();
  ASSERT_TRUE(clients[one]->Call(ActionMsg(room_id, Place(0, 1))).has_accepted());
  drain();
  const size_t two = acting();
  ASSERT_NE(two, one);
  v1::ServerMessage moved = clients[two]->Call(ActionMsg(room_id, Place(1, 2)));
  ASSERT_TRUE(moved.has_accepted()) << moved.DebugString();
  drain();
  ASSERT_TRUE(clients[two]->view(room_id).can_undo);  // not the round's last tile
  ASSERT_TRUE(clients[two]->Call(UndoMsg(room_id)).has_ok());
  drain();
  EXPECT_FALSE(clients[one]->view(room_id).can_undo);
  EXPECT_EQ(ErrorOf(clients[one]->Call(UndoMsg(room_id))), "nothing_to_undo");

  clients.clear();
  Restart();
  for (size_t i : {one, two}) {
    TestClient back(server_->port());
    ASSERT_TRUE(back.Call(HelloToken(welcomes[i].token())).has_welcome());
    ASSERT_TRUE(back.Call(JoinMsg(room_id)).has_room());
    ASSERT_TRUE(back.Call(ResyncMsg(room_id, 0)).has_ok());
    back.Drain(100ms);
    EXPECT_FALSE(back.view(room_id).can_undo) << "client " << i;
    EXPECT_EQ(ErrorOf(back.Call(UndoMsg(room_id))), "nothing_to_undo") << "client " << i;
  }
  EXPECT_EQ(ServerViews(room_id).second, 4u);  // two moves and a take-back, as live
}

// A bot due to move next is still thinking (it waits before each move) when the move before it
// is taken back: what it chose for the position taken back is dropped, not played on the
// position now; it moves once the game comes back to it.
TEST_F(UndoTest, ABotDueNextDoesNotPlayOnThePositionTakenBack) {
  server_->server().lobby().SetBotDelay(400ms);
  ada_ = ConnectAs(server_->port(), "Ada", &wa_);
  v1::ServerMessage created = ada_->Call(CreateMsg(std::nullopt));
  ASSERT_TRUE(created.has_room());
  const std::string room_id = created.room().room_id();
  v1::ClientMessage add;
  add.mutable_add_bot()->set_room_id(room_id);
  add.mutable_add_bot()->set_seat(1);
  add.mutable_add_bot()->set_level(v1::BOT_EASY);
  ASSERT_TRUE(ada_->Call(add).has_room());
  ASSERT_TRUE(ada_->Call(StartMsg(room_id)).has_ok());
  ada_->Drain(100ms);
  if (ada_->view(room_id).acting != std::vector<int>{0}) {
    // The bot began: its first move, then Ada's turn.
    ASSERT_TRUE(ada_->WaitPush([&](const v1::ServerMessage&) {
      return ada_->view(room_id).acting == std::vector<int>{0};
    }, 3s));
  }
  const auto before = ServerViews(room_id);
  ASSERT_TRUE(ada_->Call(ActionMsg(room_id, Place(0, 1))).has_accepted());
  ASSERT_TRUE(ada_->Call(UndoMsg(room_id)).has_ok()) << "the bot moved within its delay";
  std::this_thread::sleep_for(800ms);  // the bot's delay is over, its choice came back
  const auto after = ServerViews(room_id);
  EXPECT_EQ(after.first, before.first);
  EXPECT_EQ(after.second, before.second + 2);

  ASSERT_TRUE(ada_->Call(ActionMsg(room_id, Place(1, 2))).has_accepted());
  std::this_thread::sleep_for(800ms);
  const auto answered = ServerViews(room_id);
  EXPECT_EQ(answered.second, before.second + 4) << "the bot moved once, after Ada's new move";
}

// SIGTERM while a take-back waits on the store: it was taken before the signal, so it is answered
// before the connection closes, with 1001.
TEST_F(UndoTest, OnSignalATakeBackBeingStoredIsAnsweredBeforeTheClose) {
  const std::string room_id = Seat(std::nullopt);
  ASSERT_TRUE(first_->Call(ActionMsg(room_id, Place(0, 1))).has_accepted());
  server_->gate().Hold();
  const uint64_t undo = first_->Send(UndoMsg(room_id));
  for (int i = 0; i < 200 && server_->gate().waiting() == 0; ++i) std::this_thread::sleep_for(5ms);
  ASSERT_EQ(server_->gate().waiting(), 1);

  std::thread signal([&] { server_->StopAsOnSignal(); });
  std::this_thread::sleep_for(100ms);
  server_->gate().Release();

  EXPECT_TRUE(first_->WaitReply(undo, 3s).has_ok()) << "the take-back taken before the signal";
  EXPECT_TRUE(first_->WaitClosed(3s));
  EXPECT_EQ(first_->close_code(), 1001);
  signal.join();  // (the other client reads nothing, so its close waits for the deadline)
}

}  // namespace
}  // namespace plateau::server::testing
