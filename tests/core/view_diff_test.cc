#include "engine/core/view_diff.h"

#include <gtest/gtest.h>

#include "diff_test_types.pb.h"
#include "tiny_game.pb.h"
#include "engine/core/game.h"
#include "engine/core/rng.h"

namespace plateau::engine {
namespace {

using plateau::test::Color;
using plateau::test::Leaf;
using plateau::test::Node;

// The property the protocol promises: from + diff == to, byte for byte.
template <class M>
void ExpectRoundTrip(const M& from, const M& to) {
  auto ops = ComputeDiff(from, to);
  M patched = from;
  Status st = ApplyDiff(ops, &patched);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(DeterministicBytes(patched), DeterministicBytes(to))
      << "from:\n" << from.DebugString() << "to:\n" << to.DebugString() << "got:\n"
      << patched.DebugString();
}

TEST(ViewDiffTest, SmallSubMessageIsReplacedWhole) {
  Node a, b;
  a.mutable_leaf()->set_a(1);
  b.mutable_leaf()->set_a(2);
  auto ops = ComputeDiff(a, b);
  ASSERT_EQ(ops.size(), 1u);
  EXPECT_TRUE(ops[0].has_set_message());
  ExpectRoundTrip(a, b);
}

// A view's table is changed field by field even where replacing it would be smaller: its log may
// be kept apart from the rest of the view by whoever holds it (GameSession).
TEST(ViewDiffTest, TheTableIsNeverReplacedWhole) {
  plateau::test::nim::View a, b;
  a.mutable_table()->add_resigned(1);
  b.mutable_table()->add_resigned(2);
  auto* prompt = b.mutable_table()->add_prompts();
  prompt->set_id("q1");
  auto ops = ComputeDiff(a, b);
  ASSERT_FALSE(ops.empty());
  for (const auto& op : ops) EXPECT_GT(op.path_size(), 1) << op.DebugString();
  ExpectRoundTrip(a, b);
}

TEST(ViewDiffTest, IdenticalMessagesProduceNoOps) {
  Node n;
  n.set_i32(5);
  n.add_leaves()->set_s("x");
  EXPECT_TRUE(ComputeDiff(n, n).empty());
}

TEST(ViewDiffTest, ScalarChangeIsOneSmallOp) {
  Node a, b;
  a.set_str("hello");
  a.mutable_leaf()->set_a(1);
  a.mutable_leaf()->set_s(std::string(64, 'z'));  // large enough that a field op beats a copy
  b = a;
  b.mutable_leaf()->set_a(2);
  auto ops = ComputeDiff(a, b);
  ASSERT_EQ(ops.size(), 1u);
  EXPECT_EQ(ops[0].path_size(), 2);  // leaf(12) -> a(1)
  EXPECT_EQ(ops[0].path(0), 12u);
  EXPECT_EQ(ops[0].path(1), 1u);
  EXPECT_EQ(ops[0].set_scalar().int_value(), 2);
  ExpectRoundTrip(a, b);
}

TEST(ViewDiffTest, ScalarBackToDefault) {
  Node a, b;
  a.set_u64(UINT64_MAX);
  a.set_i64(INT64_MIN);
  a.set_b(true);
  ExpectRoundTrip(a, b);
  ExpectRoundTrip(b, a);
}

TEST(ViewDiffTest, RepeatedGrowShrinkAndEdit) {
  Node a, b;
  for (int i = 0; i < 5; ++i) a.add_nums(i);
  for (int i = 0; i < 3; ++i) b.add_nums(i * 10);
  ExpectRoundTrip(a, b);
  ExpectRoundTrip(b, a);
  a.add_names("x");
  b.add_names("x");
  b.add_names("y");
  ExpectRoundTrip(a, b);
}

TEST(ViewDiffTest, RepeatedMessagesEditedInPlace) {
  Node a;
  for (int i = 0; i < 4; ++i) {
    Leaf* l = a.add_leaves();
    l->set_a(i);
    l->set_s(std::string(40, 'a' + i));
  }
  Node b = a;
  b.mutable_leaves(2)->set_a(99);
  auto ops = ComputeDiff(a, b);
  ASSERT_EQ(ops.size(), 1u);
  // leaves(13), index 2, a(1): a field-level op, not the whole element.
  EXPECT_EQ(ops[0].path_size(), 3);
  ExpectRoundTrip(a, b);
  b.mutable_leaves()->RemoveLast();
  b.add_leaves()->add_xs(7);
  ExpectRoundTrip(a, b);
}

TEST(ViewDiffTest, OneofSwitchAndClear) {
  Node a, b, c;
  a.mutable_leaf_choice()->set_a(3);
  b.set_text_choice("now text");
  ExpectRoundTrip(a, b);
  ExpectRoundTrip(b, a);
  ExpectRoundTrip(a, c);
  ExpectRoundTrip(c, b);
  Node d;
  d.set_int_choice(0);  // present with a default value is still a different message
  ExpectRoundTrip(c, d);
  ExpectRoundTrip(d, c);
}

TEST(ViewDiffTest, OptionalPresence) {
  Node a, b;
  b.set_maybe(0);
  ExpectRoundTrip(a, b);
  ExpectRoundTrip(b, a);
}

TEST(ViewDiffTest, SubMessageAppearsAndDisappears) {
  Node a, b;
  b.mutable_child()->mutable_leaf()->set_s("deep");
  b.mutable_child()->add_colors(plateau::test::COLOR_BLUE);
  ExpectRoundTrip(a, b);
  ExpectRoundTrip(b, a);
}

TEST(ViewDiffTest, FloatingPointBitExact) {
  Node a, b;
  a.set_d(0.0);
  b.set_d(-0.0);
  ExpectRoundTrip(a, b);
  a.set_f(1.5f);
  b.set_f(2.25f);
  ExpectRoundTrip(a, b);
}

TEST(ViewDiffTest, MalformedOpsAreRefused) {
  Node n;
  n.add_leaves();
  plateau::v1::DiffOp op;
  op.add_path(999);
  op.set_clear(true);
  EXPECT_EQ(ApplyDiff(std::vector{op}, &n).code(), "bad_diff");
  op.Clear();
  op.add_path(13);
  op.add_path(5);  // index beyond size 1
  op.add_path(1);
  op.mutable_set_scalar()->set_int_value(1);
  EXPECT_EQ(ApplyDiff(std::vector{op}, &n).code(), "bad_diff");
  op.Clear();
  op.add_path(1);
  op.mutable_set_scalar()->set_string_value("not an int");
  EXPECT_EQ(ApplyDiff(std::vector{op}, &n).code(), "bad_diff");
  op.Clear();
  op.add_path(13);
  op.set_truncate(3);
  EXPECT_EQ(ApplyDiff(std::vector{op}, &n).code(), "bad_diff");
  op.Clear();
  op.add_path(13);
  op.set_drop_first(2);  // beyond size 1
  EXPECT_EQ(ApplyDiff(std::vector{op}, &n).code(), "bad_diff");
  op.Clear();
  op.add_path(1);
  op.set_drop_first(1);  // a singular field
  EXPECT_EQ(ApplyDiff(std::vector{op}, &n).code(), "bad_diff");
}

// A log trimmed at its start: the entries left move to the front in order, messages and
// scalars alike.
TEST(ViewDiffTest, DropFirstRemovesTheFirstElements) {
  Node n;
  for (int i = 0; i < 5; ++i) n.add_leaves()->set_a(i);
  for (int i = 0; i < 3; ++i) n.add_nums(i);
  plateau::v1::DiffOp leaves, nums;
  leaves.add_path(13);
  leaves.set_drop_first(3);
  nums.add_path(14);
  nums.set_drop_first(3);
  ASSERT_TRUE(ApplyDiff(std::vector{leaves, nums}, &n).ok());
  ASSERT_EQ(n.leaves_size(), 2);
  EXPECT_EQ(n.leaves(0).a(), 3);
  EXPECT_EQ(n.leaves(1).a(), 4);
  EXPECT_EQ(n.nums_size(), 0);
}

// Two log entries with the same seq are one entry (it never changes once written): the diff
// does not compare them, so even different texts under one seq give no op. Entries with other
// seqs are compared, and an absent seq reads as 0.
TEST(ViewDiffTest, LogEntriesAreComparedBySeq) {
  auto entry = [](plateau::test::nim::View& v, uint64_t seq, const char* key) {
    auto* e = v.mutable_table()->add_log();
    e->set_seq(seq);
    e->mutable_text()->set_key(key);
  };
  for (uint64_t seq : {0u, 7u, 300u}) {
    plateau::test::nim::View a, b;
    entry(a, seq, "first");
    entry(b, seq, "second");
    EXPECT_TRUE(ComputeDiff(a, b).empty()) << "seq " << seq;
  }
  plateau::test::nim::View a, b;
  entry(a, 7, "first");
  entry(b, 8, "first");
  EXPECT_FALSE(ComputeDiff(a, b).empty());
  ExpectRoundTrip(a, b);
  plateau::test::nim::View c, d;
  entry(c, 0, "first");
  entry(d, 1, "first");
  EXPECT_FALSE(ComputeDiff(c, d).empty());
  ExpectRoundTrip(c, d);
}

// Random messages: the property must hold for any pair, not just the shapes above.
Leaf RandomLeaf(Rng& r) {
  Leaf l;
  if (r.Below(2)) l.set_a(static_cast<int32_t>(r.Below(5)));
  if (r.Below(2)) l.set_s(std::string(r.Below(4), 'a' + static_cast<char>(r.Below(3))));
  for (uint64_t i = 0, n = r.Below(4); i < n; ++i) l.add_xs(static_cast<uint32_t>(r.Below(3)));
  return l;
}

Node RandomNode(Rng& r, int depth) {
  Node n;
  if (r.Below(2)) n.set_i32(static_cast<int32_t>(r.Below(3)) - 1);
  if (r.Below(2)) n.set_i64(static_cast<int64_t>(r.Next()));
  if (r.Below(2)) n.set_u64(r.Next());
  if (r.Below(2)) n.set_s32(-static_cast<int32_t>(r.Below(3)));
  if (r.Below(2)) n.set_d(static_cast<double>(r.Below(4)) / 3.0);
  if (r.Below(2)) n.set_b(true);
  if (r.Below(2)) n.set_str(r.Below(2) ? "x" : "yy");
  if (r.Below(2)) n.set_by(std::string("\0\1", 2));
  if (r.Below(2)) n.set_color(static_cast<Color>(r.Below(3)));
  if (r.Below(2)) *n.mutable_leaf() = RandomLeaf(r);
  for (uint64_t i = 0, k = r.Below(4); i < k; ++i) *n.add_leaves() = RandomLeaf(r);
  for (uint64_t i = 0, k = r.Below(4); i < k; ++i) n.add_nums(static_cast<int64_t>(r.Below(3)));
  for (uint64_t i = 0, k = r.Below(3); i < k; ++i) n.add_names(r.Below(2) ? "a" : "b");
  if (r.Below(2)) n.set_maybe(static_cast<int32_t>(r.Below(2)));
  switch (r.Below(4)) {
    case 1: *n.mutable_leaf_choice() = RandomLeaf(r); break;
    case 2: n.set_text_choice("t"); break;
    case 3: n.set_int_choice(static_cast<int32_t>(r.Below(2))); break;
    default: break;
  }
  for (uint64_t i = 0, k = r.Below(3); i < k; ++i) n.add_colors(static_cast<Color>(r.Below(3)));
  if (depth > 0 && r.Below(2)) *n.mutable_child() = RandomNode(r, depth - 1);
  return n;
}

TEST(ViewDiffTest, RandomPairsRoundTrip) {
  Rng r(12345);
  for (int i = 0; i < 3000; ++i) {
    Node a = RandomNode(r, 2);
    Node b = RandomNode(r, 2);
    ExpectRoundTrip(a, b);
    if (HasFailure()) return;
  }
}

}  // namespace
}  // namespace plateau::engine
