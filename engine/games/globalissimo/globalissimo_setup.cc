// Globalissimo: what a position may hold (the checks a position read back must pass), and a new
// game's set-up.
#include <algorithm>

#include "engine/core/rng.h"
#include "engine/games/globalissimo/globalissimo.h"
#include "engine/games/globalissimo/globalissimo_shared.h"

namespace plateau::games::globalissimo {

std::string GlobalissimoGame::CheckPosition(const internal::StateProto& s) const {
  const uint32_t n = s.num_seats();
  if (n < 2 || n > 6) return "the number of seats must be 2 to 6.";
  if (s.total_rounds() < 1 || s.total_rounds() > kBookRounds) return "total_rounds out of range.";
  if (s.round() < 1 || s.round() > s.total_rounds() + 1) return "round out of range.";
  const bool over = s.phase() == PHASE_GAME_OVER;
  if (over != (s.round() == s.total_rounds() + 1)) return "phase and round disagree.";
  if (s.phase() != PHASE_PLACEMENT && s.phase() != PHASE_QUESTION && !over) return "bad phase.";
  if (s.first_player() >= n) return "first_player out of range.";
  if (s.seats_size() != static_cast<int>(n)) return "one seat record per seat is needed.";
  std::vector<uint32_t> categories(s.category_order().begin(), s.category_order().end());
  std::sort(categories.begin(), categories.end());
  for (uint32_t i = 0; i < categories.size(); ++i) {
    if (categories.size() != static_cast<size_t>(cards_.categories_size()) || categories[i] != i) {
      return "category_order must order every category once.";
    }
  }
  const int shown = over ? 0 : CardsOnDisplay(static_cast<int>(n));
  if (s.display_size() != shown) return "wrong number of cards on display.";
  std::vector<int> seen(cards_.countries_size(), 0);
  auto count = [&](uint32_t card) {
    if (card >= seen.size()) return false;
    ++seen[card];
    return true;
  };
  for (uint32_t c : s.deck()) if (!count(c)) return "deck card out of range.";
  for (uint32_t c : s.discard()) if (!count(c)) return "discard card out of range.";
  uint32_t tiles = 0;
  for (int i = 0; i < s.display_size(); ++i) {
    const auto& slot = s.display(i);
    if (!count(slot.card())) return "display card out of range.";
    if (slot.tile_seat() >= static_cast<int>(n) || slot.tile_seat() < -1) return "bad tile seat.";
    if (slot.tile_seat() >= 0) {
      ++tiles;
      if (slot.tile_position() < 1 || slot.tile_position() > static_cast<uint32_t>(shown)) {
        return "bad tile position.";
      }
      if (s.seats(slot.tile_seat()).placed_slot() != i) {
        return "a tile and its seat's placed_slot disagree.";
      }
    }
  }
  if (s.phase() == PHASE_PLACEMENT && tiles != s.tiles_placed()) return "tiles_placed is wrong.";
  if (s.phase() == PHASE_QUESTION && tiles != n) return "a question comes after every tile.";
  for (int i = 0; i < s.seats_size(); ++i) {
    const auto& seat = s.seats(i);
    if (seat.square() >= track_.size()) return "a pawn is off the track.";
    if (track_[seat.square()].barrier >= 0) return "a pawn stands on a barrier square.";
    if (seat.placed_slot() < -1 || seat.placed_slot() >= shown) return "bad placed_slot.";
    if (seat.placed_slot() >= 0 && s.display(seat.placed_slot()).tile_seat() != i) {
      return "a seat's placed_slot has no tile of its own.";
    }
    if (seat.distance() != track_[seat.square()].distance) return "distance and square disagree.";
  }
  if (s.barriers_size() != board_.barrier_after_size()) return "one barrier record per slot.";
  for (int b = 0; b < s.barriers_size(); ++b) {
    const auto& barrier = s.barriers(b);
    if (barrier.square() >= track_.size() || track_[barrier.square()].barrier != b) {
      return "barrier square mismatch.";
    }
    if (barrier.color() != BARRIER_ORANGE && barrier.color() != BARRIER_VIOLET) {
      return "bad barrier colour.";
    }
    if (barrier.present() != (barrier.taken_by() == -1)) return "barrier ownership mismatch.";
    if (barrier.taken_by() < -1 || barrier.taken_by() >= static_cast<int>(n)) {
      return "bad barrier owner.";
    }
    if (barrier.question_card() >= 0 && !count(static_cast<uint32_t>(barrier.question_card()))) {
      return "question card out of range.";
    }
    if (barrier.question_card() >= 0 && !barrier.present()) return "question on a taken barrier.";
  }
  for (int v : seen) {
    if (v != 1) return "every country card must be in exactly one place.";
  }
  if (s.phase() == PHASE_QUESTION) {
    if (s.question_barrier() < 0 || s.question_barrier() >= s.barriers_size()) {
      return "a question needs its barrier.";
    }
    const auto& barrier = s.barriers(s.question_barrier());
    if (!barrier.present() || barrier.question_card() < 0) return "the question has no card.";
    if (s.scored() >= n || !s.moving()) return "no seat is moving.";
  } else if (s.question_barrier() != -1) {
    return "question_barrier set outside a question.";
  }
  for (int i = 0; i < s.last_round().display_size(); ++i) {
    if (s.last_round().display(i).card() >= seen.size()) return "last_round card out of range.";
  }
  if (s.last_round().category() >= categories.size()) return "last_round category out of range.";
  return "";
}

// ----- State -----

GlobalissimoState::GlobalissimoState(const GlobalissimoGame* game, internal::StateProto position)
    : TypedState(game, static_cast<int>(position.num_seats()), /*splits=*/true), game_(game) {
  s_ = std::move(position);
}

void GlobalissimoState::Setup(uint32_t total_rounds, uint64_t seed) {
  engine::Rng rng(seed);
  s_.set_total_rounds(total_rounds);
  for (int i = 0; i < g().cards().categories_size(); ++i) s_.add_category_order(i);
  rng.ShuffleRepeated(s_.mutable_category_order());
  for (int i = 0; i < g().cards().countries_size(); ++i) s_.add_deck(i);
  rng.ShuffleRepeated(s_.mutable_deck());

  std::vector<BarrierColor> colours(g().board().orange_barriers(), BARRIER_ORANGE);
  colours.insert(colours.end(), g().board().violet_barriers(), BARRIER_VIOLET);
  rng.Shuffle(colours);
  for (uint32_t square = 0; square < g().track().size(); ++square) {
    const int b = g().track()[square].barrier;
    if (b < 0) continue;
    auto* barrier = s_.add_barriers();
    barrier->set_square(square);
    barrier->set_color(colours[b]);
    barrier->set_present(true);
    barrier->set_taken_by(-1);
    barrier->set_question_card(-1);
  }
  for (int i = 0; i < num_seats(); ++i) {
    auto* seat = s_.add_seats();
    seat->set_placed_slot(-1);
    seat->set_last_round_points(-1);
  }
  s_.set_rng(rng.state());
  // Seat 0 holds the first-player figure: the room seats players, the engine does not know ages.
  s_.set_first_player(0);
  s_.set_round(1);
  s_.set_question_barrier(-1);
  s_.mutable_last_round()->set_category(0);
  StartRound();
}

}  // namespace plateau::games::globalissimo
