#pragma once
// Guerre Froide (2 players: CIA vs KGB to 100 VP; 3 players: CIA vs KGB vs MI6 to 65 VP): secret
// agents and a race to the objective's stability. Rules and decisions: RULES.md.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/game.h"
#include "engine/core/typed_state.h"
#include "engine/games/guerre_froide/guerre_froide_cards.h"
#include "engine/games/guerre_froide/guerre_froide_state.pb.h"
#include "games/guerre_froide.pb.h"

namespace plateau::games::guerre_froide {

// Stable codes of refused actions (besides the engine's shared ones).
namespace codes {
inline constexpr const char* kWrongPhase = "wrong_phase";
inline constexpr const char* kAgentUnavailable = "agent_unavailable";
inline constexpr const char* kAlreadyChosen = "already_chosen";
inline constexpr const char* kPopulation = "population_limit";
inline constexpr const char* kMustRecruit = "must_recruit";
inline constexpr const char* kBadGroup = "bad_group";
inline constexpr const char* kBadTarget = "bad_target";
inline constexpr const char* kStability = "over_stability";
inline constexpr const char* kBadEvent = "bad_event";
inline constexpr const char* kNothingToDo = "nothing_to_do";
}  // namespace codes

inline constexpr uint32_t kGoalTwoPlayers = 100;
inline constexpr uint32_t kGoalThreePlayers = 65;
inline constexpr int kAnalystCards = 3;
inline constexpr int kSpaceRaceCards = 3;
inline constexpr uint32_t kCryptographerDrawVp = 5;
inline constexpr uint32_t kCryptographerBiasVp = 10;

class GuerreFroideGame : public engine::TypedGame<Options, Action, View> {
 public:
  // Parses and checks the card file and the text catalogue.
  static engine::StatusOr<std::unique_ptr<GuerreFroideGame>> FromData(std::string_view cards_text,
                                                                      std::string_view texts_text);

  engine::StatusOr<std::unique_ptr<engine::State>> Deserialize(
      std::string_view bytes) const override;
  // A state holding exactly `position`, after the same checks as Deserialize: tests set up the
  // situations of the rule book with it.
  engine::StatusOr<std::unique_ptr<engine::State>> FromProto(
      const internal::StateProto& position) const;

  const guerre_froide::StaticData& cards() const { return cards_; }
  const ObjectiveCard& objective(uint32_t i) const {
    return cards_.objectives(static_cast<int>(i));
  }
  const GroupCard& group(uint32_t i) const { return cards_.groups(static_cast<int>(i)); }
  // Index of the card with this id, -1 when none has it.
  int ObjectiveIndex(const std::string& id) const;
  int GroupIndex(const std::string& id) const;
  // The objective with this ability.
  int EventIndex(EventAbility event) const;
  const AgentCard& agent(AgentKind kind) const;

  // The easy bot's plain strategy over the published moves, so that struggles end: while an
  // average group still fits under the stability, recruiting, activating and the struggle's
  // events (Nuclear Escalation on one group); then passing. Read from the view alone.
  std::vector<uint32_t> EasyBotWeights(const engine::Message& view, int seat,
                                       const std::vector<engine::PublishedMove>& moves) const override;

 private:
  // The objective, the players' influence, groups and agents, in a few lines.
  std::string GameViewText(const engine::Message& view, const SeatNamer& seat_name) const override;
  explicit GuerreFroideGame(guerre_froide::StaticData cards);
  std::unique_ptr<engine::State> NewTypedState(int num_seats, const Options& options,
                                               uint64_t seed) const override;
  // "" when `s` is a position this game can hold, else what is wrong with it.
  std::string CheckPosition(const internal::StateProto& s) const;

