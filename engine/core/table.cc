#include "engine/core/table.h"

#include <algorithm>
#include <cstdlib>
#include <set>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

#include "engine/core/data.h"

namespace plateau::engine {

namespace {

// One placeholder of a template: `{i}`, `{i|one|many}` or `{i|one|many|-}`.
struct Placeholder {
  int index = -1;
  std::string one, many;
  bool plural = false;
  bool word_only = false;
};

// Parses the placeholder body between braces; false when malformed.
bool ParsePlaceholder(std::string_view body, Placeholder* out) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t i = 0; i <= body.size(); ++i) {
    if (i == body.size() || body[i] == '|') {
      parts.emplace_back(body.substr(start, i - start));
      start = i + 1;
    }
  }
  if (parts.empty() || parts[0].empty() || parts[0].size() > 2) return false;
  for (char c : parts[0])
    if (c < '0' || c > '9') return false;
  out->index = std::stoi(parts[0]);
  if (parts.size() == 1) return true;
  if (parts.size() != 3 && !(parts.size() == 4 && parts[3] == "-")) return false;
  out->plural = true;
  out->one = parts[1];
  out->many = parts[2];
  out->word_only = parts.size() == 4;
  return true;
}

// Calls `literal` for text runs and `hole` for placeholders; false on a malformed template.
template <class Literal, class Hole>
bool WalkTemplate(std::string_view tmpl, Literal literal, Hole hole) {
  size_t i = 0;
  while (i < tmpl.size()) {
    const size_t open = tmpl.find('{', i);
    if (open == std::string_view::npos) {
      literal(tmpl.substr(i));
      break;
    }
    literal(tmpl.substr(i, open - i));
    const size_t close = tmpl.find('}', open);
    if (close == std::string_view::npos) return false;
    Placeholder p;
    if (!ParsePlaceholder(tmpl.substr(open + 1, close - open - 1), &p)) return false;
    hole(p);
    i = close + 1;
  }
  return true;
}

void CollectMissing(const Catalogue& c, const v1::Text& t, std::vector<std::string>* out) {
  const std::string& key = c.KeyOfText(t);
  if (!c.Has(key)) out->push_back(key);
  for (const auto& a : t.args())
    if (a.has_text()) CollectMissing(c, a.text(), out);
}

}  // namespace

std::string CheckTemplate(std::string_view tmpl) {
  if (!WalkTemplate(tmpl, [](std::string_view) {}, [](const Placeholder&) {})) return "a placeholder is not {N}, {N|one|many} or {N|one|many|-}";
  return "";
}

StatusOr<v1::TextCatalogue> Catalogue::Parse(std::string_view file_name, std::string_view text) {
  v1::TextCatalogue out;
  Status st = ParseDataFile(file_name, text, &out);
  if (!st.ok()) return st;
  std::set<std::string> seen;
  for (const auto& t : out.templates()) {
    if (t.key().empty() || t.en().empty())
      return Status(codes::kBadData, std::string(file_name) + ": a template needs a key and words.");
    if (!seen.insert(t.key()).second)
      return Status(codes::kBadData, std::string(file_name) + ": key " + t.key() + " twice.");
    std::string problem = CheckTemplate(t.en());
    if (!problem.empty())
      return Status(codes::kBadData, std::string(file_name) + ": " + t.key() + ": " + problem + ".");
  }
  return out;
}

Catalogue::Catalogue(const v1::TextCatalogue& texts) { Add(texts); }

void Catalogue::Add(const v1::TextCatalogue& texts) {
  for (const auto& t : texts.templates()) {
    templates_[t.key()] = t.en();
    keys_.push_back(t.key());
    ids_.emplace(t.key(), static_cast<uint32_t>(keys_.size()));
  }
}

uint32_t Catalogue::IdOf(std::string_view key) const {
  auto it = ids_.find(key);
  return it == ids_.end() ? 0 : it->second;
}

const std::string* Catalogue::KeyOf(uint32_t id) const {
  return id >= 1 && id <= keys_.size() ? &keys_[id - 1] : nullptr;
}

const std::string& Catalogue::KeyOfText(const v1::Text& text) const {
  if (text.id() == 0) return text.key();
  const std::string* key = KeyOf(text.id());
  static const std::string kNone;
  return key != nullptr ? *key : kNone;
}

