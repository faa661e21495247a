#include "engine/core/view_diff.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/io/coded_stream.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <iterator>
#include <span>
#include <string_view>

#include "engine/core/game.h"

#include "plateau/v1/options.pb.h"
#include "plateau/v1/table.pb.h"

namespace plateau::engine {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;
using plateau::v1::DiffOp;
using plateau::v1::ScalarValue;
using Path = std::vector<uint32_t>;
// A path as ops are written from it: the walk's own, or a caller's list (no copy on the heap).
using PathView = std::span<const uint32_t>;

// Diffing walks the two views' serialized forms side by side rather than the messages through
// reflection: a sub-message that did not change is one memcmp of its bytes, and only what changed
// is decoded (diffing is on every action's path). The bytes are the deterministic serialization,
// in which every value has exactly one encoding: equal bytes are equal values, bit for bit.

// One field occurrence in a message's bytes: its number and wire type, and its value's encoding
// (a varint's bytes, a fixed value's 4 or 8 bytes, a length-delimited payload without its length).
struct WireField {
  uint32_t number;
  uint32_t wire_type;
  std::string_view value;
  // SplitFields: the bytes of this occurrence and of those of the same field right after it,
  // tags included (a repeated field's elements, most of the time), with `value` the last one's.
  std::string_view run;
};

bool ReadVarint(std::string_view& in, uint64_t* out) {
  // Tags, lengths and most values in a view take one byte.
  if (!in.empty() && static_cast<uint8_t>(in.front()) < 0x80) {
    *out = static_cast<uint8_t>(in.front());
    in.remove_prefix(1);
    return true;
  }
  uint64_t v = 0;
  for (int shift = 0; shift < 64 && !in.empty(); shift += 7) {
    const auto byte = static_cast<uint8_t>(in.front());
    in.remove_prefix(1);
    v |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) {
      *out = v;
      return true;
    }
  }
  return false;
}

// The occurrences in `bytes`, ordered by field number (serialization writes them so; the sort
// only guards the order, keeping a repeated field's elements in theirs). False when the bytes are
// not a serialized message.
// Reads the field occurrence at the start of `bytes` into `w` and moves past it; false when the
// bytes there are not one.
bool NextField(std::string_view& bytes, WireField* w) {
  uint64_t tag;
  if (!ReadVarint(bytes, &tag)) return false;
  *w = WireField{static_cast<uint32_t>(tag >> 3), static_cast<uint32_t>(tag & 7), {}, {}};
  const char* begin = bytes.data();
  uint64_t len;
  switch (w->wire_type) {
    case 0:
      if (!ReadVarint(bytes, &len)) return false;
      w->value = std::string_view(begin, static_cast<size_t>(bytes.data() - begin));
      return true;
    case 1:
    case 5:
      len = w->wire_type == 1 ? 8 : 4;
      if (bytes.size() < len) return false;
      break;
    case 2:
      if (!ReadVarint(bytes, &len) || bytes.size() < len) return false;
      break;
    default:
      return false;  // groups: no view uses them
  }
  w->value = bytes.substr(0, len);
  bytes.remove_prefix(len);
  return true;
}

// Occurrences of one field that follow each other are one entry (see WireField::run): a list of
// forty squares is one comparison of its bytes when it did not change, not forty.
bool SplitFields(std::string_view bytes, std::vector<WireField>* out) {
  while (!bytes.empty()) {
    const char* start = bytes.data();
    WireField w;
    if (!NextField(bytes, &w)) return false;
    const auto end = static_cast<size_t>(bytes.data() - start);
    if (!out->empty() && out->back().number == w.number) {
      WireField& last = out->back();
      last.run = std::string_view(last.run.data(), static_cast<size_t>(bytes.data() - last.run.data()));
      last.value = w.value;
      last.wire_type = w.wire_type;
      continue;
    }
    w.run = std::string_view(start, end);
    out->push_back(w);
  }
  auto by_number = [](const WireField& x, const WireField& y) { return x.number < y.number; };
  // Checked first: sorting would allocate its buffer on every call, and it is never needed.
  if (!std::is_sorted(out->begin(), out->end(), by_number)) {
    std::stable_sort(out->begin(), out->end(), by_number);
  }
  return true;
}

uint32_t WireTypeOf(const FieldDescriptor* f) {
  switch (f->type()) {
    case FieldDescriptor::TYPE_DOUBLE:
    case FieldDescriptor::TYPE_FIXED64:
    case FieldDescriptor::TYPE_SFIXED64:
      return 1;
    case FieldDescriptor::TYPE_FLOAT:
    case FieldDescriptor::TYPE_FIXED32:
    case FieldDescriptor::TYPE_SFIXED32:
      return 5;
    case FieldDescriptor::TYPE_STRING:
    case FieldDescriptor::TYPE_BYTES:
    case FieldDescriptor::TYPE_MESSAGE:
    case FieldDescriptor::TYPE_GROUP:
      return 2;
    default:
      return 0;
  }
}

