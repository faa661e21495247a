// Action families: checking, drawing, listing and recognising the members of a base action with
// free fields named by paths.
#include "engine/core/families.h"

#include <algorithm>
#include <google/protobuf/util/message_differencer.h>
#include <set>

namespace plateau::engine {

namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;
// A resolved path: its fields from the Action's root and, for each repeated message on the way,
// the one element it names (`transactions.1.quantity`) or -1 for every element.
struct Fields {
  std::vector<const FieldDescriptor*> fields;
  std::vector<int> element;
  const FieldDescriptor* operator[](size_t i) const { return fields[i]; }
  const FieldDescriptor* back() const { return fields.back(); }
  size_t size() const { return fields.size(); }
  bool Indexed() const {
    return std::any_of(element.begin(), element.end(), [](int e) { return e >= 0; });
  }
};

// A path segment that names an element: digits only, small.
int ElementIndex(const std::string& name) {
  if (name.empty() || name.size() > 4) return -1;
  for (char c : name)
    if (c < '0' || c > '9') return -1;
  return std::stoi(name);
}

bool Integral(const FieldDescriptor* f) {
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32:
    case FieldDescriptor::CPPTYPE_INT64:
    case FieldDescriptor::CPPTYPE_UINT32:
    case FieldDescriptor::CPPTYPE_UINT64:
    case FieldDescriptor::CPPTYPE_BOOL:
    case FieldDescriptor::CPPTYPE_ENUM:
      return true;
    default:
      return false;
  }
}

StatusOr<Fields> Resolve(const Descriptor* d, const std::string& path) {
  Fields out;
  size_t start = 0;
  while (true) {
    const size_t dot = path.find('.', start);
    const std::string name = path.substr(start, dot == std::string::npos ? dot : dot - start);
    if (d == nullptr) return Status(codes::kMalformed, "'" + path + "' goes through a number");
    const FieldDescriptor* f = d->FindFieldByName(name);
    if (f == nullptr) return Status(codes::kMalformed, "no field '" + name + "' in " + path);
    out.fields.push_back(f);
    out.element.push_back(-1);
    if (dot == std::string::npos) break;
    // After a repeated message, a number names one of its elements.
    if (f->is_repeated() && f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
      const size_t next = path.find('.', dot + 1);
      const int element =
          ElementIndex(path.substr(dot + 1, next == std::string::npos ? next : next - dot - 1));
      if (element >= 0) {
        if (next == std::string::npos)
          return Status(codes::kMalformed, "'" + path + "' ends on an element, not a field");
        out.element.back() = element;
        d = f->message_type();
        start = next + 1;
        continue;
      }
    }
    if (f->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE)
      return Status(codes::kMalformed, "'" + path + "' goes through a number");
    d = f->message_type();
    start = dot + 1;
  }
  const FieldDescriptor* last = out.back();
  const bool count = last->is_repeated() && last->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE;
  if (!count && !Integral(last))
    return Status(codes::kMalformed, "'" + path + "' is neither a number nor a repeated message");
  return out;
}

// Calls fn(parent, last field) for every message holding the path's last field: every element of
// a repeated message on the way, or the one the path names (none when it is missing); a missing
// singular message is created when `create`, skipped otherwise.
template <class F>
void ForEachMut(Message* m, const Fields& fields, size_t i, bool create, const F& fn) {
  const FieldDescriptor* f = fields[i];
  if (i + 1 == fields.size()) return fn(*m, f);
  const Reflection* r = m->GetReflection();
  if (f->is_repeated()) {
    const int e = fields.element[i];
    for (int j = 0; j < r->FieldSize(*m, f); ++j)
      if (e < 0 || e == j) ForEachMut(r->MutableRepeatedMessage(m, f, j), fields, i + 1, create, fn);
  } else if (create || r->HasField(*m, f)) {
    ForEachMut(r->MutableMessage(m, f), fields, i + 1, create, fn);
  }
}

template <class F>
void ForEachConst(const Message& m, const Fields& fields, size_t i, const F& fn) {
  const FieldDescriptor* f = fields[i];
  if (i + 1 == fields.size()) return fn(m, f);
  const Reflection* r = m.GetReflection();
  if (f->is_repeated()) {
    const int e = fields.element[i];
    for (int j = 0; j < r->FieldSize(m, f); ++j)
      if (e < 0 || e == j) ForEachConst(r->GetRepeatedMessage(m, f, j), fields, i + 1, fn);
  } else {
    ForEachConst(r->GetMessage(m, f), fields, i + 1, fn);
  }
}

