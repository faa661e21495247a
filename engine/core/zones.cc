#include "engine/core/zones.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <string_view>

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

ZoneTable ZonePieces(const std::vector<Zone>& zones) {
  auto by_name = std::make_shared<std::map<std::string, Zone>>();
  ZoneTable out;
  uint32_t id = 0;
  for (const Zone& z : zones) {
    if (!by_name->emplace(z.name, z).second) std::abort();  // two zones of one name
    for (int i = 0; i < z.pieces->size(); ++i) {
      v1::Piece* p = out.pieces.Add();
      p->set_id(++id);
      p->set_kind(z.pieces->Get(i));
      p->set_owner(-1);
      p->mutable_place()->set_zone(z.name);
      p->mutable_place()->set_index(static_cast<uint32_t>(i));
    }
  }
  out.rules.sight = [by_name](const v1::Piece& p, int seat) {
    return by_name->at(p.place().zone()).CanSee(seat) ? Knowledge::kAll : Knowledge::kPresence;
  };
  out.rules.back = [by_name](const v1::Piece& p) -> uint32_t {
    const Zone& z = by_name->at(p.place().zone());
    return z.back ? z.back(p.kind()) + 1 : 0;
  };
  out.rules.pool = [by_name](const v1::Piece& p) { return by_name->at(p.place().zone()).pool; };
  return out;
}

void RedrawHidden(const std::vector<Zone>& zones, int seat, Rng& rng) {
  ZoneTable table = ZonePieces(zones);
  RedrawHiddenPieces(&table.pieces, table.rules, seat, rng);
  std::map<std::string_view, const Zone*> by_name;
  for (const Zone& z : zones) by_name[z.name] = &z;
  for (const v1::Piece& p : table.pieces) {
    auto* list = const_cast<google::protobuf::RepeatedField<uint32_t>*>(
        by_name.at(p.place().zone())->pieces);
    list->Set(static_cast<int>(p.place().index()), p.kind());
  }
}

}  // namespace plateau::engine
