#pragma once
// LIMIT (1-6 nations; solo against the star nation): lead a nation from 1850 to 2060 under
// planetary limits. Rules and decisions: RULES.md.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/game.h"
#include "engine/core/typed_state.h"
#include "engine/games/limit/limit_data.pb.h"
#include "engine/games/limit/limit_state.pb.h"
#include "games/limit.pb.h"

namespace plateau::games::limit {

// Stable codes of refused actions (besides the engine's shared ones).
namespace codes {
inline constexpr const char* kWrongPrompt = "wrong_prompt";
inline constexpr const char* kNotInHand = "not_in_hand";
inline constexpr const char* kBadParameter = "bad_parameter";
inline constexpr const char* kCannotPay = "cannot_pay";
inline constexpr const char* kBadTarget = "bad_target";
inline constexpr const char* kBadClass = "bad_class";
inline constexpr const char* kBadFactory = "bad_factory";
inline constexpr const char* kBadDeck = "bad_deck";
inline constexpr const char* kBadCards = "bad_cards";
inline constexpr const char* kBadTransaction = "bad_transaction";
inline constexpr const char* kTooManyCards = "too_many_cards";
inline constexpr const char* kNotRemovable = "not_removable";
inline constexpr const char* kAlreadyTried = "already_tried";
inline constexpr const char* kBadAlliance = "bad_alliance";
inline constexpr const char* kBadAmount = "bad_amount";
}  // namespace codes

inline constexpr int kStarTarget = -2;  // PlayCard.target naming the solo star nation
inline constexpr int kClasses = 5;
inline constexpr uint32_t kAllianceFee = 2;  // $ to the World Bank to validate an alliance
// HelpRequest.purpose values besides the social steps.
inline constexpr uint32_t kPurposeMilitaryCrisis = 100;
inline constexpr uint32_t kPurposeResist = 101;

// Names inside phrases (catalogue keys limit.alliance.*, limit.res.*).
engine::v1::Text KindText(AllianceKind k);
engine::v1::Text ResourceText(Resource r);
// The resource's word for `count` of it, singular or plural, without the number ("1 fossil
// token", "3 fossil tokens" once the phrase puts the number before it).
engine::v1::Text ResourceCountText(Resource r, uint32_t count);

// The values a card's "factory" / "resource" parameter may take (empty when it has none). The
// play checks against them and the card's view lists them, so the two cannot disagree.
std::vector<Factory> FactoryOptions(const data::CardDef& c);
std::vector<Resource> ResourceOptions(const data::CardDef& c);

class LimitGame : public engine::TypedGame<Options, Action, View> {
 public:
  // Parses and checks the data files (a CardSet and a BoardDef in text format); a bad file gives
  // a bad_data Status naming the file and the problem.
  static engine::StatusOr<std::unique_ptr<LimitGame>> FromData(std::string_view cards_text,
                                                               std::string_view board_text,
                                                               std::string_view texts_text);

  engine::StatusOr<std::unique_ptr<engine::State>> Deserialize(
      std::string_view bytes) const override;
  // A state holding exactly `position` (tests build situations from it).
  engine::StatusOr<std::unique_ptr<engine::State>> FromProto(
      const internal::StateProto& position) const;

  const data::CardSet& cards() const { return cards_; }
  const data::BoardDef& board() const { return board_; }
  const data::CardDef& card(uint32_t id) const { return cards_.cards(static_cast<int>(id)); }
  int CardByKey(std::string_view key) const;  // -1 when unknown
  // A card with every printed field, built once: the static data's entry, which views name by
  // id (the owner's view adds `playable` and the prices).
  const Card& CardTemplate(uint32_t id) const { return static_->cards(static_cast<int>(id)); }
  int CardCount() const { return static_->cards_size(); }
  // Which PlayCard parameters a card uses, parsed once from its `params`.
  struct ParamUse {
    bool factory = false, resource = false, classes = false, transactions = false, deck = false;
  };
  const ParamUse& Params(uint32_t id) const { return param_use_[id]; }

  // The easy bot's weights over the moves a view publishes (limit_moves.cc).
  std::vector<uint32_t> EasyBotWeights(const engine::Message& view, int seat,
                                       const std::vector<engine::PublishedMove>& moves) const override;

