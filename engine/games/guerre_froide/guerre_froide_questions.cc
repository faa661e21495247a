// Guerre Froide: the questions its rules ask one seat through the core's queue of decisions, their
// words and options, and how the turn resumes from each answer (RULES.md, "The turn", "Agents").
#include <algorithm>
#include <string>

#include "engine/games/guerre_froide/guerre_froide.h"

namespace plateau::games::guerre_froide {

namespace v1 = engine::v1;
using engine::Seat;
using engine::T;

namespace {

std::string SeatOption(uint32_t seat) { return "seat." + std::to_string(seat); }

int SeatOf(const std::string& option) { return std::stoi(option.substr(option.find('.') + 1)); }

// Puts `cards` back on top of `deck`, the first one on top.
void PutOnTop(google::protobuf::RepeatedField<uint32_t>* deck, const std::vector<uint32_t>& cards) {
  std::vector<uint32_t> rebuilt = cards;
  rebuilt.insert(rebuilt.end(), deck->begin(), deck->end());
  deck->Clear();
  for (uint32_t c : rebuilt) deck->Add(c);
}

}  // namespace

void GuerreFroideState::AskSeat(internal::Ask kind, int seat, std::vector<uint32_t> looking,
                                std::vector<uint32_t> seats) {
  s_.clear_looking();
  if (!looking.empty()) {
    s_.mutable_looking()->set_seat(static_cast<uint32_t>(seat));
    s_.mutable_looking()->set_objectives(kind == internal::ASK_SPACE_RACE_ORDER);
    for (uint32_t c : looking) s_.mutable_looking()->add_cards(c);
  }
  internal::AskResume resume;
  for (uint32_t s : seats) resume.add_seats(s);
  // Declining is the careful default of the two yes-or-no offers; any other question's default is
  // its plainest answer (the order as drawn, the first option).
  const bool offer = kind == internal::ASK_NOBEL || kind == internal::ASK_SPACE_RACE;
  Ask({Question(kind, seat, resume)}, kind, resume,
      offer ? v1::DEFAULT_PASS : v1::DEFAULT_FIRST_OPTION);
}

v1::Prompt GuerreFroideState::Question(internal::Ask kind, int seat,
                                       const internal::AskResume& resume) const {
  v1::Prompt q;
  const auto& looking = s_.looking().cards();
  switch (kind) {
    case internal::ASK_ANALYST_ORDER:
    case internal::ASK_SPACE_RACE_ORDER: {
      const bool groups = kind == internal::ASK_ANALYST_ORDER;
      q = engine::MakePrompt(seat, v1::PROMPT_ORDER,
                             T(groups ? "guerre_froide.q.analyst" : "guerre_froide.q.space_race_order"),
                             looking.size(), looking.size());
      for (uint32_t c : looking) {
        if (groups) {
          const GroupCard& card = g().group(c);
          engine::AddOption(&q, card.id(), T("guerre_froide.group", card.name(), card.influence()));
        } else {
          const ObjectiveCard& card = g().objective(c);
          engine::AddOption(&q, card.id(), T("guerre_froide.objective", card.name(), card.vp()));
        }
      }
      break;
    }
    case internal::ASK_BALANCE:
    case internal::ASK_TARGET:
      q = engine::MakePrompt(seat, v1::PROMPT_CHOOSE,
                             kind == internal::ASK_BALANCE
                                 ? T("guerre_froide.q.balance")
                                 : T("guerre_froide.q.target", g().agent(AgentX(seat)).name()));
      for (uint32_t s : resume.seats())
        engine::AddOption(&q, SeatOption(s), T("guerre_froide.seat", Seat{static_cast<int>(s)}));
      break;
    case internal::ASK_MEDIA: {
      const GroupCard& card = g().group(looking[0]);
      q = engine::MakePrompt(seat, v1::PROMPT_CHOOSE,
                             T("guerre_froide.q.media", card.name(), card.influence()));
      if (S(seat).groups_size() < static_cast<int>(Objective().population())) {
        engine::AddOption(&q, "recruit", T("guerre_froide.a.recruit"));
      }
      engine::AddOption(&q, "discard", T("guerre_froide.a.discard"));
      engine::AddOption(&q, "leave", T("guerre_froide.a.leave"));
      break;
    }
    case internal::ASK_NOBEL:
      q = engine::MakePrompt(seat, v1::PROMPT_YES_NO,
                             T("guerre_froide.q.nobel", g().agent(AgentX(seat)).name()));
      break;
    case internal::ASK_DOUBLE_AGENT:
      q = engine::MakePrompt(seat, v1::PROMPT_CHOOSE, T("guerre_froide.q.double_agent"));
      engine::AddOption(&q, "see", T("guerre_froide.a.see"));
      for (int other = 0; other < Seats(); ++other) {
        if (other == seat) continue;
        for (uint32_t a : S(other).hq()) {
          if (a == AGENT_DEPUTY_DIRECTOR) continue;
          engine::AddOption(&q, "leave." + std::to_string(other) + "." + std::to_string(a),
                            T("guerre_froide.a.send_on_leave", Seat{other},
                              g().agent(static_cast<AgentKind>(a)).name()));
        }
      }
      break;
    case internal::ASK_SPACE_RACE:
      q = engine::MakePrompt(seat, v1::PROMPT_YES_NO, T("guerre_froide.q.space_race"));
      break;
    default:
      break;
  }
  return q;
}

void GuerreFroideState::RewordOpenQuestion() {
  const v1::Decision* open = OpenDecision();
  if (open == nullptr) return;
  internal::AskResume resume;
  resume.ParseFromString(open->resume());
  v1::Prompt q = Question(static_cast<internal::Ask>(open->kind()), open->prompts(0).seat(), resume);
  q.set_id(open->prompts(0).id());
  *mutable_table()->mutable_decisions(0)->mutable_prompts(0) = std::move(q);
}

void GuerreFroideState::GameResume(const v1::Decision& decision) {
  const int seat = decision.answers(0).seat();
  const v1::Answer& answer = decision.answers(0).answer();
  const std::vector<uint32_t> looking(s_.looking().cards().begin(), s_.looking().cards().end());
  s_.clear_looking();
  switch (decision.kind()) {
    case internal::ASK_ANALYST_ORDER:
    case internal::ASK_SPACE_RACE_ORDER: {
      const bool groups = decision.kind() == internal::ASK_ANALYST_ORDER;
      auto* deck = groups ? s_.mutable_group_deck() : s_.mutable_objective_deck();
      std::vector<uint32_t> order;
      for (const auto& id : answer.options()) {
        order.push_back(static_cast<uint32_t>(groups ? g().GroupIndex(id) : g().ObjectiveIndex(id)));
      }
      PutOnTop(deck, order);
      Log(T(groups ? "guerre_froide.analyst_orders" : "guerre_froide.space_race_orders", Seat{seat},
            static_cast<int>(order.size())));
      if (groups) {
        FinishBriefing();
      } else {
        FinishDetente();
      }
      return;
    }
    case internal::ASK_BALANCE: {
      const int to = SeatOf(answer.options(0));
      s_.set_balance(to);
      Log(T("guerre_froide.balance_given", Seat{seat}, Seat{to}));
      FinishBriefing();
      return;
    }
    case internal::ASK_MEDIA: {
      const uint32_t card = looking[0];
      const std::string& choice = answer.options(0);
      if (choice == "recruit") {
        M(seat).add_groups()->set_card(card);
        Log(T("guerre_froide.recruits", Seat{seat}, g().group(card).name(), g().group(card).influence()));
      } else if (choice == "discard") {
        s_.add_group_discard(card);
        Log(T("guerre_froide.media_discards", Seat{seat}, g().group(card).name()));
      } else {
        PutOnTop(s_.mutable_group_deck(), {card});
        Log(T("guerre_froide.media_leaves", Seat{seat}));
      }
      AfterStruggleAction(seat, false);
      return;
    }
    case internal::ASK_NOBEL:
      DisorderFate(seat, answer.yes());
      SettleDisorder();
      return;
    case internal::ASK_DOUBLE_AGENT: {
      const std::string& choice = answer.options(0);
      M(seat).set_agent_acted(true);
      if (choice == "see") {
        M(seat).set_sees_next(true);
        Outcome(seat, AGENT_DOUBLE_AGENT, true, T("guerre_froide.double_agent_sees", Seat{seat}));
      } else {
        const size_t dot = choice.find('.', 6);
        const int other = std::stoi(choice.substr(6, dot - 6));
        const uint32_t agent = static_cast<uint32_t>(std::stoul(choice.substr(dot + 1)));
        auto* hq = M(other).mutable_hq();
        hq->erase(std::find(hq->begin(), hq->end(), agent));
        M(other).add_leave(agent);
        Outcome(seat, AGENT_DOUBLE_AGENT, true,
                T("guerre_froide.double_agent_sends", Seat{seat}, Seat{other},
                  g().agent(static_cast<AgentKind>(agent)).name()));
      }
      Debrief();
      return;
    }
    case internal::ASK_TARGET: {
      M(seat).set_agent_acted(true);
      DeferStrike(seat, SeatOf(answer.options(0)));
      Debrief();
      return;
    }
    case internal::ASK_SPACE_RACE: {
      if (!answer.yes()) {
        FinishDetente();
        return;
      }
      UseEventCard(seat, EVENT_SPACE_RACE);
      std::vector<uint32_t> next;
      while (static_cast<int>(next.size()) < kSpaceRaceCards && s_.objective_deck_size() > 0) {
        next.push_back(s_.objective_deck(0));
        s_.mutable_objective_deck()->erase(s_.mutable_objective_deck()->begin());
      }
      AskSeat(internal::ASK_SPACE_RACE_ORDER, seat, next);
      return;
    }
    default:
      return;
  }
}

}  // namespace plateau::games::guerre_froide
