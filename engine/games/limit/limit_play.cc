// LIMIT: decisions (validation and application), legal actions, views and hidden information.
#include <algorithm>
#include <set>

#include "engine/core/registry.h"
#include "engine/games/limit/limit.h"

namespace plateau::games::limit {

namespace ec = engine::codes;
using engine::Seat;
using engine::Status;
using engine::T;
namespace v1 = engine::v1;
using internal::NationState;

namespace {

int DeckIndex(Deck d) { return static_cast<int>(d) - 1; }

bool Contains(const google::protobuf::RepeatedField<uint32_t>& v, uint32_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

void Erase(google::protobuf::RepeatedField<uint32_t>* v, uint32_t x) {
  auto it = std::find(v->begin(), v->end(), x);
  if (it != v->end()) v->erase(it);
}

uint32_t Rank(const NationState& n, Factory f) {
  return f == FACTORY_RENEWABLE    ? n.renewable_rank()
         : f == FACTORY_INDUSTRIAL ? n.industrial_rank()
                                   : n.military_rank();
}

uint32_t GetRes(const NationState& n, Resource r) {
  switch (r) {
    case RESOURCE_RENEWABLE: return n.renewable();
    case RESOURCE_INDUSTRIAL: return n.industrial();
    case RESOURCE_MILITARY: return n.military();
    default: return n.fossil();
  }
}
void SetRes(NationState& n, Resource r, uint32_t v) {
  switch (r) {
    case RESOURCE_RENEWABLE: n.set_renewable(v); break;
    case RESOURCE_INDUSTRIAL: n.set_industrial(v); break;
    case RESOURCE_MILITARY: n.set_military(v); break;
    default: n.set_fossil(v); break;
  }
}

bool ValidResource(Resource r) { return r >= RESOURCE_RENEWABLE && r <= RESOURCE_FOSSIL; }

}  // namespace

// ----- Validation and application -----

Status LimitState::TypedValidate(int seat, const Action& action) const {
  // Act with apply == false only reads the position (every check precedes the first change).
  return const_cast<LimitState*>(this)->Act(seat, Typed(seat, action), false);
}

void LimitState::TypedApply(int seat, const Action& action) {
  Status st = Act(seat, Typed(seat, action), true);
  if (!st.ok()) std::abort();  // Validate accepted it: a refusal here is an engine bug
  Advance();
}

Status LimitState::Act(int seat, const Action& action, bool apply) {
  auto& n = N(seat);
  if (action.has_remove_permanent()) {
    // "At any time" on the card: whenever this nation may act, without answering what is asked.
    const auto acting = ActingSeats();
    if (std::find(acting.begin(), acting.end(), seat) == acting.end())
      return Status(ec::kNotYourTurn, "Nothing is asked of this nation now.");
    return ActRemove(seat, action.remove_permanent().card(), apply);
  }
  if (n.choices_size() > 0) return ActChoice(seat, action, apply);
  if (s_.phase() == PHASE_ALLIANCE && s_.turn() == seat && !s_.alliance_pending().active())
    return ActAllianceTurn(seat, action, apply);
  if (s_.phase() != PHASE_POLITICAL_DECISIONS || s_.turn() != seat || s_.pending().active())
    return Status(ec::kNotYourTurn, "Nothing is asked of this nation now.");
  switch (action.kind_case()) {
    case Action::kPlayCard:
      return ActPlay(seat, action.play_card(), apply);
    case Action::kPass:
      if (!apply) return Status::Ok();
      n.set_passed(true);
      Log(T(n.cards_this_turn() > 0 ? "limit.log.plays_and_passes" : "limit.log.passes",
            Seat{seat}));
      EndTurn();
      return Status::Ok();
    default:
      return Status(codes::kWrongPrompt, "It is your political turn: play a card or pass.");
  }
}

Status LimitState::ActRemove(int seat, uint32_t id, bool apply) {
  auto& n = N(seat);
  if (!Contains(n.permanents(), id))
    return Status(codes::kNotRemovable, "That card is not one of your permanent cards.");
  const auto& c = g().card(id);
  if (!c.removable()) return Status(codes::kNotRemovable, c.name() + " cannot be removed.");
  if (!apply) return Status::Ok();
  Erase(n.mutable_permanents(), id);
  UnderDeck(seat, id);
  if (c.effect() == data::EFFECT_PLANNING) RaiseDisorder(seat, 2);
  else FactoryDown(seat, FACTORY_RENEWABLE, 1);
  Log(T("limit.log.removes", Seat{seat}, c.name()));
  // The factory may have moved: an open factory choice may now have a single option.
  AutoResolve(seat);
  return Status::Ok();
}

Status LimitState::ActChoice(int seat, const Action& action, bool apply) {
  auto& n = N(seat);
  const internal::Choice choice = n.choices(0);
  auto pop_choice = [&]() { n.mutable_choices()->erase(n.mutable_choices()->begin()); };
  auto wrong = [&]() {
    return Status(codes::kWrongPrompt, "Another decision is awaited first: answer it.");
  };
  switch (choice.kind()) {
    case PROMPT_CHOOSE_DECK: {
      if (!action.has_choose_deck()) return wrong();
      const Deck d = action.choose_deck().deck();
      if (d < DECK_SOCIETY || d > DECK_PRODUCTION || n.decks(DeckIndex(d)).cards_size() == 0)
        return Status(codes::kBadDeck, "Choose one of your three decks that still has cards.");
      if (!apply) return Status::Ok();
      auto* deck = n.mutable_decks(DeckIndex(d))->mutable_cards();
      const int k = std::min<int>(deck->size(), static_cast<int>(n.draw_count()));
      n.clear_drawn();
      for (int i = 0; i < k; ++i) n.add_drawn(deck->Get(i));
      deck->erase(deck->begin(), deck->begin() + k);
      n.set_drawn_deck(d);
      pop_choice();
      const uint32_t keep = std::min<uint32_t>(n.keep_count(), k);
      AddChoice(seat, PROMPT_KEEP_CARDS, keep, T("limit.why.keep", keep));
      n.mutable_choices()->SwapElements(0, n.choices_size() - 1);
      return Status::Ok();
    }
    case PROMPT_KEEP_CARDS: {
      if (!action.has_keep_cards()) return wrong();
      const auto& kc = action.keep_cards();
      const uint32_t size = n.drawn_size();
      std::set<uint32_t> seen;
      for (uint32_t i : kc.keep())
        if (i >= size || !seen.insert(i).second)
          return Status(codes::kBadCards, "Kept cards must be distinct indices into the draw.");
      if (static_cast<uint32_t>(kc.keep_size()) != choice.count())
        return Status(codes::kBadCards, "Keep exactly " + std::to_string(choice.count()) + ".");
      for (uint32_t i : kc.bottom())
        if (i >= size || !seen.insert(i).second)
          return Status(codes::kBadCards, "Every card not kept goes under the deck, once.");
      if (seen.size() != size)
        return Status(codes::kBadCards, "List every card not kept in `bottom`.");
      if (!apply) return Status::Ok();
      for (uint32_t i : kc.keep()) n.add_hand(n.drawn(i));
      auto* deck = n.mutable_decks(DeckIndex(n.drawn_deck()));
      for (uint32_t i : kc.bottom()) deck->add_cards(n.drawn(i));
      n.clear_drawn();
      pop_choice();
      return Status::Ok();
    }
    case PROMPT_DISCARD: {
      if (!action.has_discard()) return wrong();
      const auto& cards = action.discard().cards();
      if (static_cast<uint32_t>(cards.size()) != choice.count())
        return Status(codes::kBadCards, "Put exactly " + std::to_string(choice.count()) +
                                            " card(s) under their decks.");
      std::set<uint32_t> seen;
      for (uint32_t id : cards)
        if (!Contains(n.hand(), id) || !seen.insert(id).second)
          return Status(codes::kNotInHand, "Discard distinct cards from your hand.");
      if (!apply) return Status::Ok();
      for (uint32_t id : cards) {
        Erase(n.mutable_hand(), id);
        UnderDeck(seat, id);
      }
      pop_choice();
      return Status::Ok();
    }
    case PROMPT_RESIST: {
      if (!action.has_resist()) return wrong();
      if (action.resist().resist()) {
        const uint32_t need = s_.pending().action().play_card().military();
        if (n.military() < need)
          return Status(codes::kCannotPay, "Resisting needs " + std::to_string(need) + " military.");
      }
      if (!apply) return Status::Ok();
      if (action.resist().resist()) s_.mutable_pending()->set_resisted(true);
      pop_choice();
      return Status::Ok();
    }
    case PROMPT_CONTRIBUTE: {
      if (!action.has_contribute()) return wrong();
      const uint32_t amount = action.contribute().amount();
      if (amount > n.money())
        return Status(codes::kCannotPay, "You cannot give more money than you have.");
      if (amount > choice.count())
        return Status(codes::kBadParameter, "No more than the card's cost.");
      if (!apply) return Status::Ok();
      s_.mutable_pending()->set_contributions(seat, static_cast<int32_t>(amount));
      pop_choice();
      return Status::Ok();
    }
    case PROMPT_ALLIANCE_FEE: {
      if (!action.has_contribute()) return wrong();
      const uint32_t amount = action.contribute().amount();
      if (amount > n.money())
        return Status(codes::kCannotPay, "You cannot give more money than you have.");
      if (amount > choice.count())
        return Status(codes::kBadParameter, "No more than the fee.");
      if (!apply) return Status::Ok();
      s_.mutable_alliance_pending()->set_fee(seat, static_cast<int32_t>(amount));
      pop_choice();
      return Status::Ok();
    }
    case PROMPT_ALLIANCE_VOTE: {
      if (!action.has_alliance_vote()) return wrong();
      if (!apply) return Status::Ok();
      s_.mutable_alliance_pending()->set_votes(seat, action.alliance_vote().accept() ? 1 : 0);
      Log(T(action.alliance_vote().accept() ? "limit.log.vote_accepts" : "limit.log.vote_refuses",
            Seat{seat}));
      pop_choice();
      return Status::Ok();
    }
    case PROMPT_HELP_REQUEST: {
      if (!action.has_request_help()) return wrong();
      if (!apply) return Status::Ok();
      pop_choice();
      auto* h = n.mutable_help();
      if (!action.request_help().ask()) {
        h->set_decided(true);
        return Status::Ok();
      }
      Log(T("limit.log.help_asked", Seat{seat}, h->amount(), ResourceText(h->resource())));
      h->clear_given();
      for (int i = 0; i < Seats(); ++i) h->add_given(0);
      for (int i : Allies(seat, h->kind())) {
        uint32_t has = 0;
        switch (h->resource()) {
          case RESOURCE_RENEWABLE: has = N(i).renewable(); break;
          case RESOURCE_INDUSTRIAL: has = N(i).industrial(); break;
          case RESOURCE_MILITARY: has = N(i).military(); break;
          default: has = N(i).fossil(); break;
        }
        if (has == 0) continue;  // nothing to give: not asked
        h->set_given(i, -1);
        auto* c = AddChoice(i, PROMPT_HELP_ANSWER, 1,
                            T("limit.why.help_answer", Seat{seat}, h->amount()));
        c->set_from_seat(seat);
        c->set_alliance(h->kind());
        c->set_amount(h->amount());
        c->set_resource(h->resource());
      }
      // The allies' stocks are counted when the shortage comes, but they may have spent them
      // before the answer: with nobody left to ask, the request lapses at once (no ally refused,
      // so there is no alliance to break) and the shortage is suffered. Waiting here would leave
      // the game with no seat able to act.
      bool asked = false;
      for (int v : h->given()) asked = asked || v < 0;
      if (!asked) {
        Log(T("limit.log.help_lapsed", Seat{seat}));
        h->set_decided(true);
        return Status::Ok();
      }
      h->set_waiting(true);
      return Status::Ok();
    }
    case PROMPT_HELP_ANSWER: {
      if (!action.has_give_help()) return wrong();
      const int asker = choice.from_seat();
      const uint32_t amount = action.give_help().amount();
      if (amount > choice.amount())
        return Status(codes::kBadAmount, "No more than what was asked.");
      if (amount > GetRes(n, choice.resource()))
        return Status(codes::kBadAmount, "You cannot give more than you have.");
      if (!apply) return Status::Ok();
      auto* h = N(asker).mutable_help();
      h->set_given(seat, static_cast<int32_t>(amount));
      pop_choice();
      bool all = true;
      for (int v : h->given()) all = all && v >= 0;
      if (all) ResolveHelp(asker);
      return Status::Ok();
    }
    case PROMPT_BREAK_ALLIANCE: {
      if (!action.has_break_alliance()) return wrong();
      if (!apply) return Status::Ok();
      pop_choice();
      if (action.break_alliance().do_break() && Group(seat, choice.alliance()) != 0)
        BreakAlliance(seat, choice.alliance());
      return Status::Ok();
    }
    case PROMPT_RAISE_CLASS:
    case PROMPT_LOWER_CLASS: {
      if (!action.has_choose_class()) return wrong();
      const uint32_t c = action.choose_class().social_class();
      const bool up = choice.kind() == PROMPT_RAISE_CLASS;
      if (c >= kClasses || !(up ? CanRaiseClass(seat, c) : CanLowerClass(seat, c)))
        return Status(codes::kBadClass,
                      "That class cannot move: a class never lives better than the class above it.");
      if (!apply) return Status::Ok();
      if (up) RaiseClass(seat, static_cast<int>(c));
      else LowerClass(seat, static_cast<int>(c));
      if (choice.count() > 1) Repeat(seat, choice.count() - 1);
      else pop_choice();
      AutoResolve(seat);
      return Status::Ok();
    }
    case PROMPT_LOWER_FACTORY:
    case PROMPT_GROWTH_FACTORY: {
      if (!action.has_choose_factory()) return wrong();
      const uint32_t f = action.choose_factory().factory();
      auto opts = ChoiceOptions(seat, choice);
      if (std::find(opts.begin(), opts.end(), f) == opts.end())
        return Status(codes::kBadFactory, "That factory is not one of the options.");
      if (!apply) return Status::Ok();
      if (choice.kind() == PROMPT_GROWTH_FACTORY && !choice.growth_down())
        FactoryUp(seat, static_cast<Factory>(f), 1);
      else
        FactoryDown(seat, static_cast<Factory>(f), 1);
      if (choice.count() > 1) Repeat(seat, choice.count() - 1);
      else pop_choice();
      AutoResolve(seat);
      return Status::Ok();
    }
    default:
      return wrong();
  }
}

// ----- Decisions as questions -----

namespace {

constexpr const char* kDeckIds[] = {"society", "army_economy", "production"};
constexpr const char* kClassIds[] = {"A", "B", "C", "D", "E"};

const char* FactoryId(Factory f) {
  return f == FACTORY_RENEWABLE ? "renewable" : f == FACTORY_INDUSTRIAL ? "industrial" : "military";
}

}  // namespace

std::unique_ptr<engine::Message> LimitState::DefaultAction(int seat) const {
  if (seat >= 0 && seat < Seats() && N(seat).choices_size() == 0 && s_.turn() == seat &&
      (s_.phase() == PHASE_POLITICAL_DECISIONS || s_.phase() == PHASE_ALLIANCE)) {
    auto pass = std::make_unique<Action>();
    pass->mutable_pass();
    if (TypedValidate(seat, *pass).ok()) return pass;
  }
  return State::DefaultAction(seat);
}

void LimitState::Repeat(int seat, uint32_t count_left) {
  auto* c = N(seat).mutable_choices(0);
  c->set_count(count_left);
  c->set_id(NewPromptId());
}

std::vector<v1::Prompt> LimitState::GamePrompts(int seat) const {
  if (seat < 0 || seat >= Seats() || N(seat).choices_size() == 0) return {};
  const auto& n = N(seat);
  const auto& c = n.choices(0);
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
      p = engine::MakePrompt(seat, v1::PROMPT_ORDER, T("limit.q.keep", c.count()), c.count(),
                             c.count());
      for (int i = 0; i < n.drawn_size(); ++i)
        engine::AddOption(&p, "d" + std::to_string(i), T("limit.card", g().card(n.drawn(i)).name()))
            ->mutable_target()
            ->set_card(std::to_string(n.drawn(i)));
      break;
    case PROMPT_DISCARD:
      p = engine::MakePrompt(seat, v1::PROMPT_CHOOSE, T("limit.q.discard", c.count()), c.count(),
                             c.count());
      for (uint32_t id : n.hand())
        engine::AddOption(&p, std::to_string(id), T("limit.card", g().card(id).name()))
            ->mutable_target()
            ->set_card(std::to_string(id));
      break;
    case PROMPT_RESIST:
      p = engine::MakePrompt(seat, v1::PROMPT_YES_NO,
                             T("limit.q.resist", s_.pending().action().play_card().military()));
      break;
    case PROMPT_CONTRIBUTE:
      p = engine::MakePrompt(seat, v1::PROMPT_NUMBER, T("limit.q.contribute", c.count()), 0,
                             std::min(n.money(), c.count()));
      break;
    case PROMPT_ALLIANCE_FEE:
      p = engine::MakePrompt(seat, v1::PROMPT_NUMBER, T("limit.q.fee", c.count()), 0,
                             std::min(n.money(), c.count()));
      break;
    case PROMPT_ALLIANCE_VOTE:
      p = engine::MakePrompt(seat, v1::PROMPT_YES_NO, T("limit.q.vote"));
      break;
    case PROMPT_HELP_REQUEST:
      p = engine::MakePrompt(seat, v1::PROMPT_YES_NO, T("limit.q.help_request"));
      break;
    case PROMPT_HELP_ANSWER:
      p = engine::MakePrompt(seat, v1::PROMPT_NUMBER, T("limit.q.help_answer", ResourceText(c.resource())),
                             0, std::min(c.amount(), GetRes(n, c.resource())));
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
      return {};
  }
  *p.mutable_detail() = c.why();
  // Decisions from positions printed before ids existed get one from their place in the game.
  p.set_id(!c.id().empty() ? c.id()
                           : "c" + std::to_string(History().size()) + "." + std::to_string(seat));
  return {p};
}

Action LimitState::Typed(int seat, const Action& action) const {
  if (!action.has_core() || !action.core().has_answer() || seat < 0 || seat >= Seats() ||
      N(seat).choices_size() == 0)
    return action;
  const auto& n = N(seat);
  const auto& c = n.choices(0);
  const auto& answer = action.core().answer();
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
      for (int i = 0; i < answer.options_size(); ++i) {
        const uint32_t drawn = static_cast<uint32_t>(std::stoul(answer.options(i).substr(1)));
        if (static_cast<uint32_t>(i) < c.count()) typed.mutable_keep_cards()->add_keep(drawn);
        else typed.mutable_keep_cards()->add_bottom(drawn);
      }
      if (answer.options_size() == 0) typed.mutable_keep_cards();
      break;
    case PROMPT_DISCARD:
      typed.mutable_discard();
      for (const auto& id : answer.options())
        typed.mutable_discard()->add_cards(static_cast<uint32_t>(std::stoul(id)));
      break;
    case PROMPT_RESIST: typed.mutable_resist()->set_resist(answer.yes()); break;
    case PROMPT_CONTRIBUTE:
    case PROMPT_ALLIANCE_FEE:
      typed.mutable_contribute()->set_amount(static_cast<uint32_t>(answer.number()));
      break;
    case PROMPT_ALLIANCE_VOTE: typed.mutable_alliance_vote()->set_accept(answer.yes()); break;
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
      if (GetRes(n, t.resource()) < t.quantity())
        return Status(codes::kBadTransaction, "You do not have that much to sell.");
      if (price * t.quantity() > s_.bank())
        return Status(codes::kBadTransaction, "The World Bank cannot pay for that much.");
      if (!apply) continue;
      SetRes(n, t.resource(), GetRes(n, t.resource()) - t.quantity());
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
      SetRes(n, t.resource(), GetRes(n, t.resource()) + t.quantity());
      m->set_stock(m->stock() - t.quantity());
      n.set_money(n.money() - price * t.quantity());
      s_.set_bank(s_.bank() + price * t.quantity());
      m->set_position(std::min<uint32_t>(last, m->position() + 1));
    }
    Log(T(t.sell() ? "limit.log.sells" : "limit.log.buys", Seat{seat}, t.quantity(),
          ResourceText(t.resource()), price));
  }
  return Status::Ok();
}

