// Contrôle Global: set-up picks, a player's turn step by step, civil society after the turns and
// the end of a round (RULES.md, "Set-up", "A round", "End of the round").
#include <algorithm>

#include "engine/games/controle_global/controle_global.h"

namespace plateau::games::controle_global {

namespace ec = engine::codes;
using engine::Seat;
using engine::Status;
using engine::T;

namespace {

uint32_t PayTotal(const Payment& p) { return p.raw_materials() + p.energy() + p.food(); }

const char* KindName(const Action& a) {
  switch (a.kind_case()) {
    case Action::kPickFaction: return "Picking a faction";
    case Action::kPickRegion: return "Picking a region";
    case Action::kPlay: return "Playing a card";
    case Action::kInvest: return "Investing";
    case Action::kDoneInvesting: return "Ending the investments";
    case Action::kPrivatise: return "Privatising";
    case Action::kDonePrivatising: return "Ending the privatising";
    case Action::kDiscard: return "Discarding";
    case Action::kDraw: return "Drawing";
    case Action::kKeep: return "Keeping the hand";
    default: return "That move";
  }
}

}  // namespace

// ----- Who acts -----

int ControleGlobalState::ToAct() const {
  const int n = Seats();
  const uint32_t i = s_.turn_index();
  if (i >= static_cast<uint32_t>(n)) return -1;
  switch (s_.phase()) {
    case PHASE_FACTIONS:
    case PHASE_SECOND_REGIONS:
      return static_cast<int>(s_.turn_order(n - 1 - static_cast<int>(i)));
    case PHASE_FIRST_REGIONS:
    case PHASE_STARTING_HANDS:
    case PHASE_PLAY:
    case PHASE_INVEST:
    case PHASE_PRIVATISE:
    case PHASE_DRAW:
      return static_cast<int>(s_.turn_order(static_cast<int>(i)));
    default:
      return -1;
  }
}

std::vector<int> ControleGlobalState::GameActingSeats() const {
  const int seat = ToAct();
  if (seat < 0 || s_.running()) return {};
  std::vector<int> out = {seat};
  // Two seats at once: the previous player may still be drawing.
  if (Drawer() >= 0) out.push_back(Drawer());
  std::sort(out.begin(), out.end());
  return out;
}

std::unique_ptr<engine::Message> ControleGlobalState::DefaultAction(int seat) const {
  if (OpenDecision() != nullptr) return State::DefaultAction(seat);
  auto legal = TypedLegalActions(seat);
  if (legal.empty()) return nullptr;
  return std::make_unique<Action>(legal.front());
}

// ----- Costs -----

std::vector<Payment> ControleGlobalState::Payments(int seat, uint32_t cost) const {
  std::vector<Payment> out;
  const auto& held = S(seat).resources();
  for (uint32_t a = 0; a <= std::min(cost, held[0]); ++a) {
    for (uint32_t b = 0; a + b <= cost && b <= held[1]; ++b) {
      const uint32_t c = cost - a - b;
      if (c > held[2]) continue;
      Payment p;
      p.set_raw_materials(a);
      p.set_energy(b);
      p.set_food(c);
      out.push_back(p);
    }
  }
  return out;
}

void ControleGlobalState::Pay(int seat, const Payment& pay) {
  auto* r = M(seat).mutable_resources();
  r->Set(0, r->Get(0) - pay.raw_materials());
  r->Set(1, r->Get(1) - pay.energy());
  r->Set(2, r->Get(2) - pay.food());
}

uint32_t ControleGlobalState::MissingLevels(int seat, const Effect& effect) const {
  uint32_t missing = 0;
  for (const auto& need : effect.needs()) {
    const uint32_t noted = S(seat).noted(Cat(need.category()));
    if (need.level() > noted) missing += need.level() - noted;
  }
  if (const Power* p = PowerOf(seat, POWER_FREE_LEVELS)) {
    missing = missing > p->amount() ? missing - p->amount() : 0;
  }
  return missing;
}

uint32_t ControleGlobalState::InvestCost(int seat, InvestKind kind, int cat) const {
  const Costs& c = g().data().costs();
  switch (kind) {
    case INVEST_ADD_INFLUENCE:
      if (const Power* p = PowerOf(seat, POWER_CHEAP_INFLUENCE)) {
        for (int pc : p->categories()) {
          if (pc == static_cast<int>(CatOf(cat))) return p->amount();
        }
      }
      return c.add_influence();
    case INVEST_REMOVE_INFLUENCE:
      return c.remove_influence();
    default:
      return c.develop();
  }
}

bool ControleGlobalState::CanPrivatise(int seat, int region, int res) const {
  if (s_.to_privatise(res) == 0 && s_.extra_privatise() == 0) return false;
  return Present(seat, region) && R(region).stock(res) > 0;
}

// ----- Piles -----

int ControleGlobalState::TakeTop(int pile) {
  auto* p = s_.mutable_piles(pile);
  if (p->cards().empty()) {
    if (p->discard().empty()) return -1;
    *p->mutable_cards() = p->discard();
    p->clear_discard();
    engine::Rng rng(s_.rng());
    rng.ShuffleRepeated(p->mutable_cards());
    s_.set_rng(rng.Next());
    Log(T("controle_global.pile_reshuffled", PileWords(g().pile(static_cast<uint32_t>(pile)))));
  }
  const uint32_t card = p->cards(p->cards_size() - 1);
  p->mutable_cards()->RemoveLast();
  return static_cast<int>(card);
}

bool ControleGlobalState::Drawable(int pile) const {
  return !s_.piles(pile).cards().empty() || !s_.piles(pile).discard().empty();
}

bool ControleGlobalState::DrawFrom(int seat, int pile) {
  const int card = TakeTop(pile);
  if (card < 0) return false;
  M(seat).add_hand(static_cast<uint32_t>(card));
  Log(T("controle_global.draws_from", Seat{seat}, PileWords(g().pile(static_cast<uint32_t>(pile)))));
  return true;
}

void ControleGlobalState::Discard(uint32_t card) {
  s_.mutable_piles(g().PileOf(card))->add_discard(card);
}

// ----- Legal actions -----

std::vector<Action> ControleGlobalState::SetupActions(int seat) const {
  std::vector<Action> out;
  const uint32_t limit = g().data().setup().players_per_region();
  switch (s_.phase()) {
    case PHASE_FACTIONS:
      for (int f = 0; f < g().data().factions_size(); ++f) {
        bool taken = false;
        for (const auto& st : s_.seats()) taken |= st.faction() == f;
        if (!taken) out.emplace_back().mutable_pick_faction()->set_faction(static_cast<uint32_t>(f));
      }
      break;
    case PHASE_FIRST_REGIONS:
    case PHASE_SECOND_REGIONS:
      for (int r = 0; r < s_.regions_size(); ++r) {
        uint32_t picks = 0;
        for (const auto& st : s_.seats()) picks += std::count(st.picked().begin(), st.picked().end(), r);
        const bool mine = std::count(S(seat).picked().begin(), S(seat).picked().end(), r) > 0;
        if (picks < limit && !mine) out.emplace_back().mutable_pick_region()->set_region(static_cast<uint32_t>(r));
      }
      break;
    case PHASE_STARTING_HANDS:
      for (int p = 0; p < s_.piles_size(); ++p) {
        if (g().pile(static_cast<uint32_t>(p)).tier() == TIER_LOWER && Drawable(p)) {
          out.emplace_back().mutable_draw()->set_pile(static_cast<uint32_t>(p));
        }
      }
      break;
    default:
      break;
  }
  return out;
}

std::vector<Action> ControleGlobalState::DrawActions(int seat, bool drew) const {
  std::vector<Action> out;
  const auto& me = S(seat);
  const uint32_t size = HandSize(seat);
  const uint32_t held = static_cast<uint32_t>(me.hand_size());
  if (held > size) {
    for (uint32_t card : me.hand()) {
      DiscardCard* d = out.emplace_back().mutable_discard();
      d->set_card(g().card(card).id());
      d->mutable_pay();
    }
    return out;
  }
  if (held < size) {
    for (int p = 0; p < s_.piles_size(); ++p) {
      if (Drawable(p)) out.emplace_back().mutable_draw()->set_pile(static_cast<uint32_t>(p));
    }
  } else {
    out.emplace_back().mutable_keep();
  }
  if (!drew) {
    for (uint32_t card : me.hand()) {
      for (const Payment& p : Payments(seat, g().data().costs().discard())) {
        DiscardCard* d = out.emplace_back().mutable_discard();
        d->set_card(g().card(card).id());
        *d->mutable_pay() = p;
      }
    }
  }
  return out;
}

std::vector<Action> ControleGlobalState::TypedLegalActions(int seat) const {
  std::vector<Action> out;
  if (s_.running()) return out;
  if (seat == Drawer()) return DrawActions(seat, s_.drawer_drew());
  if (ToAct() != seat) return out;
  const auto& me = S(seat);
  switch (s_.phase()) {
    case PHASE_PLAY:
      for (uint32_t card : me.hand()) {
        const Card& c = g().card(card);
        Action none;
        none.mutable_play()->set_card(c.id());
        none.mutable_play()->mutable_pay();
        out.push_back(none);
        for (int e = 0; e < c.effects_size(); ++e) {
          for (const Payment& p : Payments(seat, MissingLevels(seat, c.effects(e)))) {
            Action a;
            a.mutable_play()->set_card(c.id());
            a.mutable_play()->set_effect(static_cast<uint32_t>(e + 1));
            *a.mutable_play()->mutable_pay() = p;
            out.push_back(a);
          }
        }
      }
      break;
    case PHASE_INVEST: {
      out.emplace_back().mutable_done_investing();
      for (int r = 0; r < s_.regions_size(); ++r) {
        if (!Present(seat, r)) continue;
        auto add = [&](InvestKind kind, int cat, int target) {
          for (const Payment& p : Payments(seat, InvestCost(seat, kind, cat))) {
            Invest* inv = out.emplace_back().mutable_invest();
            inv->set_kind(kind);
            inv->set_region(static_cast<uint32_t>(r));
            if (cat >= 0) inv->set_category(CatOf(cat));
            inv->set_target(target);
            *inv->mutable_pay() = p;
          }
        };
        for (int cat = 0; cat < kCategories; ++cat) add(INVEST_ADD_INFLUENCE, cat, 0);
        for (int other = 0; other < Seats(); ++other) {
          if (other == seat) continue;
          for (int cat = 0; cat < kCategories; ++cat) {
            if (Cubes(r, other, cat) > 0) add(INVEST_REMOVE_INFLUENCE, cat, other);
          }
        }
        add(INVEST_DEVELOP, -1, 0);
      }
      break;
    }
    case PHASE_PRIVATISE:
      for (int r = 0; r < s_.regions_size(); ++r) {
        for (int res = 0; res < kResources; ++res) {
          if (!CanPrivatise(seat, r, res)) continue;
          Privatise* p = out.emplace_back().mutable_privatise();
          p->set_region(static_cast<uint32_t>(r));
          p->set_resource(static_cast<Resource>(res + 1));
        }
      }
      // Taking is the player's choice; stopping comes last, after every resource (a seat out of
      // time takes the first one).
      if (!out.empty()) out.emplace_back().mutable_done_privatising();
      break;
    case PHASE_DRAW:
      return DrawActions(seat, s_.drew());
    default:
      return SetupActions(seat);
  }
  return out;
}

Status ControleGlobalState::TypedValidate(int seat, const Action& action) const {
  if (action.kind_case() == Action::KIND_NOT_SET || action.has_core()) {
    return Status(ec::kMalformed, "The action names no move.");
  }
  // Compared as bytes, and only with moves of the same kind: a turn can list thousands of ways
  // to invest and pay, and this runs on every action the server receives.
  const std::string wanted = engine::DeterministicBytes(action);
  for (const Action& a : TypedLegalActions(seat)) {
    if (a.kind_case() == action.kind_case() && engine::DeterministicBytes(a) == wanted) {
      return Status::Ok();
    }
  }
  // Why, in the player's terms: the phase first, then what the move names.
  const Phase p = s_.phase();
  const bool phase_ok =
      (action.has_pick_faction() && p == PHASE_FACTIONS) ||
      (action.has_pick_region() && (p == PHASE_FIRST_REGIONS || p == PHASE_SECOND_REGIONS)) ||
      (action.has_play() && p == PHASE_PLAY) ||
      ((action.has_invest() || action.has_done_investing()) && p == PHASE_INVEST) ||
      ((action.has_privatise() || action.has_done_privatising()) && p == PHASE_PRIVATISE) ||
      ((action.has_discard() || action.has_keep() || action.has_draw()) &&
       (p == PHASE_DRAW || seat == Drawer())) ||
      (action.has_draw() && p == PHASE_STARTING_HANDS);
  if (!phase_ok) {
    return Status(codes::kWrongPhase, std::string(KindName(action)) + " is not part of this step of the game.");
  }
  if (action.has_play() || action.has_discard()) {
    const std::string& id = action.has_play() ? action.play().card() : action.discard().card();
    const int card = g().CardIndex(id);
    if (card < 0 || std::count(S(seat).hand().begin(), S(seat).hand().end(), card) == 0) {
      return Status(codes::kBadCard, "That card is not in your hand.");
    }
    if (action.has_play() && action.play().effect() > static_cast<uint32_t>(g().card(card).effects_size())) {
      return Status(codes::kBadCard, "That card has no such effect.");
    }
    if (action.has_discard() && S(seat).hand_size() > static_cast<int>(HandSize(seat)) &&
        PayTotal(action.discard().pay()) > 0) {
      return Status(codes::kBadPayment, "Discarding down to your hand size is free.");
    }
    const bool drew = seat == Drawer() ? s_.drawer_drew() : s_.drew();
    if (action.has_discard() && drew && S(seat).hand_size() <= static_cast<int>(HandSize(seat))) {
      return Status(codes::kMustDraw, "You have started drawing: no more discards this turn.");
    }
    return Status(codes::kBadPayment, "The payment must be exactly the cost, from resources you hold.");
  }
  if (action.has_draw()) {
    if (S(seat).hand_size() > static_cast<int>(HandSize(seat))) {
      return Status(codes::kMustDiscard, "Discard down to your hand size first.");
    }
    return Status(codes::kBadPile, "That pile cannot be drawn from now.");
  }
  if (action.has_keep()) return Status(codes::kMustDraw, "Draw back to your hand size first.");
  if (action.has_invest()) {
    const Invest& inv = action.invest();
    if (inv.region() >= static_cast<uint32_t>(s_.regions_size()) || !Present(seat, static_cast<int>(inv.region()))) {
      return Status(codes::kBadRegion, "You may only invest in a region where you are present.");
    }
    if (inv.kind() == INVEST_REMOVE_INFLUENCE) {
      return Status(codes::kBadTarget, "That player has no cube of that category there, or the payment is wrong.");
    }
    return Status(codes::kBadPayment, "The payment must be exactly the cost, from resources you hold.");
  }
  if (action.has_privatise()) {
    return Status(codes::kBadRegion, "That resource cannot be privatised from that region.");
  }
  if (action.has_pick_faction()) return Status(codes::kBadFaction, "That faction is taken or unknown.");
  if (action.has_pick_region()) {
    return Status(codes::kBadRegion, "That region is unknown, yours already, or holds two starting picks.");
  }
  return Status(ec::kIllegal, std::string(KindName(action)) + " is not possible now.");
}

// ----- Applying -----

void ControleGlobalState::ApplyDrawMove(int seat, const Action& action, bool* drew) {
  if (action.has_draw()) {
    DrawFrom(seat, static_cast<int>(action.draw().pile()));
    *drew = true;
  } else if (action.has_discard()) {
    const uint32_t card = static_cast<uint32_t>(g().CardIndex(action.discard().card()));
    auto* hand = M(seat).mutable_hand();
    hand->erase(std::find(hand->begin(), hand->end(), card));
    Pay(seat, action.discard().pay());
    Discard(card);
    Log(T("controle_global.discards", Seat{seat}, 1));
  }
}

bool ControleGlobalState::DrawOver(int seat, bool drew) const {
  const uint32_t held = static_cast<uint32_t>(S(seat).hand_size());
  const uint32_t size = HandSize(seat);
  if (held > size) return false;
  bool drawable = false;
  for (int p = 0; p < s_.piles_size(); ++p) drawable |= Drawable(p);
  // Full after drawing, or nothing left to draw.
  return (held == size && drew) || (held < size && !drawable);
}

void ControleGlobalState::MaybeFinishDrawer() {
  if (Drawer() >= 0 && DrawOver(Drawer(), s_.drawer_drew())) {
    s_.set_drawer(0);
    s_.set_drawer_drew(false);
  }
}

void ControleGlobalState::DefaultDraw(int seat) {
  Log(T("controle_global.drawn_by_default", Seat{seat}));
  while (S(seat).hand_size() > static_cast<int>(HandSize(seat))) {
    const uint32_t card = S(seat).hand(S(seat).hand_size() - 1);
    M(seat).mutable_hand()->RemoveLast();
    Discard(card);
    Log(T("controle_global.discards", Seat{seat}, 1));
  }
  int best = 0;
  for (int cat = 1; cat < kCategories; ++cat) {
    if (S(seat).noted(cat) > S(seat).noted(best)) best = cat;
  }
  while (S(seat).hand_size() < static_cast<int>(HandSize(seat))) {
    int pile = g().PileIndex(CatOf(best), TIER_LOWER);
    for (int p = 0; !Drawable(pile) && p < s_.piles_size(); ++p) pile = p;
    if (!Drawable(pile)) break;
    DrawFrom(seat, pile);
  }
}

void ControleGlobalState::TypedApply(int seat, const Action& action) {
  const int n = Seats();
  if (seat == Drawer()) {
    if (action.has_keep()) {
      s_.set_drawer(0);
      s_.set_drawer_drew(false);
      return;
    }
    bool drew = s_.drawer_drew();
    ApplyDrawMove(seat, action, &drew);
    s_.set_drawer_drew(drew);
    MaybeFinishDrawer();
    return;
  }
  switch (action.kind_case()) {
    case Action::kPickFaction: {
      const uint32_t f = action.pick_faction().faction();
      const Faction& faction = g().faction(f);
      M(seat).set_faction(static_cast<int32_t>(f));
      for (const auto& r : faction.resources()) {
        const int res = static_cast<int>(r.resource()) - 1;
        M(seat).set_resources(res, S(seat).resources(res) + r.amount());
      }
      Log(T("controle_global.picks_faction", Seat{seat}, faction.name(), faction.power().name(),
            T("controle_global.pair", CategoryWords(Cat(faction.categories(0))),
              CategoryWords(Cat(faction.categories(1))))));
      s_.set_turn_index(s_.turn_index() + 1);
      if (s_.turn_index() == static_cast<uint32_t>(n)) {
        s_.set_phase(PHASE_FIRST_REGIONS);
        s_.set_turn_index(0);
      }
      return;
    }
    case Action::kPickRegion: {
      const uint32_t r = action.pick_region().region();
      M(seat).add_picked(r);
      Log(T("controle_global.picks_region", Seat{seat}, R(static_cast<int>(r)).name()));
      s_.set_turn_index(s_.turn_index() + 1);
      if (s_.turn_index() < static_cast<uint32_t>(n)) return;
      s_.set_turn_index(0);
      if (s_.phase() == PHASE_FIRST_REGIONS) {
        s_.set_phase(PHASE_SECOND_REGIONS);
        return;
      }
      // Starting influence: each starting category in each starting region, placed in turn
      // order so that ties on the tables keep the first round's turn order (RULES.md, Set-up).
      for (int k = 0; k < n; ++k) {
        const int who = static_cast<int>(s_.turn_order(k));
        const Faction& faction = g().faction(static_cast<uint32_t>(S(who).faction()));
        for (uint32_t region : S(who).picked()) {
          for (int c : faction.categories()) {
            AddCubes(static_cast<int>(region), who, Cat(static_cast<Category>(c)),
                     static_cast<int>(g().data().setup().cubes_per_category()));
          }
        }
      }
      s_.set_phase(PHASE_STARTING_HANDS);
      return;
    }
    case Action::kDraw: {
      if (s_.phase() != PHASE_STARTING_HANDS) {
        bool drew = s_.drew();
        ApplyDrawMove(seat, action, &drew);
        s_.set_drew(drew);
        MaybeFinishDraw();
        return;
      }
      DrawFrom(seat, static_cast<int>(action.draw().pile()));
      if (S(seat).hand_size() < static_cast<int>(g().data().setup().hand_size())) return;
      Log(T("controle_global.starting_hand", Seat{seat}, S(seat).hand_size()));
      s_.set_turn_index(s_.turn_index() + 1);
      if (s_.turn_index() == static_cast<uint32_t>(n)) FinishSetup();
      return;
    }
    case Action::kPlay: {
      const PlayCard& play = action.play();
      const uint32_t card = static_cast<uint32_t>(g().CardIndex(play.card()));
      auto* hand = M(seat).mutable_hand();
      hand->erase(std::find(hand->begin(), hand->end(), card));
      Pay(seat, play.pay());
      Discard(card);
      s_.set_played(static_cast<int32_t>(card));
      const Card& c = g().card(card);
      for (int res = 0; res < kResources; ++res) s_.set_to_privatise(res, 0);
      for (const auto& r : c.resources()) {
        const int res = static_cast<int>(r.resource()) - 1;
        s_.set_to_privatise(res, s_.to_privatise(res) + r.amount());
      }
      const Power* extra = PowerOf(seat, POWER_EXTRA_PRIVATISE);
      s_.set_extra_privatise(extra != nullptr ? extra->amount() : 0);
      if (play.effect() == 0) {
        Log(T("controle_global.plays_no_effect", Seat{seat}, c.name()));
        EnterInvest();
        return;
      }
      const Effect& e = c.effects(static_cast<int>(play.effect()) - 1);
      Log(T("controle_global.plays", Seat{seat}, c.name(), e.name()));
      if (PayTotal(play.pay()) > 0) Log(T("controle_global.pays_levels", Seat{seat}, PayTotal(play.pay())));
      StartEffect(card, static_cast<int>(play.effect()) - 1, seat);
      ContinueRun();
      return;
    }
    case Action::kInvest: {
      const Invest& inv = action.invest();
      const int r = static_cast<int>(inv.region());
      const uint32_t paid = PayTotal(inv.pay());
      Pay(seat, inv.pay());
      if (inv.kind() == INVEST_ADD_INFLUENCE) {
        Log(T("controle_global.invests_influence", Seat{seat}, paid, CategoryWords(Cat(inv.category())), R(r).name()));
        AddCubes(r, seat, Cat(inv.category()), 1);
      } else if (inv.kind() == INVEST_REMOVE_INFLUENCE) {
        Log(T("controle_global.invests_removal", Seat{seat}, paid, Seat{inv.target()},
              CategoryWords(Cat(inv.category())), R(r).name()));
        AddCubes(r, inv.target(), Cat(inv.category()), -1);
      } else {
        R(r).set_development(R(r).development() + 1);
        Log(T("controle_global.invests_development", Seat{seat}, paid, R(r).name(), R(r).development()));
      }
      return;
    }
    case Action::kDoneInvesting:
      EnterPrivatise();
      return;
    case Action::kPrivatise: {
      const int r = static_cast<int>(action.privatise().region());
      const int res = static_cast<int>(action.privatise().resource()) - 1;
      if (s_.to_privatise(res) > 0) {
        s_.set_to_privatise(res, s_.to_privatise(res) - 1);
      } else {
        s_.set_extra_privatise(s_.extra_privatise() - 1);
      }
      R(r).set_stock(res, R(r).stock(res) - 1);
      M(seat).set_resources(res, S(seat).resources(res) + 1);
      Log(T("controle_global.privatises", Seat{seat}, 1, ResourceWords(res), R(r).name()));
      if (TypedLegalActions(seat).empty()) EnterDraw();
      return;
    }
    case Action::kDonePrivatising:
      Log(T("controle_global.stops_privatising", Seat{seat}));
      EnterDraw();
      return;
    case Action::kDiscard: {
      bool drew = s_.drew();
      ApplyDrawMove(seat, action, &drew);
      MaybeFinishDraw();
      return;
    }
    case Action::kKeep:
      EndTurn();
      return;
    default:
      return;
  }
}

// ----- The turn -----

void ControleGlobalState::FinishSetup() {
  NoteLevels();
  for (int cat = 0; cat < kCategories; ++cat) {
    s_.set_highest(cat, WorldLevel(cat));
    s_.set_red(cat, false);
  }
  StartRound();
}

void ControleGlobalState::StartRound() {
  s_.set_round(s_.round() + 1);
  s_.set_turn_index(0);
  Log(T("controle_global.round_start", s_.round()));
  StartTurn();
}

void ControleGlobalState::StartTurn() {
  s_.set_phase(PHASE_PLAY);
  s_.set_played(-1);
  s_.set_drew(false);
  const int seat = ToAct();
  Log(T("controle_global.turn_start", Seat{seat}));
  Extort(seat);
  if (S(seat).hand().empty()) EnterInvest();
}

// The Cartel's power: each other player present in a region where it holds more cubes of the
// power's categories than they do pays it, from the resource they hold most of (the first in order
// among equals), so the transfer asks no one a question.
void ControleGlobalState::Extort(int seat) {
  const Power* p = PowerOf(seat, POWER_EXTORTION);
  if (p == nullptr || p->amount() == 0) return;
  auto held = [&](int r, int who) {
    uint32_t n = 0;
    for (int c : p->categories()) n += Cubes(r, who, Cat(static_cast<Category>(c)));
    return n;
  };
  const int n = Seats();
  for (int k = 1; k < n; ++k) {
    const int other = (seat + k) % n;
    bool reached = false;
    for (int r = 0; r < s_.regions_size() && !reached; ++r)
      reached = Present(other, r) && held(r, seat) > held(r, other);
    if (!reached) continue;
    for (uint32_t unit = 0; unit < p->amount(); ++unit) {
      int res = 0;
      for (int x = 1; x < kResources; ++x) {
        if (S(other).resources(x) > S(other).resources(res)) res = x;
      }
      if (S(other).resources(res) == 0) break;
      M(other).set_resources(res, S(other).resources(res) - 1);
      M(seat).set_resources(res, S(seat).resources(res) + 1);
      Log(T("controle_global.extorts", Seat{seat}, p->name(), 1, ResourceWords(res), Seat{other}));
    }
  }
}

void ControleGlobalState::EnterInvest() { s_.set_phase(PHASE_INVEST); }

void ControleGlobalState::EnterPrivatise() {
  s_.set_phase(PHASE_PRIVATISE);
  const int seat = ToAct();
  for (int res = 0; res < kResources; ++res) {
    if (s_.to_privatise(res) == 0) continue;
    bool any = false;
    for (int r = 0; r < s_.regions_size(); ++r) any |= Present(seat, r) && R(r).stock(res) > 0;
    if (!any) Log(T("controle_global.privatise_short", Seat{seat}, ResourceWords(res)));
  }
  if (TypedLegalActions(seat).empty()) EnterDraw();
}

void ControleGlobalState::EnterDraw() {
  for (int res = 0; res < kResources; ++res) s_.set_to_privatise(res, 0);
  s_.set_extra_privatise(0);
  // The previous player's draw, still open, is made first, by default.
  if (Drawer() >= 0) {
    DefaultDraw(Drawer());
    s_.set_drawer(0);
    s_.set_drawer_drew(false);
  }
  const int seat = ToAct();
  if (s_.turn_index() + 1 < static_cast<uint32_t>(Seats())) {
    // The next turn starts now; this player's draw stays open beside it.
    s_.set_drawer(static_cast<uint32_t>(seat + 1));
    s_.set_drawer_drew(false);
    MaybeFinishDrawer();
    EndTurn();
    return;
  }
  s_.set_phase(PHASE_DRAW);
  s_.set_drew(false);
  MaybeFinishDraw();
}

void ControleGlobalState::MaybeFinishDraw() {
  if (DrawOver(ToAct(), s_.drew())) EndTurn();
}

void ControleGlobalState::EndTurn() {
  s_.set_played(-1);
  s_.set_drew(false);
  s_.set_turn_index(s_.turn_index() + 1);
  if (s_.turn_index() < static_cast<uint32_t>(Seats())) {
    StartTurn();
    return;
  }
  if (s_.civil().empty()) {
    EndRound();
    return;
  }
  s_.set_phase(PHASE_CIVIL);
  Log(T("controle_global.civil_reacts", s_.civil_size()));
  for (uint32_t card : s_.civil()) {
    internal::CivilCard c;
    c.set_card(card);
    Defer(internal::EFFECT_CIVIL, c);
  }
  s_.clear_civil();
  ResolveDeferred(engine::v1::STACK_IN_ORDER);
}

void ControleGlobalState::GameResolve(const engine::v1::Effect& effect) {
  internal::CivilCard c;
  c.ParseFromString(effect.data());
  const Card& card = g().card(c.card());
  Discard(c.card());
  Log(T("controle_global.civil_reveals", card.name(), card.civil().name(),
        CategoryWords(Cat(g().pile(static_cast<uint32_t>(g().PileOf(c.card()))).category()))));
  StartEffect(c.card(), -1, -1);
  ContinueRun();
}

void ControleGlobalState::GameDeferredResolved() {
  Log(T("controle_global.civil_done"));
  EndRound();
}

void ControleGlobalState::EndRound() {
  NoteLevels();
  const int n = Seats();
  for (int seat = 0; seat < n; ++seat) {
    Log(T("controle_global.levels_noted", Seat{seat}, S(seat).level_vp()));
  }
  std::vector<uint32_t> order(s_.turn_order().begin(), s_.turn_order().end());
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return S(static_cast<int>(a)).level_vp() > S(static_cast<int>(b)).level_vp();
  });
  for (int i = 0; i < n; ++i) s_.set_turn_order(i, order[i]);
  for (int cat = 0; cat < kCategories; ++cat) {
    s_.set_highest(cat, WorldLevel(cat));
    s_.set_red(cat, false);
  }
  int at_six = 0, at_five = 0, first = -1, second = -1;
  for (int cat = 0; cat < kCategories; ++cat) {
    const uint32_t l = WorldLevel(cat);
    at_six += l >= 6;
    at_five += l >= 5;
    const bool counts = s_.end_rule() == END_TWO_AT_V ? l >= 5 : l >= 6;
    if (counts && first < 0) {
      first = cat;
    } else if (counts && second < 0) {
      second = cat;
    }
  }
  bool over = false;
  switch (s_.end_rule()) {
    case END_TWO_AT_VI:
      over = at_six >= 2;
      if (over) Log(T("controle_global.game_ends_two", CategoryWords(first), CategoryWords(second), 6));
      break;
    case END_TWO_AT_V:
      over = at_five >= 2;
      if (over) Log(T("controle_global.game_ends_two", CategoryWords(first), CategoryWords(second), 5));
      break;
    default:
      over = at_six >= 1;
      if (over) Log(T("controle_global.game_ends", CategoryWords(first), 6));
      break;
  }
  if (!over && s_.round() >= g().data().setup().max_rounds()) {
    Log(T("controle_global.last_round", s_.round()));
    over = true;
  }
  if (over) {
    EndGame();
    return;
  }
  engine::v1::Text names = T("controle_global.list" + std::to_string(n));
  for (uint32_t seat : order) *names.add_args() = engine::ToArg(Seat{static_cast<int>(seat)});
  Log(T("controle_global.turn_order", names));
  StartRound();
}