int64_t Get(const Message& m, const FieldDescriptor* f, int index) {
  const Reflection* r = m.GetReflection();
  const bool rep = index >= 0;
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32:
      return rep ? r->GetRepeatedInt32(m, f, index) : r->GetInt32(m, f);
    case FieldDescriptor::CPPTYPE_INT64:
      return rep ? r->GetRepeatedInt64(m, f, index) : r->GetInt64(m, f);
    case FieldDescriptor::CPPTYPE_UINT32:
      return rep ? r->GetRepeatedUInt32(m, f, index) : r->GetUInt32(m, f);
    case FieldDescriptor::CPPTYPE_UINT64:
      return static_cast<int64_t>(rep ? r->GetRepeatedUInt64(m, f, index) : r->GetUInt64(m, f));
    case FieldDescriptor::CPPTYPE_BOOL:
      return (rep ? r->GetRepeatedBool(m, f, index) : r->GetBool(m, f)) ? 1 : 0;
    case FieldDescriptor::CPPTYPE_ENUM:
      return rep ? r->GetRepeatedEnumValue(m, f, index) : r->GetEnumValue(m, f);
    default:
      return 0;
  }
}

// Sets a singular field, or appends to a repeated one.
void Put(Message& m, const FieldDescriptor* f, int64_t v) {
  const Reflection* r = m.GetReflection();
  const bool rep = f->is_repeated();
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32:
      return rep ? r->AddInt32(&m, f, static_cast<int32_t>(v))
                 : r->SetInt32(&m, f, static_cast<int32_t>(v));
    case FieldDescriptor::CPPTYPE_INT64:
      return rep ? r->AddInt64(&m, f, v) : r->SetInt64(&m, f, v);
    case FieldDescriptor::CPPTYPE_UINT32:
      return rep ? r->AddUInt32(&m, f, static_cast<uint32_t>(v))
                 : r->SetUInt32(&m, f, static_cast<uint32_t>(v));
    case FieldDescriptor::CPPTYPE_UINT64:
      return rep ? r->AddUInt64(&m, f, static_cast<uint64_t>(v))
                 : r->SetUInt64(&m, f, static_cast<uint64_t>(v));
    case FieldDescriptor::CPPTYPE_BOOL:
      return rep ? r->AddBool(&m, f, v != 0) : r->SetBool(&m, f, v != 0);
    case FieldDescriptor::CPPTYPE_ENUM:
      return rep ? r->AddEnumValue(&m, f, static_cast<int>(v))
                 : r->SetEnumValue(&m, f, static_cast<int>(v));
    default:
      return;
  }
}

bool InDomain(const v1::ActionParam& p, int64_t v) {
  if (p.values_size() > 0)
    return std::find(p.values().begin(), p.values().end(), v) != p.values().end();
  return v >= p.min() && v <= p.max();
}

uint64_t DomainSize(const v1::ActionParam& p) {
  if (p.values_size() > 0) return static_cast<uint64_t>(p.values_size());
  return p.max() < p.min() ? 0 : static_cast<uint64_t>(p.max() - p.min()) + 1;
}

int64_t Pick(const v1::ActionParam& p, Rng& rng) {
  const uint64_t n = DomainSize(p);
  if (n == 0) return p.min();
  const uint64_t k = rng.Below(n);
  return p.values_size() > 0 ? p.values(static_cast<int>(k)) : p.min() + static_cast<int64_t>(k);
}

size_t Depth(const std::string& path) { return std::count(path.begin(), path.end(), '.'); }

}  // namespace

v1::ActionParam ParamValues(std::string path, const std::vector<int64_t>& values) {
  v1::ActionParam p;
  p.set_path(std::move(path));
  for (int64_t v : values) p.add_values(v);
  return p;
}

v1::ActionFamily LeafFamily(const v1::MoveChoice* parent, const v1::MoveChoice& leaf,
                            std::string base) {
  v1::ActionFamily family;
  family.set_base(std::move(base));
  *family.mutable_params() = leaf.params();
  if (parent != nullptr)
    for (int i = 0; i < family.params_size() && i < parent->next_paths_size(); ++i)
      if (family.params(i).path().empty()) family.mutable_params(i)->set_path(parent->next_paths(i));
  return family;
}

v1::ActionParam ParamRange(std::string path, int64_t min, int64_t max) {
  v1::ActionParam p;
  p.set_path(std::move(path));
  p.set_min(min);
  p.set_max(max);
  return p;
}

