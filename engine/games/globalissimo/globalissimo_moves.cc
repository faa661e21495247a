// Globalissimo: the moves (placing a tile, answering a barrier question, through its prompt too),
// their checks, the legal actions and the moves a view allows.
#include <string>

#include "engine/core/words.h"
#include "engine/games/globalissimo/globalissimo.h"

#include "engine/core/families.h"
#include "engine/games/globalissimo/globalissimo_shared.h"

namespace plateau::games::globalissimo {

namespace {

// Number of code points of valid UTF-8 `text`, or -1 when it is not valid UTF-8.
int Utf8Length(std::string_view text) {
  int count = 0;
  for (size_t i = 0; i < text.size();) {
    const auto b = static_cast<unsigned char>(text[i]);
    size_t len = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
    if (len == 0 || i + len > text.size()) return -1;
    for (size_t k = 1; k < len; ++k) {
      if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return -1;
    }
    i += len;
    ++count;
  }
  return count;
}

}  // namespace

// ----- Actions -----

// An answer to the barrier question through the core is the same move as the typed one.
Action GlobalissimoState::Typed(const Action& action) const {
  if (!action.has_core() || s_.phase() != PHASE_QUESTION) return action;
  const auto& answer = action.core().answer();
  Action typed;
  if (s_.barriers(s_.question_barrier()).color() == BARRIER_ORANGE) {
    typed.mutable_answer_capital()->set_text(answer.text());
  } else if (answer.options_size() == 1) {
    typed.mutable_answer_location()->set_map_id(answer.options(0));
  }
  return typed;
}

std::vector<engine::v1::Prompt> GlobalissimoState::GamePrompts(int seat) const {
  if (s_.phase() != PHASE_QUESTION || seat != CurrentScorer()) return {};
  const auto& barrier = s_.barriers(s_.question_barrier());
  const auto& country = Country(static_cast<uint32_t>(barrier.question_card()));
  engine::v1::Prompt p;
  if (barrier.color() == BARRIER_ORANGE) {
    p = engine::MakePrompt(seat, engine::v1::PROMPT_TEXT, T("globalissimo.q_capital", country.name()),
                           1, kMaxAnswerChars);
  } else {
    p = engine::MakePrompt(seat, engine::v1::PROMPT_CHOOSE, T("globalissimo.q_map", country.name()));
    p.set_option_set(GlobalissimoGame::kMapOptionSet);
  }
  *p.mutable_detail() = T("globalissimo.q_detail", s_.steps_left());
  // A new id for each question: a new round, barrier, scorer or wrong answer makes a new one.
  p.set_id("q" + std::to_string(s_.round()) + "." + std::to_string(s_.question_barrier()) + "." +
           std::to_string(seat) + "." + std::to_string(barrier.wrong_answers_size()));
  return engine::OnePrompt(std::move(p));
}

std::unique_ptr<engine::Message> GlobalissimoState::DefaultAction(int seat) const {
  if (s_.phase() != PHASE_QUESTION) return State::DefaultAction(seat);
  auto a = std::make_unique<Action>();
  if (s_.barriers(s_.question_barrier()).color() == BARRIER_ORANGE) {
    a->mutable_answer_capital()->set_text("(no answer)");
  } else {
    a->mutable_answer_location()->set_map_id("000");  // no country has 000
  }
  return a;
}

Status GlobalissimoState::TypedValidate(int seat, const Action& given) const {
  const Action action = Typed(given);
  switch (action.kind_case()) {
    case Action::kPlace: {
      if (s_.phase() != PHASE_PLACEMENT) {
        return Status(codes::kWrongPhase, "Tiles are placed before the cards are revealed; now a "
                                          "barrier question is waiting for an answer.");
      }
      if (s_.seats(seat).placed_slot() >= 0) {
        return Status(codes::kAlreadyPlaced, "You have already placed your tile this round.");
      }
      const auto& place = action.place();
      const uint32_t shown = static_cast<uint32_t>(s_.display_size());
      if (place.slot() >= shown) {
        return Status(codes::kBadSlot, "There is no card in slot " + std::to_string(place.slot()) +
                                           "; slots go from 0 to " + std::to_string(shown - 1) + ".");
      }
      if (s_.display(static_cast<int>(place.slot())).tile_seat() >= 0) {
        return Status(codes::kSlotTaken, Country(s_.display(static_cast<int>(place.slot())).card()).name() +
                                             " already has a tile; each card takes one.");
      }
      if (place.position() < 1 || place.position() > shown) {
        return Status(codes::kBadPosition, "The guessed position must be between 1 and " +
                                               std::to_string(shown) + ", not " +
                                               std::to_string(place.position()) + ".");
      }
      return Status::Ok();
    }
    case Action::kAnswerCapital:
    case Action::kAnswerLocation: {
      if (s_.phase() != PHASE_QUESTION) {
        return Status(codes::kWrongPhase, "There is no barrier question to answer now.");
      }
      const BarrierColor kind = s_.barriers(s_.question_barrier()).color();
      if (action.kind_case() == Action::kAnswerCapital) {
        if (kind != BARRIER_ORANGE) {
          return Status(codes::kWrongQuestionKind,
                        "This is a violet barrier: point at the country on the map.");
        }
        const std::string& text = action.answer_capital().text();
        const int length = Utf8Length(text);
        if (length < 0) return Status(codes::kBadText, "The answer is not valid UTF-8 text.");
        if (length > kMaxAnswerChars) {
          return Status(codes::kAnswerTooLong, "An answer has at most " +
                                                   std::to_string(kMaxAnswerChars) +
                                                   " characters.");
        }
        if (engine::NormalizeAnswer(text).empty()) {
          return Status(codes::kEmptyAnswer, "Type the name of a capital city.");
        }
        return Status::Ok();
      }
      if (kind != BARRIER_VIOLET) {
        return Status(codes::kWrongQuestionKind,
                      "This is an orange barrier: name the country's capital.");
      }
      if (!IsThreeDigits(action.answer_location().map_id())) {
        return Status(codes::kBadMapId,
                      "A map answer is a country's three-digit map number, like \"250\".");
      }
      return Status::Ok();
    }
    default:
      return Status(ec::kMalformed, "The action names no move.");
  }
}

void GlobalissimoState::TypedApply(int seat, const Action& given) {
  const Action action = Typed(given);
  if (action.kind_case() == Action::kPlace) {
    auto* slot = s_.mutable_display(static_cast<int>(action.place().slot()));
    slot->set_tile_seat(seat);
    slot->set_tile_position(action.place().position());
    s_.mutable_seats(seat)->set_placed_slot(static_cast<int>(action.place().slot()));
    s_.set_tiles_placed(s_.tiles_placed() + 1);
    Log(T("globalissimo.places", Seat{seat}, action.place().position(), Country(slot->card()).name()));
    if (s_.tiles_placed() == s_.num_seats()) RevealAndScore();
    return;
  }
  const auto& barrier = s_.barriers(s_.question_barrier());
  const auto& country = Country(static_cast<uint32_t>(barrier.question_card()));
  if (action.kind_case() == Action::kAnswerCapital) {
    const std::string& text = action.answer_capital().text();
    bool correct = false;
    for (const auto& capital : country.capitals()) correct = correct || engine::AnswerMatches(text, capital);
    ResolveAnswer(seat, correct, text, text);
  } else {
    const std::string& map_id = action.answer_location().map_id();
    // Told as a country: a refused answer is public, and players read countries, not map numbers.
    ResolveAnswer(seat, map_id == country.map_id(), g().RegionRef(map_id), g().RegionName(map_id));
  }
}

void GlobalissimoState::ResolveAnswer(int seat, bool correct, const std::string& given,
                                      const std::string& said) {
  const int b = s_.question_barrier();
  auto* barrier = s_.mutable_barriers(b);
  auto* me = s_.mutable_seats(seat);
  const bool orange = barrier->color() == BARRIER_ORANGE;
  const auto& country = Country(static_cast<uint32_t>(barrier->question_card()));
  s_.set_question_barrier(-1);
  // Scoring resumes; ContinueScoring sets the next phase (another question, placement or end).
  s_.set_phase(PHASE_PLACEMENT);
  if (correct) {
    s_.add_discard(static_cast<uint32_t>(barrier->question_card()));
    Log(orange ? T("globalissimo.right_capital", Seat{seat}, given)
               : T("globalissimo.right_map", Seat{seat}, country.name()));
    Settle(*barrier, seat);
    barrier->set_question_card(-1);
    barrier->clear_wrong_answers();
    barrier->set_present(false);
    barrier->set_taken_by(seat);
    if (barrier->color() == BARRIER_ORANGE) {
      me->set_orange_barriers(me->orange_barriers() + 1);
    } else {
      me->set_violet_barriers(me->violet_barriers() + 1);
    }
    me->set_square(barrier->square());
  } else {
    // The right answer stays secret: the card is set aside for the next seat at this barrier.
    barrier->add_wrong_answers(given);
    Log(T(orange ? "globalissimo.wrong_capital" : "globalissimo.wrong_map", Seat{seat}, said));
    FinishMove();
  }
  ContinueScoring();
}

bool GlobalissimoState::TypedTakeBackSafe(int seat, const Action& given) const {
  // A tile placed before the last one only sits on the display; the last one turns the cards over
  // and scores, and an answer tells whether it was right.
  return Typed(given).has_place() && s_.tiles_placed() + 1 < s_.num_seats();
}

std::vector<Action> GlobalissimoState::TypedLegalActions(int seat) const {
  std::vector<Action> out;
  if (s_.phase() == PHASE_PLACEMENT) {
    const int shown = s_.display_size();
    for (int slot = 0; slot < shown; ++slot) {
      if (s_.display(slot).tile_seat() >= 0) continue;
      for (int p = 1; p <= shown; ++p) {
        Action a;
        a.mutable_place()->set_slot(static_cast<uint32_t>(slot));
        a.mutable_place()->set_position(static_cast<uint32_t>(p));
        out.push_back(std::move(a));
      }
    }
    return out;
  }
  // A barrier question is answered through its prompt (GamePrompts): the core lists a map
  // question's answers and describes a capital question's (any text); listing the right answer
  // here would hand it to whoever asks for the legal actions.
  return out;
}

void GlobalissimoState::GamePublishMoves(
    int seat, google::protobuf::RepeatedPtrField<engine::v1::MoveChoice>* out) const {
  if (s_.phase() != PHASE_PLACEMENT) return;
  // One family, any free card at any rank, rather than every placement listed: the Diff that
  // hands the turn over then carries about 100 bytes instead of 1.3 KB, and the board knows
  // which card a slot holds from the display.
  std::vector<int64_t> free;
  for (int slot = 0; slot < s_.display_size(); ++slot) {
    if (s_.display(slot).tile_seat() < 0) free.push_back(slot);
  }
  if (free.empty()) return;
  engine::v1::MoveChoice* place = out->Add();
  place->set_key("place");
  *place->mutable_label() = T("globalissimo.move.place");
  Action base;
  base.mutable_place();
  engine::DeterministicBytesInto(base, place->mutable_action());
  *place->add_params() = engine::ParamValues("place.slot", free);
  *place->add_params() = engine::ParamRange("place.position", 1, s_.display_size());
}

}  // namespace plateau::games::globalissimo
