#pragma once
// The engine contract every game implements. Pure and deterministic: no I/O, clocks, threads or
// hidden randomness, so (game, options, seed, action log) replays a game exactly.
//
// A Game is immutable (rules, option schema, loaded card data) and makes States. A State is the
// mutable position: who may act now (several seats at once in a simultaneous step), validation
// with a stable code and a reason, application, per-seat views, and results.
//
// Options, actions and views are the protobuf messages a game declares in proto/games/<game>.proto;
// the core handles them through reflection and never names a game.
#include <google/protobuf/arena.h>
#include <google/protobuf/message.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/pieces.h"
#include "engine/core/rng.h"
#include "engine/core/status.h"
#include "engine/core/table.h"
#include "engine/core/zones.h"

namespace plateau::engine {

using google::protobuf::Message;

// The seat used for spectators: a view for nobody in particular.
inline constexpr int kSpectator = -1;

// A turn timer a room of the game may choose (the server's TurnTimer): a limit per decision, or
// a bank per seat with an increment after each move.
struct TimerPreset {
  std::string name;
  int per_move_seconds = 0;  // set for a per-decision limit
  int bank_seconds = 0;      // set for a clock
  int increment_seconds = 0;
};

struct GameInfo {
  std::string id;     // stable identifier, e.g. "globalissimo"
  std::string title;  // shown to people
  int min_seats = 1;
  int max_seats = 1;
  // Serialized Options worth playing in tests: the defaults first, then each option that changes
  // the rules. The conformance suite's random games go through all of them.
  std::vector<std::string> option_variants = {""};
  // Timers fitted to how long the game's decisions take; empty: the server offers its own.
  std::vector<TimerPreset> timer_presets = {};
  // How far the normal bot's playouts look (SearchBudget::horizon): actions played after a move
  // before the position is scored by Scores(); 0 plays each playout to the end.
  int bot_horizon = 0;
  // The game describes every move of its own (State::GameDescribeMove), and the core publishes
  // them in the acting seat's view (Table.moves, State::Moves): clients offer those instead of
  // knowing the rules.
  bool publishes_moves = false;
};

// One step of a published move (MoveChoice in table.proto): a piece, where it goes, what it hits.
struct MoveStep {
  std::string key;     // unique among the choices offered at this point
  v1::Text label;
  v1::Target target;
  // What this step adds to the action, as the game's Action serialized with only those fields
  // set (the group activated; then its target): the move's action is its steps' parts
  // concatenated, so what several moves share goes once, on their shared step. A game that gives
  // no step a part has the whole action put on the leaf.
  std::string part;
};

struct LoggedAction {
  int seat;
  std::string action;  // the game's Action message, serialized
  // The seat's turn timer ran out and the server made this move for it: the log says so before
  // the move's own entries, so every reader tells a timeout from the player's choice.
  bool timed_out = false;
};

class Game;
class State;

// The core's share of a game's view (Game::CheckContract): its questions and log. Null for a
// message without a `plateau.v1.Table table` field.
const v1::Table* ViewTable(const Message& view);

// The words of a published choice: its label, or, for a label without a key, the words its
// parent's step shares (MoveChoice.next_label; `parent` null for a root) with the choice's args.
v1::Text MoveWords(const v1::MoveChoice* parent, const v1::MoveChoice& choice);

// What a published choice points at: its target, or the one its key names (key_target).
v1::Target MoveTarget(const v1::MoveChoice& choice);

// The bytes of the action at the end of `keys` (from a root): the parts on the way concatenated,
// or empty when a key is not there. Parse them as the game's Action (they are not its
// deterministic bytes).
std::string MoveActionAt(const google::protobuf::RepeatedPtrField<v1::MoveChoice>& roots,
                         const std::vector<std::string>& keys);

// A view's published moves (Table.moves), one per leaf in tree order: the game's Action and the
// words of the choices that lead to it, root first. What a client or a bot may send, read from
// the view alone.
struct PublishedMove {
  std::unique_ptr<Message> action;
  std::vector<v1::Text> steps;
  bool in_family = false;  // a member of a family leaf: its steps' words do not name its values
  // Listed whole (MoveListing::families_whole): the family this move stands for, `action` its
  // base (the parameters unset) and `members` how many actions it holds.
  std::shared_ptr<const v1::ActionFamily> family;
  uint64_t members = 1;
};
// How to list them. A bot reads no words, and a market card's families hold thousands of
// members: it lists each family once and draws a member only if it picks the family.
struct MoveListing {
  bool words = true;
  bool families_whole = false;
};
std::vector<PublishedMove> PublishedMoves(const Game& game, const Message& view,
                                          MoveListing listing = {});
// Their actions alone.
std::vector<std::unique_ptr<Message>> PublishedActions(const Game& game, const Message& view);

// Default ranking: by score, descending; ties share a rank and leave the next one empty.
std::vector<int> RanksFromScores(const std::vector<int64_t>& scores);

class Game {
 public:
  virtual ~Game() = default;

