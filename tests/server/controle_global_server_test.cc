// Contrôle Global played through the real server over loopback: four WebSocket clients and a
// spectator. The players create and join a room and play to the end choosing every move from the
// moves their own views publish (as the easy bot does), applying Diffs like a real client; along
// the way no client ever holds another player's cards, nor any card face-down in civil society.
// At the end each view is the server's view for that seat, and the stored replay reproduces it.
//
// Skipped while Contrôle Global is not registered in the server's game list.
#include <gtest/gtest.h>

#include "engine/core/bot.h"
#include "engine/core/game.h"
#include "engine/core/registry.h"
#include "engine/core/rng.h"
#include "games/controle_global.pb.h"
#include "test_support.h"

namespace plateau::server::testing {
namespace {

namespace cg = plateau::games::controle_global;

const engine::Game& Game() { return *engine::Registry::Find("controle_global"); }

// What `viewer` holds of the others: their hands only as backs (how many cards, from which pile),
// never the cards themselves before the end; civil society only as backs.
void CheckNothingHidden(const cg::View& view, int viewer) {
  if (view.phase() == cg::PHASE_GAME_OVER) return;
  for (int s = 0; s < view.seats_size(); ++s) {
    const cg::SeatView& seat = view.seats(s);
    EXPECT_EQ(seat.hand_piles_size(), static_cast<int>(seat.cards_in_hand()));
    EXPECT_EQ(seat.hand_size(), 0) << "seat " << viewer << " sees seat " << s << "'s hand";
    if (s == viewer) {
      EXPECT_EQ(view.hand_size(), static_cast<int>(seat.cards_in_hand()));
    }
  }
  if (viewer < 0) {
    EXPECT_EQ(view.hand_size(), 0) << "a spectator holds a hand";
  }
}

class ControleGlobalServerTest : public GameServerTest {
 protected:
  ControleGlobalServerTest() : GameServerTest("controle_global") {}
};

TEST_F(ControleGlobalServerTest, FourOrganisationsPlayToTheEndWithASpectator) {
  auto a = Connect("Ada");
  auto b = Connect("Bob");
  auto c = Connect("Cy");
  auto d = Connect("Dee");
  auto watcher = Connect("Eve");
  std::vector<TestClient*> players = {a.get(), b.get(), c.get(), d.get()};
  v1::ClientMessage create;
  create.mutable_create_room()->set_game("controle_global");
  create.mutable_create_room()->set_seats(4);
  cg::Options options;
  options.set_end_rule(cg::END_ONE_AT_VI);
  create.mutable_create_room()->set_options(options.SerializeAsString());
  const std::string room_id = StartRoom(*a, {b.get(), c.get(), d.get()}, create);
  ASSERT_FALSE(HasFailure());
  ASSERT_TRUE(watcher->Call(SpectateMsg(room_id)).has_room());
  ASSERT_TRUE(watcher->WaitPush([](const v1::ServerMessage& m) { return m.has_snapshot(); }));
  std::vector<TestClient*> everyone = {a.get(), b.get(), c.get(), d.get(), watcher.get()};
  const std::vector<TestClient*> by_seat = BySeat(room_id, players);
  ASSERT_FALSE(HasFailure());

  engine::Rng rng(7);
  int cards_played = 0;
  int civil_seen = 0;  // views showing civil-society cards face down
  const int moves = PlayToTheEnd(room_id, by_seat, everyone, [&](HeldView& held, int seat) {
    const auto& view = static_cast<const cg::View&>(*held.view);
    CheckNothingHidden(view, seat);
    civil_seen += view.civil_piles_size() > 0;
    auto chosen = engine::BotMoves(Game(), view, seat, engine::BotLevel::kEasy, rng);
    if (chosen.empty()) return std::string();
    cards_played += static_cast<const cg::Action&>(*chosen[0]).has_play();
    return chosen[0]->SerializeAsString();
  }, 20000);
  ASSERT_TRUE(a->view(room_id).game_over) << "not over after " << moves << " moves";
  EXPECT_GT(cards_played, 0);
  EXPECT_GT(civil_seen, 0) << "civil society never held a card: the check above saw none";
  const auto& final_view = static_cast<const cg::View&>(*watcher->view(room_id).view);
  EXPECT_EQ(final_view.phase(), cg::PHASE_GAME_OVER);
  CheckFinishedGame(room_id, by_seat, {watcher.get()}, moves);
}

}  // namespace
}  // namespace plateau::server::testing
