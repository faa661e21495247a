#pragma once
// Pieces with places and per-seat sight (pieces.proto). A game keeps its pieces as a table of
// v1::Piece in its position and states, once, who may know what of each: the core then builds
// every seat's PieceViews and redraws what a seat cannot know (State::PerturbHidden, the bots'
// samples), so a view and the hidden-information checks follow from the same rule.
//
// What a seat may know of a piece:
//   kAll       its kind, numbers, place and id (a public unit; one's own pieces, always);
//   kPresence  that a piece of that owner and back is at that place, not which (a building
//              built face down: the others see a building site);
//   kNothing   not even where it is (a stealth unit): the piece is missing from the seat's view.
// How many pieces each owner has of each back is public: a game that hides a count keeps those
// pieces out of the table.
#include <google/protobuf/repeated_field.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/rng.h"
#include "plateau/v1/pieces.pb.h"

namespace plateau::engine {

namespace v1 = ::plateau::v1;

enum class Knowledge { kAll, kPresence, kNothing };

struct PieceRules {
  // What a seat that does not own `piece` knows of it (kSpectator included). Null: everything,
  // every piece being public. A rule may read the whole position (a unit spotted because an
  // enemy stands next to it), but it must give the same answer for two positions the seat cannot
  // tell apart.
  std::function<Knowledge(const v1::Piece& piece, int seat)> sight;
  // What shows of a piece whose kind is hidden (the back of its card, a site's size), read from
  // the piece alone. 0 shows nothing: such a piece may hold anything hidden in its pool (a card in
  // a hidden hand, which could come from any of its owner's decks). Another back is matched: the
  // redraw gives a piece only contents that would show the same back where it lies. Null: 0 for
  // every piece.
  std::function<uint32_t(const v1::Piece& piece)> back;
  // Where a piece a seat cannot see at all could be, for the redraw: every place the seat cannot
  // rule out. Null: the hidden piece is redrawn among the places of the hidden pieces of its pool
  // (they are shuffled among themselves).
  std::function<std::vector<v1::Place>(const v1::Piece& piece, int seat)> could_be;
  // The redraw's pools within one owner's pieces: hidden pieces trade what they are only with
  // pieces of the same owner and pool (a nation's own cards never end up in another nation's
  // deck). Null: one pool per owner.
  std::function<int32_t(const v1::Piece& piece)> pool;
};

// A game's table of pieces and its rules, as the game declares it to the core (State::GamePieces):
// `pieces` points into the game's own position, which State::PerturbHidden redraws on its copy
// (so only a position that may change lists its tables).
struct PieceTable {
  std::string name;  // for messages
  google::protobuf::RepeatedPtrField<v1::Piece>* pieces = nullptr;
  PieceRules rules;
};

// What `seat` knows of `piece`: everything when it owns it, else the rules' sight.
Knowledge KnowledgeOf(const PieceRules& rules, const v1::Piece& piece, int seat);

// Every piece `seat` may see, as it may see it: known pieces in id order, then the pieces it sees
// the presence of, ordered and numbered by what it sees (place, owner, back, face) alone.
std::vector<v1::PieceView> ViewPieces(const google::protobuf::RepeatedPtrField<v1::Piece>& pieces,
                                      const PieceRules& rules, int seat);

// The piece `handle` names for `seat` (a handle of its view), or null: an action naming a piece
// the seat cannot see, or a handle it was never shown, finds nothing.
const v1::Piece* PieceByHandle(const google::protobuf::RepeatedPtrField<v1::Piece>& pieces,
                               const PieceRules& rules, int seat, std::string_view handle);

// Redraws what `seat` cannot know, keeping everything it can: among the pieces of one owner and
// pool hidden from it, kinds and numbers are shuffled and dealt back (each keeping its place when
// the seat sees its presence), first to the pieces that show a back (each a content showing the
// same back), then to those that show none; pieces it cannot see at all are put at a place drawn
// from `could_be`, and the hidden pieces' ids are dealt again in order. The result is a function
// of what `seat` sees and `rng`: two positions it cannot tell apart redraw alike
// (State::SampleForSeat). The table is left in id order. Aborts if a back cannot be matched (the
// rules broke their own description).
void RedrawHiddenPieces(google::protobuf::RepeatedPtrField<v1::Piece>* pieces,
                        const PieceRules& rules, int seat, Rng& rng);

}  // namespace plateau::engine
