#pragma once
// A room's turn timer (TurnTimer in protocol.proto): one clock per seat, running while the seat
// must act. Pure bookkeeping on times the room passes in (Unix milliseconds, the times stored
// with every action), so the same calls replayed from a stored log after a restart give the same
// clocks: nothing else about them needs storing.
//
// Per decision (TIMER_PER_MOVE): every decision of a seat has the same limit, from the moment the
// seat must act (or its previous move, when it acts again at once).
// Clocked (TIMER_CLOCK): a bank per seat runs while the seat must act; each of its moves adds the
// increment; a decision never has less than kMinDecisionMs, so an empty bank leaves the
// increment (or that floor) per decision.
// In a simultaneous step several clocks run at once; one seat's move does not stop the others'.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "plateau/v1/protocol.pb.h"

namespace plateau::server {

class TurnClocks {
 public:
  static constexpr int64_t kMinDecisionMs = 5000;

  // Why `timer` cannot be a room's timer ("" when it can).
  static std::string Invalid(const plateau::v1::TurnTimer& timer);

  TurnClocks() = default;
  TurnClocks(const plateau::v1::TurnTimer& timer, int seats);

  bool enabled() const { return timer_.mode() != plateau::v1::TIMER_NONE; }
  const plateau::v1::TurnTimer& timer() const { return timer_; }

  // The game started at `now`; `acting` must act first.
  void Start(int64_t now, const std::vector<int>& acting);
  // `mover` moved at `now` (`timed_out`: the server played for it because its time ran out;
  // `counts`: the move was the player's own, which ends a run of timeouts). `acting` must act now.
  void Moved(int mover, int64_t now, bool timed_out, bool counts, const std::vector<int>& acting);
  // After a restart at `now`: nobody could act while the server was down, so each running clock
  // has at least `grace_ms` left.
  void Resume(int64_t now, int64_t grace_ms);

  // The earliest time a running clock runs out.
  std::optional<int64_t> NextDeadline() const;
  // A seat whose time has run out at `now` (the one that ran out first), if any.
  std::optional<int> Expired(int64_t now) const;
  int timeouts(int seat) const { return seats_[static_cast<size_t>(seat)].timeouts; }
  // The seat's time ran out timeouts_to_abandon times in a row (never without that limit).
  bool Abandoned(int seat) const;
  // Resets a seat's run of timeouts (its player took it back).
  void ClearTimeouts(int seat) { seats_[static_cast<size_t>(seat)].timeouts = 0; }
  void Fill(int seat, int64_t now, plateau::v1::SeatClock* out) const;

 private:
  struct Seat {
    bool running = false;
    int64_t deadline = 0;  // while running
    int64_t bank = 0;      // clocked: what is left while not running
    int timeouts = 0;
  };
  // The limit of a decision starting now for `seat`.
  int64_t Allowance(const Seat& seat) const;
  plateau::v1::TurnTimer timer_;
  std::vector<Seat> seats_;
};

}  // namespace plateau::server
