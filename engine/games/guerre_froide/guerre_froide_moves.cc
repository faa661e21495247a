// Guerre Froide: what each player may do, checked, applied and listed (RULES.md, "The turn").
#include <algorithm>
#include <cctype>
#include <set>

#include "engine/games/guerre_froide/guerre_froide.h"

namespace plateau::games::guerre_froide {

namespace ec = engine::codes;
using engine::Seat;
using engine::Status;
using engine::T;

namespace {

const char* FactionWord(Faction f) {
  switch (f) {
    case FACTION_MILITARY: return "military";
    case FACTION_ECONOMIC: return "economic";
    case FACTION_MEDIA: return "media";
    case FACTION_POLITICAL: return "political";
    default: return "";
  }
}

}  // namespace

std::vector<int> GuerreFroideState::GameActingSeats() const {
  if (s_.phase() == PHASE_GAME_OVER) return {};
  if (s_.phase() == PHASE_PLANNING) {
    // A player who will see the others' Agent X chooses once they all have.
    bool others_waiting = false;
    for (int seat = 0; seat < Seats(); ++seat) {
      others_waiting |= !S(seat).sees_next() && S(seat).agent_x_size() == 0;
    }
    std::vector<int> out;
    for (int seat = 0; seat < Seats(); ++seat) {
      if (S(seat).agent_x_size() > 0) continue;
      if (S(seat).sees_next() && others_waiting) continue;
      out.push_back(seat);
    }
    return out;
  }
  if (s_.phase() == PHASE_STRUGGLE) return {s_.to_act() < 0 ? s_.balance() : s_.to_act()};
  return {};
}

// ----- Checks -----

Status GuerreFroideState::TypedValidate(int seat, const Action& action) const {
  const bool struggle = s_.phase() == PHASE_STRUGGLE;
  const bool my_turn = struggle && s_.to_act() == seat;
  switch (action.kind_case()) {
    case Action::kChooseAgent: {
      if (s_.phase() != PHASE_PLANNING) {
        return Status(codes::kWrongPhase, "Agents are chosen in the Planning phase.");
      }
      if (S(seat).agent_x_size() > 0) {
        return Status(codes::kAlreadyChosen, "You have already chosen your Agent X this turn.");
      }
      const uint32_t agent = action.choose_agent().agent();
      if (std::find(S(seat).hq().begin(), S(seat).hq().end(), agent) == S(seat).hq().end()) {
        std::string why = "That agent is not in your headquarters";
        if (std::count(S(seat).leave().begin(), S(seat).leave().end(), agent)) why += ": it is on leave";
        if (std::count(S(seat).terminated().begin(), S(seat).terminated().end(), agent)) {
          why += ": it was terminated";
        }
        if (std::count(S(seat).detained().begin(), S(seat).detained().end(), agent)) {
          why += ": it is detained";
        }
        return Status(codes::kAgentUnavailable, why + ".");
      }
      return Status::Ok();
    }
    case Action::kChooseFirst:
      if (!struggle || s_.to_act() >= 0) {
        return Status(codes::kWrongPhase,
                      "Who opens is chosen when the influence struggle begins.");
      }
      if (action.choose_first().seat() >= s_.num_seats()) {
        return Status(ec::kBadSeat, "There is no seat " +
                                        std::to_string(action.choose_first().seat()) + ".");
      }
      return Status::Ok();
    case Action::kRecruit:
    case Action::kPass:
    case Action::kActivate:
      if (!my_turn) {
        return Status(codes::kWrongPhase,
                      struggle ? "First the balance token's holder chooses who opens."
                               : "Groups are recruited and used in the influence struggle.");
      }
      if (action.has_activate()) return CheckActivate(seat, action.activate());
      if (action.has_pass()) {
        if (S(seat).groups_size() == 0) {
          return Status(codes::kMustRecruit, "A player without any group must recruit.");
        }
        return Status::Ok();
      }
      if (S(seat).groups_size() >= static_cast<int>(Objective().population())) {
        return Status(codes::kPopulation,
                      Objective().name() + " allows " + std::to_string(Objective().population()) +
                          " groups per player, and you hold as many.");
      }
      return Status::Ok();
    case Action::kUseEvent:
      return CheckEvent(seat, action.use_event());
    default:
      return Status(ec::kIllegal, "Choose an agent, recruit, activate a group, pass or use an event.");
  }
}

Status GuerreFroideState::CheckActivate(int seat, const Activate& a) const {
  const int group = g().GroupIndex(a.group());
  int mine = -1;
  for (int i = 0; i < S(seat).groups_size(); ++i) {
    if (static_cast<int>(S(seat).groups(i).card()) == group) mine = i;
  }
  if (mine < 0) return Status(codes::kBadGroup, "You have no group '" + a.group() + "' in play.");
  if (S(seat).groups(mine).mobilized()) {
    return Status(codes::kBadGroup, g().group(group).name() +
                                        " is mobilized: it acts again once it is ready.");
  }
  const Faction faction = g().group(group).faction();
  if (faction == FACTION_MEDIA) return Status::Ok();  // the deck is never empty in the struggle
  const int target = g().GroupIndex(a.target());
  const int holder = target < 0 ? -1 : HolderOfGroup(static_cast<uint32_t>(target));
  if (holder < 0) return Status(codes::kBadTarget, "No group '" + a.target() + "' is in play.");
  if (target == group) return Status(codes::kBadTarget, "A group never acts on itself.");
  const GroupCard& t = g().group(static_cast<uint32_t>(target));
  if (faction == FACTION_ECONOMIC && t.faction() == FACTION_ECONOMIC) {
    return Status(codes::kBadTarget, "An economic group cannot flip another economic group.");
  }
  if (faction != FACTION_POLITICAL) return Status::Ok();
  if (a.to_seat() >= s_.num_seats()) {
    return Status(codes::kBadTarget, "There is no seat " + std::to_string(a.to_seat()) + ".");
  }
  const int to = static_cast<int>(a.to_seat());
  if (to == holder || (holder != seat && to != seat)) {
    return Status(codes::kBadTarget,
                  "A political group takes an opponent's group for you or gives one of yours to an "
                  "opponent.");
  }
  if (S(to).groups_size() >= static_cast<int>(Objective().population())) {
    return Status(codes::kPopulation, "That player already holds as many groups as " +
                                          Objective().name() + " allows.");
  }
  // Giving: the opponent must stay within the stability (and be within it now). Taking is free,
  // even when it puts you over (RULES.md, "Political").
  if (holder == seat &&
      (!WithinStability(to, 0) || !WithinStability(to, static_cast<int>(t.influence())))) {
    return Status(codes::kStability,
                  "A political group may not give a group to an opponent it would push over the "
                  "stability, or who already is over it.");
  }
  return Status::Ok();
}

Status GuerreFroideState::CheckEvent(int seat, const UseEvent& e) const {
  const int card = g().ObjectiveIndex(e.objective());
  if (card < 0 || std::find(S(seat).won().begin(), S(seat).won().end(),
                            static_cast<uint32_t>(card)) == S(seat).won().end()) {
    return Status(codes::kBadEvent, "You have not won an objective '" + e.objective() + "'.");
  }
  const ObjectiveCard& o = g().objective(static_cast<uint32_t>(card));
  switch (o.event()) {
    case EVENT_NONE:
      return Status(codes::kBadEvent, o.name() + " is a nation: it has no ability.");
    case EVENT_SUMMIT_MEETING:
      if (s_.phase() != PHASE_PLANNING || S(seat).agent_x_size() > 0) {
        return Status(codes::kWrongPhase, o.name() + " is used in the Planning phase, before you "
                                                     "choose your Agent X.");
      }
      if (S(seat).leave_size() == 0) {
        return Status(codes::kNothingToDo, "None of your agents is on leave.");
      }
      return Status::Ok();
    case EVENT_SPACE_RACE:
    case EVENT_NOBEL_PEACE_PRIZE:
      return Status(codes::kWrongPhase, o.name() + " is offered to you when it may be used.");
    default:
      break;
  }
  if (s_.phase() != PHASE_STRUGGLE || s_.to_act() != seat) {
    return Status(codes::kWrongPhase, o.name() + " is used as your action in the influence "
                                                 "struggle.");
  }
  if (S(seat).groups_size() == 0 && o.event() != EVENT_LIVE_BENEFIT) {
    return Status(codes::kMustRecruit, "A player without any group must recruit.");
  }
  switch (o.event()) {
    case EVENT_NUCLEAR_ESCALATION: {
      if (e.groups_size() < 1 || e.groups_size() > 2) {
        return Status(codes::kBadTarget, o.name() + " discards one or two groups in play.");
      }
      std::set<int> seen;
      for (const auto& id : e.groups()) {
        const int gi = g().GroupIndex(id);
        if (gi < 0 || HolderOfGroup(static_cast<uint32_t>(gi)) < 0) {
          return Status(codes::kBadTarget, "No group '" + id + "' is in play.");
        }
        if (!seen.insert(gi).second) return Status(codes::kBadTarget, "A group is named twice.");
      }
      return Status::Ok();
    }
    case EVENT_LIVE_BENEFIT:
      if (s_.group_discard_size() == 0) {
        return Status(codes::kNothingToDo, "The group discard pile is empty.");
      }
      if (S(seat).groups_size() >= static_cast<int>(Objective().population())) {
        return Status(codes::kPopulation, Objective().name() + " allows no more groups for you.");
      }
      return Status::Ok();
    case EVENT_OLYMPIC_GAMES:
      for (const auto& gs : S(seat).groups()) {
        if (gs.mobilized()) return Status::Ok();
      }
      return Status(codes::kNothingToDo, "None of your groups is mobilized.");
    default:
      return Status(codes::kBadEvent, o.name() + " has no ability the rules know.");
  }
}

// Fields a move ignores: a target for a Media group, a destination for any but a Political one,
// groups for any event but Nuclear Escalation.
void GuerreFroideState::GameCanonicalize(int seat, engine::Message& message) const {
  auto& action = static_cast<Action&>(message);
  if (action.has_activate()) {
    const int group = g().GroupIndex(action.activate().group());
    if (group < 0) return;
    const Faction f = g().group(static_cast<uint32_t>(group)).faction();
    if (f == FACTION_MEDIA) action.mutable_activate()->clear_target();
    if (f != FACTION_POLITICAL) action.mutable_activate()->clear_to_seat();
  } else if (action.has_use_event()) {
    const int card = g().ObjectiveIndex(action.use_event().objective());
    if (card >= 0 && g().objective(static_cast<uint32_t>(card)).event() != EVENT_NUCLEAR_ESCALATION) {
      action.mutable_use_event()->clear_groups();
    }
  }
}

// ----- Application -----

void GuerreFroideState::TypedApply(int seat, const Action& action) {
  switch (action.kind_case()) {
    case Action::kChooseAgent:
      M(seat).add_agent_x(action.choose_agent().agent());
      {
        auto* hq = M(seat).mutable_hq();
        hq->erase(std::find(hq->begin(), hq->end(), action.choose_agent().agent()));
      }
      Log(T("guerre_froide.chooses_agent", Seat{seat}));
      MaybeEndPlanning();
      return;
    case Action::kChooseFirst:
      s_.set_to_act(static_cast<int32_t>(action.choose_first().seat()));
      // Choosing oneself reads as opening, not as letting oneself open.
      if (static_cast<int>(action.choose_first().seat()) == seat)
        Log(T("guerre_froide.opens_self", Seat{seat}));
      else
        Log(T("guerre_froide.opens", Seat{seat}, Seat{static_cast<int>(action.choose_first().seat())}));
      return;
    case Action::kRecruit: {
      const uint32_t card = DrawGroup();
      M(seat).add_groups()->set_card(card);
      Log(T("guerre_froide.recruits", Seat{seat}, g().group(card).name(), g().group(card).influence()));
      AfterStruggleAction(seat, false);
      return;
    }
    case Action::kPass:
      Log(T("guerre_froide.passes", Seat{seat}));
      AfterStruggleAction(seat, true);
      return;
    case Action::kActivate:
      ApplyActivate(seat, action.activate());
      return;
    case Action::kUseEvent: {
      const auto& e = action.use_event();
      const EventAbility event =
          g().objective(static_cast<uint32_t>(g().ObjectiveIndex(e.objective()))).event();
      UseEventCard(seat, event);
      if (event == EVENT_SUMMIT_MEETING) {
        auto& st = M(seat);
        for (uint32_t a : st.leave()) st.add_hq(a);
        st.clear_leave();
        std::sort(st.mutable_hq()->begin(), st.mutable_hq()->end());
        return;
      }
      if (event == EVENT_NUCLEAR_ESCALATION) {
        for (const auto& id : e.groups()) {
          const uint32_t card = static_cast<uint32_t>(g().GroupIndex(id));
          const int holder = HolderOfGroup(card);
          for (int i = 0; i < S(holder).groups_size(); ++i) {
            if (S(holder).groups(i).card() == card) {
              Log(T("guerre_froide.discarded", Seat{holder}, g().group(card).name()));
              DiscardGroup(holder, i);
              break;
            }
          }
        }
      } else if (event == EVENT_LIVE_BENEFIT) {
        const uint32_t card = s_.group_discard(s_.group_discard_size() - 1);
        s_.mutable_group_discard()->RemoveLast();
        M(seat).add_groups()->set_card(card);
        Log(T("guerre_froide.recruits", Seat{seat}, g().group(card).name(), g().group(card).influence()));
      } else if (event == EVENT_OLYMPIC_GAMES) {
        for (auto& gs : *M(seat).mutable_groups()) gs.set_mobilized(false);
      }
      AfterStruggleAction(seat, false);
      return;
    }
    default:
      return;
  }
}

void GuerreFroideState::ApplyActivate(int seat, const Activate& a) {
  const uint32_t group = static_cast<uint32_t>(g().GroupIndex(a.group()));
  for (auto& gs : *M(seat).mutable_groups()) {
    if (gs.card() == group) gs.set_mobilized(true);
  }
  const GroupCard& card = g().group(group);
  Log(T("guerre_froide.activates", Seat{seat}, card.name(),
        T(std::string("guerre_froide.faction.") + FactionWord(card.faction()))));
  if (card.faction() == FACTION_MEDIA) {
    const uint32_t top = DrawGroup();
    Log(T("guerre_froide.media_sees", g().group(top).name(), g().group(top).influence()), {seat});
    AskSeat(internal::ASK_MEDIA, seat, {top});
    return;
  }
  const uint32_t target = static_cast<uint32_t>(g().GroupIndex(a.target()));
  const int holder = HolderOfGroup(target);
  int index = 0;
  while (S(holder).groups(index).card() != target) ++index;
  switch (card.faction()) {
    case FACTION_MILITARY:
      Log(T("guerre_froide.discarded", Seat{holder}, g().group(target).name()));
      DiscardGroup(holder, index);
      break;
    case FACTION_ECONOMIC: {
      auto* gs = M(holder).mutable_groups(index);
      gs->set_mobilized(!gs->mobilized());
      Log(T(gs->mobilized() ? "guerre_froide.mobilized" : "guerre_froide.readied", Seat{holder},
            g().group(target).name()));
      break;
    }
    case FACTION_POLITICAL: {
      const int to = static_cast<int>(a.to_seat());
      *M(to).add_groups() = S(holder).groups(index);
      M(holder).mutable_groups()->erase(M(holder).mutable_groups()->begin() + index);
      Log(T("guerre_froide.moved", g().group(target).name(), Seat{holder}, Seat{to}));
      break;
    }
    default:
      break;
  }
  AfterStruggleAction(seat, false);
}

// ----- Listing -----

bool GuerreFroideState::TypedTakeBackSafe(int seat, const Action& action) const {
  // A pass that only hands the turn on: one that ends the struggle starts the cease-fire, which
  // scores and reveals.
  return action.has_pass() && s_.group_deck_size() > 0 && s_.passes() + 1 < s_.num_seats();
}

std::vector<Action> GuerreFroideState::TypedLegalActions(int seat) const {
  std::vector<Action> candidates;
  auto add = [&](Action a) { candidates.push_back(std::move(a)); };
  for (uint32_t card : S(seat).won()) {
    const ObjectiveCard& o = g().objective(card);
    if (o.event() == EVENT_NONE) continue;
    Action a;
    a.mutable_use_event()->set_objective(o.id());
    if (o.event() != EVENT_NUCLEAR_ESCALATION) {
      add(a);
      continue;
    }
    std::vector<std::string> in_play;
    for (const auto& st : s_.seats()) {
      for (const auto& gs : st.groups()) in_play.push_back(g().group(gs.card()).id());
    }
    for (const auto& first : in_play) {
      Action one = a;
      one.mutable_use_event()->add_groups(first);
      add(one);
      for (const auto& second : in_play) {
        if (second == first) continue;
        Action two = one;
        two.mutable_use_event()->add_groups(second);
        add(two);
      }
    }
  }
  if (s_.phase() == PHASE_PLANNING) {
    for (uint32_t agent : S(seat).hq()) {
      Action a;
      a.mutable_choose_agent()->set_agent(static_cast<AgentKind>(agent));
      add(a);
    }
  }
  if (s_.phase() == PHASE_STRUGGLE && s_.to_act() < 0) {
    for (int to = 0; to < Seats(); ++to) {
      Action a;
      a.mutable_choose_first()->set_seat(static_cast<uint32_t>(to));
      add(a);
    }
  }
  if (s_.phase() == PHASE_STRUGGLE && s_.to_act() == seat) {
    add([] { Action a; a.mutable_recruit(); return a; }());
    add([] { Action a; a.mutable_pass(); return a; }());
    for (const auto& mine : S(seat).groups()) {
      const GroupCard& card = g().group(mine.card());
      Action a;
      a.mutable_activate()->set_group(card.id());
      if (card.faction() == FACTION_MEDIA) {
        add(a);
        continue;
      }
      for (int holder = 0; holder < Seats(); ++holder) {
        for (const auto& gs : S(holder).groups()) {
          Action t = a;
          t.mutable_activate()->set_target(g().group(gs.card()).id());
          if (card.faction() != FACTION_POLITICAL) {
            add(t);
            continue;
          }
          for (int to = 0; to < Seats(); ++to) {
            t.mutable_activate()->set_to_seat(static_cast<uint32_t>(to));
            add(t);
          }
        }
      }
    }
  }
  std::vector<Action> legal;
  for (auto& a : candidates) {
    if (TypedValidate(seat, a).ok()) legal.push_back(std::move(a));
  }
  return legal;
}

// Each step is keyed by what it names (a group's or an objective's id, a seat, an agent), never by
// a position in a list, so a choice that stays open keeps its key and costs nothing in a Diff.
// Group and objective ids never meet "recruit", "pass", "agent" or "first" among the roots; a
// seat is keyed by its number. Each step carries only the field it sets (MoveStep::part): the
// group activated goes once for all its targets.
std::vector<engine::MoveStep> GuerreFroideState::TypedDescribeMove(int seat,
                                                                   const Action& action) const {
  using engine::MoveStep;
  auto card = [](const std::string& id) {
    engine::v1::Target t;
    t.set_card(id);
    return t;
  };
  auto seat_target = [](int s) {
    engine::v1::Target t;
    t.set_seat(s);
    return t;
  };
  auto part = [](const Action& a) { return engine::DeterministicBytes(a); };
  // Words kept short: a view carries them at every turn, and the card's face is on the board.
  auto group_step = [&](const std::string& key, const std::string& id, const Action& sets) {
    return MoveStep{id, T(key, g().group(static_cast<uint32_t>(g().GroupIndex(id))).name()),
                    card(id), part(sets)};
  };
  switch (action.kind_case()) {
    case Action::kChooseAgent: {
      const AgentKind kind = action.choose_agent().agent();
      std::string slug = AgentKind_Name(kind).substr(6);  // AGENT_MASTER_SPY: master_spy
      std::transform(slug.begin(), slug.end(), slug.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      return {{"agent", T("guerre_froide.m.choose_agent"), {}, {}},
              {slug, T("guerre_froide.m.agent", g().agent(kind).name()), card(slug),
               part(action)}};
    }
    case Action::kChooseFirst: {
      const int to = static_cast<int>(action.choose_first().seat());
      return {{"first", T("guerre_froide.m.choose_first"), {}, {}},
              {std::to_string(to), T("guerre_froide.m.opens", Seat{to}), seat_target(to),
               part(action)}};
    }
    case Action::kRecruit:
      return {{"recruit", T("guerre_froide.m.recruit"), {}, part(action)}};
    case Action::kPass:
      return {{"pass", T("guerre_froide.m.pass"), {}, part(action)}};
    case Action::kActivate: {
      const Activate& a = action.activate();
      const GroupCard& used = g().group(static_cast<uint32_t>(g().GroupIndex(a.group())));
      Action sets;
      sets.mutable_activate()->set_group(a.group());
      std::vector<MoveStep> steps = {
          {a.group(), T("guerre_froide.m.activate", used.name()), card(a.group()), part(sets)}};
      sets.mutable_activate()->clear_group();
      sets.mutable_activate()->set_target(a.target());
      switch (used.faction()) {
        case FACTION_MILITARY:
          steps.push_back(group_step("guerre_froide.m.discard", a.target(), sets));
          break;
        case FACTION_ECONOMIC:
          steps.push_back(group_step("guerre_froide.m.flip", a.target(), sets));
          break;
        case FACTION_POLITICAL: {
          steps.push_back(group_step("guerre_froide.m.move", a.target(), sets));
          const int to = static_cast<int>(a.to_seat());
          sets.mutable_activate()->clear_target();
          sets.mutable_activate()->set_to_seat(a.to_seat());
          steps.push_back({std::to_string(to),
                           to == seat ? T("guerre_froide.m.take")
                                      : T("guerre_froide.m.give", Seat{to}),
                           seat_target(to), part(sets)});
          break;
        }
        default:  // Media: the card it looks at is a question, not a move
          steps[0].part = part(action);
          break;
      }
      return steps;
    }
    case Action::kUseEvent: {
      const UseEvent& e = action.use_event();
      const ObjectiveCard& o = g().objective(static_cast<uint32_t>(g().ObjectiveIndex(e.objective())));
      Action sets;
      sets.mutable_use_event()->set_objective(e.objective());
      std::vector<MoveStep> steps = {
          {o.id(), T("guerre_froide.m.use", o.name(), o.vp()), card(o.id()), part(sets)}};
      if (o.event() != EVENT_NUCLEAR_ESCALATION) {
        steps[0].part = part(action);
        return steps;
      }
      // The first group, then the second or none: one choice per group, as a board takes them.
      // Each adds its group to the list (a merge appends).
      sets.mutable_use_event()->clear_objective();
      sets.mutable_use_event()->add_groups(e.groups(0));
      steps.push_back(group_step("guerre_froide.m.discard", e.groups(0), sets));
      if (e.groups_size() == 1) {
        steps.push_back({"none", T("guerre_froide.m.no_other"), {}, {}});
      } else {
        sets.mutable_use_event()->set_groups(0, e.groups(1));
        steps.push_back(group_step("guerre_froide.m.discard_also", e.groups(1), sets));
      }
      return steps;
    }
    default:
      return {};
  }
}

std::unique_ptr<engine::Message> GuerreFroideState::DefaultAction(int seat) const {
  // In Planning a careful player keeps its events and sends the Deputy Director, who always
  // comes back.
  if (OpenDecision() == nullptr && s_.phase() == PHASE_PLANNING) {
    auto a = std::make_unique<Action>();
    const auto& hq = S(seat).hq();
    const bool deputy = std::find(hq.begin(), hq.end(), AGENT_DEPUTY_DIRECTOR) != hq.end();
    a->mutable_choose_agent()->set_agent(deputy || hq.empty() ? AGENT_DEPUTY_DIRECTOR
                                                             : static_cast<AgentKind>(hq[0]));
    if (TypedValidate(seat, *a).ok()) return a;
  }
  // In the struggle a careful player passes once holding a group.
  if (OpenDecision() == nullptr && s_.phase() == PHASE_STRUGGLE &&
      s_.to_act() == seat) {
    auto a = std::make_unique<Action>();
    if (S(seat).groups_size() > 0) {
      a->mutable_pass();
    } else {
      a->mutable_recruit();
    }
    if (TypedValidate(seat, *a).ok()) return a;
  }
  return State::DefaultAction(seat);
}

}  // namespace plateau::games::guerre_froide
