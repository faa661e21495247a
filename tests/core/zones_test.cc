// Zones: who sees what, and the redraw of everything a seat cannot see.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "engine/core/game.h"
#include "engine/core/zones.h"

namespace plateau::engine {
namespace {

using Field = google::protobuf::RepeatedField<uint32_t>;

Field Of(std::vector<uint32_t> v) { return Field(v.begin(), v.end()); }
std::vector<uint32_t> V(const Field& f) { return std::vector<uint32_t>(f.begin(), f.end()); }

TEST(Zones, WhoSeesWhat) {
  Field cards = Of({1, 2});
  Zone table{"table", &cards, Visibility::kEveryone, {}, 0, nullptr};
  Zone hand{"hand", &cards, Visibility::kSeats, {1}, 0, nullptr};
  Zone deck{"deck", &cards, Visibility::kNobody, {}, 0, nullptr};
  EXPECT_TRUE(table.CanSee(0) && table.CanSee(-1));
  EXPECT_TRUE(hand.CanSee(1));
  EXPECT_FALSE(hand.CanSee(0) || hand.CanSee(-1));
  EXPECT_FALSE(deck.CanSee(1));
  EXPECT_EQ(VisiblePieces(hand, 1), (std::vector<uint32_t>{1, 2}));
  EXPECT_TRUE(VisiblePieces(hand, 0).empty());
}

// Backs: card k belongs to deck k / 10 (what its back shows).
uint32_t Back(uint32_t kind) { return kind / 10; }

TEST(Zones, RedrawKeepsWhatTheSeatSeesSizesAndBacks) {
  Field mine = Of({1, 2}), theirs = Of({3, 11, 21}), deck_a = Of({4, 5, 6}),
        deck_b = Of({12, 13}), table = Of({7}), other_pool = Of({30, 31});
  std::vector<Zone> zones = {
      {"my hand", &mine, Visibility::kSeats, {0}, 0, nullptr},
      {"their hand", &theirs, Visibility::kSeats, {1}, 0, nullptr},
      {"deck a", &deck_a, Visibility::kNobody, {}, 0, Back},
      {"deck b", &deck_b, Visibility::kNobody, {}, 0, Back},
      {"table", &table, Visibility::kEveryone, {}, 0, nullptr},
      {"another pool", &other_pool, Visibility::kNobody, {}, 1, nullptr},
  };
  std::multiset<uint32_t> pool0;
  for (const auto* f : {&theirs, &deck_a, &deck_b}) pool0.insert(f->begin(), f->end());
  bool changed = false, from_a_deck = false;
  Rng rng(5);
  for (int round = 0; round < 50; ++round) {
    RedrawHidden(zones, 0, rng);
    EXPECT_EQ(V(mine), (std::vector<uint32_t>{1, 2}));
    EXPECT_EQ(V(table), (std::vector<uint32_t>{7}));
    ASSERT_EQ(theirs.size(), 3);
    ASSERT_EQ(deck_a.size(), 3);
    ASSERT_EQ(deck_b.size(), 2);
    for (uint32_t k : deck_a) EXPECT_EQ(Back(k), 0u);
    for (uint32_t k : deck_b) EXPECT_EQ(Back(k), 1u);
    std::multiset<uint32_t> now;
    for (const auto* f : {&theirs, &deck_a, &deck_b}) now.insert(f->begin(), f->end());
    EXPECT_EQ(now, pool0);  // the same cards, redistributed within their pool
    std::multiset<uint32_t> other(other_pool.begin(), other_pool.end());
    EXPECT_EQ(other, (std::multiset<uint32_t>{30, 31}));
    changed = changed || V(theirs) != std::vector<uint32_t>{3, 11, 21};
    // A hidden hand shows no back: it may hold any card of its pool, a deck's included.
    for (uint32_t k : theirs) from_a_deck = from_a_deck || (k >= 4 && k <= 6) || k == 12 || k == 13;
  }
  EXPECT_TRUE(changed) << "the redraw never changed the hidden hand";
  EXPECT_TRUE(from_a_deck) << "the hidden hand never drew a card from the decks of its pool";
}

TEST(Zones, TheOwnerOfAHandKeepsItButNotTheDeckOrder) {
  Field hand = Of({1, 2, 3}), deck = Of({4, 5, 6, 7, 8});
  std::vector<Zone> zones = {{"hand", &hand, Visibility::kSeats, {2}, 0, nullptr},
                             {"deck", &deck, Visibility::kNobody, {}, 0, nullptr}};
  Rng rng(9);
  std::map<std::vector<uint32_t>, int> orders;
  for (int i = 0; i < 30; ++i) {
    RedrawHidden(zones, 2, rng);
    EXPECT_EQ(V(hand), (std::vector<uint32_t>{1, 2, 3}));
    ++orders[V(deck)];
  }
  EXPECT_GT(orders.size(), 1u);
}

// A zone is a case of pieces: each entry a piece at its zone and index, the zone's visibility its
// sight, so what ViewPieces shows of the zones' table is what VisiblePieces shows of each zone.
TEST(Zones, AreTablesOfPiecesWithTheZonesSight) {
  Field mine = Of({1, 2}), theirs = Of({3, 11}), deck = Of({4, 12, 5}), table = Of({7});
  const std::vector<Zone> zones = {
      {"my hand", &mine, Visibility::kSeats, {0}, 0, nullptr},
      {"their hand", &theirs, Visibility::kSeats, {1, 2}, 0, nullptr},
      {"deck", &deck, Visibility::kNobody, {}, 3, Back},
      {"table", &table, Visibility::kEveryone, {}, 0, nullptr},
  };
  const ZoneTable t = ZonePieces(zones);
  ASSERT_EQ(t.pieces.size(), 8);
  EXPECT_EQ(t.pieces.Get(3).place().zone(), "1");
  EXPECT_EQ(t.pieces.Get(3).place().index(), 1u);
  EXPECT_EQ(t.pieces.Get(3).kind(), 11u);
  EXPECT_EQ(t.rules.pool(t.pieces.Get(5)), 3);
  for (int seat : {kSpectator, 0, 1, 2, 3}) {
    std::map<std::string, std::vector<uint32_t>> known, backs;  // by zone number
    for (const v1::PieceView& v : ViewPieces(t.pieces, t.rules, seat)) {
      if (v.kind() != 0) {
        known[v.place().zone()].push_back(v.kind());
      } else {
        backs[v.place().zone()].push_back(v.back());
      }
    }
    for (size_t n = 0; n < zones.size(); ++n) {
      const Zone& z = zones[n];
      const std::string at = std::to_string(n);
      EXPECT_EQ(known[at], VisiblePieces(z, seat)) << z.name << " for seat " << seat;
      // Hidden: as many as it holds, each showing the zone's back (one more; 0 for none).
      const size_t hidden = z.CanSee(seat) ? 0 : static_cast<size_t>(z.pieces->size());
      ASSERT_EQ(backs[at].size(), hidden) << z.name;
    }
    if (!zones[2].CanSee(seat)) {
      std::multiset<uint32_t> shown(backs["2"].begin(), backs["2"].end());
      EXPECT_EQ(shown, (std::multiset<uint32_t>{1, 1, 2}));
    }
    if (!zones[1].CanSee(seat)) {
      EXPECT_EQ(backs["1"], (std::vector<uint32_t>{0, 0}));
    }
  }
}

}  // namespace
}  // namespace plateau::engine
