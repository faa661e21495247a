#include "clients/cli/pretty.h"

#include "engine/console/record.h"
#include "engine/core/registry.h"

namespace plateau::cli {

std::vector<std::string> SeatNames(const plateau::v1::RoomInfo& room) {
  std::vector<std::string> names;
  for (const auto& s : room.seats()) {
    if (s.seat() < 0 || s.seat() > 64) continue;
    if (names.size() <= static_cast<size_t>(s.seat())) names.resize(s.seat() + 1);
    names[s.seat()] = s.player_id().empty() ? "" : s.name();
  }
  return names;
}

std::vector<std::string> SeatNames(const plateau::v1::ReplaySummary& summary) {
  std::vector<std::string> names;
  for (const auto& r : summary.results()) {
    if (r.seat() > 64) continue;
    if (names.size() <= r.seat()) names.resize(r.seat() + 1);
    names[r.seat()] = r.name();
  }
  return names;
}

std::string SeatNumber(int seat) { return "seat " + std::to_string(seat + 1); }

std::function<std::string(int)> SeatNamer(std::vector<std::string> names, int you) {
  return [names = std::move(names), you](int seat) {
    const bool named = seat >= 0 && static_cast<size_t>(seat) < names.size() && !names[seat].empty();
    std::string out = named ? names[seat] : SeatNumber(seat);
    return seat == you && you >= 0 ? out + " (you)" : out;
  };
}

std::string PrettyView(const google::protobuf::Message& view, const std::vector<std::string>& names,
                       int you) {
  const engine::Game* game = nullptr;
  for (const engine::Game* g : engine::Registry::All())
    if (g->ViewPrototype().GetDescriptor() == view.GetDescriptor()) game = g;
  if (game == nullptr) return console::MessageText(view);
  if (you == kSeatFromView) {
    you = engine::kSpectator;
    const auto* f = view.GetDescriptor()->FindFieldByName("you");
    if (f != nullptr && f->cpp_type() == google::protobuf::FieldDescriptor::CPPTYPE_INT32)
      you = view.GetReflection()->GetInt32(view, f);
  }
  return game->ViewText(view, SeatNamer(names, you));
}

}  // namespace plateau::cli