// The elements one occurrence of a repeated field holds: itself, or several packed in one
// length-delimited occurrence of a numeric field.
bool OccurrenceElements(uint32_t element_type, const WireField& w,
                        std::vector<std::string_view>* out) {
  if (w.wire_type == element_type) {
    out->push_back(w.value);
    return true;
  }
  if (w.wire_type != 2) return false;
  std::string_view packed = w.value;
  while (!packed.empty()) {
    const char* start = packed.data();
    uint64_t unused;
    if (element_type == 0) {
      if (!ReadVarint(packed, &unused)) return false;
    } else {
      const size_t len = element_type == 1 ? 8 : 4;
      if (packed.size() < len) return false;
      packed.remove_prefix(len);
    }
    out->push_back(std::string_view(start, static_cast<size_t>(packed.data() - start)));
  }
  return true;
}

// The elements of a repeated field from its entries (SplitFields's, each a run of occurrences).
bool Elements(const FieldDescriptor* f, const WireField* begin, const WireField* end,
              std::vector<std::string_view>* out) {
  const uint32_t element_type = WireTypeOf(f);
  for (const WireField* entry = begin; entry != end; ++entry) {
    std::string_view run = entry->run;
    while (!run.empty()) {
      WireField occurrence;
      if (!NextField(run, &occurrence)) return false;
      if (!OccurrenceElements(element_type, occurrence, out)) return false;
    }
  }
  return true;
}

template <class T>
T Fixed(std::string_view v) {
  T x{};
  // An absent field (empty encoding) is its default, zero.
  if (!v.empty()) std::memcpy(&x, v.data(), std::min(sizeof x, v.size()));
  return x;
}

// Ops are written as they appear in a serialized ViewDiff, straight into bytes: each is the
// `ops` field's tag and length, then the DiffOp's `path` (packed) and its one member of `op`.
// Building DiffOp messages first and serializing them was most of a diff's cost (allocations,
// size computations), and a diff is on every action's path. Proto3 writes a oneof member even at
// its default, so every op's member, and every ScalarValue's, is written.
using google::protobuf::io::CodedOutputStream;

// Into `p`, which has room for it (10 bytes at most); returns the end.
char* WriteVarint(uint64_t v, char* p) {
  for (; v >= 0x80; v >>= 7) *p++ = static_cast<char>(v | 0x80);
  *p++ = static_cast<char>(v);
  return p;
}

void PutVarint(uint64_t v, std::string* out) {
  char buf[10];
  out->append(buf, static_cast<size_t>(WriteVarint(v, buf) - buf));
}

constexpr uint32_t Tag(int field, int wire_type) {
  return static_cast<uint32_t>(field) << 3 | static_cast<uint32_t>(wire_type);
}

uint64_t ZigZag(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}

// The ScalarValue holding the value of scalar field `f` whose encoding is `v` (empty: the field
// is absent, its default): `kind` is its member's tag and `varint`, `fixed` or `bytes` its value.
struct Scalar {
  uint32_t kind = 0;
  uint64_t number = 0;   // a varint member's value, or a double's bits
  std::string_view bytes;  // a string or bytes member's value
  size_t Size() const {
    switch (kind & 7) {
      case 0: return 1 + static_cast<size_t>(CodedOutputStream::VarintSize64(number));
      case 1: return 1 + 8;
      default: return 1 + CodedOutputStream::VarintSize64(bytes.size()) + bytes.size();
    }
  }
  void Write(std::string* out) const {
    out->push_back(static_cast<char>(kind));
    switch (kind & 7) {
      case 0:
        PutVarint(number, out);
        break;
      case 1: {
        char b[8];
        std::memcpy(b, &number, 8);  // little-endian, as protobuf writes a fixed64
        out->append(b, 8);
        break;
      }
      default:
        PutVarint(bytes.size(), out);
        out->append(bytes);
    }
  }
};

Scalar ScalarOf(const FieldDescriptor* f, std::string_view v) {
  using SV = ScalarValue;
  Scalar out;
  uint64_t x = 0;
  if (WireTypeOf(f) == 0 && !v.empty()) {
    std::string_view in = v;
    ReadVarint(in, &x);
  }
  const uint32_t int_kind = Tag(SV::kIntValueFieldNumber, 0);
  const uint32_t uint_kind = Tag(SV::kUintValueFieldNumber, 0);
  const uint32_t double_kind = Tag(SV::kDoubleValueFieldNumber, 1);
  auto as_double = [&](double d) {
    out.kind = double_kind;
    std::memcpy(&out.number, &d, 8);
  };
  switch (f->type()) {
    case FieldDescriptor::TYPE_INT32:
    case FieldDescriptor::TYPE_ENUM:
      out = {int_kind, ZigZag(static_cast<int32_t>(x)), {}};
      break;
    case FieldDescriptor::TYPE_INT64:
      out = {int_kind, ZigZag(static_cast<int64_t>(x)), {}};
      break;
    case FieldDescriptor::TYPE_SINT32:
    case FieldDescriptor::TYPE_SINT64:
      out = {int_kind, x, {}};  // already zigzag, as sint64 writes it
      break;
    case FieldDescriptor::TYPE_UINT32:
    case FieldDescriptor::TYPE_UINT64:
      out = {uint_kind, x, {}};
      break;
    case FieldDescriptor::TYPE_BOOL:
      out = {Tag(SV::kBoolValueFieldNumber, 0), x != 0 ? 1u : 0u, {}};
      break;
    case FieldDescriptor::TYPE_FIXED32:
      out = {uint_kind, Fixed<uint32_t>(v), {}};
      break;
    case FieldDescriptor::TYPE_FIXED64:
      out = {uint_kind, Fixed<uint64_t>(v), {}};
      break;
    case FieldDescriptor::TYPE_SFIXED32:
      out = {int_kind, ZigZag(Fixed<int32_t>(v)), {}};
      break;
    case FieldDescriptor::TYPE_SFIXED64:
      out = {int_kind, ZigZag(Fixed<int64_t>(v)), {}};
      break;
    case FieldDescriptor::TYPE_FLOAT:
      as_double(Fixed<float>(v));
      break;
    case FieldDescriptor::TYPE_DOUBLE:
      as_double(Fixed<double>(v));
      break;
    case FieldDescriptor::TYPE_STRING:
      out = {Tag(SV::kStringValueFieldNumber, 2), 0, v};
      break;
    case FieldDescriptor::TYPE_BYTES:
      out = {Tag(SV::kBytesValueFieldNumber, 2), 0, v};
      break;
    default:
      break;
  }
  return out;
}

