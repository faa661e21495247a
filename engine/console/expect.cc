#include "engine/console/expect.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/text_format.h>

#include <cstdlib>
#include <memory>

#include "engine/console/command_line.h"
#include "engine/core/data.h"

namespace plateau::console {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;
using google::protobuf::TextFormat;

std::string ValueText(const Message& m, const FieldDescriptor* f, int index) {
  const Reflection* r = m.GetReflection();
  if (f->cpp_type() == FieldDescriptor::CPPTYPE_STRING) {
    return f->is_repeated() ? r->GetRepeatedString(m, f, index) : r->GetString(m, f);
  }
  if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
    const Message& sub = f->is_repeated() ? r->GetRepeatedMessage(m, f, index) : r->GetMessage(m, f);
    TextFormat::Printer printer;
    printer.SetSingleLineMode(true);
    printer.SetUseUtf8StringEscaping(true);
    std::string out;
    printer.PrintToString(sub, &out);
    return std::string(Trim(out));
  }
  std::string out;
  TextFormat::PrintFieldValueToString(m, f, f->is_repeated() ? index : -1, &out);
  return out;
}

std::string Element(const std::string& path, const FieldDescriptor* f, int index) {
  std::string out = path.empty() ? f->name() : path + "." + f->name();
  if (index >= 0) {
    out += '[';
    out += std::to_string(index);
    out += ']';
  }
  return out;
}

Status Mismatch(const std::string& where, const std::string& actual, const std::string& expected) {
  return Status(kExpectationFailed,
                where + " is " + (actual.empty() ? "\"\"" : actual) + ", expected " + expected + ".");
}

Status MatchWritten(const Message& expected, const TextFormat::ParseInfoTree* tree,
                    const Message& actual, const std::string& path) {
  const Descriptor* d = expected.GetDescriptor();
  const Reflection* er = expected.GetReflection();
  const Reflection* ar = actual.GetReflection();
  for (int i = 0; i < d->field_count(); ++i) {
    const FieldDescriptor* f = d->field(i);
    if (!f->is_repeated()) {
      if (tree->GetLocation(f, -1).line < 0) continue;  // not written in the fragment
      if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
        Status st = MatchWritten(er->GetMessage(expected, f), tree->GetTreeForNested(f, -1),
                                 ar->GetMessage(actual, f), Element(path, f, -1));
        if (!st.ok()) return st;
        continue;
      }
      std::string want = ValueText(expected, f, -1);
      std::string got = ValueText(actual, f, -1);
      if (want != got) return Mismatch(Element(path, f, -1), got, want);
      continue;
    }
    const int want_size = er->FieldSize(expected, f);
    const int got_size = ar->FieldSize(actual, f);
    if (want_size > got_size) {
      return Status(kExpectationFailed, Element(path, f, -1) + " has " + std::to_string(got_size) +
                                            " elements, expected at least " +
                                            std::to_string(want_size) + ".");
    }
    for (int j = 0; j < want_size; ++j) {
      if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
        Status st = MatchWritten(er->GetRepeatedMessage(expected, f, j),
                                 tree->GetTreeForNested(f, j), ar->GetRepeatedMessage(actual, f, j),
                                 Element(path, f, j));
        if (!st.ok()) return st;
        continue;
      }
      std::string want = ValueText(expected, f, j);
      std::string got = ValueText(actual, f, j);
      if (want != got) return Mismatch(Element(path, f, j), got, want);
    }
  }
  return Status::Ok();
}

// One step of a field path: a field name and an optional [index].
struct PathStep {
  std::string name;
  int index = -1;
};

