#pragma once
// What every game shares at the table (proto/plateau/v1/table.proto): structured words, questions
// and answers, the log. The engine writes no sentence: a game logs and asks with Text (a key of
// its catalogue and typed arguments) and clients put it into words with the players' names.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "engine/core/rng.h"
#include "engine/core/status.h"
#include "plateau/v1/table.pb.h"

namespace plateau::engine {

namespace v1 = ::plateau::v1;

// ----- Words -----

// A seat argument (written as the player's name); plain integers are numbers.
struct Seat {
  int seat;
};

inline v1::Arg ToArg(const v1::Text& t) {
  v1::Arg a;
  *a.mutable_text() = t;
  return a;
}
inline v1::Arg ToArg(Seat s) {
  v1::Arg a;
  a.set_seat(s.seat);
  return a;
}
inline v1::Arg ToArg(std::string_view name) {
  v1::Arg a;
  a.set_name(std::string(name));
  return a;
}
inline v1::Arg ToArg(const std::string& name) { return ToArg(std::string_view(name)); }
inline v1::Arg ToArg(const char* name) { return ToArg(std::string_view(name)); }
template <class N, class = std::enable_if_t<std::is_integral_v<N> && !std::is_same_v<N, bool>>>
v1::Arg ToArg(N n) {
  v1::Arg a;
  a.set_number(static_cast<int64_t>(n));
  return a;
}

// A phrase as T() builds it: the wire bytes of its Text, written as the arguments come. Logging
// one costs no allocation (phrases are logged on most actions' path, several per action in some
// games); where a message holds a phrase (a question's title, a move's label) it turns into the
// Text it encodes. The bytes are those the Text itself serializes to, field by field.
class Phrase {
 public:
  std::string_view bytes() const {
    return spill_.empty() ? std::string_view(inline_, size_) : std::string_view(spill_);
  }
  v1::Text text() const;
  operator v1::Text() const { return text(); }  // NOLINT: a phrase goes wherever a Text does

  // The writers T() uses (Text.key, then each Arg in Text.args).
  void Key(std::string_view key);
  void Arg(Seat s) { Scalar(0x10, static_cast<uint64_t>(static_cast<int64_t>(s.seat))); }
  void Arg(int64_t n) { Scalar(0x08, static_cast<uint64_t>(n)); }
  void Arg(std::string_view name) { Nested(0x1a, name); }
  void Arg(const Phrase& nested) { Nested(0x22, nested.bytes()); }
  void Arg(const v1::Text& nested);

 private:
  void Put(const char* p, size_t n);
  void Varint(uint64_t v);
  void Scalar(char tag, uint64_t v);
  void Nested(char tag, std::string_view bytes);

  // Most phrases fit: a key and a few arguments. Longer ones move to the heap whole.
  static constexpr size_t kInline = 112;
  char inline_[kInline];
  uint32_t size_ = 0;
  std::string spill_;
};

inline v1::Arg ToArg(const Phrase& p) { return ToArg(p.text()); }

namespace internal {
template <class N>
void AddArg(Phrase* p, const N& arg) {
  if constexpr (std::is_integral_v<N>) {
    static_assert(!std::is_same_v<N, bool>, "a phrase's number cannot be a bool");
    p->Arg(static_cast<int64_t>(arg));
  } else if constexpr (std::is_convertible_v<const N&, std::string_view>) {
    p->Arg(std::string_view(arg));
  } else {
    p->Arg(arg);
  }
}
}  // namespace internal

// T("limit.famine", Seat{2}, 3): the phrase of key "limit.famine" with a seat and a number.
template <class... A>
Phrase T(std::string_view key, const A&... args) {
  Phrase p;
  p.Key(key);
  (internal::AddArg(&p, args), ...);
  return p;
}

// A game's templates (see TextCatalogue in table.proto), ready to put phrases into words.
class Catalogue {
 public:
  // Parses a TextCatalogue in text format; bad_data on a malformed file, a duplicate key, or a
  // template whose placeholders do not parse.
  static StatusOr<v1::TextCatalogue> Parse(std::string_view file_name, std::string_view text);

  Catalogue() = default;
  explicit Catalogue(const v1::TextCatalogue& texts);
  void Add(const v1::TextCatalogue& texts);

  bool Has(std::string_view key) const { return templates_.find(key) != templates_.end(); }
  // A template's number on the wire (Text.id): its place among the templates added, from 1; 0
  // for a key not among them.
  uint32_t IdOf(std::string_view key) const;
  // The key numbered `id`, or null.
  const std::string* KeyOf(uint32_t id) const;
  // `text` and the phrases nested in it named by number where the key has one (the wire form).
  void Compact(v1::Text* text) const;
  // The same on a serialized Text, without making it a message: appends to `out` the bytes the
  // Text compacted serializes to, and says how many that is. False when `text` is no Text.
  bool AppendCompacted(std::string_view text, std::string* out) const;
  size_t CompactedSize(std::string_view text) const;
  // The wire form of a table: its log, questions and moves compacted.
  void Compact(v1::Table* table) const;
  // Words for `text`; `seat_name` names seats. An unknown key is written as the key and its
  // arguments in brackets, so a missing template shows instead of hiding the entry.
  std::string Render(const v1::Text& text, const std::function<std::string(int)>& seat_name) const;
  // Every key used by `text` (nested phrases included) that has no template.
  std::vector<std::string> MissingKeys(const v1::Text& text) const;
  // The key `text` names, by key or by number ("" for neither).
  const std::string& KeyOfText(const v1::Text& text) const;

