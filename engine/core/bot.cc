#include "engine/core/bot.h"

#include "plateau/v1/table.pb.h"

namespace plateau::engine {

std::string_view BotLevelName(BotLevel level) {
  switch (level) {
    case BotLevel::kEasy:
      return "easy";
  }
  return "easy";
}

std::vector<std::unique_ptr<Message>> BotMoves(const Game& game, const Message& view, int seat,
                                               BotLevel level, Rng& rng) {
  (void)level;  // one level so far
  std::vector<std::unique_ptr<Message>> out;
  if (view.GetDescriptor() != game.ViewPrototype().GetDescriptor() || seat < 0) return out;
  // The core's share of every view (Game::CheckContract): its questions.
  const auto* field = view.GetDescriptor()->FindFieldByName("table");
  if (field == nullptr || field->message_type() != v1::Table::descriptor()) return out;
  const auto& table = static_cast<const v1::Table&>(view.GetReflection()->GetMessage(view, field));
  for (const v1::Prompt& prompt : table.prompts()) {
    if (static_cast<int>(prompt.seat()) != seat) continue;
    // A drawn answer has the right shape; the game may still refuse it (an order its rules
    // forbid), and then the plainest one is the fallback.
    out.push_back(game.WrapAnswer(DrawAnswer(prompt, game.OptionsOf(prompt), rng)));
    out.push_back(game.WrapAnswer(PlainAnswer(prompt, game.OptionsOf(prompt))));
    return out;
  }
  out = game.MovesFromView(view, seat);
  // A uniformly shuffled order (Fisher-Yates on the engine's generator: the same on every
  // platform).
  for (size_t i = out.size(); i > 1; --i) std::swap(out[i - 1], out[rng.Below(i)]);
  return out;
}

}  // namespace plateau::engine
