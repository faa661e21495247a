// Globalissimo: what each seat sees, the terminal's text of a view, and the hidden information
// (the deck, the categories to come, what a bot believes or recalls).
#include <algorithm>

#include "engine/core/rng.h"
#include "engine/games/globalissimo/globalissimo.h"
#include "engine/games/globalissimo/globalissimo_shared.h"

namespace plateau::games::globalissimo {

namespace {

// ----- Terminal rendering -----

std::string Barrier(BarrierColor c) {
  return c == BARRIER_ORANGE ? "orange" : c == BARRIER_VIOLET ? "violet" : "none";
}

// The static data's entry with `id` (a terminal shows few of them: a scan will do).
template <typename Entry>
const Entry* Find(const google::protobuf::RepeatedPtrField<Entry>& entries, const std::string& id) {
  for (const Entry& e : entries)
    if (e.id() == id) return &e;
  return nullptr;
}

std::string Face(const StaticData& data, const std::string& id) {
  const CountryFace* face = Find(data.countries(), id);
  return face ? face->flag() + " " + face->name() : id;
}

std::string SlotLine(int index, const DisplaySlot& slot, const StaticData& data,
                     const engine::Game::SeatNamer& name) {
  const CountryCard& card = slot.card();
  std::string line = "  [" + std::to_string(index) + "] " + Face(data, card.id());
  if (card.revealed()) {
    line += "  #" + std::to_string(card.position()) + " " + card.value_text();
  }
  if (slot.tile_seat() < 0) return line + "  (free)";
  line += "  " + name(slot.tile_seat()) + " guessed #" + std::to_string(slot.tile_position());
  if (slot.points() >= 0) line += ": " + std::to_string(slot.points()) + " pts";
  return line;
}

std::string CategoryLine(const StaticData& data, const std::string& id) {
  const Category* c = Find(data.categories(), id);
  return c ? c->name() + " (" + c->unit() + ")" : id;
}

std::string ViewLines(const View& v, const StaticData& data, const engine::Game::SeatNamer& name) {
  static const char* kPhase[] = {"?", "placement", "question", "game over"};
  const int phase = v.phase() >= 0 && v.phase() <= 3 ? v.phase() : 0;
  std::string out = "Round " + std::to_string(std::min(v.round(), v.total_rounds())) + "/" +
                    std::to_string(v.total_rounds()) + " - ";
  // After the last round there is no current category; the last one is shown below.
  if (!v.category_id().empty()) out += CategoryLine(data, v.category_id()) + " - ";
  out += kPhase[phase];
  if (v.to_act() >= 0) out += " - to act: " + name(v.to_act());
  out += "\n";
  if (v.phase() == PHASE_PLACEMENT) {
    out += "Cards (act place { slot: S position: P }, P from 1 = highest to " +
           std::to_string(v.max_position()) + "):\n";
  } else if (v.display_size() > 0) {
    out += "Cards:\n";
  }
  for (int i = 0; i < v.display_size(); ++i) out += SlotLine(i, v.display(i), data, name) + "\n";
  out += "Players:\n";
  for (const Player& p : v.players()) {
    out += "  " + name(static_cast<int>(p.seat())) + ": " +
           std::to_string(p.distance()) + " squares, barriers " +
           std::to_string(p.orange_barriers()) + " orange / " + std::to_string(p.violet_barriers()) +
           " violet";
    if (p.placed_slot() >= 0) out += ", tile on [" + std::to_string(p.placed_slot()) + "]";
    if (p.last_round_points() >= 0) out += ", last round +" + std::to_string(p.last_round_points());
    if (static_cast<int>(p.seat()) < v.final_ranks_size()) {
      out += ", rank " + std::to_string(v.final_ranks(static_cast<int>(p.seat())));
    }
    out += "\n";
  }
  if (v.phase() == PHASE_QUESTION) {
    const Question& q = v.question();
    out += "Question (" + Barrier(q.kind()) + " barrier) for " +
           name(static_cast<int>(q.seat())) + ": " +
           (q.kind() == BARRIER_ORANGE ? "the capital of " : "where on the map is ") +
           Face(data, q.country_id()) + "?\n";
    if (q.wrong_answers_size() > 0) {
      out += "  wrong so far:";
      for (const std::string& w : q.wrong_answers()) out += " " + w;
      out += "\n";
    }
  }
  for (const SettledQuestion& q : v.settled()) {
    out += "Answer shown: " + Face(data, q.country_id()) + " - " +
           (q.kind() == BARRIER_ORANGE ? "capital " + q.capital() : "map region " + q.map_id()) +
           (q.answered_by() >= 0 ? ", found by " + name(q.answered_by()) : ", found by nobody") +
           " (round " + std::to_string(q.round()) + ")\n";
  }
  if (v.has_last_round() && v.phase() != PHASE_QUESTION) {
    out += "Last round, " + CategoryLine(data, v.last_round().category_id()) + ":\n";
    for (int i = 0; i < v.last_round().display_size(); ++i) {
      out += SlotLine(i, v.last_round().display(i), data, name) + "\n";
    }
  }
  return out;
}

}  // namespace

std::string GlobalissimoGame::GameViewText(const engine::Message& view,
                                          const SeatNamer& seat_name) const {
  const auto& data = static_cast<const globalissimo::StaticData&>(*StaticData());
  return ViewLines(static_cast<const View&>(view), data, seat_name);
}

engine::Zone GlobalissimoState::DeckZone() const {
  engine::Zone deck;
  deck.name = "deck";
  deck.pieces = &s_.deck();
  deck.visibility = engine::Visibility::kNobody;
  return deck;
}

std::vector<engine::Zone> GlobalissimoState::GameZones() const {
  // Everyone sees the same table: identities of the cards on display and of question cards are
  // public; only the deck is face down.
  return {DeckZone()};
}

void GlobalissimoState::PerturbMore(int seat, engine::Rng& rng) {
  // The categories of the rounds still to come, and the generator state.
  auto* order = s_.mutable_category_order();
  const int first_hidden = std::min<int>(static_cast<int>(s_.round()), order->size());
  // Sorted first, so the redraw depends on which categories remain, not on their hidden order.
  std::sort(order->begin() + first_hidden, order->end());
  for (int i = order->size() - first_hidden; i > 1; --i) {
    const int j = static_cast<int>(rng.Below(static_cast<uint64_t>(i)));
    order->SwapElements(first_hidden + i - 1, first_hidden + j);
  }
  s_.set_rng(rng.Next());
  // The values on the hidden side of the display's cards: a well-read player knows roughly where
  // each country stands in the round's category, not its number. The belief is the country's
  // standing among all hundred plus or minus up to kBlur, so that countries far apart are
  // ranked right and close ones often not.
  constexpr double kBlur = 0.15;
  if (s_.phase() == PHASE_PLACEMENT && s_.round() >= 1 &&
      s_.round() <= static_cast<uint32_t>(s_.category_order_size())) {
    const int category = static_cast<int>(s_.category_order(s_.round() - 1));
    for (auto& slot : *s_.mutable_display()) {
      const double noise = (static_cast<double>(rng.Below(1u << 20)) / (1u << 20) * 2 - 1) * kBlur;
      slot.set_believed(true);
      slot.set_belief(Standing(slot.card(), category) + noise);
    }
  }
}

double GlobalissimoState::Standing(uint32_t card, int category) const {
  const double value = Country(card).values(category);
  int below = 0;
  const auto& countries = g().cards().countries();
  for (const auto& c : countries) below += c.values(category) < value ? 1 : 0;
  return countries.size() > 1 ? static_cast<double>(below) / (countries.size() - 1) : 0.5;
}

std::vector<std::unique_ptr<engine::Message>> GlobalissimoState::BotIdeas(int seat,
                                                                           engine::Rng& rng) const {
  std::vector<std::unique_ptr<engine::Message>> out;
  if (s_.phase() != PHASE_QUESTION || seat != CurrentScorer()) return out;
  const auto& barrier = s_.barriers(s_.question_barrier());
  const auto& country = Country(static_cast<uint32_t>(barrier.question_card()));
  // Capitals are better known than where a country lies on a blank map.
  const bool orange = barrier.color() == BARRIER_ORANGE;
  if (rng.Below(100) >= (orange ? 70u : 60u)) return out;
  auto a = std::make_unique<Action>();
  if (orange) {
    a->mutable_answer_capital()->set_text(country.capitals(0));
  } else {
    a->mutable_answer_location()->set_map_id(country.map_id());
  }
  out.push_back(std::move(a));
  return out;
}

// ----- View -----

void GlobalissimoState::SlotView(const internal::SlotState& slot, uint32_t category,
                                 bool revealed, DisplaySlot* out) const {
  const auto& country = Country(slot.card());
  auto* card = out->mutable_card();
  card->set_id(country.id());
  card->set_revealed(revealed);
  if (revealed) {
    card->set_value(country.values(static_cast<int>(category)));
    card->set_value_text(g().ValueText(slot.card(), category));
    card->set_position(slot.position());
    card->set_map_id(country.map_id());
    card->set_capital(country.capitals(0));
  }
  out->set_tile_seat(slot.tile_seat());
  out->set_tile_position(slot.tile_position());
  out->set_points(revealed ? slot.points() : -1);
}

// Everything but `you` (and the core's table) is the same for every recipient.
void GlobalissimoState::TypedPrivateView(int seat, globalissimo::View* view) const {
  view->set_you(seat >= 0 && seat < num_seats() ? seat : engine::kSpectator);
}

void GlobalissimoState::TypedPublicView(globalissimo::View* out) const {
  globalissimo::View& v = *out;
  const bool over = IsTerminal();
  v.set_round(over ? s_.total_rounds() : s_.round());
  v.set_total_rounds(s_.total_rounds());
  v.set_phase(s_.phase());
  v.set_first_player(s_.first_player());
  const auto acting = ActingSeats();
  v.set_to_act(acting.empty() ? -1 : acting[0]);
  if (!over) {
    const uint32_t category = s_.category_order(s_.round() - 1);
    v.set_category_id(g().cards().categories(static_cast<int>(category)).id());
    const bool revealed = s_.phase() == PHASE_QUESTION;
    for (const auto& slot : s_.display()) SlotView(slot, category, revealed, v.add_display());
  }
  for (int i = 0; i < num_seats(); ++i) {
    const auto& me = s_.seats(i);
    auto* p = v.add_players();
    p->set_seat(static_cast<uint32_t>(i));
    p->set_square(me.square());
    p->set_distance(me.distance());
    p->set_orange_barriers(me.orange_barriers());
    p->set_violet_barriers(me.violet_barriers());
    p->set_placed_slot(me.placed_slot());
    p->set_last_round_points(me.last_round_points());
  }
  // The track's layout is static data; what changes from game to game is the barriers.
  for (const auto& barrier : s_.barriers()) {
    auto* b = v.add_barriers();
    b->set_color(barrier.color());
    b->set_present(barrier.present());
  }
  if (s_.phase() == PHASE_QUESTION) {
    const auto& barrier = s_.barriers(s_.question_barrier());
    const auto& country = Country(static_cast<uint32_t>(barrier.question_card()));
    auto* q = v.mutable_question();
    q->set_kind(barrier.color());
    q->set_seat(static_cast<uint32_t>(CurrentScorer()));
    q->set_country_id(country.id());
    q->set_barrier_square(barrier.square());
    q->set_steps_left(s_.steps_left());
    for (const auto& wrong : barrier.wrong_answers()) q->add_wrong_answers(wrong);
  }
  *v.mutable_settled() = s_.settled();
  if (s_.last_round().round() > 0) {
    auto* last = v.mutable_last_round();
    last->set_round(s_.last_round().round());
    const auto category = static_cast<int>(s_.last_round().category());
    last->set_category_id(g().cards().categories(category).id());
    for (const auto& slot : s_.last_round().display()) {
      SlotView(slot, s_.last_round().category(), true, last->add_display());
    }
  }
  v.set_deck_remaining(static_cast<uint32_t>(s_.deck_size()));
  v.set_max_position(static_cast<uint32_t>(GlobalissimoGame::CardsOnDisplay(num_seats())));
  if (over) {
    for (int rank : Ranks()) v.add_final_ranks(static_cast<uint32_t>(rank));
  }
}

}  // namespace plateau::games::globalissimo