void ControleGlobalState::EndGame() {
  s_.set_phase(PHASE_GAME_OVER);
  // Region by region, as the scoring is counted at the table: who takes what, then what is lost.
  for (int r = 0; r < s_.regions_size(); ++r) {
    const std::vector<uint32_t> vp = ShareRegion(R(r).development(), RegionCubes(r));
    std::vector<engine::v1::Text> shares;
    uint32_t given = 0;
    for (int seat = 0; seat < Seats(); ++seat) {
      if (vp[seat] == 0) continue;
      shares.push_back(T("controle_global.region_share", Seat{seat}, vp[seat]));
      given += vp[seat];
    }
    if (shares.empty()) continue;
    engine::v1::Text list = T("controle_global.list" + std::to_string(shares.size()));
    for (const auto& share : shares) *list.add_args() = engine::ToArg(share);
    Log(T("controle_global.region_scored", R(r).name(), R(r).development(), list));
    if (given < R(r).development()) {
      Log(T("controle_global.region_lost_vp", R(r).development() - given, R(r).name()));
    }
  }
  for (int seat = 0; seat < Seats(); ++seat) {
    M(seat).set_region_vp(RegionVp(seat));
    Log(T("controle_global.final_score", Seat{seat}, S(seat).level_vp(), S(seat).region_vp(),
          S(seat).level_vp() + S(seat).region_vp()));
  }
  const std::vector<int> ranks = GameRanks();
  std::vector<int> first;
  for (int seat = 0; seat < Seats(); ++seat) {
    if (ranks[seat] == 1) first.push_back(seat);
  }
  if (first.empty()) return;
  const uint32_t total = S(first[0]).level_vp() + S(first[0]).region_vp();
  if (first.size() == 1) {
    Log(T("controle_global.wins", Seat{first[0]}, total));
    return;
  }
  engine::v1::Text names = T("controle_global.list" + std::to_string(first.size()));
  for (int seat : first) *names.add_args() = engine::ToArg(Seat{seat});
  Log(T("controle_global.shared_win", names, total));
}

}  // namespace plateau::games::controle_global
