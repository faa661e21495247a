#pragma once
// Small, shared parsing helpers for the text tools (the rules console and the terminal client):
// splitting a command line into its first word and the rest, quote-aware comment stripping, and
// `--flag value` argument lists. Nothing here does I/O; every failure is a Status with a reason.
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/core/status.h"

namespace plateau::console {

using engine::Status;
using engine::StatusOr;

// Code for command lines that do not follow a command's usage.
inline constexpr const char* kUsage = "usage";

// Removes a trailing `#` comment (one outside "..." or '...' quotes, since action text may hold
// a `#` inside a string, and starting a word, as in a shell: a pasted web link keeps its
// `.../#/join/...`) and surrounding whitespace.
std::string_view StripComment(std::string_view line);

std::string_view Trim(std::string_view s);

// First whitespace-separated word and the trimmed rest: "act 0 place {}" -> {"act", "0 place {}"}.
std::pair<std::string_view, std::string_view> SplitFirstWord(std::string_view s);

// Whitespace-separated words.
std::vector<std::string> SplitWords(std::string_view s);

// Words as a shell splits them: '...' and "..." group words and are removed ("..." allows \"
// and \\ escapes), so `--options 'rounds: 1' My room` gives {"--options", "rounds: 1", "My",
// "room"}. An unclosed quote is an error.
StatusOr<std::vector<std::string>> SplitQuotedWords(std::string_view s);

StatusOr<int64_t> ParseInt(std::string_view word, std::string_view what);
StatusOr<uint64_t> ParseUint(std::string_view word, std::string_view what);

// A seat number, or (when allowed) "spectator" / "-1" for engine::kSpectator. Seats are checked
// against `num_seats` so a typo gets a clear message instead of an empty view.
StatusOr<int> ParseSeat(std::string_view word, int num_seats, bool allow_spectator);

// Command-line arguments: positionals plus `--name value` and boolean `--name` flags. Flags may
// also be written `--name=value`. Unknown flags and missing values are errors.
class Args {
 public:
  // `value_flags` take a value; `bool_flags` do not. Names are given without the leading "--".
  static StatusOr<Args> Parse(const std::vector<std::string>& argv,
                              const std::set<std::string>& value_flags,
                              const std::set<std::string>& bool_flags);

  const std::vector<std::string>& positionals() const { return positionals_; }
  bool Has(const std::string& name) const;
  // The flag's value, or `fallback` when it was not given.
  std::string Get(const std::string& name, const std::string& fallback = "") const;

 private:
  std::vector<std::string> positionals_;
  std::map<std::string, std::string> values_;
};

}  // namespace plateau::console