  virtual const GameInfo& Info() const = 0;
  virtual const Message& OptionsPrototype() const = 0;
  virtual const Message& ActionPrototype() const = 0;
  virtual const Message& ViewPrototype() const = 0;

  // Checks options for a game of `num_seats`; the default accepts any options within seat limits.
  virtual Status ValidateOptions(int num_seats, const Message& options) const;

  // A new game. Options must have passed ValidateOptions.
  virtual std::unique_ptr<State> NewInitialState(int num_seats, const Message& options,
                                                 uint64_t seed) const = 0;

  // Restores a position produced by State::Serialize().
  virtual StatusOr<std::unique_ptr<State>> Deserialize(std::string_view bytes) const = 0;

  // --- Conveniences built on the above (not virtual) ---

  // Options from their serialized form; empty bytes mean defaults.
  StatusOr<std::unique_ptr<Message>> ParseOptions(std::string_view bytes) const;
  StatusOr<std::unique_ptr<State>> NewGame(int num_seats, std::string_view options_bytes,
                                           uint64_t seed) const;
  // Replays a log from the start; fails with the index of the first refused action.
  // `after_each`, if set, sees the position after each action (its index in the log).
  StatusOr<std::unique_ptr<State>> Replay(
      int num_seats, std::string_view options_bytes, uint64_t seed,
      const std::vector<LoggedAction>& log,
      const std::function<void(size_t, const State&)>& after_each = nullptr) const;

  // The game's words: its catalogue of templates (data/texts.textproto) with the core's own.
  // Every Text a game logs or asks with has its key here (the conformance suite checks it).
  const v1::TextCatalogue& Texts() const { return texts_; }
  const Catalogue& TextRenderer() const { return renderer_; }

  // The game's fixed option lists (static data, sent to clients once in GameInfo), and the
  // options a question offers: its own, or those of the set it names (Prompt.option_set; an
  // unknown set offers nothing, and the conformance suite fails such a game).
  const std::vector<v1::OptionSet>& OptionSets() const { return option_sets_; }
  const OptionList& OptionsOf(const v1::Prompt& prompt) const;
  // The rest of the game's static data (GameInfo.static_data): card names and texts, categories,
  // printed boards. Views name its entries by id instead of carrying them in every view and
  // Diff. Null for a game without any. Whatever is in it, every seat sees: never an answer.
  const Message* StaticData() const { return static_data_.get(); }

  std::unique_ptr<Message> NewAction() const;
  // The game's Action carrying a core move (an answer, resigning); null if the Action has no
  // `core` member (the registry refuses such a game).
  std::unique_ptr<Message> WrapCore(const v1::CoreAction& core) const;
  std::unique_ptr<Message> WrapAnswer(const v1::Answer& answer) const;
  // The core move an action carries, or null for one of the game's own moves.
  const v1::CoreAction* CoreOf(const Message& action) const;
  // "" when the game's messages have what the core needs (Action.core, View.table), else what is
  // missing.
  std::string CheckContract() const;
  StatusOr<std::unique_ptr<Message>> ParseActionBytes(std::string_view bytes) const;
  // Text form is protobuf text format, e.g. `place { slot: 2 position: 3 }`.
  StatusOr<std::unique_ptr<Message>> ParseActionText(std::string_view text) const;
  std::string ActionToText(const Message& action) const;

