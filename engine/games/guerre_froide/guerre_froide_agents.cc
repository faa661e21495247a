// Guerre Froide: the Debriefing, agent by agent in initiative order (RULES.md, "Agents").
#include <algorithm>

#include "engine/games/guerre_froide/guerre_froide.h"

namespace plateau::games::guerre_froide {

using engine::Seat;
using engine::T;

namespace {

// Of several agents of one kind, the one whose service dominates acts, or none (the variant's
// rule for doubles, and the base game's for Double Agents).
std::vector<int> OnlyDominating(const std::vector<int>& seats, int dominating) {
  std::vector<int> out;
  for (int s : seats) {
    if (s == dominating) out.push_back(s);
  }
  return out;
}

}  // namespace

void GuerreFroideState::ResolveInitiative(uint32_t initiative, bool* waiting) {
  const int dominating = s_.dominating();
  const uint32_t objective = static_cast<uint32_t>(s_.objective());
  switch (initiative) {
    case 1: {  // Master Spy: the objective goes to someone other than the dominating player.
      const std::vector<int> all = AgentsOfKind(AGENT_MASTER_SPY);
      std::vector<int> spies = all;
      if (spies.size() >= 2) spies = OnlyDominating(spies, dominating);
      NoEffectExcept(all, spies, AGENT_MASTER_SPY);
      for (int seat : spies) {
        if (s_.objective_settled() || dominating < 0) {
          NoEffectExcept({seat}, {}, AGENT_MASTER_SPY);
          continue;
        }
        int heir = seat;
        if (dominating == seat) heir = Seats() == 2 ? 1 - seat : s_.runner_up();
        Outcome(seat, AGENT_MASTER_SPY, true, T("guerre_froide.master_spy", Seat{seat}));
        if (heir < 0) {
          ObjectiveToBottom();
        } else {
          Claim(heir, objective);
        }
      }
      break;
    }
    case 3: {  // Double Agent: see next turn, or send an opponent's agent on leave.
      const std::vector<int> all = AgentsOfKind(AGENT_DOUBLE_AGENT);
      std::vector<int> doubles = all;
      if (doubles.size() >= 2) doubles = OnlyDominating(doubles, dominating);
      if (doubles.empty() || S(doubles[0]).agent_acted()) {
        NoEffectExcept(all, doubles, AGENT_DOUBLE_AGENT);
        break;
      }
      const int seat = doubles[0];
      bool can_send = false;
      for (int o = 0; o < Seats(); ++o) {
        if (o == seat) continue;
        for (uint32_t a : S(o).hq()) can_send |= a != AGENT_DEPUTY_DIRECTOR;
      }
      if (can_send) {
        AskSeat(internal::ASK_DOUBLE_AGENT, seat);
        *waiting = true;
        return;
      }
      M(seat).set_agent_acted(true);
      M(seat).set_sees_next(true);
      Outcome(seat, AGENT_DOUBLE_AGENT, true, T("guerre_froide.double_agent_sees", Seat{seat}));
      NoEffectExcept(all, doubles, AGENT_DOUBLE_AGENT);
      break;
    }
    case 4: {  // Analyst: order the top groups next Briefing.
      const std::vector<int> all = AgentsOfKind(AGENT_ANALYST);
      std::vector<int> analysts = all;
      if (analysts.size() >= 2) {
        if (Seats() == 2) {
          // The base game: the one whose service did not place its token.
          std::vector<int> others;
          for (int s : analysts) {
            if (dominating >= 0 && s != dominating) others.push_back(s);
          }
          analysts = others;
        } else {
          analysts = OnlyDominating(analysts, dominating);
        }
      }
      NoEffectExcept(all, analysts, AGENT_ANALYST);
      for (int seat : analysts) {
        M(seat).set_analyst_next(true);
        Outcome(seat, AGENT_ANALYST, true, T("guerre_froide.analyst", Seat{seat}));
      }
      break;
    }
    case 5: {  // Assassins and Ambassadors: gathered (deferred), then resolved one by one.
      for (int seat = 0; seat < Seats(); ++seat) {
        const AgentKind x = AgentX(seat);
        if ((x != AGENT_ASSASSIN && x != AGENT_AMBASSADOR) || S(seat).agent_acted()) continue;
        std::vector<uint32_t> targets;
        const bool own = dominating == seat;
        if (own) {
          for (int o = 0; o < Seats(); ++o) {
            const AgentKind ox = AgentX(o);
            if (o != seat && ox != AGENT_UNSPECIFIED && ox != AGENT_DEPUTY_DIRECTOR) {
              targets.push_back(static_cast<uint32_t>(o));
            }
          }
        } else if (x == AGENT_AMBASSADOR && dominating >= 0) {
          const AgentKind dx = AgentX(dominating);
          if (dx != AGENT_UNSPECIFIED && dx != AGENT_DEPUTY_DIRECTOR) {
            targets.push_back(static_cast<uint32_t>(dominating));
          }
        } else {
          M(seat).set_agent_acted(true);
          NoEffectExcept({seat}, {}, x);
          continue;
        }
        if (targets.size() >= 2) {
          AskSeat(internal::ASK_TARGET, seat, {}, targets);
          *waiting = true;
          return;
        }
        M(seat).set_agent_acted(true);
        DeferStrike(seat, targets.empty() ? -1 : static_cast<int>(targets[0]));
      }
      if (table().deferred_size() == 0) break;
      // Resolved by the core once this move returns; GameDeferredResolved goes on from there.
      ResolveDeferred(engine::v1::STACK_IN_ORDER);
      *waiting = true;
      return;
    }
    case 6: {  // Director: its service also claims the bottom objective.
      for (int seat : AgentsOfKind(AGENT_DIRECTOR)) {
        if (seat != dominating) {
          NoEffectExcept({seat}, {}, AGENT_DIRECTOR);
          continue;
        }
        if (s_.objective_deck_size() == 0) {
          // This turn's objective is then the bottom card (RULES.md, "Director").
          Outcome(seat, AGENT_DIRECTOR, true, T("guerre_froide.director", Seat{seat}));
          if (!s_.objective_settled()) Claim(seat, objective);
          continue;
        }
        const uint32_t bottom = s_.objective_deck(s_.objective_deck_size() - 1);
        s_.mutable_objective_deck()->RemoveLast();
        Outcome(seat, AGENT_DIRECTOR, true, T("guerre_froide.director", Seat{seat}));
        Claim(seat, bottom);
      }
      break;
    }
    case 7: {  // Cryptographers: one group card, shared.
      std::vector<int> crypto;
      for (int seat = 0; seat < Seats(); ++seat) {
        const AgentKind x = AgentX(seat);
        if (x == AGENT_CRYPTOGRAPHER_DRAW || x == AGENT_CRYPTOGRAPHER_BIAS) crypto.push_back(seat);
      }
      if (crypto.empty()) break;
      if (s_.group_deck_size() == 0) {
        for (int seat : crypto) Outcome(seat, AgentX(seat), false, T("guerre_froide.cryptographer_nothing"));
        break;
      }
      const uint32_t card = DrawGroup();
      const GroupCard& group = g().group(card);
      Log(T("guerre_froide.cryptographer_draws", group.name(), group.influence()));
      for (int seat : crypto) {
        const bool draw = AgentX(seat) == AGENT_CRYPTOGRAPHER_DRAW;
        const bool hit = draw ? group.influence() >= 4
                              : static_cast<int>(group.faction()) == Objective().bias(0);
        if (!hit) {
          NoEffectExcept({seat}, {}, AgentX(seat));
          continue;
        }
        const uint32_t vp = draw ? kCryptographerDrawVp : kCryptographerBiasVp;
        M(seat).set_score(S(seat).score() + vp);
        Outcome(seat, AgentX(seat), true, T("guerre_froide.cryptographer_scores", Seat{seat}, vp));
      }
      s_.add_group_discard(card);
      break;
    }
    case 2:  // the Deputy Director has no agenda
      NoEffectExcept(AgentsOfKind(AGENT_DEPUTY_DIRECTOR), {}, AGENT_DEPUTY_DIRECTOR);
      break;
    default:
      break;
  }
}

void GuerreFroideState::NoEffectExcept(const std::vector<int>& seats,
                                       const std::vector<int>& acting, AgentKind agent) {
  for (int seat : seats) {
    if (std::find(acting.begin(), acting.end(), seat) != acting.end()) continue;
    Outcome(seat, agent, false, T("guerre_froide.no_effect", Seat{seat}, g().agent(agent).name()));
  }
}

void GuerreFroideState::DeferStrike(int seat, int target) {
  internal::Strike strike;
  strike.set_seat(static_cast<uint32_t>(seat));
  strike.set_agent(AgentX(seat));
  strike.set_target(target);
  strike.set_hit(target >= 0 ? AgentX(target) : AGENT_UNSPECIFIED);
  Defer(internal::EFFECT_STRIKE, strike);
}

void GuerreFroideState::GameResolve(const engine::v1::Effect& effect) {
  internal::Strike strike;
  strike.ParseFromString(effect.data());
  const int seat = static_cast<int>(strike.seat());
  const bool assassin = strike.agent() == AGENT_ASSASSIN;
  // Two strikes at the same Agent X both hit it: the first one applied decides terminated or
  // detained.
  if (strike.hit() != AGENT_UNSPECIFIED) {
    if (AgentX(strike.target()) != AGENT_UNSPECIFIED) {
      RemoveAgentX(strike.target(), /*detained=*/!assassin);
    }
    Outcome(seat, strike.agent(), true,
            T(assassin ? "guerre_froide.assassin" : "guerre_froide.ambassador", Seat{seat},
              Seat{strike.target()}, g().agent(strike.hit()).name()));
  } else {
    Outcome(seat, strike.agent(), false,
            T(assassin ? "guerre_froide.assassin_no_target" : "guerre_froide.ambassador_no_target",
              Seat{seat}));
  }
  // The Assassin's second part: the objective leaves, unless someone already claimed it.
  if (assassin && seat == s_.dominating() && !s_.objective_settled()) {
    ObjectiveToBottom();
    StepOf(seat, AGENT_ASSASSIN)->set_acted(true);
  }
}

void GuerreFroideState::GameDeferredResolved() {
  s_.set_initiative(6);
  Debrief();
}

}  // namespace plateau::games::guerre_froide
