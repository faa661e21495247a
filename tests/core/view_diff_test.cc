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

Node Hand(std::initializer_list<uint32_t> ids) {
  Node n;
  for (uint32_t id : ids) {
    auto* card = n.add_cards();
    card->set_id(id);
    card->set_s("a card named " + std::to_string(id));
  }
  return n;
}

// A card leaving a hand from the middle is one op naming its place, not every later card
// rewritten one place up; one coming in is inserted where it stands.
TEST(ViewDiffTest, KeyedElementsLeaveAndEnterByKey) {
  const Node a = Hand({10, 11, 12, 13, 14});
  Node b = Hand({10, 12, 13, 14});
  auto ops = ComputeDiff(a, b);
  ASSERT_EQ(ops.size(), 1u);
  EXPECT_TRUE(ops[0].remove());
  EXPECT_EQ(std::vector<uint32_t>(ops[0].path().begin(), ops[0].path().end()),
            (std::vector<uint32_t>{22, 1}));
  ExpectRoundTrip(a, b);

  b = Hand({10, 11, 99, 12, 13, 14});
  ops = ComputeDiff(a, b);
  ASSERT_EQ(ops.size(), 1u);
  EXPECT_TRUE(ops[0].has_insert_message());
  EXPECT_EQ(ops[0].path(1), 2u);
  ExpectRoundTrip(a, b);

  // The last cards gone: one truncate, not a removal each.
  b = Hand({10, 11});
  b.mutable_cards(1)->set_a(3);
  ops = ComputeDiff(a, b);
  ASSERT_EQ(ops.size(), 2u);
  EXPECT_EQ(ops[0].truncate(), 2u);
  EXPECT_TRUE(ops[1].has_set_scalar());
  ExpectRoundTrip(a, b);

  // Removed, inserted and edited in one diff: the edit names the card's place in `b`.
  b = Hand({98, 10, 12, 14});
  b.mutable_cards(2)->set_a(7);
  ops = ComputeDiff(a, b);
  int removes = 0, inserts = 0, sets = 0;
  for (const auto& op : ops) {
    removes += op.remove();
    inserts += op.has_insert_message();
    if (op.has_set_scalar()) {
      ++sets;
      EXPECT_EQ(std::vector<uint32_t>(op.path().begin(), op.path().end()),
                (std::vector<uint32_t>{22, 2, 3}));
    }
  }
  EXPECT_EQ(removes, 2);
  EXPECT_EQ(inserts, 1);
  EXPECT_EQ(sets, 1);
  ExpectRoundTrip(a, b);
}

// Keys of 8 bytes or more (compared through a hash of their bytes): a question answered from the
// middle of the list is one removal, and keys that differ only after their eighth byte differ.
TEST(ViewDiffTest, LongKeysAreComparedWhole) {
  plateau::v1::Table a, b;
  for (const char* id : {"question-0001", "question-0002", "question-0003"}) {
    auto* p = a.add_prompts();
    p->set_id(id);
    p->set_min(1);
  }
  b = a;
  b.mutable_prompts()->DeleteSubrange(1, 1);
  auto ops = ComputeDiff(a, b);
  ASSERT_EQ(ops.size(), 1u);
  EXPECT_TRUE(ops[0].remove());
  EXPECT_EQ(ops[0].path(1), 1u);
  ExpectRoundTrip(a, b);
  b.mutable_prompts(1)->set_id("question-0004");
  b.mutable_prompts(1)->set_min(2);
  ExpectRoundTrip(a, b);
}

// Where keys do not describe the change (the same card twice, cards in another order), the
// field is diffed by position, and still exactly.
TEST(ViewDiffTest, KeyedFieldsFallBackToPositions) {
  const Node a = Hand({1, 2, 3, 4});
  const Node reordered = Hand({4, 3, 2, 1});
  for (const auto& op : ComputeDiff(a, reordered)) {
    EXPECT_FALSE(op.remove() || op.has_insert_message()) << op.DebugString();
  }
  ExpectRoundTrip(a, reordered);
  const Node twice = Hand({1, 3, 3, 4});
  for (const auto& op : ComputeDiff(a, twice)) {
    EXPECT_FALSE(op.remove() || op.has_insert_message()) << op.DebugString();
  }
  ExpectRoundTrip(a, twice);
}

TEST(ViewDiffTest, RemoveAndInsertNeedAPlaceInTheList) {
  const Node a = Hand({1, 2});
  auto refused = [&](std::vector<uint32_t> path, bool insert) {
    plateau::v1::DiffOp op;
    for (uint32_t p : path) op.add_path(p);
    if (insert) {
      op.set_insert_message(Hand({5}).cards(0).SerializeAsString());
    } else {
      op.set_remove(true);
    }
    Node n = a;
    return ApplyDiff(std::vector{op}, &n).code() == "bad_diff" &&
           DeterministicBytes(n) == DeterministicBytes(a);
  };
  EXPECT_TRUE(refused({22}, false));     // no index
  EXPECT_TRUE(refused({22, 2}, false));  // beyond the last element
  EXPECT_TRUE(refused({22}, true));
  EXPECT_TRUE(refused({22, 3}, true));   // beyond the end
  EXPECT_TRUE(refused({15, 0}, true));   // not a message field
  plateau::v1::DiffOp bad;
  bad.add_path(22);
  bad.add_path(0);
  bad.set_insert_message("\xff\xff\xff");
  Node n = a;
  EXPECT_EQ(ApplyDiff(std::vector{bad}, &n).code(), "bad_diff");
  EXPECT_EQ(DeterministicBytes(n), DeterministicBytes(a));
  // At the end is a place: inserting there appends.
  plateau::v1::DiffOp at_end;
  at_end.add_path(22);
  at_end.add_path(2);
  at_end.set_insert_message(Hand({5}).cards(0).SerializeAsString());
  ASSERT_TRUE(ApplyDiff(std::vector{at_end}, &n).ok());
  ASSERT_EQ(n.cards_size(), 3);
  EXPECT_EQ(n.cards(2).id(), 5u);
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
  // Ids from a small range: lists sharing cards, in the same or another order, and now and then
  // a list holding one id twice.
  for (uint64_t i = 0, k = r.Below(6); i < k; ++i) {
    auto* card = n.add_cards();
    card->set_id(static_cast<uint32_t>(r.Below(6)));
    if (r.Below(2)) card->set_s(r.Below(2) ? "card" : "other card");
    card->set_a(static_cast<int32_t>(r.Below(2)));
  }
  return n;
}

// Pairs where `b` is `a` with cards removed, added and edited in place: the diffs the key is for.
TEST(ViewDiffTest, RandomKeyedChangesRoundTrip) {
  Rng r(777);
  for (int i = 0; i < 2000; ++i) {
    Node a, b;
    uint32_t next_id = 0;
    for (uint64_t k = 0, n = r.Below(8); k < n; ++k) {
      auto* card = a.add_cards();
      card->set_id(next_id++);
      card->set_s(std::string(1 + r.Below(20), 'x'));
    }
    for (const auto& card : a.cards()) {
      if (r.Below(3) == 0) continue;  // removed
      if (r.Below(4) == 0) b.add_cards()->set_id(next_id++);  // inserted
      auto* kept = b.add_cards();
      *kept = card;
      if (r.Below(3) == 0) kept->set_a(static_cast<int32_t>(r.Below(3)));
    }
    if (r.Below(2)) b.add_cards()->set_id(next_id++);
    ExpectRoundTrip(a, b);
    if (HasFailure()) return;
  }
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
