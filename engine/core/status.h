#pragma once
// Outcome of anything that untrusted input can make fail. `code` is stable (programs match on
// it); `reason` is a sentence for the person who sent the input.
#include <string>
#include <utility>
#include <variant>

namespace plateau::engine {

class Status {
 public:
  Status() = default;  // ok
  Status(std::string code, std::string reason) : code_(std::move(code)), reason_(std::move(reason)) {}
  static Status Ok() { return Status(); }

  bool ok() const { return code_.empty(); }
  const std::string& code() const { return code_; }
  const std::string& reason() const { return reason_; }
  std::string ToString() const { return ok() ? "ok" : code_ + ": " + reason_; }

 private:
  std::string code_;
  std::string reason_;
};

// Codes every game shares. Games add their own (snake_case, stable once published).
namespace codes {
inline constexpr const char* kNotYourTurn = "not_your_turn";
inline constexpr const char* kGameOver = "game_over";
inline constexpr const char* kMalformed = "malformed";
inline constexpr const char* kIllegal = "illegal_action";
inline constexpr const char* kBadSeat = "bad_seat";
inline constexpr const char* kBadOptions = "bad_options";
inline constexpr const char* kUnknownGame = "unknown_game";
inline constexpr const char* kBadData = "bad_data";
}  // namespace codes

template <class T>
class StatusOr {
 public:
  StatusOr(T value) : v_(std::move(value)) {}  // NOLINT: implicit like absl::StatusOr
  StatusOr(Status status) : v_(std::move(status)) {}  // NOLINT
  bool ok() const { return std::holds_alternative<T>(v_); }
  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<Status>(v_);
  }
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace plateau::engine
