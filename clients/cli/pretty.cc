#include "clients/cli/pretty.h"

#include <google/protobuf/text_format.h>

#include <algorithm>
#include <cctype>

#include "engine/console/command_line.h"
#include "engine/console/record.h"
#include "engine/core/registry.h"
#include "plateau/v1/options.pb.h"

namespace plateau::cli {

std::vector<std::string> SeatNames(const plateau::v1::RoomInfo& room) {
  std::vector<std::string> names;
  for (const auto& s : room.seats()) {
    if (s.seat() > 64) continue;  // unsigned; a seat past any game's count is garbage
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
                       int you, bool with_log) {
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
  if (with_log) return game->ViewText(view, SeatNamer(names, you));
  std::unique_ptr<google::protobuf::Message> copy(view.New());
  copy->CopyFrom(view);
  if (const auto* f = copy->GetDescriptor()->FindFieldByName("table");
      f != nullptr && engine::ViewTable(*copy) != nullptr) {
    static_cast<engine::v1::Table*>(copy->GetReflection()->MutableMessage(copy.get(), f))->clear_log();
  }
  return game->ViewText(*copy, SeatNamer(names, you));
}

namespace {

using google::protobuf::FieldDescriptor;

std::string Spaced(std::string_view name) {
  std::string out(name);
  std::replace(out.begin(), out.end(), '_', ' ');
  return out;
}

// An enum value as a word: AGENT_DIRECTOR among AGENT_* reads "director".
std::string EnumWord(const google::protobuf::EnumValueDescriptor& value) {
  const auto& type = *value.type();
  std::string prefix = type.value(0)->name();
  for (int i = 1; i < type.value_count(); ++i) {
    const std::string& other = type.value(i)->name();
    size_t n = 0;
    while (n < prefix.size() && n < other.size() && prefix[n] == other[n]) ++n;
    prefix.resize(n);
  }
  prefix.resize(prefix.rfind('_') == std::string::npos ? 0 : prefix.rfind('_') + 1);
  std::string word = value.name().substr(prefix.size());
  if (word.empty()) word = value.name();
  std::transform(word.begin(), word.end(), word.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return Spaced(word);
}

int64_t IntegerOf(const google::protobuf::Message& m, const FieldDescriptor& f, int index) {
  const auto* r = m.GetReflection();
  const bool rep = f.is_repeated();
  switch (f.cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32: return rep ? r->GetRepeatedInt32(m, &f, index) : r->GetInt32(m, &f);
    case FieldDescriptor::CPPTYPE_INT64: return rep ? r->GetRepeatedInt64(m, &f, index) : r->GetInt64(m, &f);
    case FieldDescriptor::CPPTYPE_UINT32: return rep ? r->GetRepeatedUInt32(m, &f, index) : r->GetUInt32(m, &f);
    case FieldDescriptor::CPPTYPE_UINT64:
      return static_cast<int64_t>(rep ? r->GetRepeatedUInt64(m, &f, index) : r->GetUInt64(m, &f));
    default: return 0;
  }
}

std::string FieldsWords(const google::protobuf::Message& m, const std::function<std::string(int)>& name);

std::string ValueWords(const google::protobuf::Message& m, const FieldDescriptor& f, int index,
                       const std::function<std::string(int)>& name) {
  const auto* r = m.GetReflection();
  const bool rep = f.is_repeated();
  if (IsSeatField(f)) {
    // A negative value is the game's marker (none, a non-seat target), shown as it is.
    const int64_t seat = IntegerOf(m, f, index);
    return seat < 0 ? std::to_string(seat) : name(static_cast<int>(seat));
  }
  switch (f.cpp_type()) {
    case FieldDescriptor::CPPTYPE_ENUM:
      return EnumWord(rep ? *r->GetRepeatedEnum(m, &f, index) : *r->GetEnum(m, &f));
    case FieldDescriptor::CPPTYPE_BOOL:
      return (rep ? r->GetRepeatedBool(m, &f, index) : r->GetBool(m, &f)) ? "yes" : "no";
    case FieldDescriptor::CPPTYPE_STRING:
      return rep ? r->GetRepeatedString(m, &f, index) : r->GetString(m, &f);
    case FieldDescriptor::CPPTYPE_MESSAGE:
      return "(" + FieldsWords(rep ? r->GetRepeatedMessage(m, &f, index) : r->GetMessage(m, &f), name) + ")";
    case FieldDescriptor::CPPTYPE_FLOAT:
    case FieldDescriptor::CPPTYPE_DOUBLE: {
      std::string out;
      google::protobuf::TextFormat::PrintFieldValueToString(m, &f, index, &out);
      return out;
    }
    default:
      return std::to_string(IntegerOf(m, f, index));
  }
}

// "slot 0, position 1": every field, zeros included (in proto3 a zero is a value, not an
// absence: slot 0 is the first slot), except empty lists and texts and messages left unset.
std::string FieldsWords(const google::protobuf::Message& m, const std::function<std::string(int)>& name) {
  const auto* d = m.GetDescriptor();
  const auto* r = m.GetReflection();
  std::vector<std::pair<std::string, std::string>> parts;
  for (int i = 0; i < d->field_count(); ++i) {
    const FieldDescriptor& f = *d->field(i);
    if (f.is_repeated() ? r->FieldSize(m, &f) == 0 : f.has_presence() && !r->HasField(m, &f)) continue;
    if (!f.is_repeated() && f.cpp_type() == FieldDescriptor::CPPTYPE_STRING && r->GetString(m, &f).empty()) continue;
    std::string value;
    const int n = f.is_repeated() ? r->FieldSize(m, &f) : 1;
    for (int k = 0; k < n; ++k) value += (k > 0 ? ", " : "") + ValueWords(m, f, k, name);
    parts.emplace_back(Spaced(f.name()), value);
  }
  // One value needs no name: "choose agent: director".
  if (parts.size() == 1) return parts[0].second;
  std::string out;
  for (const auto& [field, value] : parts) out += (out.empty() ? "" : ", ") + field + " " + value;
  return out;
}

}  // namespace

bool IsSeatField(const FieldDescriptor& f) {
  switch (f.cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32:
    case FieldDescriptor::CPPTYPE_INT64:
    case FieldDescriptor::CPPTYPE_UINT32:
    case FieldDescriptor::CPPTYPE_UINT64:
      return f.options().GetExtension(plateau::v1::seat);
    default:
      return false;
  }
}

std::string PublishedMoveWords(const engine::Game& game, const engine::PublishedMove& move,
                               const std::function<std::string(int)>& name) {
  if (move.in_family) return MoveWords(*move.action, name);
  std::string words;
  for (const auto& step : move.steps)
    words += (words.empty() ? "" : ", ") + game.TextRenderer().Render(step, name);
  return words;
}

std::string MoveWords(const google::protobuf::Message& action,
                      const std::function<std::string(int)>& name) {
  const auto* d = action.GetDescriptor();
  const auto* r = action.GetReflection();
  for (int i = 0; i < d->field_count(); ++i) {
    const FieldDescriptor& f = *d->field(i);
    if (f.is_repeated() || f.cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE || !r->HasField(action, &f)) continue;
    const google::protobuf::Message& inner = r->GetMessage(action, &f);
    // The core's moves (answers, resigning) are one level further down.
    if (f.message_type() == engine::v1::CoreAction::descriptor()) return MoveWords(inner, name);
    const std::string values = FieldsWords(inner, name);
    return Spaced(f.name()) + (values.empty() ? "" : ": " + values);
  }
  return FieldsWords(action, name);
}

engine::Status SeatsFromPeople(google::protobuf::Message* action) {
  const auto* d = action->GetDescriptor();
  const auto* r = action->GetReflection();
  // This message's seats are checked before any is changed; a failure in a nested message may
  // leave the outer ones changed, so a refused action is not to be sent.
  std::vector<std::pair<const FieldDescriptor*, int>> seats;
  for (int i = 0; i < d->field_count(); ++i) {
    const FieldDescriptor* f = d->field(i);
    const int n = f->is_repeated() ? r->FieldSize(*action, f) : (!f->has_presence() || r->HasField(*action, f) ? 1 : 0);
    for (int k = 0; k < n; ++k) {
      if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
        auto* inner = f->is_repeated() ? r->MutableRepeatedMessage(action, f, k) : r->MutableMessage(action, f);
        if (engine::Status st = SeatsFromPeople(inner); !st.ok()) return st;
      } else if (IsSeatField(*f)) {
        const int64_t seat = IntegerOf(*action, *f, f->is_repeated() ? k : 0);
        if (seat == 0) {
          return engine::Status(console::kUsage, "Seats are counted from 1 (" + f->name() + ").");
        }
        // A negative value is the game's own marker (LIMIT's star nation), sent as typed.
        if (seat > 0) seats.emplace_back(f, k);
      }
    }
  }
  for (const auto& [f, k] : seats) {
    const int64_t v = IntegerOf(*action, *f, k) - 1;
    const bool rep = f->is_repeated();
    switch (f->cpp_type()) {
      case FieldDescriptor::CPPTYPE_INT32:
        rep ? r->SetRepeatedInt32(action, f, k, static_cast<int32_t>(v)) : r->SetInt32(action, f, static_cast<int32_t>(v));
        break;
      case FieldDescriptor::CPPTYPE_INT64:
        rep ? r->SetRepeatedInt64(action, f, k, v) : r->SetInt64(action, f, v);
        break;
      case FieldDescriptor::CPPTYPE_UINT32:
        rep ? r->SetRepeatedUInt32(action, f, k, static_cast<uint32_t>(v)) : r->SetUInt32(action, f, static_cast<uint32_t>(v));
        break;
      default:
        rep ? r->SetRepeatedUInt64(action, f, k, static_cast<uint64_t>(v)) : r->SetUInt64(action, f, static_cast<uint64_t>(v));
        break;
    }
  }
  return engine::Status::Ok();
}

}  // namespace plateau::cli
