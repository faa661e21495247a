// LIMIT: the moves a nation's view publishes (Table.moves) and how the easy bot weighs them.
//
// A card is played with parameters that depend on each other (a target, then the classes that
// target may raise; a resource, then how much of it the market can sell). The tree offers the
// card first and each parameter after it, so every leaf is a play the rules accept: a leaf lists
// one play, or, where only an amount is left to choose, stands for the whole range of amounts
// (a family leaf over one singular field, every member legal). Each leaf is checked by the same
// validation the play goes through, never by a second copy of the rules. Each node carries only
// the fields its choice sets (MoveChoice.action as a part): the card's id goes once, on the card.
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "engine/core/bot.h"
#include "engine/core/families.h"
#include "engine/core/table.h"
#include "engine/games/limit/limit.h"
#include "engine/games/limit/limit_nation.h"

namespace plateau::games::limit {

namespace {

using Choices = google::protobuf::RepeatedPtrField<engine::v1::MoveChoice>;

constexpr const char* kResourceIds[] = {"renewable", "industrial", "military", "fossil"};

// The board's regions a choice points at, named short as the choices that pick them are keyed
// (so the key names the target, key_target): a factory track f1–f3 and a market track r1–r4 by
// their enum values, a deck d1–d3, a social class by its letter.
engine::v1::Target Region(const std::string& id) {
  engine::v1::Target t;
  t.set_region(id);
  return t;
}

engine::v1::Target CardTarget(uint32_t id) {
  engine::v1::Target t;
  t.set_card(std::to_string(id));
  return t;
}

engine::v1::MoveChoice* Add(Choices* level, std::string key, engine::v1::Text label,
                            const engine::v1::Target& target = {}) {
  auto* c = level->Add();
  c->set_key(std::move(key));
  *c->mutable_label() = std::move(label);
  if (target.where_case() != engine::v1::Target::WHERE_NOT_SET) *c->mutable_target() = target;
  return c;
}

void SetAction(engine::v1::MoveChoice* c, const Action& a) {
  engine::DeterministicBytesInto(a, c->mutable_action());
}

// A transaction's kind (its resource, bought or sold) as a choice; the range of quantities that
// follows says how much.
engine::v1::MoveChoice* AddKind(Choices* level, const Transaction& t) {
  const char* id = kResourceIds[t.resource() - 1];
  // Its target is the resource's market track (the key names the transaction, not the track).
  return Add(level, (t.sell() ? "s" : "b") + std::to_string(t.resource()),
             T(std::string(t.sell() ? "limit.move.sell." : "limit.move.buy.") + id),
             Region("r" + std::to_string(t.resource())));
}

// One choice of a card's parameter: its key, words and target, and what it sets in the play.
struct Option {
  std::string key;
  engine::v1::Text label;
  engine::v1::Target target;
  std::function<void(PlayCard*)> set;
};

// A choice followed by nothing but the play itself is that play: one node fewer to send.
void Fold(engine::v1::MoveChoice* node) {
  for (auto& c : *node->mutable_next()) Fold(&c);
  if (node->next_size() == 1 && node->next(0).key() == "play") {
    const std::string last = std::move(*node->mutable_next(0)->mutable_action());
    node->clear_next();
    node->mutable_action()->append(last);
  }
}

// The part of a play that one choice sets.
std::string PlayPart(const std::function<void(PlayCard*)>& set) {
  Action a;
  set(a.mutable_play_card());
  return engine::DeterministicBytes(a);
}

// The part that adds one transaction to a play.
std::string TransactionPart(const Transaction& t) {
  return PlayPart([&t](PlayCard* p) { *p->add_transactions() = t; });
}

// A transaction's leaf: it adds the transaction, with its quantity when only one is possible, or
// leaves any quantity from 1 to `top` to the family's param at `path`.
void Amount(engine::v1::MoveChoice* leaf, Transaction t, uint32_t top, const char* path) {
  if (top == 1) t.set_quantity(1);
  leaf->set_action(TransactionPart(t));
  if (top > 1) *leaf->add_params() = engine::ParamRange(path, 1, top);
}

}  // namespace

void LimitState::GamePublishMoves(int seat, Choices* out) const {
  const auto& n = N(seat);
  auto removals = [&]() {
    for (uint32_t id : n.permanents()) {
      if (!g().card(id).removable()) continue;
      Action a;
      a.mutable_remove_permanent()->set_card(id);
      SetAction(Add(out, "remove." + std::to_string(id),
                    T("limit.move.remove", CardName(g().card(id))), CardTarget(id)),
                a);
    }
  };
  if (Owes(seat)) return removals();  // the decision is a question
  if (s_.phase() == PHASE_ALLIANCE && s_.turn() == seat && !s_.alliance_pending().active()) {
    for (const Action& a : AllianceTurnMoves(seat)) {
      if (a.has_pass()) {
        SetAction(Add(out, "pass", T("limit.move.pass_alliance")), a);
      } else if (a.has_alliance_leave()) {
        const AllianceKind k = a.alliance_leave().kind();
        SetAction(Add(out, "leave." + std::to_string(k), T("limit.move.leave", KindText(k))), a);
      } else {
        const bool propose = a.has_alliance_propose();
        const AllianceKind k = propose ? a.alliance_propose().kind() : a.alliance_exclude().kind();
        const int who = static_cast<int>(propose ? a.alliance_propose().to_seat()
                                                 : a.alliance_exclude().seat());
        const std::string key = (propose ? "propose." : "exclude.") + std::to_string(k);
        engine::v1::MoveChoice* node = nullptr;
        for (auto& c : *out)
          if (c.key() == key) node = &c;
        if (node == nullptr)
          node = Add(out, key, T(propose ? "limit.move.propose" : "limit.move.exclude", KindText(k)));
        engine::v1::Target t;
        t.set_seat(who);
        SetAction(Add(node->mutable_next(), "s" + std::to_string(who),
                      T("limit.move.nation", engine::Seat{who}), t),
                  a);
      }
    }
    return removals();
  }
  if (s_.phase() != PHASE_POLITICAL_DECISIONS || s_.turn() != seat) return;
  {
    Action pass;
    pass.mutable_pass();
    SetAction(Add(out, "pass", T("limit.move.pass")), pass);
  }
  removals();
  if (!MayPlayCards(seat)) return;
  for (uint32_t id : n.hand()) {
    // A card whose price no choice can pay has no play: its choices are not tried one by one.
    if (!CostPayable(seat, id)) continue;
    // Built where it stays (a node moved into the view's arena would be copied, subtree and
    // all), and taken back if no play of the card is left.
    engine::v1::MoveChoice& card = *out->Add();
    // Keys that are the card's and the nation's own ids leave the target to the key (the core's
    // key_target): each card and nation named once rather than twice.
    card.set_key(std::to_string(id));
    *card.mutable_label() = T("limit.move.play", CardName(g().card(id)));
    *card.mutable_target() = CardTarget(id);
    // What every play of the card shares: the card, and the least military it commits.
    card.set_action(PlayPart([&](PlayCard* p) {
      p->set_card(id);
      if (g().card(id).military_min() > 0) p->set_military(g().card(id).military_min());
    }));
    PublishPlays(seat, id, card.mutable_next());
    if (card.next_size() == 0) {
      out->RemoveLast();
      continue;
    }
    Fold(&card);
  }
}

// The plays of card `id`: its parameters one after the other, in the order the card is read
// (whom it targets, which factory, resource, price move, deck or card to take back, the classes
// it moves), then the amount of military committed or the card's transactions.
void LimitState::PublishPlays(int seat, uint32_t id, Choices* out) const {
  const auto& n = N(seat);
  const auto& c = g().card(id);
  const auto& tpl = g().CardTemplate(id);
  std::vector<std::vector<Option>> steps;
  if (c.targets()) {
    std::vector<Option> o;
    if (s_.solo()) {
      o.push_back({"star", T("limit.move.star"), {}, [](PlayCard* p) { p->set_target(kStarTarget); }});
    } else {
      for (int i = 0; i < Seats(); ++i) {
        if (i == seat) continue;
        engine::v1::Target t;
        t.set_seat(i);
        o.push_back({std::to_string(i), T("limit.move.nation", engine::Seat{i}), t,
                     [i](PlayCard* p) { p->set_target(i); }});
      }
    }
    steps.push_back(std::move(o));
  }
  if (!tpl.factory_options().empty()) {
    std::vector<Option> o;
    for (int f : tpl.factory_options())
      o.push_back({"f" + std::to_string(f), T(std::string("limit.factory.") + FactoryId(f)),
                   Region("f" + std::to_string(f)),
                   [f](PlayCard* p) { p->set_factory(static_cast<Factory>(f)); }});
    steps.push_back(std::move(o));
  }
  if (!tpl.resource_options().empty()) {
    std::vector<Option> o;
    for (int r : tpl.resource_options())
      o.push_back({"r" + std::to_string(r), ResourceText(static_cast<Resource>(r)),
                   Region("r" + std::to_string(r)),
                   [r](PlayCard* p) { p->set_resource(static_cast<Resource>(r)); }});
    steps.push_back(std::move(o));
  }
  if (c.effect() == data::EFFECT_SPECULATION) {
    steps.push_back({{"down", T("limit.move.price_down"), {}, [](PlayCard* p) { p->set_price_up(false); }},
                     {"up", T("limit.move.price_up"), {}, [](PlayCard* p) { p->set_price_up(true); }}});
  }
  if (c.effect() == data::EFFECT_REFORM) {
    std::vector<Option> o;
    for (int d = 0; d < 3; ++d)
      o.push_back({"d" + std::to_string(d + 1), T(std::string("limit.deck.") + kDeckIds[d]),
                   Region("d" + std::to_string(d + 1)),
                   [d](PlayCard* p) { p->set_deck(static_cast<Deck>(d + 1)); }});
    steps.push_back(std::move(o));
  }
  if (c.effect() == data::EFFECT_ARTIFICIAL_INTELLIGENCE && n.played_size() > 0) {
    std::vector<Option> o;
    for (uint32_t back : n.played())
      o.push_back({"k" + std::to_string(back), T("limit.move.take_back", CardName(g().card(back))),
                   CardTarget(back), [back](PlayCard* p) { p->set_retrieve_card(back); }});
    steps.push_back(std::move(o));
  }
  // The classes come last among the choices: how many steps a play names may depend on the
  // target (Political interference names one only if the target has a class that can rise).
  // Every count the validation could want is offered; a count it refuses leaves no leaf.
  uint32_t most_steps = 0;
  if (c.cost_class_down() > 0 || c.effect() == data::EFFECT_POLITICAL_INTERFERENCE) most_steps = 1;
  else if (c.effect() == data::EFFECT_RAISE_CLASSES) most_steps = c.amount();
  const bool market = c.effect() == data::EFFECT_MARKET || c.effect() == data::EFFECT_SPECULATION;
  const bool raise = c.effect() == data::EFFECT_RAISE_CLASSES;

  Action play;
  PlayCard* p = play.mutable_play_card();
  p->set_card(id);
  if (c.military_min() > 0) p->set_military(c.military_min());

  // The end of a path: the play as chosen so far, with its amounts.
  auto finish = [&](Choices* level) {
    // A choice the play then ignores (classes named against the star nation) is not a move of
    // its own: the play without it is offered once.
    Action canonical = play;
    GameCanonicalize(seat, canonical);
    if (canonical.play_card().classes_size() != p->classes_size()) return;
    if (market) return PublishTransactions(seat, play, level);
    if (!TypedValidate(seat, play).ok()) return;
    // The leaves add nothing: the choices on the way set the whole play.
    if (c.military_min() == 0) {
      Add(level, "play", T("limit.move.confirm"));
      return;
    }
    // Any amount from the minimum to what is left once the card's own military cost is paid:
    // the commitment only adds to that cost (CostOf), so every amount between is accepted.
    PlayCard none = *p;
    none.set_military(0);
    const uint32_t fixed = CostOf(seat, none).military;
    const uint32_t most = n.military() > fixed ? n.military() - fixed : 0;
    auto* leaf = Add(level, "military", T("limit.move.military", c.military_min(), most));
    if (most > c.military_min())
      *leaf->add_params() = engine::ParamRange("play_card.military", c.military_min(), most);
  };
  // Class steps, one per level. A path may also stop before `most_steps` (a raise that the
  // board's room cuts short, interference on a target with no class that can rise): validation
  // says which count is right, and the others leave no leaf.
  std::function<void(Choices*, uint32_t)> classes = [&](Choices* level, uint32_t named) {
    if (named == most_steps) return finish(level);
    finish(level);
    for (int k = 0; k < kClasses; ++k) {
      p->add_classes(static_cast<uint32_t>(k));
      // A raise's steps that already break the class order lead to no move: not walked.
      if (raise && !ClassStepsFit(seat, p->classes())) {
        p->mutable_classes()->RemoveLast();
        continue;
      }
      engine::v1::MoveChoice& node = *level->Add();
      node.set_key(kClassIds[k]);
      *node.mutable_label() = T("limit.class", kClassIds[k]);
      node.set_action(PlayPart([k](PlayCard* q) { q->add_classes(static_cast<uint32_t>(k)); }));
      *node.mutable_target() = Region(kClassIds[k]);
      classes(node.mutable_next(), named + 1);
      p->mutable_classes()->RemoveLast();
      if (node.next_size() == 0) level->RemoveLast();
    }
  };
  std::function<void(Choices*, size_t)> walk = [&](Choices* level, size_t step) {
    if (step == steps.size()) return classes(level, 0);
    for (const Option& o : steps[step]) {
      PlayCard before = *p;
      o.set(p);
      engine::v1::MoveChoice& node = *level->Add();
      node.set_key(o.key);
      *node.mutable_label() = o.label;
      node.set_action(PlayPart(o.set));
      if (o.target.where_case() != engine::v1::Target::WHERE_NOT_SET)
        *node.mutable_target() = o.target;
      walk(node.mutable_next(), step + 1);
      *p = std::move(before);
      if (node.next_size() == 0) level->RemoveLast();
    }
  };
  walk(out, 0);
}

// A market card's plays once its other parameters are chosen: without a transaction, then each
// resource bought or sold, any quantity from one to the most the market, the stock, the money or
// the World Bank allow after the card is paid (a family leaf: quantities are checked against
// the position the payment leaves, as the play checks them). With Stock exchange, a second
// transaction on another resource follows a first of a given quantity, its own quantity a
// family over the second element of the list.
void LimitState::PublishTransactions(int seat, const Action& base, Choices* out) const {
  // The play without a transaction, checked as any play is (it is the turn of `seat`, who may
  // play cards), leaves `paid` as the position once the card is paid and its cube moved.
  LimitState paid(game_, PositionWithoutTable());
  if (!const_cast<LimitState*>(this)->ActPlay(seat, base.play_card(), false, &paid).ok()) return;
  Add(out, "none", T("limit.move.no_transaction"));
  // The most of `t` (quantity left free) `state` accepts, or 0.
  // The checks bound a quantity from above only (what the seller holds, the market's stock, what
  // the buyer or the World Bank can pay), so the accepted quantities run from 1 to the most: it
  // is found by doubling, then bisection, in a few checks rather than one per unit.
  auto most = [seat](LimitState& state, Transaction t) {
    PlayCard one;
    auto accepted = [&](uint32_t q) {
      t.set_quantity(q);
      one.clear_transactions();
      *one.add_transactions() = t;
      return state.CheckTransactions(seat, one, false).ok();
    };
    if (!accepted(1)) return 0u;
    uint32_t yes = 1, no = 2;  // accepted, refused
    while (accepted(no)) {
      yes = no;
      if (no > (1u << 30)) return yes;
      no *= 2;
    }
    while (no - yes > 1) {
      const uint32_t mid = yes + (no - yes) / 2;
      (accepted(mid) ? yes : no) = mid;
    }
    return yes;
  };
  const bool two = MaxTransactions(seat) == 2;
  for (int r = 1; r <= 4; ++r) {
    for (bool sell : {false, true}) {
      Transaction t;
      t.set_resource(static_cast<Resource>(r));
      t.set_sell(sell);
      const uint32_t q1 = most(paid, t);
      if (q1 == 0) continue;
      Action one = base;
      *one.mutable_play_card()->add_transactions() = t;
      if (!two) {
        Amount(AddKind(out, t), t, q1, "play_card.transactions.quantity");
        continue;
      }
      auto* node = AddKind(out, t);
      Amount(Add(node->mutable_next(), "only", T("limit.move.only")), t, q1,
             "play_card.transactions.quantity");
      // A second transaction sees the first one's money and prices: one branch per quantity.
      for (uint32_t q = 1; q <= q1; ++q) {
        LimitState after(game_, paid.s_);
        Action first = one;
        first.mutable_play_card()->mutable_transactions(0)->set_quantity(q);
        if (!after.CheckTransactions(seat, first.play_card(), true).ok()) continue;
        engine::v1::MoveChoice& then = *node->add_next();
        then.set_key("q" + std::to_string(q));
        *then.mutable_label() = T("limit.move.quantity", q);
        then.set_action(TransactionPart(first.play_card().transactions(0)));
        for (int r2 = 1; r2 <= 4; ++r2) {
          if (r2 == r) continue;
          for (bool sell2 : {false, true}) {
            Transaction t2;
            t2.set_resource(static_cast<Resource>(r2));
            t2.set_sell(sell2);
            const uint32_t q2 = most(after, t2);
            if (q2 == 0) continue;
            // The second's quantity alone is free: its element of the list (the first's is set).
            Amount(AddKind(then.mutable_next(), t2), t2, q2,
                   "play_card.transactions.1.quantity");
          }
        }
        if (then.next_size() == 0) node->mutable_next()->RemoveLast();
      }
    }
  }
}

std::vector<uint32_t> LimitGame::EasyBotWeights(const engine::Message& view, int seat,
                                                const std::vector<engine::PublishedMove>& moves) const {
  // As a player would choose: passing and each card weigh alike, however many ways the card may
  // be played (a market card has dozens), and the alliance moves together weigh as much as
  // passing, so turns end about as often as they did when the bot saw one plain play per card.
  // Removing a permanent card (paying to be rid of it) is left to people.
  return engine::EvenShareWeights(moves, [](const engine::Message& m) -> std::optional<std::string> {
    const auto& a = static_cast<const Action&>(m);
    if (a.has_play_card()) return std::to_string(a.play_card().card());
    if (a.has_remove_permanent()) return std::nullopt;
    return a.has_pass() ? "pass" : "alliance";
  });
}

}  // namespace plateau::games::limit