void Catalogue::Compact(v1::Text* text) const {
  if (!text->key().empty()) {
    if (const uint32_t id = IdOf(text->key()); id != 0) {
      text->set_id(id);
      text->clear_key();
    }
  }
  for (auto& a : *text->mutable_args())
    if (a.has_text()) Compact(a.mutable_text());
}

namespace {

using google::protobuf::internal::WireFormatLite;

// Walks the protobuf wire fields of a serialized Text or Arg in place.
class WireReader {
 public:
  explicit WireReader(std::string_view bytes)
      : base_(bytes.data()),
        size_(bytes.size()),
        in_(reinterpret_cast<const uint8_t*>(bytes.data()), static_cast<int>(bytes.size())) {}
  bool Done() { return static_cast<size_t>(in_.CurrentPosition()) >= size_; }
  // The next field: its number, its whole bytes (tag included) and, for a length-delimited one,
  // its payload. False on malformed bytes.
  bool Next(uint32_t* number, std::string_view* whole, std::string_view* payload) {
    const int start = in_.CurrentPosition();
    const uint32_t tag = in_.ReadTag();
    if (tag == 0) return false;
    *number = WireFormatLite::GetTagFieldNumber(tag);
    if (WireFormatLite::GetTagWireType(tag) == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
      uint32_t n = 0;
      if (!in_.ReadVarint32(&n)) return false;
      const int at = in_.CurrentPosition();
      if (!in_.Skip(static_cast<int>(n))) return false;
      *payload = std::string_view(base_ + at, n);
    } else if (!WireFormatLite::SkipField(&in_, tag)) {
      return false;
    }
    *whole = std::string_view(base_ + start, static_cast<size_t>(in_.CurrentPosition() - start));
    return true;
  }

 private:
  const char* base_;
  size_t size_;
  google::protobuf::io::CodedInputStream in_;
};

size_t VarintBytes(uint64_t v) { return google::protobuf::io::CodedOutputStream::VarintSize64(v); }

// What AppendCompacted writes to: a string, or a count of bytes.
struct AppendSink {
  std::string* out;
  void Put(std::string_view b) { out->append(b); }
  void Varint(uint64_t v) {
    uint8_t buf[10];
    const uint8_t* end = google::protobuf::io::CodedOutputStream::WriteVarint64ToArray(v, buf);
    out->append(reinterpret_cast<const char*>(buf), static_cast<size_t>(end - buf));
  }
};
struct SizeSink {
  size_t n = 0;
  void Put(std::string_view b) { n += b.size(); }
  void Varint(uint64_t v) { n += VarintBytes(v); }
};

}  // namespace

// Writes what Compact(Text*) and serializing would: the key replaced by its id where it has one,
// then every argument (nested phrases compacted too), then the id; fields in number order, as
// protobuf writes them.
template <class Sink>
bool Catalogue::WriteCompacted(std::string_view text, Sink& sink) const {
  constexpr uint32_t kKey = v1::Text::kKeyFieldNumber, kArgs = v1::Text::kArgsFieldNumber,
                     kId = v1::Text::kIdFieldNumber, kNested = v1::Arg::kTextFieldNumber;
  std::string_view key, id_field;
  uint32_t number = 0;
  std::string_view whole, payload;
  for (WireReader r(text); !r.Done();) {
    if (!r.Next(&number, &whole, &payload)) return false;
    if (number == kKey) key = payload;
    if (number == kId) id_field = whole;
  }
  const uint32_t id = key.empty() ? 0 : IdOf(key);
  for (WireReader r(text); !r.Done();) {
    r.Next(&number, &whole, &payload);
    if (number == kKey) {
      if (id == 0) sink.Put(whole);
    } else if (number == kArgs) {
      // An argument is copied as it is unless it nests a phrase.
      std::string_view nested, arg_whole, arg_payload;
      uint32_t arg_number = 0;
      bool has_nested = false;
      for (WireReader a(payload); !a.Done();) {
        if (!a.Next(&arg_number, &arg_whole, &arg_payload)) return false;
        if (arg_number == kNested) {
          nested = arg_payload;
          has_nested = true;
        }
      }
      if (!has_nested) {
        sink.Put(whole);
        continue;
      }
      SizeSink nested_size;
      if (!WriteCompacted(nested, nested_size)) return false;
      sink.Varint((kArgs << 3) | 2);
      sink.Varint(1 + VarintBytes(nested_size.n) + nested_size.n);
      sink.Varint((kNested << 3) | 2);
      sink.Varint(nested_size.n);
      if (!WriteCompacted(nested, sink)) return false;
    } else if (number != kId) {
      sink.Put(whole);
    }
  }
  if (id != 0) {
    sink.Varint((kId << 3) | 0);
    sink.Varint(id);
  } else if (!id_field.empty()) {
    sink.Put(id_field);
  }
  return true;
}

