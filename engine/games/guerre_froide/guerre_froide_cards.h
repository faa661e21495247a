#pragma once
// Guerre Froide's printed cards (data/cards.textproto, a StaticData): parsed and checked against
// what the rules rely on, so a card file that breaks a rule's assumption fails at start-up with
// the card and the reason rather than in the middle of a game.
#include <string_view>

#include "engine/core/status.h"
#include "games/guerre_froide.pb.h"

namespace plateau::games::guerre_froide {

// The box's counts, which the rules and the conformance invariants rely on.
inline constexpr int kObjectives = 21;  // 15 nations and 6 events
inline constexpr int kEvents = 6;
inline constexpr int kGroups = 24;      // 6 per faction, one of each influence 1 to 6
inline constexpr int kMaxInfluence = 6;

// The service seat `seat` plays: the KGB, the CIA, then MI6 (seat colours red, blue, then the
// third; RULES.md, "Services").
inline Service ServiceOf(int seat) {
  constexpr Service kBySeat[] = {SERVICE_KGB, SERVICE_CIA, SERVICE_MI6};
  return seat >= 0 && seat < 3 ? kBySeat[seat] : SERVICE_UNSPECIFIED;
}

// The phase in which the rules let an event's owner use its ability.
Phase EventPhase(EventAbility event);
// The initiative the rules resolve `kind` at (0 for AGENT_UNSPECIFIED).
uint32_t Initiative(AgentKind kind);

// Parses the card file (`name` is used in messages) and checks it.
engine::StatusOr<StaticData> ParseCards(std::string_view name, std::string_view text);
// "" or the first thing in `cards` the rules cannot play with.
std::string CheckCards(const StaticData& cards);

}  // namespace plateau::games::guerre_froide