StatusOr<std::vector<PathStep>> ParsePath(std::string_view path) {
  std::vector<PathStep> steps;
  auto bad = [&](const std::string& why) {
    return Status(kUsage, "Cannot read the field path '" + std::string(path) + "': " + why);
  };
  if (path.empty()) return bad("it is empty.");
  size_t pos = 0;
  while (pos <= path.size()) {
    size_t end = path.find('.', pos);
    std::string_view part = path.substr(pos, end == std::string_view::npos ? end : end - pos);
    PathStep step;
    if (size_t open = part.find('['); open != std::string_view::npos) {
      if (part.back() != ']') return bad("a '[' is not closed.");
      auto index = ParseUint(part.substr(open + 1, part.size() - open - 2), "An index");
      if (!index.ok()) return bad(index.status().reason());
      step.index = static_cast<int>(index.value());
      part = part.substr(0, open);
    }
    if (part.empty()) return bad("a field name is missing.");
    step.name = std::string(part);
    steps.push_back(step);
    if (end == std::string_view::npos) break;
    pos = end + 1;
  }
  return steps;
}

std::string Unquote(std::string_view s) {
  if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'') && s.back() == s.front()) {
    return std::string(s.substr(1, s.size() - 2));
  }
  return std::string(s);
}

}  // namespace

Status MatchFragment(const Message& actual, std::string_view fragment) {
  std::unique_ptr<Message> expected(actual.New());
  TextFormat::Parser parser;
  TextFormat::ParseInfoTree tree;
  parser.WriteLocationsTo(&tree);
  // Parse once with the engine's helper for a readable error, then again to record locations.
  std::string error = engine::ParseTextFormat(fragment, expected.get());
  if (!error.empty()) {
    return Status(kUsage, "Cannot read the fragment as " + actual.GetTypeName() + ": " + error);
  }
  expected->Clear();
  parser.ParseFromString(std::string(fragment), expected.get());
  return MatchWritten(*expected, &tree, actual, "");
}

StatusOr<std::string> FieldText(const Message& message, std::string_view path) {
  auto steps = ParsePath(path);
  if (!steps.ok()) return steps.status();
  const Message* m = &message;
  std::string walked;
  for (size_t i = 0; i < steps.value().size(); ++i) {
    const PathStep& step = steps.value()[i];
    const bool last = i + 1 == steps.value().size();
    const FieldDescriptor* f = m->GetDescriptor()->FindFieldByName(step.name);
    if (f == nullptr) {
      return Status(kUsage, (walked.empty() ? m->GetTypeName() : walked) + " has no field '" +
                                step.name + "'.");
    }
    const Reflection* r = m->GetReflection();
    if (!f->is_repeated() && step.index >= 0) {
      return Status(kUsage, Element(walked, f, -1) + " is not a repeated field.");
    }
    if (f->is_repeated() && step.index < 0) {
      if (!last) {
        return Status(kUsage, Element(walked, f, -1) + " is repeated: give an index, e.g. " +
                                  f->name() + "[0].");
      }
      return std::to_string(r->FieldSize(*m, f));
    }
    if (f->is_repeated() && step.index >= r->FieldSize(*m, f)) {
      return Status(kExpectationFailed, Element(walked, f, step.index) + " does not exist: " +
                                            Element(walked, f, -1) + " has " +
                                            std::to_string(r->FieldSize(*m, f)) + " elements.");
    }
    if (last) return ValueText(*m, f, step.index);
    if (f->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE) {
      return Status(kUsage, Element(walked, f, step.index) + " is not a message.");
    }
    m = f->is_repeated() ? &r->GetRepeatedMessage(*m, f, step.index) : &r->GetMessage(*m, f);
    walked = Element(walked, f, step.index);
  }
  return Status(kUsage, "Empty field path.");  // unreachable: ParsePath never returns no steps
}

Status ExpectField(const Message& message, std::string_view path, std::string_view expected) {
  auto got = FieldText(message, path);
  if (!got.ok()) return got.status();
  const std::string want = Unquote(Trim(expected));
  if (got.value() == want) return Status::Ok();
  // Same number, other spelling ("2" vs "2.0", "1e3" vs "1000")? Or an enum given by number?
  char* want_end = nullptr;
  char* got_end = nullptr;
  const double want_number = std::strtod(want.c_str(), &want_end);
  const double got_number = std::strtod(got.value().c_str(), &got_end);
  if (!want.empty() && *want_end == '\0' && !got.value().empty() && *got_end == '\0' &&
      want_number == got_number) {
    return Status::Ok();
  }
  return Mismatch(std::string(path), got.value(), want);
}

}  // namespace plateau::console