bool Catalogue::AppendCompacted(std::string_view text, std::string* out) const {
  AppendSink sink{out};
  return WriteCompacted(text, sink);
}

size_t Catalogue::CompactedSize(std::string_view text) const {
  SizeSink sink;
  return WriteCompacted(text, sink) ? sink.n : 0;
}

namespace {
void CompactMoves(const Catalogue& c, google::protobuf::RepeatedPtrField<v1::MoveChoice>* moves) {
  for (auto& m : *moves) {
    if (m.has_label()) c.Compact(m.mutable_label());
    if (m.has_next_label()) c.Compact(m.mutable_next_label());
    CompactMoves(c, m.mutable_next());
  }
}
}  // namespace

void Catalogue::Compact(v1::Table* table) const {
  for (auto& e : *table->mutable_log()) Compact(e.mutable_text());
  for (auto& p : *table->mutable_prompts()) {
    if (p.has_title()) Compact(p.mutable_title());
    if (p.has_detail()) Compact(p.mutable_detail());
    for (auto& o : *p.mutable_options())
      if (o.has_label()) Compact(o.mutable_label());
  }
  CompactMoves(*this, table->mutable_moves());
}

std::string Catalogue::Render(const v1::Text& text,
                              const std::function<std::string(int)>& seat_name) const {
  auto arg_words = [&](const v1::Arg& a) -> std::string {
    switch (a.value_case()) {
      case v1::Arg::kNumber: return std::to_string(a.number());
      case v1::Arg::kSeat: return seat_name(a.seat());
      case v1::Arg::kName: return a.name();
      case v1::Arg::kText: return Render(a.text(), seat_name);
      default: return "";
    }
  };
  const std::string& key = KeyOfText(text);
  auto it = templates_.find(key);
  if (it == templates_.end()) {
    std::string out = "[" + (key.empty() ? "#" + std::to_string(text.id()) : key);
    for (const auto& a : text.args()) out += " " + arg_words(a);
    return out + "]";
  }
  std::string out;
  WalkTemplate(
      it->second, [&](std::string_view s) { out.append(s); },
      [&](const Placeholder& p) {
        if (p.index >= text.args_size()) {
          out += "{?}";
          return;
        }
        const auto& a = text.args(p.index);
        if (!p.plural) {
          out += arg_words(a);
          return;
        }
        const bool one = a.has_number() && (a.number() == 1 || a.number() == -1);
        if (!p.word_only) out += std::to_string(a.number()) + " ";
        out += one ? p.one : p.many;
      });
  return out;
}

std::vector<std::string> Catalogue::MissingKeys(const v1::Text& text) const {
  std::vector<std::string> out;
  CollectMissing(*this, text, &out);
  return out;
}

v1::Prompt MakePrompt(int seat, v1::PromptKind kind, v1::Text title, int64_t min, int64_t max) {
  v1::Prompt p;
  p.set_seat(seat);
  p.set_kind(kind);
  *p.mutable_title() = std::move(title);
  p.set_min(min);
  p.set_max(max);
  return p;
}

v1::PromptOption* AddOption(v1::Prompt* p, std::string id, v1::Text label) {
  auto* o = p->add_options();
  o->set_id(std::move(id));
  *o->mutable_label() = std::move(label);
  return o;
}

std::vector<v1::Prompt> OnePrompt(v1::Prompt p) {
  std::vector<v1::Prompt> out(1);
  out[0].Swap(&p);
  return out;
}

int Utf8Length(std::string_view text) {
  int n = 0;
  for (unsigned char c : text) n += (c & 0xC0) != 0x80 ? 1 : 0;
  return n;
}

namespace {

std::string_view Trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool HasOption(const OptionList& options, const std::string& id) {
  for (const auto& o : options)
    if (o.id() == id) return true;
  return false;
}

}  // namespace

