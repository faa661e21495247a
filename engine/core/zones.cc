#include "engine/core/zones.h"

#include <algorithm>
#include <cstdlib>
#include <map>

namespace plateau::engine {

bool Zone::CanSee(int seat) const {
  switch (visibility) {
    case Visibility::kEveryone: return true;
    case Visibility::kSeats: return std::find(seats.begin(), seats.end(), seat) != seats.end();
    default: return false;
  }
}

std::vector<uint32_t> VisiblePieces(const Zone& zone, int seat) {
  if (!zone.CanSee(seat)) return {};
  return std::vector<uint32_t>(zone.pieces->begin(), zone.pieces->end());
}

void RedrawHidden(const std::vector<Zone>& zones, int seat, Rng& rng) {
  struct Slot {
    const Zone* zone;
    int index;
  };
  // Per pool: the hidden places (those that show a back first) and the kinds they hold.
  std::map<int, std::vector<Slot>> backed, plain;
  std::map<int, std::vector<uint32_t>> kinds;
  for (const Zone& z : zones) {
    if (z.CanSee(seat)) continue;
    for (int i = 0; i < z.pieces->size(); ++i) {
      (z.back ? backed : plain)[z.pool].push_back({&z, i});
      kinds[z.pool].push_back(z.pieces->Get(i));
    }
  }
  for (auto& [pool, pile] : kinds) {
    // Sorted before the shuffle: the pile then depends on which kinds are hidden, never on where
    // they lie, so two positions a seat cannot tell apart redraw alike (State::SampleForSeat).
    std::sort(pile.begin(), pile.end());
    rng.Shuffle(pile);
    std::vector<bool> used(pile.size(), false);
    auto deal = [&](const Slot& s, bool match_back) {
      const uint32_t want = match_back ? s.zone->back(s.zone->pieces->Get(s.index)) : 0;
      for (size_t k = 0; k < pile.size(); ++k) {
        if (used[k] || (match_back && s.zone->back(pile[k]) != want)) continue;
        used[k] = true;
        return pile[k];
      }
      std::abort();  // more places with a back than pieces with it: impossible by construction
    };
    // Read every back before writing any kind: a back is read from the place's current piece.
    std::vector<std::pair<Slot, uint32_t>> dealt;
    for (const Slot& s : backed[pool]) dealt.push_back({s, deal(s, true)});
    for (const Slot& s : plain[pool]) dealt.push_back({s, deal(s, false)});
    for (const auto& [s, kind] : dealt)
      const_cast<google::protobuf::RepeatedField<uint32_t>*>(s.zone->pieces)->Set(s.index, kind);
  }
}

}  // namespace plateau::engine