  guerre_froide::StaticData cards_;
  std::map<std::string, int> objective_index_;
  std::map<std::string, int> group_index_;
};

class GuerreFroideState final
    : public engine::TypedState<GuerreFroideState, internal::StateProto, Action, View> {
 public:
  GuerreFroideState(const GuerreFroideGame* game, internal::StateProto position);

  std::vector<int64_t> Scores() const override;
  std::unique_ptr<engine::Message> DefaultAction(int seat) const override;

  // Deals a new game from the seed and opens the first turn.
  void Setup(uint32_t num_seats, CryptographerOption cryptographer, uint64_t seed);

  uint32_t Influence(int seat) const;
  uint32_t Goal() const;

 protected:
  engine::Status TypedValidate(int seat, const Action& action) const override;
  void TypedApply(int seat, const Action& action) override;
  std::vector<Action> TypedLegalActions(int seat) const override;
  bool TypedTakeBackSafe(int seat, const Action& action) const override;
  // The steps of a published move (Table.moves): what is chosen first, then what it acts on.
  std::vector<engine::MoveStep> TypedDescribeMove(int seat, const Action& action) const override;
  guerre_froide::View TypedView(int seat) const override;
  std::vector<int> GameActingSeats() const override;
  bool GameOver() const override { return s_.phase() == PHASE_GAME_OVER; }
  std::vector<int> GameRanks() const override;
  // Resumes the turn from the answer to one of its questions (guerre_froide_questions.cc).
  void GameResume(const engine::v1::Decision& decision) override;
  size_t LogLimit() const override { return 60; }
  std::vector<engine::Zone> GameZones() const override;
  void GameCanonicalize(int seat, engine::Message& action) const override;
  void PerturbMore(int seat, engine::Rng& rng) override;

 private:
  const GuerreFroideGame& g() const { return *game_; }
  int Seats() const { return static_cast<int>(s_.num_seats()); }
  const internal::SeatState& S(int seat) const { return s_.seats(seat); }
  internal::SeatState& M(int seat) { return *s_.mutable_seats(seat); }
  const ObjectiveCard& Objective() const { return g().objective(static_cast<uint32_t>(s_.objective())); }
  bool Holds(int seat, EventAbility event) const;
  int HolderOfGroup(uint32_t card) const;  // -1 when the group is not in play
  // Whether `seat`'s groups plus `extra` stay within the objective's stability.
  bool WithinStability(int seat, int extra) const;

  // The turn, phase by phase (guerre_froide.cc).
  void StartTurn();
  void GiveBalance();
  void FinishBriefing();
  void StartPlanning();
  void MaybeEndPlanning();
  void StartStruggle();
  void AfterStruggleAction(int seat, bool passed);
  void CeaseFire();
  void SettleDisorder();
  void DisorderFate(int seat, bool nobel);
  void RankCeaseFire();
  void Claim(int seat, uint32_t objective);
  void ObjectiveToBottom();
  void Debrief();
  void ResolveInitiative(uint32_t initiative, bool* waiting);
  // Defers `seat`'s Assassin or Ambassador striking `target` (-1: nobody).
  void DeferStrike(int seat, int target);
  // Applies one deferred strike, in the order they were gathered.
  void GameResolve(const engine::v1::Effect& effect) override;
  // Every strike applied: the Debriefing goes on with initiative 6.
  void GameDeferredResolved() override;
  void Detente();
  void FinishDetente();
  void EndGame();
  void UseEventCard(int seat, EventAbility event);
  void DiscardGroup(int holder, int index);
  uint32_t DrawGroup();
  // Asks `seat` a question of this kind through the core's queue, the cards it looks at (taken
  // off their deck) set aside in `looking`, the seats it chooses from in the resume.
  void AskSeat(internal::Ask kind, int seat, std::vector<uint32_t> looking = {},
               std::vector<uint32_t> seats = {});
  // The words and options of a question of this kind, built from the position.
  engine::v1::Prompt Question(internal::Ask kind, int seat,
                              const internal::AskResume& resume) const;
  // Builds the open question again from the position (keeping its id): after a redraw of what the
  // asked seat looks at, its options name the cards now there.
  void RewordOpenQuestion();
  // The seats tied for the best influence at or under the stability, best first; the bias and
  // then the seat order from the balance token break ties.
  std::vector<int> CeaseFireOrder() const;
  // Seats whose present Agent X is `kind`.
  std::vector<int> AgentsOfKind(AgentKind kind) const;
  AgentKind AgentX(int seat) const;
  void RemoveAgentX(int seat, bool detained);
  // Logs what `seat`'s `agent` did and records it in its Debriefing step.
  void Outcome(int seat, AgentKind agent, bool acted, engine::v1::Text text);
  DebriefStep* StepOf(int seat, AgentKind agent);
  // "No effect" for each of `seats`' `agent` that is not among `acting`.
  void NoEffectExcept(const std::vector<int>& seats, const std::vector<int>& acting,
                      AgentKind agent);

  // Checks per action (guerre_froide_moves.cc).
  engine::Status CheckActivate(int seat, const Activate& a) const;
  engine::Status CheckEvent(int seat, const UseEvent& e) const;
  void ApplyActivate(int seat, const Activate& a);

  const GuerreFroideGame* game_;
};

}  // namespace plateau::games::guerre_froide
