#pragma once
// Paced mode's schedule for one room: one submit per interval (rooms/rate seconds), from a
// random point of the first interval, shared by the games' rooms and the floor's.
#include <algorithm>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <random>
#include <vector>

#include "clients/load/metrics.h"

namespace plateau::load {

// Waiter: a bot with MaybeAct(), called back when the next slot comes. Used on the room's strand
// only.
template <class Waiter>
class Pace {
 public:
  // `rate` 0 is the closed loop: every submit may go at once.
  template <class Executor>
  Pace(const Executor& strand, int rooms, double rate) : timer_(strand) {
    if (rate <= 0) return;
    interval_ = std::chrono::duration_cast<Clock::duration>(
        std::chrono::duration<double>(rooms / rate));
    if (interval_ <= Clock::duration::zero()) interval_ = Clock::duration(1);
  }

  // A game starts: the first slot at a random point of one interval, so that the rooms' submits
  // spread evenly instead of arriving together. Only the first call counts.
  void Start(std::mt19937_64& rng) {
    if (interval_ == Clock::duration::zero() || started_) return;
    started_ = true;
    std::uniform_real_distribution<double> offset(0.0, 1.0);
    next_slot_ =
        Clock::now() + std::chrono::duration_cast<Clock::duration>(interval_ * offset(rng));
  }

  // True when `waiter` may submit now; otherwise it is called back (MaybeAct) when the next slot
  // comes. Always true in closed loop.
  bool Take(Waiter& waiter) {
    if (interval_ == Clock::duration::zero()) return true;
    const auto now = Clock::now();
    if (now >= next_slot_) {
      // On schedule while the room keeps up; a room that fell behind goes on from now, catching
      // up by one submit at most rather than a burst.
      next_slot_ = std::max(next_slot_ + interval_, now);
      return true;
    }
    if (std::find(waiting_.begin(), waiting_.end(), &waiter) == waiting_.end()) {
      waiting_.push_back(&waiter);
    }
    if (!armed_) {
      armed_ = true;
      timer_.expires_at(next_slot_);
      timer_.async_wait([this](const boost::system::error_code& ec) {
        armed_ = false;
        if (ec || stopped_) return;
        std::vector<Waiter*> waiting;
        waiting.swap(waiting_);
        // The first that still has something to do takes the slot; the others queue again.
        for (Waiter* w : waiting) w->MaybeAct();
      });
    }
    return false;
  }

  // A refused submit gives its slot back, so the rate asked is of accepted actions.
  void Return() {
    if (interval_ > Clock::duration::zero()) next_slot_ -= interval_;
  }

  // The room stops or fails: nobody is called back any more.
  void Stop() {
    stopped_ = true;
    timer_.cancel();
    waiting_.clear();
  }

 private:
  Clock::duration interval_{};
  Clock::time_point next_slot_{};
  bool started_ = false;
  boost::asio::steady_timer timer_;
  bool armed_ = false;
  bool stopped_ = false;
  std::vector<Waiter*> waiting_;
};

}  // namespace plateau::load
