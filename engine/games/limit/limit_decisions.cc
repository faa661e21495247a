// LIMIT: decisions as questions, what a timer plays, and the legal actions.
#include <algorithm>
#include <set>

#include "engine/core/families.h"
#include "engine/games/limit/limit.h"
#include "engine/games/limit/limit_nation.h"

namespace plateau::games::limit {

// ----- Decisions as questions -----

std::unique_ptr<engine::Message> LimitState::DefaultAction(int seat) const {
  if (seat >= 0 && seat < Seats() && !Owes(seat) && s_.turn() == seat &&
      (s_.phase() == PHASE_POLITICAL_DECISIONS || s_.phase() == PHASE_ALLIANCE)) {
    auto pass = std::make_unique<Action>();
    pass->mutable_pass();
    if (TypedValidate(seat, *pass).ok()) return pass;
  }
  return State::DefaultAction(seat);
}

v1::Prompt LimitState::WordChoice(int seat, const internal::Choice& c) const {
  const auto& n = N(seat);
  v1::Prompt p;
  switch (c.kind()) {
    case PROMPT_CHOOSE_DECK:
      p = engine::MakePrompt(seat, v1::PROMPT_CHOOSE, T("limit.q.deck"));
      for (int d = 0; d < 3; ++d)
        if (n.decks(d).cards_size() > 0)
          engine::AddOption(&p, kDeckIds[d], T(std::string("limit.deck.") + kDeckIds[d]));
      break;
    case PROMPT_KEEP_CARDS:
      // One order says both what is kept (the first ones) and the order under the deck.
      p = engine::MakePrompt(seat, v1::PROMPT_ORDER,
                             c.count() == 1 ? T("limit.q.keep_one") : T("limit.q.keep", c.count()),
                             c.count(), c.count());
      for (int i = 0; i < n.drawn_size(); ++i)
        engine::AddOption(&p, "d" + std::to_string(i), CardName(g().card(n.drawn(i))))
            ->mutable_target()
            ->set_card(std::to_string(n.drawn(i)));
      break;
    case PROMPT_DISCARD:
      p = engine::MakePrompt(seat, v1::PROMPT_CHOOSE, T("limit.q.discard", c.count()), c.count(),
                             c.count());
      for (uint32_t id : n.hand())
        engine::AddOption(&p, std::to_string(id), CardName(g().card(id)))
            ->mutable_target()
            ->set_card(std::to_string(id));
      break;
    case PROMPT_RESIST:
      p = engine::MakePrompt(seat, v1::PROMPT_YES_NO,
                             T("limit.q.resist", s_.pending().action().play_card().military()));
      break;
    case PROMPT_HELP_REQUEST:
      p = engine::MakePrompt(seat, v1::PROMPT_YES_NO, T("limit.q.help_request"));
      break;
    case PROMPT_HELP_ANSWER:
      p = engine::MakePrompt(seat, v1::PROMPT_NUMBER, T("limit.q.help_answer", ResourceText(c.resource())),
                             0, std::min(c.amount(), Stock(n, c.resource())));
      break;
    case PROMPT_BREAK_ALLIANCE:
      p = engine::MakePrompt(seat, v1::PROMPT_YES_NO, T("limit.q.break"));
      break;
    case PROMPT_RAISE_CLASS:
    case PROMPT_LOWER_CLASS:
      p = engine::MakePrompt(seat, v1::PROMPT_CHOOSE,
                             c.kind() == PROMPT_RAISE_CLASS ? T("limit.q.raise_class")
                                                            : T("limit.q.lower_class", c.count()));
      for (uint32_t k : ChoiceOptions(seat, c))
        engine::AddOption(&p, kClassIds[k], T("limit.class", kClassIds[k]));
      break;
    case PROMPT_LOWER_FACTORY:
    case PROMPT_GROWTH_FACTORY: {
      const bool down = c.kind() == PROMPT_LOWER_FACTORY || c.growth_down();
      p = engine::MakePrompt(seat, v1::PROMPT_CHOOSE,
                             down ? T("limit.q.lower_factory", c.count()) : T("limit.q.raise_factory"));
      for (uint32_t f : ChoiceOptions(seat, c)) {
        const char* id = FactoryId(static_cast<Factory>(f));
        engine::AddOption(&p, id, T(std::string("limit.factory.") + id));
      }
      break;
    }
    default:
      std::abort();  // only a nation's own choices are asked through AskChoice
  }
  if (c.has_why()) *p.mutable_detail() = c.why();
  return p;
}

std::optional<v1::Prompt> LimitState::GameWordPrompt(const v1::Decision& decision,
                                                     const v1::Prompt& asked) const {
  // Hands, draws, stocks and classes change while a choice waits its turn, and a removal moves
  // a factory: the question is worded from the position, never kept as asked.
  if (!OwnChoice(decision.kind())) return std::nullopt;
  internal::Choice c;
  c.ParseFromString(decision.resume());
  return WordChoice(static_cast<int>(asked.seat()), c);
}

Action LimitState::ChoiceMove(int seat, const internal::Choice& c, const v1::Answer& answer) const {
  const auto& n = N(seat);
  auto index_of = [](const auto& ids, const std::string& id) {
    for (size_t i = 0; i < std::size(ids); ++i)
      if (id == ids[i]) return static_cast<int>(i);
    return -1;
  };
  Action typed;
  switch (c.kind()) {
    case PROMPT_CHOOSE_DECK:
      if (answer.options_size() == 1)
        typed.mutable_choose_deck()->set_deck(
            static_cast<Deck>(index_of(kDeckIds, answer.options(0)) + 1));
      break;
    case PROMPT_KEEP_CARDS:
    case PROMPT_DISCARD: {
      // Options are the drawn cards ("d" and the place) / the hand (the card's id), in order, as
      // WordChoice names them: the place is read from the id without building the question,
      // which every validation would otherwise do.
      const bool keep = c.kind() == PROMPT_KEEP_CARDS;
      auto place = [&](const std::string& id) {
        const int size = keep ? n.drawn_size() : n.hand_size();
        for (int k = 0; k < size; ++k)
          if (id == (keep ? "d" + std::to_string(k) : std::to_string(n.hand(k)))) return k;
        return -1;
      };
      if (keep) {
        typed.mutable_keep_cards();
        for (int i = 0; i < answer.options_size(); ++i) {
          const int k = place(answer.options(i));
          if (k < 0) return Action();  // not one of the cards: refused as a wrong move
          if (static_cast<uint32_t>(i) < c.count()) typed.mutable_keep_cards()->add_keep(k);
          else typed.mutable_keep_cards()->add_bottom(k);
        }
      } else {
        typed.mutable_discard();
        for (const auto& id : answer.options()) {
          const int k = place(id);
          if (k < 0) return Action();
          typed.mutable_discard()->add_cards(n.hand(k));
        }
      }
      break;
    }
    case PROMPT_RESIST: typed.mutable_resist()->set_resist(answer.yes()); break;
    case PROMPT_HELP_REQUEST: typed.mutable_request_help()->set_ask(answer.yes()); break;
    case PROMPT_HELP_ANSWER:
      typed.mutable_give_help()->set_amount(static_cast<uint32_t>(answer.number()));
      break;
    case PROMPT_BREAK_ALLIANCE: typed.mutable_break_alliance()->set_do_break(answer.yes()); break;
    case PROMPT_RAISE_CLASS:
    case PROMPT_LOWER_CLASS:
      if (answer.options_size() == 1)
        typed.mutable_choose_class()->set_social_class(
            static_cast<uint32_t>(index_of(kClassIds, answer.options(0))));
      break;
    case PROMPT_LOWER_FACTORY:
    case PROMPT_GROWTH_FACTORY:
      if (answer.options_size() == 1)
        for (Factory f : {FACTORY_RENEWABLE, FACTORY_INDUSTRIAL, FACTORY_MILITARY})
          if (answer.options(0) == FactoryId(f)) typed.mutable_choose_factory()->set_factory(f);
      break;
    default:
      break;
  }
  return typed;
}

std::optional<v1::Answer> LimitState::ChoiceAnswer(int seat, const internal::Choice& c,
                                                   const Action& action) const {
  const auto& n = N(seat);
  v1::Answer a;
  switch (action.kind_case()) {
    case Action::kChooseDeck:
      if (c.kind() != PROMPT_CHOOSE_DECK) return std::nullopt;
      a.add_options(kDeckIds[DeckIndex(action.choose_deck().deck())]);
      return a;
    case Action::kKeepCards:
      if (c.kind() != PROMPT_KEEP_CARDS) return std::nullopt;
      for (uint32_t i : action.keep_cards().keep()) a.add_options("d" + std::to_string(i));
      for (uint32_t i : action.keep_cards().bottom()) a.add_options("d" + std::to_string(i));
      return a;
    case Action::kDiscard:
      if (c.kind() != PROMPT_DISCARD) return std::nullopt;
      for (uint32_t id : action.discard().cards()) a.add_options(std::to_string(id));
      return a;
    case Action::kResist:
      if (c.kind() != PROMPT_RESIST) return std::nullopt;
      a.set_yes(action.resist().resist());
      return a;
    case Action::kRequestHelp:
      if (c.kind() != PROMPT_HELP_REQUEST) return std::nullopt;
      a.set_yes(action.request_help().ask());
      return a;
    case Action::kGiveHelp:
      if (c.kind() != PROMPT_HELP_ANSWER) return std::nullopt;
      a.set_number(action.give_help().amount());
      return a;
    case Action::kBreakAlliance:
      if (c.kind() != PROMPT_BREAK_ALLIANCE) return std::nullopt;
      a.set_yes(action.break_alliance().do_break());
      return a;
    case Action::kChooseClass:
      if (c.kind() != PROMPT_RAISE_CLASS && c.kind() != PROMPT_LOWER_CLASS) return std::nullopt;
      a.add_options(kClassIds[action.choose_class().social_class()]);
      return a;
    case Action::kChooseFactory:
      if (c.kind() != PROMPT_LOWER_FACTORY && c.kind() != PROMPT_GROWTH_FACTORY)
        return std::nullopt;
      a.add_options(FactoryId(action.choose_factory().factory()));
      return a;
    default:
      (void)n;
      return std::nullopt;
  }
}

// ----- Questions through the core's queue -----

bool LimitState::AskedNow(int seat) const {
  const v1::Decision* open = OpenDecisionOf(seat);
  if (open == nullptr) return false;
  for (const auto& a : open->answers())
    if (a.seat() == seat) return false;
  return true;
}

const internal::Choice* LimitState::ShownChoice(int i, internal::Choice* scratch) const {
  // The nation's first own choice, open or waiting behind the decisions before it, as its own
  // queue showed it; else the shared question open to it.
  for (const auto& d : table().decisions())
    if (OwnChoice(d.kind()) && d.prompts(0).seat() == i) {
      scratch->ParseFromString(d.resume());
      return scratch;
    }
  if (!AskedNow(i)) return nullptr;
  scratch->ParseFromString(OpenDecisionOf(i)->resume());
  return scratch;
}

Status LimitState::GameCheckAnswer(const v1::Decision& decision, int seat,
                                   const v1::Answer& answer) const {
  const auto& n = N(seat);
  internal::Choice asked;
  asked.ParseFromString(decision.resume());
  switch (decision.kind()) {
    case PROMPT_CONTRIBUTE:
    case PROMPT_ALLIANCE_FEE: {
      const uint64_t amount = static_cast<uint64_t>(std::max<int64_t>(0, answer.number()));
      if (amount > n.money())
        return Status(codes::kCannotPay, "You cannot give more money than you have.");
      if (amount > asked.count())
        return Status(codes::kBadParameter, decision.kind() == PROMPT_CONTRIBUTE
                                                ? "No more than the card's cost."
                                                : "No more than the fee.");
      return Status::Ok();
    }
    case PROMPT_ALLIANCE_VOTE:
      return Status::Ok();
    default:
      // Act only reads with apply == false.
      return const_cast<LimitState*>(this)->ActChoice(seat, asked, ChoiceMove(seat, asked, answer),
                                                      false);
  }
}

void LimitState::GameAnswered(const v1::Decision& decision, int seat, const v1::Answer& answer) {
  switch (decision.kind()) {
    case PROMPT_CONTRIBUTE:
      // The table sees at once how much is still missing (the view's `missing`).
      s_.mutable_pending()->set_contributions(seat, static_cast<int32_t>(answer.number()));
      break;
    case PROMPT_ALLIANCE_FEE:
      s_.mutable_alliance_pending()->set_fee(seat, static_cast<int32_t>(answer.number()));
      break;
    case PROMPT_ALLIANCE_VOTE:
      // A vote is public as it is cast.
      s_.mutable_alliance_pending()->set_votes(seat, answer.yes() ? 1 : 0);
      Log(T(answer.yes() ? "limit.log.vote_accepts" : "limit.log.vote_refuses", Seat{seat}));
      break;
    default:
      break;
  }
}

void LimitState::GameResume(const v1::Decision& decision) {
  // A choice answered by the rules (AutoResolve) leaves the flow to the step that asked it.
  const bool by_rules = answering_for_;
  if (OwnChoice(decision.kind())) {
    const int seat = decision.prompts(0).seat();
    const v1::Answer& answer = decision.answers(0).answer();
    internal::Choice c;
    c.ParseFromString(decision.resume());
    // A class or factory choice left with no option is dropped ("as far as possible").
    const bool none = by_rules && answer.options_size() == 0 &&
                      (c.kind() == PROMPT_RAISE_CLASS || c.kind() == PROMPT_LOWER_CLASS ||
                       c.kind() == PROMPT_LOWER_FACTORY || c.kind() == PROMPT_GROWTH_FACTORY);
    if (!none && !ActChoice(seat, c, ChoiceMove(seat, c, answer), true).ok()) std::abort();
  }
  // Every shared answer is already counted (GameAnswered): the card resolves as the game goes
  // on, and a nation's social phase goes on from where its choice stopped it.
  if (!by_rules) Advance();
}

std::optional<v1::Answer> LimitState::GameAnswerOf(int seat, const engine::Message& message) const {
  const auto& action = static_cast<const Action&>(message);
  const v1::Decision* open = OpenDecisionOf(seat);
  if (open == nullptr || !AskedNow(seat)) return std::nullopt;
  v1::Answer a;
  if ((open->kind() == PROMPT_CONTRIBUTE || open->kind() == PROMPT_ALLIANCE_FEE) &&
      action.has_contribute()) {
    a.set_number(action.contribute().amount());
    return a;
  }
  if (open->kind() == PROMPT_ALLIANCE_VOTE && action.has_alliance_vote()) {
    a.set_yes(action.alliance_vote().accept());
    return a;
  }
  if (!OwnChoice(open->kind())) return std::nullopt;
  internal::Choice c;
  c.ParseFromString(open->resume());
  // A move the choice refuses is left to Act, which refuses it with its own code.
  if (!const_cast<LimitState*>(this)->ActChoice(seat, c, action, false).ok()) return std::nullopt;
  return ChoiceAnswer(seat, c, action);
}

bool LimitState::GameRedrawsAnswers(const v1::Decision& decision) const {
  // Contributions and fees are redrawn by PerturbMore; votes are public and stay as cast.
  return decision.kind() == PROMPT_CONTRIBUTE || decision.kind() == PROMPT_ALLIANCE_FEE ||
         decision.kind() == PROMPT_ALLIANCE_VOTE;
}

// ----- Legal actions -----

bool LimitState::TypedTakeBackSafe(int seat, const Action& action) const {
  // A pass in the political turn that hands the turn to a nation still playing; the last pass
  // ends the phase, and the social phase reveals and draws.
  if (!action.has_pass() || s_.phase() != PHASE_POLITICAL_DECISIONS) return false;
  for (int other = 0; other < Seats(); ++other)
    if (other != seat && !N(other).passed()) return true;
  return false;
}

std::vector<Action> LimitState::TypedLegalActions(int seat) const {
  std::vector<Action> out;
  const auto& n = N(seat);
  auto keep_valid = [&](Action a) {
    if (TypedValidate(seat, a).ok()) out.push_back(std::move(a));
  };
  // Removable permanent cards may go whenever this nation acts (see ActRemove).
  auto add_removals = [&]() {
    for (uint32_t id : n.permanents())
      if (g().card(id).removable()) {
        Action a;
        a.mutable_remove_permanent()->set_card(id);
        out.push_back(a);
      }
  };
  if (Owes(seat)) {
    // The decision itself is a question of the core's queue: the core lists its answers.
    add_removals();
    return out;
  }
  if (s_.phase() == PHASE_ALLIANCE && s_.turn() == seat && !s_.alliance_pending().active()) {
    for (auto& a : AllianceTurnMoves(seat)) out.push_back(std::move(a));
    add_removals();
    return out;
  }
  if (s_.phase() != PHASE_POLITICAL_DECISIONS || s_.turn() != seat) return out;
  {
    Action a;
    a.mutable_pass();
    out.push_back(a);
  }
  add_removals();
  if (!MayPlayCards(seat)) return out;
  // Plays: a sample per card, for bots and for players reading the list (every factory, target
  // and resource; the minimum and the whole military stock; greedy class orders; one-unit
  // transactions). Every other play lies in the card's family (GameActionFamilies).
  std::vector<int> targets;
  if (s_.solo()) targets.push_back(kStarTarget);
  else
    for (int i = 0; i < Seats(); ++i)
      if (i != seat) targets.push_back(i);
  for (uint32_t id : n.hand()) {
    const auto& c = g().card(id);
    // A card whose fixed cost cannot be paid has no legal play: skip its candidates.
    if (!CostPayable(seat, id)) continue;
    const bool uses_target = c.targets(), uses_military = c.military_min() > 0;
    const auto& use = g().Params(id);
    const bool uses_factory = use.factory, uses_resource = use.resource,
               uses_classes = use.classes, uses_tx = use.transactions, uses_deck = use.deck;
    std::vector<Factory> factories = {FACTORY_UNSPECIFIED};
    if (uses_factory) factories = {FACTORY_RENEWABLE, FACTORY_INDUSTRIAL, FACTORY_MILITARY};
    std::vector<int> tgts = uses_target ? targets : std::vector<int>{0};
    std::vector<uint32_t> mils = {0};
    if (uses_military) mils = {c.military_min(), std::max(c.military_min(), n.military())};
    std::vector<Resource> resources = {RESOURCE_UNSPECIFIED};
    if (uses_resource)
      resources = {RESOURCE_RENEWABLE, RESOURCE_INDUSTRIAL, RESOURCE_MILITARY, RESOURCE_FOSSIL};
    std::vector<Deck> decks = {DECK_UNSPECIFIED};
    if (uses_deck) decks = {DECK_SOCIETY, DECK_ARMY_ECONOMY, DECK_PRODUCTION};
    std::vector<std::vector<Transaction>> txs = {{}};
    if (uses_tx) {
      for (int r = 1; r <= 4; ++r)
        for (bool sell : {false, true}) {
          Transaction t;
          t.set_resource(static_cast<Resource>(r));
          t.set_sell(sell);
          t.set_quantity(1);
          txs.push_back({t});
        }
    }
    for (Factory f : factories)
      for (int t : tgts)
        for (uint32_t m : mils)
          for (Resource r : resources)
            for (Deck d : decks)
              for (const auto& tx : txs)
                for (int order = 0; order < (uses_classes ? 2 : 1); ++order)
                  for (bool up : {false, true}) {
                    if (up && c.effect() != data::EFFECT_SPECULATION) continue;
                    Action a;
                    auto* p = a.mutable_play_card();
                    p->set_card(id);
                    p->set_factory(f);
                    p->set_target(uses_target ? t : 0);
                    p->set_military(m);
                    p->set_resource(r);
                    p->set_deck(d);
                    p->set_price_up(up);
                    if (c.effect() == data::EFFECT_ARTIFICIAL_INTELLIGENCE && n.played_size() > 0)
                      p->set_retrieve_card(n.played(0));
                    for (const auto& one : tx) *p->add_transactions() = one;
                    if (uses_classes) {
                      // Greedy: the highest (order 0) or lowest (order 1) class that may move.
                      const bool lower = c.cost_class_down() > 0;
                      const int who =
                          c.effect() == data::EFFECT_POLITICAL_INTERFERENCE ? t : seat;
                      if (who < 0) {
                        // star nation: no class
                      } else {
                        std::vector<uint32_t> lv(N(who).classes().begin(),
                                                 N(who).classes().end());
                        const uint32_t steps =
                            lower || c.effect() == data::EFFECT_POLITICAL_INTERFERENCE
                                ? 1
                                : c.amount();
                        for (uint32_t s = 0; s < steps; ++s) {
                          int pick = -1;
                          for (int k0 = 0; k0 < kClasses; ++k0) {
                            const int k = order == 0 ? k0 : kClasses - 1 - k0;
                            const bool ok =
                                lower ? lv[k] > 1 && (k == kClasses - 1 || lv[k + 1] < lv[k])
                                      : lv[k] < 4 && (k == 0 || lv[k] < lv[k - 1]);
                            if (ok) {
                              pick = k;
                              break;
                            }
                          }
                          if (pick < 0) break;
                          lv[pick] += lower ? -1 : 1;
                          p->add_classes(static_cast<uint32_t>(pick));
                        }
                      }
                    }
                    keep_valid(std::move(a));
                  }
  }
  return out;
}

bool LimitState::MayPlayCards(int seat) const {
  return s_.phase() == PHASE_POLITICAL_DECISIONS && s_.turn() == seat &&
         !Owes(seat) && N(seat).cards_this_turn() < 2;
}

// One family per card in hand whose fixed cost can be paid: the card with each parameter it uses
// free over the values the rules could accept now. Its members are then checked by validation
// (class order, money after the cost, the market's stock).
std::vector<engine::v1::ActionFamily> LimitState::GameActionFamilies(int seat) const {
  using engine::ParamCount;
  using engine::ParamRange;
  using engine::ParamValues;
  std::vector<engine::v1::ActionFamily> out;
  if (!MayPlayCards(seat)) return out;
  const auto& n = N(seat);
  std::vector<int64_t> targets;
  if (s_.solo()) targets.push_back(kStarTarget);
  else
    for (int i = 0; i < Seats(); ++i)
      if (i != seat) targets.push_back(i);
  // The most of one resource a transaction could move: the nation's own stock (to sell) or the
  // market's (to buy).
  int64_t most = 0;
  for (int r = 1; r <= 4; ++r)
    most = std::max<int64_t>({most, Stock(n, static_cast<Resource>(r)),
                              s_.market(r - 1).stock()});
  const std::vector<int64_t> classes = {0, 1, 2, 3, 4};
  for (uint32_t id : n.hand()) {
    const auto& c = g().card(id);
    const auto& tpl = g().CardTemplate(id);
    if (!CostPayable(seat, id)) continue;
    if (c.military_min() > 0 && n.military() < c.military_min()) continue;
    engine::v1::ActionFamily f;
    Action base;
    base.mutable_play_card()->set_card(id);
    if (c.targets()) base.mutable_play_card()->set_target(static_cast<int32_t>(targets[0]));
    f.set_base(base.SerializeAsString());
    auto add = [&](engine::v1::ActionParam p) { *f.add_params() = std::move(p); };
    if (c.targets()) add(ParamValues("play_card.target", targets));
    if (!tpl.factory_options().empty())
      add(ParamValues("play_card.factory", {tpl.factory_options().begin(),
                                            tpl.factory_options().end()}));
    if (!tpl.resource_options().empty())
      add(ParamValues("play_card.resource", {tpl.resource_options().begin(),
                                             tpl.resource_options().end()}));
    if (c.military_min() > 0) add(ParamRange("play_card.military", c.military_min(), n.military()));
    if (c.effect() == data::EFFECT_REFORM) {
      std::vector<int64_t> decks;
      for (Deck d : {DECK_SOCIETY, DECK_ARMY_ECONOMY, DECK_PRODUCTION})
        if (n.decks(DeckIndex(d)).cards_size() > 0) decks.push_back(d);
      if (decks.empty()) continue;
      add(ParamValues("play_card.deck", decks));
    }
    if (c.effect() == data::EFFECT_ARTIFICIAL_INTELLIGENCE && n.played_size() > 0)
      add(ParamValues("play_card.retrieve_card", {n.played().begin(), n.played().end()}));
    if (c.effect() == data::EFFECT_SPECULATION) add(ParamValues("play_card.price_up", {0, 1}));
    if (c.cost_class_down() > 0)
      add(ParamCount(ParamValues("play_card.classes", classes), 1, 1));
    else if (c.effect() == data::EFFECT_RAISE_CLASSES)
      add(ParamCount(ParamValues("play_card.classes", classes), 0, c.amount()));
    else if (c.effect() == data::EFFECT_POLITICAL_INTERFERENCE)
      add(ParamCount(ParamValues("play_card.classes", classes), 0, 1));
    if (c.effect() == data::EFFECT_MARKET || c.effect() == data::EFFECT_SPECULATION) {
      add(ParamCount(ParamRange("play_card.transactions", 0, 0), 0,
                     most > 0 ? static_cast<uint32_t>(MaxTransactions(seat)) : 0));
      add(ParamValues("play_card.transactions.resource", {1, 2, 3, 4}));
      add(ParamValues("play_card.transactions.sell", {0, 1}));
      add(ParamRange("play_card.transactions.quantity", 1, std::max<int64_t>(1, most)));
    }
    out.push_back(std::move(f));
  }
  return out;
}

void LimitState::GameCanonicalize(int seat, engine::Message& message) const {
  auto& action = static_cast<Action&>(message);
  if (!action.has_play_card()) return;
  PlayCard& p = *action.mutable_play_card();
  if (p.card() >= static_cast<uint32_t>(g().cards().cards_size())) return;
  const auto& c = g().card(p.card());
  const auto& tpl = g().CardTemplate(p.card());
  if (!c.targets()) p.clear_target();
  if (tpl.factory_options().empty()) p.clear_factory();
  if (tpl.resource_options().empty()) p.clear_resource();
  if (c.effect() != data::EFFECT_REFORM) p.clear_deck();
  if (c.effect() != data::EFFECT_ARTIFICIAL_INTELLIGENCE || N(seat).played_size() == 0)
    p.clear_retrieve_card();
  if (c.effect() != data::EFFECT_SPECULATION) p.clear_price_up();
  const bool names_classes =
      c.cost_class_down() > 0 || c.effect() == data::EFFECT_RAISE_CLASSES ||
      (c.effect() == data::EFFECT_POLITICAL_INTERFERENCE && p.target() != kStarTarget);
  if (!names_classes) p.clear_classes();
}

std::vector<Action> LimitState::AllianceTurnMoves(int seat) const {
  std::vector<Action> out;
  Action a;
  a.mutable_pass();
  out.push_back(a);
  for (AllianceKind k : {ALLIANCE_MILITARY, ALLIANCE_ECONOMIC}) {
    if (Group(seat, k) != 0) {
      Action l;
      l.mutable_alliance_leave()->set_kind(k);
      out.push_back(l);
    }
    for (int i = 0; i < Seats(); ++i) {
      if (CheckProposal(seat, k, i).ok()) {
        Action pr;
        pr.mutable_alliance_propose()->set_kind(k);
        pr.mutable_alliance_propose()->set_to_seat(static_cast<uint32_t>(i));
        out.push_back(pr);
      }
      if (CheckExclusion(seat, k, i).ok()) {
        Action ex;
        ex.mutable_alliance_exclude()->set_kind(k);
        ex.mutable_alliance_exclude()->set_seat(static_cast<uint32_t>(i));
        out.push_back(ex);
      }
    }
  }
  return out;
}

}  // namespace plateau::games::limit