Status CheckAnswer(const v1::Prompt& p, const OptionList& options, const v1::Answer& a) {
  if (!a.prompt_id().empty() && a.prompt_id() != p.id())
    return Status(codes::kStalePrompt,
                  "That question was already answered or replaced: answer the current one.");
  switch (p.kind()) {
    case v1::PROMPT_CHOOSE: {
      const int64_t n = a.options_size();
      if (n < p.min() || n > p.max()) {
        return Status(codes::kBadAnswer,
                      p.min() == p.max()
                          ? "Choose exactly " + std::to_string(p.min()) + "."
                          : "Choose from " + std::to_string(p.min()) + " to " +
                                std::to_string(p.max()) + ".");
      }
      std::set<std::string> seen;
      for (const auto& id : a.options()) {
        if (!HasOption(options, id)) return Status(codes::kBadAnswer, "\"" + id + "\" is not one of the choices.");
        if (!seen.insert(id).second) return Status(codes::kBadAnswer, "A choice is named twice.");
      }
      return Status::Ok();
    }
    case v1::PROMPT_ORDER: {
      if (a.options_size() != options.size())
        return Status(codes::kBadAnswer, "Put every item in the order, each once.");
      std::set<std::string> seen;
      for (const auto& id : a.options()) {
        if (!HasOption(options, id) || !seen.insert(id).second)
          return Status(codes::kBadAnswer, "Put every item in the order, each once.");
      }
      return Status::Ok();
    }
    case v1::PROMPT_NUMBER:
      if (a.number() < p.min() || a.number() > p.max())
        return Status(codes::kBadAnswer, "Give a number from " + std::to_string(p.min()) + " to " +
                                             std::to_string(p.max()) + ".");
      return Status::Ok();
    case v1::PROMPT_YES_NO:
      return Status::Ok();
    case v1::PROMPT_TEXT: {
      const int n = Utf8Length(Trimmed(a.text()));
      if (n < p.min()) return Status(codes::kBadAnswer, "The answer is empty or too short.");
      if (n > p.max())
        return Status(codes::kBadAnswer,
                      "The answer is longer than " + std::to_string(p.max()) + " characters.");
      return Status::Ok();
    }
    default:
      return Status(codes::kBadAnswer, "This question cannot be answered.");
  }
}

namespace {

v1::Answer Base(const v1::Prompt& p) {
  v1::Answer a;
  a.set_prompt_id(p.id());
  return a;
}

// Subsets of `n` items of sizes lo..hi, in lexicographic order of index lists, up to `cap`.
void Subsets(int n, int lo, int hi, size_t cap, std::vector<std::vector<int>>* out, bool* complete) {
  std::vector<int> cur;
  std::function<void(int)> rec = [&](int from) {
    if (!*complete) return;
    if (static_cast<int>(cur.size()) >= lo) {
      if (out->size() >= cap) {
        *complete = false;
        return;
      }
      out->push_back(cur);
    }
    if (static_cast<int>(cur.size()) == hi) return;
    for (int i = from; i < n; ++i) {
      cur.push_back(i);
      rec(i + 1);
      cur.pop_back();
    }
  };
  rec(0);
}

}  // namespace

std::vector<v1::Answer> EnumerateAnswers(const v1::Prompt& p, const OptionList& options,
                                         size_t cap, bool* complete) {
  *complete = true;
  std::vector<v1::Answer> out;
  switch (p.kind()) {
    case v1::PROMPT_CHOOSE: {
      std::vector<std::vector<int>> sets;
      const int lo = static_cast<int>(std::max<int64_t>(0, p.min()));
      const int hi = static_cast<int>(std::min<int64_t>(p.max(), options.size()));
      if (lo > hi) return out;
      Subsets(options.size(), lo, hi, cap, &sets, complete);
      if (!*complete) return {};
      for (const auto& s : sets) {
        v1::Answer a = Base(p);
        for (int i : s) a.add_options(options.Get(i).id());
        out.push_back(std::move(a));
      }
      return out;
    }
    case v1::PROMPT_ORDER: {
      std::vector<int> idx(options.size());
      for (int i = 0; i < options.size(); ++i) idx[i] = i;
      do {
        if (out.size() >= cap) {
          *complete = false;
          return {};
        }
        v1::Answer a = Base(p);
        for (int i : idx) a.add_options(options.Get(i).id());
        out.push_back(std::move(a));
      } while (std::next_permutation(idx.begin(), idx.end()));
      return out;
    }
    case v1::PROMPT_NUMBER: {
      if (p.max() < p.min()) return out;
      if (static_cast<uint64_t>(p.max() - p.min()) >= cap) {
        *complete = false;
        return out;
      }
      for (int64_t v = p.min(); v <= p.max(); ++v) {
        v1::Answer a = Base(p);
        a.set_number(v);
        out.push_back(std::move(a));
      }
      return out;
    }
    case v1::PROMPT_YES_NO: {
      for (bool yes : {false, true}) {
        v1::Answer a = Base(p);
        a.set_yes(yes);
        out.push_back(std::move(a));
      }
      return out;
    }
    default:
      // Free text: the prompt describes the answers (any text of the allowed length).
      *complete = false;
      return out;
  }
}

