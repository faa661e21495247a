// Contrôle Global played by seeded random players and by simple bots, to check that the designed
// numbers give a game of the rule book's shape (RULES.md, "Simulation"): how many rounds a game
// lasts at 3, 4 and 6 players, how often each faction wins at 4, how often each card can be
// played when held, and how often civil society strikes the leaders. It prints its tables in the
// form RULES.md carries them.
#include <algorithm>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "engine/core/table.h"
#include "tests/games/controle_global/support.h"

namespace plateau::games::controle_global::rule_test {
namespace {

using Legal = std::vector<std::unique_ptr<engine::Message>>;

enum class Policy { kBot, kRandom };

struct CardCount {
  int held = 0;       // turns whose card was played with this one in the player's hand
  int by_levels = 0;  // ... when one of its effects needed no payment
  int paying = 0;     // ... when one of its effects could be played, missing levels paid
};

struct FactionCount {
  int games = 0;
  double wins = 0;         // a shared win counts as a share
  double vp = 0;           // final VP, summed
  double civil_cubes = 0;  // cubes civil society took, summed
};

struct Stats {
  int games = 0;
  int unfinished = 0;
  int at_limit = 0;  // ended by the round limit, not by the end levels
  std::vector<int> rounds;
  std::map<int, FactionCount> factions;
  std::vector<CardCount> cards = std::vector<CardCount>(Game().data().cards_size());
  int civil = 0;              // civil-society cards turned over
  int civil_struck = 0;       // ... that took cubes or resources from someone (or would have)
  int civil_vp_leader = 0;    // ... from the VP leader
  int civil_cat_leader = 0;   // ... from the leader of the card's category
  double civil_chance = 0;    // civil_vp_leader expected if leading made no difference
  int log_gaps = 0;           // log entries trimmed before they were read: must stay 0
};

const Action& A(const engine::Message& m) { return static_cast<const Action&>(m); }
uint32_t Paid(const Payment& p) { return p.raw_materials() + p.energy() + p.food(); }
int PileCategory(uint32_t card) {
  return Cat(Game().pile(static_cast<uint32_t>(Game().PileOf(card))).category());
}

// Levels the card's most reachable effect lacks for `seat` (faction powers aside).
uint32_t Shortfall(const internal::StateProto& s, int seat, uint32_t card) {
  uint32_t best = std::numeric_limits<uint32_t>::max();
  for (const Effect& e : Game().card(card).effects()) {
    uint32_t missing = 0;
    for (const auto& need : e.needs()) {
      const uint32_t noted = s.seats(seat).noted(Cat(need.category()));
      if (need.level() > noted) missing += need.level() - noted;
    }
    best = std::min(best, missing);
  }
  return best;
}

constexpr double kSkip = -std::numeric_limits<double>::infinity();

// The legal action scoring highest, the first among equals; null when every one scores kSkip.
const engine::Message* Best(const Legal& legal, const std::function<double(const Action&)>& score) {
  const engine::Message* best = nullptr;
  double top = kSkip;
  for (const auto& m : legal) {
    const double v = score(A(*m));
    if (v > top) top = v, best = m.get();
  }
  return best;
}

// The bot's move for `seat`, no question open (RULES.md, "Simulation", states the policy).
const engine::Message& BotMove(const ControleGlobalState& state, int seat, const Legal& legal,
                               engine::Rng& rng) {
  const auto& s = state.proto();
  const auto& me = s.seats(seat);
  const Action& first = A(*legal.front());
  const engine::Message* chosen = nullptr;
  const bool drawing = first.has_draw() || first.has_discard() || first.has_keep();
  if (first.has_pick_faction()) {
    chosen = legal[rng.Below(legal.size())].get();
  } else if (first.has_pick_region()) {
    chosen = Best(legal, [&](const Action& a) {
      double stock = 0;
      for (uint32_t r : s.regions(static_cast<int>(a.pick_region().region())).stock()) stock += r;
      return stock;
    });
  } else if (s.phase() == PHASE_STARTING_HANDS && drawing) {
    const Faction& f = Game().faction(static_cast<uint32_t>(me.faction()));
    const int pile = Game().PileIndex(f.categories(me.hand_size() % 2), TIER_LOWER);
    chosen = Best(legal, [&](const Action& a) { return a.draw().pile() == static_cast<uint32_t>(pile); });
  } else if (drawing) {
    // The cards it can best play: its strongest category's pile, the upper one from level IV.
    int cat = 0;
    for (int c = 1; c < kCategories; ++c) {
      if (me.noted(c) > me.noted(cat)) cat = c;
    }
    const int pile = Game().PileIndex(CatOf(cat), me.noted(cat) >= 4 ? TIER_UPPER : TIER_LOWER);
    const bool over = me.hand_size() > static_cast<int>(state.HandSize(seat));
    chosen = Best(legal, [&](const Action& a) -> double {
      if (a.has_discard()) {
        if (!over) return kSkip;  // resources go to cubes, not to a new hand
        return Shortfall(s, seat, static_cast<uint32_t>(Game().CardIndex(a.discard().card())));
      }
      if (a.has_draw()) {
        if (a.draw().pile() == static_cast<uint32_t>(pile)) return 2;
        return Game().pile(a.draw().pile()).category() == CatOf(cat) ? 1 : 0;
      }
      return 0;
    });
  } else if (first.has_play()) {
    // Paying more than one resource would starve the investments.
    chosen = Best(legal, [&](const Action& a) -> double {
      const uint32_t card = static_cast<uint32_t>(Game().CardIndex(a.play().card()));
      if (a.play().effect() == 0) return -100.0 + Shortfall(s, seat, card);
      const uint32_t cost = Paid(a.play().pay());
      if (cost > 1) return kSkip;
      const Effect& e = Game().card(card).effects(static_cast<int>(a.play().effect()) - 1);
      return 10.0 * e.needs(0).level() - cost;
    });
  } else if (first.has_done_investing() || first.has_invest()) {
    // One resource is kept for a missing level next turn; the rest goes to the faction's weaker
    // category, where a cube moves it up the table. Taking the cube of the player just ahead does
    // the same when it costs no more (the Cartel's Racket).
    uint32_t held = 0;
    for (uint32_t r : me.resources()) held += r;
    const Faction& f = Game().faction(static_cast<uint32_t>(me.faction()));
    const int c0 = Cat(f.categories(0)), c1 = Cat(f.categories(1));
    const int cat = state.SeatTotal(seat, c1) < state.SeatTotal(seat, c0) ? c1 : c0;
    const auto& order = s.orders(cat).seats();
    const auto place = std::find(order.begin(), order.end(), static_cast<uint32_t>(seat));
    const int ahead = place == order.begin() ? -1 : static_cast<int>(*(place - 1));
    uint32_t add_cost = std::numeric_limits<uint32_t>::max();
    for (const auto& m : legal) {
      const Action& a = A(*m);
      if (a.has_invest() && a.invest().kind() == INVEST_ADD_INFLUENCE &&
          Cat(a.invest().category()) == cat) {
        add_cost = std::min(add_cost, Paid(a.invest().pay()));
      }
    }
    chosen = Best(legal, [&](const Action& a) -> double {
      if (a.has_done_investing()) return 0;
      const controle_global::Invest& inv = a.invest();
      const uint32_t cost = Paid(inv.pay());
      if (Cat(inv.category()) != cat || held < cost + 1) return kSkip;
      const double development = s.regions(static_cast<int>(inv.region())).development();
      if (inv.kind() == INVEST_ADD_INFLUENCE) return 100 + development;
      if (inv.kind() == INVEST_REMOVE_INFLUENCE && inv.target() == ahead && cost <= add_cost) {
        return 200 + development;
      }
      return kSkip;
    });
  } else if (first.has_privatise()) {
    // It takes every resource it may.
    chosen = Best(legal, [&](const Action& a) {
      if (a.has_done_privatising()) return kSkip;
      const auto& region = s.regions(static_cast<int>(a.privatise().region()));
      return static_cast<double>(region.stock(static_cast<int>(a.privatise().resource()) - 1));
    });
  }
  return chosen != nullptr ? *chosen : *legal.front();
}

// Each card in the hand of `seat` as it plays its turn's card: could one of its effects be played?
void CountHand(const internal::StateProto& s, int seat, const Legal& legal, Stats& st) {
  for (uint32_t card : s.seats(seat).hand()) {
    bool free = false, paying = false;
    for (const auto& m : legal) {
      const Action& a = A(*m);
      if (!a.has_play() || a.play().effect() == 0 || a.play().card() != Game().card(card).id()) continue;
      paying = true;
      free |= Paid(a.play().pay()) == 0;
    }
    auto& c = st.cards[card];
    ++c.held;
    c.by_levels += free;
    c.paying += paying;
  }
}

// Who leads when civil society reacts: the VP leader (the most VP from the levels last noted, ties
// to the earlier in the round's turn order, so from round 2 on the round's first player) and each
// category's leader (first on its table, holding a cube of it).
struct Leaders {
  int vp = -1;
  std::vector<int> category = std::vector<int>(kCategories, -1);
};

Leaders LeadersOf(const ControleGlobalState& state) {
  const auto& s = state.proto();
  Leaders l;
  for (uint32_t seat : s.turn_order()) {
    if (l.vp < 0 || s.seats(static_cast<int>(seat)).level_vp() > s.seats(l.vp).level_vp()) {
      l.vp = static_cast<int>(seat);
    }
  }
  for (int c = 0; c < kCategories; ++c) {
    const int first = static_cast<int>(s.orders(c).seats(0));
    if (state.SeatTotal(first, c) > 0) l.category[c] = first;
  }
  return l;
}

// Follows the log: each civil-society card turned over and whom it struck, a player losing a cube
// or a resource to it (or spared a cube by a power: the card still aimed at them).
class CivilReader {
 public:
  void Read(const ControleGlobalState& state, const Leaders& leaders, Stats& st) {
    const std::vector<engine::LogRef> log = engine::LogOf(state.table());
    if (!log.empty() && log[0].seq > next_seq_) ++st.log_gaps;
    for (const engine::LogRef& r : log) {
      if (r.seq < next_seq_) continue;
      next_seq_ = r.seq + 1;
      const engine::v1::Text t = engine::LogText(r);
      const std::string& key = t.key();
      if (key == "controle_global.civil_reveals") {
        Close(state, leaders, st);
        open_ = true;
        cat_ = CategoryOfName(t.args(0).name());
      } else if (key == "controle_global.civil_done") {
        Close(state, leaders, st);
      } else if (open_ && (key == "controle_global.loses_influence" ||
                           key == "controle_global.loses_resource")) {
        const int seat = t.args(0).seat();
        struck_.insert(seat);
        if (key == "controle_global.loses_influence") {
          st.factions[state.proto().seats(seat).faction()].civil_cubes += t.args(1).number();
        }
      }
    }
  }