LimitState::PlayCost LimitState::CostOf(int seat, const PlayCard& play) const {
  const auto& n = N(seat);
  const auto& c = g().card(play.card());
  const uint32_t pop = PopValue(static_cast<int>(n.pop_rank()));
  PlayCost cost;
  cost.money = c.cost_money() + c.cost_money_per_pop() * pop + c.cost_own_to_limit();
  if (c.cost_money_factory_value()) {
    const Factory f = c.effect() == data::EFFECT_FACTORY_UP ? play.factory() : FACTORY_RENEWABLE;
    cost.money += TrackValue(f, static_cast<int>(Rank(n, f)));
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
    return Status(codes::kCannotPay, "Not enough money to pay " + c.name() + ".");
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
  if (c.cost_factory_down() != FACTORY_UNSPECIFIED && Rank(n, c.cost_factory_down()) <= 1)
    return Status(codes::kCannotPay, "That factory is already at its lowest rank.");
  // A disorder cost is paid on the track, never turned into destabilisation (RULES.md,
  // "Disorder as a cost"): the whole raise must fit below the top.
  if (n.disorder() + c.cost_disorder() > board().disorder_positions() - 1)
    return Status(codes::kCannotPay, "Your social disorder has no room left for this card's cost.");
  return Status::Ok();
}

Status LimitState::ActPlay(int seat, const PlayCard& play, bool apply) {
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
    std::vector<uint32_t> lv(n.classes().begin(), n.classes().end());
    for (uint32_t k : play.classes()) {
      if (k >= kClasses || lv[k] >= 4 || (k > 0 && lv[k] >= lv[k - 1]))
        return Status(codes::kBadClass,
                      "A class never lives better than the class above it.");
      ++lv[k];
    }
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
      // a copy of the position (without the history a full copy of the state would carry).
      LimitState probe(game_, s_);
      return probe.PayAndPlay(seat, play);
    }
    return Status::Ok();
  }

  // Pay. A shared payment first asks the others (the card waits in the hand): economic allies
  // only when the player cannot pay alone; for the cards anyone may help pay, every other nation
  // holding money, even when the player could pay alone (RULES.md, "Shared payments").
  Log(T("limit.log.plays", Seat{seat}, c.name()));
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
    for (int i = 0; i < Seats(); ++i) {
      const bool ask = asked[i] && N(i).money() > 0;
      p->add_contributions(ask ? -1 : 0);
      if (ask)
        PushChoice(i, PROMPT_CONTRIBUTE, total,
                   T(total > n.money() ? "limit.why.contribute" : "limit.why.contribute_invited",
                     Seat{seat}, c.name(), total));
    }
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
  RaiseDisorder(seat, c.cost_disorder());
  GainDestab(seat, c.cost_destabilisation());
  GainPollution(seat, c.cost_pollution());

  if (c.effect() == data::EFFECT_SPECULATION) {
    auto* m = s_.mutable_market(static_cast<int>(play.resource()) - 1);
    m->set_position(play.price_up() ? m->position() + 1 : m->position() - 1);
  }
  if (c.effect() == data::EFFECT_MARKET || c.effect() == data::EFFECT_SPECULATION) {
    // Transactions run one after the other: the second sees the first's prices and money.
    LimitState probe(game_, s_);
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
      PushChoice(target, PROMPT_RESIST, 1,
                 T("limit.why.resist", Seat{seat}, c.name(), play.military()));
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
    AddChoice(seat, PROMPT_KEEP_CARDS, 1, T("limit.why.reform"));
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
      Log(T("limit.log.collection_failed", Seat{seat}, c.name()));
      if (p.economic_help() && Group(seat, ALLIANCE_ECONOMIC) != 0) {
        auto* ch = AddChoice(seat, PROMPT_BREAK_ALLIANCE, 1,
                             T("limit.why.break", KindText(ALLIANCE_ECONOMIC)));
        ch->set_alliance(ALLIANCE_ECONOMIC);
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

void LimitState::ApplyEffect(int seat, const PlayCard& play, bool /*resisted*/) {
  auto& n = N(seat);
  const auto& c = g().card(play.card());
  const uint32_t pop = PopValue(static_cast<int>(n.pop_rank()));
  const int target = play.target();
  const bool star = c.targets() && target == kStarTarget;
  const data::SoloRow* row =
      s_.solo() ? &board().solo(static_cast<int>(s_.generation()) - 1) : nullptr;
  switch (c.effect()) {
    case data::EFFECT_DISORDER_DOWN: LowerDisorder(seat, c.amount()); break;
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
    case data::EFFECT_CRAFT: SetRes(n, play.resource(), GetRes(n, play.resource()) + c.amount()); break;
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
      PushChoice(target, PROMPT_LOWER_CLASS, 2, T("limit.why.tourism", Seat{seat}));
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
        SetRes(n, play.resource(), GetRes(n, play.resource()) + k);
        break;
      }
      const uint32_t k = std::min(cap, GetRes(N(target), play.resource()));
      SetRes(N(target), play.resource(), GetRes(N(target), play.resource()) - k);
      SetRes(n, play.resource(), GetRes(n, play.resource()) + k);
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
      if (!star) RaiseDisorder(target, c.amount());
      break;
    default:  // permanent cards act through HasPermanent; market handled at payment
      break;
  }
}


// ----- Legal actions -----

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
  if (n.choices_size() > 0) {
    // The decision itself is a question (GamePrompts): the core lists its answers.
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
  if (n.cards_this_turn() >= 2) return out;
  // Plays: a representative set of parameters per card (every factory, target and resource;
  // the minimum and the whole military stock; greedy class orders; one-unit transactions).
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
                    if (n.played_size() > 0) p->set_retrieve_card(n.played(0));
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

Card LimitState::CardView(uint32_t id, int viewer_seat) const {
  Card v = g().CardTemplate(id);
  if (viewer_seat < 0) return v;
  v.set_playable(CostPayable(viewer_seat, id));
  if (g().Params(id).transactions) v.set_max_transactions(MaxTransactions(viewer_seat));
  const auto& c = g().card(id);
  if (c.cost_money_factory_value() && c.effect() == data::EFFECT_FACTORY_UP) {
    for (int f : v.factory_options()) {
      PlayCard play;
      play.set_card(id);
      play.set_factory(static_cast<Factory>(f));
      v.add_factory_prices(CostOf(viewer_seat, play).money);
    }
  }
  return v;
}

limit::View LimitState::TypedView(int seat) const {
  limit::View v;
  const bool over = IsTerminal();
  v.set_you(seat);
  v.set_generation(s_.generation());
  v.set_phase(s_.phase());
  v.set_leader(s_.leader());
  v.set_turn(s_.turn());
  *v.mutable_board() = g().BoardView();
  for (int i = 0; i < Seats(); ++i) {
    const auto& n = N(i);
    auto* o = v.add_nations();
    o->set_seat(i);
    o->set_population_rank(n.pop_rank());
    o->set_population(PopValue(static_cast<int>(n.pop_rank())));
    o->set_renewable_rank(n.renewable_rank());
    o->set_renewable_output(TrackValue(FACTORY_RENEWABLE, static_cast<int>(n.renewable_rank())));
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
    for (uint32_t id : n.permanents()) *o->add_permanents() = CardView(id, -1);
    for (uint32_t id : n.set_aside()) *o->add_set_aside() = CardView(id, -1);
    for (uint32_t id : n.played()) *o->add_played_this_generation() = CardView(id, -1);
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
  if (seat >= 0 && seat < Seats())
    for (uint32_t id : N(seat).hand()) *v.add_hand() = CardView(id, seat);
  for (int i = 0; i < Seats(); ++i) {
    const auto& n = N(i);
    if (n.choices_size() == 0) continue;
    const auto& c = n.choices(0);
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
      if (seat == i)
        for (uint32_t id : n.drawn()) *p->add_drawn() = CardView(id, -1);
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
    for (const auto& a : AllianceTurnMoves(s_.turn())) {
      if (a.has_alliance_propose()) *p->add_alliance_proposals() = a.alliance_propose();
      if (a.has_alliance_leave()) *p->add_alliance_leaves() = a.alliance_leave();
      if (a.has_alliance_exclude()) *p->add_alliance_exclusions() = a.alliance_exclude();
    }
  }
  for (const auto& m : s_.market()) {
    auto* t = v.mutable_market()->add_tracks();
    t->set_resource(m.resource());
    t->set_position(m.position());
    for (uint32_t price : board().prices()) t->add_prices(price);
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
    v.set_last_event(s_.last_event());
  }
  if (over)
    for (const auto& l : s_.scores()) *v.add_scores() = l;
  v.set_first_game(s_.first_game());
  v.set_alliances(s_.alliances());
  v.set_excess_pollution(s_.excess_pollution());
  return v;
}

// ----- Hidden information -----

std::unique_ptr<engine::State> LimitState::PerturbHidden(int seat, uint64_t salt) const {
  // The position only: copying the action history too would make each call grow with the game.
  auto copy = std::make_unique<LimitState>(game_, s_);
  internal::StateProto& s = copy->s_;
  engine::Rng rng(salt ^ 0x6c696d6974ULL);
  s.set_rng(rng.Next());
  for (int j = 0; j < Seats(); ++j) {
    auto* n = s.mutable_nations(j);
    if (j == seat) {
      // Our own deck order is not shown to us either.
      for (int d = 0; d < 3; ++d) rng.ShuffleRepeated(n->mutable_decks(d)->mutable_cards());
      continue;
    }
    // Another nation's hand, draw and decks are drawn again from the same cards, keeping every
    // size and each deck's back.
    std::vector<uint32_t> pool(n->hand().begin(), n->hand().end());
    pool.insert(pool.end(), n->drawn().begin(), n->drawn().end());
    for (const auto& d : n->decks()) pool.insert(pool.end(), d.cards().begin(), d.cards().end());
    rng.Shuffle(pool);
    const int hand = n->hand_size(), drawn = n->drawn_size();
    std::vector<int> deck_sizes;
    for (const auto& d : n->decks()) deck_sizes.push_back(d.cards_size());
    auto take = [&](Deck back) -> uint32_t {
      for (size_t i = 0; i < pool.size(); ++i)
        if (back == DECK_UNSPECIFIED || g().card(pool[i]).deck() == back) {
          const uint32_t id = pool[i];
          pool.erase(pool.begin() + static_cast<long>(i));
          return id;
        }
      std::abort();
    };
    n->clear_drawn();
    for (int i = 0; i < drawn; ++i) n->add_drawn(take(n->drawn_deck()));
    for (int d = 0; d < 3; ++d) {
      auto* cards = n->mutable_decks(d)->mutable_cards();
      cards->Clear();
      for (int i = 0; i < deck_sizes[d]; ++i) cards->Add(take(static_cast<Deck>(d + 1)));
    }
    n->clear_hand();
    for (int i = 0; i < hand; ++i) n->add_hand(take(DECK_UNSPECIFIED));
    // Hand order is hidden too, but failed collections name hand cards: keep them valid.
    auto* failed = n->mutable_failed_collections();
    for (int k = failed->size() - 1; k >= 0; --k)
      if (!Contains(n->hand(), failed->Get(k))) failed->erase(failed->begin() + k);
  }
  rng.ShuffleRepeated(s.mutable_events());
  return copy;
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
