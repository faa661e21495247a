// LIMIT played through the real server over loopback: three WebSocket clients create and join a
// room with the Alliance step, then play to the end choosing every move from their own views
// (the prompts say what each seat is asked), applying Diffs like a real client. At the end each
// client's view is the server's view for its seat, and the stored replay reproduces it.
//
// Skipped while LIMIT is not registered in the server's game list.
#include <gtest/gtest.h>

#include "engine/core/game.h"
#include "engine/core/registry.h"
#include "games/limit.pb.h"
#include "test_support.h"

namespace plateau::server::testing {
namespace {

namespace l = plateau::games::limit;

v1::ClientMessage CreateLimitRoom(uint32_t seats) {
  v1::ClientMessage m;
  auto* c = m.mutable_create_room();
  c->set_game("limit");
  c->set_is_private(false);
  c->set_seats(seats);
  l::Options options;
  options.set_alliances(true);
  c->set_options(options.SerializeAsString());
  return m;
}

// A card's key, from the game's static data (a view names cards by id only).
std::string Key(uint32_t card) {
  const auto* data = engine::Registry::Find("limit")->StaticData();
  const auto& cards = static_cast<const l::StaticData&>(*data).cards();
  return card < static_cast<uint32_t>(cards.size()) ? cards.Get(static_cast<int>(card)).key() : "";
}

uint32_t Group(const l::Nation& n, l::AllianceKind k) {
  return k == l::ALLIANCE_MILITARY ? n.military_alliance_group() : n.economic_alliance_group();
}

bool AccordSide(const l::Nation& n, l::AllianceKind k) {
  return k == l::ALLIANCE_MILITARY ? n.military_accord() : n.economic_accord();
}

uint32_t Stock(const l::Nation& n, l::Resource r) {
  switch (r) {
    case l::RESOURCE_RENEWABLE: return n.stocks().renewable();
    case l::RESOURCE_INDUSTRIAL: return n.stocks().industrial();
    case l::RESOURCE_MILITARY: return n.stocks().military();
    default: return n.stocks().fossil();
  }
}

// A proposal the rules accept, judged from the view alone: both tokens on their Negotiation
// side, not already allied, and the nations concerned can pay the fee together.
bool ProposalPossible(const l::View& view, int seat, l::AllianceKind k, int to) {
  const l::Nation& me = view.nations(seat);
  const l::Nation& other = view.nations(to);
  if (AccordSide(me, k) || AccordSide(other, k)) return false;
  if (Group(me, k) != 0 && Group(me, k) == Group(other, k)) return false;
  uint32_t money = 0;
  for (const auto& n : view.nations()) {
    const bool concerned = static_cast<int>(n.seat()) == seat || static_cast<int>(n.seat()) == to ||
                           (Group(n, k) != 0 && (Group(n, k) == Group(me, k) ||
                                                 Group(n, k) == Group(other, k)));
    if (concerned) money += n.money();
  }
  return money >= 2;
}

// The move a simple client makes for `seat` from its own view: it answers whatever its prompt
// asks, plays Artisanat when it can, proposes alliances when it may, accepts every proposal and
// pays its share. Empty when the view asks nothing of this seat.
std::string ChooseAction(const HeldView& held, int seat) {
  const auto& view = static_cast<const l::View&>(*held.view);
  const l::Prompt* prompt = nullptr;
  for (const auto& p : view.prompts())
    if (static_cast<int>(p.seat()) == seat) prompt = &p;
  if (prompt == nullptr) return {};
  const l::Nation& me = view.nations(seat);
  l::Action a;
  switch (prompt->kind()) {
    case l::PROMPT_CHOOSE_DECK:
      a.mutable_choose_deck()->set_deck(static_cast<l::Deck>(prompt->options(0)));
      break;
    case l::PROMPT_KEEP_CARDS:
      for (int i = 0; i < prompt->drawn_size(); ++i) {
        if (static_cast<uint32_t>(i) < prompt->count()) a.mutable_keep_cards()->add_keep(i);
        else a.mutable_keep_cards()->add_bottom(i);
      }
      break;
    case l::PROMPT_DISCARD:
      for (uint32_t i = 0; i < prompt->count(); ++i)
        a.mutable_discard()->add_cards(view.hand(static_cast<int>(i)).id());
      break;
    case l::PROMPT_POLITICAL_TURN: {
      if (prompt->cards_played_this_turn() == 0) {
        for (const auto& card : view.hand()) {
          if (Key(card.id()) == "craft" && card.playable()) {
            a.mutable_play_card()->set_card(card.id());
            a.mutable_play_card()->set_resource(l::RESOURCE_RENEWABLE);
            return a.SerializeAsString();
          }
        }
      }
      a.mutable_pass();
      break;
    }
    case l::PROMPT_RESIST:
      a.mutable_resist()->set_resist(false);
      break;
    case l::PROMPT_CONTRIBUTE:
      a.mutable_contribute()->set_amount(0);
      break;
    case l::PROMPT_RAISE_CLASS:
    case l::PROMPT_LOWER_CLASS:
      a.mutable_choose_class()->set_social_class(prompt->options(0));
      break;
    case l::PROMPT_LOWER_FACTORY:
    case l::PROMPT_GROWTH_FACTORY:
      a.mutable_choose_factory()->set_factory(static_cast<l::Factory>(prompt->options(0)));
      break;
    case l::PROMPT_ALLIANCE_TURN:
      for (l::AllianceKind k : {l::ALLIANCE_MILITARY, l::ALLIANCE_ECONOMIC})
        for (int to = 0; to < view.nations_size(); ++to)
          if (to != seat && ProposalPossible(view, seat, k, to)) {
            a.mutable_alliance_propose()->set_kind(k);
            a.mutable_alliance_propose()->set_to_seat(static_cast<uint32_t>(to));
            return a.SerializeAsString();
          }
      a.mutable_pass();
      break;
    case l::PROMPT_ALLIANCE_VOTE:
      a.mutable_alliance_vote()->set_accept(true);
      break;
    case l::PROMPT_ALLIANCE_FEE:
      a.mutable_contribute()->set_amount(std::min(me.money(), prompt->amount()));
      break;
    case l::PROMPT_HELP_REQUEST:
      a.mutable_request_help()->set_ask(true);
      break;
    case l::PROMPT_HELP_ANSWER:
      a.mutable_give_help()->set_amount(std::min(prompt->amount(), Stock(me, prompt->resource())));
      break;
    case l::PROMPT_BREAK_ALLIANCE:
      a.mutable_break_alliance()->set_do_break(false);
      break;
    default:
      ADD_FAILURE() << "no answer for prompt kind " << prompt->kind();
      return {};
  }
  return a.SerializeAsString();
}

class LimitServerTest : public GameServerTest {
 protected:
  LimitServerTest() : GameServerTest("limit") {}
};

TEST_F(LimitServerTest, ThreeNationsWithAlliancesPlayAFullGame) {
  auto a = Connect("Ada");
  auto b = Connect("Bob");
  auto c = Connect("Cy");
  std::vector<TestClient*> clients = {a.get(), b.get(), c.get()};
  const std::string room_id = StartRoom(*a, {b.get(), c.get()}, CreateLimitRoom(3));
  ASSERT_FALSE(HasFailure());
  // Each client plays the seat the server gave it.
  const std::vector<TestClient*> by_seat = BySeat(room_id, clients);
  ASSERT_FALSE(HasFailure());

  int proposals = 0;
  bool alliance_seen = false, alliance_step_seen = false;
  const int moves = PlayToTheEnd(
      room_id, by_seat, clients,
      [&](HeldView& held, int seat) {
        std::string action = ChooseAction(held, seat);
        l::Action parsed;
        if (!action.empty() && parsed.ParseFromString(action)) {
          proposals += parsed.has_alliance_propose() ? 1 : 0;
        }
        return action;
      },
      20000,
      [&] {
        const auto& view = static_cast<const l::View&>(*a->view(room_id).view);
        alliance_step_seen |= view.phase() == l::PHASE_ALLIANCE;
        for (const auto& n : view.nations())
          alliance_seen |= n.military_alliance() || n.economic_alliance();
      });
  ASSERT_TRUE(a->view(room_id).game_over) << "not over after " << moves << " moves";
  RecordProperty("moves", moves);
  RecordProperty("generation",
                 static_cast<int>(static_cast<const l::View&>(*a->view(room_id).view).generation()));
  EXPECT_TRUE(alliance_step_seen);
  EXPECT_GT(proposals, 0);
  EXPECT_TRUE(alliance_seen) << "no proposal was accepted and paid";
  CheckFinishedGame(room_id, by_seat, {}, moves);
}

}  // namespace
}  // namespace plateau::server::testing