 private:
  static int CategoryOfName(const std::string& name) {
    for (int c = 0; c < Game().data().cards_size(); ++c) {
      const uint32_t card = static_cast<uint32_t>(c);
      if (Game().card(card).name() == name) return PileCategory(card);
    }
    return -1;
  }
  void Close(const ControleGlobalState& state, const Leaders& leaders, Stats& st) {
    if (!open_) return;
    ++st.civil;
    st.civil_struck += !struck_.empty();
    st.civil_vp_leader += struck_.count(leaders.vp) > 0;
    st.civil_chance += static_cast<double>(struck_.size()) / state.num_seats();
    const int leader = cat_ >= 0 ? leaders.category[cat_] : -1;
    st.civil_cat_leader += leader >= 0 && struck_.count(leader) > 0;
    open_ = false;
    struck_.clear();
  }

  uint64_t next_seq_ = 0;
  bool open_ = false;
  int cat_ = -1;
  std::set<int> struck_;
};

void PlayOne(int seats, EndRule end, uint64_t seed, Policy policy, Stats& st) {
  Options options;
  options.set_end_rule(end);
  auto state = Game().NewGame(seats, options.SerializeAsString(), seed).value();
  const auto& cg = static_cast<const ControleGlobalState&>(*state);
  engine::Rng rng(seed * 7919 + 13);
  CivilReader civil;
  Leaders leaders;
  for (int step = 0; step < 20000 && !state->IsTerminal(); ++step) {
    const auto& s = cg.proto();
    if (s.phase() != PHASE_CIVIL) leaders = LeadersOf(cg);
    const auto acting = state->ActingSeats();
    ASSERT_FALSE(acting.empty());
    // The random players: a seat drawn among those who may act. The bots: whoever is asked, else
    // the previous player still drawing (they draw at once), else the player whose turn it is.
    int seat = acting[rng.Below(acting.size())];
    if (policy == Policy::kBot) {
      seat = acting[0];
      for (int a : acting) {
        if (static_cast<int>(s.drawer()) == a + 1) seat = a;
      }
      for (int a : acting) {
        if (!state->Prompts(a).empty()) seat = a;
      }
    }
    std::unique_ptr<engine::Message> move;
    const auto prompts = state->Prompts(seat);
    if (!prompts.empty()) {
      move = Game().WrapAnswer(engine::DrawAnswer(prompts[0], Game().OptionsOf(prompts[0]), rng));
    } else {
      const Legal legal = state->LegalActions(seat);
      ASSERT_FALSE(legal.empty());
      move = std::make_unique<Action>(
          A(policy == Policy::kBot ? BotMove(cg, seat, legal, rng) : *legal[rng.Below(legal.size())]));
      if (A(*move).has_play()) CountHand(s, seat, legal, st);
    }
    ASSERT_TRUE(state->Apply(seat, *move).ok()) << Game().ActionToText(*move);
    civil.Read(cg, leaders, st);
  }
  if (!state->IsTerminal()) {
    ++st.unfinished;
    return;
  }
  const auto& s = cg.proto();
  ++st.games;
  st.rounds.push_back(static_cast<int>(s.round()));
  int at_five = 0, at_six = 0;
  for (int c = 0; c < kCategories; ++c) {
    at_five += cg.WorldLevel(c) >= 5;
    at_six += cg.WorldLevel(c) >= 6;
  }
  const bool ended = end == END_TWO_AT_V    ? at_five >= 2
                     : end == END_TWO_AT_VI ? at_six >= 2
                                            : at_six >= 1;
  st.at_limit += !ended;
  const auto ranks = state->Ranks();
  const auto scores = state->Scores();
  const double winners = static_cast<double>(std::count(ranks.begin(), ranks.end(), 1));
  for (int seat = 0; seat < seats; ++seat) {
    auto& f = st.factions[s.seats(seat).faction()];
    ++f.games;
    f.wins += ranks[seat] == 1 ? 1.0 / winners : 0.0;
    f.vp += static_cast<double>(scores[seat]);
  }
}

// ----- The runs: seeds 1 to N of each setting -----

struct Setting {
  Policy policy;
  int seats;
  EndRule end;
  int games;
};

const std::vector<Setting>& Settings() {
  static const std::vector<Setting> settings = {
      {Policy::kBot, 3, END_ONE_AT_VI, 150},    {Policy::kBot, 4, END_ONE_AT_VI, 300},
      {Policy::kBot, 6, END_ONE_AT_VI, 150},    {Policy::kBot, 3, END_TWO_AT_V, 40},
      {Policy::kBot, 6, END_TWO_AT_VI, 40},     {Policy::kRandom, 3, END_ONE_AT_VI, 40},
      {Policy::kRandom, 4, END_ONE_AT_VI, 150}, {Policy::kRandom, 6, END_ONE_AT_VI, 40},
      {Policy::kRandom, 3, END_TWO_AT_V, 20},   {Policy::kRandom, 6, END_TWO_AT_VI, 20},
  };
  return settings;
}

using Key = std::tuple<Policy, int, EndRule>;

// Every setting played once, whichever test asks first.
const Stats& Results(Policy policy, int seats, EndRule end = END_ONE_AT_VI) {
  static const std::map<Key, Stats> results = [] {
    std::map<Key, Stats> out;
    for (const Setting& set : Settings()) {
      Stats& st = out[{set.policy, set.seats, set.end}];
      for (uint64_t seed = 1; seed <= static_cast<uint64_t>(set.games); ++seed) {
        PlayOne(set.seats, set.end, seed, set.policy, st);
      }
    }
    return out;
  }();
  return results.at({policy, seats, end});
}

double Mean(const std::vector<int>& v) {
  double sum = 0;
  for (int x : v) sum += x;
  return v.empty() ? 0 : sum / static_cast<double>(v.size());
}

template <class... Args>
std::string Format(const char* format, Args... args) {
  char out[96];
  std::snprintf(out, sizeof out, format, args...);
  return out;
}

std::string RoundsCell(const Stats& st) {
  std::vector<int> v = st.rounds;
  std::sort(v.begin(), v.end());
  return Format("%.1f (%d, %d–%d)", Mean(v), v[v.size() / 2], v.front(), v.back());
}

double Pct(double part, double whole) { return whole > 0 ? 100.0 * part / whole : 0.0; }

const char* kCategoryNames[kCategories] = {"Politics", "Military", "Religions",
                                           "Commerce", "Media",    "Biology"};

TEST(ControleGlobalSimulation, GamesEndInASensibleNumberOfRoundsAndSixPlayersSooner) {
  const std::vector<std::pair<int, EndRule>> columns = {
      {3, END_ONE_AT_VI}, {4, END_ONE_AT_VI}, {6, END_ONE_AT_VI}, {3, END_TWO_AT_V}, {6, END_TWO_AT_VI}};
  std::printf("\n| | 3 players | 4 players | 6 players | 3 players, two at V | 6 players, two at VI |\n"
              "| --- | --- | --- | --- | --- | --- |\n");
  for (Policy policy : {Policy::kBot, Policy::kRandom}) {
    const char* who = policy == Policy::kBot ? "bots" : "random";
    std::printf("| %s: games |", who);
    for (auto [n, end] : columns) std::printf(" %d |", Results(policy, n, end).games);
    std::printf("\n| %s: rounds, mean (median, range) |", who);
    for (auto [n, end] : columns) std::printf(" %s |", RoundsCell(Results(policy, n, end)).c_str());
    std::printf("\n| %s: games stopped by the round limit |", who);
    for (auto [n, end] : columns) {
      const Stats& st = Results(policy, n, end);
      std::printf(" %.0f%% |", Pct(st.at_limit, st.games));
    }
    std::printf("\n");
  }
  for (const Setting& set : Settings()) {
    const Stats& st = Results(set.policy, set.seats, set.end);
    EXPECT_EQ(st.unfinished, 0);
    EXPECT_EQ(st.log_gaps, 0);
    EXPECT_EQ(st.games, set.games);
  }
  // The pace model (RULES.md, Decisions, Thresholds) puts the median game at 9 to 12 rounds and
  // the round limit is a safeguard: players who build their categories end between 5 and 15
  // rounds on average and almost never at the limit.
  // The three-player variant's level V is the rule book's: how often its games reach the limit
  // is shown, not bounded (RULES.md, Simulation).
  for (auto [n, end] : columns) {
    const Stats& st = Results(Policy::kBot, n, end);
    EXPECT_GE(Mean(st.rounds), 5.0) << n << " players, end " << end;
    EXPECT_LE(Mean(st.rounds), 15.0) << n << " players, end " << end;
    if (end != END_TWO_AT_V) EXPECT_LE(st.at_limit, st.games / 20) << n << " players, end " << end;
  }
  // The rule book: six players end fast.
  for (Policy policy : {Policy::kBot, Policy::kRandom}) {
    EXPECT_LT(Mean(Results(policy, 6).rounds), Mean(Results(policy, 3).rounds));
  }
}

TEST(ControleGlobalSimulation, EachFactionWinsNearItsFairShareAtFourPlayers) {
  const Stats& bots = Results(Policy::kBot, 4);
  const Stats& random = Results(Policy::kRandom, 4);
  std::printf("\n| faction | bots: games | won | × fair share | final VP | cubes civil society took | "
              "random: won | × fair share |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n");
  for (const auto& [f, b] : bots.factions) {
    const FactionCount& r = random.factions.at(f);
    std::printf("| %s | %d | %.1f%% | %.2f | %.1f | %.1f | %.1f%% | %.2f |\n",
                Game().faction(static_cast<uint32_t>(f)).name().c_str(), b.games, Pct(b.wins, b.games),
                4 * b.wins / b.games, b.vp / b.games, b.civil_cubes / b.games, Pct(r.wins, r.games),
                4 * r.wins / r.games);
  }
  ASSERT_EQ(bots.factions.size(), static_cast<size_t>(Game().data().factions_size()));
  // Players who play their faction's categories: none wins under half or over twice the fair
  // share of a four-player table.
  for (const auto& [f, b] : bots.factions) {
    const double share = 4 * b.wins / b.games;
    EXPECT_GE(share, 0.5) << Game().faction(static_cast<uint32_t>(f)).name();
    EXPECT_LE(share, 2.0) << Game().faction(static_cast<uint32_t>(f)).name();
  }
}

// Each card's counts over the games of 3, 4 and 6 players (the standard end).
std::vector<CardCount> CardsOver(Policy policy) {
  std::vector<CardCount> out(Game().data().cards_size());
  for (int n : {3, 4, 6}) {
    const Stats& st = Results(policy, n);
    for (size_t c = 0; c < out.size(); ++c) {
      out[c].held += st.cards[c].held;
      out[c].by_levels += st.cards[c].by_levels;
      out[c].paying += st.cards[c].paying;
    }
  }
  return out;
}

bool Upper(int card) {
  const int pile = Game().PileOf(static_cast<uint32_t>(card));
  return Game().pile(static_cast<uint32_t>(pile)).tier() == TIER_UPPER;
}

TEST(ControleGlobalSimulation, EveryCardCanBePlayedWhenHeld) {
  const std::vector<CardCount> bots = CardsOver(Policy::kBot);
  const std::vector<CardCount> random = CardsOver(Policy::kRandom);
  std::printf("\n| card | pile | bots: turns held | by levels | paying | random: turns held | by levels | "
              "paying |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n");
  for (int c = 0; c < Game().data().cards_size(); ++c) {
    const CardCount& b = bots[c];
    const CardCount& r = random[c];
    std::printf("| %s | %s, %s | %d | %.0f%% | %.0f%% | %d | %.0f%% | %.0f%% |\n",
                Game().card(static_cast<uint32_t>(c)).name().c_str(),
                kCategoryNames[PileCategory(static_cast<uint32_t>(c))], Upper(c) ? "upper" : "lower",
                b.held, Pct(b.by_levels, b.held), Pct(b.paying, b.held), r.held,
                Pct(r.by_levels, r.held), Pct(r.paying, r.held));
  }
  // A lower card is an everyday card: a player holding some resources can nearly always play it.
  // An upper card, which the bots draw once their level reaches IV, must not be a dead card:
  // playable at least one turn in five (over 30 to 200 turns held, a quarter would sit within
  // the sampling's spread).
  for (int c = 0; c < Game().data().cards_size(); ++c) {
    const std::string& name = Game().card(static_cast<uint32_t>(c)).name();
    ASSERT_GE(bots[c].held, 30) << name;  // enough turns to judge
    EXPECT_GE(Pct(bots[c].paying, bots[c].held), Upper(c) ? 20.0 : 90.0) << name;
  }
}

TEST(ControleGlobalSimulation, CivilSocietyStrikesTheCategoryLeader) {
  std::printf("\n| | 3 players | 4 players | 6 players |\n| --- | --- | --- | --- |\n");
  const std::vector<std::pair<const char*, std::function<std::string(const Stats&)>>> rows = {
      {"cards turned over a game",
       [](const Stats& st) { return Format("%.1f", double(st.civil) / st.games); }},
      {"cards that struck someone",
       [](const Stats& st) { return Format("%.0f%%", Pct(st.civil_struck, st.civil)); }},
      {"cards that struck the leader of their category",
       [](const Stats& st) { return Format("%.0f%%", Pct(st.civil_cat_leader, st.civil)); }},
      {"cards that struck the VP leader (by chance)", [](const Stats& st) {
         return Format("%.0f%% (%.0f%%)", Pct(st.civil_vp_leader, st.civil),
                       Pct(st.civil_chance, st.civil));
       }},
  };
  for (Policy policy : {Policy::kBot, Policy::kRandom}) {
    for (const auto& [label, cell] : rows) {
      std::printf("| %s: %s |", policy == Policy::kBot ? "bots" : "random", label);
      for (int n : {3, 4, 6}) std::printf(" %s |", cell(Results(policy, n)).c_str());
      std::printf("\n");
    }
  }
  // Civil society aims at whoever dominates: the most dominated region's most influential player
  // or the category's leader (RULES.md, Cards). Most of its cards reach the category's leader.
  for (int n : {3, 4, 6}) {
    const Stats& st = Results(Policy::kBot, n);
    EXPECT_GE(Pct(st.civil_cat_leader, st.civil), 50.0) << n << " players";
  }
}

}  // namespace
}  // namespace plateau::games::controle_global::rule_test
