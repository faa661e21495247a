#pragma once
// Globalissimo (2-6 players): guess where countries rank in a statistic, move along the score
// track, answer geography questions to pass barriers. Rules and decisions: RULES.md.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/game.h"
#include "engine/core/typed_state.h"
#include "engine/games/globalissimo/globalissimo_data.pb.h"
#include "engine/games/globalissimo/globalissimo_state.pb.h"
#include "games/globalissimo.pb.h"

namespace plateau::games::globalissimo {

// Stable codes of refused actions (besides the engine's shared ones).
namespace codes {
inline constexpr const char* kWrongPhase = "wrong_phase";
inline constexpr const char* kBadSlot = "bad_slot";
inline constexpr const char* kSlotTaken = "slot_taken";
inline constexpr const char* kBadPosition = "bad_position";
inline constexpr const char* kAlreadyPlaced = "already_placed";
inline constexpr const char* kWrongQuestionKind = "wrong_question_kind";
inline constexpr const char* kEmptyAnswer = "empty_answer";
inline constexpr const char* kAnswerTooLong = "answer_too_long";
inline constexpr const char* kBadText = "bad_text";
inline constexpr const char* kBadMapId = "bad_map_id";
}  // namespace codes

inline constexpr int kMaxAnswerChars = 100;
inline constexpr uint32_t kBookRounds = 10;

// One square of the score track: the start square, a score square or a barrier square.
struct TrackCell {
  int barrier = -1;       // index of the barrier slot (BoardDef order), -1 for other squares
  uint32_t distance = 0;  // score squares from the start (for a barrier: those before it)
};

class GlobalissimoGame : public engine::TypedGame<Options, Action, View> {
 public:
  // Parses and checks the data files' texts (a CardSet and a BoardDef in text format). A bad file
  // gives a bad_data Status naming the file and the problem.
  static engine::StatusOr<std::unique_ptr<GlobalissimoGame>> FromData(
      std::string_view cards_text, std::string_view board_text, std::string_view texts_text);

  engine::StatusOr<std::unique_ptr<engine::State>> Deserialize(
      std::string_view bytes) const override;

  // A state holding exactly `position`, after the same consistency checks as Deserialize. Tests
  // use it to set up situations (ties, barriers) that a seed would only reach by luck.
  engine::StatusOr<std::unique_ptr<engine::State>> FromProto(
      const internal::StateProto& position) const;

  const data::CardSet& cards() const { return cards_; }
  const data::BoardDef& board() const { return board_; }
  const std::vector<TrackCell>& track() const { return track_; }
  // What a map answer may point at (the board's regions, or the deck's countries).
  const std::vector<std::string>& map_regions() const { return map_regions_; }
  // The country a map answer points at, by name ("(no country)" for an id of none): a refused
  // answer is public, and a name is what players read.
  const std::string& RegionName(const std::string& map_id) const;
  // The same country as a view names it: a deck country by its card's id (StaticData.countries
  // has its face), any other region by its name, which no static data carries.
  const std::string& RegionRef(const std::string& map_id) const;
  // Country `card`'s value in `category` as players read it, with its unit (FormatValue). Built
  // once: a revealed card's text is in every view of the rest of its round and the next.
  const std::string& ValueText(uint32_t card, uint32_t category) const {
    return value_texts_[card * static_cast<size_t>(cards_.categories_size()) + category];
  }
  // The option set of the map question (GamePrompts): one option per region.
  static constexpr const char* kMapOptionSet = "globalissimo.map";
  // Cards laid out per round: 5 for 2-4 players, 6 for 5-6.
  static int CardsOnDisplay(int num_seats) { return num_seats >= 5 ? 6 : 5; }


 private:
  GlobalissimoGame(data::CardSet cards, data::BoardDef board);
  engine::Status ValidateTypedOptions(int num_seats, const Options& options) const override;
  // Cards, pawns and the question, compactly (the whole view is mostly the score track).
  std::string GameViewText(const engine::Message& view, const SeatNamer& seat_name) const override;
  std::unique_ptr<engine::State> NewTypedState(int num_seats, const Options& options,
                                               uint64_t seed) const override;
  // "" when `s` is a position this game can hold, else what is wrong with it.
  std::string CheckPosition(const internal::StateProto& s) const;

