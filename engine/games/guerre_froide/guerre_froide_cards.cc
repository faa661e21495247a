#include "engine/games/guerre_froide/guerre_froide_cards.h"

#include <set>
#include <string>

#include "engine/core/data.h"

namespace plateau::games::guerre_froide {

Phase EventPhase(EventAbility event) {
  switch (event) {
    case EVENT_SPACE_RACE:
      return PHASE_DETENTE;
    case EVENT_NOBEL_PEACE_PRIZE:
      return PHASE_CEASE_FIRE;
    case EVENT_NUCLEAR_ESCALATION:
    case EVENT_LIVE_BENEFIT:
    case EVENT_OLYMPIC_GAMES:
      return PHASE_STRUGGLE;
    case EVENT_SUMMIT_MEETING:
      return PHASE_PLANNING;
    default:
      return PHASE_UNSPECIFIED;
  }
}

uint32_t Initiative(AgentKind kind) {
  switch (kind) {
    case AGENT_MASTER_SPY:
      return 1;
    case AGENT_DEPUTY_DIRECTOR:
      return 2;
    case AGENT_DOUBLE_AGENT:
      return 3;
    case AGENT_ANALYST:
      return 4;
    case AGENT_AMBASSADOR:
    case AGENT_ASSASSIN:
      return 5;  // resolved at the same moment
    case AGENT_DIRECTOR:
      return 6;
    case AGENT_CRYPTOGRAPHER_DRAW:
    case AGENT_CRYPTOGRAPHER_BIAS:
      return 7;
    default:
      return 0;
  }
}

namespace {

std::string Quoted(const std::string& id) { return "'" + id + "'"; }

std::string CheckObjectives(const StaticData& cards) {
  if (cards.objectives_size() != kObjectives) {
    return "expected " + std::to_string(kObjectives) +
           " objectives (15 nations and 6 events), found " +
           std::to_string(cards.objectives_size()) + ".";
  }
  std::set<std::string> ids;
  std::set<int> events;
  for (int i = 0; i < cards.objectives_size(); ++i) {
    const ObjectiveCard& o = cards.objectives(i);
    const std::string where = "objective #" + std::to_string(i + 1) +
                              (o.id().empty() ? std::string() : " (" + Quoted(o.id()) + ")");
    if (o.id().empty()) return where + " has no id.";
    if (!ids.insert(o.id()).second) return "objective id " + Quoted(o.id()) + " is used twice.";
    if (o.name().empty()) return where + " has no name.";
    if (o.stability() < 1) return where + " has no stability.";
    if (o.population() < 1 || o.population() > 5) {
      return where + " has a population limit of " + std::to_string(o.population()) +
             "; the cards print 1 to 5.";
    }
    if (o.vp() < 5 || o.vp() > 20) {
      return where + " is worth " + std::to_string(o.vp()) + " VP; the cards print 5 to 20.";
    }
    std::set<int> bias(o.bias().begin(), o.bias().end());
    bias.erase(FACTION_UNSPECIFIED);
    if (o.bias_size() != 4 || bias.size() != 4) {
      return where + " must print each of the four factions once in its bias, largest first.";
    }
    if (o.event() == EVENT_NONE) {
      if (o.event_phase() != PHASE_UNSPECIFIED || !o.ability().empty()) {
        return where + " is a nation but has an event's phase or ability.";
      }
      continue;
    }
    if (!events.insert(o.event()).second) {
      return where + " repeats the ability " + EventAbility_Name(o.event()) + ".";
    }
    if (o.event_phase() != EventPhase(o.event())) {
      return where + " prints its ability in " + Phase_Name(o.event_phase()) +
             ", but the rules use it in " + Phase_Name(EventPhase(o.event())) + ".";
    }
    if (o.ability().empty()) return where + " is an event without its ability's text.";
  }
  if (static_cast<int>(events.size()) != kEvents) {
    return "expected " + std::to_string(kEvents) + " events, one of each ability, found " +
           std::to_string(events.size()) + ".";
  }
  return "";
}

std::string CheckGroups(const StaticData& cards) {
  if (cards.groups_size() != kGroups) {
    return "expected " + std::to_string(kGroups) + " groups, found " +
           std::to_string(cards.groups_size()) + ".";
  }
  std::set<std::string> ids;
  std::set<std::pair<int, uint32_t>> seen;  // (faction, influence)
  for (int i = 0; i < cards.groups_size(); ++i) {
    const GroupCard& g = cards.groups(i);
    const std::string where = "group #" + std::to_string(i + 1) +
                              (g.id().empty() ? std::string() : " (" + Quoted(g.id()) + ")");
    if (g.id().empty()) return where + " has no id.";
    if (!ids.insert(g.id()).second) return "group id " + Quoted(g.id()) + " is used twice.";
    if (g.name().empty()) return where + " has no name.";
    if (g.faction() == FACTION_UNSPECIFIED) return where + " has no faction.";
    if (g.influence() < 1 || g.influence() > kMaxInfluence) {
      return where + " has influence " + std::to_string(g.influence()) + "; groups have 1 to 6.";
    }
    if (!seen.insert({g.faction(), g.influence()}).second) {
      return where + " is a second " + Faction_Name(g.faction()) + " group of influence " +
             std::to_string(g.influence()) + "; each faction has one of each value.";
    }
  }
  return "";
}

std::string CheckAgents(const StaticData& cards) {
  std::set<int> kinds;
  for (int i = 0; i < cards.agents_size(); ++i) {
    const AgentCard& a = cards.agents(i);
    const std::string where = "agent #" + std::to_string(i + 1);
    if (a.kind() == AGENT_UNSPECIFIED) return where + " has no kind.";
    if (!kinds.insert(a.kind()).second) {
      return where + " repeats " + AgentKind_Name(a.kind()) + ".";
    }
    if (a.name().empty()) return where + " has no name.";
    if (a.initiative() != Initiative(a.kind())) {
      return where + " (" + a.name() + ") prints initiative " + std::to_string(a.initiative()) +
             ", but the rules resolve it at " + std::to_string(Initiative(a.kind())) + ".";
    }
    if (a.three_players_only() != (a.kind() == AGENT_AMBASSADOR)) {
      return where + " (" + a.name() + "): only the Ambassador is on the 3-player sheet alone.";
    }
    if (a.own().empty() || a.other().empty() || a.nobody().empty()) {
      return where + " (" + a.name() + ") must print all three boxes.";
    }
  }
  for (int k = AGENT_MASTER_SPY; k <= AGENT_CRYPTOGRAPHER_BIAS; ++k) {
    if (kinds.count(k) == 0) {
      return "no card for " + AgentKind_Name(static_cast<AgentKind>(k)) + ".";
    }
  }
  return "";
}

std::string CheckFactions(const StaticData& cards) {
  std::set<int> factions;
  for (const FactionPower& f : cards.factions()) {
    if (f.faction() == FACTION_UNSPECIFIED || !factions.insert(f.faction()).second) {
      return "each faction's power is printed once.";
    }
    if (f.name().empty() || f.power().empty()) {
      return Faction_Name(f.faction()) + " needs a name and its power's text.";
    }
  }
  if (factions.size() != 4) return "the four factions' powers must all be printed.";
  return "";
}

}  // namespace

std::string CheckCards(const StaticData& cards) {
  for (auto check : {CheckObjectives, CheckGroups, CheckAgents, CheckFactions}) {
    std::string why = check(cards);
    if (!why.empty()) return why;
  }
  return "";
}

engine::StatusOr<StaticData> ParseCards(std::string_view name, std::string_view text) {
  StaticData cards;
  engine::Status st = engine::ParseDataFile(name, text, &cards);
  if (!st.ok()) return st;
  std::string why = CheckCards(cards);
  if (!why.empty()) {
    return engine::Status(engine::codes::kBadData, "data file " + std::string(name) + ": " + why);
  }
  return cards;
}

}  // namespace plateau::games::guerre_froide
