#include "engine/core/zones.h"

#include <algorithm>
#include <google/protobuf/arena.h>

#include <charconv>
#include <memory>
#include <string>

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

namespace {

using Pieces = google::protobuf::RepeatedPtrField<v1::Piece>;

// The zone a piece of ZonePieces lies in: its number in the list, as its place's zone.
size_t ZoneOf(const v1::Piece& p) {
  const std::string& at = p.place().zone();
  size_t n = 0;
  std::from_chars(at.data(), at.data() + at.size(), n);
  return n;
}

void AddZonePieces(const std::vector<Zone>& zones, Pieces* out) {
  uint32_t id = 0;
  for (size_t z = 0; z < zones.size(); ++z) {
    const std::string at = std::to_string(z);
    for (int i = 0; i < zones[z].pieces->size(); ++i) {
      v1::Piece* p = out->Add();
      p->set_id(++id);
      p->set_kind(zones[z].pieces->Get(i));
      p->set_owner(-1);
      p->mutable_place()->set_zone(at);
      p->mutable_place()->set_index(static_cast<uint32_t>(i));
    }
  }
}

PieceRules ZoneRules(std::shared_ptr<const std::vector<Zone>> all) {
  PieceRules rules;
  rules.sight = [all](const v1::Piece& p, int seat) {
    return (*all)[ZoneOf(p)].CanSee(seat) ? Knowledge::kAll : Knowledge::kPresence;
  };
  rules.back = [all](const v1::Piece& p) -> uint32_t {
    const Zone& z = (*all)[ZoneOf(p)];
    return z.back ? z.back(p.kind()) + 1 : 0;
  };
  rules.pool = [all](const v1::Piece& p) { return (*all)[ZoneOf(p)].pool; };
  return rules;
}

}  // namespace

ZoneTable ZonePieces(const std::vector<Zone>& zones) {
  ZoneTable out;
  AddZonePieces(zones, &out.pieces);
  out.rules = ZoneRules(std::make_shared<const std::vector<Zone>>(zones));
  return out;
}

void RedrawHidden(const std::vector<Zone>& zones, int seat, Rng& rng) {
  // On an arena: a bot draws a position for every playout, and the table is dropped at once.
  google::protobuf::Arena arena;
  Pieces pieces(&arena);
  AddZonePieces(zones, &pieces);
  // The rules read `zones` in place (they live as long as this call): no copy.
  const std::shared_ptr<const std::vector<Zone>> unowned(std::shared_ptr<void>(), &zones);
  RedrawHiddenPieces(&pieces, ZoneRules(unowned), seat, rng);
  for (const v1::Piece& p : pieces) {
    auto* list = const_cast<google::protobuf::RepeatedField<uint32_t>*>(zones[ZoneOf(p)].pieces);
    list->Set(static_cast<int>(p.place().index()), p.kind());
  }
}

}  // namespace plateau::engine