v1::Answer DrawAnswer(const v1::Prompt& p, const OptionList& options, Rng& rng) {
  v1::Answer a = Base(p);
  switch (p.kind()) {
    case v1::PROMPT_CHOOSE: {
      const int64_t hi = std::min<int64_t>(p.max(), options.size());
      const int64_t lo = std::min<int64_t>(std::max<int64_t>(0, p.min()), hi);
      const int64_t k = lo + static_cast<int64_t>(rng.Below(static_cast<uint64_t>(hi - lo + 1)));
      std::vector<int> idx(options.size());
      for (int i = 0; i < options.size(); ++i) idx[i] = i;
      rng.Shuffle(idx);
      idx.resize(static_cast<size_t>(k));
      std::sort(idx.begin(), idx.end());
      for (int i : idx) a.add_options(options.Get(i).id());
      return a;
    }
    case v1::PROMPT_ORDER: {
      std::vector<int> idx(options.size());
      for (int i = 0; i < options.size(); ++i) idx[i] = i;
      rng.Shuffle(idx);
      for (int i : idx) a.add_options(options.Get(i).id());
      return a;
    }
    case v1::PROMPT_NUMBER:
      a.set_number(p.max() < p.min()
                       ? p.min()
                       : p.min() + static_cast<int64_t>(
                                       rng.Below(static_cast<uint64_t>(p.max() - p.min()) + 1)));
      return a;
    case v1::PROMPT_YES_NO:
      a.set_yes(rng.Below(2) == 1);
      return a;
    case v1::PROMPT_TEXT: {
      const int64_t len = std::max<int64_t>(p.min(), 1) +
                          static_cast<int64_t>(rng.Below(static_cast<uint64_t>(
                              std::max<int64_t>(0, std::min<int64_t>(p.max(), 12) -
                                                       std::max<int64_t>(p.min(), 1)) + 1)));
      std::string text;
      for (int64_t i = 0; i < len; ++i) text += static_cast<char>('a' + rng.Below(26));
      a.set_text(text);
      return a;
    }
    default:
      return a;
  }
}

v1::Answer PlainAnswer(const v1::Prompt& p, const OptionList& options) {
  v1::Answer a = Base(p);
  switch (p.kind()) {
    case v1::PROMPT_CHOOSE:
      for (int i = 0; i < p.min() && i < options.size(); ++i) a.add_options(options.Get(i).id());
      return a;
    case v1::PROMPT_ORDER:
      for (const auto& o : options) a.add_options(o.id());
      return a;
    case v1::PROMPT_NUMBER:
      a.set_number(p.min());
      return a;
    case v1::PROMPT_TEXT:
      a.set_text(std::string(static_cast<size_t>(std::max<int64_t>(p.min(), 1)), '?'));
      return a;
    default:
      return a;
  }
}

// ----- Phrase -----
// The wire format of table.proto's Text and Arg, written by hand: field 1 of Text is the key,
// field 2 each argument; an Arg holds one of number (1), seat (2), name (3) or text (4).

void Phrase::Put(const char* p, size_t n) {
  if (spill_.empty() && size_ + n <= kInline) {
    std::copy(p, p + n, inline_ + size_);
    size_ += static_cast<uint32_t>(n);
    return;
  }
  if (spill_.empty()) spill_.assign(inline_, size_);
  spill_.append(p, n);
}

void Phrase::Varint(uint64_t v) {
  uint8_t buf[10];
  const uint8_t* end = google::protobuf::io::CodedOutputStream::WriteVarint64ToArray(v, buf);
  Put(reinterpret_cast<const char*>(buf), static_cast<size_t>(end - buf));
}