// The bytes a DiffOp's packed `path` takes.
size_t PathBytes(PathView path) {
  size_t packed = 0;
  for (uint32_t p : path) packed += google::protobuf::io::CodedOutputStream::VarintSize32(p);
  if (packed == 0) return 0;
  return 1 + google::protobuf::io::CodedOutputStream::VarintSize64(packed) + packed;
}

// The start of an op on `path` whose member takes `member_bytes` (its tag included): the ops
// field's tag and the op's length, then its packed path; written with one append.
void BeginOp(PathView path, size_t member_bytes, std::string* out) {
  size_t packed = 0;
  for (uint32_t p : path) packed += CodedOutputStream::VarintSize32(p);
  const size_t path_bytes = packed == 0 ? 0 : 1 + CodedOutputStream::VarintSize64(packed) + packed;
  const size_t start = out->size();
  out->resize(start + 1 + 10 + path_bytes);  // room for the largest length prefix
  char* p = out->data() + start;
  *p++ = static_cast<char>(Tag(plateau::v1::ViewDiff::kOpsFieldNumber, 2));
  p = WriteVarint(path_bytes + member_bytes, p);
  if (packed > 0) {
    *p++ = static_cast<char>(Tag(DiffOp::kPathFieldNumber, 2));
    p = WriteVarint(packed, p);
    for (uint32_t v : path) p = WriteVarint(v, p);
  }
  out->resize(static_cast<size_t>(p - out->data()));
}

// The bytes a length-delimited member holding `len` bytes takes, tag included (one byte: the
// members are numbered below 16).
size_t LenMemberBytes(size_t len) { return 1 + CodedOutputStream::VarintSize64(len) + len; }

void BytesOp(PathView path, int member, std::string_view bytes, std::string* out) {
  BeginOp(path, LenMemberBytes(bytes.size()), out);
  out->push_back(static_cast<char>(Tag(member, 2)));
  PutVarint(bytes.size(), out);
  out->append(bytes);
}

void VarintOp(PathView path, int member, uint64_t v, std::string* out) {
  BeginOp(path, 1 + CodedOutputStream::VarintSize64(v), out);
  out->push_back(static_cast<char>(Tag(member, 0)));
  PutVarint(v, out);
}

void ScalarOp(PathView path, int member, const Scalar& value, std::string* out) {
  const size_t len = value.Size();
  BeginOp(path, LenMemberBytes(len), out);
  out->push_back(static_cast<char>(Tag(member, 2)));
  PutVarint(len, out);
  value.Write(out);
}

void SetScalarOp(PathView path, const FieldDescriptor* f, std::string_view encoded,
                 std::string* out) {
  ScalarOp(path, DiffOp::kSetScalarFieldNumber, ScalarOf(f, encoded), out);
}

// What one ComputeDiff reuses as it walks: the path to the field at hand, and per nesting level
// the buffers the two messages' fields are split into (allocated once per level, not once per
// sub-message; a deque, so a level stays put while deeper ones are added).
struct Walk {
  Path path;
  struct Level {
    std::vector<WireField> fa, fb;
    std::vector<std::string_view> ea, eb;
    std::vector<uint64_t> ka, kb;  // the elements' keys, hashed (keyed repeated fields)
    std::vector<std::string_view> kba, kbb;  // and their bytes
    std::vector<size_t> kept;              // elements of `ea` whose key is still in `eb`
  };
  std::deque<Level> levels;
  size_t depth = 0;
  // Where the ops written reach the size of the enclosing sub-message's replacement
  // (DiffSubMessage): the walk stops there, since that sub-message will be replaced whole.
  size_t stop_at = SIZE_MAX;
  std::vector<std::pair<const Descriptor*, uint32_t>> keys;  // KeyField's, per element type
  // Each message type's fields by number (FieldOf), filled as types are met.
  std::vector<std::pair<const Descriptor*, std::vector<const FieldDescriptor*>>> fields;
};

