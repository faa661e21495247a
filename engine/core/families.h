#pragma once
// Action families (ActionFamily in table.proto): a game describes actions too many to list — a
// card played with a military amount, classes in order and up to two transactions — as a base
// action plus the domain of each free field. A bot or a timer draws from the description; a test
// checks that every legal action the list leaves out lies inside one.
//
// Paths are field names from the Action's root, dot-separated. A path through a repeated message
// reaches that field in every element, or, with an element's index after the list's name
// (`play_card.transactions.1.quantity`), in that element alone, which the base must hold; a path
// ending on a repeated message field gives how many elements it has (their own fields are further
// parameters).
#include <memory>
#include <string>
#include <vector>

#include "engine/core/rng.h"
#include "engine/core/status.h"
#include "plateau/v1/table.pb.h"
#include <google/protobuf/message.h>

namespace plateau::engine {

namespace v1 = ::plateau::v1;

// Family building, for games: Values(path, {..}), Range(path, lo, hi), Count(path, lo, hi).
v1::ActionParam ParamValues(std::string path, const std::vector<int64_t>& values);
v1::ActionParam ParamRange(std::string path, int64_t min, int64_t max);

// The family a published family leaf stands for: `base` (the parts on its path), its params, and
// the paths its parent names once for all its family leaves (MoveChoice.next_paths) where a
// param leaves its own empty.
v1::ActionFamily LeafFamily(const v1::MoveChoice* parent, const v1::MoveChoice& leaf,
                            std::string base);
// For a repeated field: how many elements (values of a repeated scalar come from `values` or
// min..max, distinct when asked).
v1::ActionParam ParamCount(v1::ActionParam param, uint32_t min_count, uint32_t max_count,
                           bool distinct = false);

// The family's parameters name fields of `action_type` with values they can hold, and each
// domain is non-empty. Games' families are checked by the conformance suite with this.
Status CheckFamily(const google::protobuf::Descriptor* action_type, const v1::ActionFamily& f);

// One member of the family, chosen uniformly per parameter. `prototype` is the Action type.
std::unique_ptr<google::protobuf::Message> DrawFromFamily(
    const google::protobuf::Message& prototype, const v1::ActionFamily& f, Rng& rng);

// Whether `action` is a member: every parameter's value lies in its domain and every other field
// equals the base's.
bool FamilyHas(const v1::ActionFamily& f, const google::protobuf::Message& action);

// Every member of `f`, whose parameters must all be singular fields: the product of their
// domains, first parameter slowest. Empty when there are more than `limit` members or a
// parameter is repeated.
std::vector<std::unique_ptr<google::protobuf::Message>> EnumerateFamily(
    const google::protobuf::Message& prototype, const v1::ActionFamily& f, size_t limit);

// How many members EnumerateFamily would list: 0 where it would list none.
uint64_t FamilyMembers(const google::protobuf::Message& prototype, const v1::ActionFamily& f,
                       size_t limit);

// Whether any of `families` has `action`.
bool AnyFamilyHas(const std::vector<v1::ActionFamily>& families,
                  const google::protobuf::Message& action);

}  // namespace plateau::engine
