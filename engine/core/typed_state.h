#pragma once
// Most games keep their whole position in one protobuf message (cheap clone, deterministic
// serialization, exact equality) and act on their own typed Action and View messages. This
// template does the downcasting and the clone/serialize plumbing so a game writes only rules.
#include <google/protobuf/text_format.h>

#include "engine/core/game.h"
#include "engine/core/rng.h"

namespace plateau::engine {

template <class Derived, class StateProto, class ActionProto, class ViewProto>
class TypedState : public State {
 public:
  std::vector<std::unique_ptr<Message>> LegalActions(int seat) const final {
    std::vector<std::unique_ptr<Message>> out;
    if (IsTerminal() || !IsActing(seat)) return out;
    for (auto& a : TypedLegalActions(seat)) out.push_back(std::make_unique<ActionProto>(std::move(a)));
    return out;
  }
  std::unique_ptr<Message> View(int seat) const final {
    return std::make_unique<ViewProto>(TypedView(seat));
  }
  std::unique_ptr<State> Clone() const final {
    return std::make_unique<Derived>(static_cast<const Derived&>(*this));
  }
  std::string Serialize() const final { return DeterministicBytes(s_); }
  std::string DebugString() const override {
    std::string out;
    google::protobuf::TextFormat::PrintToString(s_, &out);
    return out;
  }
  std::unique_ptr<Message> NewPositionMessage() const override {
    return std::make_unique<StateProto>();
  }
  const StateProto& proto() const { return s_; }

 protected:
  TypedState(const Game* game, int num_seats) : State(game, num_seats) {}

  virtual Status TypedValidate(int seat, const ActionProto& action) const = 0;
  virtual void TypedApply(int seat, const ActionProto& action) = 0;
  virtual std::vector<ActionProto> TypedLegalActions(int seat) const = 0;
  virtual ViewProto TypedView(int seat) const = 0;

  Status DoValidate(int seat, const Message& action) const final {
    return TypedValidate(seat, static_cast<const ActionProto&>(action));
  }
  void DoApply(int seat, const Message& action) final {
    TypedApply(seat, static_cast<const ActionProto&>(action));
  }

  StateProto s_;
};

}  // namespace plateau::engine