// Field `number` of `type`, or null: a walk looks up every field it meets, and a table by number
// (views' numbers are small) is a fraction of the descriptor's hash lookup.
const FieldDescriptor* FieldOf(const Descriptor* type, uint32_t number, Walk& w) {
  const std::vector<const FieldDescriptor*>* table = nullptr;
  for (const auto& [t, by_number] : w.fields) {
    if (t == type) {
      table = &by_number;
      break;
    }
  }
  if (table == nullptr) {
    std::vector<const FieldDescriptor*> by_number;
    for (int i = 0; i < type->field_count(); ++i) {
      const FieldDescriptor* f = type->field(i);
      // Large numbers stay with the descriptor's lookup rather than a large table.
      if (f->number() > 256) continue;
      if (by_number.size() <= static_cast<size_t>(f->number())) by_number.resize(f->number() + 1);
      by_number[static_cast<size_t>(f->number())] = f;
    }
    w.fields.emplace_back(type, std::move(by_number));
    table = &w.fields.back().second;
  }
  if (number < table->size()) return (*table)[number];
  return number > 256 ? type->FindFieldByNumber(static_cast<int>(number)) : nullptr;
}

// Views are serialized by the engine; bytes that do not parse are a bug in the caller.
[[noreturn]] void Malformed() { std::abort(); }

void DiffMessage(const Descriptor* type, std::string_view a, std::string_view b, Walk& w,
                 std::string& ops);

// A LogEntry's seq, read from its bytes without parsing the entry (its text would cost
// allocations): 0 when absent, as proto3 reads it; false if the bytes are not a message.
bool LogEntrySeq(std::string_view bytes, uint64_t* seq) {
  *seq = 0;
  while (!bytes.empty()) {
    WireField w;
    if (!NextField(bytes, &w)) return false;
    // A singular field written twice: the last one counts.
    if (w.number == plateau::v1::LogEntry::kSeqFieldNumber && w.wire_type == 0) {
      std::string_view value = w.value;
      if (!ReadVarint(value, seq)) return false;
    }
  }
  return true;
}

// A log entry never changes once written, and its seq is its number in the game: two entries
// with the same seq are the same entry (also checked by the conformance suite).
bool SameLogEntry(const Descriptor* type, std::string_view a, std::string_view b) {
  if (type != plateau::v1::LogEntry::descriptor()) return false;
  uint64_t sa, sb;
  return LogEntrySeq(a, &sa) && LogEntrySeq(b, &sb) && sa == sb;
}

// Diffs two present sub-messages: field-level ops when they are smaller than replacing the whole.
void DiffSubMessage(const Descriptor* type, std::string_view a, std::string_view b, Walk& w,
                    std::string& ops) {
  if (a == b || SameLogEntry(type, a, b)) return;
  const size_t first = ops.size();
  // The core's table is changed field by field, never replaced whole: its log only grows at its
  // end, and a holder may keep that log apart from the rest of the view (GameSession).
  const bool whole_allowed = type != plateau::v1::Table::descriptor();
  // What one set_message op takes, written as the field ops are.
  const size_t content = PathBytes(w.path) + LenMemberBytes(b.size());
  const size_t whole_bytes = 1 + CodedOutputStream::VarintSize64(content) + content;
  const size_t outer = w.stop_at;
  if (whole_allowed) w.stop_at = std::min(outer, first + whole_bytes);
  DiffMessage(type, a, b, w, ops);
  w.stop_at = outer;
  // Field ops smaller than the whole message stay (complete: a walk stopped early for a larger
  // message is replaced by that message's owner, further out).
  if (!whole_allowed || ops.size() - first < whole_bytes) return;
  ops.resize(first);
  BytesOp(w.path, DiffOp::kSetMessageFieldNumber, b, &ops);
}

// The number of the field marked as `type`'s key (options.proto, diff_key), 0 when none is.
// Descriptors never change while the process runs: a walk's thread looks each type up once, in
// `known`, and a view has few enough repeated message types for a list to beat a hash.
uint32_t KeyField(const Descriptor* type,
                  std::vector<std::pair<const Descriptor*, uint32_t>>& known) {
  for (const auto& [t, key] : known) {
    if (t == type) return key;
  }
  uint32_t key = 0;
  for (int i = 0; i < type->field_count(); ++i) {
    const FieldDescriptor* f = type->field(i);
    if (!f->is_repeated() && f->options().GetExtension(plateau::v1::diff_key)) {
      key = static_cast<uint32_t>(f->number());
    }
  }
  known.emplace_back(type, key);
  return key;
}

// The encoding of field `number` in a message's bytes (empty when absent, which for a key without
// presence is its default): keys are compared by their encodings, which deterministic
// serialization makes one per value, and writes once.
bool FieldEncoding(std::string_view bytes, uint32_t number, std::string_view* out) {
  *out = {};
  while (!bytes.empty()) {
    WireField w;
    if (!NextField(bytes, &w)) return false;
    if (w.number == number) {
      *out = w.value;
      return true;
    }
  }
  return true;
}

// Element by element, by position: element i of `b` against element i of `a`.
void DiffByPosition(const FieldDescriptor* f, const std::vector<std::string_view>& ea,
                    const std::vector<std::string_view>& eb, Walk& w, std::string& ops) {
  const bool is_msg = f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE;
  const size_t common = std::min(ea.size(), eb.size());
  for (size_t i = 0; i < common; ++i) {
    if (ops.size() >= w.stop_at) return;
    w.path.push_back(static_cast<uint32_t>(i));
    if (is_msg) {
      DiffSubMessage(f->message_type(), ea[i], eb[i], w, ops);
    } else if (ea[i] != eb[i]) {
      SetScalarOp(w.path, f, eb[i], &ops);
    }
    w.path.pop_back();
  }
  if (eb.size() < ea.size()) VarintOp(w.path, DiffOp::kTruncateFieldNumber, eb.size(), &ops);
  for (size_t i = common; i < eb.size(); ++i) {
    if (is_msg) {
      BytesOp(w.path, DiffOp::kAppendMessageFieldNumber, eb[i], &ops);
    } else {
      ScalarOp(w.path, DiffOp::kAppendScalarFieldNumber, ScalarOf(f, eb[i]), &ops);
    }
  }
}

