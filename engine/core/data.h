#pragma once
// Card and board data are textproto files in each game's data/ folder, compiled into the binary
// (see plateau_embed_data in engine/CMakeLists.txt) and parsed when the game's factory runs.
#include <google/protobuf/message.h>

#include <string>
#include <string_view>

#include "engine/core/status.h"

namespace plateau::engine {

// Parses protobuf text format into `out`; returns "" or the first error with line and column.
std::string ParseTextFormat(std::string_view text, google::protobuf::Message* out);

// Parses `text` (the contents of data file `name`) into `out`. On failure the reason names the
// file, line and column.
Status ParseDataFile(std::string_view name, std::string_view text, google::protobuf::Message* out);

}  // namespace plateau::engine
