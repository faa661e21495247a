// Contrôle Global: the one interpreter of the effect notation (proto Effect), for cards and civil
// society alike, resumable after each question it asks (RULES.md, "Reading an effect").
#include <algorithm>

#include "engine/games/controle_global/controle_global.h"

namespace plateau::games::controle_global {

using engine::Seat;
using engine::T;

namespace {

std::vector<int> CatsOf(const google::protobuf::RepeatedField<int>& cats) {
  std::vector<int> out;
  for (int c : cats) out.push_back(Cat(static_cast<Category>(c)));
  return out;
}

std::vector<int> AllCats() { return {0, 1, 2, 3, 4, 5}; }

std::vector<int> TypesOf(Resource r) {
  if (r == RESOURCE_UNSPECIFIED) return {0, 1, 2};
  return {static_cast<int>(r) - 1};
}

const RegionPick* FindRegionPick(const Effect& e, const std::string& label) {
  for (const auto& r : e.regions()) {
    if (r.label() == label) return &r;
  }
  return nullptr;
}

const PlayerPick* FindPlayerPick(const Effect& e, const std::string& label) {
  for (const auto& p : e.players()) {
    if (p.label() == label) return &p;
  }
  return nullptr;
}

// Option ids: "c<cat>", "r<resource>", "p<pile>", "g<region>", "s<seat>", "d", or a card id.
std::string Opt(char kind, int i) { return std::string(1, kind) + std::to_string(i); }
int OptIndex(const std::string& o) { return std::stoi(o.substr(1)); }

}  // namespace

const Effect& ControleGlobalState::RunEffect() const {
  const Card& card = g().card(s_.run().card());
  return s_.run().effect() < 0 ? card.civil() : card.effects(s_.run().effect());
}

void ControleGlobalState::StartEffect(uint32_t card, int effect, int active) {
  internal::EffectRun* run = s_.mutable_run();
  run->Clear();
  run->set_card(card);
  run->set_effect(effect);
  run->set_active(active);
  run->set_chosen_region(-1);
  for (int cat = 0; cat < kCategories; ++cat) run->add_world_reached(s_.highest(cat));
  s_.set_running(true);
}

void ControleGlobalState::FinishRun() {
  const int active = s_.run().active();
  s_.clear_run();
  s_.set_running(false);
  if (active >= 0) EnterInvest();
}

const internal::Binding* ControleGlobalState::Bound(bool regions, const std::string& key) const {
  const auto& list = regions ? s_.run().regions() : s_.run().players();
  for (const auto& b : list) {
    if (b.label() == key) return &b;
  }
  return nullptr;
}

void ControleGlobalState::Bind(bool regions, const std::string& key, std::vector<uint32_t> items) {
  auto* run = s_.mutable_run();
  internal::Binding* b = regions ? run->add_regions() : run->add_players();
  b->set_label(key);
  for (uint32_t i : items) b->add_items(i);
}

std::vector<int> ControleGlobalState::PlayersFromFirst() const {
  std::vector<int> out;
  const int n = Seats();
  int start = 0;
  const int active = s_.run().active();
  for (int i = 0; i < n; ++i) {
    if (static_cast<int>(s_.turn_order(i)) == active) start = i;
  }
  for (int i = 0; i < n; ++i) out.push_back(static_cast<int>(s_.turn_order((start + i) % n)));
  return out;
}

// Players holding cubes of `cats` in `region`, most first; ties by the order of `tie_cat`'s table.
std::vector<int> ControleGlobalState::RankInRegion(int region, const std::vector<int>& cats,
                                                   int tie_cat) const {
  std::vector<int> seats;
  for (uint32_t s : s_.orders(tie_cat).seats()) seats.push_back(static_cast<int>(s));
  auto count = [&](int seat) {
    uint32_t c = 0;
    for (int cat : cats) c += Cubes(region, seat, cat);
    return c;
  };
  std::stable_sort(seats.begin(), seats.end(), [&](int a, int b) { return count(a) > count(b); });
  seats.erase(std::remove_if(seats.begin(), seats.end(), [&](int s) { return count(s) == 0; }),
              seats.end());
  return seats;
}

void ControleGlobalState::AskRun(int seat, internal::AskKind kind, const std::string& label,
                                 const std::string& key, std::vector<std::string> options,
                                 engine::v1::Text title) {
  engine::v1::Prompt p = engine::MakePrompt(seat, engine::v1::PROMPT_CHOOSE, std::move(title));
  internal::AskResume resume;
  resume.set_kind(kind);
  resume.set_label(label);
  resume.set_key(key);
  for (const auto& o : options) {
    engine::AddOption(&p, o, OptionWords(o));
    resume.add_options(o);
  }
  // A question to a seat other than the mover interrupts the mover's resolution.
  const bool reaction = s_.run().active() >= 0 && seat != s_.run().active();
  Ask({std::move(p)}, static_cast<int>(kind), resume, engine::v1::DEFAULT_FIRST_OPTION, reaction);
}

engine::v1::Text ControleGlobalState::OptionWords(const std::string& o) const {
  switch (o[0]) {
    case 'c': return CategoryWords(OptIndex(o));
    case 'r': return ResourceWords(OptIndex(o));
    case 'p': return PileWords(g().pile(static_cast<uint32_t>(OptIndex(o))));
    case 'g': return T("controle_global.m.player", R(OptIndex(o)).name());
    case 's': return T("controle_global.m.player", Seat{OptIndex(o)});
    case 'd': return T("controle_global.develop_option");
    default: {
      const int card = g().CardIndex(o.substr(1));
      return T("controle_global.m.player", card >= 0 ? g().card(static_cast<uint32_t>(card)).name() : o);
    }
  }
}

// ----- Picks -----

bool ControleGlobalState::ResolveRegion(const std::string& label) {
  if (Bound(true, label) != nullptr) return true;
  const Effect& e = RunEffect();
  const RegionPick* pick = FindRegionPick(e, label);
  const int active = s_.run().active();
  const int n = s_.regions_size();
  std::vector<uint32_t> candidates;
  bool chosen = false;
  uint32_t of = 0;
  bool has_of = false;
  if (!pick->of().empty()) {
    if (!ResolveRegion(pick->of())) return false;
    const internal::Binding* b = Bound(true, pick->of());
    if (!b->items().empty()) {
      of = b->items(0);
      has_of = true;
    }
  }
  // The most of a measure, ties by the most cubes, then (for the most dominated) development,
  // then map order.
  auto best = [&](auto measure, bool with_development) {
    int at = -1;
    auto key = [&](int r) {
      uint32_t all = 0;
      for (int s = 0; s < Seats(); ++s) {
        for (int c = 0; c < kCategories; ++c) all += Cubes(r, s, c);
      }
      return std::tuple<long, uint32_t, uint32_t>(measure(r), all,
                                                  with_development ? R(r).development() : 0);
    };
    for (int r = 0; r < n; ++r) {
      if (at < 0 || key(r) > key(at)) at = r;
    }
    return std::vector<uint32_t>{static_cast<uint32_t>(at)};
  };
  switch (pick->selector()) {
    case REGION_PRESENT:
    case REGION_ANY:
    case REGION_ABSENT:
      chosen = active >= 0;
      for (int r = 0; r < n; ++r) {
        bool present = active >= 0 && Present(active, r);
        bool any_cube = false;
        for (int c = 0; c < kCategories && active >= 0; ++c) any_cube |= Cubes(r, active, c) > 0;
        if (pick->selector() == REGION_ANY || active < 0 ||
            (pick->selector() == REGION_PRESENT && present) ||
            (pick->selector() == REGION_ABSENT && !any_cube)) {
          candidates.push_back(static_cast<uint32_t>(r));
        }
      }
      break;
    case REGION_NEIGHBOUR:
    case REGION_EACH_NEIGHBOUR:
      chosen = pick->selector() == REGION_NEIGHBOUR;
      if (has_of) {
        for (uint32_t nb : R(static_cast<int>(of)).neighbours()) candidates.push_back(nb);
      }
      break;
    case REGION_MOST_INFLUENCE: {
      std::vector<int> cats = pick->categories().empty() ? AllCats() : CatsOf(pick->categories());
      candidates = best(
          [&](int r) {
            long c = 0;
            for (int s = 0; s < Seats(); ++s) {
              for (int cat : cats) c += Cubes(r, s, cat);
            }
            return c;
          },
          true);
      break;
    }
    case REGION_MOST_DEVELOPED:
      candidates = best([&](int r) { return static_cast<long>(R(r).development()); }, false);
      break;
    case REGION_LEAST_DEVELOPED:
      candidates = best([&](int r) { return -static_cast<long>(R(r).development()); }, false);
      break;
    case REGION_RICHEST:
      candidates = best(
          [&](int r) {
            long c = 0;
            for (int t : TypesOf(pick->resource())) c += R(r).stock(t);
            return c;
          },
          false);
      break;
    case REGION_EACH:
      for (int r = 0; r < n; ++r) candidates.push_back(static_cast<uint32_t>(r));
      break;
    default:
      break;
  }
  if (pick->distinct()) {
    std::vector<uint32_t> before;
    for (const auto& b : s_.run().regions()) before.insert(before.end(), b.items().begin(), b.items().end());
    candidates.erase(std::remove_if(candidates.begin(), candidates.end(),
                                    [&](uint32_t r) {
                                      return std::count(before.begin(), before.end(), r) > 0;
                                    }),
                     candidates.end());
  }
  if (chosen && candidates.size() > 1) {
    std::vector<std::string> options;
    for (uint32_t r : candidates) options.push_back(Opt('g', static_cast<int>(r)));
    AskRun(active, internal::ASK_REGION, label, label, std::move(options),
           T("controle_global.q.region_for", e.name()));
    return false;
  }
  Bind(true, label, std::move(candidates));
  return true;
}

bool ControleGlobalState::ResolvePlayers(const std::string& label, int region,
                                         std::vector<uint32_t>* out) {
  const Effect& e = RunEffect();
  const PlayerPick* pick = FindPlayerPick(e, label);
  // A pick that reads a region picked several times is resolved for each of them.
  std::string key = label;
  int in = -1;
  if (!pick->in().empty()) {
    if (!ResolveRegion(pick->in())) return false;
    const RegionPick* rp = FindRegionPick(e, pick->in());
    const internal::Binding* b = Bound(true, pick->in());
    const bool multi = rp->selector() == REGION_EACH_NEIGHBOUR || rp->selector() == REGION_EACH;
    if (multi) {
      key = label + "@" + std::to_string(region);
      in = region;
    } else if (!b->items().empty()) {
      in = static_cast<int>(b->items(0));
    }
    if (in < 0) {
      Bind(false, key, {});
    }
  }
  if (const internal::Binding* b = Bound(false, key)) {
    out->assign(b->items().begin(), b->items().end());
    return true;
  }
  const int active = s_.run().active();
  const std::vector<int> cats = pick->categories().empty() ? AllCats() : CatsOf(pick->categories());
  auto holds = [&](int seat) {
    if (in < 0) return pick->in().empty();
    for (int c : cats) {
      if (Cubes(in, seat, c) > 0) return true;
    }
    return false;
  };
  const int card_cat = Cat(g().pile(static_cast<uint32_t>(g().PileOf(s_.run().card()))).category());
  std::vector<uint32_t> found;
  switch (pick->selector()) {
    case PLAYER_SELF:
      if (active >= 0) found.push_back(static_cast<uint32_t>(active));
      break;
    case PLAYER_OTHER: {
      std::vector<std::string> options;
      for (int seat : PlayersFromFirst()) {
        if (seat != active && holds(seat)) {
          found.push_back(static_cast<uint32_t>(seat));
          options.push_back(Opt('s', seat));
        }
      }
      if (found.size() > 1 && active >= 0) {
        AskRun(active, internal::ASK_PLAYER, label, key, std::move(options),
               T("controle_global.q.player_for", e.name()));
        return false;
      }
      break;
    }
    case PLAYER_EACH_OTHER_PRESENT:
    case PLAYER_EACH_PRESENT:
    case PLAYER_EACH_OTHER:
      for (int seat : PlayersFromFirst()) {
        if (seat == active && pick->selector() != PLAYER_EACH_PRESENT) continue;
        if (pick->selector() != PLAYER_EACH_OTHER && !holds(seat)) continue;
        found.push_back(static_cast<uint32_t>(seat));
      }
      break;
    case PLAYER_MOST_INFLUENTIAL:
    case PLAYER_SECOND_INFLUENTIAL: {
      if (in < 0) break;
      const auto ranked = RankInRegion(in, cats, card_cat);
      const size_t at = pick->selector() == PLAYER_MOST_INFLUENTIAL ? 0 : 1;
      if (ranked.size() > at) found.push_back(static_cast<uint32_t>(ranked[at]));
      break;
    }
    case PLAYER_LEADER: {
      const int cat = pick->categories().empty() ? card_cat : Cat(static_cast<Category>(pick->categories(0)));
      const uint32_t leader = s_.orders(cat).seats(0);
      // A leader with no cube in the category leads nothing.
      if (SeatTotal(static_cast<int>(leader), cat) > 0) found.push_back(leader);
      break;
    }
    case PLAYER_RICHEST: {
      int at = -1;
      uint32_t most = 0;
      for (int seat : PlayersFromFirst()) {
        uint32_t held = 0;
        for (uint32_t r : S(seat).resources()) held += r;
        if (at < 0 || held > most) {
          at = seat;
          most = held;
        }
      }
      if (at >= 0) found.push_back(static_cast<uint32_t>(at));
      break;
    }
    default:
      break;
  }
  Bind(false, key, found);
  out->assign(found.begin(), found.end());
  return true;
}

// ----- Steps -----

std::vector<uint32_t> ControleGlobalState::StepRegions(const Step& step) const {
  if (step.region().empty()) return {UINT32_MAX};
  const internal::Binding* b = Bound(true, step.region());
  return std::vector<uint32_t>(b->items().begin(), b->items().end());
}

int ControleGlobalState::Chooser(const Step& step, int player) const {
  const int active = s_.run().active();
  if (step.op() == OP_DRAW_CARDS || step.op() == OP_DISCARD_CARDS) return player;
  return active >= 0 ? active : player;
}

std::vector<std::string> ControleGlobalState::UnitOptions(const Step& step, int region,
                                                          int player) const {
  std::vector<std::string> out;
  const std::vector<int> listed = CatsOf(step.categories());
  const std::vector<int> cats = listed.empty() ? AllCats() : listed;
  const bool needs_region = !step.region().empty();
  const bool needs_player = !step.player().empty();
  if ((needs_region && region < 0) || (needs_player && player < 0)) return out;
  switch (step.op()) {
    case OP_ADD_INFLUENCE:
      for (int c : listed) out.push_back(Opt('c', c));
      break;
    case OP_REMOVE_INFLUENCE:
      for (int c : cats) {
        if (Cubes(region, player, c) > 0) out.push_back(Opt('c', c));
      }
      break;
    case OP_DEVELOP:
      out.push_back("d");
      break;
    case OP_UNDEVELOP:
      if (R(region).development() > 1) out.push_back("d");
      break;
    case OP_TAKE_RESOURCE:
    case OP_DESTROY_RESOURCE:
      for (int t : TypesOf(step.resource())) {
        if (R(region).stock(t) > 0) out.push_back(Opt('r', t));
      }
      break;
    case OP_ADD_REGION_RESOURCE:
    case OP_GAIN_RESOURCE:
      for (int t : TypesOf(step.resource())) out.push_back(Opt('r', t));
      break;
    case OP_LOSE_RESOURCE:
    case OP_STEAL_RESOURCE:
      for (int t : TypesOf(step.resource())) {
        if (S(player).resources(t) > 0) out.push_back(Opt('r', t));
      }
      break;
    case OP_MOVE_INFLUENCE: {
      const internal::Binding* from = Bound(true, step.from());
      if (from == nullptr || from->items().empty() ||
          static_cast<int>(from->items(0)) == region) {
        break;
      }
      for (int c : cats) {
        if (Cubes(static_cast<int>(from->items(0)), player, c) > 0) out.push_back(Opt('c', c));
      }
      break;
    }
    case OP_CONVERT_INFLUENCE: {
      if (listed.empty()) break;
      for (int c = 0; c < kCategories; ++c) {
        const bool source = listed.size() > 1
                                ? std::count(listed.begin() + 1, listed.end(), c) > 0
                                : c != listed[0];
        if (source && Cubes(region, player, c) > 0) out.push_back(Opt('c', c));
      }
      break;
    }
    case OP_DRAW_CARDS:
      for (int p = 0; p < s_.piles_size(); ++p) {
        if (Drawable(p)) out.push_back(Opt('p', p));
      }
      break;
    case OP_DISCARD_CARDS:
      for (uint32_t card : S(player).hand()) out.push_back("k" + g().card(card).id());
      break;
    default:
      break;
  }
  return out;
}

void ControleGlobalState::DoUnit(const Step& step, int region, int player,
                                 const std::string& option) {
  const int active = s_.run().active();
  const int i = option[0] == 'k' || option == "d" ? 0 : OptIndex(option);
  switch (step.op()) {
    case OP_ADD_INFLUENCE:
      AddCubes(region, player, i, 1);
      Log(T("controle_global.gains_influence", Seat{player}, 1, CategoryWords(i), R(region).name()));
      break;
    case OP_REMOVE_INFLUENCE:
      AddCubes(region, player, i, -1);
      Log(T("controle_global.loses_influence", Seat{player}, 1, CategoryWords(i), R(region).name()));
      // Civil society's steps run outside any player's effect.
      if (active < 0) {
        if (const Power* p = PowerOf(player, POWER_CIVIL_INCOME); p != nullptr && p->amount() > 0) {
          const int res = static_cast<int>(p->resource()) - 1;
          M(player).set_resources(res, S(player).resources(res) + p->amount());
          Log(T("controle_global.civil_income", Seat{player}, p->name(), p->amount(), ResourceWords(res)));
        }
      }
      break;
    case OP_DEVELOP:
      R(region).set_development(R(region).development() + 1);
      Log(T("controle_global.develops", R(region).name(), 1, R(region).development()));
      break;
    case OP_UNDEVELOP:
      R(region).set_development(R(region).development() - 1);
      Log(T("controle_global.undevelops", R(region).name(), 1, R(region).development()));
      break;
    case OP_TAKE_RESOURCE:
      R(region).set_stock(i, R(region).stock(i) - 1);
      M(player).set_resources(i, S(player).resources(i) + 1);
      Log(T("controle_global.takes_resource", Seat{player}, 1, ResourceWords(i), R(region).name()));
      break;
    case OP_DESTROY_RESOURCE:
      R(region).set_stock(i, R(region).stock(i) - 1);
      Log(T("controle_global.region_loses_resource", R(region).name(), 1, ResourceWords(i)));
      break;
    case OP_ADD_REGION_RESOURCE:
      R(region).set_stock(i, R(region).stock(i) + 1);
      Log(T("controle_global.region_gains_resource", R(region).name(), 1, ResourceWords(i)));
      break;
    case OP_GAIN_RESOURCE:
      M(player).set_resources(i, S(player).resources(i) + 1);
      Log(T("controle_global.gains_resource", Seat{player}, 1, ResourceWords(i)));
      break;
    case OP_LOSE_RESOURCE:
      M(player).set_resources(i, S(player).resources(i) - 1);
      Log(T("controle_global.loses_resource", Seat{player}, 1, ResourceWords(i)));
      break;
    case OP_STEAL_RESOURCE:
      M(player).set_resources(i, S(player).resources(i) - 1);
      if (active >= 0 && active != player) {
        M(active).set_resources(i, S(active).resources(i) + 1);
        Log(T("controle_global.steals", Seat{active}, 1, ResourceWords(i), Seat{player}));
      } else {
        Log(T("controle_global.loses_resource", Seat{player}, 1, ResourceWords(i)));
      }
      break;
    case OP_MOVE_INFLUENCE: {
      const int from = static_cast<int>(Bound(true, step.from())->items(0));
      AddCubes(from, player, i, -1);
      AddCubes(region, player, i, 1);
      Log(T("controle_global.moves_influence", Seat{player}, 1, CategoryWords(i), R(from).name(),
            R(region).name()));
      break;
    }
    case OP_CONVERT_INFLUENCE: {
      const int to = Cat(step.categories(0));
      AddCubes(region, player, i, -1);
      AddCubes(region, player, to, 1);
      Log(T("controle_global.converts_influence", Seat{player}, 1, CategoryWords(i),
            CategoryWords(to), R(region).name()));
      break;
    }
    case OP_DRAW_CARDS:
      DrawFrom(player, i);
      break;
    case OP_DISCARD_CARDS: {
      const uint32_t card = static_cast<uint32_t>(g().CardIndex(option.substr(1)));
      auto* hand = M(player).mutable_hand();
      hand->erase(std::find(hand->begin(), hand->end(), card));
      Discard(card);
      Log(T("controle_global.discards", Seat{player}, 1));
      break;
    }
    default:
      break;
  }
}

void ControleGlobalState::ContinueRun() {
  while (s_.running()) {
    const Effect& e = RunEffect();
    internal::EffectRun* run = s_.mutable_run();
    if (run->step() >= static_cast<uint32_t>(e.steps_size())) {
      FinishRun();
      return;
    }
    const Step& step = e.steps(static_cast<int>(run->step()));
    auto next_step = [&] {
      run->set_step(run->step() + 1);
      run->set_region_i(0);
      run->set_player_i(0);
      run->set_units_done(0);
      run->set_chosen_region(-1);
    };
    // Civil society: a step waits for its category's world level this round.
    bool reached = true;
    for (const auto& w : step.world_needs()) {
      reached &= run->world_reached(Cat(w.category())) >= w.level();
    }
    if (!reached) {
      next_step();
      continue;
    }
    const RegionPick* rp = step.region().empty() ? nullptr : FindRegionPick(e, step.region());
    const bool player_choice = rp != nullptr && rp->selector() == REGION_PLAYER_CHOICE;
    if (rp != nullptr && !player_choice && !ResolveRegion(step.region())) return;
    if (!step.from().empty() && !ResolveRegion(step.from())) return;
    const std::vector<uint32_t> regions =
        player_choice ? std::vector<uint32_t>{UINT32_MAX} : StepRegions(step);
    if (run->region_i() >= regions.size()) {
      if (regions.empty()) Log(T("controle_global.nothing_happens", e.name()));
      next_step();
      continue;
    }
    int region = regions[run->region_i()] == UINT32_MAX ? -1 : static_cast<int>(regions[run->region_i()]);
    std::vector<uint32_t> players = {UINT32_MAX};
    if (!step.player().empty() && !ResolvePlayers(step.player(), region, &players)) return;
    auto next_region = [&] {
      run->set_region_i(run->region_i() + 1);
      run->set_player_i(0);
      run->set_units_done(0);
      run->set_chosen_region(-1);
    };
    if (run->player_i() >= players.size()) {
      next_region();
      continue;
    }
    const int player = players[run->player_i()] == UINT32_MAX ? -1 : static_cast<int>(players[run->player_i()]);
    auto next_player = [&] {
      run->set_player_i(run->player_i() + 1);
      run->set_units_done(0);
      run->set_chosen_region(-1);
    };
    if (player_choice) {
      // The player the step concerns picks where, among the regions holding their cubes of
      // the step's categories.
      if (run->chosen_region() < 0) {
        std::vector<std::string> options;
        const std::vector<int> listed = CatsOf(step.categories());
        for (int r = 0; r < s_.regions_size() && player >= 0; ++r) {
          for (int c : listed.empty() ? AllCats() : listed) {
            if (Cubes(r, player, c) > 0) {
              options.push_back(Opt('g', r));
              break;
            }
          }
        }
        if (options.empty()) {
          next_player();
          continue;
        }
        if (options.size() > 1) {
          AskRun(player, internal::ASK_STEP_REGION, step.region(), "", std::move(options),
                 T("controle_global.q.region_for", e.name()));
          return;
        }
        run->set_chosen_region(OptIndex(options[0]));
      }
      region = run->chosen_region();
    }
    const uint32_t amount = step.amount();
    if (run->units_done() >= amount) {
      next_player();
      continue;
    }
    std::vector<std::string> options = UnitOptions(step, region, player);
    if (options.empty()) {
      next_player();
      continue;
    }
    if (options.size() > 1) {
      const int chooser = Chooser(step, player);
      if (chooser >= 0) {
        engine::v1::Text title = step.op() == OP_DRAW_CARDS      ? T("controle_global.q.pile_for", e.name())
                                 : step.op() == OP_DISCARD_CARDS ? T("controle_global.q.card_for", e.name())
                                 : options[0][0] == 'r'          ? T("controle_global.q.resource_for", e.name())
                                                                 : T("controle_global.q.category_for", e.name());
        AskRun(chooser, internal::ASK_UNIT, "", "", std::move(options), std::move(title));
        return;
      }
    }
    // One option, or no one to choose (a region's step in civil society): the first.
    DoUnit(step, region, player, options[0]);
    s_.mutable_run()->set_units_done(s_.run().units_done() + 1);
  }
}

void ControleGlobalState::GameResume(const engine::v1::Decision& decision) {
  internal::AskResume resume;
  resume.ParseFromString(decision.resume());
  const std::string& chosen = decision.answers(0).answer().options(0);
  switch (resume.kind()) {
    case internal::ASK_REGION:
      Bind(true, resume.key(), {static_cast<uint32_t>(OptIndex(chosen))});
      break;
    case internal::ASK_PLAYER:
      Bind(false, resume.key(), {static_cast<uint32_t>(OptIndex(chosen))});
      break;
    case internal::ASK_STEP_REGION:
      s_.mutable_run()->set_chosen_region(OptIndex(chosen));
      break;
    case internal::ASK_UNIT: {
      // Where the interpreter stood when it asked: the same step, region and player.
      const Effect& e = RunEffect();
      const Step& step = e.steps(static_cast<int>(s_.run().step()));
      const RegionPick* rp = step.region().empty() ? nullptr : FindRegionPick(e, step.region());
      int region = -1;
      if (rp != nullptr && rp->selector() == REGION_PLAYER_CHOICE) {
        region = s_.run().chosen_region();
      } else if (rp != nullptr) {
        region = static_cast<int>(StepRegions(step)[s_.run().region_i()]);
      }
      int player = -1;
      if (!step.player().empty()) {
        std::vector<uint32_t> players;
        ResolvePlayers(step.player(), region, &players);  // bound already: asks nothing
        player = static_cast<int>(players[s_.run().player_i()]);
      }
      DoUnit(step, region, player, chosen);
      s_.mutable_run()->set_units_done(s_.run().units_done() + 1);
      break;
    }
    default:
      break;
  }
  ContinueRun();
}

}  // namespace plateau::games::controle_global
