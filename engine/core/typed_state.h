#pragma once
// Most games keep their whole position in one protobuf message (cheap clone, deterministic
// serialization, exact equality) and act on their own typed Action and View messages. This
// template does the downcasting and the clone/serialize plumbing so a game writes only rules.
#include <google/protobuf/text_format.h>

#include "engine/core/game.h"
#include "engine/core/rng.h"

namespace plateau::engine {

// A game whose options, actions and views are its own protobuf messages: the prototypes and the
// downcasts are done here, so a game writes its rules, its option checks and its first position.
template <class OptionsProto, class ActionProto, class ViewProto>
class TypedGame : public Game {
 public:
  const GameInfo& Info() const final { return info_; }
  const Message& OptionsPrototype() const final { return OptionsProto::default_instance(); }
  const Message& ActionPrototype() const final { return ActionProto::default_instance(); }
  const Message& ViewPrototype() const final { return ViewProto::default_instance(); }
  Status ValidateOptions(int num_seats, const Message& options) const final {
    Status st = Game::ValidateOptions(num_seats, options);
    if (!st.ok()) return st;
    return ValidateTypedOptions(num_seats, static_cast<const OptionsProto&>(options));
  }
  std::unique_ptr<State> NewInitialState(int num_seats, const Message& options,
                                         uint64_t seed) const final {
    return NewTypedState(num_seats, static_cast<const OptionsProto&>(options), seed);
  }

 protected:
  explicit TypedGame(GameInfo info) : info_(std::move(info)) {}
  // Checks beyond the seat count (which the core checks first).
  virtual Status ValidateTypedOptions(int num_seats, const OptionsProto& options) const {
    return Status::Ok();
  }
  virtual std::unique_ptr<State> NewTypedState(int num_seats, const OptionsProto& options,
                                               uint64_t seed) const = 0;

 private:
  GameInfo info_;
};

template <class Derived, class StateProto, class ActionProto, class ViewProto>
class TypedState : public State {
 public:
  std::unique_ptr<Message> View(int seat) const final {
    // Both parts written into one message: merging a private part would copy its log again.
    auto v = std::make_unique<ViewProto>();
    if (splits_) {
      TypedPublicView(v.get());
      TypedPrivateView(seat, v.get());
    } else {
      *v = TypedView(seat);
    }
    AddTable(seat, *v);
    return v;
  }
  std::unique_ptr<Message> PublicView() const final {
    if (!splits_) return nullptr;
    auto v = std::make_unique<ViewProto>();
    TypedPublicView(v.get());
    return v;
  }
  std::unique_ptr<Message> PrivateView(int seat) const final {
    if (!splits_) return View(seat);
    auto v = std::make_unique<ViewProto>();
    TypedPrivateView(seat, v.get());
    AddTable(seat, *v);
    return v;
  }
  std::unique_ptr<Message> PrivateViewWithoutLog(int seat) const final {
    auto v = std::make_unique<ViewProto>();
    PrivatePart(seat, v.get());
    AddTable(seat, *v, /*with_log=*/false);
    return v;
  }
  Message* PublicViewOn(google::protobuf::Arena* arena) const final {
    if (!splits_) return nullptr;
    auto* v = google::protobuf::Arena::CreateMessage<ViewProto>(arena);
    TypedPublicView(v);
    return v;
  }
  Message* PrivateViewWithoutLogOn(int seat, google::protobuf::Arena* arena) const final {
    auto* v = google::protobuf::Arena::CreateMessage<ViewProto>(arena);
    PrivatePart(seat, v);
    AddTable(seat, *v, /*with_log=*/false);
    return v;
  }
  std::unique_ptr<State> Clone() const final {
    return std::make_unique<Derived>(static_cast<const Derived&>(*this));
  }
  std::string Serialize() const final { return DeterministicBytes(s_); }
  std::string DebugString() const override {
    std::string out;
    google::protobuf::TextFormat::PrintToString(s_, &out);
    // The position keeps its log's words serialized, which print as escaped bytes: they follow
    // in words, as comments, which loading a printed position back ignores.
    for (const LogRef& r : LogOf(s_.table())) {
      out += "# log " + std::to_string(r.seq) + ": " + LogText(r).ShortDebugString() + "\n";
    }
    return out;
  }
  std::unique_ptr<Message> NewPositionMessage() const override {
    return std::make_unique<StateProto>();
  }
  const StateProto& proto() const { return s_; }
  const plateau::v1::TableState& table() const final { return s_.table(); }