  // One of this game's views as a terminal shows it (the terminal client, the rules console):
  // the game's rendering (GameViewText) followed by the viewer's questions and the latest log
  // entries in words, seats named by `seat_name`. Ends with a newline.
  using SeatNamer = std::function<std::string(int)>;
  std::string ViewText(const Message& view, const SeatNamer& seat_name) const;

  // A question as a terminal asks it: its words, its options numbered from 1 in OptionsOf's order
  // (a long fixed list is not printed: it is answered by name) and how to answer. Ends with a
  // newline.
  std::string PromptText(const v1::Prompt& prompt, const SeatNamer& seat_name) const;
  // The answer a person typed to `prompt`, as PromptText asks it: options by number or by name
  // (an option's words or id; case, accents and punctuation ignored; an unambiguous beginning is
  // enough), several separated by commas; a whole number; yes or no; or the text itself. Checked
  // against the question's shape, so a refusal here names the mistake before anything is sent.
  StatusOr<v1::Answer> AnswerFromWords(const v1::Prompt& prompt, std::string_view words,
                                       const SeatNamer& seat_name) const;

  // How the easy bot, which sees only `view`, weighs `moves` (the view's published moves, in
  // PublishedMoves order) as `seat`: one weight per move, 0 leaving a move out; empty weighs them
  // alike. A move standing for a whole family (`members` > 1) gets the weight of each member. A
  // game plays plausibly this way (stops recruiting once a group would break the stability) while
  // the rules of what may be played stay the engine's published moves (EvenShareWeights, bot.h,
  // gives each kind of move a like share).
  virtual std::vector<uint32_t> EasyBotWeights(const Message& view, int seat,
                                               const std::vector<PublishedMove>& moves) const {
    return {};
  }

 protected:
  // The game's part of ViewText: what a player needs at a glance, not every field (the default
  // prints the view's text format, its table left to the core).
  virtual std::string GameViewText(const Message& view, const SeatNamer& seat_name) const;

  // Games call this once, from their factory, with their parsed catalogue.
  void SetTexts(const v1::TextCatalogue& game_texts);
  // Games call this from their constructor for each fixed option list their questions name.
  void AddOptionSet(v1::OptionSet set) { option_sets_.push_back(std::move(set)); }
  // Games call this from their constructor if they have static data.
  void SetStaticData(std::unique_ptr<Message> data) { static_data_ = std::move(data); }

 private:
  v1::TextCatalogue texts_ = CoreTexts();
  Catalogue renderer_{CoreTexts()};
  std::vector<v1::OptionSet> option_sets_;
  std::unique_ptr<Message> static_data_;
  static v1::TextCatalogue CoreTexts();
};

class State {
 public:
  virtual ~State() = default;

  const Game& game() const { return *game_; }
  int num_seats() const { return num_seats_; }

  // Seats that may act now. More than one in a simultaneous step. Empty once the game is over.
  // A seat with an open question (Prompts) is acting.
  std::vector<int> ActingSeats() const;
  // Over by the rules, or by resignations (one seat left playing; a solo player resigned).
  bool IsTerminal() const;
  bool IsActing(int seat) const;

  // The one guarded entry: checks seat, turn and legality, then applies and logs the action.
  // A refused action changes nothing. The core handles resigning and checks an answer's shape
  // against the seat's current question before the game sees it.
  Status Validate(int seat, const Message& action) const;
  // `timed_out`: the move is the server's, the seat's time having run out (LoggedAction).
  Status Apply(int seat, const Message& action, bool timed_out = false);
  // The same, also telling whether the move could be taken back (TakeBackSafe), asked of the
  // position before it without validating the move twice: the server's path for every move.
  Status Apply(int seat, const Message& action, bool timed_out, bool* take_back_safe);
  Status ApplyBytes(int seat, std::string_view action_bytes, bool timed_out = false);
  Status ApplyText(int seat, std::string_view action_text);

