// LIMIT: the rule helpers and board operations every phase uses (tracks, classes, tokens,
// the World Bank, crises), and the choices they leave to a nation.
#include <algorithm>

#include "engine/games/limit/limit.h"
#include "engine/games/limit/limit_nation.h"

namespace plateau::games::limit {

// ----- Rule helpers -----

uint32_t LimitState::PopValue(int rank) const {
  if (rank <= 0) return 0;
  const auto& p = board().population();
  return p[std::min(rank, p.size()) - 1];
}

uint32_t LimitState::TrackValue(Factory f, int rank) const {
  if (rank <= 0) return 0;
  const auto& v = board().tracks(static_cast<int>(f) - 1).value();
  return v[std::min(rank, v.size()) - 1];
}

int LimitState::MaxRank(int seat, Factory f) const {
  const int top = board().tracks(static_cast<int>(f) - 1).value_size();
  if (f != FACTORY_RENEWABLE) return top;
  // Territories cover the renewable track: the cube never passes the last one.
  return std::max(1, std::min<int>(top, N(seat).territories() + board().territory_rank_bonus()));
}

bool LimitState::CanRaiseClass(int seat, int c) const {
  return ClassCanRise(N(seat).classes(), c);
}

bool LimitState::CanLowerClass(int seat, int c) const {
  const auto& n = N(seat);
  if (n.classes(c) <= 1) return false;
  return c == kClasses - 1 || n.classes(c + 1) < n.classes(c);
}

void LimitState::RaiseClass(int seat, int c) {
  auto& n = N(seat);
  n.set_classes(c, n.classes(c) + 1);
  Log(T("limit.log.class_up", Seat{seat}, T("limit.class", kClassIds[c]), n.classes(c)));
  if (n.classes(c) == 3 && n.transition_tile(c)) {
    // First time on the third position: the demographic transition tile moves to the zone.
    n.set_transition_tile(c, false);
    n.set_transition_tokens(n.transition_tokens() + 1);
  }
}

void LimitState::LowerClass(int seat, int c) {
  N(seat).set_classes(c, N(seat).classes(c) - 1);
  Log(T("limit.log.class_down", Seat{seat}, T("limit.class", kClassIds[c]), N(seat).classes(c)));
}

void LimitState::RaiseDisorder(int seat, uint32_t k, engine::v1::Text why) {
  if (k == 0) return;
  auto& n = N(seat);
  const uint32_t from = n.disorder();
  const uint32_t top = board().disorder_positions() - 1;
  const uint32_t move = std::min(k, top - from);
  n.set_disorder(from + move);
  if (k > move) {
    GainDestab(seat, k - move);  // each step past the end: a destabilisation token
    Log(T("limit.log.disorder_past_top", Seat{seat}, from, n.disorder(), std::move(why), k - move));
  } else {
    Log(T("limit.log.disorder", Seat{seat}, from, n.disorder(), std::move(why)));
  }
}

void LimitState::LowerDisorder(int seat, uint32_t k, engine::v1::Text why) {
  auto& n = N(seat);
  const uint32_t from = n.disorder();
  n.set_disorder(from - std::min(k, from));
  if (n.disorder() != from) Log(T("limit.log.disorder", Seat{seat}, from, n.disorder(), std::move(why)));
}

void LimitState::GainDestab(int seat, uint32_t k) {
  const uint32_t from_reserve = std::min(k, s_.destabilisation_reserve());
  s_.set_destabilisation_reserve(s_.destabilisation_reserve() - from_reserve);
  s_.set_destabilisation_from_limit(s_.destabilisation_from_limit() + (k - from_reserve));
  N(seat).set_destabilisation(N(seat).destabilisation() + k);
}

void LimitState::StarGainDestab(uint32_t k) {
  const uint32_t from_reserve = std::min(k, s_.destabilisation_reserve());
  s_.set_destabilisation_reserve(s_.destabilisation_reserve() - from_reserve);
  s_.set_destabilisation_from_limit(s_.destabilisation_from_limit() + (k - from_reserve));
  s_.mutable_star()->set_destabilisation(s_.star().destabilisation() + k);
}

void LimitState::GainPollution(int seat, uint32_t k) {
  const uint32_t from_reserve = std::min(k, s_.pollution_reserve());
  s_.set_pollution_reserve(s_.pollution_reserve() - from_reserve);
  s_.set_excess_pollution(s_.excess_pollution() + (k - from_reserve));
  N(seat).set_pollution(N(seat).pollution() + k);
}

void LimitState::StarGainPollution(uint32_t k) {
  const uint32_t from_reserve = std::min(k, s_.pollution_reserve());
  s_.set_pollution_reserve(s_.pollution_reserve() - from_reserve);
  s_.set_excess_pollution(s_.excess_pollution() + (k - from_reserve));
  s_.mutable_star()->set_pollution(s_.star().pollution() + k);
}

uint32_t LimitState::LosePollution(int seat, uint32_t k) {
  const uint32_t lost = std::min(k, N(seat).pollution());
  N(seat).set_pollution(N(seat).pollution() - lost);
  for (uint32_t i = 0; i < lost; ++i) {
    // Excess tokens leave play first, so none is in play while the reserve has tokens.
    if (s_.excess_pollution() > 0) {
      s_.set_excess_pollution(s_.excess_pollution() - 1);
      s_.set_pollution_to_limit(s_.pollution_to_limit() + 1);
    } else {
      s_.set_pollution_reserve(s_.pollution_reserve() + 1);
    }
  }
  return lost;
}

void LimitState::PopUp(int seat) {
  if (N(seat).pop_rank() < static_cast<uint32_t>(board().population_size()))
    N(seat).set_pop_rank(N(seat).pop_rank() + 1);
}

void LimitState::PopDown(int seat) {
  if (N(seat).pop_rank() > 1) N(seat).set_pop_rank(N(seat).pop_rank() - 1);
}


void LimitState::FactoryUp(int seat, Factory f, int k) {
  const int r = static_cast<int>(FactoryRank(N(seat), f));
  const int top = MaxRank(seat, f);
  if (r >= top) return;  // already at the limit: nothing happens
  SetFactoryRank(N(seat), f, static_cast<uint32_t>(std::min(top, r + k)));
}

void LimitState::FactoryDown(int seat, Factory f, int k) {
  const int r = static_cast<int>(FactoryRank(N(seat), f));
  SetFactoryRank(N(seat), f, static_cast<uint32_t>(std::max(1, r - k)));
}

void LimitState::LoseTerritory(int seat) {
  auto& n = N(seat);
  if (n.territories() == 0) return;
  n.set_territories(n.territories() - 1);
  // Never more renewable rank than territories allow.
  const int top = MaxRank(seat, FACTORY_RENEWABLE);
  if (static_cast<int>(n.renewable_rank()) > top) n.set_renewable_rank(top);
}

void LimitState::BankPay(int seat, uint32_t amount, bool crisis_rule) {
  uint32_t paid = std::min(amount, s_.bank());
  s_.set_bank(s_.bank() - paid);
  if (paid < amount && crisis_rule) {
    // Empty World Bank: the money comes from the LIMIT box and a financial crisis is due.
    const uint32_t rest = amount - paid;
    s_.set_money_from_limit(s_.money_from_limit() + rest);
    paid = amount;
    if (!HasCrisisThisGeneration(CRISIS_FINANCIAL)) {
      AddCrisis(CRISIS_FINANCIAL);
      Log(T("limit.log.bank_empty"));
    }
  }
  N(seat).set_money(N(seat).money() + paid);
}

bool LimitState::HasCrisisThisGeneration(CrisisKind kind) const {
  for (const auto& c : s_.crises())
    if (c.kind() == kind && c.generation() == s_.generation()) return true;
  return false;
}

int LimitState::CrisisCount(CrisisKind kind) const {
  int k = 0;
  for (const auto& c : s_.crises()) k += c.kind() == kind;
  return k;
}

void LimitState::AddCrisis(CrisisKind kind) {
  auto* c = s_.add_crises();
  c->set_kind(kind);
  c->set_generation(s_.generation());
}

uint32_t LimitState::SpendByRank(uint32_t* stock, int rank, uint32_t* spent) {
  int k = std::max(rank, 0);
  while (k > 0 && PopValue(k) > *stock) --k;
  *spent = PopValue(k);
  *stock -= *spent;
  return static_cast<uint32_t>(std::max(rank, 0) - k);
}

bool LimitState::HasPermanent(int seat, data::Effect e) const {
  for (uint32_t id : N(seat).permanents())
    if (g().card(id).effect() == e) return true;
  return false;
}

void LimitState::UnderDeck(int seat, uint32_t card) {
  N(seat).mutable_decks(DeckIndex(g().card(card).deck()))->add_cards(card);
}

void LimitState::SpendIndustrial(int seat, uint32_t amount) {
  N(seat).set_industrial(N(seat).industrial() - amount);
  if (amount >= 10 && HasPermanent(seat, data::EFFECT_RECYCLING)) {
    N(seat).set_fossil(N(seat).fossil() + 1);
    s_.set_fossil_from_limit(s_.fossil_from_limit() + 1);
  }
}

// ----- Choices -----

internal::Choice LimitState::MakeChoice(PromptKind kind, uint32_t count, engine::v1::Text why) {
  internal::Choice c;
  c.set_kind(kind);
  c.set_count(count);
  *c.mutable_why() = std::move(why);
  c.set_from_seat(-1);
  c.set_subject(-1);
  return c;
}

void LimitState::AskChoice(int seat, const internal::Choice& c, bool first) {
  // The decision keeps the question without its options: it is worded again from the position
  // whenever it is read (GameWordPrompt), and options naming a hand or a draw would keep, in the
  // position a bot samples, cards its redraw changed.
  v1::Prompt asked = WordChoice(seat, c);
  asked.clear_options();
  AskAlongside(engine::OnePrompt(std::move(asked)), c.kind(), c, v1::DEFAULT_FIRST_OPTION);
  if (!first) return;
  // In front of the nation's other decisions, where its earlier own queue kept it.
  auto* queue = s_.mutable_table()->mutable_decisions();
  int at = queue->size() - 1;
  for (int i = 0; i < queue->size() - 1; ++i)
    if (queue->Get(i).prompts(0).seat() == seat) {
      at = i;
      break;
    }
  for (int i = queue->size() - 1; i > at; --i) queue->SwapElements(i, i - 1);
}

void LimitState::AskOwed(int seat, PromptKind kind, uint32_t count, engine::v1::Text why,
                         bool growth_down) {
  if (count == 0) return;
  internal::Choice c = MakeChoice(kind, count, std::move(why));
  c.set_growth_down(growth_down);
  AskChoice(seat, c);
  AutoResolve(seat);
}

std::vector<uint32_t> LimitState::ChoiceOptions(int seat, const internal::Choice& c) const {
  std::vector<uint32_t> out;
  switch (c.kind()) {
    case PROMPT_RAISE_CLASS:
      for (int k = 0; k < kClasses; ++k)
        if (CanRaiseClass(seat, k)) out.push_back(k);
      break;
    case PROMPT_LOWER_CLASS:
      for (int k = 0; k < kClasses; ++k)
        if (CanLowerClass(seat, k)) out.push_back(k);
      break;
    case PROMPT_LOWER_FACTORY:
      for (Factory f : {FACTORY_RENEWABLE, FACTORY_INDUSTRIAL, FACTORY_MILITARY})
        if (FactoryRank(N(seat), f) > 1) out.push_back(f);
      break;
    case PROMPT_GROWTH_FACTORY:
      for (Factory f : {FACTORY_INDUSTRIAL, FACTORY_MILITARY}) {
        const int r = static_cast<int>(FactoryRank(N(seat), f));
        if (c.growth_down() ? r > 1 : r < MaxRank(seat, f)) out.push_back(f);
      }
      break;
    default:
      break;
  }
  return out;
}

void LimitState::AutoResolve(int seat) {
  // A choice with one option (or none: "as far as possible") needs nobody.
  for (;;) {
    const v1::Decision* open = OpenDecisionOf(seat);
    if (open == nullptr || !AskedNow(seat)) return;
    const int k = open->kind();
    if (k != PROMPT_RAISE_CLASS && k != PROMPT_LOWER_CLASS && k != PROMPT_LOWER_FACTORY &&
        k != PROMPT_GROWTH_FACTORY)
      return;
    internal::Choice c;
    c.ParseFromString(open->resume());
    const auto opts = ChoiceOptions(seat, c);
    if (opts.size() > 1) return;
    v1::Answer answer;
    if (opts.size() == 1)
      answer.add_options(k == PROMPT_RAISE_CLASS || k == PROMPT_LOWER_CLASS
                             ? kClassIds[opts[0]]
                             : FactoryId(static_cast<Factory>(opts[0])));
    const bool outer = answering_for_;
    answering_for_ = true;
    AnswerFor(seat, std::move(answer));
    answering_for_ = outer;
  }
}

bool LimitState::Owes(int seat) const {
  for (const auto& d : table().decisions()) {
    bool asks = false;
    for (const auto& p : d.prompts()) asks = asks || p.seat() == seat;
    for (const auto& a : d.answers()) asks = asks && a.seat() != seat;
    if (asks) return true;
  }
  return false;
}

const internal::StarState* LimitState::Star() const { return s_.solo() ? &s_.star() : nullptr; }

}  // namespace plateau::games::limit
