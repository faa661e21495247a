#include "engine/core/pieces.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <map>
#include <tuple>
#include <utility>

#include "engine/core/game.h"

namespace plateau::engine {
namespace {

using Table = google::protobuf::RepeatedPtrField<v1::Piece>;

uint32_t BackOf(const PieceRules& rules, const v1::Piece& piece) {
  return rules.back ? rules.back(piece) : 0;
}

v1::PieceView Shown(const PieceRules& rules, const v1::Piece& piece, Knowledge knowledge) {
  v1::PieceView v;
  v.set_owner(piece.owner());
  *v.mutable_place() = piece.place();
  v.set_face_down(piece.face_down());
  v.set_back(BackOf(rules, piece));
  if (knowledge == Knowledge::kAll) {
    v.set_handle("p" + std::to_string(piece.id()));
    v.set_kind(piece.kind());
    *v.mutable_attrs() = piece.attrs();
  }
  return v;
}

// A piece `seat` sees the presence of, with the back it shows.
struct Presence {
  const v1::Piece* piece;
  uint32_t back;
};

int Compare(const std::string& a, const std::string& b) { return a.compare(b); }
template <class T>
int Compare(T a, T b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

// What a seat sees of two presences, compared: place, owner, back, face.
bool SeenBefore(const Presence& x, const Presence& y) {
  const v1::Place& a = x.piece->place();
  const v1::Place& b = y.piece->place();
  int c = Compare(static_cast<int>(a.at_case()), static_cast<int>(b.at_case()));
  if (c == 0 && a.has_hex()) c = Compare(a.hex().q(), b.hex().q());
  if (c == 0 && a.has_hex()) c = Compare(a.hex().r(), b.hex().r());
  if (c == 0 && a.has_region()) c = Compare(a.region(), b.region());
  if (c == 0 && a.has_zone()) c = Compare(a.zone(), b.zone());
  if (c == 0) c = Compare(a.index(), b.index());
  if (c == 0) c = Compare(x.piece->owner(), y.piece->owner());
  if (c == 0) c = Compare(x.back, y.back);
  if (c == 0) c = Compare(x.piece->face_down(), y.piece->face_down());
  return c < 0;
}

// The pieces `seat` sees the presence of, in handle order ("h1" first), and those it cannot see
// at all. Ordered by what the seat sees alone, so the numbering says nothing the seat does not
// see; two pieces that look alike keep their table order between them, which only the game reads.
struct Hidden {
  std::vector<Presence> presences;
  std::vector<v1::Piece*> unseen;
};
Hidden HiddenFrom(const Table& pieces, const PieceRules& rules, int seat) {
  Hidden out;
  for (const v1::Piece& p : pieces) {
    switch (KnowledgeOf(rules, p, seat)) {
      case Knowledge::kPresence: out.presences.push_back({&p, BackOf(rules, p)}); break;
      case Knowledge::kNothing: out.unseen.push_back(const_cast<v1::Piece*>(&p)); break;
      default: break;
    }
  }
  std::stable_sort(out.presences.begin(), out.presences.end(), SeenBefore);
  return out;
}

// What the redraw deals among hidden pieces: a piece's kind and numbers, and for a piece the seat
// cannot see at all, whether it lies face down too.
struct Contents {
  uint32_t kind;
  google::protobuf::RepeatedField<int64_t> attrs;
  bool face_down;
  bool operator<(const Contents& o) const {
    if (kind != o.kind) return kind < o.kind;
    if (face_down != o.face_down) return face_down < o.face_down;
    return std::lexicographical_compare(attrs.begin(), attrs.end(), o.attrs.begin(),
                                        o.attrs.end());
  }
};

void Put(const Contents& c, bool unseen, v1::Piece* p) {
  p->set_kind(c.kind);
  if (p->attrs_size() != 0 || !c.attrs.empty()) *p->mutable_attrs() = c.attrs;
  if (unseen) p->set_face_down(c.face_down);
}

int32_t PoolOf(const PieceRules& rules, const v1::Piece& piece) {
  return rules.pool ? rules.pool(piece) : 0;
}

}  // namespace

Knowledge KnowledgeOf(const PieceRules& rules, const v1::Piece& piece, int seat) {
  if (seat >= 0 && piece.owner() == seat) return Knowledge::kAll;
  return rules.sight ? rules.sight(piece, seat) : Knowledge::kAll;
}

std::vector<v1::PieceView> ViewPieces(const Table& pieces, const PieceRules& rules, int seat) {
  std::vector<const v1::Piece*> known;
  for (const v1::Piece& p : pieces) {
    if (KnowledgeOf(rules, p, seat) == Knowledge::kAll) known.push_back(&p);
  }
  std::sort(known.begin(), known.end(),
            [](const v1::Piece* a, const v1::Piece* b) { return a->id() < b->id(); });
  std::vector<v1::PieceView> out;
  for (const v1::Piece* p : known) out.push_back(Shown(rules, *p, Knowledge::kAll));
  size_t n = 0;
  for (const Presence& h : HiddenFrom(pieces, rules, seat).presences) {
    out.push_back(Shown(rules, *h.piece, Knowledge::kPresence));
    out.back().set_handle("h" + std::to_string(++n));
  }
  return out;
}

const v1::Piece* PieceByHandle(const Table& pieces, const PieceRules& rules, int seat,
                               std::string_view handle) {
  if (handle.size() < 2) return nullptr;
  uint32_t n = 0;
  const auto [end, error] = std::from_chars(handle.data() + 1, handle.data() + handle.size(), n);
  if (error != std::errc() || end != handle.data() + handle.size()) return nullptr;
  if (handle[0] == 'p') {
    for (const v1::Piece& p : pieces) {
      if (p.id() == n && KnowledgeOf(rules, p, seat) == Knowledge::kAll) return &p;
    }
    return nullptr;
  }
  if (handle[0] != 'h' || n == 0) return nullptr;
  const auto presences = HiddenFrom(pieces, rules, seat).presences;
  return n <= presences.size() ? presences[n - 1].piece : nullptr;
}

void RedrawHiddenPieces(Table* pieces, const PieceRules& rules, int seat, Rng& rng) {
  // Pools: pieces hidden the same way from the seat, of one owner and pool. The pools are walked
  // in key order and the pieces of a pool in an order the seat sees (presences by their handle,
  // unseen pieces all alike), so the deal depends only on what the seat sees and on `rng`.
  using PoolKey = std::tuple<int, int32_t, int32_t>;  // knowledge, owner, pool
  std::map<PoolKey, std::vector<v1::Piece*>> pools;
  std::vector<uint32_t> hidden_ids;
  const Hidden hidden = HiddenFrom(*pieces, rules, seat);
  for (const Presence& h : hidden.presences) {
    v1::Piece* p = const_cast<v1::Piece*>(h.piece);
    pools[{1, p->owner(), PoolOf(rules, *p)}].push_back(p);
  }
  for (v1::Piece* p : hidden.unseen) pools[{2, p->owner(), PoolOf(rules, *p)}].push_back(p);
  for (auto& [key, members] : pools) {
    for (v1::Piece* p : members) hidden_ids.push_back(p->id());
  }
  std::sort(hidden_ids.begin(), hidden_ids.end());

  size_t next_id = 0;
  for (auto& [key, members] : pools) {
    const bool unseen = std::get<0>(key) == 2;
    std::vector<Contents> pile;
    std::vector<uint32_t> backs;
    for (const v1::Piece* p : members) {
      // A presence's face is seen, so it stays with its place; an unseen piece's goes with it.
      pile.push_back({p->kind(), p->attrs(), unseen && p->face_down()});
      backs.push_back(BackOf(rules, *p));
    }
    // Sorted before the shuffle: the pile depends on what is hidden, not on where it lay.
    std::sort(pile.begin(), pile.end());
    rng.Shuffle(pile);
    // Pieces showing a back take the first contents that show it there, tried on the piece
    // itself; then the pieces showing none take what is left, in turn.
    std::vector<size_t> dealt(members.size());
    std::vector<bool> used(pile.size(), false);
    for (const bool with_back : {true, false}) {
      for (size_t i = 0; i < members.size(); ++i) {
        if ((backs[i] != 0) != with_back) continue;
        size_t k = 0;
        for (; k < pile.size(); ++k) {
          if (used[k]) continue;
          if (!with_back) break;
          Put(pile[k], unseen, members[i]);
          if (BackOf(rules, *members[i]) == backs[i]) break;
        }
        if (k == pile.size()) std::abort();  // more pieces showing a back than contents showing it
        used[k] = true;
        dealt[i] = k;
      }
    }
    std::vector<v1::Place> places;
    if (unseen && !rules.could_be) {
      for (const v1::Piece* p : members) places.push_back(p->place());
      std::sort(places.begin(), places.end(), [](const v1::Place& a, const v1::Place& b) {
        return DeterministicBytes(a) < DeterministicBytes(b);
      });
      rng.Shuffle(places);
    }
    for (size_t i = 0; i < members.size(); ++i) {
      v1::Piece* p = members[i];
      Put(pile[dealt[i]], unseen, p);
      if (unseen) {
        if (rules.could_be) {
          const std::vector<v1::Place> options = rules.could_be(*p, seat);
          if (!options.empty()) *p->mutable_place() = options[rng.Below(options.size())];
        } else {
          *p->mutable_place() = places[i];
        }
      }
      p->set_id(hidden_ids[next_id++]);
    }
  }
  std::sort(pieces->pointer_begin(), pieces->pointer_end(),
            [](const v1::Piece* a, const v1::Piece* b) { return a->id() < b->id(); });
}

}  // namespace plateau::engine
