#include "engine/core/families.h"

#include <gtest/gtest.h>

#include <set>

#include "diff_test_types.pb.h"

namespace plateau::engine {
namespace {

using test::Node;

// A card played with a chosen colour, 1..3 units and 0..2 leaves of values 5..7, each leaf with
// distinct numbers from {1,2,3}.
v1::ActionFamily Family() {
  Node base;
  base.set_str("card");
  base.mutable_leaf()->set_a(9);
  v1::ActionFamily f;
  f.set_base(base.SerializeAsString());
  *f.add_params() = ParamValues("color", {1, 2});
  *f.add_params() = ParamRange("leaf.a", 1, 3);
  *f.add_params() = ParamCount(ParamRange("leaves", 0, 0), 0, 2);
  *f.add_params() = ParamRange("leaves.a", 5, 7);
  *f.add_params() = ParamCount(ParamValues("leaves.xs", {1, 2, 3}), 1, 2, /*distinct=*/true);
  return f;
}

TEST(Families, DrawsStayInsideTheirFamilyAndCoverItsDomain) {
  const auto f = Family();
  ASSERT_TRUE(CheckFamily(Node::descriptor(), f).ok());
  Rng rng(5);
  std::set<int64_t> colors, amounts;
  std::set<int> leaf_counts;
  for (int i = 0; i < 400; ++i) {
    auto m = DrawFromFamily(Node::default_instance(), f, rng);
    const auto& n = static_cast<const Node&>(*m);
    ASSERT_TRUE(FamilyHas(f, n)) << n.ShortDebugString();
    EXPECT_EQ(n.str(), "card");  // the base is kept
    colors.insert(n.color());
    amounts.insert(n.leaf().a());
    leaf_counts.insert(n.leaves_size());
    for (const auto& leaf : n.leaves()) {
      EXPECT_TRUE(leaf.a() >= 5 && leaf.a() <= 7);
      ASSERT_TRUE(leaf.xs_size() >= 1 && leaf.xs_size() <= 2);
      if (leaf.xs_size() == 2) {
        EXPECT_NE(leaf.xs(0), leaf.xs(1));
      }
    }
  }
  EXPECT_EQ(colors, (std::set<int64_t>{1, 2}));
  EXPECT_EQ(amounts, (std::set<int64_t>{1, 2, 3}));
  EXPECT_EQ(leaf_counts, (std::set<int>{0, 1, 2}));
}

TEST(Families, SingularFamiliesAreEnumeratedWholeOrNotAtAll) {
  Node base;
  base.set_str("card");
  base.mutable_leaf();  // a parameter inside a message needs the message in the base
  v1::ActionFamily f;
  f.set_base(base.SerializeAsString());
  *f.add_params() = ParamValues("color", {2, 1});
  *f.add_params() = ParamRange("leaf.a", 4, 6);
  const auto members = EnumerateFamily(Node::default_instance(), f, 6);
  ASSERT_EQ(members.size(), 6u);
  std::set<std::string> distinct;
  for (const auto& m : members) {
    EXPECT_TRUE(FamilyHas(f, *m));
    distinct.insert(m->SerializeAsString());
  }
  EXPECT_EQ(distinct.size(), 6u);
  // The first parameter turns slowest, each in the order of its domain.
  const auto& first = static_cast<const Node&>(*members[0]);
  const auto& second = static_cast<const Node&>(*members[1]);
  const auto& fourth = static_cast<const Node&>(*members[3]);
  EXPECT_EQ(static_cast<int>(first.color()), 2);
  EXPECT_EQ(first.leaf().a(), 4);
  EXPECT_EQ(second.leaf().a(), 5);
  EXPECT_EQ(static_cast<int>(fourth.color()), 1);
  EXPECT_EQ(first.str(), "card");
  EXPECT_TRUE(EnumerateFamily(Node::default_instance(), f, 5).empty());  // more than the limit
  EXPECT_TRUE(EnumerateFamily(Node::default_instance(), Family(), 100000).empty());  // repeated
  v1::ActionFamily none;
  none.set_base(base.SerializeAsString());
  *none.add_params() = ParamRange("color", 2, 1);  // an empty domain
  EXPECT_TRUE(EnumerateFamily(Node::default_instance(), none, 10).empty());
}

// A number after a list's name frees a field of that element alone: the other elements keep the
// base's values (LIMIT's second transaction, after a first of a quantity already chosen).
TEST(Families, AnElementIndexFreesThatElementAlone) {
  Node base;
  base.add_leaves()->set_a(2);
  base.add_leaves();
  v1::ActionFamily f;
  f.set_base(base.SerializeAsString());
  *f.add_params() = ParamRange("leaves.1.a", 5, 7);
  ASSERT_TRUE(CheckFamily(Node::descriptor(), f).ok());
  const auto members = EnumerateFamily(Node::default_instance(), f, 10);
  ASSERT_EQ(members.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    const auto& n = static_cast<const Node&>(*members[static_cast<size_t>(i)]);
    ASSERT_EQ(n.leaves_size(), 2);
    EXPECT_EQ(n.leaves(0).a(), 2) << "the first element is the base's";
    EXPECT_EQ(n.leaves(1).a(), 5 + i);
    EXPECT_TRUE(FamilyHas(f, n));
  }
  Node other = static_cast<const Node&>(*members[0]);
  other.mutable_leaves(0)->set_a(5);  // the element the path does not name
  EXPECT_FALSE(FamilyHas(f, other));
  Rng rng(3);
  for (int i = 0; i < 20; ++i) EXPECT_TRUE(FamilyHas(f, *DrawFromFamily(Node::default_instance(), f, rng)));

  v1::ActionFamily missing = f;  // the base has no third element
  missing.mutable_params(0)->set_path("leaves.2.a");
  EXPECT_FALSE(CheckFamily(Node::descriptor(), missing).ok());
  missing.mutable_params(0)->set_path("leaves.1");  // an element is not a field
  EXPECT_FALSE(CheckFamily(Node::descriptor(), missing).ok());
}

TEST(Families, MembershipChecksDomainsCountsAndTheRest) {
  const auto f = Family();
  Node n;
  n.set_str("card");
  n.set_color(test::COLOR_BLUE);
  n.mutable_leaf()->set_a(3);
  auto* l = n.add_leaves();
  l->set_a(6);
  l->add_xs(3);
  l->add_xs(1);
  EXPECT_TRUE(FamilyHas(f, n));

  Node out = n;
  out.mutable_leaf()->set_a(4);  // outside 1..3
  EXPECT_FALSE(FamilyHas(f, out));
  out = n;
  out.mutable_leaves(0)->set_xs(1, 3);  // not distinct
  EXPECT_FALSE(FamilyHas(f, out));
  out = n;
  out.mutable_leaves(0)->add_xs(2);  // three numbers, two at most
  EXPECT_FALSE(FamilyHas(f, out));
  out = n;
  *out.add_leaves() = n.leaves(0);
  *out.add_leaves() = n.leaves(0);  // three leaves
  EXPECT_FALSE(FamilyHas(f, out));
  out = n;
  out.set_str("another card");  // a field no parameter frees
  EXPECT_FALSE(FamilyHas(f, out));
  out = n;
  out.set_i32(1);
  EXPECT_FALSE(FamilyHas(f, out));
  out = n;
  out.mutable_leaves(0)->set_s("x");  // inside an element, not a parameter
  EXPECT_FALSE(FamilyHas(f, out));
}

TEST(Families, MalformedFamiliesAreRefused) {
  auto bad = [](v1::ActionParam p) {
    v1::ActionFamily f;
    *f.add_params() = std::move(p);
    return !CheckFamily(Node::descriptor(), f).ok();
  };
  EXPECT_TRUE(bad(ParamRange("nope", 0, 1)));
  EXPECT_TRUE(bad(ParamRange("str", 0, 1)));         // not a number
  EXPECT_TRUE(bad(ParamRange("leaf", 0, 1)));        // a singular message
  EXPECT_TRUE(bad(ParamRange("i32.x", 0, 1)));       // through a number
  EXPECT_TRUE(bad(ParamRange("i32", 3, 1)));         // empty range
  EXPECT_TRUE(bad(ParamValues("leaves", {1})));      // counts take no values
  EXPECT_TRUE(bad(ParamCount(ParamValues("nums", {1}), 2, 2, true)));  // too few distinct
  EXPECT_FALSE(bad(ParamCount(ParamValues("nums", {1, 2}), 2, 2, true)));
  v1::ActionFamily twice;
  *twice.add_params() = ParamRange("i32", 0, 1);
  *twice.add_params() = ParamRange("i32", 0, 1);
  EXPECT_FALSE(CheckFamily(Node::descriptor(), twice).ok());
}

}  // namespace
}  // namespace plateau::engine
