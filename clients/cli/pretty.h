#pragma once
// Views for a terminal, as each game renders them (Game::ViewText: the game's compact lines, then
// the viewer's questions and the latest log entries in words). Messages that are no game's view
// print as text format.
#include <google/protobuf/message.h>

#include <string>

namespace plateau::cli {

// The view for people, ending with a newline.
std::string PrettyView(const google::protobuf::Message& view);

}  // namespace plateau::cli
