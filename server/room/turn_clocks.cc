// A room's turn clocks (see turn_clocks.h): pure bookkeeping on the times the room passes in.
#include "server/room/turn_clocks.h"

#include <algorithm>

namespace plateau::server {

namespace v1 = plateau::v1;

std::string TurnClocks::Invalid(const v1::TurnTimer& timer) {
  if (timer.timeouts_to_abandon() > 20) {
    return "A seat counts as abandoned after at most 20 timeouts in a row (0: never).";
  }
  switch (timer.mode()) {
    case v1::TIMER_NONE:
      return "";
    case v1::TIMER_PER_MOVE:
      if (timer.per_move_seconds() < 10 || timer.per_move_seconds() > 86400) {
        return "A limit per decision is between 10 seconds and 24 hours.";
      }
      return "";
    case v1::TIMER_CLOCK:
      if (timer.bank_seconds() < 30 || timer.bank_seconds() > 86400) {
        return "A clock's time bank is between 30 seconds and 24 hours.";
      }
      if (timer.increment_seconds() > 3600) {
        return "A clock's increment is at most one hour.";
      }
      return "";
    default:
      return "Unknown timer mode.";
  }
}

TurnClocks::TurnClocks(const v1::TurnTimer& timer, int seats) : timer_(timer) {
  seats_.resize(static_cast<size_t>(seats));
  for (Seat& s : seats_) s.bank = int64_t{timer_.bank_seconds()} * 1000;
}

int64_t TurnClocks::Allowance(const Seat& seat) const {
  if (timer_.mode() == v1::TIMER_PER_MOVE) return int64_t{timer_.per_move_seconds()} * 1000;
  return std::max(seat.bank, kMinDecisionMs);
}

void TurnClocks::Start(int64_t now, const std::vector<int>& acting) {
  if (!enabled()) return;
  for (int a : acting) {
    if (a < 0 || static_cast<size_t>(a) >= seats_.size()) continue;
    Seat& s = seats_[static_cast<size_t>(a)];
    s.running = true;
    s.deadline = now + Allowance(s);
  }
}

void TurnClocks::Moved(int mover, int64_t now, bool timed_out, bool counts,
                       const std::vector<int>& acting) {
  if (!enabled()) return;
  const bool clocked = timer_.mode() == v1::TIMER_CLOCK;
  if (mover >= 0 && static_cast<size_t>(mover) < seats_.size()) {
    Seat& m = seats_[static_cast<size_t>(mover)];
    if (m.running) {
      // The mover's decision is over, whether or not another follows at once.
      if (clocked) {
        m.bank = std::max<int64_t>(0, m.deadline - now) + int64_t{timer_.increment_seconds()} * 1000;
      }
      m.running = false;
    }
    if (timed_out) {
      ++m.timeouts;
    } else if (counts) {
      m.timeouts = 0;
    }
  }
  std::vector<bool> acts(seats_.size(), false);
  for (int a : acting) {
    if (a >= 0 && static_cast<size_t>(a) < seats_.size()) acts[static_cast<size_t>(a)] = true;
  }
  for (size_t i = 0; i < seats_.size(); ++i) {
    Seat& s = seats_[i];
    if (s.running && !acts[i]) {
      // Someone else's move ended this seat's decision: its bank keeps what was left.
      if (clocked) s.bank = std::max<int64_t>(0, s.deadline - now);
      s.running = false;
    } else if (!s.running && acts[i]) {
      s.running = true;
      s.deadline = now + Allowance(s);
    }
  }
}

void TurnClocks::Resume(int64_t now, int64_t grace_ms) {
  for (Seat& s : seats_) {
    if (s.running) s.deadline = std::max(s.deadline, now + grace_ms);
  }
}

std::optional<int64_t> TurnClocks::NextDeadline() const {
  std::optional<int64_t> next;
  for (const Seat& s : seats_) {
    if (s.running && (!next || s.deadline < *next)) next = s.deadline;
  }
  return next;
}

std::optional<int> TurnClocks::Expired(int64_t now) const {
  std::optional<int> first;
  for (size_t i = 0; i < seats_.size(); ++i) {
    const Seat& s = seats_[i];
    if (!s.running || s.deadline > now) continue;
    if (!first || s.deadline < seats_[static_cast<size_t>(*first)].deadline) {
      first = static_cast<int>(i);
    }
  }
  return first;
}

bool TurnClocks::Abandoned(int seat) const {
  return enabled() && timer_.timeouts_to_abandon() > 0 &&
         seats_[static_cast<size_t>(seat)].timeouts >= static_cast<int>(timer_.timeouts_to_abandon());
}

void TurnClocks::Fill(int seat, int64_t now, v1::SeatClock* out) const {
  const Seat& s = seats_[static_cast<size_t>(seat)];
  out->set_running(s.running);
  if (s.running) {
    out->set_remaining_ms(static_cast<uint64_t>(std::max<int64_t>(0, s.deadline - now)));
  } else if (timer_.mode() == v1::TIMER_CLOCK) {
    out->set_remaining_ms(static_cast<uint64_t>(s.bank));
  }
  out->set_timeouts(static_cast<uint32_t>(s.timeouts));
}

}  // namespace plateau::server
