// Pieces with places and sight: what each seat is shown, the handles that name pieces, and the
// redraw of what a seat cannot know.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <set>

#include "engine/core/game.h"
#include "engine/core/pieces.h"

namespace plateau::engine {
namespace {

using Table = google::protobuf::RepeatedPtrField<v1::Piece>;

// Kinds of the skirmish below: 1 infantry, 2 tank, 3 stealth tank, 10 barracks, 11 factory.
constexpr uint32_t kInfantry = 1, kTank = 2, kStealth = 3, kBarracks = 10, kFactory = 11;

v1::Place Hex(int q, int r) {
  v1::Place p;
  p.mutable_hex()->set_q(q);
  p.mutable_hex()->set_r(r);
  return p;
}

v1::Piece& Add(Table& t, uint32_t id, uint32_t kind, int owner, v1::Place place,
               std::vector<int64_t> attrs = {}, bool face_down = false) {
  v1::Piece& p = *t.Add();
  p.set_id(id);
  p.set_kind(kind);
  p.set_owner(owner);
  *p.mutable_place() = std::move(place);
  for (int64_t a : attrs) p.add_attrs(a);
  p.set_face_down(face_down);
  return p;
}

// Units are public, buildings face down show only a site (back 1), stealth tanks are unseen
// unless an enemy unit stands on a neighbouring hex (q distance 1 on row 0, for the test).
PieceRules Rules() {
  PieceRules r;
  r.back = [](const v1::Piece& p) { return p.kind() >= kBarracks ? 1u : 0u; };
  r.sight = [](const v1::Piece& p, int) {
    if (p.kind() >= kBarracks && p.face_down()) return Knowledge::kPresence;
    if (p.kind() == kStealth) return Knowledge::kNothing;
    return Knowledge::kAll;
  };
  return r;
}

Table Skirmish() {
  Table t;
  Add(t, 1, kInfantry, 0, Hex(0, 0), {3});
  Add(t, 2, kTank, 1, Hex(4, 0), {5});
  Add(t, 3, kStealth, 1, Hex(2, 1), {4});
  Add(t, 4, kBarracks, 1, Hex(5, 1), {}, true);
  Add(t, 5, kFactory, 1, Hex(5, 2), {}, true);
  Add(t, 6, kBarracks, 0, Hex(0, 1), {}, false);
  return t;
}

std::string Bytes(const std::vector<v1::PieceView>& views) {
  std::string out;
  for (const auto& v : views) out += DeterministicBytes(v) + "|";
  return out;
}

TEST(Pieces, TheOwnerSeesAllOthersWhatTheRuleShows) {
  const Table t = Skirmish();
  const PieceRules rules = Rules();
  const auto own = ViewPieces(t, rules, 1);
  ASSERT_EQ(own.size(), 6u);  // everything of its own, and seat 0's public pieces
  for (const auto& v : own) EXPECT_EQ(v.handle()[0], 'p');

  const auto other = ViewPieces(t, rules, 0);
  // Known: its own infantry and barracks, seat 1's tank; then the two sites; no stealth tank.
  ASSERT_EQ(other.size(), 5u);
  EXPECT_EQ(other[0].handle(), "p1");
  EXPECT_EQ(other[1].handle(), "p2");
  EXPECT_EQ(other[1].kind(), kTank);
  EXPECT_EQ(other[1].attrs(0), 5);
  EXPECT_EQ(other[2].handle(), "p6");
  for (int i = 3; i < 5; ++i) {
    EXPECT_EQ(other[i].handle(), "h" + std::to_string(i - 2));
    EXPECT_EQ(other[i].kind(), 0u);
    EXPECT_TRUE(other[i].attrs().empty());
    EXPECT_TRUE(other[i].face_down());
    EXPECT_EQ(other[i].owner(), 1);
    EXPECT_EQ(other[i].back(), 1u);
  }
  // Spectators see what a seat that owns nothing sees.
  EXPECT_EQ(ViewPieces(t, rules, kSpectator).size(), 5u);
}

TEST(Pieces, NoRuleMeansEverythingIsPublic) {
  const Table t = Skirmish();
  const auto views = ViewPieces(t, PieceRules{}, 0);
  ASSERT_EQ(views.size(), 6u);
  EXPECT_EQ(views[2].kind(), kStealth);
}

TEST(Pieces, HiddenHandlesSayNothingOfWhatIsHidden) {
  // The two sites swapped (ids and kinds): seat 0 cannot tell, and its view is byte-identical.
  Table a = Skirmish(), b = Skirmish();
  b.Mutable(3)->set_kind(kFactory);
  b.Mutable(4)->set_kind(kBarracks);
  b.Mutable(3)->set_id(5);
  b.Mutable(4)->set_id(4);
  // And the stealth tank elsewhere, with other hit points.
  *b.Mutable(2)->mutable_place() = Hex(3, 3);
  b.Mutable(2)->set_attrs(0, 1);
  EXPECT_EQ(Bytes(ViewPieces(a, Rules(), 0)), Bytes(ViewPieces(b, Rules(), 0)));
  EXPECT_NE(Bytes(ViewPieces(a, Rules(), 1)), Bytes(ViewPieces(b, Rules(), 1)));
}

TEST(Pieces, HandlesNameWhatTheSeatSeesAndNothingElse) {
  const Table t = Skirmish();
  const PieceRules rules = Rules();
  for (const auto& v : ViewPieces(t, rules, 0)) {
    const v1::Piece* p = PieceByHandle(t, rules, 0, v.handle());
    ASSERT_NE(p, nullptr) << v.handle();
    EXPECT_EQ(DeterministicBytes(p->place()), DeterministicBytes(v.place()));
  }
  EXPECT_EQ(PieceByHandle(t, rules, 0, "p3"), nullptr);  // the stealth tank, by its id
  EXPECT_EQ(PieceByHandle(t, rules, 0, "p4"), nullptr);  // a site, by its id
  EXPECT_NE(PieceByHandle(t, rules, 1, "p4"), nullptr);  // its owner may
  EXPECT_EQ(PieceByHandle(t, rules, 0, "h3"), nullptr);
  EXPECT_EQ(PieceByHandle(t, rules, 0, "h0"), nullptr);
  for (const char* bad : {"", "p", "x1", "p1x", "h-1", "p99"})
    EXPECT_EQ(PieceByHandle(t, rules, 0, bad), nullptr) << bad;
}

TEST(Pieces, TheSightRuleMayReadThePosition) {
  // Seat 0's infantry next to the stealth tank spots it.
  Table t = Skirmish();
  PieceRules rules = Rules();
  rules.sight = [&t, base = Rules().sight](const v1::Piece& p, int seat) {
    if (p.kind() != kStealth) return base(p, seat);
    for (const v1::Piece& q : t) {
      if (q.owner() == seat && q.place().has_hex() && q.place().hex().r() == p.place().hex().r() &&
          std::abs(q.place().hex().q() - p.place().hex().q()) == 1)
        return Knowledge::kAll;
    }
    return Knowledge::kNothing;
  };
  EXPECT_EQ(ViewPieces(t, rules, 0).size(), 5u);
  *t.Mutable(0)->mutable_place() = Hex(1, 1);
  const auto spotted = ViewPieces(t, rules, 0);
  ASSERT_EQ(spotted.size(), 6u);
  EXPECT_EQ(spotted[2].kind(), kStealth);
}

TEST(Pieces, RedrawKeepsTheSeatsViewAndDependsOnlyOnIt) {
  const PieceRules rules = Rules();
  Table a = Skirmish(), b = Skirmish();
  b.Mutable(3)->set_kind(kFactory);
  b.Mutable(4)->set_kind(kBarracks);
  *b.Mutable(2)->mutable_place() = Hex(4, 4);
  std::set<std::string> tables;
  for (uint64_t salt = 0; salt < 40; ++salt) {
    Table ra = a, rb = b;
    Rng r1(salt), r2(salt);
    RedrawHiddenPieces(&ra, rules, 0, r1);
    RedrawHiddenPieces(&rb, rules, 0, r2);
    EXPECT_EQ(Bytes(ViewPieces(ra, rules, 0)), Bytes(ViewPieces(a, rules, 0)));
    std::string sa, sb;
    for (const auto& p : ra) sa += DeterministicBytes(p);
    for (const auto& p : rb) sb += DeterministicBytes(p);
    // Two tables seat 0 cannot tell apart redraw alike, except where the stealth tank was (the
    // default redraw shuffles unseen pieces among their own places: a game gives could_be).
    ASSERT_EQ(ra.size(), 6);
    for (int i = 0; i < 6; ++i) {
      EXPECT_EQ(ra.Get(i).id(), static_cast<uint32_t>(i + 1));  // left in id order
      if (ra.Get(i).kind() != kStealth) {
        EXPECT_EQ(DeterministicBytes(ra.Get(i)), DeterministicBytes(rb.Get(i))) << salt;
      }
    }
    tables.insert(sa);
    // Its own pieces and what it knows stay exactly as they were.
    for (int id : {1, 2, 6})
      EXPECT_EQ(DeterministicBytes(ra.Get(id - 1)), DeterministicBytes(a.Get(id - 1)));
  }
  EXPECT_GT(tables.size(), 1u);  // the sites' kinds do get redrawn
}

TEST(Pieces, UnseenPiecesGoWhereTheyCouldBe) {
  PieceRules rules = Rules();
  const std::vector<v1::Place> could = {Hex(2, 1), Hex(3, 1), Hex(6, 6)};
  rules.could_be = [&](const v1::Piece& p, int) {
    EXPECT_EQ(p.kind(), kStealth);
    return could;
  };
  std::set<std::string> places;
  for (uint64_t salt = 0; salt < 60; ++salt) {
    Table t = Skirmish();
    Rng rng(salt);
    RedrawHiddenPieces(&t, rules, 0, rng);
    const auto found = std::find_if(t.begin(), t.end(),
                                    [](const v1::Piece& p) { return p.kind() == kStealth; });
    ASSERT_NE(found, t.end());
    const v1::Piece& stealth = *found;
    EXPECT_EQ(stealth.attrs(0), 4);
    places.insert(DeterministicBytes(stealth.place()));
  }
  EXPECT_EQ(places.size(), could.size());
}

TEST(Pieces, TheOwnerKeepsEverything) {
  const Table t = Skirmish();
  Table r = t;
  Rng rng(7);
  RedrawHiddenPieces(&r, Rules(), 1, rng);  // seat 1 owns every hidden piece
  for (int i = 0; i < t.size(); ++i)
    EXPECT_EQ(DeterministicBytes(r.Get(i)), DeterministicBytes(t.Get(i)));
}

// Pools split one owner's hidden pieces: sites of one pool trade kinds only among themselves.
TEST(Pieces, HiddenPiecesTradeOnlyWithinTheirPool) {
  PieceRules rules = Rules();
  rules.pool = [](const v1::Piece& p) { return p.place().hex().r() >= 2 ? 1 : 0; };
  Table t = Skirmish();
  Add(t, 7, kFactory, 1, Hex(6, 1), {}, true);   // pool 0 with the barracks at (5, 1)
  Add(t, 8, kBarracks, 1, Hex(6, 2), {}, true);  // pool 1 with the factory at (5, 2)
  std::set<std::string> deals;
  for (uint64_t salt = 0; salt < 40; ++salt) {
    Table r = t;
    Rng rng(salt);
    RedrawHiddenPieces(&r, rules, 0, rng);
    std::multiset<uint32_t> pool0, pool1;
    std::string deal;
    for (const v1::Piece& p : r) {
      if (p.kind() < kBarracks || !p.face_down()) continue;
      (p.place().hex().r() >= 2 ? pool1 : pool0).insert(p.kind());
      deal += DeterministicBytes(p.place()) + std::to_string(p.kind()) + ";";
    }
    EXPECT_EQ(pool0, (std::multiset<uint32_t>{kBarracks, kFactory}));
    EXPECT_EQ(pool1, (std::multiset<uint32_t>{kBarracks, kFactory}));
    deals.insert(deal);
  }
  EXPECT_EQ(deals.size(), 4u);  // each pool's two sites, either way round
}

// A back other than 0 is matched where the piece lies; a piece showing 0 (a card in a hidden
// hand) may take whatever its pool holds. Cards 1..3 are of deck 1 and 4..6 of deck 2; a card
// in the deck shows its deck, in the hand nothing.
TEST(Pieces, APieceShowingNoBackTakesAnythingOfItsPool) {
  PieceRules rules;
  rules.sight = [](const v1::Piece&, int) { return Knowledge::kPresence; };
  rules.back = [](const v1::Piece& p) -> uint32_t {
    return p.place().zone() == "deck" ? (p.kind() <= 3 ? 1 : 2) : 0;
  };
  auto at = [](const std::string& zone, uint32_t index) {
    v1::Place p;
    p.set_zone(zone);
    p.set_index(index);
    return p;
  };
  Table t;
  Add(t, 1, 1, 1, at("deck", 0));
  Add(t, 2, 2, 1, at("deck", 1));
  Add(t, 3, 4, 1, at("deck", 2));
  Add(t, 4, 3, 1, at("hand", 0));
  Add(t, 5, 6, 1, at("hand", 1));
  const std::string view = Bytes(ViewPieces(t, rules, 0));
  std::set<uint32_t> in_hand;
  for (uint64_t salt = 0; salt < 60; ++salt) {
    Table r = t;
    Rng rng(salt);
    RedrawHiddenPieces(&r, rules, 0, rng);
    EXPECT_EQ(Bytes(ViewPieces(r, rules, 0)), view);  // every deck card shows its deck still
    for (const v1::Piece& p : r)
      if (p.place().zone() == "hand") in_hand.insert(p.kind());
  }
  EXPECT_EQ(in_hand, (std::set<uint32_t>{1, 2, 3, 4, 6}));
}

}  // namespace
}  // namespace plateau::engine
