#include "engine/core/bot.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "engine/core/families.h"
#include "plateau/v1/table.pb.h"

namespace plateau::engine {

std::string_view BotLevelName(BotLevel level) {
  switch (level) {
    case BotLevel::kEasy:
      return "easy";
    case BotLevel::kNormal:
      return "normal";
  }
  return "easy";
}

std::vector<uint32_t> EvenShareWeights(
    const std::vector<PublishedMove>& moves,
    const std::function<std::optional<std::string>(const Message& action)>& group) {
  constexpr uint32_t kShare = 720720;  // divisible by every count up to 16
  std::vector<std::optional<std::string>> of(moves.size());
  std::map<std::string, uint64_t> members;
  for (size_t i = 0; i < moves.size(); ++i) {
    of[i] = group(*moves[i].action);
    if (of[i]) members[*of[i]] += moves[i].members;
  }
  std::vector<uint32_t> out(moves.size(), 0);
  for (size_t i = 0; i < moves.size(); ++i)
    if (of[i]) out[i] = static_cast<uint32_t>(std::max<uint64_t>(1, kShare / members[*of[i]]));
  return out;
}

std::vector<size_t> WeightedOrder(std::vector<uint32_t> weights, size_t count, Rng& rng) {
  uint64_t total = 0;
  if (weights.size() == count) {
    for (uint32_t w : weights) total += w;
  }
  if (total == 0) weights.assign(count, 1), total = count;
  // A market card can publish thousands of moves: the weights sit in a Fenwick tree, so each
  // draw finds the first index whose running sum passes it in log(count) steps, not count.
  const size_t n = weights.size();
  std::vector<uint64_t> tree(n + 1, 0);
  for (size_t i = 1; i <= n; ++i) {
    tree[i] += weights[i - 1];
    const size_t up = i + (i & (~i + 1));
    if (up <= n) tree[up] += tree[i];
  }
  size_t top = 1;
  while (top * 2 <= n) top *= 2;
  std::vector<size_t> out;
  out.reserve(n);
  while (total > 0) {
    uint64_t draw = rng.Below(total);
    size_t at = 0;  // the most indexes whose weights sum to no more than the draw
    for (size_t step = top; step > 0; step /= 2) {
      if (at + step <= n && tree[at + step] <= draw) {
        at += step;
        draw -= tree[at];
      }
    }
    out.push_back(at);
    const uint32_t w = weights[at];
    total -= w;
    weights[at] = 0;
    for (size_t i = at + 1; i <= n; i += i & (~i + 1)) tree[i] -= w;
  }
  return out;
}

std::vector<std::unique_ptr<Message>> BotMoves(const Game& game, const Message& view, int seat,
                                               BotLevel level, Rng& rng) {
  (void)level;  // the view-only level; the normal level searches a sample (SearchMoves)
  std::vector<std::unique_ptr<Message>> out;
  if (view.GetDescriptor() != game.ViewPrototype().GetDescriptor() || seat < 0) return out;
  const v1::Table* table = ViewTable(view);
  if (table == nullptr) return out;
  for (const v1::Prompt& prompt : table->prompts()) {
    if (static_cast<int>(prompt.seat()) != seat) continue;
    // A drawn answer has the right shape; the game may still refuse it (an order its rules
    // forbid), and then the plainest one is the fallback.
    out.push_back(game.WrapAnswer(DrawAnswer(prompt, game.OptionsOf(prompt), rng)));
    out.push_back(game.WrapAnswer(PlainAnswer(prompt, game.OptionsOf(prompt))));
    return out;
  }
  std::vector<PublishedMove> published =
      PublishedMoves(game, view, {.words = false, .families_whole = true});
  // A game weighs each member; a family listed whole weighs as all of its members together, and
  // the member is drawn once the family is: the draw is the same as over every member listed.
  std::vector<uint32_t> weights = game.EasyBotWeights(view, seat, published);
  if (weights.size() != published.size()) weights.assign(published.size(), 1);
  for (size_t i = 0; i < weights.size(); ++i)
    weights[i] = static_cast<uint32_t>(
        std::min<uint64_t>(UINT32_MAX, uint64_t{weights[i]} * published[i].members));
  for (size_t i : WeightedOrder(std::move(weights), published.size(), rng)) {
    PublishedMove& m = published[i];
    out.push_back(m.family ? DrawFromFamily(game.ActionPrototype(), *m.family, rng)
                           : std::move(m.action));
  }
  return out;
}

std::unique_ptr<Message> DrawAcceptedAnswer(const State& state, int seat, const v1::Prompt& prompt,
                                            int tries, Rng& rng) {
  const OptionList& options = state.game().OptionsOf(prompt);
  for (int k = 0; k < tries; ++k) {
    auto answer = state.game().WrapAnswer(DrawAnswer(prompt, options, rng));
    if (state.Validate(seat, *answer).ok()) return answer;
  }
  return nullptr;
}

std::unique_ptr<Message> RandomMove(const State& state, int seat, Rng& rng) {
  auto legal = state.LegalActions(seat);
  if (!legal.empty()) return std::move(legal[rng.Below(legal.size())]);
  // A question whose answers are described, not listed: a few drawn answers, then the default.
  const auto prompts = state.Prompts(seat);
  if (!prompts.empty()) {
    if (auto answer = DrawAcceptedAnswer(state, seat, prompts[0], 8, rng)) return answer;
  }
  return state.DefaultAction(seat);
}

namespace {

// The seat's share of a position, in [0, 1]. At the end: the fraction of the other seats it
// beats by the game's ranks, a tie counting half. Before (a playout cut at its horizon): how far
// it leads or trails the best other score, relative to the two scores' size, so that a bigger
// lead counts more; a seat alone at the table is measured by its score alone.
double Reward(const State& state, int seat) {
  const int n = state.num_seats();
  if (state.IsTerminal() && n > 1) {
    const std::vector<int> ranks = state.Ranks();
    double beaten = 0;
    for (int other = 0; other < n; ++other) {
      if (other == seat) continue;
      if (ranks[other] > ranks[seat]) beaten += 1;
      if (ranks[other] == ranks[seat]) beaten += 0.5;
    }
    return beaten / (n - 1);
  }
  const std::vector<int64_t> scores = state.Scores();
  const double mine = static_cast<double>(scores[seat]);
  if (n == 1) return 0.5 + 0.5 * std::tanh(mine / 20.0);
  double best_other = -1e300;  // resigned seats rank last whatever their score: not counted
  for (int other = 0; other < n; ++other)
    if (other != seat && !state.HasResigned(other)) best_other = std::max(best_other, static_cast<double>(scores[other]));
  if (best_other < -1e299) return 1;  // everyone else resigned
  return 0.5 + 0.5 * (mine - best_other) / (std::abs(mine) + std::abs(best_other) + 1.0);
}

// Plays random moves from `state` until the end, or `horizon` actions (0: no limit), or a
// position where nobody can move.
void Playout(State& state, int horizon, Rng& rng) {
  constexpr int kMaxActions = 20000;  // a game always ends long before; a guard, not a rule
  for (int played = 0; !state.IsTerminal() && played < kMaxActions; ++played) {
    if (horizon > 0 && played >= horizon) return;
    const std::vector<int> acting = state.ActingSeats();
    if (acting.empty()) return;
    const int who = acting[rng.Below(acting.size())];
    auto move = RandomMove(state, who, rng);
    if (move == nullptr || !state.Apply(who, *move).ok()) return;
  }
}

// The moves the search weighs: the listed legal actions (a random subset when too many), drawn
// answers to a question that lists none, a few members of each family, and the default move.
// Duplicates (same canonical bytes) are dropped.
std::vector<std::unique_ptr<Message>> Candidates(const State& state, int seat, int limit,
                                                 Rng& rng) {
  std::vector<std::unique_ptr<Message>> out;
  std::set<std::string> seen;
  auto add = [&](std::unique_ptr<Message> move) {
    if (move == nullptr || static_cast<int>(out.size()) >= limit) return;
    auto canonical = state.Canonical(seat, *move);
    if (!seen.insert(DeterministicBytes(*canonical)).second) return;
    out.push_back(std::move(canonical));
  };
  add(state.DefaultAction(seat));
  for (auto& idea : state.BotIdeas(seat, rng))
    if (state.Validate(seat, *idea).ok()) add(std::move(idea));
  auto legal = state.LegalActions(seat);
  rng.Shuffle(legal);
  const auto families = state.ActionFamilies(seat);
  const auto prompts = state.Prompts(seat);
  // Room is kept for the families' members and drawn answers when there are any.
  const int listed_limit = families.empty() && !legal.empty() ? limit : limit - limit / 3;
  for (auto& move : legal) {
    if (static_cast<int>(out.size()) >= listed_limit) break;
    add(std::move(move));
  }
  if (legal.empty() && !prompts.empty()) {
    for (int tries = 0; tries < 2 * limit && static_cast<int>(out.size()) < limit; ++tries)
      add(DrawAcceptedAnswer(state, seat, prompts[0], 1, rng));
  }
  for (int tries = 0; !families.empty() && tries < 4 * limit &&
                      static_cast<int>(out.size()) < limit;
       ++tries) {
    auto member = DrawFromFamily(state.game().ActionPrototype(),
                                 families[rng.Below(families.size())], rng);
    if (state.Validate(seat, *member).ok()) add(std::move(member));
  }
  return out;
}

}  // namespace

std::vector<std::unique_ptr<Message>> SearchMoves(const State& sample, int seat,
                                                  const SearchBudget& budget, Rng& rng,
                                                  SearchStats* stats) {
  if (!sample.IsActing(seat)) return {};
  auto candidates = Candidates(sample, seat, std::max(1, budget.max_candidates), rng);
  if (stats != nullptr) stats->candidates = static_cast<int>(candidates.size());
  if (candidates.size() <= 1) return candidates;

  const size_t k = candidates.size();
  std::vector<double> total(k, 0.0);
  std::vector<int> visits(k, 0);
  int playouts = 0;
  // Rewards lie in [0, 1]: an exploration constant below sqrt(2) favours the better moves sooner.
  constexpr double kExplore = 0.7;
  while (playouts < budget.max_playouts && !(budget.stop && budget.stop())) {
    size_t pick = 0;
    if (playouts < static_cast<int>(k)) {
      pick = static_cast<size_t>(playouts);
    } else {
      double best = -1;
      const double log_n = std::log(static_cast<double>(playouts));
      for (size_t i = 0; i < k; ++i) {
        const double ucb = total[i] / visits[i] + kExplore * std::sqrt(log_n / visits[i]);
        if (ucb > best) best = ucb, pick = i;
      }
    }
    // A fresh draw of everything the seat cannot see, for every playout.
    auto world = sample.PerturbHidden(seat, rng.Next());
    double reward = 0;
    if (world->Apply(seat, *candidates[pick]).ok()) {
      Playout(*world, budget.horizon, rng);
      reward = Reward(*world, seat);
    }
    total[pick] += reward;
    ++visits[pick];
    ++playouts;
  }
  if (stats != nullptr) stats->playouts = playouts;

  // Best first: the most tried (UCB1 tries the best most), then the better average.
  std::vector<size_t> order(k);
  for (size_t i = 0; i < k; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (visits[a] != visits[b]) return visits[a] > visits[b];
    return total[a] * visits[b] > total[b] * visits[a];
  });
  std::vector<std::unique_ptr<Message>> out;
  for (size_t i : order) out.push_back(std::move(candidates[i]));
  return out;
}

}  // namespace plateau::engine