  // Every legal action of `seat` now; empty when it may not act. Complete, with two documented
  // exceptions, each described instead of listed: answers to a question with more than
  // kMaxListedAnswers well-shaped answers (or a free-text one) — the question in Prompts() is
  // then the description, every well-shaped answer being legal unless the game refuses it — and
  // the game's ActionFamilies(). Resigning is always legal and never listed.
  std::vector<std::unique_ptr<Message>> LegalActions(int seat) const;
  static constexpr size_t kMaxListedAnswers = 512;
  // Parameterised actions too many to list (ActionFamily in table.proto, drawn and checked with
  // engine/core/families.h): every legal action that LegalActions does not list lies in one of
  // these or answers an open question. A family is a domain, not a promise: a member may still be
  // refused (it names a class that cannot rise, buys more than the market holds). Empty when
  // `seat` may not act.
  std::vector<v1::ActionFamily> ActionFamilies(int seat) const;

  // `action` with every field its move ignores cleared (a card's parameters the card does not
  // use): actions with the same canonical form have the same effect, and the lists and families
  // above hold canonical actions. Validation ignores those fields; it need not refuse them.
  std::unique_ptr<Message> Canonical(int seat, const Message& action) const;

  // Whether `seat` playing `action` here could be taken back once played: a pure function of this
  // position and the move, asked before Apply. Only a move that draws nothing, uses none of the
  // game's randomness and shows no seat anything it could not see before may be: taking it back
  // (replaying the log without it) then hides nothing a seat has learnt. False for a move the rules
  // refuse, for resigning, while a resigned seat's moves may follow (they would be played at
  // once), and for every move a game does not declare (GameTakeBackSafe; none by default). The
  // conformance suite checks each declared move: taken back, every view is as before it, and no
  // seat's view after it depends on what that seat could not see.
  bool TakeBackSafe(int seat, const Message& action) const;

  // Questions open for `seat`, the one to answer now first (empty for spectators). Built from the
  // position when asked, so their options are always those of the current position.
  std::vector<v1::Prompt> Prompts(int seat) const;

  // The game's own moves for `seat` as the tree of choices its view carries (Table.moves): each
  // action of GameLegalActions is the leaf reached by the steps GameDescribeMove gives it, and
  // actions sharing first steps share those nodes. Empty when `seat` may not act and for a game
  // that does not publish its moves (GameInfo.publishes_moves). Answers are not moves: they are
  // in Prompts.
  void AddMoves(int seat, google::protobuf::RepeatedPtrField<v1::MoveChoice>* out) const;

  // What the game plays for a seat that resigned (and what a turn timer will play): legal, or
  // null when the game finds no move for the seat (the conformance suite requires one for every
  // acting seat). The default answers the current question plainly (PlainAnswer) or takes the
  // first listed action; games override it with the move a careful player would make by default
  // (pass, keep, the cheapest choice).
  virtual std::unique_ptr<Message> DefaultAction(int seat) const;

  // Moves a player would think of that no list holds (an answer recalled from memory), for the
  // normal bot's search, which weighs them beside the listed moves. Called on a SampleForSeat:
  // it reads what the seat sees and the game's own data about it (a country's capital), which is
  // the player's knowledge the game models, and says so in its RULES.md. Drawn from `rng`: a
  // game models what a player knows by not always offering one. None by default.
  virtual std::vector<std::unique_ptr<Message>> BotIdeas(int seat, Rng& rng) const { return {}; }

