#include "engine/console/command_line.h"

#include <cctype>
#include <charconv>

namespace plateau::console {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::string_view StripComment(std::string_view line) {
  char quote = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quote != 0) {
      if (c == '\\') {
        ++i;  // an escaped character never closes the string
      } else if (c == quote) {
        quote = 0;
      }
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '#' && (i == 0 || line[i - 1] == ' ' || line[i - 1] == '\t')) {
      return Trim(line.substr(0, i));
    }
  }
  return Trim(line);
}

std::pair<std::string_view, std::string_view> SplitFirstWord(std::string_view s) {
  s = Trim(s);
  size_t end = 0;
  while (end < s.size() && !std::isspace(static_cast<unsigned char>(s[end]))) ++end;
  return {s.substr(0, end), Trim(s.substr(end))};
}

std::vector<std::string> SplitWords(std::string_view s) {
  std::vector<std::string> out;
  for (auto [word, rest] = SplitFirstWord(s); !word.empty(); std::tie(word, rest) = SplitFirstWord(rest)) {
    out.emplace_back(word);
  }
  return out;
}

StatusOr<std::vector<std::string>> SplitQuotedWords(std::string_view s) {
  std::vector<std::string> out;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (quote == '\'') {
      if (c == '\'') {
        quote = 0;
      } else {
        word += c;
      }
    } else if (quote == '"') {
      if (c == '\\' && i + 1 < s.size() && (s[i + 1] == '"' || s[i + 1] == '\\')) {
        word += s[++i];
      } else if (c == '"') {
        quote = 0;
      } else {
        word += c;
      }
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      if (in_word) out.push_back(std::move(word));
      word.clear();
      in_word = false;
    } else {
      in_word = true;
      if (c == '\'' || c == '"') {
        quote = c;
      } else {
        word += c;
      }
    }
  }
  if (quote != 0) return Status(kUsage, std::string("A ") + quote + " quote is not closed.");
  if (in_word) out.push_back(std::move(word));
  return out;
}

StatusOr<int64_t> ParseInt(std::string_view word, std::string_view what) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), v);
  if (word.empty() || ec != std::errc() || end != word.data() + word.size()) {
    return Status(kUsage, std::string(what) + " must be a whole number, not '" +
                              std::string(word) + "'.");
  }
  return v;
}

StatusOr<uint64_t> ParseUint(std::string_view word, std::string_view what) {
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), v);
  if (word.empty() || ec != std::errc() || end != word.data() + word.size()) {
    return Status(kUsage, std::string(what) + " must be a non-negative whole number, not '" +
                              std::string(word) + "'.");
  }
  return v;
}

StatusOr<int> ParseSeat(std::string_view word, int num_seats, bool allow_spectator) {
  if (allow_spectator && (word == "spectator" || word == "-1")) return -1;
  auto n = ParseInt(word, "The seat");
  if (!n.ok() || n.value() < 0 || n.value() >= num_seats) {
    return Status(kUsage, "Seat '" + std::string(word) + "' is not a seat of this game (0 to " +
                              std::to_string(num_seats - 1) + ")" +
                              (allow_spectator ? " or 'spectator'." : "."));
  }
  return static_cast<int>(n.value());
}

StatusOr<Args> Args::Parse(const std::vector<std::string>& argv,
                           const std::set<std::string>& value_flags,
                           const std::set<std::string>& bool_flags) {
  Args args;
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a.size() < 3 || a.compare(0, 2, "--") != 0) {
      args.positionals_.push_back(a);
      continue;
    }
    std::string name = a.substr(2);
    std::string value;
    bool has_inline_value = false;
    if (size_t eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name.resize(eq);
      has_inline_value = true;
    }
    if (bool_flags.count(name)) {
      if (has_inline_value) return Status(kUsage, "--" + name + " takes no value.");
      args.values_[name] = "true";
    } else if (value_flags.count(name)) {
      if (!has_inline_value) {
        if (i + 1 >= argv.size()) return Status(kUsage, "--" + name + " needs a value.");
        value = argv[++i];
      }
      args.values_[name] = value;
    } else {
      return Status(kUsage, "Unknown option --" + name + ".");
    }
  }
  return args;
}

bool Args::Has(const std::string& name) const { return values_.count(name) > 0; }

std::string Args::Get(const std::string& name, const std::string& fallback) const {
  auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second;
}

}  // namespace plateau::console
