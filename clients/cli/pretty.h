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
// left out it is read from the view's `you` field, if it has one.
inline constexpr int kSeatFromView = -2;
std::string PrettyView(const google::protobuf::Message& view,
                       const std::vector<std::string>& names = {}, int you = kSeatFromView);

}  // namespace plateau::cli
