// Globalissimo: a round (the deal, the reveal and its points, pawns moving up to a barrier, the
// round's end) and the final results.
#include <algorithm>
#include <cstdlib>
#include <utility>

#include "engine/core/rng.h"
#include "engine/games/globalissimo/globalissimo.h"
#include "engine/games/globalissimo/globalissimo_shared.h"

namespace plateau::games::globalissimo {

// ----- The round -----

uint32_t GlobalissimoState::DrawCard() {
  if (s_.deck_size() == 0) {
    // Only possible after many failed questions: the discarded cards become a new deck.
    engine::Rng rng(s_.rng());
    s_.mutable_deck()->Swap(s_.mutable_discard());
    rng.ShuffleRepeated(s_.mutable_deck());
    s_.set_rng(rng.state());
    Log(T("globalissimo.deck_reshuffled"));
  }
  const uint32_t card = s_.deck(s_.deck_size() - 1);
  s_.mutable_deck()->RemoveLast();
  return card;
}

void GlobalissimoState::StartRound() {
  s_.set_phase(PHASE_PLACEMENT);
  s_.set_tiles_placed(0);
  s_.set_scored(0);
  s_.set_steps_left(0);
  s_.set_moving(false);
  s_.set_question_barrier(-1);
  s_.clear_display();
  for (int i = 0; i < GlobalissimoGame::CardsOnDisplay(num_seats()); ++i) {
    auto* slot = s_.add_display();
    slot->set_card(DrawCard());
    slot->set_tile_seat(-1);
    slot->set_points(-1);
  }
  const auto& category = g().cards().categories(s_.category_order(s_.round() - 1));
  Log(T("globalissimo.round_start", s_.round(), s_.total_rounds(), category.name(),
        Seat{static_cast<int>(s_.first_player())}));
}

int GlobalissimoState::CurrentPlacer() const {
  return static_cast<int>((s_.first_player() + s_.tiles_placed()) % s_.num_seats());
}

int GlobalissimoState::CurrentScorer() const {
  return static_cast<int>((s_.first_player() + s_.scored()) % s_.num_seats());
}

std::vector<int> GlobalissimoState::GameActingSeats() const {
  switch (s_.phase()) {
    case PHASE_PLACEMENT: return {CurrentPlacer()};
    case PHASE_QUESTION: return {CurrentScorer()};
    default: return {};
  }
}

void GlobalissimoState::RevealAndScore() {
  const int category = static_cast<int>(s_.category_order(s_.round() - 1));
  // A bot's drawn copy ranks by what the bot believes (PerturbMore); a real game by the values.
  auto value = [&](const internal::SlotState& slot) {
    return slot.believed() ? slot.belief() : Country(slot.card()).values(category);
  };
  for (auto& slot : *s_.mutable_display()) {
    // Descending order; equal values share a position and leave the next ones empty.
    uint32_t higher = 0;
    for (const auto& other : s_.display()) higher += value(other) > value(slot) ? 1 : 0;
    slot.set_position(higher + 1);
    if (slot.tile_seat() >= 0) {
      const int error = std::abs(static_cast<int>(slot.tile_position()) -
                                 static_cast<int>(slot.position()));
      slot.set_points(error <= 2 ? 3 - error : 0);
    }
  }
  for (uint32_t p = 1; p <= static_cast<uint32_t>(s_.display_size()); ++p) {
    for (const auto& slot : s_.display()) {
      if (slot.position() != p) continue;
      Log(T("globalissimo.revealed", p, Country(slot.card()).name(),
            g().ValueText(slot.card(), category)));
    }
  }
  s_.set_scored(0);
  s_.set_moving(false);
  ContinueScoring();
}

void GlobalissimoState::FinishMove() {
  s_.set_steps_left(0);
  s_.set_moving(false);
  s_.set_scored(s_.scored() + 1);
}

void GlobalissimoState::ContinueScoring() {
  const auto& track = g().track();
  while (s_.scored() < s_.num_seats()) {
    const int seat = CurrentScorer();
    auto* me = s_.mutable_seats(seat);
    if (!s_.moving()) {
      const auto& slot = s_.display(me->placed_slot());
      me->set_last_round_points(slot.points());
      s_.set_steps_left(static_cast<uint32_t>(slot.points()));
      s_.set_moving(true);
      Log(T("globalissimo.scored", Seat{seat}, slot.tile_position(), Country(slot.card()).name(),
            slot.position(), slot.points()));
    }
    while (s_.steps_left() > 0) {
      const uint32_t next = me->square() + 1;
      if (next >= track.size()) {
        // The pawn stops on the last square; the remaining steps are lost.
        Log(T("globalissimo.track_end", Seat{seat}));
        break;
      }
      const int b = track[next].barrier;
      if (b >= 0) {
        auto* barrier = s_.mutable_barriers(b);
        if (barrier->present()) {
          if (barrier->question_card() < 0) barrier->set_question_card(static_cast<int>(DrawCard()));
          s_.set_question_barrier(b);
          s_.set_phase(PHASE_QUESTION);
          const auto& country = Country(static_cast<uint32_t>(barrier->question_card()));
          Log(T(barrier->color() == BARRIER_ORANGE ? "globalissimo.meets_orange"
                                                   : "globalissimo.meets_violet",
                Seat{seat}, country.name()));
          return;
        }
        me->set_square(next);  // a taken barrier is passed freely and is not a step
        continue;
      }
      me->set_square(next);
      me->set_distance(track[next].distance);
      s_.set_steps_left(s_.steps_left() - 1);
    }
    FinishMove();
  }
  EndRound();
}

void GlobalissimoState::Settle(const internal::BarrierState& barrier, int answered_by) {
  const auto& country = Country(static_cast<uint32_t>(barrier.question_card()));
  SettledQuestion* q = s_.add_settled();
  q->set_round(s_.round());
  q->set_kind(barrier.color());
  q->set_country_id(country.id());
  q->set_map_id(country.map_id());
  q->set_capital(country.capitals(0));
  q->set_answered_by(answered_by);
}

void GlobalissimoState::EndRound() {
  auto* record = s_.mutable_last_round();
  record->set_round(s_.round());
  record->set_category(s_.category_order(s_.round() - 1));
  *record->mutable_display() = s_.display();
  for (const auto& slot : s_.display()) s_.add_discard(slot.card());
  s_.clear_display();
  // Only the questions of the round ending and of this one stay listed.
  auto* settled = s_.mutable_settled();
  settled->erase(std::remove_if(settled->begin(), settled->end(),
                                [&](const auto& q) { return q.round() < s_.round(); }),
                 settled->end());
  for (auto& barrier : *s_.mutable_barriers()) {
    if (barrier.question_card() >= 0) {
      // Nobody answered it right: with the round over, nobody else will be asked it.
      const auto& country = Country(static_cast<uint32_t>(barrier.question_card()));
      Log(barrier.color() == BARRIER_ORANGE
              ? T("globalissimo.unanswered_capital", country.name(), country.capitals(0))
              : T("globalissimo.unanswered_map", country.name()));
      Settle(barrier, -1);
      s_.add_discard(static_cast<uint32_t>(barrier.question_card()));
    }
    barrier.set_question_card(-1);
    barrier.clear_wrong_answers();
  }
  for (auto& seat : *s_.mutable_seats()) seat.set_placed_slot(-1);
  s_.set_scored(0);
  s_.set_moving(false);
  s_.set_steps_left(0);
  s_.set_tiles_placed(0);
  s_.set_question_barrier(-1);
  s_.set_round(s_.round() + 1);
  if (s_.round() > s_.total_rounds()) {
    s_.set_phase(PHASE_GAME_OVER);
    const auto ranks = Ranks();
    Log(T("globalissimo.game_over"));
    for (int seat = 0; seat < num_seats(); ++seat) {
      const auto& me = s_.seats(seat);
      Log(T("globalissimo.final", Seat{seat}, ranks[seat], me.distance(),
            me.orange_barriers() + me.violet_barriers()));
    }
    return;
  }
  s_.set_first_player((s_.first_player() + 1) % s_.num_seats());
  StartRound();
}

// ----- Results -----

std::vector<int64_t> GlobalissimoState::Scores() const {
  std::vector<int64_t> out;
  for (const auto& seat : s_.seats()) out.push_back(seat.distance());
  return out;
}

std::vector<int> GlobalissimoState::GameRanks() const {
  auto key = [&](int i) {
    const auto& seat = s_.seats(i);
    return std::make_pair(seat.distance(), seat.orange_barriers() + seat.violet_barriers());
  };
  std::vector<int> ranks(num_seats());
  for (int i = 0; i < num_seats(); ++i) {
    int better = 0;
    for (int j = 0; j < num_seats(); ++j) better += key(j) > key(i) ? 1 : 0;
    ranks[i] = better + 1;
  }
  return ranks;
}

std::string GlobalissimoState::ResultDetail(int seat) const {
  if (seat < 0 || seat >= num_seats()) return {};
  const auto& me = s_.seats(seat);
  const uint32_t barriers = me.orange_barriers() + me.violet_barriers();
  return std::to_string(me.distance()) + (me.distance() == 1 ? " square, " : " squares, ") +
         std::to_string(barriers) + (barriers == 1 ? " barrier" : " barriers");
}

}  // namespace plateau::games::globalissimo