 private:
  LimitGame(data::CardSet cards, data::BoardDef board);
  std::unique_ptr<engine::State> NewTypedState(int num_seats, const Options& options,
                                               uint64_t seed) const override;
  // Each nation's board and the world in a few lines (the whole view runs to hundreds).
  std::string GameViewText(const engine::Message& view, const SeatNamer& seat_name) const override;
  data::CardSet cards_;
  data::BoardDef board_;
  std::vector<ParamUse> param_use_;
  // The game's static data (owned by the Game base): cards, board, prices, events.
  const limit::StaticData* static_ = nullptr;
};

class LimitState final : public engine::TypedState<LimitState, internal::StateProto, Action, View> {
 public:
  LimitState(const LimitGame* game, internal::StateProto position);

  std::vector<int64_t> Scores() const override;
  std::string ResultDetail(int seat) const override;
  // Solo: whether the nation's score passes the star nation's mark (board().solo_target()).
  bool SoloWon() const;
  // For a resigned nation (or, later, one out of time): pass on a political or Alliance-step
  // turn (playing a card is never forced);
  // a question gets the core's plain answer (the first option, the lowest amount, no).
  std::unique_ptr<engine::Message> DefaultAction(int seat) const override;

  void Setup(const Options& options, uint64_t seed);
  // Tests: direct access to the position (then call Advance() to run automatic steps).
  internal::StateProto& mutable_proto() { return s_; }
  void Advance();
  // Score sheet line of a nation as the book computes it (also valid before the end).
  ScoreLine ScoreOf(int seat) const;

  // Rule helpers, public for the tests.
  uint32_t PopValue(int rank) const;
  uint32_t TrackValue(Factory f, int rank) const;
  int MaxRank(int seat, Factory f) const;
  bool CanRaiseClass(int seat, int c) const;
  // Whether the classes can rise one step each in the order named: each step in turn keeps its
  // class under the top and below the class above it (a raise's validation, and its moves' steps).
  bool ClassStepsFit(int seat, const google::protobuf::RepeatedField<uint32_t>& steps) const;
  bool CanLowerClass(int seat, int c) const;
  void StartSocial(bool resilience);
  // One social step of one nation, one production, one international sub-step: the tests replay
  // the book's examples through them.
  void SocialStepRun(int seat, SocialStep step);
  void Produce(int seat, Factory f, bool shortage_penalty);
  void RunInternational();

 protected:
  engine::Status TypedValidate(int seat, const Action& action) const override;
  void TypedApply(int seat, const Action& action) override;
  std::vector<Action> TypedLegalActions(int seat) const override;
  bool TypedTakeBackSafe(int seat, const Action& action) const override;
  std::vector<engine::v1::ActionFamily> GameActionFamilies(int seat) const override;
  // The nation's moves as a tree, every leaf a play the rules accept (limit_moves.cc).
  void GamePublishMoves(int seat,
                        google::protobuf::RepeatedPtrField<engine::v1::MoveChoice>* out) const override;
  void GameCanonicalize(int seat, engine::Message& action) const override;
  void TypedPublicView(limit::View* view) const override;
  void TypedPrivateView(int seat, limit::View* view) const override;
  // Each nation's hand and draw (its own eyes), its three decks (face down, backs showing the
  // deck), the cards in play (everyone) and the solo event deck.
  std::vector<engine::Zone> GameZones() const override;
  // The zones one by one, for the view to show pieces through (engine::VisiblePieces).
  engine::Zone HandZone(int nation) const;
  engine::Zone DrawnZone(int nation) const;
  engine::Zone DeckZone(int nation, int deck) const;
  engine::Zone InPlayZone(int nation) const;
  void PerturbMore(int seat, engine::Rng& rng) override;
  // Parts of PerturbMore: the money other nations have already given to a shared payment, and
  // what they offered to an alliance fee or to a request for help.
  void RedrawContributions(int seat, engine::Rng& rng);
  void RedrawAllianceAnswers(int seat, engine::Rng& rng);
  std::unique_ptr<engine::State> CopyPosition() const override {
    // The position only: copying the action history too would make each call grow with the game.
    return std::make_unique<LimitState>(game_, s_);
  }
  std::vector<int> GameActingSeats() const override;
  // The questions asked through the core's queue (a nation's own choices, the shared payment's
  // contributions, alliance votes and fees): their checks, each answer as it is given, the
  // resumption, and what else an asked nation may do.
  engine::Status GameCheckAnswer(const engine::v1::Decision& decision, int seat,
                                 const engine::v1::Answer& answer) const override;
  void GameAnswered(const engine::v1::Decision& decision, int seat,
                    const engine::v1::Answer& answer) override;
  void GameResume(const engine::v1::Decision& decision) override;
  std::optional<engine::v1::Answer> GameAnswerOf(int seat,
                                                 const engine::Message& action) const override;
  // A removable card may go while a question is open, as before the queue (see ActRemove).
  bool GameMovesWhileAsked() const override { return true; }
  // The table sees how much is still missing: RedrawContributions keeps it (the core's uniform
  // redraw would not).
  bool GameRedrawsAnswers(const engine::v1::Decision& decision) const override;
  bool GameOver() const override { return s_.phase() == PHASE_GAME_OVER; }

