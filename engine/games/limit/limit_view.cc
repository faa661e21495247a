// LIMIT: what each seat sees, the game's text view, hidden information, and the registration.
#include <algorithm>
#include <set>

#include "engine/core/registry.h"
#include "engine/games/limit/limit.h"
#include "engine/games/limit/limit_nation.h"

namespace plateau::games::limit {

// ----- Views -----

bool LimitState::CostPayable(int seat, uint32_t id) const {
  const auto& c = g().card(id);
  // The price depends on some parameters (the factory raised, the target paid): the card is
  // payable when some choice of them passes the same CheckCost the play runs.
  std::vector<Factory> factories = {FACTORY_UNSPECIFIED};
  if (c.cost_money_factory_value() && c.effect() == data::EFFECT_FACTORY_UP)
    factories = FactoryOptions(c);
  std::vector<int> targets = {0};
  if (c.targets()) {
    targets.clear();
    if (s_.solo()) targets.push_back(kStarTarget);
    else
      for (int i = 0; i < Seats(); ++i)
        if (i != seat) targets.push_back(i);
  }
  bool payable = false;
  for (Factory f : factories)
    for (int t : targets) {
      PlayCard play;
      play.set_card(id);
      play.set_factory(f);
      play.set_target(t);
      play.set_military(c.military_min());
      payable = payable || CheckCost(seat, play).ok();
    }
  if (!payable) return false;
  if (c.cost_class_down() > 0) {
    bool any = false;
    for (int k = 0; k < kClasses; ++k) any = any || CanLowerClass(seat, k);
    if (!any) return false;
  }
  return true;
}

void LimitState::CardView(uint32_t id, int viewer_seat, Card* out) const {
  Card& v = *out;
  v.set_id(id);  // the printed fields are in the static data
  if (viewer_seat < 0) return;
  v.set_playable(CostPayable(viewer_seat, id));
}

// The same for every recipient: everything but `you`, the hand and the open decisions (whose
// drawn cards only their owner sees).
void LimitState::TypedPublicView(limit::View* out) const {
  limit::View& v = *out;
  const bool over = IsTerminal();
  v.set_generation(s_.generation());
  v.set_phase(s_.phase());
  v.set_leader(s_.leader());
  v.set_turn(s_.turn());
  for (int i = 0; i < Seats(); ++i) {
    const auto& n = N(i);
    auto* o = v.add_nations();
    o->set_seat(i);
    o->set_population_rank(n.pop_rank());
    o->set_population(PopValue(static_cast<int>(n.pop_rank())));
    o->set_renewable_rank(n.renewable_rank());
    o->set_renewable_output(TrackValue(FACTORY_RENEWABLE, static_cast<int>(n.renewable_rank())));
    o->set_renewable_max_rank(static_cast<uint32_t>(MaxRank(i, FACTORY_RENEWABLE)));
    o->set_industrial_rank(n.industrial_rank());
    o->set_industrial_output(TrackValue(FACTORY_INDUSTRIAL, static_cast<int>(n.industrial_rank())));
    o->set_military_rank(n.military_rank());
    o->set_military_output(TrackValue(FACTORY_MILITARY, static_cast<int>(n.military_rank())));
    for (uint32_t c : n.classes()) o->add_classes(c);
    for (bool t : n.transition_tile()) o->add_transition_tile_on_row(t);
    o->set_transition_tokens(n.transition_tokens());
    o->set_disorder(n.disorder());
    o->mutable_stocks()->set_renewable(n.renewable());
    o->mutable_stocks()->set_industrial(n.industrial());
    o->mutable_stocks()->set_military(n.military());
    o->mutable_stocks()->set_fossil(n.fossil());
    o->set_money(n.money());
    o->set_pollution(n.pollution());
    o->set_destabilisation(n.destabilisation());
    o->set_territories(n.territories());
    o->set_hand_size(n.hand_size());
    o->set_hand_limit(n.hand_limit());
    for (uint32_t id : engine::VisiblePieces(InPlayZone(i), engine::kSpectator))
      CardView(id, -1, o->add_permanents());
    for (uint32_t id : n.set_aside()) CardView(id, -1, o->add_set_aside());
    for (uint32_t id : n.played()) CardView(id, -1, o->add_played_this_generation());
    o->set_passed(n.passed());
    for (const auto& d : n.decks()) o->add_deck_sizes(d.cards_size());
    o->set_social_step(n.step());
    o->set_social_column(n.column());
    o->set_military_alliance(n.military_group() != 0);
    o->set_economic_alliance(n.economic_group() != 0);
    o->set_military_alliance_group(n.military_group());
    o->set_economic_alliance_group(n.economic_group());
    o->set_military_accord(n.military_accord());
    o->set_economic_accord(n.economic_accord());
    o->set_alliance_changed(n.military_accord() || n.economic_accord());
  }
  for (const auto& m : s_.market()) {
    auto* t = v.mutable_market()->add_tracks();
    t->set_resource(m.resource());
    t->set_position(m.position());
    t->set_market_stock(m.stock());
  }
  v.set_world_bank(s_.bank());
  v.set_pollution_reserve(s_.pollution_reserve());
  v.set_destabilisation_reserve(s_.destabilisation_reserve());
  v.set_colonisation_territories(s_.colonisation_territories());
  v.set_colonisation_fossil(s_.colonisation_fossil());
  for (const auto& c : s_.crises()) {
    auto* t = v.add_crises();
    t->set_kind(c.kind());
    t->set_generation(c.generation());
  }
  v.set_demilitarised(s_.demilitarised());
  v.set_solo(s_.solo());
  if (s_.solo()) {
    const auto& row = board().solo(static_cast<int>(std::min<uint32_t>(
                                       s_.generation(), board().generations())) - 1);
    auto* st = v.mutable_star();
    st->set_population(row.population());
    st->set_standard_of_living(row.standard_of_living());
    st->set_industrial(row.industrial());
    st->set_military(row.military());
    st->set_territories(s_.star().territories());
    st->set_fossil(s_.star().fossil());
    st->set_money(s_.star().money());
    st->set_pollution(s_.star().pollution());
    st->set_destabilisation(s_.star().destabilisation());
    v.set_event_deck_size(s_.events_size());
    // The last event drawn is the discard's last card (a reshuffle empties the discard just
    // before the next draw adds to it).
    v.set_last_event_id(s_.event_discard_size() > 0
                            ? static_cast<int32_t>(*s_.event_discard().rbegin())
                            : -1);
  }
  if (over)
    for (const auto& l : s_.scores()) *v.add_scores() = l;
  if (s_.solo()) {
    v.set_solo_target(board().solo_target());
    v.set_solo_won(over && SoloWon());
  }
  v.set_first_game(s_.first_game());
  v.set_alliances(s_.alliances());
  v.set_excess_pollution(s_.excess_pollution());
}

void LimitState::TypedPrivateView(int seat, limit::View* out) const {
  limit::View& v = *out;
  v.set_you(seat);
  if (seat >= 0 && seat < Seats())
    for (uint32_t id : engine::VisiblePieces(HandZone(seat), seat))
      CardView(id, seat, v.add_hand());
  internal::Choice scratch;
  for (int i = 0; i < Seats(); ++i) {
    const auto& n = N(i);
    const internal::Choice* shown = ShownChoice(i, &scratch);
    if (shown == nullptr) continue;
    const auto& c = *shown;
    auto* p = v.add_prompts();
    p->set_kind(c.kind());
    p->set_seat(i);
    *p->mutable_why() = c.why();
    p->set_count(c.count());
    p->set_from_seat(c.from_seat());
    p->set_subject_seat(c.subject());
    p->set_exclusion(c.exclusion());
    p->set_alliance(c.alliance());
    p->set_amount(c.amount());
    p->set_resource(c.resource());
    if (c.kind() == PROMPT_CHOOSE_DECK) {
      for (int d = 0; d < 3; ++d)
        if (n.decks(d).cards_size() > 0) p->add_options(d + 1);
    } else if (c.kind() == PROMPT_KEEP_CARDS) {
      for (uint32_t id : engine::VisiblePieces(DrawnZone(i), seat))
        CardView(id, -1, p->add_drawn());
    } else {
      for (uint32_t o : ChoiceOptions(i, c)) p->add_options(o);
    }
    p->set_factory_down(c.kind() == PROMPT_LOWER_FACTORY ||
                        (c.kind() == PROMPT_GROWTH_FACTORY && c.growth_down()));
    if (c.kind() == PROMPT_RESIST || c.kind() == PROMPT_CONTRIBUTE) {
      const auto& pending = s_.pending();
      const auto& play = pending.action().play_card();
      const int payer = static_cast<int>(pending.seat());
      p->set_from_seat(payer);
      p->set_card(play.card());
      p->set_amount(c.kind() == PROMPT_RESIST ? play.military() : c.count());
      if (c.kind() == PROMPT_CONTRIBUTE) {
        // Counted as the payment will count it (see PayAndPlay).
        const PlayCost cost = CostOf(payer, play);
        uint64_t have = N(payer).money();
        for (int k = 0; k < pending.contributions_size(); ++k)
          have += std::min<uint32_t>(std::max(0, pending.contributions(k)), N(k).money());
        const uint64_t total = cost.money + cost.gift;
        p->set_missing(static_cast<uint32_t>(total > have ? total - have : 0));
      }
    }
  }
  if (v.prompts_size() == 0 && s_.phase() == PHASE_POLITICAL_DECISIONS && s_.turn() >= 0) {
    auto* p = v.add_prompts();
    p->set_kind(PROMPT_POLITICAL_TURN);
    p->set_seat(s_.turn());
    p->set_from_seat(-1);
    p->set_subject_seat(-1);
    p->set_cards_played_this_turn(N(s_.turn()).cards_this_turn());
    *p->mutable_why() = T(N(s_.turn()).cards_this_turn() == 0 ? "limit.why.political_first"
                                                               : "limit.why.political_second");
  }
  if (v.prompts_size() == 0 && s_.phase() == PHASE_ALLIANCE && s_.turn() >= 0 &&
      !s_.alliance_pending().active()) {
    auto* p = v.add_prompts();
    p->set_kind(PROMPT_ALLIANCE_TURN);
    p->set_seat(s_.turn());
    p->set_from_seat(-1);
    p->set_subject_seat(-1);
    *p->mutable_why() = T("limit.why.alliance_turn");
  }
}

// ----- The game's text view -----

// The card's English title, the French name printed on it beside (the book's name matters: it is
// the one on the table and in the rules).
static std::string BothNames(const Card& c) {
  if (c.name_en().empty() || c.name_en() == c.name()) return c.name();
  return c.name_en() + " (" + c.name() + ")";
}

std::string LimitGame::GameViewText(const engine::Message& view, const SeatNamer& name) const {
  const auto& v = static_cast<const View&>(view);
  // A view names its cards by id; the printed fields are the game's (an unknown id: the id alone).
  auto Printed = [this](const Card& c) -> const Card& {
    return c.id() < static_cast<uint32_t>(CardCount()) ? CardTemplate(c.id()) : c;
  };
  static const char* kPhases[] = {"?", "new policy", "hand limit", "political decisions",
                                  "social phase", "international phase", "Alliance step",
                                  "resilience test", "game over"};
  static const char* kClasses = "ABCDE";
  const int phase = v.phase() >= 0 && v.phase() <= PHASE_GAME_OVER ? v.phase() : 0;
  std::string out = "Generation " + std::to_string(v.generation()) + " - " + kPhases[phase];
  if (v.turn() >= 0) out += " - turn: " + name(v.turn());
  out += " - leader: " + name(static_cast<int>(v.leader())) + "\n";
  for (const auto& n : v.nations()) {
    out += "  " + name(static_cast<int>(n.seat())) + ": population " +
           std::to_string(n.population()) + ", living";
    for (int c = 0; c < n.classes_size() && c < 5; ++c)
      out += std::string(" ") + kClasses[c] + std::to_string(n.classes(c));
    out += ", disorder " + std::to_string(n.disorder()) + ", $" + std::to_string(n.money()) +
           ", R" + std::to_string(n.stocks().renewable()) + " I" +
           std::to_string(n.stocks().industrial()) + " M" + std::to_string(n.stocks().military()) +
           " F" + std::to_string(n.stocks().fossil()) + ", pollution " +
           std::to_string(n.pollution()) + ", D " + std::to_string(n.destabilisation()) +
           ", territories " + std::to_string(n.territories()) + ", " +
           std::to_string(n.hand_size()) + " in hand";
    if (n.passed()) out += ", passed";
    out += "\n";
    if (n.permanents_size() > 0) {
      out += "    in play:";
      for (const auto& c : n.permanents()) out += " " + BothNames(Printed(c)) + ";";
      out += "\n";
    }
  }
  if (v.hand_size() > 0) {
    out += "Your hand:\n";
    for (const auto& c : v.hand()) {
      const Card& printed = Printed(c);
      out += "  [" + std::to_string(c.id()) + "] " + BothNames(printed) +
             (c.playable() ? "" : " (cannot pay)") + " - " + printed.cost_text() + " / " +
             printed.effect_text() + "\n";
    }
  }
  out += "Market:";
  static const char* kRes[] = {"?", "R", "I", "M", "F"};
  for (const auto& t : v.market().tracks()) {
    const int r = t.resource() >= 0 && t.resource() <= 4 ? t.resource() : 0;
    const uint32_t price = t.position() < static_cast<uint32_t>(board_.prices_size())
                               ? board_.prices(static_cast<int>(t.position()))
                               : 0;
    out += std::string(" ") + kRes[r] + " " + std::to_string(price) + "$";
  }
  out += " - World Bank $" + std::to_string(v.world_bank()) + ", crises " +
         std::to_string(v.crises_size()) + "\n";
  for (const auto& line : v.scores())
    out += "  " + name(static_cast<int>(line.seat())) + " scores " + std::to_string(line.total()) +
           "\n";
  return out;
}

// ----- Hidden information -----

// A nation's own cards are redrawn among its own cards only (pool = the nation); the events
// form their own pool. A card's back is its deck.
engine::Zone LimitState::HandZone(int j) const {
  return {"nation " + std::to_string(j) + " hand", &N(j).hand(), engine::Visibility::kSeats, {j},
          j, nullptr};
}

engine::Zone LimitState::DrawnZone(int j) const {
  // The drawn cards all come from one deck, which everyone knows.
  const LimitGame* game = game_;
  return {"nation " + std::to_string(j) + " drawn", &N(j).drawn(), engine::Visibility::kSeats,
          {j}, j, [game](uint32_t card) { return static_cast<uint32_t>(game->card(card).deck()); }};
}

engine::Zone LimitState::DeckZone(int j, int d) const {
  const LimitGame* game = game_;
  return {"nation " + std::to_string(j) + " deck " + std::to_string(d + 1), &N(j).decks(d).cards(),
          engine::Visibility::kNobody, {}, j,
          [game](uint32_t card) { return static_cast<uint32_t>(game->card(card).deck()); }};
}

engine::Zone LimitState::InPlayZone(int j) const {
  return {"nation " + std::to_string(j) + " in play", &N(j).permanents(),
          engine::Visibility::kEveryone, {}, j, nullptr};
}

std::vector<engine::Zone> LimitState::GameZones() const {
  std::vector<engine::Zone> zones;
  for (int j = 0; j < Seats(); ++j) {
    zones.push_back(HandZone(j));
    zones.push_back(DrawnZone(j));
    for (int d = 0; d < N(j).decks_size(); ++d) zones.push_back(DeckZone(j, d));
    zones.push_back(InPlayZone(j));
  }
  zones.push_back({"events", &s_.events(), engine::Visibility::kNobody, {}, Seats(), nullptr});
  return zones;
}

void LimitState::PerturbMore(int seat, engine::Rng& rng) {
  s_.set_rng(rng.Next());
  // Failed collections name hand cards: a hand the seat cannot see is redrawn, and its nation's
  // list goes with it (filtering it would keep a trace of the hand it named).
  for (int j = 0; j < Seats(); ++j) {
    auto* n = s_.mutable_nations(j);
    auto* failed = n->mutable_failed_collections();
    if (!HandZone(j).CanSee(seat)) {
      failed->Clear();
      continue;
    }
    for (int k = failed->size() - 1; k >= 0; --k)
      if (!Contains(n->hand(), failed->Get(k))) failed->erase(failed->begin() + k);
  }
  RedrawContributions(seat, rng);
  RedrawAllianceAnswers(seat, rng);
}

void LimitState::RedrawAllianceAnswers(int seat, engine::Rng& rng) {
  // Fee offers and help are answered at the same time and shown only once everyone has answered:
  // who has answered is public (the open questions), what they offered is not. Each offer another
  // nation made is drawn again from what it could have offered; the draws depend on nothing
  // hidden, so two positions the seat cannot tell apart draw alike. (Votes are not secret: each
  // is logged for everyone as it is cast.)
  auto* p = s_.mutable_alliance_pending();
  if (p->active() && p->stage() == 1) {
    if (p->fee_asked_size() == p->fee_size()) {
      for (int k = 0; k < p->fee_size(); ++k) {
        if (k == seat || !p->fee_asked(k) || p->fee(k) < 0) continue;
        const uint32_t most = std::min(N(k).money(), kAllianceFee);
        p->set_fee(k, static_cast<int32_t>(rng.Below(most + 1)));
      }
    }
    // The answers the core keeps until the fee is settled say what the redrawn offers say.
    if (OpenDecision() != nullptr && OpenDecision()->kind() == PROMPT_ALLIANCE_FEE)
      for (auto& given : *mutable_table()->mutable_decisions(0)->mutable_answers())
        if (given.seat() != seat) given.mutable_answer()->set_number(p->fee(given.seat()));
  }
  for (int j = 0; j < Seats(); ++j) {
    auto* h = s_.mutable_nations(j)->mutable_help();
    if (!h->active() || !h->waiting() || h->asked_size() != h->given_size()) continue;
    for (int k = 0; k < h->given_size(); ++k) {
      if (k == seat || !h->asked(k) || h->given(k) < 0) continue;
      const uint32_t most = std::min(Stock(N(k), h->resource()), h->amount());
      h->set_given(k, static_cast<int32_t>(rng.Below(most + 1)));
    }
  }
}

void LimitState::RedrawContributions(int seat, engine::Rng& rng) {
  // What another nation gave to a shared payment is its secret until the payment is made; the
  // table sees who has answered and, while someone is still asked, how much is missing (which
  // fixes the total given once it is above zero). So the total is kept when it shows, drawn
  // within what the seat knows when it does not, and spread at random over the nations that
  // gave, each within its money and the cost.
  auto* pending = s_.mutable_pending();
  if (!pending->active() || pending->contributions_size() != Seats() ||
      pending->asked_size() != Seats())
    return;
  const int payer = static_cast<int>(pending->seat());
  const PlayCost cost = CostOf(payer, pending->action().play_card());
  const uint64_t total = cost.money + cost.gift;
  std::vector<int> givers;
  std::vector<uint64_t> room;  // how much more each giver could have given
  uint64_t given = 0;          // by the givers, as the payment will count it
  uint64_t known = N(payer).money();  // the payer's money and what the seat itself gave
  for (int k = 0; k < Seats(); ++k) {
    const int32_t c = pending->contributions(k);
    if (!pending->asked(k) || c < 0) continue;  // not asked (gives nothing), or yet to answer
    const uint64_t counted = std::min<uint64_t>(static_cast<uint64_t>(c), N(k).money());
    if (k == seat) {
      known += counted;
      continue;
    }
    givers.push_back(k);
    room.push_back(std::min<uint64_t>(N(k).money(), total));
    given += counted;
  }
  if (givers.empty()) return;
  // "Missing" shows while someone is still asked: the question is open until all have answered.
  const bool missing_shows =
      OpenDecision() != nullptr && OpenDecision()->kind() == PROMPT_CONTRIBUTE;
  uint64_t capacity = 0;
  for (uint64_t r : room) capacity += r;
  uint64_t draw = given;
  if (!missing_shows || known + given >= total) {
    // Only "enough" (or nothing) shows: any total from the least that keeps it so.
    const uint64_t least = missing_shows && total > known ? total - known : 0;
    const uint64_t lo = std::min(least, capacity);
    draw = lo + rng.Below(capacity - lo + 1);
  }
  for (int k : givers) pending->set_contributions(k, 0);
  for (uint64_t left = draw; left > 0; --left) {
    // One unit at a time to a giver with room left, chosen at random.
    uint64_t pick = rng.Below(capacity);
    for (size_t i = 0; i < givers.size(); ++i) {
      if (pick < room[i]) {
        pending->set_contributions(givers[i], pending->contributions(givers[i]) + 1);
        --room[i];
        --capacity;
        break;
      }
      pick -= room[i];
    }
  }
  // The answers the core keeps until the card resolves say what the redrawn contributions say.
  if (OpenDecision() != nullptr && OpenDecision()->kind() == PROMPT_CONTRIBUTE)
    for (auto& given : *mutable_table()->mutable_decisions(0)->mutable_answers())
      if (given.seat() != seat)
        given.mutable_answer()->set_number(pending->contributions(given.seat()));
}

}  // namespace plateau::games::limit

// The data files, compiled in by plateau_embed_data (see CMakeLists.txt).
namespace plateau::data::limit {
extern const std::string_view klimit_cards;
extern const std::string_view klimit_board;
extern const std::string_view ktexts;
}  // namespace plateau::data::limit

namespace plateau::games::limit {
namespace {

engine::StatusOr<std::unique_ptr<engine::Game>> MakeLimit() {
  auto game = LimitGame::FromData(::plateau::data::limit::klimit_cards,
                                  ::plateau::data::limit::klimit_board,
                                  ::plateau::data::limit::ktexts);
  if (!game.ok()) return game.status();
  return std::unique_ptr<engine::Game>(std::move(game).value());
}

PLATEAU_REGISTER_GAME("limit", MakeLimit);

}  // namespace
}  // namespace plateau::games::limit
