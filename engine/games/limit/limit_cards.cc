// LIMIT: playing a card: transactions, costs, shared payments, resistance, effects.
#include <algorithm>
#include <set>

#include "engine/games/limit/limit.h"
#include "engine/games/limit/limit_nation.h"

namespace plateau::games::limit {

int LimitState::MaxTransactions(int seat) const {
  return HasPermanent(seat, data::EFFECT_STOCK_EXCHANGE) ? 2 : 1;
}

Status LimitState::CheckTransactions(int seat, const PlayCard& play, bool apply) {
  auto& n = N(seat);
  const int max = MaxTransactions(seat);
  if (play.transactions_size() > max)
    return Status(codes::kBadTransaction,
                  max == 1 ? "One transaction per card (two with Stock exchange)."
                           : "At most two transactions.");
  if (play.transactions_size() == 2 &&
      play.transactions(0).resource() == play.transactions(1).resource())
    return Status(codes::kBadTransaction, "Two transactions must be on different resources.");
  const int last = board().prices_size() - 1;
  for (const auto& t : play.transactions()) {
    if (!ValidResource(t.resource()) || t.quantity() == 0)
      return Status(codes::kBadTransaction, "A transaction names a resource and a quantity.");
    auto* m = s_.mutable_market(static_cast<int>(t.resource()) - 1);
    const uint32_t price = board().prices(static_cast<int>(m->position()));
    if (t.sell()) {
      if (m->position() == 0)
        return Status(codes::kBadTransaction, "The price is at its lowest: nobody buys it.");
      if (Stock(n, t.resource()) < t.quantity())
        return Status(codes::kBadTransaction, "You do not have that much to sell.");
      if (price * t.quantity() > s_.bank())
        return Status(codes::kBadTransaction, "The World Bank cannot pay for that much.");
      if (!apply) continue;
      SetStock(n, t.resource(), Stock(n, t.resource()) - t.quantity());
      m->set_stock(m->stock() + t.quantity());
      s_.set_bank(s_.bank() - price * t.quantity());
      n.set_money(n.money() + price * t.quantity());
      m->set_position(m->position() - 1);
    } else {
      if (m->stock() < t.quantity())
        return Status(codes::kBadTransaction, "The market does not have that much.");
      if (price * t.quantity() > n.money())
        return Status(codes::kBadTransaction, "You cannot pay for that much.");
      if (!apply) continue;
      SetStock(n, t.resource(), Stock(n, t.resource()) + t.quantity());
      m->set_stock(m->stock() - t.quantity());
      n.set_money(n.money() - price * t.quantity());
      s_.set_bank(s_.bank() + price * t.quantity());
      m->set_position(std::min<uint32_t>(last, m->position() + 1));
    }
    Log(T(t.sell() ? "limit.log.sells" : "limit.log.buys", Seat{seat}, t.quantity(),
          ResourceCountText(t.resource(), t.quantity()), price));
  }
  return Status::Ok();
}

bool LimitState::ClassStepsFit(int seat,
                               const google::protobuf::RepeatedField<uint32_t>& steps) const {
  std::vector<uint32_t> lv(N(seat).classes().begin(), N(seat).classes().end());
  for (uint32_t k : steps) {
    if (k >= kClasses || !ClassCanRise(lv, static_cast<int>(k))) return false;
    ++lv[k];
  }
  return true;
}

LimitState::PlayCost LimitState::CostOf(int seat, const PlayCard& play) const {
  const auto& n = N(seat);
  const auto& c = g().card(play.card());
  const uint32_t pop = PopValue(static_cast<int>(n.pop_rank()));
  PlayCost cost;
  cost.money = c.cost_money() + c.cost_money_per_pop() * pop + c.cost_own_to_limit();
  if (c.cost_money_factory_value()) {
    const Factory f = c.effect() == data::EFFECT_FACTORY_UP ? play.factory() : FACTORY_RENEWABLE;
    cost.money += TrackValue(f, static_cast<int>(FactoryRank(n, f)));
  }
  if (c.cost_target_factory_value())
    cost.gift = play.target() == kStarTarget
                    ? board().solo(static_cast<int>(s_.generation()) - 1).industrial()
                    : TrackValue(FACTORY_INDUSTRIAL,
                                 static_cast<int>(N(play.target()).industrial_rank()));
  cost.military = c.cost_military() + play.military();
  if (c.cost_military_pop())
    cost.military += PopValue(static_cast<int>(n.pop_rank()) - c.cost_pop_offset());
  return cost;
}

uint32_t LimitState::HelperMoney(int seat, uint32_t id) const {
  const auto& c = g().card(id);
  // A transaction is priced with the buyer's own money: market cards are paid alone.
  if (c.effect() == data::EFFECT_MARKET || c.effect() == data::EFFECT_SPECULATION) return 0;
  uint32_t sum = 0;
  if (c.anyone_may_help()) {
    for (int i = 0; i < Seats(); ++i)
      if (i != seat) sum += N(i).money();
  } else if (s_.alliances()) {
    for (int i : Allies(seat, ALLIANCE_ECONOMIC)) sum += N(i).money();
  }
  return sum;
}

Status LimitState::CheckCost(int seat, const PlayCard& play) const {
  const auto& n = N(seat);
  const uint32_t id = play.card();
  const auto& c = g().card(id);
  // Every part must be payable; the $ part (with the money given to a target) possibly with
  // help, see HelperMoney.
  const PlayCost cost = CostOf(seat, play);
  if (cost.money + cost.gift > n.money() + HelperMoney(seat, id))
    return Status(codes::kCannotPay, "Not enough money to pay " + CardTitle(c) + ".");
  if (c.cost_bank_to_limit() > s_.bank())
    return Status(codes::kCannotPay, "The World Bank does not hold the money this card removes.");
  // Surtaxe hands out bank money: the bank must hold its 10 $ and then the whole payment
  // (RULES.md, "Surtaxe and the World Bank").
  if (c.effect() == data::EFFECT_SURTAX &&
      c.cost_bank_to_limit() + c.amount() * PopValue(static_cast<int>(n.pop_rank())) > s_.bank())
    return Status(codes::kCannotPay, "The World Bank cannot pay all that this card gives.");
  if (cost.military > n.military())
    return Status(codes::kCannotPay, "Not enough military resources.");
  if (c.cost_industrial_per_pop() * PopValue(static_cast<int>(n.pop_rank())) > n.industrial())
    return Status(codes::kCannotPay, "Not enough industrial resources.");
  if (c.cost_factory_down() != FACTORY_UNSPECIFIED && FactoryRank(n, c.cost_factory_down()) <= 1)
    return Status(codes::kCannotPay, "That factory is already at its lowest rank.");
  // A disorder cost is paid on the track, never turned into destabilisation (RULES.md,
  // "Disorder as a cost"): the whole raise must fit below the top.
  if (n.disorder() + c.cost_disorder() > board().disorder_positions() - 1)
    return Status(codes::kCannotPay, "Your social disorder has no room left for this card's cost.");
  return Status::Ok();
}

Status LimitState::ActPlay(int seat, const PlayCard& play, bool apply, LimitState* paid) {
  auto& n = N(seat);
  const uint32_t id = play.card();
  if (!Contains(n.hand(), id)) return Status(codes::kNotInHand, "That card is not in your hand.");
  if (n.cards_this_turn() >= 2)
    return Status(codes::kTooManyCards, "Two cards per turn at most.");
  if (Contains(n.failed_collections(), id))
    return Status(codes::kAlreadyTried,
                  "Its payment already failed this generation; play it in a later one.");
  const auto& c = g().card(id);

  // Target.
  const int target = play.target();
  if (c.targets()) {
    if (s_.solo() ? target != kStarTarget
                  : (target < 0 || target >= Seats() || target == seat))
      return Status(codes::kBadTarget, s_.solo() ? "In solo, target the star nation (-2)."
                                                 : "Target another nation.");
  }
  const bool star_target = c.targets() && target == kStarTarget;

  // Parameters.
  const Factory factory = play.factory();
  if (const auto& fs = g().CardTemplate(id).factory_options();
      !fs.empty() && std::find(fs.begin(), fs.end(), factory) == fs.end())
    return Status(codes::kBadFactory, fs.size() == 2 ? "Choose the industrial or military factory."
                                                     : "Choose a factory.");
  if (const auto& rs = g().CardTemplate(id).resource_options();
      !rs.empty() && std::find(rs.begin(), rs.end(), play.resource()) == rs.end())
    return Status(codes::kBadParameter,
                  c.effect() == data::EFFECT_SPECULATION ? "Choose the price cube to move."
                                                         : "Choose one of the card's resources.");
  if (c.effect() == data::EFFECT_REFORM &&
      (play.deck() < DECK_SOCIETY || play.deck() > DECK_PRODUCTION ||
       n.decks(DeckIndex(play.deck())).cards_size() == 0))
    return Status(codes::kBadDeck, "Choose a deck that still has cards.");
  if (c.effect() == data::EFFECT_ARTIFICIAL_INTELLIGENCE && n.played_size() > 0 &&
      !Contains(n.played(), play.retrieve_card()))
    return Status(codes::kBadParameter,
                  "Choose an immediate card you played this generation to take back.");
  if (c.effect() == data::EFFECT_SPECULATION) {
    const auto& m = s_.market(static_cast<int>(play.resource()) - 1);
    if (play.price_up() ? m.position() + 1 >= static_cast<uint32_t>(board().prices_size())
                        : m.position() == 0)
      return Status(codes::kBadParameter, "That price cube cannot move that way.");
  }
  if (c.effect() != data::EFFECT_MARKET && c.effect() != data::EFFECT_SPECULATION &&
      play.transactions_size() > 0)
    return Status(codes::kBadTransaction, "This card makes no transaction.");
  if (c.military_min() == 0 && play.military() > 0)
    return Status(codes::kBadParameter, "Only war cards commit military.");
  if (c.military_min() > 0 &&
      (play.military() < c.military_min() || play.military() > n.military()))
    return Status(codes::kCannotPay, "Commit at least " + std::to_string(c.military_min()) +
                                         " military, no more than you have.");

  if (Status st = CheckCost(seat, play); !st.ok()) return st;
  if (c.cost_class_down() > 0) {
    if (play.classes_size() != 1)
      return Status(codes::kBadClass, "Name the class whose standard of living goes down.");
    if (play.classes(0) >= kClasses || !CanLowerClass(seat, static_cast<int>(play.classes(0))))
      return Status(codes::kBadClass, "That class cannot go down.");
  }
  if (c.effect() == data::EFFECT_RAISE_CLASSES) {
    // Checked on a copy of the board: each step in turn must keep the class order.
    uint32_t room = 0;
    for (int k = 0; k < kClasses; ++k) room += 4 - n.classes(k);
    const uint32_t need = std::min(c.amount(), room);
    if (static_cast<uint32_t>(play.classes_size()) != need)
      return Status(codes::kBadClass, "Name " + std::to_string(need) + " class step(s).");
    if (!ClassStepsFit(seat, play.classes()))
      return Status(codes::kBadClass, "A class never lives better than the class above it.");
  }
  if (c.effect() == data::EFFECT_POLITICAL_INTERFERENCE && !star_target) {
    bool any = false;
    for (int k = 0; k < kClasses; ++k) any = any || CanRaiseClass(target, k);
    if (any != (play.classes_size() == 1) ||
        (any && (play.classes(0) >= kClasses ||
                 !CanRaiseClass(target, static_cast<int>(play.classes(0))))))
      return Status(codes::kBadClass, "Name one class of the target that can rise.");
  }
  if (!apply) {
    if (c.effect() == data::EFFECT_MARKET || c.effect() == data::EFFECT_SPECULATION) {
      // Transactions see the money and prices left by the cost, one after the other: try them on
      // a copy of the position (without the history and log a full copy would carry), the
      // caller's when it wants the position the play leaves.
      if (paid != nullptr) return paid->PayAndPlay(seat, play);
      LimitState probe(game_, PositionWithoutTable());
      return probe.PayAndPlay(seat, play);
    }
    return Status::Ok();
  }

  // Pay. A shared payment first asks the others (the card waits in the hand): economic allies
  // only when the player cannot pay alone; for the cards anyone may help pay, every other nation
  // holding money, even when the player could pay alone (RULES.md, "Shared payments").
  Log(T("limit.log.plays", Seat{seat}, CardName(c)));
  const PlayCost cost = CostOf(seat, play);
  const uint32_t total = cost.money + cost.gift;
  bool open_to_all = false;
  if (c.anyone_may_help())
    for (int i = 0; i < Seats(); ++i) open_to_all = open_to_all || (i != seat && N(i).money() > 0);
  if (total > n.money() || open_to_all) {
    auto* p = s_.mutable_pending();
    p->Clear();
    p->set_active(true);
    p->set_seat(seat);
    p->set_economic_help(!c.anyone_may_help());
    *p->mutable_action()->mutable_play_card() = play;
    std::vector<bool> asked(Seats(), false);
    if (c.anyone_may_help()) {
      for (int i = 0; i < Seats(); ++i) asked[i] = i != seat;
    } else {
      for (int i : Allies(seat, ALLIANCE_ECONOMIC)) asked[i] = true;
    }
    // Asked of every nation at once through the core; each answer is counted as it comes
    // (GameAnswered), the card resolves once all have answered (GameResume).
    internal::Choice shown;
    shown.set_kind(PROMPT_CONTRIBUTE);
    shown.set_count(total);
    *shown.mutable_why() =
        T(total > n.money() ? "limit.why.contribute" : "limit.why.contribute_invited", Seat{seat},
          CardName(c), total);
    shown.set_from_seat(-1);
    shown.set_subject(-1);
    std::vector<v1::Prompt> prompts;
    for (int i = 0; i < Seats(); ++i) {
      const bool ask = asked[i] && N(i).money() > 0;
      p->add_contributions(ask ? -1 : 0);
      p->add_asked(ask);
      if (!ask) continue;
      v1::Prompt q = engine::MakePrompt(i, v1::PROMPT_NUMBER, T("limit.q.contribute", total), 0,
                                        std::min(N(i).money(), total));
      *q.mutable_detail() = shown.why();
      prompts.push_back(std::move(q));
    }
    if (!prompts.empty())
      Ask(std::move(prompts), PROMPT_CONTRIBUTE, shown, v1::DEFAULT_FIRST_OPTION);
    return Status::Ok();
  }
  return PayAndPlay(seat, play);
}

Status LimitState::PayAndPlay(int seat, const PlayCard& play) {
  auto& n = N(seat);
  const uint32_t id = play.card();
  const auto& c = g().card(id);
  const int target = play.target();
  const bool star_target = c.targets() && target == kStarTarget;
  const data::SoloRow* row =
      s_.solo() ? &board().solo(static_cast<int>(s_.generation()) - 1) : nullptr;
  const PlayCost cost = CostOf(seat, play);
  const uint32_t money = cost.money, gift = cost.gift, military = cost.military;
  const uint32_t pop = PopValue(static_cast<int>(n.pop_rank()));
  Erase(n.mutable_hand(), id);
  if (c.permanent()) n.add_permanents(id);
  else n.add_played(id);
  n.set_money(n.money() - money - gift);
  s_.set_bank(s_.bank() + money - c.cost_own_to_limit());
  s_.set_money_to_limit(s_.money_to_limit() + c.cost_own_to_limit() + c.cost_bank_to_limit());
  s_.set_bank(s_.bank() - c.cost_bank_to_limit());
  if (gift > 0) {
    if (star_target) s_.mutable_star()->set_money(s_.star().money() + gift);
    else N(target).set_money(N(target).money() + gift);
  }
  n.set_military(n.military() - military);
  if (c.cost_industrial_per_pop() > 0) SpendIndustrial(seat, c.cost_industrial_per_pop() * pop);
  if (c.cost_factory_down() != FACTORY_UNSPECIFIED) FactoryDown(seat, c.cost_factory_down(), 1);
  if (c.cost_class_down() > 0) LowerClass(seat, static_cast<int>(play.classes(0)));
  RaiseDisorder(seat, c.cost_disorder(), T("limit.cause.card", CardName(c)));
  GainDestab(seat, c.cost_destabilisation());
  GainPollution(seat, c.cost_pollution());

  if (c.effect() == data::EFFECT_SPECULATION) {
    auto* m = s_.mutable_market(static_cast<int>(play.resource()) - 1);
    m->set_position(play.price_up() ? m->position() + 1 : m->position() - 1);
  }
  if (c.effect() == data::EFFECT_MARKET || c.effect() == data::EFFECT_SPECULATION) {
    // Transactions run one after the other: the second sees the first's prices and money.
    LimitState probe(game_, PositionWithoutTable());
    Status st = probe.CheckTransactions(seat, play, true);
    if (!st.ok()) return st;
    CheckTransactions(seat, play, true);
  }

  if (c.targets() && !star_target && N(target).passed()) {
    N(target).set_passed(false);  // a targeted nation may act again
  }
  if (c.resistible()) {
    if (star_target) {
      // The star nation resists whenever its military value covers the attack.
      const bool resisted = row->military() >= play.military();
      if (resisted) Log(T("limit.log.star_resists"));
      else ApplyEffect(seat, play, false);
      FinishPlay(seat);
      return Status::Ok();
    }
    const uint32_t own = N(target).military();
    if (own < play.military() && s_.alliances() &&
        AlliedStock(target, ALLIANCE_MILITARY, RESOURCE_MILITARY) >= play.military() - own) {
      // Too weak alone, but its military allies could make up the difference.
      auto* p = s_.mutable_pending();
      p->Clear();
      p->set_active(true);
      p->set_seat(seat);
      *p->mutable_action()->mutable_play_card() = play;
      N(target).clear_help();
      AskHelp(target, kPurposeResist, ALLIANCE_MILITARY, RESOURCE_MILITARY,
              play.military() - own);
      return Status::Ok();
    }
    if (own >= play.military()) {
      auto* p = s_.mutable_pending();
      p->Clear();
      p->set_active(true);
      p->set_seat(seat);
      *p->mutable_action()->mutable_play_card() = play;
      AskOwed(target, PROMPT_RESIST, 1,
                 T("limit.why.resist", Seat{seat}, CardName(c), play.military()));
      return Status::Ok();
    }
    ApplyEffect(seat, play, false);
    FinishPlay(seat);
    return Status::Ok();
  }
  if (c.effect() == data::EFFECT_REFORM) {
    auto* p = s_.mutable_pending();
    p->Clear();
    p->set_active(true);
    p->set_seat(seat);
    p->set_stage(1);
    *p->mutable_action()->mutable_play_card() = play;
    auto* deck = n.mutable_decks(DeckIndex(play.deck()))->mutable_cards();
    const int k = std::min<int>(deck->size(), static_cast<int>(c.amount()));
    n.clear_drawn();
    for (int i = 0; i < k; ++i) n.add_drawn(deck->Get(i));
    deck->erase(deck->begin(), deck->begin() + k);
    n.set_drawn_deck(play.deck());
    AskChoice(seat, MakeChoice(PROMPT_KEEP_CARDS, 1, T("limit.why.reform")));
    return Status::Ok();
  }
  ApplyEffect(seat, play, false);
  FinishPlay(seat);
  return Status::Ok();
}

void LimitState::ResolvePending() {
  const internal::PendingPlay p = s_.pending();
  s_.mutable_pending()->Clear();
  const int seat = static_cast<int>(p.seat());
  const PlayCard& play = p.action().play_card();
  const auto& c = g().card(play.card());
  auto& n = N(seat);
  if (p.contributions_size() > 0) {
    const PlayCost cost = CostOf(seat, play);
    const uint32_t total = cost.money + cost.gift;
    uint32_t given = 0;
    for (int i = 0; i < p.contributions_size(); ++i)
      given += std::min<uint32_t>(std::max(0, p.contributions(i)), N(i).money());
    if (n.money() + std::min(given, total) < total) {
      n.add_failed_collections(play.card());
      Log(T("limit.log.collection_failed", Seat{seat}, CardName(c)));
      if (p.economic_help() && Group(seat, ALLIANCE_ECONOMIC) != 0) {
        internal::Choice ch = MakeChoice(PROMPT_BREAK_ALLIANCE, 1,
                                         T("limit.why.break", KindText(ALLIANCE_ECONOMIC)));
        ch.set_alliance(ALLIANCE_ECONOMIC);
        AskChoice(seat, ch);
      }
      return;
    }
    // Contributions are taken in seat order, never more than the cost; they reach the player,
    // who then pays the whole cost as usual.
    uint32_t left = total;
    for (int i = 0; i < p.contributions_size() && left > 0; ++i) {
      const uint32_t give =
          std::min({left, static_cast<uint32_t>(std::max(0, p.contributions(i))), N(i).money()});
      N(i).set_money(N(i).money() - give);
      n.set_money(n.money() + give);
      left -= give;
      if (give > 0) Log(T("limit.log.contributes", Seat{i}, give));
    }
    // Cards that may be paid with help make no transaction, so paying cannot be refused here.
    (void)PayAndPlay(seat, play);
    return;
  }
  if (c.resistible()) {
    N(play.target()).clear_help();
    if (p.resisted()) {
      N(play.target()).set_military(N(play.target()).military() - play.military());
      Log(T("limit.log.resists", Seat{play.target()}, play.military()));
    } else {
      ApplyEffect(seat, play, false);
    }
  }
  FinishPlay(seat);
}

void LimitState::FinishPlay(int seat) {
  auto& n = N(seat);
  n.set_cards_this_turn(n.cards_this_turn() + 1);
  if (n.cards_this_turn() >= 2) EndTurn();
}

namespace {
// What a card did to the nation it aimed at, as words: each quantity that changed, in one list.
engine::v1::Text HitChanges(const internal::NationState& before, const internal::NationState& after) {
  std::vector<engine::v1::Text> parts;
  auto diff = [](uint32_t a, uint32_t b) { return static_cast<int64_t>(b) - static_cast<int64_t>(a); };
  if (const int64_t d = diff(before.money(), after.money()); d != 0)
    parts.push_back(T(d < 0 ? "limit.change.money_lost" : "limit.change.money_gained", d < 0 ? -d : d));
  if (const int64_t d = diff(before.pollution(), after.pollution()); d > 0)
    parts.push_back(T("limit.change.pollution", d));
  if (const int64_t d = diff(before.destabilisation(), after.destabilisation()); d > 0)
    parts.push_back(T("limit.change.destabilisation", d));
  if (const int64_t d = diff(before.territories(), after.territories()); d < 0)
    parts.push_back(T("limit.change.territories", -d));
  int64_t factories = 0;
  for (Factory f : {FACTORY_RENEWABLE, FACTORY_INDUSTRIAL, FACTORY_MILITARY})
    factories += diff(FactoryRank(before, f), FactoryRank(after, f));
  if (factories < 0) parts.push_back(T("limit.change.factories", -factories));
  int64_t classes = 0;
  for (int k = 0; k < after.classes_size() && k < before.classes_size(); ++k)
    classes += diff(before.classes(k), after.classes(k));
  if (classes > 0) parts.push_back(T("limit.change.classes_up", classes));
  if (parts.empty()) return T("limit.change.nothing");
  engine::v1::Text out = parts.back();
  for (size_t i = parts.size() - 1; i-- > 0;) out = T("limit.change.list", parts[i], out);
  return out;
}
}  // namespace

void LimitState::ApplyEffect(int seat, const PlayCard& play, bool /*resisted*/) {
  const auto& c = g().card(play.card());
  const int target = play.target();
  if (!c.targets() || target < 0 || target >= Seats()) {
    ResolveEffect(seat, play);
    return;
  }
  // The aimed-at nation is told what the card did to it (and everyone else reads it too: the
  // table is open), whatever the effect: the card's own words say what it may do, not what it did.
  const internal::NationState before = N(target);
  ResolveEffect(seat, play);
  Log(T("limit.log.hit", Seat{seat}, CardName(c), Seat{target}, HitChanges(before, N(target))));
}

void LimitState::ResolveEffect(int seat, const PlayCard& play) {
  auto& n = N(seat);
  const auto& c = g().card(play.card());
  const uint32_t pop = PopValue(static_cast<int>(n.pop_rank()));
  const int target = play.target();
  const bool star = c.targets() && target == kStarTarget;
  const data::SoloRow* row =
      s_.solo() ? &board().solo(static_cast<int>(s_.generation()) - 1) : nullptr;
  switch (c.effect()) {
    case data::EFFECT_DISORDER_DOWN:
      LowerDisorder(seat, c.amount(), T("limit.cause.card", CardName(c)));
      break;
    case data::EFFECT_RAISE_CLASSES:
      for (uint32_t k : play.classes()) RaiseClass(seat, static_cast<int>(k));
      break;
    case data::EFFECT_SURTAX: BankPay(seat, c.amount() * pop, false); break;
    case data::EFFECT_CONSCRIPTION:
      n.set_military(n.military() + PopValue(static_cast<int>(n.pop_rank()) - 2));
      break;
    case data::EFFECT_ARTIFICIAL_INTELLIGENCE:
      if (Contains(n.played(), play.retrieve_card())) {
        Erase(n.mutable_played(), play.retrieve_card());
        n.add_hand(play.retrieve_card());
      }
      break;
    case data::EFFECT_FACTORY_UP: FactoryUp(seat, play.factory(), c.amount()); break;
    case data::EFFECT_EXTRACTION:
      n.set_fossil(n.fossil() + c.amount());
      s_.set_fossil_from_limit(s_.fossil_from_limit() + c.amount());
      break;
    case data::EFFECT_OVERPRODUCTION: Produce(seat, play.factory(), false); break;
    case data::EFFECT_CRAFT: SetStock(n, play.resource(), Stock(n, play.resource()) + c.amount()); break;
    case data::EFFECT_PLANET_CLEANUP:
      LosePollution(seat, 1);
      for (int i = 0; i < Seats(); ++i) LosePollution(i, 1);
      if (s_.solo() && s_.star().pollution() > 0) {
        s_.mutable_star()->set_pollution(s_.star().pollution() - 1);
        if (s_.excess_pollution() > 0) {
          s_.set_excess_pollution(s_.excess_pollution() - 1);
          s_.set_pollution_to_limit(s_.pollution_to_limit() + 1);
        } else {
          s_.set_pollution_reserve(s_.pollution_reserve() + 1);
        }
      }
      break;
    case data::EFFECT_HUMANITARIAN_AID: {
      auto lose = [&](int i) {
        if (N(i).destabilisation() == 0) return;
        N(i).set_destabilisation(N(i).destabilisation() - 1);
        s_.set_destabilisation_reserve(s_.destabilisation_reserve() + 1);
      };
      lose(seat);
      for (int i = 0; i < Seats(); ++i) lose(i);
      if (s_.solo() && s_.star().destabilisation() > 0) {
        s_.mutable_star()->set_destabilisation(s_.star().destabilisation() - 1);
        s_.set_destabilisation_reserve(s_.destabilisation_reserve() + 1);
      }
      break;
    }
    case data::EFFECT_OFFSHORE_PRODUCTION: {
      // The target's factory rank, our fossil, its pollution.
      const auto& track = board().tracks(1);
      int r = 1;
      if (star) {
        while (r < track.value_size() && track.value(r - 1) < row->industrial()) ++r;
      } else {
        r = static_cast<int>(N(target).industrial_rank());
      }
      int k = r;
      while (k > 0 && track.fossil(k - 1) > n.fossil()) --k;
      if (k == 0) break;
      n.set_fossil(n.fossil() - track.fossil(k - 1));
      s_.set_fossil_to_limit(s_.fossil_to_limit() + track.fossil(k - 1));
      n.set_industrial(n.industrial() + track.value(k - 1));
      if (star) StarGainPollution(track.pollution(k - 1));
      else GainPollution(target, track.pollution(k - 1));
      break;
    }
    case data::EFFECT_SOFT_POWER: {
      const uint32_t k = std::min(c.amount(), n.destabilisation());
      n.set_destabilisation(n.destabilisation() - k);
      if (star) s_.mutable_star()->set_destabilisation(s_.star().destabilisation() + k);
      else N(target).set_destabilisation(N(target).destabilisation() + k);
      break;
    }
    case data::EFFECT_POLITICAL_INTERFERENCE: {
      if (star) {
        const uint32_t k = std::min(row->population(), s_.star().money());
        s_.mutable_star()->set_money(s_.star().money() - k);
        n.set_money(n.money() + k);
        break;
      }
      const uint32_t k =
          std::min(PopValue(static_cast<int>(N(target).pop_rank())), N(target).money());
      N(target).set_money(N(target).money() - k);
      n.set_money(n.money() + k);
      if (play.classes_size() == 1) RaiseClass(target, static_cast<int>(play.classes(0)));
      break;
    }
    case data::EFFECT_TOURISM: {
      if (star) {
        const uint32_t k = std::min((row->standard_of_living() - 1) * 10, s_.star().money());
        s_.mutable_star()->set_money(s_.star().money() - k);
        n.set_money(n.money() + k);
        break;
      }
      const uint32_t k = std::min((N(target).classes(2) - 1) * 10, N(target).money());
      N(target).set_money(N(target).money() - k);
      n.set_money(n.money() + k);
      AskOwed(target, PROMPT_LOWER_CLASS, 2, T("limit.why.tourism", Seat{seat}));
      break;
    }
    case data::EFFECT_MASS_DESTRUCTION:
      if (star) {
        if (s_.star().territories() > 0) {
          s_.mutable_star()->set_territories(s_.star().territories() - 1);
          s_.set_territories_to_limit(s_.territories_to_limit() + 1);
        }
        StarGainPollution(3);
        break;
      }
      if (N(target).territories() > 0) {
        LoseTerritory(target);
        s_.set_territories_to_limit(s_.territories_to_limit() + 1);
      }
      FactoryDown(target, play.factory(), 1);
      GainPollution(target, 3);
      Log(T("limit.log.mass_destruction", Seat{target}));
      break;
    case data::EFFECT_ANNEXATION:
      if (star) {
        if (s_.star().territories() > 0) {
          s_.mutable_star()->set_territories(s_.star().territories() - 1);
          n.set_territories(n.territories() + 1);
        }
        break;
      }
      if (N(target).territories() > 0) {
        LoseTerritory(target);
        n.set_territories(n.territories() + 1);
      }
      FactoryDown(target, play.factory(), 1);
      Log(T("limit.log.annexation", Seat{target}, Seat{seat}));
      break;
    case data::EFFECT_MILITARY_OPERATION: {
      const uint32_t cap = play.resource() == RESOURCE_FOSSIL ? 2 : 5;
      if (star) {
        uint32_t k = 0;
        if (play.resource() == RESOURCE_FOSSIL) {
          k = std::min(cap, s_.star().fossil());
          s_.mutable_star()->set_fossil(s_.star().fossil() - k);
        } else if (play.resource() == RESOURCE_INDUSTRIAL) {
          k = std::min(cap, row->industrial());
        }
        SetStock(n, play.resource(), Stock(n, play.resource()) + k);
        break;
      }
      const uint32_t k = std::min(cap, Stock(N(target), play.resource()));
      SetStock(N(target), play.resource(), Stock(N(target), play.resource()) - k);
      SetStock(n, play.resource(), Stock(n, play.resource()) + k);
      break;
    }
    case data::EFFECT_COLONISATION:
      if (s_.colonisation_territories() > 0) {
        s_.set_colonisation_territories(s_.colonisation_territories() - 1);
        n.set_territories(n.territories() + 1);
      }
      {
        const uint32_t k = std::min<uint32_t>(2, s_.colonisation_fossil());
        s_.set_colonisation_fossil(s_.colonisation_fossil() - k);
        n.set_fossil(n.fossil() + k);
      }
      break;
    case data::EFFECT_TERRORISM:
      if (!star) RaiseDisorder(target, c.amount(), T("limit.cause.card_of", CardName(c), Seat{seat}));
      break;
    default:  // permanent cards act through HasPermanent; market handled at payment
      break;
  }
}

}  // namespace plateau::games::limit
