#pragma once
// Contrôle Global (3 to 6 players): organisations spreading influence over a generated world, a
// shared globalisation table and civil society striking back. Rules and decisions: RULES.md.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/game.h"
#include "engine/core/typed_state.h"
#include "engine/games/controle_global/controle_global_state.pb.h"
#include "games/controle_global.pb.h"

namespace plateau::games::controle_global {

inline constexpr int kCategories = 6;
inline constexpr int kResources = 3;

// Stable codes of refused actions (besides the engine's shared ones).
namespace codes {
inline constexpr const char* kWrongPhase = "wrong_phase";
inline constexpr const char* kBadCard = "bad_card";
inline constexpr const char* kBadRegion = "bad_region";
inline constexpr const char* kBadFaction = "bad_faction";
inline constexpr const char* kBadPayment = "bad_payment";
inline constexpr const char* kBadPile = "bad_pile";
inline constexpr const char* kBadTarget = "bad_target";
inline constexpr const char* kMustDiscard = "must_discard";
inline constexpr const char* kMustDraw = "must_draw";
}  // namespace codes

// Category as an index 0..5 (the enum minus one), and back.
inline int Cat(Category c) { return static_cast<int>(c) - 1; }
inline Category CatOf(int i) { return static_cast<Category>(i + 1); }

class ControleGlobalGame : public engine::TypedGame<Options, Action, View> {
 public:
  // Parses and checks the data files (RULES.md, "What the engine checks when it loads the data").
  static engine::StatusOr<std::unique_ptr<ControleGlobalGame>> FromData(
      std::string_view cards, std::string_view factions, std::string_view world,
      std::string_view texts);
  // "" when `data` holds a playable game, else what is wrong, naming the culprit.
  static std::string CheckData(const controle_global::StaticData& data);

  engine::StatusOr<std::unique_ptr<engine::State>> Deserialize(
      std::string_view bytes) const override;
  // A state holding exactly `position`: tests set up the rule book's situations with it.
  engine::StatusOr<std::unique_ptr<engine::State>> FromProto(
      const internal::StateProto& position) const;

  const controle_global::StaticData& data() const { return data_; }
  const Card& card(uint32_t i) const { return data_.cards(static_cast<int>(i)); }
  const Pile& pile(uint32_t i) const { return data_.piles(static_cast<int>(i)); }
  const Faction& faction(uint32_t i) const { return data_.factions(static_cast<int>(i)); }
  int CardIndex(std::string_view id) const;
  int PileOf(uint32_t card) const { return card_pile_[card]; }
  // The upper or lower pile of a category.
  int PileIndex(Category c, Tier t) const;
  // World total reaching each level I..VI at this player count.
  const std::vector<uint32_t>& Thresholds(uint32_t players) const;
  // The level a total reaches alone (0 below level I).
  uint32_t LevelOf(uint32_t players, uint32_t total) const;

 private:
  explicit ControleGlobalGame(controle_global::StaticData data);
  // A terminal's summary: the round and who acts, the world levels, each organisation, the
  // regions with their cubes, and the reader's hand.
  std::string GameViewText(const engine::Message& view,
                           const SeatNamer& seat_name) const override;
  // As a player would choose: each card, each kind of investment, stopping, each kind of draw
  // weigh alike, however many ways (regions, categories, payments) each can be made.
  std::vector<uint32_t> EasyBotWeights(const engine::Message& view, int seat,
                                       const std::vector<engine::PublishedMove>& moves) const override;
  engine::Status ValidateTypedOptions(int num_seats, const Options& options) const override;
  std::unique_ptr<engine::State> NewTypedState(int num_seats, const Options& options,
                                               uint64_t seed) const override;