 private:
  const LimitGame& g() const { return *game_; }
  const data::BoardDef& board() const { return game_->board(); }
  internal::NationState& N(int seat) { return *s_.mutable_nations(seat); }
  const internal::NationState& N(int seat) const { return s_.nations(seat); }
  int Seats() const { return static_cast<int>(s_.nations_size()); }

  // Checks `action` for `seat` and, when `apply`, applies it. Every check comes before the first
  // change, so with apply == false nothing is written (TypedValidate relies on it, which spares
  // a copy of the position per candidate action).
  engine::Status Act(int seat, const Action& action, bool apply);
  // A market card checked without applying (`apply` false) is paid on a copy of the position:
  // `paid`, when given (a copy made by the caller), is left as the payment leaves it.
  engine::Status ActPlay(int seat, const PlayCard& play, bool apply, LimitState* paid = nullptr);
  // A nation's answer to its choice `c`, as the typed move it stands for.
  engine::Status ActChoice(int seat, const internal::Choice& c, const Action& action, bool apply);
  engine::Status ActRemove(int seat, uint32_t id, bool apply);
  engine::Status ActAllianceTurn(int seat, const Action& action, bool apply);
  // Pays a validated card's cost and resolves it (resistance, reform draw, effect).
  engine::Status PayAndPlay(int seat, const PlayCard& play);
  struct PlayCost {
    uint32_t money = 0;     // $ to the World Bank and the LIMIT box
    uint32_t gift = 0;      // $ to the target
    uint32_t military = 0;  // military spent (including the war commitment)
  };
  PlayCost CostOf(int seat, const PlayCard& play) const;
  // Whether the price of `play` (CostOf, plus the bank, resource and factory parts) can be paid
  // now. The play and the hand's playable flag both ask this, so they cannot disagree.
  engine::Status CheckCost(int seat, const PlayCard& play) const;
  // The Alliance-step moves open to `seat` now (pass first): the legal actions and the prompt
  // both list these.
  std::vector<Action> AllianceTurnMoves(int seat) const;
  // GamePublishMoves' parts: one card's plays, and a market card's transactions after its other
  // parameters (`base`, the play without them).
  void PublishPlays(int seat, uint32_t id,
                    google::protobuf::RepeatedPtrField<engine::v1::MoveChoice>* out) const;
  void PublishTransactions(int seat, const Action& base,
                           google::protobuf::RepeatedPtrField<engine::v1::MoveChoice>* out) const;
  // The nation may play a card now (its political turn, fewer than two cards, nothing owed).
  bool MayPlayCards(int seat) const;
  // Transactions one market card may make (the play checks it; hand cards show it).
  int MaxTransactions(int seat) const;

  // Engine steps.
  void StartGeneration();
  void EnterPolitical();
  void EndTurn();
  void EndPolitical();
  void RunSocial(int seat);
  void EndGeneration();
  void FinishGame();
  void ResolvePending();
  void FinishPlay(int seat);
  // Resolves a played card's effect; a card aimed at another nation also logs what it did to it.
  void ApplyEffect(int seat, const PlayCard& play, bool resisted);
  void ResolveEffect(int seat, const PlayCard& play);
  void ApplyEvent();

  // Alliances (limit_alliance.cc).
  uint32_t Group(int seat, AllianceKind k) const;
  bool Accord(int seat, AllianceKind k) const;
  void SetGroup(int seat, AllianceKind k, uint32_t group, bool accord);
  std::vector<int> Members(AllianceKind k, uint32_t group) const;
  std::vector<int> Allies(int seat, AllianceKind k) const;  // other members of its alliance
  engine::Status CheckProposal(int seat, AllianceKind k, int to) const;
  engine::Status CheckExclusion(int seat, AllianceKind k, int who) const;
  void StartAllianceStep();
  void NextAllianceTurn();
  void ResolveAlliancePending();
  void FormAlliance(AllianceKind k, int a, int b);
  void LeaveAlliance(int seat, AllianceKind k, bool lock_rest);
  void Demilitarise();
  void BreakAlliance(int seat, AllianceKind k);
  // Help between allies. Returns true when the caller must stop and wait: a request was just
  // opened, or one for `purpose` is not settled yet.
  bool AskHelp(int seat, uint32_t purpose, AllianceKind k, Resource r, uint32_t missing);
  void ResolveHelp(int seat);
  uint32_t AlliedStock(int seat, AllianceKind k, Resource r) const;
  bool HelpWaiting(int seat) const;
  void MilitaryCrisisSpending();