  // What `seat` may know, as the game's View message. kSpectator for onlookers. Contains nothing
  // the seat may not know; once the game is over everything may be revealed.
  virtual std::unique_ptr<Message> View(int seat) const = 0;
  // The view in two parts, for a game that builds it so: PublicView is what every recipient
  // (each seat and the spectators) gets alike; PrivateView(seat) the rest, in other top-level
  // fields, so that View(seat) is their merge and a diff of each part applies to the merged view.
  // The server builds and diffs the public part once per action instead of once per recipient.
  // PublicView is null for a game that does not split; PrivateView is then the whole view.
  virtual std::unique_ptr<Message> PublicView() const { return nullptr; }
  virtual std::unique_ptr<Message> PrivateView(int seat) const { return View(seat); }
  // PrivateView with its table's log left empty, for a holder that keeps each recipient's log
  // itself from table() (entries never change once written, so it appends only the new ones:
  // the server's sessions). The default builds the log and drops it.
  virtual std::unique_ptr<Message> PrivateViewWithoutLog(int seat) const;
  // PublicView and PrivateViewWithoutLog as messages owned by `arena`, for a holder that
  // serializes them at once and drops them with it (the server, every action): their
  // sub-messages and strings then cost no allocation of their own. The defaults copy.
  virtual Message* PublicViewOn(google::protobuf::Arena* arena) const;
  virtual Message* PrivateViewWithoutLogOn(int seat, google::protobuf::Arena* arena) const;

  // Final results, meaningful once terminal. Ranks: 1 is first; tied seats share a rank and the
  // next rank is skipped, unless the game says otherwise. Seats that resigned rank after every
  // seat still playing, the last to resign first.
  virtual std::vector<int64_t> Scores() const = 0;
  std::vector<int> Ranks() const;
  virtual std::string ResultDetail(int seat) const { return {}; }
  // Seats that resigned, in order.
  std::vector<int> Resigned() const;
  bool HasResigned(int seat) const;

  virtual std::unique_ptr<State> Clone() const = 0;
  // The whole position (not the history), deterministic bytes: equal positions, equal bytes.
  virtual std::string Serialize() const = 0;
  // Readable dump of the whole position, for the rules console and test failures.
  virtual std::string DebugString() const = 0;
  // An empty message of the type DebugString() prints, so a designer can edit a printed position
  // and load it back (through Game::Deserialize, which checks it). Null when a game keeps its
  // position in another form.
  virtual std::unique_ptr<Message> NewPositionMessage() const { return nullptr; }

  // For the conformance suite: a copy of this position in which everything `seat` cannot see is
  // drawn again from `salt` (deck order, other hands, face-down cards, the seed) while everything
  // it can see is kept. The seat's view of the copy must be byte-identical, and so must its
  // legal actions and the answers to its actions. Built on what the game declares, redrawn with
  // one generator seeded by `salt`, in this order: its zones (GameZones, by RedrawHidden), then
  // its tables of pieces in the order GamePieces lists them (RedrawHiddenPieces), then what
  // neither holds (PerturbMore).
  std::unique_ptr<State> PerturbHidden(int seat, uint64_t salt) const;

  // What a bot of `seat` searches: a position drawn, with `salt`, among those `seat` cannot tell
  // from this one. Everything hidden from the seat is redrawn (PerturbHidden) and nothing else
  // hidden is kept (no history, no log), so the copy is a function of the seat's view and the
  // salt: two positions with the same view give byte-identical samples (the bots' test checks
  // this for every game). Its own later randomness is the salt's, not the game's.
  std::unique_ptr<State> SampleForSeat(int seat, uint64_t salt) const;

  const std::vector<LoggedAction>& History() const { return history_; }

  // The first decision of the core's queue (see Ask), open, or null: while decisions are open
  // the seats they ask and have not answered are the acting seats, each seat's question is the
  // only thing it may answer, and the game's own moves wait.
  const v1::Decision* OpenDecision() const;
  // The open decision that asks `seat` (answered by it or not), or null. Open decisions share no
  // seat, so there is at most one (see AskAlongside).
  const v1::Decision* OpenDecisionOf(int seat) const;

  // The core's share of the position (log, resignations, prompt ids), kept inside the game's
  // position so that it is cloned and serialized with it.
  virtual const v1::TableState& table() const = 0;