// Element by key: the elements of `a` whose key `b` lacks are removed, those of `b` whose key `a`
// lacks are inserted where they stand, and elements with the same key are diffed with each other.
// False, before any op, when keys add nothing to positions (the same keys in the same places, no
// key in common) or do not describe the change (a key twice in one list, elements kept in another
// order).
bool DiffByKey(const FieldDescriptor* f, uint32_t key_field, Walk::Level& level, Walk& w,
               std::string& ops) {
  const std::vector<std::string_view>& ea = level.ea;
  const std::vector<std::string_view>& eb = level.eb;
  // Quadratic, so only for the short lists keys are for (hands, questions).
  constexpr size_t kMaxElements = 64;
  if (ea.size() > kMaxElements || eb.size() > kMaxElements) return false;
  // Keys are compared as numbers (a key's bytes when they fit, else a hash of them, the bytes
  // then compared only where the numbers match): most keys are ids of one or two bytes, and
  // comparing those through memcmp was most of the cost.
  auto read_keys = [&](const std::vector<std::string_view>& elements, std::vector<uint64_t>& keys,
                       std::vector<std::string_view>& bytes) {
    keys.resize(elements.size());
    bytes.resize(elements.size());
    for (size_t i = 0; i < elements.size(); ++i) {
      if (!FieldEncoding(elements[i], key_field, &bytes[i])) Malformed();
      const std::string_view k = bytes[i];
      uint64_t h = k.size();
      if (k.size() < 8) {
        for (char c : k) h = (h << 8) | static_cast<uint8_t>(c);
      } else {
        h = 14695981039346656037ull;  // FNV-1a
        for (char c : k) h = (h ^ static_cast<uint8_t>(c)) * 1099511628211ull;
      }
      keys[i] = h;
    }
  };
  std::vector<uint64_t>& ka = level.ka;
  std::vector<uint64_t>& kb = level.kb;
  read_keys(ea, ka, level.kba);
  read_keys(eb, kb, level.kbb);
  const std::vector<std::string_view>& ba = level.kba;
  const std::vector<std::string_view>& bb = level.kbb;
  // A key of fewer than 8 bytes is its number (its length and bytes, in base 256), exactly; a
  // longer one's hash may equal a short one's number, so unless both are short the bytes decide.
  auto same = [](uint64_t x, std::string_view bx, uint64_t y, std::string_view by) {
    return x == y && ((bx.size() < 8 && by.size() < 8) || bx == by);
  };
  if (ka.size() == kb.size()) {
    bool moved = false;
    for (size_t i = 0; i < ka.size() && !moved; ++i) moved = !same(ka[i], ba[i], kb[i], bb[i]);
    if (!moved) return false;
  }
  // Where element `i` of `a`'s key stands in `b` (b.size() when it does not).
  auto in_b = [&](size_t i) {
    for (size_t j = 0; j < kb.size(); ++j) {
      if (same(ka[i], ba[i], kb[j], bb[j])) return j;
    }
    return kb.size();
  };
  auto has_duplicate = [&](const std::vector<uint64_t>& keys,
                           const std::vector<std::string_view>& bytes) {
    for (size_t i = 0; i < keys.size(); ++i) {
      for (size_t j = 0; j < i; ++j) {
        if (same(keys[j], bytes[j], keys[i], bytes[i])) return true;
      }
    }
    return false;
  };
  if (has_duplicate(ka, ba) || has_duplicate(kb, bb)) return false;
  std::vector<size_t>& kept = level.kept;
  kept.clear();
  size_t last = 0;
  for (size_t i = 0; i < ka.size(); ++i) {
    const size_t j = in_b(i);
    if (j == kb.size()) continue;
    if (!kept.empty() && j < last) return false;  // reordered
    kept.push_back(i);
    last = j;
  }
  // Nothing kept: by position, each element is replaced or appended, which removing them all and
  // adding the new ones cannot beat.
  if (kept.empty()) return false;
  // Removed from the last, so that each op's index is the element's place when it applies; when
  // the elements removed are the last ones, one truncate says it. (`kept` is in ascending order:
  // the ones not in it are the removed ones.)
  if (kept.back() == kept.size() - 1) {
    if (kept.size() < ka.size()) {
      VarintOp(w.path, DiffOp::kTruncateFieldNumber, kept.size(), &ops);
    }
  } else {
    size_t next_kept = kept.size();
    for (size_t i = ka.size(); i-- > 0;) {
      if (next_kept > 0 && kept[next_kept - 1] == i) {
        --next_kept;
        continue;
      }
      w.path.push_back(static_cast<uint32_t>(i));
      VarintOp(w.path, DiffOp::kRemoveFieldNumber, 1, &ops);
      w.path.pop_back();
    }
  }
  // What is left is `kept`, in `b`'s order: each element of `b` is either the next kept one or
  // new (a kept key further on would stand before it in `b`, against the order just checked).
  size_t k = 0;
  for (size_t j = 0; j < eb.size() && ops.size() < w.stop_at; ++j) {
    if (k < kept.size() && same(kb[j], bb[j], ka[kept[k]], ba[kept[k]])) {
      w.path.push_back(static_cast<uint32_t>(j));
      DiffSubMessage(f->message_type(), ea[kept[k]], eb[j], w, ops);
      w.path.pop_back();
      ++k;
    } else if (k == kept.size()) {
      BytesOp(w.path, DiffOp::kAppendMessageFieldNumber, eb[j], &ops);
    } else {
      w.path.push_back(static_cast<uint32_t>(j));
      BytesOp(w.path, DiffOp::kInsertMessageFieldNumber, eb[j], &ops);
      w.path.pop_back();
    }
  }
  return true;
}

