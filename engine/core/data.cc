#include "engine/core/data.h"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

namespace plateau::engine {
namespace {
class FirstError : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int line, int column, const std::string& message) override {
    if (text.empty()) {
      text = "line " + std::to_string(line + 1) + ", column " + std::to_string(column + 1) +
             ": " + message;
    }
  }
  std::string text;
};
}  // namespace

std::string ParseTextFormat(std::string_view text, google::protobuf::Message* out) {
  google::protobuf::TextFormat::Parser parser;
  FirstError errors;
  parser.RecordErrorsTo(&errors);
  if (parser.ParseFromString(std::string(text), out)) return {};
  return errors.text.empty() ? "unreadable text" : errors.text;
}

Status ParseDataFile(std::string_view name, std::string_view text,
                     google::protobuf::Message* out) {
  std::string error = ParseTextFormat(text, out);
  if (!error.empty()) return Status(codes::kBadData, "data file " + std::string(name) + ": " + error);
  return Status::Ok();
}

}  // namespace plateau::engine
