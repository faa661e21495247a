#include "engine/core/view_diff.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/util/message_differencer.h>

#include <cstdlib>
#include <cstring>

#include "plateau/v1/table.pb.h"

namespace plateau::engine {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;
using plateau::v1::DiffOp;
using plateau::v1::ScalarValue;
using Path = std::vector<uint32_t>;

ScalarValue ReadScalar(const Message& m, const FieldDescriptor* f, int index) {
  const Reflection* r = m.GetReflection();
  const bool rep = f->is_repeated();
  ScalarValue v;
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32:
      v.set_int_value(rep ? r->GetRepeatedInt32(m, f, index) : r->GetInt32(m, f));
      break;
    case FieldDescriptor::CPPTYPE_INT64:
      v.set_int_value(rep ? r->GetRepeatedInt64(m, f, index) : r->GetInt64(m, f));
      break;
    case FieldDescriptor::CPPTYPE_UINT32:
      v.set_uint_value(rep ? r->GetRepeatedUInt32(m, f, index) : r->GetUInt32(m, f));
      break;
    case FieldDescriptor::CPPTYPE_UINT64:
      v.set_uint_value(rep ? r->GetRepeatedUInt64(m, f, index) : r->GetUInt64(m, f));
      break;
    case FieldDescriptor::CPPTYPE_DOUBLE:
      v.set_double_value(rep ? r->GetRepeatedDouble(m, f, index) : r->GetDouble(m, f));
      break;
    case FieldDescriptor::CPPTYPE_FLOAT:
      v.set_double_value(rep ? r->GetRepeatedFloat(m, f, index) : r->GetFloat(m, f));
      break;
    case FieldDescriptor::CPPTYPE_BOOL:
      v.set_bool_value(rep ? r->GetRepeatedBool(m, f, index) : r->GetBool(m, f));
      break;
    case FieldDescriptor::CPPTYPE_ENUM:
      v.set_int_value(rep ? r->GetRepeatedEnumValue(m, f, index) : r->GetEnumValue(m, f));
      break;
    case FieldDescriptor::CPPTYPE_STRING:
      if (f->type() == FieldDescriptor::TYPE_BYTES) {
        v.set_bytes_value(rep ? r->GetRepeatedString(m, f, index) : r->GetString(m, f));
      } else {
        v.set_string_value(rep ? r->GetRepeatedString(m, f, index) : r->GetString(m, f));
      }
      break;
    case FieldDescriptor::CPPTYPE_MESSAGE:
      break;
  }
  return v;
}

template <class T>
bool Bitwise(T x, T y) {
  return std::memcmp(&x, &y, sizeof x) == 0;
}

// Field `f` (element `i` of a repeated one) holds the same value in `a` and `b`, compared in
// place: no value is copied or serialized (diffing is on every action's path).
bool SameValue(const Message& a, const Message& b, const FieldDescriptor* f, int i);

bool SameMessage(const Message& a, const Message& b) {
  if (&a == &b) return true;
  const auto* desc = a.GetDescriptor();
  const Reflection* ra = a.GetReflection();
  const Reflection* rb = b.GetReflection();
  for (int k = 0; k < desc->field_count(); ++k) {
    const FieldDescriptor* f = desc->field(k);
    if (f->is_repeated()) {
      const int n = ra->FieldSize(a, f);
      if (n != rb->FieldSize(b, f)) return false;
      for (int i = 0; i < n; ++i)
        if (!SameValue(a, b, f, i)) return false;
    } else {
      if (f->has_presence() && ra->HasField(a, f) != rb->HasField(b, f)) return false;
      if (!SameValue(a, b, f, -1)) return false;
    }
  }
  // Unknown fields are not compared: called different (a view built by the engine has none).
  return ra->GetUnknownFields(a).empty() && rb->GetUnknownFields(b).empty();
}