v1::ActionParam ParamCount(v1::ActionParam param, uint32_t min_count, uint32_t max_count,
                           bool distinct) {
  param.set_min_count(min_count);
  param.set_max_count(max_count);
  param.set_distinct(distinct);
  return param;
}

Status CheckFamily(const Descriptor* action_type, const v1::ActionFamily& f) {
  std::unique_ptr<Message> base(
      google::protobuf::MessageFactory::generated_factory()->GetPrototype(action_type)->New());
  if (!base->ParseFromString(f.base()))
    return Status(codes::kMalformed, "the family's base is not an action");
  std::set<std::string> seen;
  for (const auto& p : f.params()) {
    auto fields = Resolve(action_type, p.path());
    if (!fields.ok()) return fields.status();
    if (!seen.insert(p.path()).second)
      return Status(codes::kMalformed, "'" + p.path() + "' given twice");
    const FieldDescriptor* last = fields.value().back();
    const bool count = last->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE;
    if (fields.value().Indexed()) {
      // The element named must be in the base: the path sets it, never creates it.
      bool found = false;
      ForEachConst(*base, fields.value(), 0, [&](const Message&, const FieldDescriptor*) {
        found = true;
      });
      if (!found) return Status(codes::kMalformed, "'" + p.path() + "' names an element the base lacks");
    }
    if (last->is_repeated() && p.min_count() > p.max_count())
      return Status(codes::kMalformed, "'" + p.path() + "' has no count");
    if (count) {
      if (p.values_size() > 0 || p.distinct())
        return Status(codes::kMalformed, "'" + p.path() + "' counts messages: no values");
      continue;
    }
    if (DomainSize(p) == 0 && (!last->is_repeated() || p.max_count() > 0))
      return Status(codes::kMalformed, "'" + p.path() + "' has an empty domain");
    if (p.distinct() && DomainSize(p) < p.min_count())
      return Status(codes::kMalformed, "'" + p.path() + "' has too few distinct values");
  }
  return Status::Ok();
}

std::unique_ptr<Message> DrawFromFamily(const Message& prototype, const v1::ActionFamily& f,
                                        Rng& rng) {
  std::unique_ptr<Message> out(prototype.New());
  out->ParseFromString(f.base());
  // Element counts first, so that their fields are drawn for every element.
  std::vector<const v1::ActionParam*> order;
  for (const auto& p : f.params()) order.push_back(&p);
  std::stable_sort(order.begin(), order.end(), [](const auto* a, const auto* b) {
    return Depth(a->path()) < Depth(b->path());
  });
  for (const auto* p : order) {
    auto fields = Resolve(prototype.GetDescriptor(), p->path());
    if (!fields.ok()) continue;
    ForEachMut(out.get(), fields.value(), 0, true, [&](Message& m, const FieldDescriptor* last) {
      const Reflection* r = m.GetReflection();
      if (!last->is_repeated()) return Put(m, last, Pick(*p, rng));
      r->ClearField(&m, last);
      const uint32_t lo = p->min_count(), hi = std::max(p->min_count(), p->max_count());
      uint32_t k = lo + static_cast<uint32_t>(rng.Below(hi - lo + 1));
      if (last->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
        for (uint32_t j = 0; j < k; ++j) r->AddMessage(&m, last);
        return;
      }
      if (!p->distinct()) {
        for (uint32_t j = 0; j < k; ++j) Put(m, last, Pick(*p, rng));
        return;
      }
      std::vector<int64_t> pool;
      if (p->values_size() > 0) {
        pool.assign(p->values().begin(), p->values().end());
      } else {
        for (int64_t v = p->min(); v <= p->max() && pool.size() < 65536; ++v) pool.push_back(v);
      }
      std::sort(pool.begin(), pool.end());
      pool.erase(std::unique(pool.begin(), pool.end()), pool.end());
      rng.Shuffle(pool);
      k = std::min<uint32_t>(k, static_cast<uint32_t>(pool.size()));
      for (uint32_t j = 0; j < k; ++j) Put(m, last, pool[j]);
    });
  }
  return out;
}

namespace {
// The fields each parameter of `f` names and how many members it has, or no fields when it
// cannot be enumerated (a repeated parameter, more than `limit` members).
uint64_t Enumerable(const Message& prototype, const v1::ActionFamily& f, size_t limit,
                    std::vector<Fields>* fields) {
  uint64_t members = 1;
  for (const auto& p : f.params()) {
    auto resolved = Resolve(prototype.GetDescriptor(), p.path());
    if (!resolved.ok() || resolved.value().back()->is_repeated()) return 0;
    members *= DomainSize(p);
    if (members > limit) return 0;
    fields->push_back(std::move(resolved.value()));
  }
  return members;
}
}  // namespace

