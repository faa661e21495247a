// Guerre Froide's card file: the box's counts, every value the public sources give (RULES.md,
// "Components"), and the checks that refuse a card file the rules could not play with.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>

#include "engine/games/guerre_froide/guerre_froide_cards.h"

namespace plateau::data::guerre_froide {
extern const std::string_view kcards;
}

namespace plateau::games::guerre_froide {
namespace {

const StaticData& Box() {
  static const StaticData cards = [] {
    auto parsed = ParseCards("cards.textproto", ::plateau::data::guerre_froide::kcards);
    EXPECT_TRUE(parsed.ok()) << parsed.status().reason();
    return parsed.ok() ? parsed.value() : StaticData();
  }();
  return cards;
}

const ObjectiveCard* ObjectiveNamed(const std::string& name) {
  for (const auto& o : Box().objectives()) {
    if (o.name() == name) return &o;
  }
  return nullptr;
}

const GroupCard* GroupNamed(const std::string& name) {
  for (const auto& g : Box().groups()) {
    if (g.name() == name) return &g;
  }
  return nullptr;
}

TEST(GuerreFroideCards, TheBoxHoldsFifteenNationsSixEventsAndTwentyFourGroups) {
  int nations = 0, events = 0;
  for (const auto& o : Box().objectives()) (o.event() == EVENT_NONE ? nations : events)++;
  EXPECT_EQ(nations, 15);
  EXPECT_EQ(events, 6);
  std::map<int, std::set<uint32_t>> by_faction;
  for (const auto& g : Box().groups()) by_faction[g.faction()].insert(g.influence());
  ASSERT_EQ(by_faction.size(), 4u);
  for (const auto& [faction, values] : by_faction) {
    EXPECT_EQ(values, (std::set<uint32_t>{1, 2, 3, 4, 5, 6})) << Faction_Name(faction);
  }
}

// The worked example of the base rules: Cuba, 10 VP, bias economic > military > political >
// media; two players at 9 influence were not in civil disorder, and one held three groups.
TEST(GuerreFroideCards, CubaIsTheWorkedExamplesCard) {
  const ObjectiveCard* cuba = ObjectiveNamed("Cuba");
  ASSERT_NE(cuba, nullptr);
  EXPECT_EQ(cuba->event(), EVENT_NONE);
  EXPECT_EQ(cuba->vp(), 10u);
  EXPECT_GE(cuba->stability(), 9u);
  EXPECT_GE(cuba->population(), 3u);
  ASSERT_EQ(cuba->bias_size(), 4);
  EXPECT_EQ(cuba->bias(0), FACTION_ECONOMIC);
  EXPECT_EQ(cuba->bias(1), FACTION_MILITARY);
  EXPECT_EQ(cuba->bias(2), FACTION_POLITICAL);
  EXPECT_EQ(cuba->bias(3), FACTION_MEDIA);
}

TEST(GuerreFroideCards, TheNationsAndEventsThePublicSourcesNameAreInTheDeck) {
  for (const char* name : {"Cuba", "Czechoslovakia", "Afghanistan", "Korea", "Vietnam", "Honduras",
                           "Egypt", "Turkey"}) {
    const ObjectiveCard* o = ObjectiveNamed(name);
    ASSERT_NE(o, nullptr) << name;
    EXPECT_EQ(o->event(), EVENT_NONE) << name;
  }
  const std::map<std::string, EventAbility> events = {
      {"Space Race", EVENT_SPACE_RACE},
      {"Nobel Peace Prize", EVENT_NOBEL_PEACE_PRIZE},
      {"Nuclear Escalation", EVENT_NUCLEAR_ESCALATION},
      {"Live Benefit", EVENT_LIVE_BENEFIT},
      {"Olympic Games", EVENT_OLYMPIC_GAMES},
      {"Summit Meeting", EVENT_SUMMIT_MEETING}};
  for (const auto& [name, ability] : events) {
    const ObjectiveCard* o = ObjectiveNamed(name);
    ASSERT_NE(o, nullptr) << name;
    EXPECT_EQ(o->event(), ability) << name;
  }
  // The two abilities the base rule book prints, in their phases.
  EXPECT_EQ(ObjectiveNamed("Space Race")->event_phase(), PHASE_DETENTE);
  EXPECT_EQ(ObjectiveNamed("Nobel Peace Prize")->event_phase(), PHASE_CEASE_FIRE);
}

TEST(GuerreFroideCards, TheGroupsOfTheWorkedExampleKeepTheirValues) {
  const std::map<std::string, std::pair<Faction, uint32_t>> known = {
      {"Opposition", {FACTION_POLITICAL, 5}},
      {"Industry", {FACTION_ECONOMIC, 4}},
      {"Newspapers", {FACTION_MEDIA, 4}},
      {"Food Companies", {FACTION_ECONOMIC, 3}},
      {"Mafia", {FACTION_ECONOMIC, 2}}};
  for (const auto& [name, value] : known) {
    const GroupCard* g = GroupNamed(name);
    ASSERT_NE(g, nullptr) << name;
    EXPECT_EQ(g->faction(), value.first) << name;
    EXPECT_EQ(g->influence(), value.second) << name;
  }
}

TEST(GuerreFroideCards, TheBaseAgentsResolveInTheBooksOrder) {
  std::map<AgentKind, uint32_t> initiative;
  for (const auto& a : Box().agents()) initiative[a.kind()] = a.initiative();
  EXPECT_EQ(initiative[AGENT_MASTER_SPY], 1u);
  EXPECT_EQ(initiative[AGENT_DEPUTY_DIRECTOR], 2u);
  EXPECT_EQ(initiative[AGENT_DOUBLE_AGENT], 3u);
  EXPECT_EQ(initiative[AGENT_ANALYST], 4u);
  EXPECT_EQ(initiative[AGENT_ASSASSIN], 5u);
  EXPECT_EQ(initiative[AGENT_DIRECTOR], 6u);
  // The variant resolves Ambassadors with Assassins; the optional agent is number 7.
  EXPECT_EQ(initiative[AGENT_AMBASSADOR], 5u);
  EXPECT_EQ(initiative[AGENT_CRYPTOGRAPHER_DRAW], 7u);
  EXPECT_EQ(initiative[AGENT_CRYPTOGRAPHER_BIAS], 7u);
}

// Each check refuses a card file that breaks it, naming the card and the reason.
TEST(GuerreFroideCards, ACardFileTheRulesCannotPlayIsRefusedWithTheReason) {
  struct Case {
    const char* what;
    std::function<void(StaticData&)> edit;
    const char* reason;
  };
  const Case cases[] = {
      {"a missing objective", [](StaticData& c) { c.mutable_objectives()->RemoveLast(); },
       "expected 21 objectives"},
      {"a population of 6", [](StaticData& c) { c.mutable_objectives(0)->set_population(6); },
       "population limit of 6"},
      {"25 VP", [](StaticData& c) { c.mutable_objectives(0)->set_vp(25); }, "worth 25 VP"},
      {"a bias without media",
       [](StaticData& c) {
         auto* bias = c.mutable_objectives(0)->mutable_bias();
         for (int i = 0; i < bias->size(); ++i) {
           if (bias->Get(i) == FACTION_MEDIA) bias->Set(i, FACTION_MILITARY);
         }
       },
       "each of the four factions once"},
      {"an event used in the wrong phase",
       [](StaticData& c) {
         for (auto& o : *c.mutable_objectives()) {
           if (o.event() == EVENT_SPACE_RACE) o.set_event_phase(PHASE_PLANNING);
         }
       },
       "but the rules use it in PHASE_DETENTE"},
      {"two groups of one value",
       [](StaticData& c) {
         for (auto& g : *c.mutable_groups()) {
           if (g.faction() == FACTION_MILITARY && g.influence() == 1) g.set_influence(2);
         }
       },
       "second FACTION_MILITARY group of influence 2"},
      {"a group of influence 7", [](StaticData& c) { c.mutable_groups(0)->set_influence(7); },
       "influence 7"},
      {"a reordered agent",
       [](StaticData& c) {
         for (auto& a : *c.mutable_agents()) {
           if (a.kind() == AGENT_ASSASSIN) a.set_initiative(4);
         }
       },
       "the rules resolve it at 5"},
      {"a missing agent",
       [](StaticData& c) {
         auto* agents = c.mutable_agents();
         for (int i = 0; i < agents->size(); ++i) {
           if (agents->Get(i).kind() == AGENT_DIRECTOR) agents->DeleteSubrange(i, 1);
         }
       },
       "no card for AGENT_DIRECTOR"},
      {"a duplicate id", [](StaticData& c) { c.mutable_groups(1)->set_id(c.groups(0).id()); },
       "is used twice"},
  };
  ASSERT_EQ(CheckCards(Box()), "");
  for (const Case& c : cases) {
    StaticData cards = Box();
    c.edit(cards);
    EXPECT_NE(CheckCards(cards).find(c.reason), std::string::npos)
        << c.what << ": " << CheckCards(cards);
  }
  auto malformed = ParseCards("cards.textproto", "objectives { stability: \"high\" }");
  ASSERT_FALSE(malformed.ok());
  EXPECT_NE(malformed.status().reason().find("cards.textproto"), std::string::npos)
      << malformed.status().reason();
}

}  // namespace
}  // namespace plateau::games::guerre_froide