bool SameValue(const Message& a, const Message& b, const FieldDescriptor* f, int i) {
  const Reflection* ra = a.GetReflection();
  const Reflection* rb = b.GetReflection();
  const bool rep = i >= 0;
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32:
      return rep ? ra->GetRepeatedInt32(a, f, i) == rb->GetRepeatedInt32(b, f, i)
                 : ra->GetInt32(a, f) == rb->GetInt32(b, f);
    case FieldDescriptor::CPPTYPE_INT64:
      return rep ? ra->GetRepeatedInt64(a, f, i) == rb->GetRepeatedInt64(b, f, i)
                 : ra->GetInt64(a, f) == rb->GetInt64(b, f);
    case FieldDescriptor::CPPTYPE_UINT32:
      return rep ? ra->GetRepeatedUInt32(a, f, i) == rb->GetRepeatedUInt32(b, f, i)
                 : ra->GetUInt32(a, f) == rb->GetUInt32(b, f);
    case FieldDescriptor::CPPTYPE_UINT64:
      return rep ? ra->GetRepeatedUInt64(a, f, i) == rb->GetRepeatedUInt64(b, f, i)
                 : ra->GetUInt64(a, f) == rb->GetUInt64(b, f);
    case FieldDescriptor::CPPTYPE_DOUBLE:
      return rep ? Bitwise(ra->GetRepeatedDouble(a, f, i), rb->GetRepeatedDouble(b, f, i))
                 : Bitwise(ra->GetDouble(a, f), rb->GetDouble(b, f));
    case FieldDescriptor::CPPTYPE_FLOAT:
      return rep ? Bitwise(ra->GetRepeatedFloat(a, f, i), rb->GetRepeatedFloat(b, f, i))
                 : Bitwise(ra->GetFloat(a, f), rb->GetFloat(b, f));
    case FieldDescriptor::CPPTYPE_BOOL:
      return rep ? ra->GetRepeatedBool(a, f, i) == rb->GetRepeatedBool(b, f, i)
                 : ra->GetBool(a, f) == rb->GetBool(b, f);
    case FieldDescriptor::CPPTYPE_ENUM:
      return rep ? ra->GetRepeatedEnumValue(a, f, i) == rb->GetRepeatedEnumValue(b, f, i)
                 : ra->GetEnumValue(a, f) == rb->GetEnumValue(b, f);
    case FieldDescriptor::CPPTYPE_STRING: {
      std::string sa, sb;
      const std::string& x = rep ? ra->GetRepeatedStringReference(a, f, i, &sa)
                                 : ra->GetStringReference(a, f, &sa);
      const std::string& y = rep ? rb->GetRepeatedStringReference(b, f, i, &sb)
                                 : rb->GetStringReference(b, f, &sb);
      return x == y;
    }
    case FieldDescriptor::CPPTYPE_MESSAGE:
      return rep ? SameMessage(ra->GetRepeatedMessage(a, f, i), rb->GetRepeatedMessage(b, f, i))
                 : SameMessage(ra->GetMessage(a, f), rb->GetMessage(b, f));
  }
  return false;
}

// A log entry never changes once written, and its seq is its number in the game: two entries
// with the same seq are the same entry (also checked by the conformance suite).
bool SameLogEntry(const Message& a, const Message& b) {
  if (a.GetDescriptor() != plateau::v1::LogEntry::descriptor()) return false;
  const auto* ea = dynamic_cast<const plateau::v1::LogEntry*>(&a);
  const auto* eb = dynamic_cast<const plateau::v1::LogEntry*>(&b);
  return ea != nullptr && eb != nullptr && ea->seq() == eb->seq();
}

DiffOp MakeOp(const Path& path) {
  DiffOp op;
  for (uint32_t p : path) op.add_path(p);
  return op;
}

void DiffMessage(const Message& a, const Message& b, Path& path, std::vector<DiffOp>& ops);

// Diffs two present sub-messages: field-level ops when they are smaller than replacing the whole.
// Equal sub-messages give no ops, so there is no separate equality pass (which would compare
// every level once per ancestor); the whole is serialized only when it is the smaller.
void DiffSubMessage(const Message& a, const Message& b, Path& path, std::vector<DiffOp>& ops) {
  if (SameLogEntry(a, b)) return;
  const size_t first = ops.size();
  DiffMessage(a, b, path, ops);
  if (ops.size() == first) return;
  // The core's table is changed field by field, never replaced whole: its log only grows at its
  // end, and a holder may keep that log apart from the rest of the view (GameSession).
  if (a.GetDescriptor() == plateau::v1::Table::descriptor()) return;
  size_t sub_bytes = 0;
  for (size_t i = first; i < ops.size(); ++i) sub_bytes += ops[i].ByteSizeLong();
  // What a set_message op takes: the path, then the message with its tag and length prefix.
  DiffOp whole = MakeOp(path);
  const size_t b_bytes = b.ByteSizeLong();
  const size_t whole_bytes = whole.ByteSizeLong() + 1 +
                             google::protobuf::io::CodedOutputStream::VarintSize64(b_bytes) +
                             b_bytes;
  if (whole_bytes > sub_bytes) return;
  whole.set_set_message(b.SerializeAsString());
  ops.resize(first);
  ops.push_back(std::move(whole));
}

