// LIMIT: checking and applying moves: the political turn, decisions, removals.
#include <algorithm>
#include <set>

#include "engine/games/limit/limit.h"
#include "engine/games/limit/limit_nation.h"

namespace plateau::games::limit {

// ----- Validation and application -----

Status LimitState::TypedValidate(int seat, const Action& action) const {
  // Act with apply == false only reads the position (every check precedes the first change).
  return const_cast<LimitState*>(this)->Act(seat, action, false);
}

void LimitState::TypedApply(int seat, const Action& action) {
  Status st = Act(seat, action, true);
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
  if (Owes(seat)) {
    // A move answering the open choice went to the core as its answer (GameAnswerOf): what
    // reaches here is refused, by the choice's own checks when it is the choice's move.
    const v1::Decision* open = OpenDecisionOf(seat);
    if (apply || open == nullptr || !AskedNow(seat) || !OwnChoice(open->kind()))
      return Status(codes::kWrongPrompt, "Another decision is awaited first: answer it.");
    internal::Choice c;
    c.ParseFromString(open->resume());
    return ActChoice(seat, c, action, false);
  }
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
  if (!c.removable()) return Status(codes::kNotRemovable, CardTitle(c) + " cannot be removed.");
  if (!apply) return Status::Ok();
  Erase(n.mutable_permanents(), id);
  UnderDeck(seat, id);
  if (c.effect() == data::EFFECT_PLANNING) RaiseDisorder(seat, 2, T("limit.cause.card_removed", CardName(c)));
  else FactoryDown(seat, FACTORY_RENEWABLE, 1);
  Log(T("limit.log.removes", Seat{seat}, CardName(c)));
  // The factory may have moved: an open factory choice may now have a single option.
  AutoResolve(seat);
  return Status::Ok();
}

Status LimitState::ActChoice(int seat, const internal::Choice& choice, const Action& action,
                             bool apply) {
  auto& n = N(seat);
  // A choice repeated (classes still to lower) is asked once more, first among the nation's, with
  // a new id, so a late copy of this answer cannot answer it.
  auto ask_again = [&]() {
    if (choice.count() <= 1) return;
    internal::Choice again = choice;
    again.set_count(choice.count() - 1);
    AskChoice(seat, again, /*first=*/true);
  };
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
      const uint32_t keep = std::min<uint32_t>(n.keep_count(), k);
      AskChoice(seat, MakeChoice(PROMPT_KEEP_CARDS, keep, T("limit.why.keep", keep)),
                /*first=*/true);
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
      return Status::Ok();
    }
    case PROMPT_HELP_REQUEST: {
      if (!action.has_request_help()) return wrong();
      if (!apply) return Status::Ok();
      auto* h = n.mutable_help();
      if (!action.request_help().ask()) {
        h->set_decided(true);
        return Status::Ok();
      }
      Log(T("limit.log.help_asked", Seat{seat}, h->amount(), ResourceCountText(h->resource(), h->amount())));
      h->clear_given();
      h->clear_asked();
      for (int i = 0; i < Seats(); ++i) {
        h->add_given(0);
        h->add_asked(false);
      }
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
        h->set_asked(i, true);
        internal::Choice c =
            MakeChoice(PROMPT_HELP_ANSWER, 1, T("limit.why.help_answer", Seat{seat}, h->amount()));
        c.set_from_seat(seat);
        c.set_alliance(h->kind());
        c.set_amount(h->amount());
        c.set_resource(h->resource());
        AskChoice(i, c);
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
      if (amount > Stock(n, choice.resource()))
        return Status(codes::kBadAmount, "You cannot give more than you have.");
      if (!apply) return Status::Ok();
      auto* h = N(asker).mutable_help();
      h->set_given(seat, static_cast<int32_t>(amount));
      bool all = true;
      for (int v : h->given()) all = all && v >= 0;
      if (all) ResolveHelp(asker);
      return Status::Ok();
    }
    case PROMPT_BREAK_ALLIANCE: {
      if (!action.has_break_alliance()) return wrong();
      if (!apply) return Status::Ok();
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
      ask_again();
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
      ask_again();
      AutoResolve(seat);
      return Status::Ok();
    }
    default:
      return wrong();
  }
}

}  // namespace plateau::games::limit
