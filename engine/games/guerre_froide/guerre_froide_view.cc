// Guerre Froide: what each seat sees and the zones that say so.
#include <algorithm>

#include "engine/games/guerre_froide/guerre_froide.h"

namespace plateau::games::guerre_froide {

namespace v1 = engine::v1;
using engine::T;
using engine::Visibility;
using engine::Zone;

namespace {

// The pools of pieces the hidden-information check redraws within.
constexpr int kObjectivePool = 1;
constexpr int kGroupPool = 2;
constexpr int kAgentPool = 10;  // + seat

}  // namespace

std::vector<Zone> GuerreFroideState::GameZones() const {
  std::vector<Zone> zones;
  zones.push_back({"objective deck", &s_.objective_deck(), Visibility::kNobody, {}, kObjectivePool,
                   nullptr});
  zones.push_back({"group deck", &s_.group_deck(), Visibility::kNobody, {}, kGroupPool, nullptr});
  if (s_.looking().cards_size() > 0) {
    zones.push_back({"cards looked at", &s_.looking().cards(), Visibility::kSeats,
                     {static_cast<int>(s_.looking().seat())},
                     s_.looking().objectives() ? kObjectivePool : kGroupPool, nullptr});
  }
  for (int seat = 0; seat < Seats(); ++seat) {
    const auto& st = S(seat);
    // Which agent is the Agent X is secret from the choice to the reveal: the headquarters and
    // the Agent X then show only how many they hold, except to a Double Agent's seer.
    Zone hq{"headquarters of seat " + std::to_string(seat), &st.hq(), Visibility::kEveryone, {},
            kAgentPool + seat, nullptr};
    if (st.agent_x_size() > 0 && !st.agent_revealed() && s_.phase() != PHASE_GAME_OVER) {
      hq.visibility = Visibility::kSeats;
      hq.seats.push_back(seat);
      for (int other = 0; other < Seats(); ++other) {
        if (other != seat && s_.phase() == PHASE_PLANNING && S(other).sees_next()) {
          hq.seats.push_back(other);
        }
      }
    }
    Zone x = hq;
    x.name = "Agent X of seat " + std::to_string(seat);
    x.pieces = &st.agent_x();
    zones.push_back(std::move(hq));
    zones.push_back(std::move(x));
  }
  return zones;
}

void GuerreFroideState::PerturbMore(int seat, engine::Rng& rng) {
  s_.set_rng(rng.Next());  // the order of every later shuffle
  RewordOpenQuestion();  // its options name the cards now looked at
}

View GuerreFroideState::TypedView(int seat) const {
  guerre_froide::View v;
  v.set_you(seat);
  v.set_turn(s_.turn());
  v.set_phase(s_.phase());
  v.set_goal(Goal());
  if (s_.objective() >= 0) v.set_objective(Objective().id());
  v.set_objective_deck(static_cast<uint32_t>(s_.objective_deck_size()));
  for (uint32_t c : s_.objective_discard()) v.add_objective_discard(g().objective(c).id());
  v.set_group_deck(static_cast<uint32_t>(s_.group_deck_size()));
  for (uint32_t c : s_.group_discard()) v.add_group_discard(g().group(c).id());
  const std::vector<Zone> zones = GameZones();
  auto zone_named = [&](const std::string& name) -> const Zone& {
    for (const auto& z : zones) {
      if (z.name == name) return z;
    }
    return zones[0];
  };
  for (int p = 0; p < Seats(); ++p) {
    const auto& st = S(p);
    Player* out = v.add_players();
    out->set_seat(static_cast<uint32_t>(p));
    out->set_service(ServiceOf(p));
    out->set_score(st.score());
    for (const auto& gs : st.groups()) {
      auto* gv = out->add_groups();
      gv->set_id(g().group(gs.card()).id());
      gv->set_mobilized(gs.mobilized());
    }
    out->set_influence(Influence(p));
    std::vector<std::pair<uint32_t, AgentStatus>> agents;
    const Zone& hq = zone_named("headquarters of seat " + std::to_string(p));
    const Zone& x = zone_named("Agent X of seat " + std::to_string(p));
    if (hq.CanSee(seat)) {
      for (uint32_t a : engine::VisiblePieces(hq, seat)) agents.push_back({a, AGENT_IN_HEADQUARTERS});
      for (uint32_t a : engine::VisiblePieces(x, seat)) agents.push_back({a, AGENT_X});
    } else {
      out->set_hidden_agents(static_cast<uint32_t>(st.hq_size() + st.agent_x_size()));
      std::vector<uint32_t> pool(st.hq().begin(), st.hq().end());
      pool.insert(pool.end(), st.agent_x().begin(), st.agent_x().end());
      std::sort(pool.begin(), pool.end());  // one pool: its order says nothing of the Agent X
      for (uint32_t a : pool) out->add_unrevealed(static_cast<AgentKind>(a));
    }
    for (uint32_t a : st.leave()) agents.push_back({a, AGENT_ON_LEAVE});
    for (uint32_t a : st.terminated()) agents.push_back({a, AGENT_TERMINATED});
    for (uint32_t a : st.detained()) agents.push_back({a, AGENT_DETAINED});
    std::sort(agents.begin(), agents.end());
    for (const auto& [kind, status] : agents) {
      auto* av = out->add_agents();
      av->set_kind(static_cast<AgentKind>(kind));
      av->set_status(status);
    }
    out->set_chose_agent(s_.phase() == PHASE_PLANNING && st.agent_x_size() > 0);
    out->set_passed(st.passed());
    for (uint32_t c : st.won()) out->add_won(g().objective(c).id());
    out->set_civil_disorder(st.civil_disorder());
    out->set_sees_next(st.sees_next());
    out->set_analyst_next(st.analyst_next());
  }
  v.set_balance(s_.balance());
  v.set_to_act(s_.phase() == PHASE_STRUGGLE ? s_.to_act() : -1);
  v.set_dominating(s_.dominating());
  v.set_claimed_by(s_.claimed_by());
  for (uint32_t w : s_.winners()) v.add_winners(static_cast<int32_t>(w));
  v.set_cryptographer(s_.cryptographer());
  *v.mutable_debriefing() = s_.debriefing();
  v.set_debriefing_dominating(s_.debriefing_dominating());
  if (s_.looking().cards_size() > 0 && seat == static_cast<int>(s_.looking().seat())) {
    for (uint32_t c : s_.looking().cards()) {
      v.add_looking_at(s_.looking().objectives() ? g().objective(c).id() : g().group(c).id());
    }
  }
  return v;
}

// ----- For bots and terminals -----

std::vector<uint32_t> GuerreFroideGame::EasyBotWeights(
    const engine::Message& message, int seat,
    const std::vector<engine::PublishedMove>& moves) const {
  std::vector<uint32_t> weights;
  if (message.GetDescriptor() != guerre_froide::View::descriptor()) return weights;
  const auto& view = static_cast<const guerre_froide::View&>(message);
  if (seat < 0 || seat >= view.players_size()) return weights;
  const Player& me = view.players(seat);
  const int objective_index = ObjectiveIndex(view.objective());
  const bool my_struggle = view.phase() == PHASE_STRUGGLE && view.to_act() == seat;
  // A plain strategy, so that struggles end: while an average group still fits under the
  // stability, act; once it does not, pass. Offering every move at every turn would make passes
  // in a row (what ends a struggle) rare.
  bool building = true;
  if (my_struggle && objective_index >= 0) {
    const ObjectiveCard& o = objective(static_cast<uint32_t>(objective_index));
    building = me.groups_size() == 0 ||
               (me.groups_size() < static_cast<int>(o.population()) &&
                me.influence() + 4 <= o.stability());
  }
  weights.reserve(moves.size());
  for (const auto& move : moves) {
    const auto& action = static_cast<const Action&>(*move.action);
    uint32_t w = 1;
    if (action.has_pass()) {
      w = building ? 0 : 1;
    } else if (my_struggle && !building) {
      w = 0;
    } else if (action.has_use_event()) {
      // Summit Meeting (Planning) is kept for later, and one group is enough to escalate: the
      // pairs would crowd out every other move.
      w = my_struggle && action.use_event().groups_size() <= 1 ? 1 : 0;
    }
    weights.push_back(w);
  }
  return weights;
}

std::string GuerreFroideGame::GameViewText(const engine::Message& message,
                                           const SeatNamer& seat_name) const {
  const auto& v = static_cast<const guerre_froide::View&>(message);
  std::string out = "Turn " + std::to_string(v.turn()) + ", " + Phase_Name(v.phase()).substr(6) +
                    ". Goal " + std::to_string(v.goal()) + " VP.";
  const int objective_index = ObjectiveIndex(v.objective());
  if (objective_index >= 0) {
    const ObjectiveCard& o = objective(static_cast<uint32_t>(objective_index));
    out += " Objective: " + o.name() + " (stability " + std::to_string(o.stability()) + ", " +
           std::to_string(o.population()) + " groups, " + std::to_string(o.vp()) + " VP).";
  }
  out += "\n";
  for (const auto& p : v.players()) {
    const int seat = static_cast<int>(p.seat());
    out += "  " + seat_name(seat) + " (" + Service_Name(p.service()).substr(8) + "): " +
           std::to_string(p.score()) + " VP, influence " + std::to_string(p.influence());
    if (p.civil_disorder()) out += " (civil disorder)";
    if (v.balance() == seat) out += ", balance token";
    if (v.to_act() == seat) out += ", to act";
    out += "\n    groups:";
    if (p.groups_size() == 0) out += " none";
    for (const auto& g : p.groups()) {
      const int gi = GroupIndex(g.id());
      if (gi < 0) continue;
      const GroupCard& card = group(static_cast<uint32_t>(gi));
      out += " " + card.name() + " " + std::to_string(card.influence()) +
             (g.mobilized() ? " (mobilized)" : "");
    }
    out += "\n    agents:";
    for (const auto& a : p.agents()) {
      out += " " + agent(a.kind()).name() + " [" + AgentStatus_Name(a.status()).substr(6) + "]";
    }
    if (p.hidden_agents() > 0) out += " " + std::to_string(p.hidden_agents()) + " face down";
    if (p.chose_agent()) out += " (Agent X chosen)";
    out += "\n";
  }
  return out;
}

}  // namespace plateau::games::guerre_froide