 private:
  // Looked up by string_view as well (a key read in place from a log entry's bytes).
  struct KeyHash {
    using is_transparent = void;
    size_t operator()(std::string_view k) const { return std::hash<std::string_view>()(k); }
  };
  template <class V>
  using ByKey = std::unordered_map<std::string, V, KeyHash, std::equal_to<>>;
  template <class Sink>
  bool WriteCompacted(std::string_view text, Sink& sink) const;

  ByKey<std::string> templates_;
  ByKey<uint32_t> ids_;
  std::vector<std::string> keys_;  // by id - 1
};

// Checks a template's placeholders: "" or what is wrong.
std::string CheckTemplate(std::string_view tmpl);

// ----- Questions and answers -----

// Starts a prompt of `kind` for `seat` (id left to the caller: State::NewPromptId).
v1::Prompt MakePrompt(int seat, v1::PromptKind kind, v1::Text title, int64_t min = 1,
                      int64_t max = 1);
v1::PromptOption* AddOption(v1::Prompt* p, std::string id, v1::Text label);
// A game's one open question, as GamePrompts returns it: moved in (`return {p}` copies it, and
// the questions are built on every action's path).
std::vector<v1::Prompt> OnePrompt(v1::Prompt p);

// Stable codes of refused answers.
namespace codes {
inline constexpr const char* kBadAnswer = "bad_answer";
inline constexpr const char* kStalePrompt = "stale_prompt";
inline constexpr const char* kNothingAsked = "nothing_asked";
// A move made while the core's queue asks the seat a question (State::Ask).
inline constexpr const char* kAnswerFirst = "answer_first";
inline constexpr const char* kResigned = "resigned";
}  // namespace codes

// What a question offers: its own options, or those of the game's set it names
// (Game::OptionsOf resolves a Prompt.option_set).
using OptionList = google::protobuf::RepeatedPtrField<v1::PromptOption>;

// Whether `answer` has the shape `prompt` asks for (ids among `options`, counts, range, length).
// The game may refuse a well-shaped answer for its own reasons afterwards.
Status CheckAnswer(const v1::Prompt& prompt, const OptionList& options, const v1::Answer& answer);

// Every answer `prompt` accepts, when there are at most `cap` of them; otherwise empty with
// `*complete` false (the prompt itself then describes the answers: see DrawAnswer).
std::vector<v1::Answer> EnumerateAnswers(const v1::Prompt& prompt, const OptionList& options,
                                         size_t cap, bool* complete);
// A uniformly drawn well-shaped answer (for bots, fuzzing and the conformance suite).
v1::Answer DrawAnswer(const v1::Prompt& prompt, const OptionList& options, Rng& rng);
// The plainest well-shaped answer: the first options, the lowest number, no, the given order, a
// text of the shortest length. What a timer answers when the game has nothing better.
v1::Answer PlainAnswer(const v1::Prompt& prompt, const OptionList& options);

// The same for a question that carries its own options (no option set).
inline Status CheckAnswer(const v1::Prompt& prompt, const v1::Answer& answer) {
  return CheckAnswer(prompt, prompt.options(), answer);
}
inline std::vector<v1::Answer> EnumerateAnswers(const v1::Prompt& prompt, size_t cap,
                                                bool* complete) {
  return EnumerateAnswers(prompt, prompt.options(), cap, complete);
}
inline v1::Answer DrawAnswer(const v1::Prompt& prompt, Rng& rng) {
  return DrawAnswer(prompt, prompt.options(), rng);
}
inline v1::Answer PlainAnswer(const v1::Prompt& prompt) {
  return PlainAnswer(prompt, prompt.options());
}

// Characters in UTF-8 text (code points).
int Utf8Length(std::string_view text);

// ----- Log -----

// Appends an entry readable by `readers` (empty: everyone; seats 0 to 30) and keeps at most
// `limit` entries: when full the older half goes, so most appends add one entry to a view
// instead of shifting every entry (cheaper diffs).
void AppendLog(v1::TableState* table, const v1::Text& text, std::vector<int> readers, size_t limit);
void AppendLog(v1::TableState* table, const Phrase& text, std::vector<int> readers, size_t limit);

// One entry of a position's log, read in place (valid while the position is unchanged).
struct LogRef {
  uint64_t seq = 0;
  uint32_t readers = 0;   // as TableState.log_readers
  std::string_view text;  // the entry's Text, serialized
};
inline constexpr uint32_t kLogRestricted = 1u << 31;
// The entries kept, oldest first, and the i-th of them.
inline size_t LogSize(const v1::TableState& table) { return static_cast<size_t>(table.log_ends_size()); }
// The seq of the i-th entry kept: the entries' seqs run on to log_seq.
inline uint64_t LogSeqAt(const v1::TableState& table, size_t i) {
  return table.log_seq() - LogSize(table) + i;
}
LogRef LogAt(const v1::TableState& table, size_t i);
std::vector<LogRef> LogOf(const v1::TableState& table);
// The words of `entry`.
v1::Text LogText(const LogRef& entry);
// Whether `seat` may read `entry` (kSpectator: only entries for everyone).
bool CanRead(const LogRef& entry, int seat);
// The entries `seat` may read.
void LogFor(const v1::TableState& table, int seat,
            google::protobuf::RepeatedPtrField<v1::LogEntry>* out);

}  // namespace plateau::engine
