#pragma once
// What a Diff must say of who made its move (Diff.mover_seat), checked by the session's tests and
// by the games played over loopback.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "plateau/v1/protocol.pb.h"

namespace plateau::server::testing {

// Checks the Diff of seat `mover`'s move (made `origin`-wise) as the recipient `viewer` (a seat,
// or -1 for a spectator) got it. It names the mover when the viewer can tell who moved from
// what he knows, and only then: his own move; the mover was the only seat acting before it but
// for him (an unnamed move is never his own); or the one seat that stopped acting while every
// other acting seat went on. The acting seats before the move are `acting_before`, those after
// it the Diff's.
inline void ExpectMoverNamed(const plateau::v1::Diff& diff, int mover,
                             const std::vector<int>& acting_before, int viewer,
                             plateau::v1::ActionOrigin origin = plateau::v1::ORIGIN_PLAYER) {
  const std::vector<int> after(diff.acting_seats().begin(), diff.acting_seats().end());
  const auto acts = [](const std::vector<int>& seats, int s) {
    return std::find(seats.begin(), seats.end(), s) != seats.end();
  };
  std::vector<int> others;  // the seats acting before, the viewer aside
  for (int s : acting_before) {
    if (s != viewer) others.push_back(s);
  }
  bool told = viewer == mover || others == std::vector<int>{mover};
  if (!told && acts(acting_before, mover) && !acts(after, mover)) {
    told = std::all_of(acting_before.begin(), acting_before.end(),
                       [&](int s) { return s == mover || acts(after, s); });
  }
  if (told) {
    EXPECT_TRUE(diff.has_mover_seat() && diff.mover_seat() == mover)
        << "version " << diff.diff().to_version() << ": seat " << mover << " moved, the Diff says "
        << (diff.has_mover_seat() ? std::to_string(diff.mover_seat()) : "nothing");
    EXPECT_EQ(diff.mover_origin(), origin);
  } else {
    EXPECT_FALSE(diff.has_mover_seat())
        << "version " << diff.diff().to_version() << " names seat " << mover
        << ", still acting among " << acting_before.size() << " seats acting at once";
  }
}

}  // namespace plateau::server::testing