void DiffRepeated(const Message& a, const Message& b, const FieldDescriptor* f, Path& path,
                  std::vector<DiffOp>& ops) {
  const Reflection* ra = a.GetReflection();
  const Reflection* rb = b.GetReflection();
  const int na = ra->FieldSize(a, f);
  const int nb = rb->FieldSize(b, f);
  const int common = std::min(na, nb);
  const bool is_msg = f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE;
  for (int i = 0; i < common; ++i) {
    path.push_back(static_cast<uint32_t>(i));
    if (is_msg) {
      DiffSubMessage(ra->GetRepeatedMessage(a, f, i), rb->GetRepeatedMessage(b, f, i), path, ops);
    } else {
      if (!SameValue(a, b, f, i)) {
        DiffOp op = MakeOp(path);
        *op.mutable_set_scalar() = ReadScalar(b, f, i);
        ops.push_back(std::move(op));
      }
    }
    path.pop_back();
  }
  if (nb < na) {
    DiffOp op = MakeOp(path);
    op.set_truncate(static_cast<uint32_t>(nb));
    ops.push_back(std::move(op));
  }
  for (int i = common; i < nb; ++i) {
    DiffOp op = MakeOp(path);
    if (is_msg) {
      op.set_append_message(rb->GetRepeatedMessage(b, f, i).SerializeAsString());
    } else {
      *op.mutable_append_scalar() = ReadScalar(b, f, i);
    }
    ops.push_back(std::move(op));
  }
}

void DiffMessage(const Message& a, const Message& b, Path& path, std::vector<DiffOp>& ops) {
  const auto* desc = a.GetDescriptor();
  const Reflection* ra = a.GetReflection();
  const Reflection* rb = b.GetReflection();
  for (int i = 0; i < desc->field_count(); ++i) {
    const FieldDescriptor* f = desc->field(i);
    path.push_back(static_cast<uint32_t>(f->number()));
    if (f->is_repeated()) {
      DiffRepeated(a, b, f, path, ops);
    } else if (f->has_presence()) {
      const bool ha = ra->HasField(a, f), hb = rb->HasField(b, f);
      const auto* oneof = f->real_containing_oneof();
      if (!hb) {
        // Leaving a oneof for another member is done by setting that member; only clear when the
        // oneof becomes empty (or the field is a plain optional that went away).
        const bool other_member_set = oneof != nullptr && rb->HasOneof(b, oneof);
        if (ha && !other_member_set) {
          DiffOp op = MakeOp(path);
          op.set_clear(true);
          ops.push_back(std::move(op));
        }
      } else if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
        if (ha) {
          DiffSubMessage(ra->GetMessage(a, f), rb->GetMessage(b, f), path, ops);
        } else {
          DiffOp op = MakeOp(path);
          op.set_set_message(rb->GetMessage(b, f).SerializeAsString());
          ops.push_back(std::move(op));
        }
      } else {
        if (!ha || !SameValue(a, b, f, -1)) {
          DiffOp op = MakeOp(path);
          *op.mutable_set_scalar() = ReadScalar(b, f, -1);
          ops.push_back(std::move(op));
        }
      }
    } else {
      if (!SameValue(a, b, f, -1)) {
        DiffOp op = MakeOp(path);
        *op.mutable_set_scalar() = ReadScalar(b, f, -1);
        ops.push_back(std::move(op));
      }
    }
    path.pop_back();
  }
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
        case DiffOp::OP_NOT_SET:
          return BadOp("op without a kind");
      }
    }
    if (f->is_repeated()) {
      const uint32_t index = op.path(i + 1);
      if (index >= static_cast<uint32_t>(r->FieldSize(*m, f))) return BadOp("index out of range");
      const int idx = static_cast<int>(index);
      if (remaining == 1) {
        // The op addresses one element.
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

std::vector<DiffOp> ComputeDiff(const Message& from, const Message& to) {
  std::vector<DiffOp> ops;
  // Views of one recipient always share a type; anything else is a bug in the caller.
  if (from.GetDescriptor() != to.GetDescriptor()) std::abort();
  Path path;
  DiffMessage(from, to, path, ops);
  return ops;
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
