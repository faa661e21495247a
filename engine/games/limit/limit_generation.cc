// LIMIT: the generation's phases in order, whose turn it is, and the end of the game with its
// score sheet.
#include <algorithm>

#include "engine/games/limit/limit.h"
#include "engine/games/limit/limit_nation.h"

namespace plateau::games::limit {

std::vector<int> LimitState::GameActingSeats() const {
  std::vector<int> out;
  if (IsTerminal()) return out;
  if (s_.turn() >= 0 &&
      (s_.phase() == PHASE_POLITICAL_DECISIONS ||
       (s_.phase() == PHASE_ALLIANCE && !s_.alliance_pending().active())))
    out.push_back(s_.turn());
  return out;
}

// ----- Generation flow -----

void LimitState::StartGeneration() {
  for (int i = 0; i < Seats(); ++i) {
    auto& n = N(i);
    const uint32_t a = n.classes(0);
    n.set_class_a_at_start(a);
    // Technological advance: set-aside cards join the hand once class A reached their level.
    for (int k = n.set_aside_size() - 1; k >= 0; --k) {
      const uint32_t id = n.set_aside(k);
      if (g().card(id).tech_level() <= a) {
        n.add_hand(id);
        n.mutable_set_aside()->erase(n.mutable_set_aside()->begin() + k);
      }
    }
    n.set_hand_limit(board().hand_limit(a - 1));
    n.set_draw_count(board().draw_count(a - 1));
    n.set_keep_count(board().keep_count(a - 1));
    n.set_passed(false);
    n.set_cards_this_turn(0);
    n.clear_failed_collections();
  }
  s_.set_phase(PHASE_NEW_POLICY);
  s_.set_turn(-1);
  for (int i = 0; i < Seats(); ++i) {
    bool any = false;
    for (const auto& d : N(i).decks()) any = any || d.cards_size() > 0;
    if (any) AskOwed(i, PROMPT_CHOOSE_DECK, 1, T("limit.why.new_policy"));
  }
}

void LimitState::Advance() {
  for (int guard = 0; guard < 10000; ++guard) {
    if (OpenDecision() != nullptr) return;
    if (s_.pending().active()) {
      ResolvePending();
      continue;
    }
    switch (s_.phase()) {
      case PHASE_NEW_POLICY:
        s_.set_phase(PHASE_HAND_LIMIT);
        for (int i = 0; i < Seats(); ++i) {
          const int over = N(i).hand_size() - static_cast<int>(N(i).hand_limit());
          if (over > 0)
            AskOwed(i, PROMPT_DISCARD, over, T("limit.why.hand_limit", N(i).hand_limit(), over));
        }
        continue;
      case PHASE_HAND_LIMIT:
        EnterPolitical();
        continue;
      case PHASE_POLITICAL_DECISIONS:
        if (s_.turn() < 0) {
          EndPolitical();
          continue;
        }
        return;
      case PHASE_SOCIAL:
      case PHASE_RESILIENCE: {
        bool all_done = true;
        for (int i = 0; i < Seats(); ++i) {
          RunSocial(i);
          all_done = all_done && N(i).step() == SOCIAL_STEP_DONE;
        }
        if (OpenDecision() != nullptr) return;
        if (!all_done) continue;
        if (s_.phase() == PHASE_RESILIENCE) {
          FinishGame();
          return;
        }
        s_.set_phase(PHASE_INTERNATIONAL);
        s_.set_international_step(0);
        continue;
      }
      case PHASE_INTERNATIONAL:
        RunInternational();
        continue;
      case PHASE_ALLIANCE:
        if (s_.alliance_pending().active()) {
          ResolveAlliancePending();
          continue;
        }
        if (s_.turn() >= 0) return;
        // Everyone played: every token shows its Negotiation side again.
        for (int i = 0; i < Seats(); ++i) {
          N(i).set_military_accord(false);
          N(i).set_economic_accord(false);
        }
        s_.set_phase(PHASE_INTERNATIONAL);
        s_.set_international_step(7);
        continue;
      default:
        return;
    }
  }
}

void LimitState::EnterPolitical() {
  s_.set_phase(PHASE_POLITICAL_DECISIONS);
  s_.set_turn(static_cast<int>(s_.leader()));
}

void LimitState::EndTurn() {
  const int cur = s_.turn();
  if (cur >= 0) N(cur).set_cards_this_turn(0);
  for (int k = 1; k <= Seats(); ++k) {
    const int next = (cur + k) % Seats();
    if (!N(next).passed()) {
      s_.set_turn(next);
      return;
    }
  }
  s_.set_turn(-1);
}

void LimitState::EndPolitical() {
  for (int i = 0; i < Seats(); ++i) {
    auto& n = N(i);
    // Immediate cards come back to the hand; permanent ones stay in play.
    for (uint32_t id : n.played()) n.add_hand(id);
    n.clear_played();
    n.clear_failed_collections();
    n.set_cards_this_turn(0);
  }
  Log(T("limit.log.social_phase"));
  StartSocial(false);
}

void LimitState::EndGeneration() {
  const bool over = s_.generation() >= board().generations() ||
                    s_.crises_size() >= static_cast<int>(board().crises_to_end());
  if (over) {
    Log(T("limit.log.resilience", s_.generation()));
    StartSocial(true);
    return;
  }
  s_.set_generation(s_.generation() + 1);
  s_.set_leader((s_.leader() + 1) % Seats());
  Log(T("limit.log.generation", s_.generation(), Seat{static_cast<int>(s_.leader())}));
  StartGeneration();
}

// ----- Scores -----

ScoreLine LimitState::ScoreOf(int seat) const {
  const auto& n = N(seat);
  ScoreLine l;
  l.set_seat(seat);
  l.set_living_sum(n.classes(0) + n.classes(2) + n.classes(4));
  l.set_demographic_index(board().demographic_index(static_cast<int>(n.pop_rank()) - 1));
  l.set_gross_happiness(static_cast<int>(l.living_sum() * l.demographic_index()));
  l.set_money_value(5 - s_.crises_size());
  l.set_financial(l.money_value() > 0 ? static_cast<int>(n.money() / 10) * l.money_value() : 0);
  l.set_territory(5 * static_cast<int>(n.territories()));
  l.set_military(static_cast<int>(n.military() / 3));
  l.set_pollution_penalty(-2 * static_cast<int>(n.pollution()));
  l.set_destabilisation_penalty(-static_cast<int>(n.destabilisation()));
  l.set_total(l.gross_happiness() + l.financial() + l.territory() + l.military() +
              l.pollution_penalty() + l.destabilisation_penalty());
  return l;
}

void LimitState::FinishGame() {
  s_.clear_scores();
  for (int i = 0; i < Seats(); ++i) *s_.add_scores() = ScoreOf(i);
  s_.set_phase(PHASE_GAME_OVER);
  s_.set_turn(-1);
  Log(T("limit.log.game_over"));
}

std::vector<int64_t> LimitState::Scores() const {
  std::vector<int64_t> out;
  for (int i = 0; i < Seats(); ++i)
    out.push_back(i < s_.scores_size() ? s_.scores(i).total() : ScoreOf(i).total());
  return out;
}

bool LimitState::SoloWon() const {
  return s_.solo() && Scores()[0] > static_cast<int64_t>(board().solo_target());
}

std::string LimitState::ResultDetail(int seat) const {
  const ScoreLine l = ScoreOf(seat);
  // Solo: the verdict against the star nation first, as a ranking of one seat says nothing.
  std::string verdict;
  if (s_.solo())
    verdict = SoloWon() ? "beats the star nation (over " + std::to_string(board().solo_target()) +
                              " VP): "
                        : "the star nation wins (over " + std::to_string(board().solo_target()) +
                              " VP needed): ";
  return verdict + "happiness " + std::to_string(l.gross_happiness()) + ", finance " +
         std::to_string(l.financial()) + ", territory " + std::to_string(l.territory()) +
         ", military " + std::to_string(l.military()) + ", impact " +
         std::to_string(l.pollution_penalty() + l.destabilisation_penalty());
}

}  // namespace plateau::games::limit
