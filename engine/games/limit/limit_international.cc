// LIMIT: the international phase's sub-steps (cold war, crises, the Alliance step or the solo
// event) and the solo event cards.
#include <algorithm>

#include "engine/games/limit/limit.h"
#include "engine/games/limit/limit_nation.h"

namespace plateau::games::limit {

void LimitState::RunInternational() {
  const int n = Seats();
  const internal::StarState* star = Star();
  const data::SoloRow* row =
      s_.solo() ? &board().solo(static_cast<int>(s_.generation()) - 1) : nullptr;
  switch (s_.international_step()) {
    case 0:  // cold war
      for (int i = 0; i < n; ++i)
        if (N(i).military() > board().cold_war_threshold()) GainDestab(i, 1);
      if (row != nullptr && row->military() > board().cold_war_threshold()) StarGainDestab(1);
      s_.set_international_step(1);
      return;
    case 1:  // financial crisis
      if (HasCrisisThisGeneration(CRISIS_FINANCIAL)) {
        const uint32_t count = CrisisCount(CRISIS_FINANCIAL);
        Log(T("limit.log.financial_crisis", count));
        for (int i = 0; i < n; ++i) {
          const uint32_t lost = std::min(N(i).money(), PopValue(N(i).pop_rank()) * count);
          N(i).set_money(N(i).money() - lost);
          s_.set_bank(s_.bank() + lost);
          AskOwed(i, PROMPT_LOWER_CLASS, 1, T("limit.why.financial_crisis"));
        }
        s_.set_international_step(2);
      } else {
        s_.set_international_step(3);
      }
      return;
    case 2: {  // the richest nation is blamed
      uint32_t best = 0;
      for (int i = 0; i < n; ++i) best = std::max(best, N(i).money());
      if (star != nullptr) best = std::max(best, star->money());
      int tied = 0;
      for (int i = 0; i < n; ++i) tied += N(i).money() == best;
      if (star != nullptr) tied += star->money() == best;
      const uint32_t k = tied > 1 ? 1 : 2;
      for (int i = 0; i < n; ++i)
        if (N(i).money() == best) GainDestab(i, k);
      if (star != nullptr && star->money() == best) StarGainDestab(k);
      s_.set_international_step(3);
      return;
    }
    case 3: {  // ecological crisis
      if (s_.pollution_reserve() == 0 && !HasCrisisThisGeneration(CRISIS_ECOLOGICAL)) {
        AddCrisis(CRISIS_ECOLOGICAL);
        const int count = CrisisCount(CRISIS_ECOLOGICAL);
        Log(T("limit.log.ecological_crisis", count));
        for (int i = 0; i < n; ++i) {
          FactoryDown(i, FACTORY_RENEWABLE, count);
          if (N(i).fossil() > 0) {
            N(i).set_fossil(N(i).fossil() - 1);
            s_.set_fossil_to_limit(s_.fossil_to_limit() + 1);
          }
        }
        if (star != nullptr && star->fossil() > 0) {
          s_.mutable_star()->set_fossil(star->fossil() - 1);
          s_.set_fossil_to_limit(s_.fossil_to_limit() + 1);
        }
        uint32_t best = 0;
        for (int i = 0; i < n; ++i) best = std::max(best, PopValue(N(i).pop_rank()));
        if (row != nullptr) best = std::max(best, row->population());
        int best_rank = 1;
        while (PopValue(best_rank) < best && best_rank < 9) ++best_rank;
        std::vector<bool> hit(n, false);
        for (int i = 0; i < n; ++i) {
          if (PopValue(N(i).pop_rank()) != best) continue;
          hit[i] = true;
          PopDown(i);
          RaiseDisorder(i, 3, T("limit.cause.ecological_crisis"));
          for (int c = 0; c < kClasses; ++c)
            if (CanLowerClass(i, c)) {
              LowerClass(i, c);  // the highest class that may go down
              break;
            }
        }
        // Migrations: nations now at least two ranks below the hit ones grow.
        const int after = best_rank - 1;
        for (int i = 0; i < n; ++i)
          if (!hit[i] && static_cast<int>(N(i).pop_rank()) <= after - 2) PopUp(i);
      }
      s_.set_international_step(4);
      return;
    }
    case 4: {  // military crisis
      if (s_.destabilisation_reserve() == 0 && !HasCrisisThisGeneration(CRISIS_MILITARY)) {
        AddCrisis(CRISIS_MILITARY);
        const int count = CrisisCount(CRISIS_MILITARY);
        Log(T("limit.log.military_crisis", count));
        for (int i = 0; i < n; ++i) {
          for (int k = 0; k < count; ++k) {
            for (int c = kClasses - 1; c >= 0; --c)
              if (CanLowerClass(i, c)) {
                LowerClass(i, c);  // the class with the lowest level that may go down
                break;
              }
          }
          N(i).clear_help();
        }
        s_.set_international_step(8);
      } else {
        s_.set_international_step(6);
      }
      return;
    }
    case 5: {
      for (int i = 0; i < n; ++i)
        if (N(i).destabilisation() > 0) {
          N(i).set_destabilisation(N(i).destabilisation() - 1);
          s_.set_destabilisation_reserve(s_.destabilisation_reserve() + 1);
        }
      if (star != nullptr && star->destabilisation() > 0) {
        s_.mutable_star()->set_destabilisation(star->destabilisation() - 1);
        s_.set_destabilisation_reserve(s_.destabilisation_reserve() + 1);
      }
      uint32_t best = 0;
      for (int i = 0; i < n; ++i) best = std::max(best, N(i).destabilisation());
      if (star != nullptr) best = std::max(best, star->destabilisation());
      if (best > 0)
        for (int i = 0; i < n; ++i)
          if (N(i).destabilisation() == best) PopDown(i);
      s_.set_international_step(6);
      return;
    }
    case 8:  // military crisis spending, nation by nation (allies may help)
      MilitaryCrisisSpending();
      return;
    case 6:
      if (s_.solo()) {
        ApplyEvent();
      } else if (s_.alliances()) {
        StartAllianceStep();
        return;
      }
      s_.set_international_step(7);
      return;
    default:
      EndGeneration();
      return;
  }
}

void LimitState::ApplyEvent() {
  if (s_.events_size() == 0) {
    engine::Rng rng(s_.rng());
    for (uint32_t e : s_.event_discard()) s_.add_events(e);
    s_.clear_event_discard();
    rng.ShuffleRepeated(s_.mutable_events());
    s_.set_rng(rng.state());
  }
  const uint32_t id = s_.events(0);
  s_.mutable_events()->erase(s_.mutable_events()->begin());
  s_.add_event_discard(id);
  const auto& e = board().events(static_cast<int>(id));
  Log(T("limit.log.event", e.name(), e.text()));
  const int last = board().prices_size() - 1;
  switch (e.effect()) {
    case data::EVENT_PRICE_UP: {
      auto* t = s_.mutable_market(static_cast<int>(e.resource()) - 1);
      t->set_position(std::min<uint32_t>(last, t->position() + e.amount()));
      break;
    }
    case data::EVENT_PRICES_DOWN:
      for (int i = 0; i < 3; ++i) {
        auto* t = s_.mutable_market(i);
        t->set_position(t->position() - std::min(t->position(), e.amount()));
      }
      break;
    case data::EVENT_RENEWABLE_UP: FactoryUp(0, FACTORY_RENEWABLE, e.amount()); break;
    case data::EVENT_LOSE_RENEWABLE:
      N(0).set_renewable(N(0).renewable() - std::min(N(0).renewable(), e.amount()));
      break;
    case data::EVENT_DISORDER_UP: RaiseDisorder(0, e.amount(), T("limit.cause.event")); break;
    case data::EVENT_STAR_DESTABILISATION: StarGainDestab(e.amount()); break;
    case data::EVENT_STAR_POLLUTION: StarGainPollution(e.amount()); break;
    case data::EVENT_BANK_GRANT: BankPay(0, e.amount(), false); break;
    default: break;
  }
}

}  // namespace plateau::games::limit
