// Guerre Froide played through the real server over loopback: three WebSocket clients (CIA, KGB,
// MI6) and a spectator. The players create and join a room and play to a winner choosing every
// move from their own views, applying Diffs like a real client; along the way no client ever holds
// another player's Agent X before the reveal, nor the cards another player alone looks at. At the
// end each view is the server's view for that seat, and the stored replay reproduces it.
//
// Skipped while Guerre Froide is not registered in the server's game list.
#include <gtest/gtest.h>

#include "engine/core/game.h"
#include "engine/core/registry.h"
#include "engine/core/table.h"
#include "games/guerre_froide.pb.h"
#include "test_support.h"

namespace plateau::server::testing {
namespace {

namespace gf = plateau::games::guerre_froide;

const engine::Game& Game() { return *engine::Registry::Find("guerre_froide"); }

const gf::StaticData& Cards() { return static_cast<const gf::StaticData&>(*Game().StaticData()); }

uint32_t InfluenceOf(const std::string& group) {
  for (const auto& g : Cards().groups()) {
    if (g.id() == group) return g.influence();
  }
  return 0;
}

gf::Faction FactionOf(const std::string& group) {
  for (const auto& g : Cards().groups()) {
    if (g.id() == group) return g.faction();
  }
  return gf::FACTION_UNSPECIFIED;
}

const gf::ObjectiveCard* ObjectiveOf(const std::string& id) {
  for (const auto& o : Cards().objectives()) {
    if (o.id() == id) return &o;
  }
  return nullptr;
}

// The move a careful client makes for `seat` from its own view: it answers its question plainly,
// picks its agents in turn, opens the struggle itself, recruits while an average group still fits
// under the stability and passes otherwise. Empty when the view asks nothing of this seat.
std::string ChooseAction(const HeldView& held, int seat, int turn_salt) {
  const auto& view = static_cast<const gf::View&>(*held.view);
  if (view.table().prompts_size() > 0) {
    const auto& prompt = view.table().prompts(0);
    return Game().WrapAnswer(engine::PlainAnswer(prompt, Game().OptionsOf(prompt)))
        ->SerializeAsString();
  }
  if (std::find(held.acting.begin(), held.acting.end(), seat) == held.acting.end()) return {};
  const gf::Player& me = view.players(seat);
  gf::Action a;
  if (view.phase() == gf::PHASE_PLANNING) {
    std::vector<gf::AgentKind> free;
    for (const auto& agent : me.agents()) {
      if (agent.status() == gf::AGENT_IN_HEADQUARTERS) free.push_back(agent.kind());
    }
    if (free.empty()) return {};
    a.mutable_choose_agent()->set_agent(free[static_cast<size_t>(turn_salt) % free.size()]);
    return a.SerializeAsString();
  }
  if (view.phase() != gf::PHASE_STRUGGLE) return {};
  if (view.to_act() < 0) {
    a.mutable_choose_first()->set_seat(static_cast<uint32_t>(seat));
    return a.SerializeAsString();
  }
  const gf::ObjectiveCard* objective = ObjectiveOf(view.objective());
  if (objective == nullptr) return {};
  uint32_t influence = 0;
  for (const auto& g : me.groups()) influence += InfluenceOf(g.id());
  // Now and then a ready Media group looks at the top of the group deck, so the game's private
  // looks travel over the wire too.
  for (const auto& g : me.groups()) {
    if (!g.mobilized() && FactionOf(g.id()) == gf::FACTION_MEDIA && turn_salt % 2 == 0) {
      a.mutable_activate()->set_group(g.id());
      return a.SerializeAsString();
    }
  }
  const bool room = me.groups_size() < static_cast<int>(objective->population());
  if (me.groups_size() == 0 || (room && influence + 4 <= objective->stability())) {
    a.mutable_recruit();
  } else {
    a.mutable_pass();
  }
  return a.SerializeAsString();
}

// What `viewer` holds of the others: never an Agent X before it is revealed (the Debriefing, or
// civil disorder at the Cease-fire), never cards only another player is looking at.
void CheckNothingHidden(const gf::View& view, int viewer) {
  // A Double Agent's "see" shows the others' choices to its player during Planning.
  const bool seer =
      viewer >= 0 && view.phase() == gf::PHASE_PLANNING && view.players(viewer).sees_next();
  for (const auto& p : view.players()) {
    if (static_cast<int>(p.seat()) == viewer || seer) continue;
    if (view.phase() == gf::PHASE_PLANNING || view.phase() == gf::PHASE_STRUGGLE) {
      for (const auto& agent : p.agents()) {
        EXPECT_NE(agent.status(), gf::AGENT_X)
            << "seat " << viewer << " sees seat " << p.seat() << "'s Agent X in phase "
            << gf::Phase_Name(view.phase());
      }
    }
  }
  const bool asked = view.table().prompts_size() > 0;
  if (!asked) {
    EXPECT_EQ(view.looking_at_size(), 0) << "seat " << viewer << " sees cards it is not looking at";
  }
}

class GuerreFroideServerTest : public GameServerTest {
 protected:
  GuerreFroideServerTest() : GameServerTest("guerre_froide") {}
};

TEST_F(GuerreFroideServerTest, ThreeServicesPlayToAWinnerWithASpectator) {
  auto a = Connect("Ada");
  auto b = Connect("Bob");
  auto c = Connect("Cy");
  auto watcher = Connect("Eve");
  std::vector<TestClient*> players = {a.get(), b.get(), c.get()};
  v1::ClientMessage create;
  create.mutable_create_room()->set_game("guerre_froide");
  create.mutable_create_room()->set_seats(3);
  gf::Options options;
  options.set_cryptographer(gf::CRYPTOGRAPHER_DRAW);
  create.mutable_create_room()->set_options(options.SerializeAsString());
  const std::string room_id = StartRoom(*a, {b.get(), c.get()}, create);
  ASSERT_FALSE(HasFailure());
  ASSERT_TRUE(watcher->Call(SpectateMsg(room_id)).has_room());
  ASSERT_TRUE(watcher->WaitPush([](const v1::ServerMessage& m) { return m.has_snapshot(); }));
  std::vector<TestClient*> everyone = {a.get(), b.get(), c.get(), watcher.get()};
  const std::vector<TestClient*> by_seat = BySeat(room_id, players);
  ASSERT_FALSE(HasFailure());

  int looks = 0;  // views holding cards their seat alone looks at
  const int moves = PlayToTheEnd(room_id, by_seat, everyone, [&](HeldView& held, int seat) {
    const auto& view = static_cast<const gf::View&>(*held.view);
    CheckNothingHidden(view, seat);
    looks += view.looking_at_size() > 0;
    return ChooseAction(held, seat, static_cast<int>(view.turn()) + seat);
  }, 5000);
  ASSERT_TRUE(a->view(room_id).game_over) << "not over after " << moves << " moves";
  EXPECT_GT(looks, 0) << "no private look happened: the probe above checked nothing of them";
  CheckNothingHidden(static_cast<const gf::View&>(*watcher->view(room_id).view), -1);
  const auto& final_view = static_cast<const gf::View&>(*watcher->view(room_id).view);
  ASSERT_GE(final_view.winners_size(), 1);
  uint32_t best = 0;
  for (const auto& p : final_view.players()) best = std::max(best, p.score());
  for (int w : final_view.winners()) EXPECT_EQ(final_view.players(w).score(), best);
  CheckFinishedGame(room_id, by_seat, {watcher.get()}, moves);
}

}  // namespace
}  // namespace plateau::server::testing