// Repeated fields are diffed by position, except those whose elements have a key (options.proto)
// when the keys changed: by key, then, wherever the keys describe the change.
void DiffRepeated(const FieldDescriptor* f, const WireField* a_begin, const WireField* a_end,
                  const WireField* b_begin, const WireField* b_end, Walk& w,
                  std::string& ops) {
  // The same bytes, element for element: most repeated fields, most of the time.
  if (a_end - a_begin == 1 && b_end - b_begin == 1 && a_begin->run == b_begin->run) return;
  // The buffers of the level of the message holding the field (DiffMessage's).
  Walk::Level& level = w.levels[w.depth - 1];
  std::vector<std::string_view>& ea = level.ea;
  std::vector<std::string_view>& eb = level.eb;
  ea.clear();
  eb.clear();
  if (!Elements(f, a_begin, a_end, &ea) || !Elements(f, b_begin, b_end, &eb)) Malformed();
  if (ea == eb) return;  // most repeated fields, most of the time: nothing more to look at
  if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
    const uint32_t key_field = KeyField(f->message_type(), w.keys);
    if (key_field != 0 && DiffByKey(f, key_field, level, w, ops)) return;
  }
  DiffByPosition(f, ea, eb, w, ops);
}

void DiffMessage(const Descriptor* type, std::string_view a, std::string_view b, Walk& w,
                 std::string& ops) {
  if (w.levels.size() <= w.depth) w.levels.emplace_back();
  Walk::Level& level = w.levels[w.depth++];
  std::vector<WireField>& fa = level.fa;
  std::vector<WireField>& fb = level.fb;
  fa.clear();
  fb.clear();
  if (!SplitFields(a, &fa) || !SplitFields(b, &fb)) Malformed();
  const WireField* pa = fa.data();
  const WireField* pb = fb.data();
  const WireField* const a_end = pa + fa.size();
  const WireField* const b_end = pb + fb.size();
  // Whether `b` holds a member of `oneof` other than `f`.
  auto other_member_in_b = [&](const google::protobuf::OneofDescriptor* oneof,
                               const FieldDescriptor* f) {
    for (const WireField& x : fb) {
      const FieldDescriptor* g = FieldOf(type, x.number, w);
      if (g != nullptr && g != f && g->real_containing_oneof() == oneof) return true;
    }
    return false;
  };
  while ((pa != a_end || pb != b_end) && ops.size() < w.stop_at) {
    const uint32_t number = pa == a_end   ? pb->number
                            : pb == b_end ? pa->number
                                          : std::min(pa->number, pb->number);
    const WireField* ra = pa;
    while (pa != a_end && pa->number == number) ++pa;
    const WireField* rb = pb;
    while (pb != b_end && pb->number == number) ++pb;
    const FieldDescriptor* f = FieldOf(type, number, w);
    if (f == nullptr) continue;  // unknown fields: a view built by the engine has none
    w.path.push_back(number);
    if (f->is_repeated()) {
      DiffRepeated(f, ra, pa, rb, pb, w, ops);
    } else {
      // A singular field written more than once: the last occurrence is its value.
      const bool ha = ra != pa, hb = rb != pb;
      const std::string_view va = ha ? (pa - 1)->value : std::string_view();
      const std::string_view vb = hb ? (pb - 1)->value : std::string_view();
      if (!hb) {
        // Leaving a oneof for another member is done by setting that member; only clear when the
        // oneof becomes empty (or the field is a plain optional that went away). A field without
        // presence is absent at its default, which is set as a value.
        const auto* oneof = f->real_containing_oneof();
        if (!f->has_presence()) {
          SetScalarOp(w.path, f, vb, &ops);
        } else if (oneof == nullptr || !other_member_in_b(oneof, f)) {
          VarintOp(w.path, DiffOp::kClearFieldNumber, 1, &ops);
        }
      } else if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
        if (ha) {
          DiffSubMessage(f->message_type(), va, vb, w, ops);
        } else {
          BytesOp(w.path, DiffOp::kSetMessageFieldNumber, vb, &ops);
        }
      } else if (!ha || va != vb) {
        SetScalarOp(w.path, f, vb, &ops);
      }
    }
    w.path.pop_back();
  }
  --w.depth;
}

Status BadOp(const std::string& why) { return Status("bad_diff", why); }

