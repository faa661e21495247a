#pragma once
// Compact, game-specific renderings of views for a terminal. A full text-format dump of a
// Globalissimo view runs to hundreds of lines (mostly the score track); players want the cards,
// the pawns and the question. Games without a renderer here fall back to the text format.
#include <google/protobuf/message.h>

#include <string>

namespace plateau::cli {

// The view for people, ending with a newline.
std::string PrettyView(const google::protobuf::Message& view);

}  // namespace plateau::cli