uint64_t FamilyMembers(const Message& prototype, const v1::ActionFamily& f, size_t limit) {
  std::vector<Fields> fields;
  return Enumerable(prototype, f, limit, &fields);
}

std::vector<std::unique_ptr<Message>> EnumerateFamily(const Message& prototype,
                                                      const v1::ActionFamily& f, size_t limit) {
  std::vector<std::unique_ptr<Message>> out;
  std::vector<Fields> fields;
  const uint64_t members = Enumerable(prototype, f, limit, &fields);
  if (members == 0) return out;
  std::unique_ptr<Message> base(prototype.New());
  if (!base->ParseFromString(f.base())) return out;
  std::vector<uint64_t> digit(fields.size(), 0);
  for (uint64_t n = 0; n < members; ++n) {
    std::unique_ptr<Message> member(base->New());
    member->CopyFrom(*base);
    for (size_t i = 0; i < fields.size(); ++i) {
      const v1::ActionParam& p = f.params(static_cast<int>(i));
      const int64_t v = p.values_size() > 0 ? p.values(static_cast<int>(digit[i]))
                                            : p.min() + static_cast<int64_t>(digit[i]);
      ForEachMut(member.get(), fields[i], 0, true,
                 [&](Message& m, const FieldDescriptor* last) { Put(m, last, v); });
    }
    out.push_back(std::move(member));
    // The last parameter turns fastest.
    for (size_t i = fields.size(); i-- > 0;) {
      if (++digit[i] < DomainSize(f.params(static_cast<int>(i)))) break;
      digit[i] = 0;
    }
  }
  return out;
}

bool FamilyHas(const v1::ActionFamily& f, const Message& action) {
  const Descriptor* type = action.GetDescriptor();
  std::vector<std::pair<const v1::ActionParam*, Fields>> params;
  for (const auto& p : f.params()) {
    auto fields = Resolve(type, p.path());
    if (!fields.ok()) return false;
    params.emplace_back(&p, std::move(fields.value()));
  }
  bool inside = true;
  for (const auto& [p, fields] : params) {
    ForEachConst(action, fields, 0, [&](const Message& m, const FieldDescriptor* last) {
      const Reflection* r = m.GetReflection();
      if (!last->is_repeated()) {
        inside = inside && InDomain(*p, Get(m, last, -1));
        return;
      }
      const int n = r->FieldSize(m, last);
      if (n < static_cast<int>(p->min_count()) || n > static_cast<int>(p->max_count())) {
        inside = false;
        return;
      }
      if (last->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) return;
      std::set<int64_t> distinct;
      for (int j = 0; j < n; ++j) {
        const int64_t v = Get(m, last, j);
        inside = inside && InDomain(*p, v) && (!p->distinct() || distinct.insert(v).second);
      }
    });
    if (!inside) return false;
  }
  // Everything the parameters leave free must be the base's.
  std::unique_ptr<Message> base(action.New()), rest(action.New());
  if (!base->ParseFromString(f.base())) return false;
  rest->CopyFrom(action);
  std::sort(params.begin(), params.end(), [](const auto& a, const auto& b) {
    return a.second.size() > b.second.size();
  });
  // Deepest first: an element's free fields are cleared before the element itself is checked to
  // hold nothing else (a counted element has no base to compare with: all else is unset).
  bool plain = true;
  for (const auto& [p, fields] : params)
    for (Message* m : {base.get(), rest.get()})
      ForEachMut(m, fields, 0, false, [&](Message& parent, const FieldDescriptor* last) {
        const Reflection* r = parent.GetReflection();
        if (last->is_repeated() && last->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
          for (int j = 0; j < r->FieldSize(parent, last); ++j) {
            const Message& element = r->GetRepeatedMessage(parent, last, j);
            std::unique_ptr<Message> empty(element.New());
            plain = plain && google::protobuf::util::MessageDifferencer::Equals(element, *empty);
          }
        }
        r->ClearField(&parent, last);
      });
  return plain && google::protobuf::util::MessageDifferencer::Equals(*base, *rest);
}

bool AnyFamilyHas(const std::vector<v1::ActionFamily>& families, const Message& action) {
  return std::any_of(families.begin(), families.end(),
                     [&](const auto& f) { return FamilyHas(f, action); });
}

}  // namespace plateau::engine