void Phrase::Key(std::string_view key) {
  // proto3 leaves an empty string out.
  if (key.empty()) return;
  const char tag = 0x0a;
  Put(&tag, 1);
  Varint(key.size());
  Put(key.data(), key.size());
}

void Phrase::Scalar(char tag, uint64_t v) {
  const char arg = 0x12;
  Put(&arg, 1);
  Varint(1 + VarintBytes(v));
  Put(&tag, 1);
  Varint(v);
}

void Phrase::Nested(char tag, std::string_view bytes) {
  const char arg = 0x12;
  Put(&arg, 1);
  Varint(1 + VarintBytes(bytes.size()) + bytes.size());
  Put(&tag, 1);
  Varint(bytes.size());
  Put(bytes.data(), bytes.size());
}

void Phrase::Arg(const v1::Text& nested) { Nested(0x22, nested.SerializeAsString()); }

v1::Text Phrase::text() const {
  v1::Text t;
  const std::string_view b = bytes();
  // Written above from a Text's fields: it parses.
  t.ParseFromArray(b.data(), static_cast<int>(b.size()));
  return t;
}

namespace {

// Appends one entry whose Text bytes `write` adds to the log's bytes.
template <class Write>
void AppendLogWith(v1::TableState* table, const std::vector<int>& readers, size_t limit,
                   const Write& write) {
  const size_t kept = LogSize(*table);
  if (limit > 1 && kept >= limit) {
    const int drop = static_cast<int>(limit / 2);
    const uint32_t cut = table->log_ends(drop - 1);
    table->mutable_log_texts()->erase(0, cut);
    auto* ends = table->mutable_log_ends();
    ends->erase(ends->begin(), ends->begin() + drop);
    for (auto& end : *ends) end -= cut;
    auto* who = table->mutable_log_readers();
    who->erase(who->begin(), who->begin() + drop);
  }
  write(table->mutable_log_texts());
  table->add_log_ends(static_cast<uint32_t>(table->log_texts().size()));
  uint32_t mask = 0;
  for (int s : readers) {
    // Seats past 30 would not fit the mask: no game seats that many.
    if (s < 0 || s > 30) std::abort();
    mask |= kLogRestricted | (1u << s);
  }
  table->add_log_readers(mask);
  table->set_log_seq(table->log_seq() + 1);
}

}  // namespace

void AppendLog(v1::TableState* table, const v1::Text& text, std::vector<int> readers,
               size_t limit) {
  AppendLogWith(table, readers, limit, [&](std::string* out) { text.AppendToString(out); });
}

void AppendLog(v1::TableState* table, const Phrase& text, std::vector<int> readers, size_t limit) {
  AppendLogWith(table, readers, limit, [&](std::string* out) { out->append(text.bytes()); });
}

LogRef LogAt(const v1::TableState& table, size_t i) {
  const int k = static_cast<int>(i);
  const uint32_t begin = k == 0 ? 0 : table.log_ends(k - 1);
  LogRef r;
  r.seq = LogSeqAt(table, i);
  r.readers = table.log_readers(k);
  r.text = std::string_view(table.log_texts()).substr(begin, table.log_ends(k) - begin);
  return r;
}

std::vector<LogRef> LogOf(const v1::TableState& table) {
  std::vector<LogRef> out;
  out.reserve(LogSize(table));
  for (size_t i = 0; i < LogSize(table); ++i) out.push_back(LogAt(table, i));
  return out;
}

v1::Text LogText(const LogRef& entry) {
  v1::Text text;
  text.ParseFromArray(entry.text.data(), static_cast<int>(entry.text.size()));
  return text;
}

bool CanRead(const LogRef& entry, int seat) {
  return entry.readers == 0 || (seat >= 0 && seat <= 30 && (entry.readers & (1u << seat)) != 0);
}

void LogFor(const v1::TableState& table, int seat,
            google::protobuf::RepeatedPtrField<v1::LogEntry>* out) {
  for (size_t i = 0; i < LogSize(table); ++i) {
    const LogRef r = LogAt(table, i);
    if (!CanRead(r, seat)) continue;
    auto* e = out->Add();
    e->set_seq(r.seq);
    // Written by AppendLog from a Text: it parses.
    e->mutable_text()->ParseFromArray(r.text.data(), static_cast<int>(r.text.size()));
  }
}

}  // namespace plateau::engine