  // Choices: each a decision of the core's queue asked of one nation alongside the others'
  // (AskAlongside), its PromptKind the decision's kind and the Choice, count and reason, its
  // resume. Nations choose independently, each answer applied at once (GameResume).
  // The Choice with its reason, for AskChoice.
  static internal::Choice MakeChoice(PromptKind kind, uint32_t count, engine::v1::Text why);
  // Asks `c` of `seat`; `first`: before the nation's other decisions (the cards to keep after a
  // deck is chosen, a choice repeated).
  void AskChoice(int seat, const internal::Choice& c, bool first = false);
  // A choice the rules owe (a shortage, a boom): none when `count` is 0, and answered by the
  // rules at once when the position leaves it one option (AutoResolve).
  void AskOwed(int seat, PromptKind kind, uint32_t count, engine::v1::Text why,
               bool growth_down = false);
  // The question a choice asks, worded from the position as it stands.
  engine::v1::Prompt WordChoice(int seat, const internal::Choice& c) const;
  // The typed move an answer to `c` stands for (an empty Action when it names nothing), and the
  // answer a typed move stands for (none when it is not this choice's move).
  Action ChoiceMove(int seat, const internal::Choice& c, const engine::v1::Answer& answer) const;
  std::optional<engine::v1::Answer> ChoiceAnswer(int seat, const internal::Choice& c,
                                                 const Action& action) const;
  std::optional<engine::v1::Prompt> GameWordPrompt(const engine::v1::Decision& decision,
                                                   const engine::v1::Prompt& asked) const override;
  // Answers the nation's open class or factory choice while the position leaves it one option
  // (none: "as far as possible", dropped), through the core (AnswerFor).
  void AutoResolve(int seat);
  std::vector<uint32_t> ChoiceOptions(int seat, const internal::Choice& c) const;
  // Whether a decision in the core's queue asks `seat` and has not its answer.
  bool Owes(int seat) const;
  // Whether the core's open decision asks `seat` and it has not answered yet.
  bool AskedNow(int seat) const;
  // What the view shows of the decision open for nation `i` (its first choice, else the core's
  // open question to it), described in the decision's resume, or null.
  const internal::Choice* ShownChoice(int i, internal::Choice* scratch) const;
  // Set while the rules answer a choice (AutoResolve): the resumption then leaves the game's
  // flow to the step that asked.
  bool answering_for_ = false;

  // Board operations.
  // Every change of disorder is logged with its cause (`why`, a phrase such as "class struggle"):
  // the social phase runs in one go, and its summary is read back from the log.
  void RaiseDisorder(int seat, uint32_t k, engine::v1::Text why);
  void LowerDisorder(int seat, uint32_t k, engine::v1::Text why);
  void GainDestab(int seat, uint32_t k);
  void GainPollution(int seat, uint32_t k);
  void StarGainPollution(uint32_t k);
  void StarGainDestab(uint32_t k);
  uint32_t LosePollution(int seat, uint32_t k);
  void RaiseClass(int seat, int c);
  void LowerClass(int seat, int c);
  void PopUp(int seat);
  void PopDown(int seat);
  void FactoryUp(int seat, Factory f, int k);
  void FactoryDown(int seat, Factory f, int k);
  void BankPay(int seat, uint32_t amount, bool crisis_rule);
  void AddCrisis(CrisisKind kind);
  bool HasCrisisThisGeneration(CrisisKind kind) const;
  int CrisisCount(CrisisKind kind) const;
  // Spends `per_unit` per population value at `rank` from `stock`, at the highest rank the stock
  // allows; returns the ranks not covered.
  uint32_t SpendByRank(uint32_t* stock, int rank, uint32_t* spent);
  void SpendIndustrial(int seat, uint32_t amount);
  void LoseTerritory(int seat);
  void UnderDeck(int seat, uint32_t card);
  bool HasPermanent(int seat, data::Effect e) const;
  engine::Status CheckTransactions(int seat, const PlayCard& play, bool apply);
  const internal::StarState* Star() const;
  // Written in place: a view may be built on an arena, where a copy would allocate twice.
  void CardView(uint32_t id, int viewer_seat, Card* out) const;
  bool CostPayable(int seat, uint32_t id) const;
  uint32_t HelperMoney(int seat, uint32_t id) const;  // $ others may add to this card's cost

  const LimitGame* game_;
};

}  // namespace plateau::games::limit
