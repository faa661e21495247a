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

// The pieces `seat` sees the presence of, each with its view, in handle order ("h1" first).
// Ordered by the view's bytes alone, so the numbering says nothing the seat does not see; two
// pieces that look alike keep their table order between them, which only the game reads.
std::vector<std::pair<v1::PieceView, const v1::Piece*>> Presences(const Table& pieces,
                                                                  const PieceRules& rules,
                                                                  int seat) {
  std::vector<std::pair<std::string, std::pair<v1::PieceView, const v1::Piece*>>> sorted;
  for (const v1::Piece& p : pieces) {
    if (KnowledgeOf(rules, p, seat) != Knowledge::kPresence) continue;
    v1::PieceView v = Shown(rules, p, Knowledge::kPresence);
    std::string key = DeterministicBytes(v);
    sorted.push_back({std::move(key), {std::move(v), &p}});
  }
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::pair<v1::PieceView, const v1::Piece*>> out;
  out.reserve(sorted.size());
  for (auto& [key, entry] : sorted) {
    entry.first.set_handle("h" + std::to_string(out.size() + 1));
    out.push_back(std::move(entry));
  }
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
  for (auto& [view, piece] : Presences(pieces, rules, seat)) out.push_back(std::move(view));
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
  const auto presences = Presences(pieces, rules, seat);
  return n <= presences.size() ? presences[n - 1].second : nullptr;
}

void RedrawHiddenPieces(Table* pieces, const PieceRules& rules, int seat, Rng& rng) {
  // Pools: pieces hidden the same way from the seat, of one owner and pool. The pools are walked
  // in key order and the pieces of a pool in an order the seat sees (presences by their handle,
  // unseen pieces all alike), so the deal depends only on what the seat sees and on `rng`.
  using PoolKey = std::tuple<int, int32_t, int32_t>;  // knowledge, owner, pool
  std::map<PoolKey, std::vector<v1::Piece*>> pools;
  std::vector<uint32_t> hidden_ids;
  for (const auto& [view, piece] : Presences(*pieces, rules, seat)) {
    pools[{1, piece->owner(), PoolOf(rules, *piece)}].push_back(const_cast<v1::Piece*>(piece));
  }
  for (v1::Piece& p : *pieces) {
    if (KnowledgeOf(rules, p, seat) == Knowledge::kNothing)
      pools[{2, p.owner(), PoolOf(rules, p)}].push_back(&p);
  }
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
