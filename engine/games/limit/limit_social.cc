// LIMIT: the social phase and the resilience test, step by step from feeding to class struggle,
// with each factory's production.
#include <algorithm>

#include "engine/games/limit/limit.h"
#include "engine/games/limit/limit_nation.h"

namespace plateau::games::limit {

void LimitState::StartSocial(bool resilience) {
  s_.set_phase(resilience ? PHASE_RESILIENCE : PHASE_SOCIAL);
  s_.set_turn(-1);
  for (int i = 0; i < Seats(); ++i) {
    // The column is fixed by class C when the phase begins, whatever happens during it.
    N(i).set_column(N(i).classes(2));
    N(i).set_step(SOCIAL_STEP_FEEDING);
    N(i).clear_help();
  }
}

void LimitState::RunSocial(int seat) {
  const bool resilience = s_.phase() == PHASE_RESILIENCE;
  // A nation waiting for its allies' answers stops until they all answered.
  while (!Owes(seat) && !HelpWaiting(seat) &&
         N(seat).step() != SOCIAL_STEP_DONE) {
    const SocialStep st = N(seat).step();
    SocialStep next = static_cast<SocialStep>(st + 1);
    if (resilience) {
      // The resilience test repeats feeding, consumption and production only.
      next = st == SOCIAL_STEP_FEEDING       ? SOCIAL_STEP_CONSUMPTION
             : st == SOCIAL_STEP_CONSUMPTION ? SOCIAL_STEP_PRODUCTION
                                             : SOCIAL_STEP_DONE;
    }
    N(seat).set_step(next);
    SocialStepRun(seat, st);
  }
}

void LimitState::SocialStepRun(int seat, SocialStep step) {
  auto& n = N(seat);
  const uint32_t col = n.column();
  const int pop = static_cast<int>(n.pop_rank());
  switch (step) {
    case SOCIAL_STEP_FEEDING: {
      const int rank = pop - (HasPermanent(seat, data::EFFECT_VEGETARIANISM) ? 1 : 0);
      const uint32_t need = PopValue(rank);
      if (AskHelp(seat, step, ALLIANCE_ECONOMIC, RESOURCE_RENEWABLE,
                  need > n.renewable() ? need - n.renewable() : 0)) {
        n.set_step(step);  // run again once the allies answered
        break;
      }
      uint32_t stock = n.renewable(), spent = 0;
      const uint32_t unfed = SpendByRank(&stock, rank, &spent);
      n.set_renewable(stock);
      Log(T("limit.log.feeds", Seat{seat}, spent));
      if (unfed > 0) {
        Log(T("limit.log.famine", Seat{seat}, unfed, 3 * unfed));
        for (uint32_t k = 0; k < unfed; ++k) PopDown(seat);
        RaiseDisorder(seat, 3 * unfed, T("limit.cause.famine"));
        AskOwed(seat, PROMPT_LOWER_FACTORY, unfed, T("limit.why.famine"));
      }
      break;
    }
    case SOCIAL_STEP_CONSERVATION:
      n.set_renewable(std::min(n.renewable(), board().renewable_keep_max()));
      break;
    case SOCIAL_STEP_CONSUMPTION: {
      if (col <= 1) break;
      int rank = pop + static_cast<int>(col) - 3;  // level 2: one rank lower; 4: one higher
      if (HasPermanent(seat, data::EFFECT_REASONED_CONSUMPTION)) --rank;
      const uint32_t need = PopValue(rank);
      if (AskHelp(seat, step, ALLIANCE_ECONOMIC, RESOURCE_INDUSTRIAL,
                  need > n.industrial() ? need - n.industrial() : 0)) {
        n.set_step(step);
        break;
      }
      uint32_t stock = n.industrial(), spent = 0;
      const uint32_t missing = SpendByRank(&stock, rank, &spent);
      SpendIndustrial(seat, spent);
      Log(T("limit.log.consumes", Seat{seat}, spent));
      if (missing > 0) {
        Log(T("limit.log.industrial_shortage", Seat{seat}, missing, 2 * missing));
        RaiseDisorder(seat, 2 * missing, T("limit.cause.industrial_shortage"));
        AskOwed(seat, PROMPT_LOWER_CLASS, missing, T("limit.why.industrial_shortage"));
      }
      break;
    }
    case SOCIAL_STEP_DEMOGRAPHIC_GROWTH:
      if (col <= 2) PopUp(seat);
      break;
    case SOCIAL_STEP_MORTALITY:
      if (n.transition_tokens() >= 2) PopUp(seat);
      break;
    case SOCIAL_STEP_NATALITY:
      n.set_transition_tokens(n.transition_tokens() - std::min<uint32_t>(2, n.transition_tokens()));
      break;
    case SOCIAL_STEP_ECONOMIC_GROWTH:
      if (HasPermanent(seat, data::EFFECT_PLANNING)) break;
      if (col == 1) {
        FactoryUp(seat, FACTORY_RENEWABLE, 1);
      } else if (col == 2) {
        FactoryUp(seat, FACTORY_RENEWABLE, 1);
        FactoryUp(seat, FACTORY_INDUSTRIAL, 1);
      } else if (col == 3) {
        AskOwed(seat, PROMPT_GROWTH_FACTORY, 1, T("limit.why.growth_up"));
      } else {
        AskOwed(seat, PROMPT_GROWTH_FACTORY, 1, T("limit.why.growth_down"), true);
      }
      break;
    case SOCIAL_STEP_TAXATION: {
      const uint32_t before = n.money();
      BankPay(seat, board().tax_per_pop(col - 1) * PopValue(pop), true);
      Log(T("limit.log.taxes", Seat{seat}, n.money() - before));
      break;
    }
    case SOCIAL_STEP_PRODUCTION: {
      // Fossil the whole step needs: intensive agriculture's token, then both factories.
      uint32_t need = HasPermanent(seat, data::EFFECT_INTENSIVE_AGRICULTURE) ? 1 : 0;
      for (Factory f : {FACTORY_INDUSTRIAL, FACTORY_MILITARY}) {
        const int r = static_cast<int>(FactoryRank(n, f));
        if (r > 0) need += board().tracks(static_cast<int>(f) - 1).fossil(r - 1);
      }
      if (AskHelp(seat, step, ALLIANCE_ECONOMIC, RESOURCE_FOSSIL,
                  need > n.fossil() ? need - n.fossil() : 0)) {
        n.set_step(step);
        break;
      }
      // Logged as the change of the stocks, which is what the three productions add up to.
      const uint32_t r0 = n.renewable(), i0 = n.industrial(), m0 = n.military(),
                     f0 = n.fossil(), p0 = n.pollution();
      Produce(seat, FACTORY_RENEWABLE, true);
      Produce(seat, FACTORY_INDUSTRIAL, true);
      Produce(seat, FACTORY_MILITARY, true);
      Log(T("limit.log.produces", Seat{seat}, n.renewable() - r0, n.industrial() - i0,
            n.military() - m0, f0 - n.fossil(), n.pollution() - p0));
      break;
    }
    case SOCIAL_STEP_PUBLIC_ORDER: {
      const uint32_t positions = board().disorder_positions();
      if (n.disorder() >= positions - board().revolt_positions()) {
        if (col <= 2) {
          const uint32_t need = PopValue(pop - static_cast<int>(3 - col));
          if (AskHelp(seat, step, ALLIANCE_MILITARY, RESOURCE_MILITARY,
                      need > n.military() ? need - n.military() : 0)) {
            n.set_step(step);
            break;
          }
          uint32_t stock = n.military(), spent = 0;
          const uint32_t missing = SpendByRank(&stock, pop - static_cast<int>(3 - col), &spent);
          n.set_military(stock);
          Log(T("limit.log.revolt_spends", Seat{seat}, spent));
          if (missing > 0) {
            Log(T("limit.log.revolt_shortage", Seat{seat}, missing));
            AskOwed(seat, PROMPT_LOWER_CLASS, missing, T("limit.why.military_shortage"));
          }
        } else {
          const uint32_t due = (col == 3 ? 2 : 3) * PopValue(pop);
          const uint32_t lost = std::min(due, n.money());
          n.set_money(n.money() - lost);
          s_.set_money_to_limit(s_.money_to_limit() + lost);
          Log(T("limit.log.revolt_pays", Seat{seat}, lost));
        }
        Log(T("limit.log.revolt", Seat{seat}));
      } else if (n.disorder() < board().boom_positions()) {
        if (col <= 3) AskOwed(seat, PROMPT_RAISE_CLASS, 1, T("limit.why.boom"));
        const uint32_t before = n.money();
        BankPay(seat, col == 1 ? 5 : 10, true);
        Log(T("limit.log.boom", Seat{seat}, n.money() - before));
      } else if (col <= 3) {
        AskOwed(seat, PROMPT_RAISE_CLASS, 1, T("limit.why.progress"));
      }
      break;
    }
    case SOCIAL_STEP_CLASS_STRUGGLE:
      RaiseDisorder(seat, n.classes(0) - n.classes(4), T("limit.cause.class_struggle"));
      break;
    default:
      break;
  }
}

void LimitState::Produce(int seat, Factory f, bool shortage_penalty) {
  auto& n = N(seat);
  const auto& track = board().tracks(static_cast<int>(f) - 1);
  int r = static_cast<int>(FactoryRank(n, f));
  if (f == FACTORY_RENEWABLE) {
    uint32_t gain = TrackValue(f, r);
    for (int i = 0; i < n.permanents_size(); ++i) {
      const uint32_t id = n.permanents(i);
      if (g().card(id).effect() != data::EFFECT_INTENSIVE_AGRICULTURE) continue;
      if (n.fossil() < 1) {
        // Without fossil the card must be removed before producing.
        n.mutable_permanents()->erase(n.mutable_permanents()->begin() + i);
        UnderDeck(seat, id);
        FactoryDown(seat, FACTORY_RENEWABLE, 1);
        gain = TrackValue(f, static_cast<int>(n.renewable_rank()));
        Log(T("limit.log.agriculture_removed", Seat{seat}, CardName(g().card(id))));
      } else {
        n.set_fossil(n.fossil() - 1);
        s_.set_fossil_to_limit(s_.fossil_to_limit() + 1);
        GainPollution(seat, 1);
        gain = r >= track.value_size() ? 100 : TrackValue(f, r + 1);
      }
      break;
    }
    n.set_renewable(n.renewable() + gain);
    return;
  }
  int k = r;
  while (k > 0 && track.fossil(k - 1) > n.fossil()) --k;
  const uint32_t fossil = k > 0 ? track.fossil(k - 1) : 0;
  uint32_t pollution = k > 0 ? track.pollution(k - 1) : 0;
  if (f == FACTORY_INDUSTRIAL && pollution > 0 && HasPermanent(seat, data::EFFECT_GREEN_PRODUCTION))
    --pollution;
  n.set_fossil(n.fossil() - fossil);
  s_.set_fossil_to_limit(s_.fossil_to_limit() + fossil);
  GainPollution(seat, pollution);
  if (f == FACTORY_INDUSTRIAL) n.set_industrial(n.industrial() + TrackValue(f, k));
  else n.set_military(n.military() + TrackValue(f, k));
  if (shortage_penalty && k < r) {
    Log(T("limit.log.fossil_shortage", Seat{seat},
          ResourceText(f == FACTORY_INDUSTRIAL ? RESOURCE_INDUSTRIAL : RESOURCE_MILITARY)));
    RaiseDisorder(seat, 2 * (r - k), T("limit.cause.fossil_shortage"));
    FactoryDown(seat, f, r - k);
  }
}

}  // namespace plateau::games::limit
