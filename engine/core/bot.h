#pragma once
// Bots: players that see exactly one seat's view, as a client does, never the State. The server
// runs them in seats and the load generator plays with them; whatever they choose goes through
// the same validation as a person's move.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/game.h"
#include "engine/core/rng.h"

namespace plateau::engine {

enum class BotLevel {
  kEasy = 1,    // plausible and quick: an answer drawn from its question, or one of the moves
                // the view publishes, drawn by the game's weights (Game::EasyBotWeights)
  kNormal = 2,  // searches (SearchMoves) over positions drawn from its seat's view
};

// The names players see and the protocol carries ("easy").
std::string_view BotLevelName(BotLevel level);

// What `seat` would play seeing only `view`, best first: the first is the bot's choice and the
// others are what it tries if the rules refuse it (a drawn answer may be refused). Empty
// when the view asks nothing of the seat, or `view` is not this game's.
std::vector<std::unique_ptr<Message>> BotMoves(const Game& game, const Message& view, int seat,
                                               BotLevel level, Rng& rng);

// Easy-bot weights (Game::EasyBotWeights) giving each group of moves, as `group` names it from a
// move's action, the same share, split evenly among the actions the group holds (a family's
// members counted): a player picks a card, then one way to play it, however many ways it has. A
// move `group` names no group for weighs 0.
std::vector<uint32_t> EvenShareWeights(
    const std::vector<PublishedMove>& moves,
    const std::function<std::optional<std::string>(const Message& action)>& group);

// The indexes 0..count-1 in an order drawn by weight, without replacement: each next one is
// drawn with a chance proportional to its weight among those left. Those weighing 0 are left out,
// unless all do or `weights` does not have `count` of them: then all weigh alike, so a bot is
// never left without a move.
std::vector<size_t> WeightedOrder(std::vector<uint32_t> weights, size_t count, Rng& rng);

// How long a search may run. The engine reads no clock: a caller with a deadline in
// milliseconds (the server) says when to stop through `stop`, asked between playouts; a caller
// that wants the same choice every time (tests, the bots' benchmark) counts playouts instead.
struct SearchBudget {
  int max_playouts = 2000;
  // Actions a playout plays after the move before it scores the position (by the game's Scores);
  // 0 plays to the end. Short horizons suit games whose score tells who is ahead.
  int horizon = 0;
  // Moves weighed at most: a position with more legal moves has a random subset of them
  // searched (the game's default move always among them).
  int max_candidates = 32;
  std::function<bool()> stop;
};

struct SearchStats {
  int playouts = 0;
  int candidates = 0;
};

// The normal level: what `seat` would play in `sample`, best first, by flat Monte Carlo search.
// `sample` must be a State::SampleForSeat of the position, never the position itself: it then
// holds nothing the seat cannot see, and every playout draws what is hidden again from it. Each
// candidate move is played in a fresh draw and the game played on by random moves; a playout
// scores the seat by the share of seats it beats at the end (the game's ranks), or at the horizon
// by its lead over the best other score (Scores()); the playouts go to the candidates by UCB1.
// What a game knows of the world beyond the view (Globalissimo: roughly where a country stands,
// a capital half remembered) enters only through its PerturbMore and BotIdeas, as its RULES.md
// describes. Empty when the seat may not act.
std::vector<std::unique_ptr<Message>> SearchMoves(const State& sample, int seat,
                                                  const SearchBudget& budget, Rng& rng,
                                                  SearchStats* stats = nullptr);

// An answer to `prompt` (one of `seat`'s questions) drawn from its description until the game
// accepts one, at most `tries` draws; null when none was. For questions that list no answers.
std::unique_ptr<Message> DrawAcceptedAnswer(const State& state, int seat, const v1::Prompt& prompt,
                                            int tries, Rng& rng);

// One random move for `seat` in `state`, as the search's playouts choose: a legal action, a
// well-shaped answer the game accepts when its question lists none, or the default move.
std::unique_ptr<Message> RandomMove(const State& state, int seat, Rng& rng);

}  // namespace plateau::engine