 protected:
  State(const Game* game, int num_seats) : game_(game), num_seats_(num_seats) {}
  State(const State&) = default;
  State& operator=(const State&) = default;

  virtual v1::TableState* mutable_table() = 0;

  // The game's own rules. GameActingSeats: the seats its rules wait for (seats with an open
  // question included); GameOver: over by the rules.
  virtual std::vector<int> GameActingSeats() const = 0;
  virtual bool GameOver() const = 0;
  // The game's questions for `seat` (see Prompts).
  virtual std::vector<v1::Prompt> GamePrompts(int seat) const { return {}; }
  // The game's own moves: every legal one, answers excluded (the core lists those).
  virtual std::vector<std::unique_ptr<Message>> GameLegalActions(int seat) const = 0;
  // The game's own moves that may be taken back (see TakeBackSafe), for an action the rules accept
  // from `seat` here, resigning excluded. None by default.
  virtual bool GameTakeBackSafe(int seat, const Message& action) const { return false; }
  // The tree of `seat`'s moves (see AddMoves), asked only of an acting seat of a game that
  // publishes its moves. The default puts each action of GameLegalActions at the end of the steps
  // GameDescribeMove gives it; a game whose moves are many writes the tree itself, with family
  // leaves (MoveChoice.params), cheaper to build and to send.
  virtual void GamePublishMoves(int seat,
                                google::protobuf::RepeatedPtrField<v1::MoveChoice>* out) const;
  // The steps that lead to `action`, a legal action of `seat` here, for the default
  // GamePublishMoves; keys stable while the step stays open. An action given no step is left
  // out, which the conformance suite reports.
  virtual std::vector<MoveStep> GameDescribeMove(int seat, const Message& action) const {
    return {};
  }
  // The game's families of moves (see ActionFamilies), for an acting seat.
  virtual std::vector<v1::ActionFamily> GameActionFamilies(int seat) const { return {}; }
  // Clears the fields `action` (the game's Action type) ignores in this position (see Canonical).
  virtual void GameCanonicalize(int seat, Message& action) const {}
  // Ranks by the rules, for a game over by the rules (default: by score).
  virtual std::vector<int> GameRanks() const { return RanksFromScores(Scores()); }

  // Rule checks for an action whose type is already known to be the game's Action message and
  // whose seat is already known to be acting. An answer reaches it already checked against the
  // seat's current question (CheckAnswer).
  virtual Status DoValidate(int seat, const Message& action) const = 0;
  // Applies an action DoValidate accepted. Must not fail.
  virtual void DoApply(int seat, const Message& action) = 0;

  // The places holding pieces in this position and who sees each, pointing into this state's own
  // position (perturbation writes through them). Views should show a zone's pieces through
  // VisiblePieces, so what a seat sees and what is redrawn agree.
  virtual std::vector<Zone> GameZones() const { return {}; }
  // The game's tables of pieces with their rules, pointing into this state's own position
  // (perturbation writes through them). Views should show a table through ViewPieces with the
  // same rules, so what a seat sees and what is redrawn agree.
  virtual std::vector<PieceTable> GamePieces() { return {}; }
  // Hidden information zones and pieces do not hold (the generator state, hidden orders of other
  // kinds), redrawn after them; and any repair the redraw needs (references to redrawn pieces).
  virtual void PerturbMore(int seat, Rng& rng) {}
  // A copy of the position for perturbation (the default copies the history too).
  virtual std::unique_ptr<State> CopyPosition() const { return Clone(); }

  // Appends a log entry readable by `readers` (empty: everyone).
  void Log(const v1::Text& text, std::vector<int> readers = {});
  void Log(const Phrase& text, std::vector<int> readers = {});
  virtual size_t LogLimit() const { return 80; }
  // A fresh id for a question about to be asked of `seat` (store it with whatever the game keeps
  // of it). Counted per seat, so its gaps reveal nothing of other seats' questions.
  std::string NewPromptId(int seat);

