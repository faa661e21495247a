#include "clients/cli/pretty.h"

#include "engine/console/record.h"
#include "engine/core/registry.h"

namespace plateau::cli {

std::string PrettyView(const google::protobuf::Message& view) {
  const engine::Game* game = nullptr;
  for (const engine::Game* g : engine::Registry::All())
    if (g->ViewPrototype().GetDescriptor() == view.GetDescriptor()) game = g;
  if (game == nullptr) return console::MessageText(view);
  int you = engine::kSpectator;
  if (const auto* f = view.GetDescriptor()->FindFieldByName("you"))
    if (f->cpp_type() == google::protobuf::FieldDescriptor::CPPTYPE_INT32)
      you = view.GetReflection()->GetInt32(view, f);
  // Seats as this client numbers them everywhere, the viewer's own marked.
  return game->ViewText(view, [you](int seat) {
    std::string out = "seat " + std::to_string(seat);
    return seat == you ? out + " (you)" : out;
  });
}

}  // namespace plateau::cli
