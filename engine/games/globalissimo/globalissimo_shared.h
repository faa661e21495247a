#pragma once
// Shared by Globalissimo's source files (private to the game's folder): the names they use and
// the form of a map answer.
#include <algorithm>
#include <string_view>

#include "engine/core/game.h"

namespace plateau::games::globalissimo {

// The names every source file uses.
namespace ec = engine::codes;
using engine::Seat;
using engine::Status;
using engine::T;

// Three digits: the form of a map id, checked in the card file and in a map answer alike.
inline bool IsThreeDigits(std::string_view s) {
  return s.size() == 3 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace plateau::games::globalissimo