// Writes `v` into field `f` of `m` (element `index` of a repeated field, or appended when
// index == -2, or the singular field when index == -1).
Status WriteScalar(Message* m, const FieldDescriptor* f, int index, const ScalarValue& v) {
  const Reflection* r = m->GetReflection();
  const bool set = index == -1, append = index == -2;
  auto kind_error = [&] { return BadOp("value kind does not match field " + f->full_name()); };
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32: {
      if (v.value_case() != ScalarValue::kIntValue) return kind_error();
      auto x = static_cast<int32_t>(v.int_value());
      set ? r->SetInt32(m, f, x) : append ? r->AddInt32(m, f, x) : r->SetRepeatedInt32(m, f, index, x);
      break;
    }
    case FieldDescriptor::CPPTYPE_INT64: {
      if (v.value_case() != ScalarValue::kIntValue) return kind_error();
      int64_t x = v.int_value();
      set ? r->SetInt64(m, f, x) : append ? r->AddInt64(m, f, x) : r->SetRepeatedInt64(m, f, index, x);
      break;
    }
    case FieldDescriptor::CPPTYPE_UINT32: {
      if (v.value_case() != ScalarValue::kUintValue) return kind_error();
      auto x = static_cast<uint32_t>(v.uint_value());
      set ? r->SetUInt32(m, f, x) : append ? r->AddUInt32(m, f, x) : r->SetRepeatedUInt32(m, f, index, x);
      break;
    }
    case FieldDescriptor::CPPTYPE_UINT64: {
      if (v.value_case() != ScalarValue::kUintValue) return kind_error();
      uint64_t x = v.uint_value();
      set ? r->SetUInt64(m, f, x) : append ? r->AddUInt64(m, f, x) : r->SetRepeatedUInt64(m, f, index, x);
      break;
    }
    case FieldDescriptor::CPPTYPE_DOUBLE: {
      if (v.value_case() != ScalarValue::kDoubleValue) return kind_error();
      double x = v.double_value();
      set ? r->SetDouble(m, f, x) : append ? r->AddDouble(m, f, x) : r->SetRepeatedDouble(m, f, index, x);
      break;
    }
    case FieldDescriptor::CPPTYPE_FLOAT: {
      if (v.value_case() != ScalarValue::kDoubleValue) return kind_error();
      auto x = static_cast<float>(v.double_value());
      set ? r->SetFloat(m, f, x) : append ? r->AddFloat(m, f, x) : r->SetRepeatedFloat(m, f, index, x);
      break;
    }
    case FieldDescriptor::CPPTYPE_BOOL: {
      if (v.value_case() != ScalarValue::kBoolValue) return kind_error();
      bool x = v.bool_value();
      set ? r->SetBool(m, f, x) : append ? r->AddBool(m, f, x) : r->SetRepeatedBool(m, f, index, x);
      break;
    }
    case FieldDescriptor::CPPTYPE_ENUM: {
      if (v.value_case() != ScalarValue::kIntValue) return kind_error();
      auto x = static_cast<int>(v.int_value());
      set ? r->SetEnumValue(m, f, x) : append ? r->AddEnumValue(m, f, x) : r->SetRepeatedEnumValue(m, f, index, x);
      break;
    }
    case FieldDescriptor::CPPTYPE_STRING: {
      const bool bytes = f->type() == FieldDescriptor::TYPE_BYTES;
      if (v.value_case() != (bytes ? ScalarValue::kBytesValue : ScalarValue::kStringValue)) {
        return kind_error();
      }
      const std::string& x = bytes ? v.bytes_value() : v.string_value();
      set ? r->SetString(m, f, x) : append ? r->AddString(m, f, x) : r->SetRepeatedString(m, f, index, x);
      break;
    }
    case FieldDescriptor::CPPTYPE_MESSAGE:
      return BadOp("scalar value for message field " + f->full_name());
  }
  return Status::Ok();
}

