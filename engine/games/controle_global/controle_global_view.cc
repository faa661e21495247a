// Contrôle Global: what each seat sees (hands to their owner only, pile orders and face-down
// civil-society cards to nobody), the words of each published move, and for terminals and the
// easy bot what a view reads as.
#include "engine/core/bot.h"
#include "engine/games/controle_global/controle_global.h"

namespace plateau::games::controle_global {

using engine::MoveStep;
using engine::Seat;
using engine::T;

void ControleGlobalState::TypedPrivateView(int seat, controle_global::View* view) const {
  view->set_you(seat);
  if (seat < 0 || seat >= Seats()) return;
  for (uint32_t card : S(seat).hand()) view->add_hand(g().card(card).id());
}

void ControleGlobalState::TypedPublicView(controle_global::View* out) const {
  controle_global::View& v = *out;
  const bool over = s_.phase() == PHASE_GAME_OVER;
  v.set_phase(s_.phase());
  v.set_round(s_.round());
  v.set_end_rule(s_.end_rule());
  for (uint32_t t : s_.turn_order()) v.add_turn_order(static_cast<int32_t>(t));
  v.set_to_act(ToAct());
  v.set_drawing_seat(Drawer());
  for (const auto& r : s_.regions()) {
    RegionView* rv = v.add_regions();
    rv->set_name(r.name_index());
    rv->set_development(r.development());
    *rv->mutable_stock() = r.stock();
    for (int seat = 0; seat < Seats(); ++seat) {
      auto* counts = rv->add_cubes()->mutable_by_category();
      counts->Reserve(kCategories);
      for (int cat = 0; cat < kCategories; ++cat) counts->Add(r.cubes(seat * kCategories + cat));
    }
    *rv->mutable_neighbours() = r.neighbours();
    *rv->mutable_cell() = r.cell();
  }
  for (int cat = 0; cat < kCategories; ++cat) {
    CategoryView* c = v.add_categories();
    c->set_category(CatOf(cat));
    c->set_world_total(WorldTotal(cat));
    c->set_world_level(WorldLevel(cat));
    c->set_highest_this_round(s_.highest(cat));
    c->set_red(s_.red(cat));
    for (uint32_t s : s_.orders(cat).seats()) c->add_order(static_cast<int32_t>(s));
    for (uint32_t level : LiveLevels(cat)) c->add_live_levels(level);
  }
  for (int s = 0; s < Seats(); ++s) {
    const auto& st = S(s);
    SeatView* sv = v.add_seats();
    sv->set_faction(st.faction());
    *sv->mutable_resources() = st.resources();
    *sv->mutable_noted_levels() = st.noted();
    sv->set_level_vp(st.level_vp());
    sv->set_region_vp(st.region_vp());
    sv->set_cards_in_hand(static_cast<uint32_t>(st.hand_size()));
    *sv->mutable_regions_picked() = st.picked();
    for (uint32_t card : st.hand()) {
      sv->add_hand_piles(static_cast<uint32_t>(g().PileOf(card)));
      if (over) sv->add_hand(g().card(card).id());
    }
  }
  for (const auto& p : s_.piles()) {
    PileView* pv = v.add_piles();
    pv->set_size(static_cast<uint32_t>(p.cards_size()));
    for (uint32_t card : p.discard()) pv->add_discard(g().card(card).id());
  }
  for (uint32_t card : s_.civil()) v.add_civil_piles(static_cast<uint32_t>(g().PileOf(card)));
  if (s_.played() >= 0) v.set_played_card(g().card(static_cast<uint32_t>(s_.played())).id());
  for (int res = 0; res < kResources; ++res) {
    if (s_.to_privatise(res) == 0) continue;
    ResourceAmount* a = v.add_to_privatise();
    a->set_resource(static_cast<Resource>(res + 1));
    a->set_amount(s_.to_privatise(res));
  }
  v.set_extra_privatise(s_.extra_privatise());
  if (s_.running()) {
    const internal::EffectRun& run = s_.run();
    RunningView* rv = v.mutable_running();
    rv->set_card(g().card(run.card()).id());
    rv->set_effect(run.effect() < 0 ? 0u : static_cast<uint32_t>(run.effect()) + 1);
    rv->set_player(run.active());
    rv->set_step(run.step());
    for (const auto& b : run.regions()) {
      RegionBinding* rb = rv->add_regions();
      rb->set_label(b.label());
      *rb->mutable_regions() = b.items();
    }
    for (const auto& b : run.players()) {
      PlayerBinding* pb = rv->add_players();
      pb->set_label(b.label());
      for (uint32_t seat : b.items()) pb->add_seats(static_cast<int32_t>(seat));
    }
  }
  v.set_drew(s_.drew());
  v.set_drawing_seat_drew(Drawer() >= 0 && s_.drawer_drew());
}

std::vector<engine::Zone> ControleGlobalState::GameZones() const {
  using engine::Visibility;
  std::vector<engine::Zone> zones;
  const auto* game = &g();
  auto back = [game](uint32_t card) { return static_cast<uint32_t>(game->PileOf(card)); };
  for (int p = 0; p < s_.piles_size(); ++p) {
    zones.push_back({"pile " + std::to_string(p), &s_.piles(p).cards(), Visibility::kNobody, {}, 0, back});
  }
  const bool over = s_.phase() == PHASE_GAME_OVER;
  for (int seat = 0; seat < Seats(); ++seat) {
    zones.push_back({"hand of seat " + std::to_string(seat), &S(seat).hand(),
                     over ? Visibility::kEveryone : Visibility::kSeats, {seat}, 0, back});
  }
  zones.push_back({"civil society", &s_.civil(), Visibility::kNobody, {}, 0, back});
  return zones;
}

void ControleGlobalState::PerturbMore(int seat, engine::Rng& rng) { s_.set_rng(rng.Next()); }

bool ControleGlobalState::TypedTakeBackSafe(int seat, const Action& action) const {
  if (action.has_pick_faction() || action.has_pick_region()) return true;
  if (!action.has_invest()) return false;
  const Invest& inv = action.invest();
  if (inv.kind() != INVEST_ADD_INFLUENCE) return inv.kind() == INVEST_DEVELOP || inv.kind() == INVEST_REMOVE_INFLUENCE;
  // A cube that lifts its category above the round's highest level draws a civil-society card.
  const int cat = Cat(inv.category());
  return g().LevelOf(s_.num_seats(), WorldTotal(cat) + 1) <= s_.highest(cat);
}

namespace {

MoveStep MoveOf(std::string key, engine::v1::Text label) {
  MoveStep m;
  m.key = std::move(key);
  m.label = std::move(label);
  return m;
}

MoveStep PayStep(const Payment& p) {
  return MoveOf("pay:" + std::to_string(p.raw_materials()) + "," + std::to_string(p.energy()) + "," +
                  std::to_string(p.food()),
              T("controle_global.m.pay", p.raw_materials(), p.energy(), p.food()));
}

}  // namespace

std::vector<MoveStep> ControleGlobalState::TypedDescribeMove(int seat, const Action& a) const {
  std::vector<MoveStep> out;
  auto region_step = [&](uint32_t r, engine::v1::Text label) {
    MoveStep m = MoveOf("region:" + std::to_string(r), std::move(label));
    m.target.set_region(std::to_string(r));
    return m;
  };
  switch (a.kind_case()) {
    case Action::kPickFaction: {
      const Faction& f = g().faction(a.pick_faction().faction());
      out.push_back(MoveOf("faction:" + f.id(), T("controle_global.m.faction", f.name())));
      break;
    }
    case Action::kPickRegion: {
      const uint32_t r = a.pick_region().region();
      out.push_back(region_step(r, T("controle_global.m.region", R(static_cast<int>(r)).name())));
      break;
    }
    case Action::kPlay: {
      const int card = g().CardIndex(a.play().card());
      const Card& c = g().card(static_cast<uint32_t>(card));
      MoveStep m = MoveOf("card:" + c.id(), T("controle_global.m.play", c.name()));
      m.target.set_card(c.id());
      out.push_back(std::move(m));
      if (a.play().effect() == 0) {
        out.push_back(MoveOf("effect:0", T("controle_global.m.no_effect")));
        break;
      }
      const Effect& e = c.effects(static_cast<int>(a.play().effect()) - 1);
      out.push_back(MoveOf("effect:" + std::to_string(a.play().effect()),
                         T("controle_global.m.effect", e.name(), MissingLevels(seat, e))));
      out.push_back(PayStep(a.play().pay()));
      break;
    }
    case Action::kInvest: {
      const Invest& inv = a.invest();
      const uint32_t cost = InvestCost(seat, inv.kind(), inv.category() == CATEGORY_UNSPECIFIED ? 0 : Cat(inv.category()));
      const char* key = inv.kind() == INVEST_ADD_INFLUENCE      ? "controle_global.m.invest_influence"
                        : inv.kind() == INVEST_REMOVE_INFLUENCE ? "controle_global.m.invest_removal"
                                                                : "controle_global.m.invest_development";
      out.push_back(MoveOf("invest:" + std::to_string(inv.kind()), T(key, cost)));
      out.push_back(region_step(inv.region(), T("controle_global.m.in", R(static_cast<int>(inv.region())).name())));
      if (inv.kind() == INVEST_REMOVE_INFLUENCE) {
        MoveStep m = MoveOf("seat:" + std::to_string(inv.target()), T("controle_global.m.target", Seat{inv.target()}));
        m.target.set_seat(inv.target());
        out.push_back(std::move(m));
      }
      if (inv.kind() != INVEST_DEVELOP) {
        out.push_back(MoveOf("category:" + std::to_string(inv.category()),
                           T("controle_global.m.of", CategoryWords(Cat(inv.category())))));
      }
      out.push_back(PayStep(inv.pay()));
      break;
    }
    case Action::kDoneInvesting:
      out.push_back(MoveOf("done", T("controle_global.m.done_investing")));
      break;
    case Action::kDonePrivatising:
      out.push_back(MoveOf("done", T("controle_global.m.done_privatising")));
      break;
    case Action::kPrivatise: {
      const int res = static_cast<int>(a.privatise().resource()) - 1;
      out.push_back(MoveOf("privatise:" + std::to_string(res), T("controle_global.m.privatise", ResourceWords(res))));
      out.push_back(region_step(a.privatise().region(),
                                T("controle_global.m.in", R(static_cast<int>(a.privatise().region())).name())));
      break;
    }
    case Action::kDiscard: {
      const Card& c = g().card(static_cast<uint32_t>(g().CardIndex(a.discard().card())));
      const bool free = a.discard().pay().raw_materials() + a.discard().pay().energy() + a.discard().pay().food() == 0;
      MoveStep m = MoveOf("discard:" + c.id(), T(free ? "controle_global.m.discard_free" : "controle_global.m.discard", c.name()));
      m.target.set_card(c.id());
      out.push_back(std::move(m));
      if (!free) out.push_back(PayStep(a.discard().pay()));
      break;
    }
    case Action::kDraw:
      out.push_back(MoveOf("draw:" + std::to_string(a.draw().pile()),
                         T("controle_global.m.draw", PileWords(g().pile(a.draw().pile())))));
      break;
    case Action::kKeep:
      out.push_back(MoveOf("keep", T("controle_global.m.keep")));
      break;
    default:
      break;
  }
  return out;
}

// ----- For terminals and the easy bot -----

namespace {
const char* Roman(uint32_t level) {
  static const char* kRoman[] = {"0", "I", "II", "III", "IV", "V", "VI"};
  return level <= 6 ? kRoman[level] : "?";
}
}  // namespace

std::string ControleGlobalGame::GameViewText(const engine::Message& message,
                                             const SeatNamer& name) const {
  const auto& v = static_cast<const View&>(message);
  static const char* kPhases[] = {"?",          "factions",    "first regions",
                                  "second regions", "starting hands", "play a card",
                                  "invest",     "privatise",   "discard and draw",
                                  "civil society", "game over"};
  static const char* kCats[] = {"Pol", "Mil", "Rel", "Com", "Med", "Bio"};
  const int phase = v.phase() >= 0 && v.phase() <= PHASE_GAME_OVER ? v.phase() : 0;
  auto card_name = [this](const std::string& id) {
    const int c = CardIndex(id);
    return c >= 0 ? card(static_cast<uint32_t>(c)).name() : id;
  };
  auto three = [](const auto& amounts) {
    std::string s;
    for (int i = 0; i < amounts.size() && i < kResources; ++i)
      s += (i > 0 ? "/" : "") + std::to_string(amounts[i]);
    return s;
  };
  std::string out = "Round " + std::to_string(v.round()) + " - " + kPhases[phase];
  if (v.to_act() >= 0) out += " - to act: " + name(v.to_act());
  if (v.drawing_seat() >= 0) out += " - still drawing: " + name(v.drawing_seat());
  out += "\n";
  if (!v.played_card().empty()) out += "Card of the turn: " + card_name(v.played_card()) + "\n";
  if (v.has_running()) {
    const auto& r = v.running();
    out += "Resolving: " + card_name(r.card()) +
           (r.effect() == 0 ? std::string(", civil society") : ", effect " + std::to_string(r.effect())) +
           ", step " + std::to_string(r.step() + 1) + "\n";
  }
  out += "World levels:";
  for (const auto& c : v.categories()) {
    const int i = Cat(c.category());
    if (i < 0 || i >= kCategories) continue;
    out += std::string(" ") + kCats[i] + " " + Roman(c.world_level()) + " (" +
           std::to_string(c.world_total()) + (c.red() ? ", rose" : "") + ")";
  }
  out += "\nResources are raw materials/energy/food.\n";
  for (int s = 0; s < v.seats_size(); ++s) {
    const SeatView& sv = v.seats(s);
    out += "  " + name(s);
    if (sv.faction() >= 0 && sv.faction() < data_.factions_size())
      out += " (" + faction(static_cast<uint32_t>(sv.faction())).name() + ")";
    out += ": " + three(sv.resources()) + ", levels";
    for (int i = 0; i < sv.noted_levels_size() && i < kCategories; ++i)
      out += std::string(" ") + kCats[i] + " " + Roman(sv.noted_levels(i));
    out += ", " + std::to_string(sv.level_vp() + sv.region_vp()) + " VP, " +
           std::to_string(sv.cards_in_hand()) + " in hand\n";
  }
  out += "Regions (development, stock; cubes by seat):\n";
  for (int r = 0; r < v.regions_size(); ++r) {
    const RegionView& rv = v.regions(r);
    const std::string region = static_cast<int>(rv.name()) < data_.world().names_size()
                                   ? data_.world().names(static_cast<int>(rv.name()))
                                   : std::to_string(rv.name());
    out += "  [" + std::to_string(r) + "] " + region + ": " + std::to_string(rv.development()) +
           ", " + three(rv.stock());
    for (int s = 0; s < rv.cubes_size(); ++s) {
      std::string cubes;
      for (int i = 0; i < rv.cubes(s).by_category_size() && i < kCategories; ++i)
        if (rv.cubes(s).by_category(i) > 0)
          cubes += std::string(" ") + kCats[i] + std::to_string(rv.cubes(s).by_category(i));
      if (!cubes.empty()) out += "; " + name(s) + cubes;
    }
    out += "\n";
  }
  if (v.hand_size() > 0) {
    out += "Your hand:\n";
    for (const std::string& id : v.hand()) {
      out += "  " + card_name(id);
      const int c = CardIndex(id);
      if (c >= 0) {
        out += " -";
        for (const Effect& e : card(static_cast<uint32_t>(c)).effects()) out += " " + e.name() + ";";
      }
      out += "\n";
    }
  }
  return out;
}

std::vector<uint32_t> ControleGlobalGame::EasyBotWeights(
    const engine::Message& view, int seat, const std::vector<engine::PublishedMove>& moves) const {
  // Each card, each kind of investment, stopping, each kind of draw: one share each.
  return engine::EvenShareWeights(moves, [](const engine::Message& m) -> std::optional<std::string> {
    const auto& a = static_cast<const Action&>(m);
    switch (a.kind_case()) {
      case Action::kPlay:
        return "play " + a.play().card();
      case Action::kInvest:
        return "invest " + std::to_string(a.invest().kind());
      case Action::kDiscard:
        return "discard " + a.discard().card();
      case Action::kDonePrivatising:  // one choice among the resources, not a family of its own
        return std::to_string(Action::kPrivatise);
      default:
        return std::to_string(a.kind_case());
    }
  });
}

}  // namespace plateau::games::controle_global
