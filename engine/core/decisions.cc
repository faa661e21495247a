// The core's queue of decisions and deferred effects (Decision, Effect in table.proto): asking
// seats in the middle of a resolution, routing their answers, resuming the game, and resolving
// what the game put aside. The State members declared under "The queue of decisions" in game.h.
#include <algorithm>
#include <cstdlib>

#include "engine/core/game.h"

namespace plateau::engine {

const v1::Decision* State::OpenDecision() const {
  return table().decisions_size() > 0 ? &table().decisions(0) : nullptr;
}

namespace {

bool Answered(const v1::Decision& d, int seat) {
  for (const auto& a : d.answers())
    if (a.seat() == seat) return true;
  return false;
}

const v1::Prompt* PromptOf(const v1::Decision& d, int seat) {
  for (const auto& p : d.prompts())
    if (p.seat() == seat) return &p;
  return nullptr;
}

bool ShareASeat(const v1::Decision& a, const v1::Decision& b) {
  for (const auto& p : a.prompts())
    if (PromptOf(b, p.seat()) != nullptr) return true;
  return false;
}

// Calls `f(i)` for each open decision of `queue`, in queue order: the first, then, while every
// decision so far was asked alongside, each following one asked alongside whose seats no
// decision before it asks (a seat's own decisions open one after the other). A decision not
// asked alongside waits until it is first, and holds back those after it: a reaction put in
// front interrupts the choices made alongside.
template <typename F>
void ForEachOpen(const google::protobuf::RepeatedPtrField<v1::Decision>& queue, F f) {
  if (queue.empty()) return;
  f(0);
  if (!queue[0].alongside()) return;
  for (int i = 1; i < queue.size() && queue[i].alongside(); ++i) {
    bool waits = false;
    for (int j = 0; j < i && !waits; ++j) waits = ShareASeat(queue[i], queue[j]);
    if (!waits) f(i);
  }
}

// The open decision of `queue` that asks `seat`, answered or not: at most one, open decisions
// sharing no seat. -1 when none.
int OpenIndexOf(const google::protobuf::RepeatedPtrField<v1::Decision>& queue, int seat) {
  int found = -1;
  ForEachOpen(queue, [&](int i) {
    if (found < 0 && PromptOf(queue[i], seat) != nullptr) found = i;
  });
  return found;
}

}  // namespace

const v1::Decision* State::OpenDecisionOf(int seat) const {
  const int i = OpenIndexOf(table().decisions(), seat);
  return i < 0 ? nullptr : &table().decisions(i);
}

std::vector<int> State::ActingNow() const {
  const auto& queue = table().decisions();
  if (queue.empty()) return GameActingSeats();
  std::vector<int> out;
  ForEachOpen(queue, [&](int i) {
    for (const auto& p : queue[i].prompts())
      if (!Answered(queue[i], p.seat())) out.push_back(p.seat());
  });
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<v1::Prompt> State::OpenPrompts(int seat) const {
  if (table().decisions_size() == 0) return GamePrompts(seat);
  const v1::Decision* open = OpenDecisionOf(seat);
  if (open == nullptr || Answered(*open, seat)) return {};
  std::vector<v1::Prompt> out;
  out.push_back(WordedPrompt(*open, seat));
  return out;
}

v1::Prompt State::WordedPrompt(const v1::Decision& decision, int seat) const {
  const v1::Prompt& asked = *PromptOf(decision, seat);
  std::optional<v1::Prompt> worded = GameWordPrompt(decision, asked);
  if (!worded) return asked;
  // Whatever the game words again, the question stays the one asked of this seat.
  worded->set_seat(seat);
  worded->set_id(asked.id());
  return std::move(*worded);
}

Status State::CheckAnswerRules(int seat, const Message& action, const v1::Answer& answer) const {
  if (table().decisions_size() == 0) return DoValidate(seat, action);
  const v1::Decision* open = OpenDecisionOf(seat);
  if (open == nullptr) return Status(codes::kNothingAsked, "Nothing is asked of you now.");
  return GameCheckAnswer(*open, seat, answer);
}

void State::Ask(std::vector<v1::Prompt> prompts, int kind, const Message& resume,
                v1::DefaultPolicy by_default, bool reaction) {
  Enqueue(std::move(prompts), kind, resume, by_default, reaction, /*alongside=*/false);
}

void State::AskAlongside(std::vector<v1::Prompt> prompts, int kind, const Message& resume,
                         v1::DefaultPolicy by_default) {
  Enqueue(std::move(prompts), kind, resume, by_default, /*reaction=*/false, /*alongside=*/true);
}

void State::Enqueue(std::vector<v1::Prompt> prompts, int kind, const Message& resume,
                    v1::DefaultPolicy by_default, bool reaction, bool alongside) {
  // Asking nobody, a seat twice, or passing by default without a pass is the game's bug: it
  // would leave a position nobody can leave, so it stops loudly here.
  if (prompts.empty()) std::abort();
  std::sort(prompts.begin(), prompts.end(),
            [](const v1::Prompt& a, const v1::Prompt& b) { return a.seat() < b.seat(); });
  v1::Decision d;
  for (auto& p : prompts) {
    if (p.seat() < 0 || p.seat() >= num_seats_) std::abort();
    if (d.prompts_size() > 0 && d.prompts(d.prompts_size() - 1).seat() == p.seat()) std::abort();
    if (by_default == v1::DEFAULT_PASS && p.kind() != v1::PROMPT_YES_NO) {
      const auto& options = game_->OptionsOf(p);
      if (std::none_of(options.begin(), options.end(),
                       [](const v1::PromptOption& o) { return o.id() == "pass"; }))
        std::abort();
    }
    p.set_id(NewPromptId(p.seat()));
    *d.add_prompts() = std::move(p);
  }
  d.set_kind(kind);
  DeterministicBytesInto(resume, d.mutable_resume());
  d.set_by_default(by_default);
  d.set_reaction(reaction);
  d.set_alongside(alongside);
  auto* queue = mutable_table()->mutable_decisions();
  queue->Add(std::move(d));
  // A reaction interrupts: it moves to the front, before the decisions already waiting.
  if (reaction)
    for (int i = queue->size() - 1; i > 0; --i) queue->SwapElements(i, i - 1);
}

void State::AnswerFor(int seat, v1::Answer answer) {
  const v1::Decision* open = OpenDecisionOf(seat);
  // Answering a question nobody asks, or one already answered, is the game's bug.
  if (open == nullptr || Answered(*open, seat)) std::abort();
  answer.set_prompt_id(PromptOf(*open, seat)->id());
  AnswerDecision(seat, answer);
}

void State::Defer(int kind, const Message& effect) {
  v1::Effect* e = mutable_table()->add_deferred();
  e->set_kind(kind);
  DeterministicBytesInto(effect, e->mutable_data());
}

void State::ResolveDeferred(v1::StackOrder order) {
  mutable_table()->set_resolving(order == v1::STACK_IDLE ? v1::STACK_IN_ORDER : order);
  // Settled by the core once the move that called this returns (Settle), so an effect resolves
  // with the game's move complete.
}

v1::Answer State::GameDefaultAnswer(const v1::Decision& decision, int seat) const {
  if (PromptOf(decision, seat) == nullptr) return v1::Answer();
  const v1::Prompt worded = WordedPrompt(decision, seat);
  return PlainAnswer(worded, game_->OptionsOf(worded));
}

v1::Answer State::QueueDefault(const v1::Decision& decision, const v1::Prompt& prompt,
                               int seat) const {
  v1::Answer out;
  switch (decision.by_default()) {
    case v1::DEFAULT_PASS:
      if (prompt.kind() == v1::PROMPT_YES_NO) {
        out.set_yes(false);
      } else {
        out.add_options("pass");
      }
      break;
    case v1::DEFAULT_GAME:
      out = GameDefaultAnswer(decision, seat);
      break;
    default:
      out = PlainAnswer(prompt, game_->OptionsOf(prompt));
      break;
  }
  out.set_prompt_id(prompt.id());
  return out;
}

void State::ApplyValid(int seat, const Message& action, const v1::CoreAction* core) {
  const bool asked = table().decisions_size() > 0;
  if (asked && core != nullptr && core->has_answer()) {
    AnswerDecision(seat, core->answer());
  } else if (std::optional<v1::Answer> typed =
                 asked && core == nullptr ? GameAnswerOf(seat, action) : std::nullopt) {
    // Stored as the answer it stands for, with the question's id as a core answer carries it.
    if (const v1::Decision* open = OpenDecisionOf(seat))
      if (const v1::Prompt* p = PromptOf(*open, seat)) typed->set_prompt_id(p->id());
    AnswerDecision(seat, *typed);
  } else {
    DoApply(seat, action);
  }
  Settle();
}

void State::AnswerDecision(int seat, const v1::Answer& answer) {
  auto* queue = mutable_table()->mutable_decisions();
  const int at = OpenIndexOf(*queue, seat);
  // Validation routed the answer here only while an open decision asks the seat.
  if (at < 0) std::abort();
  v1::Decision* open = queue->Mutable(at);
  v1::SeatAnswer given;
  given.set_seat(seat);
  *given.mutable_answer() = answer;
  // Kept in seat order, so the game resumes alike whoever answered first.
  auto* answers = open->mutable_answers();
  answers->Add(std::move(given));
  for (int i = answers->size() - 1; i > 0 && answers->Get(i - 1).seat() > seat; --i)
    answers->SwapElements(i, i - 1);
  GameAnswered(*open, seat, answer);
  if (answers->size() < open->prompts_size()) return;
  v1::Decision done;
  done.Swap(open);
  queue->DeleteSubrange(at, 1);
  GameResume(done);
}

void State::Settle() {
  if (table().resolving() == v1::STACK_IDLE) return;  // every move of a game without effects
  v1::TableState* t = mutable_table();
  while (t->resolving() != v1::STACK_IDLE && t->decisions_size() == 0 && !GameOver()) {
    if (t->deferred_size() == 0) {
      t->set_resolving(v1::STACK_IDLE);
      GameDeferredResolved();
      continue;  // the game may have deferred and resolved anew
    }
    const int at = t->resolving() == v1::STACK_LAST_FIRST ? t->deferred_size() - 1 : 0;
    v1::Effect effect;
    effect.Swap(t->mutable_deferred(at));
    t->mutable_deferred()->DeleteSubrange(at, 1);
    GameResolve(effect);
  }
}

void State::RedrawPendingAnswers(int seat, Rng& rng) {
  // Only open decisions hold answers; one asked of a single seat is resumed on its answer and
  // never holds one. Nothing asked, the position is left untouched: even an empty core share
  // written into it would change its bytes.
  if (table().decisions_size() == 0) return;
  for (v1::Decision& open : *mutable_table()->mutable_decisions()) {
    if (open.answers_size() == 0 || GameRedrawsAnswers(open)) continue;
    for (auto& given : *open.mutable_answers()) {
      if (given.seat() == seat) continue;
      const v1::Prompt p = WordedPrompt(open, given.seat());
      // A few draws: the game may refuse some well-shaped answers; the given one stays otherwise.
      for (int tries = 0; tries < 8; ++tries) {
        v1::Answer drawn = DrawAnswer(p, game_->OptionsOf(p), rng);
        drawn.set_prompt_id(p.id());
        if (GameCheckAnswer(open, given.seat(), drawn).ok()) {
          *given.mutable_answer() = std::move(drawn);
          break;
        }
      }
    }
  }
}

}  // namespace plateau::engine
