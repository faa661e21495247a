#pragma once
// Places that hold pieces (a deck, a hand, a display, the cards drawn) and who may see what is in
// them. A game keeps its pieces in its own position as lists of piece kinds (card numbers, unit
// types) and describes each list as a Zone; the core then says what a seat sees of it and redraws
// everything a seat cannot see (the hidden-information property of the conformance suite is
// built on that redraw, so a game that declares its zones gets it right by construction).
// A zone is a case of pieces (pieces.h): its entries are pieces in a zone place, the zone's
// visibility their sight, and the redraw is the pieces' own (ZonePieces).
#include <google/protobuf/repeated_field.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/core/pieces.h"
#include "engine/core/rng.h"

namespace plateau::engine {

enum class Visibility {
  kEveryone,  // face up: every seat and spectators
  kSeats,     // only the zone's seats (an owner's hand: one seat)
  kNobody,    // face down: a deck, whose order nobody knows either
};

struct Zone {
  std::string name;  // for messages ("deck 2 of seat 1")
  // The game's own list: one entry per piece, what the piece is, in order (top first).
  const google::protobuf::RepeatedField<uint32_t>* pieces = nullptr;
  Visibility visibility = Visibility::kEveryone;
  std::vector<int> seats;  // kSeats
  // Hidden pieces are redrawn only among hidden pieces of the same pool (a nation's own cards
  // never end up in another nation's deck).
  int pool = 0;
  // What shows of a hidden piece (the back of a card: the deck it belongs to). A hidden piece is
  // redrawn only from pieces with the same back. Null: this zone shows nothing of its pieces'
  // backs (any hidden piece of the pool may be there).
  std::function<uint32_t(uint32_t kind)> back;

  bool CanSee(int seat) const;
};

// What `seat` (kSpectator: an onlooker) sees of `zone`: its pieces, or none when hidden (the
// count is public either way: zone.pieces->size()). Views read a zone's pieces through this and
// the same Zone the game declares in GameZones, so what a seat is shown and what the hidden-
// information check redraws cannot disagree. A hidden piece is shown without any id: a game that
// needs handles on hidden pieces numbers them per audience, never by the piece's own number.
std::vector<uint32_t> VisiblePieces(const Zone& zone, int seat);

// The zones' pieces as one table of pieces (pieces.h): entry i of the zone numbered z in `zones`
// is a piece with the entry's kind at Place{zone: z in decimal, index: i}, owned by nobody. Its
// rules are the zones': a seat that can see a zone knows its pieces (kAll), another sees only
// that they are there (kPresence) and the zone's back (one more than Zone::back's, 0 for a zone
// without one); the pools are the zones'. VisiblePieces shows what ViewPieces shows of this table
// (the known pieces' kinds, in order), and RedrawHidden is its redraw. The rules keep copies of
// the zones: the game's lists must outlive them.
struct ZoneTable {
  google::protobuf::RepeatedPtrField<v1::Piece> pieces;
  PieceRules rules;
};
ZoneTable ZonePieces(const std::vector<Zone>& zones);

// Redraws every piece `seat` cannot see: the zones' pieces (ZonePieces) redrawn as pieces are
// (RedrawHiddenPieces). Within each pool, the hidden pieces' kinds are shuffled and dealt back,
// first to the places whose back is shown (a piece with the same back), then to the others. The
// result depends on the kinds hidden, the seat's view and `rng`, not on where the hidden kinds
// lay before. Sizes, backs and everything `seat` can see stay as they were. Aborts if a back
// cannot be matched. Writes through the zones' pieces: they must point into a position the
// caller owns and may change (State::PerturbHidden's copy).
void RedrawHidden(const std::vector<Zone>& zones, int seat, Rng& rng);

}  // namespace plateau::engine