  data::CardSet cards_;
  data::BoardDef board_;
  std::vector<TrackCell> track_;
  std::vector<std::string> map_regions_;
  std::map<std::string, std::string> region_names_;
  std::map<std::string, std::string> region_cards_;  // map id -> id of the deck's card there
  std::vector<std::string> value_texts_;  // [card * categories + category]
};

class GlobalissimoState final
    : public engine::TypedState<GlobalissimoState, internal::StateProto, Action, View> {
 public:
  GlobalissimoState(const GlobalissimoGame* game, internal::StateProto position);

  std::vector<int64_t> Scores() const override;
  std::string ResultDetail(int seat) const override;

  // Sets up round 1 of a new game from the seed (shuffles, barrier colours, first deal).
  void Setup(uint32_t total_rounds, uint64_t seed);

 protected:
  engine::Status TypedValidate(int seat, const Action& action) const override;
  void TypedApply(int seat, const Action& action) override;
  std::vector<Action> TypedLegalActions(int seat) const override;
  bool TypedTakeBackSafe(int seat, const Action& action) const override;
  void GamePublishMoves(int seat,
                        google::protobuf::RepeatedPtrField<engine::v1::MoveChoice>* out) const override;
  void TypedPublicView(globalissimo::View* view) const override;
  void TypedPrivateView(int seat, globalissimo::View* view) const override;
  std::vector<int> GameActingSeats() const override;
  bool GameOver() const override { return s_.phase() == PHASE_GAME_OVER; }
  std::vector<int> GameRanks() const override;
  std::vector<engine::v1::Prompt> GamePrompts(int seat) const override;
  size_t LogLimit() const override { return 40; }
  // The deck, face down. The categories still to come are hidden too (PerturbMore).
  std::vector<engine::Zone> GameZones() const override;
  engine::Zone DeckZone() const;
  void PerturbMore(int seat, engine::Rng& rng) override;
 public:
  // What a well-read player recalls at a barrier question: the right answer, most of the time.
  std::vector<std::unique_ptr<engine::Message>> BotIdeas(int seat, engine::Rng& rng) const override;
  // A resigned seat (or, later, one out of time) at a barrier question answers wrongly (an
  // answer no country has).
  std::unique_ptr<engine::Message> DefaultAction(int seat) const override;
 protected:

 private:
  const GlobalissimoGame& g() const { return *game_; }
  const data::CountryDef& Country(uint32_t card) const {
    return g().cards().countries(static_cast<int>(card));
  }
  int CurrentScorer() const;
  int CurrentPlacer() const;
  uint32_t DrawCard();
  void StartRound();
  void RevealAndScore();
  void ContinueScoring();
  void FinishMove();
  void EndRound();
  // Records that `barrier`'s question may now be answered in the open (View.settled).
  void Settle(const internal::BarrierState& barrier, int answered_by);
  // `given` is kept among the refused answers (as a view names it), `said` is what the log says.
  void ResolveAnswer(int seat, bool correct, const std::string& given, const std::string& said);
  // The typed move an answer given through the core stands for (other actions unchanged).
  Action Typed(const Action& action) const;
  // Written in place: a view may be built on an arena, where a copy would allocate twice.
  void SlotView(const internal::SlotState& slot, uint32_t category, bool revealed,
                DisplaySlot* out) const;

  // Where a country stands among all the countries in a category: 0 lowest, 1 highest.
  double Standing(uint32_t card, int category) const;

  const GlobalissimoGame* game_;
};

// "1,234,567.8 km²": the value rounded to the category's decimals, with thousands separators.
std::string FormatValue(double value, uint32_t decimals, std::string_view unit);

}  // namespace plateau::games::globalissimo