 protected:
  TypedState(const Game* game, int num_seats, bool splits = false)
      : State(game, num_seats), splits_(splits) {}

  plateau::v1::TableState* mutable_table() final { return s_.mutable_table(); }

  virtual Status TypedValidate(int seat, const ActionProto& action) const = 0;
  virtual void TypedApply(int seat, const ActionProto& action) = 0;
  // The game's own moves (answers to its questions are listed by the core).
  virtual std::vector<ActionProto> TypedLegalActions(int seat) const = 0;
  // A game builds its view whole (TypedView), or in two parts (see State::PublicView):
  // TypedPublicView fills the fields every recipient sees alike, TypedPrivateView
  // the viewer's own, in other top-level fields; such a game passes splits = true to the
  // constructor. The core adds its table (questions, log) to the private part.
  virtual ViewProto TypedView(int seat) const {
    ViewProto v;
    TypedPublicView(&v);
    TypedPrivateView(seat, &v);
    return v;
  }
  // Both write into the view they are given (it may live on an arena).
  virtual void TypedPublicView(ViewProto* view) const {}
  virtual void TypedPrivateView(int seat, ViewProto* view) const {}

  std::vector<std::unique_ptr<Message>> GameLegalActions(int seat) const final {
    std::vector<std::unique_ptr<Message>> out;
    for (auto& a : TypedLegalActions(seat)) out.push_back(std::make_unique<ActionProto>(std::move(a)));
    return out;
  }
  // The game's moves that may be taken back (see State::TakeBackSafe): asked only of an action the
  // rules accept here. None by default.
  virtual bool TypedTakeBackSafe(int seat, const ActionProto& action) const { return false; }
  // The steps of one of the game's legal actions (see State::GameDescribeMove).
  virtual std::vector<MoveStep> TypedDescribeMove(int seat, const ActionProto& action) const {
    return {};
  }
  std::vector<MoveStep> GameDescribeMove(int seat, const Message& action) const final {
    return TypedDescribeMove(seat, static_cast<const ActionProto&>(action));
  }
  bool GameTakeBackSafe(int seat, const Message& action) const final {
    return TypedTakeBackSafe(seat, static_cast<const ActionProto&>(action));
  }
  Status DoValidate(int seat, const Message& action) const final {
    return TypedValidate(seat, static_cast<const ActionProto&>(action));
  }
  void DoApply(int seat, const Message& action) final {
    TypedApply(seat, static_cast<const ActionProto&>(action));
  }

  // The position without the core's table (log, resignations, prompt ids), for a rules probe
  // that plays a move on a copy only to see whether it holds: copying the log would cost more
  // than the probe. The table is lent out and back, so the position is unchanged on return.
  // (A state is used from one thread at a time, like every State.)
  StateProto PositionWithoutTable() const {
    if (!s_.has_table()) return s_;  // lending would leave an empty table behind
    auto& self = const_cast<StateProto&>(s_);
    struct Lent {
      StateProto& owner;
      plateau::v1::TableState table;
      explicit Lent(StateProto& o) : owner(o) { table.Swap(owner.mutable_table()); }
      ~Lent() { table.Swap(owner.mutable_table()); }  // given back even if the copy throws
    } lent(self);
    return StateProto(s_);
  }

  StateProto s_;

 private:
  // The private part of a game that splits its view, else the whole view (the table aside).
  void PrivatePart(int seat, ViewProto* v) const {
    if (splits_) {
      TypedPrivateView(seat, v);
    } else {
      *v = TypedView(seat);
    }
  }
  // The core's share of every view: the viewer's questions and the log it may read.
  void AddTable(int seat, ViewProto& v, bool with_log = true) const {
    plateau::v1::Table* t = v.mutable_table();
    // Handed over, not copied: assigning a heap message to one on the view's arena copies it
    // deeply, and the questions are built on every action's path.
    for (auto& p : Prompts(seat)) {
      t->mutable_prompts()->AddAllocated(new plateau::v1::Prompt(std::move(p)));
    }
    if (with_log) LogFor(s_.table(), seat, t->mutable_log());
    for (int r : s_.table().resigned()) t->add_resigned(r);
    AddMoves(seat, t->mutable_moves());
  }
  bool splits_;
};

}  // namespace plateau::engine