Status ApplyOne(const DiffOp& op, Message* root) {
  if (op.path_size() == 0) return BadOp("empty path");
  Message* m = root;
  int i = 0;
  while (true) {
    const FieldDescriptor* f = m->GetDescriptor()->FindFieldByNumber(static_cast<int>(op.path(i)));
    if (f == nullptr) {
      return BadOp("no field " + std::to_string(op.path(i)) + " in " + m->GetTypeName());
    }
    const Reflection* r = m->GetReflection();
    const int remaining = op.path_size() - i - 1;
    if (remaining == 0) {
      // The op addresses field f itself.
      switch (op.op_case()) {
        case DiffOp::kSetScalar:
          if (f->is_repeated()) return BadOp("set on a whole repeated field");
          return WriteScalar(m, f, -1, op.set_scalar());
        case DiffOp::kSetMessage:
          if (f->is_repeated() || f->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE) {
            return BadOp("set_message on a non-message field");
          }
          if (!r->MutableMessage(m, f)->ParseFromString(op.set_message())) {
            return BadOp("undecodable message");
          }
          return Status::Ok();
        case DiffOp::kClear:
          r->ClearField(m, f);
          return Status::Ok();
        case DiffOp::kTruncate: {
          if (!f->is_repeated()) return BadOp("truncate on a singular field");
          int n = r->FieldSize(*m, f);
          if (op.truncate() > static_cast<uint32_t>(n)) return BadOp("truncate beyond size");
          for (int k = n; k > static_cast<int>(op.truncate()); --k) r->RemoveLast(m, f);
          return Status::Ok();
        }
        case DiffOp::kDropFirst: {
          if (!f->is_repeated()) return BadOp("drop_first on a singular field");
          const int n = r->FieldSize(*m, f);
          if (op.drop_first() > static_cast<uint32_t>(n)) return BadOp("drop_first beyond size");
          const int d = static_cast<int>(op.drop_first());
          // Moves the kept elements to the front, then drops the tail: linear, no copies.
          for (int k = d; k < n; ++k) r->SwapElements(m, f, k - d, k);
          for (int k = 0; k < d; ++k) r->RemoveLast(m, f);
          return Status::Ok();
        }
        case DiffOp::kAppendScalar:
          if (!f->is_repeated()) return BadOp("append on a singular field");
          return WriteScalar(m, f, -2, op.append_scalar());
        case DiffOp::kAppendMessage:
          if (!f->is_repeated() || f->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE) {
            return BadOp("append_message on a non-message field");
          }
          if (!r->AddMessage(m, f)->ParseFromString(op.append_message())) {
            r->RemoveLast(m, f);
            return BadOp("undecodable message");
          }
          return Status::Ok();
        case DiffOp::kRemove:
        case DiffOp::kInsertMessage:
          return BadOp("remove and insert_message need an element index");
        case DiffOp::OP_NOT_SET:
          return BadOp("op without a kind");
      }
    }
    if (f->is_repeated()) {
      const uint32_t index = op.path(i + 1);
      const int size = r->FieldSize(*m, f);
      if (remaining == 1 && op.op_case() == DiffOp::kInsertMessage) {
        if (f->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE) {
          return BadOp("insert_message on a non-message field");
        }
        if (index > static_cast<uint32_t>(size)) return BadOp("index out of range");
        if (!r->AddMessage(m, f)->ParseFromString(op.insert_message())) {
          r->RemoveLast(m, f);
          return BadOp("undecodable message");
        }
        // Added last, then moved down to its place.
        for (int k = size; k > static_cast<int>(index); --k) r->SwapElements(m, f, k, k - 1);
        return Status::Ok();
      }
      if (index >= static_cast<uint32_t>(size)) return BadOp("index out of range");
      const int idx = static_cast<int>(index);
      if (remaining == 1) {
        // The op addresses one element.
        if (op.op_case() == DiffOp::kRemove) {
          for (int k = idx; k + 1 < size; ++k) r->SwapElements(m, f, k, k + 1);
          r->RemoveLast(m, f);
          return Status::Ok();
        }
        if (op.op_case() == DiffOp::kSetScalar) return WriteScalar(m, f, idx, op.set_scalar());
        if (op.op_case() == DiffOp::kSetMessage && f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
          if (!r->MutableRepeatedMessage(m, f, idx)->ParseFromString(op.set_message())) {
            return BadOp("undecodable message");
          }
          return Status::Ok();
        }
        return BadOp("unsupported op on a repeated element");
      }
      if (f->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE) return BadOp("path through a scalar");
      m = r->MutableRepeatedMessage(m, f, idx);
      i += 2;
    } else {
      if (f->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE) return BadOp("path through a scalar");
      m = r->MutableMessage(m, f);
      i += 1;
    }
  }
}

}  // namespace

void ComputeDiff(const Descriptor& type, std::string_view from, std::string_view to,
                 std::string* ops) {
  // One walk per thread, its buffers kept from one diff to the next: diffs run on every action's
  // path, and allocating each level's buffers anew was most of a diff's allocations. A diff never
  // starts another, so the walk is free whenever one starts.
  thread_local Walk walk;
  walk.path.clear();
  walk.depth = 0;
  walk.stop_at = SIZE_MAX;
  DiffMessage(&type, from, to, walk, *ops);
}

void AppendMessageOp(std::initializer_list<uint32_t> path, std::string_view message,
                     std::string* ops) {
  BytesOp(PathView(path.begin(), path.size()), DiffOp::kAppendMessageFieldNumber, message, ops);
}

void DropFirstOp(std::initializer_list<uint32_t> path, uint32_t n, std::string* ops) {
  VarintOp(PathView(path.begin(), path.size()), DiffOp::kDropFirstFieldNumber, n, ops);
}

std::vector<DiffOp> ComputeDiff(const Message& from, const Message& to) {
  // Views of one recipient always share a type; anything else is a bug in the caller.
  if (from.GetDescriptor() != to.GetDescriptor()) std::abort();
  std::string bytes;
  ComputeDiff(*from.GetDescriptor(), DeterministicBytes(from), DeterministicBytes(to), &bytes);
  plateau::v1::ViewDiff diff;
  if (!diff.ParseFromString(bytes)) std::abort();  // written above: always parses
  return std::vector<DiffOp>(std::make_move_iterator(diff.mutable_ops()->begin()),
                             std::make_move_iterator(diff.mutable_ops()->end()));
}

Status ApplyDiff(const std::vector<DiffOp>& ops, Message* target) {
  for (const auto& op : ops) {
    Status st = ApplyOne(op, target);
    if (!st.ok()) return st;
  }
  return Status::Ok();
}

Status ApplyDiff(const google::protobuf::RepeatedPtrField<DiffOp>& ops, Message* target) {
  for (const auto& op : ops) {
    Status st = ApplyOne(op, target);
    if (!st.ok()) return st;
  }
  return Status::Ok();
}

}  // namespace plateau::engine