  controle_global::StaticData data_;
  std::map<std::string, int, std::less<>> card_index_;
  std::vector<int> card_pile_;
  std::map<uint32_t, std::vector<uint32_t>> thresholds_;
};

class ControleGlobalState final
    : public engine::TypedState<ControleGlobalState, internal::StateProto, Action, controle_global::View> {
 public:
  ControleGlobalState(const ControleGlobalGame* game, internal::StateProto position);

  // Generates the world, draws the first turn order and opens the faction picks.
  void Setup(uint32_t num_seats, EndRule end_rule, uint64_t seed);

  std::vector<int64_t> Scores() const override;
  std::unique_ptr<engine::Message> DefaultAction(int seat) const override;

  // ----- The globalisation table (controle_global.cc) -----
  uint32_t Cubes(int region, int seat, int cat) const;
  uint32_t WorldTotal(int cat) const;
  uint32_t SeatTotal(int seat, int cat) const;
  uint32_t WorldLevel(int cat) const;
  // A seat's live level: its place in the order, floored by its own total alone.
  uint32_t LiveLevel(int seat, int cat) const;
  // Every seat's live level in `cat`, the totals counted once (a view lists them all).
  std::vector<uint32_t> LiveLevels(int cat) const;
  uint32_t LevelVp(int seat) const;  // from the noted levels
  // Present where it holds a cube, or everywhere while it holds none (RULES.md, Decisions).
  bool Present(int seat, int region) const;
  // The VP of one region shared among seats (RULES.md, "End and final score").
  static std::vector<uint32_t> ShareRegion(uint32_t development, const std::vector<uint32_t>& cubes);
  uint32_t RegionVp(int seat) const;
  std::vector<uint32_t> RegionCubes(int region) const;  // every seat's cubes there, all categories
  uint32_t HandSize(int seat) const;

 protected:
  engine::Status TypedValidate(int seat, const Action& action) const override;
  void TypedApply(int seat, const Action& action) override;
  std::vector<Action> TypedLegalActions(int seat) const override;
  std::vector<engine::MoveStep> TypedDescribeMove(int seat, const Action& action) const override;
  void TypedPublicView(controle_global::View* view) const override;
  void TypedPrivateView(int seat, controle_global::View* view) const override;
  std::vector<int> GameActingSeats() const override;
  bool GameOver() const override { return s_.phase() == PHASE_GAME_OVER; }
  std::vector<int> GameRanks() const override;
  void GameResume(const engine::v1::Decision& decision) override;
  void GameResolve(const engine::v1::Effect& effect) override;
  void GameDeferredResolved() override;
  // One action can tell a long story: the last turn of a round turns over every civil-society
  // card, each in several lines, then the round's end and the final scoring. When full the log
  // drops its older half, so a burst of up to 60 lines reaches every client whole.
  size_t LogLimit() const override { return 120; }
  // The piles (nobody), the hands (their owner) and the civil-society area (nobody); every card's
  // back shows its pile.
  std::vector<engine::Zone> GameZones() const override;
  // The generator of later reshuffles.
  void PerturbMore(int seat, engine::Rng& rng) override;
  // Picks at set-up, and investments that raise no world level (nothing is drawn).
  bool TypedTakeBackSafe(int seat, const Action& action) const override;

 private:
  const ControleGlobalGame& g() const { return *game_; }
  int Seats() const { return static_cast<int>(s_.num_seats()); }
  int ToAct() const;
  internal::Region& R(int region) { return *s_.mutable_regions(region); }
  const internal::Region& R(int region) const { return s_.regions(region); }
  internal::Seat& M(int seat) { return *s_.mutable_seats(seat); }
  const internal::Seat& S(int seat) const { return s_.seats(seat); }
  const Power* PowerOf(int seat, PowerKind kind) const;

  // Cubes change only here: the orders are re-sorted and rises may feed civil society.
  void AddCubes(int region, int seat, int cat, int delta);
  void Resort(int cat);
  void CheckRises();
  void NoteLevels();

  // ----- The round (controle_global_turn.cc) -----
  void StartRound();
  void StartTurn();
  void Extort(int seat);
  void EndTurn();
  void EndRound();
  void EndGame();
  void FinishSetup();
  void EnterInvest();
  void EnterPrivatise();
  void EnterDraw();
  // The discard-and-draw of `seat` (the active player's own, or the previous player's open one):
  // its moves, one applied, and whether it is over.
  std::vector<Action> DrawActions(int seat, bool drew) const;
  void ApplyDrawMove(int seat, const Action& action, bool* drew);
  bool DrawOver(int seat, bool drew) const;
  void MaybeFinishDraw();
  void MaybeFinishDrawer();
  // The previous player's draw as the rules make it by default: discards down to the hand size
  // (the last cards drawn first), then the lower pile of their highest noted level.
  void DefaultDraw(int seat);
  int Drawer() const { return static_cast<int>(s_.drawer()) - 1; }
  // Draws the top card of `pile` into `seat`'s hand (refilled from its discard when empty);
  // false when both are empty.
  bool DrawFrom(int seat, int pile);
  // The top card of a pile, refilling it from its discard; -1 when both are empty.
  int TakeTop(int pile);
  void Discard(uint32_t card);
  bool Drawable(int pile) const;
  void Pay(int seat, const Payment& pay);
  // Every way to pay `cost` from what `seat` holds.
  std::vector<Payment> Payments(int seat, uint32_t cost) const;
  uint32_t MissingLevels(int seat, const Effect& effect) const;
  uint32_t InvestCost(int seat, InvestKind kind, int cat) const;
  bool CanPrivatise(int seat, int region, int res) const;
  std::vector<Action> SetupActions(int seat) const;

  // ----- Effects (controle_global_effects.cc) -----
  const Effect& RunEffect() const;
  void StartEffect(uint32_t card, int effect, int active);
  // Goes on with the running effect until it asks a question or ends.
  void ContinueRun();
  void FinishRun();
  // The pick's regions bound (true), or a question asked (false).
  bool ResolveRegion(const std::string& label);
  bool ResolvePlayers(const std::string& label, int region, std::vector<uint32_t>* out);
  const internal::Binding* Bound(bool regions, const std::string& key) const;
  void Bind(bool regions, const std::string& key, std::vector<uint32_t> items);
  std::vector<uint32_t> StepRegions(const Step& step) const;
  std::vector<std::string> UnitOptions(const Step& step, int region, int player) const;
  void DoUnit(const Step& step, int region, int player, const std::string& option);
  int Chooser(const Step& step, int player) const;
  // Players in turn order from the effect's first player.
  std::vector<int> PlayersFromFirst() const;
  std::vector<int> RankInRegion(int region, const std::vector<int>& cats, int tie_cat) const;
  void AskRun(int seat, internal::AskKind kind, const std::string& label, const std::string& key,
              std::vector<std::string> options, engine::v1::Text title);
  engine::v1::Text OptionWords(const std::string& option) const;

  const ControleGlobalGame* game_;
};

// Words for a category, a resource, a pile.
engine::v1::Text CategoryWords(int cat);
engine::v1::Text ResourceWords(int res);
engine::v1::Text PileWords(const Pile& pile);

}  // namespace plateau::games::controle_global