  // ----- The queue of decisions (Decision in table.proto) -----
  // Asks `prompts` (one per seat, each built with MakePrompt for its seat; the core sets their
  // ids) at once and suspends the game's resolution: the core publishes each question to its seat
  // only, checks each answer's shape (CheckAnswer) and then GameCheckAnswer, and once every seat
  // asked has answered, in any order, calls GameResume with the decision and its answers in seat
  // order. Resuming once all have answered, not per answer, keeps simultaneous choices secret
  // until all are made and makes the result independent of who answered first.
  // `kind` is the game's own enum, `resume` the game's message carrying what remains of the
  // resolution; `by_default` what a timer, a resigned seat or the easy bot's fallback play (a
  // DEFAULT_PASS question must offer an option "pass", or be YES_NO). A `reaction` (a seat asked
  // in the middle of another's move) goes before the decisions already waiting; any other
  // decision after them.
  void Ask(std::vector<v1::Prompt> prompts, int kind, const Message& resume,
           v1::DefaultPolicy by_default, bool reaction = false);
  // Asks as Ask does, but the decision opens at once beside the open decisions asked alongside
  // before it when none of them asks one of its seats (else it waits for the seat's earlier
  // one): seats that choose independently of each other each have their own question open, and
  // each decision resumes (GameResume) on its own seats' answers, whoever else still thinks. A
  // decision asked with Ask, open first, holds these back until it is answered (a reaction put
  // in front interrupts them); one waiting in the queue holds back those asked after it.
  void AskAlongside(std::vector<v1::Prompt> prompts, int kind, const Message& resume,
                    v1::DefaultPolicy by_default);
  // Answers the open question to `seat` in the rules' name, from the game's rules (a choice the
  // position now leaves with a single option): recorded and resumed as the seat's own answer
  // would be (GameAnswered, then GameResume once the decision's seats have all answered), but
  // no action of the seat's. The seat must be asked and not have answered.
  void AnswerFor(int seat, v1::Answer answer);
  // Puts an effect aside (`kind` the game's enum, `effect` its message) until ResolveDeferred.
  void Defer(int kind, const Message& effect);
  // Resolves the deferred effects one by one in `order` (GameResolve); an effect that asks a
  // decision pauses the resolution until the decision is answered. GameDeferredResolved follows
  // the last one. Called from the game's rules (the end of a round).
  void ResolveDeferred(v1::StackOrder order);
  // The game's own checks of a well-shaped answer to its decision (the core checked the shape).
  virtual Status GameCheckAnswer(const v1::Decision& decision, int seat,
                                 const v1::Answer& answer) const {
    return Status::Ok();
  }
  // Resumes the resolution `decision` suspended, every seat asked having answered. Must not fail.
  virtual void GameResume(const v1::Decision& decision) {}
  virtual void GameResolve(const v1::Effect& effect) {}
  virtual void GameDeferredResolved() {}
  // `asked`, the open question of `decision` to its seat, worded as the position stands now
  // (options a later change narrowed), for everything that reads it: the seat's view, the
  // answer's checks, the legal answers, the defaults. Its seat and id stay. Built from what the
  // seat may see, as any question. Nothing by default: the question stays as asked.
  virtual std::optional<v1::Prompt> GameWordPrompt(const v1::Decision& decision,
                                                   const v1::Prompt& asked) const {
    return std::nullopt;
  }
  // What DEFAULT_GAME plays for `seat` (the default: the plainest answer).
  virtual v1::Answer GameDefaultAnswer(const v1::Decision& decision, int seat) const;
  // Whether the game's own moves stay open beside the open decision, to the seats it still asks
  // (a card removed "at any time", before answering): its GameLegalActions, GamePublishMoves,
  // GameActionFamilies and DoValidate then say which, and such a move leaves the decision open.
  // False by default: the moves wait (answer_first).
  virtual bool GameMovesWhileAsked() const { return false; }
  // Whether the game draws other seats' answers to `decision` again itself (in PerturbMore),
  // because its views show something of them while it is open (how much is still missing); the
  // core's uniform redraw then leaves them. False by default.
  virtual bool GameRedrawsAnswers(const v1::Decision& decision) const { return false; }
  // Called as each answer to the open decision is given, before the game resumes (the last
  // answer too), for the part of an answer the table sees at once: a vote logged as it is cast,
  // a running total. The answers stay in the decision for GameResume. Nothing by default.
  virtual void GameAnswered(const v1::Decision& decision, int seat, const v1::Answer& answer) {}
  // The answer one of the game's own moves stands for while the open decision asks `seat` (a
  // game whose typed moves answered its questions before the queue, so that stored games
  // replay): validated and routed as that answer. None by default.
  virtual std::optional<v1::Answer> GameAnswerOf(int seat, const Message& action) const {
    return std::nullopt;
  }

