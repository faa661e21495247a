#pragma once
// Views for a terminal, as each game renders them (Game::ViewText: the game's compact lines, then
// the viewer's questions and the latest log entries in words). Messages that are no game's view
// print as text format.
//
// Seats are named as the web client names them: by the player's name, else "seat N" counted from
// 1, the viewer's own marked "(you)". Only the wire counts from 0.
#include <google/protobuf/message.h>

#include <functional>
#include <string>
#include <vector>

#include "engine/core/game.h"
#include "engine/core/status.h"
#include "plateau/v1/protocol.pb.h"

namespace plateau::cli {

// Names by seat (empty where unknown): the room's seats, or a replay's results.
std::vector<std::string> SeatNames(const plateau::v1::RoomInfo& room);
std::vector<std::string> SeatNames(const plateau::v1::ReplaySummary& summary);

// "seat 2" for wire seat 1: the number people see.
std::string SeatNumber(int seat);
// `names[seat]`, or SeatNumber(seat) when unnamed; "(you)" added for `you`.
std::function<std::string(int)> SeatNamer(std::vector<std::string> names, int you);

// The view for people, ending with a newline. `you` is the viewer's seat (-1: a spectator); when
// left out it is read from the view's `you` field, if it has one. Without `with_log` the log's
// latest entries are left out (the client prints the log itself, see ViewTracker::LogToShow).
inline constexpr int kSeatFromView = -2;
std::string PrettyView(const google::protobuf::Message& view,
                       const std::vector<std::string>& names = {}, int you = kSeatFromView,
                       bool with_log = true);

// One of a game's own moves in words: "choose agent: director", "place: slot 0, position 1",
// "choose first: Ann". The engine gives words to its questions' options and to its log, not to
// these moves, so the words are the Action message's own: the move's field name, then each value
// (enum values by their name without the enum's shared prefix, in lower case; seats by `name`,
// so they count from 1 like every seat people read). A core move reads "resign" or "answer ...".
std::string MoveWords(const google::protobuf::Message& action,
                      const std::function<std::string(int)>& name);

// A move the view publishes (engine::PublishedMoves) in words: the words of the choices that lead
// to it, joined ("Play Schooling, Class B"), as the game gives them; a member of a family leaf by
// its fields (MoveWords), since its choices' words do not name its values.
std::string PublishedMoveWords(const engine::Game& game, const engine::PublishedMove& move,
                               const std::function<std::string(int)>& name);

// Seat fields: integers (or lists of them) the game marks with the `plateau.v1.seat` option
// (options.proto), whatever their name (LIMIT's `target` is one).
bool IsSeatField(const google::protobuf::FieldDescriptor& field);
// `act` takes seats counted from 1, as people count them everywhere else: the seat fields of
// `action` turned to the wire's count from 0. Fails on a seat of 0 (the action is then not to be
// sent); a negative value is a game's marker, such as LIMIT's star nation, and is left as it is.
engine::Status SeatsFromPeople(google::protobuf::Message* action);

}  // namespace plateau::cli