 private:
  // The seats asked now: the open decisions' unanswered seats, else the game's.
  std::vector<int> ActingNow() const;
  // Whether the game's own moves wait now: a decision is open and the game keeps no move open
  // beside it (GameMovesWhileAsked).
  bool GameMovesWait() const { return OpenDecision() != nullptr && !GameMovesWhileAsked(); }
  // The question for `seat` of the open decision asking it while decisions are queued, else the
  // game's questions.
  std::vector<v1::Prompt> OpenPrompts(int seat) const;
  // The question `decision` asks `seat`, as the game words it now (GameWordPrompt).
  v1::Prompt WordedPrompt(const v1::Decision& decision, int seat) const;
  // The game's checks of an answer (`action` wraps it), past its shape.
  Status CheckAnswerRules(int seat, const Message& action, const v1::Answer& answer) const;
  // Applies a validated action (`core`: its core move, or null): an answer to the open decision
  // goes to the queue, anything else to the game; then deferred effects resolve while nothing is
  // asked.
  void ApplyValid(int seat, const Message& action, const v1::CoreAction* core);
  // Ask and AskAlongside: one queue, one set of checks.
  void Enqueue(std::vector<v1::Prompt> prompts, int kind, const Message& resume,
               v1::DefaultPolicy by_default, bool reaction, bool alongside);
  // Records `seat`'s answer in the open decision asking it, and resumes that decision once all
  // its seats have answered.
  void AnswerDecision(int seat, const v1::Answer& answer);
  void Settle();
  // What `decision`'s `by_default` plays for `prompt`'s seat.
  v1::Answer QueueDefault(const v1::Decision& decision, const v1::Prompt& prompt, int seat) const;
  // For PerturbHidden: answers other seats gave to the open decisions, drawn again.
  void RedrawPendingAnswers(int seat, Rng& rng);

  // Validation past the seat and resignation checks (answers against the current question).
  Status ValidateMove(int seat, const Message& action, const v1::CoreAction* core) const;
  // An answer's checks against the seat's current question, then the game's; a game's typed
  // move standing for an answer (`typed`) meets the game's checks first, as it did before the
  // queue, so its refusals keep their codes.
  Status ValidateAnswer(int seat, const Message& action, const v1::Answer& answer,
                        bool typed = false) const;
  // Plays DefaultAction for resigned seats while one of them must act; false when a default
  // move is missing or refused (the position is then left where it stopped).
  bool PlayForResigned();
  // TakeBackSafe for an action Validate has accepted.
  bool ValidTakeBackSafe(int seat, const Message& action) const;

  const Game* game_;
  int num_seats_;
  std::vector<LoggedAction> history_;
};

// A view of `game` in the form its recipients receive it: the phrases of its table named by
// number (Catalogue::Compact, Text.id). The server sends views so; the engine builds them by key.
void ToWireForm(const Game& game, Message* view);

// Serializes a message deterministically (views and states are compared as bytes).
std::string DeterministicBytes(const Message& m);
// The same into `out`, replacing what it held and reusing its capacity (a caller serializing on
// every action keeps its buffers).
void DeterministicBytesInto(const Message& m, std::string* out);

}  // namespace plateau::engine
