// Hidden pieces through State::PerturbHidden: a tiny game (never registered) declares a table of
// pieces and a zone, and the core alone redraws them; the hidden-information property (a seat's
// view is unchanged by the redraw, and what it cannot see does vary) holds for a scout whose
// place is hidden and cards held face down.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "engine/core/typed_state.h"
#include "scouts_game.pb.h"

namespace plateau::engine {
namespace {

namespace scouts = plateau::test::scouts;

constexpr uint32_t kScout = 1;
constexpr uint32_t kFirstCard = 10, kCards = 8;  // card kinds 10..17
constexpr int kRegions = 5;                     // regions r0..r4 in a line
constexpr uint32_t kTurns = 16;

v1::Place Region(int i) {
  v1::Place p;
  p.set_region("r" + std::to_string(i));
  return p;
}

// A scout is seen by its owner alone, nowhere; a card face down shows a back to the others, face
// up shows everything. Another seat's scout could be in any region.
PieceRules ScoutRules() {
  PieceRules r;
  r.sight = [](const v1::Piece& p, int) {
    if (p.kind() == kScout) return Knowledge::kNothing;
    return p.face_down() ? Knowledge::kPresence : Knowledge::kAll;
  };
  r.back = [](const v1::Piece& p) { return p.kind() >= kFirstCard ? 1u : 0u; };
  r.could_be = [](const v1::Piece&, int) {
    std::vector<v1::Place> all;
    for (int i = 0; i < kRegions; ++i) all.push_back(Region(i));
    return all;
  };
  return r;
}

Zone DeckOf(const scouts::StateProto& s) {
  return {"deck", &s.deck(), Visibility::kNobody, {}, 0, nullptr};
}

class ScoutsState
    : public TypedState<ScoutsState, scouts::StateProto, scouts::Action, scouts::View> {
 public:
  ScoutsState(const Game* g, uint64_t seed) : TypedState(g, 2) {
    Rng rng(seed);
    std::vector<uint32_t> deck;
    for (uint32_t k = 0; k < kCards; ++k) deck.push_back(kFirstCard + k);
    rng.Shuffle(deck);
    for (int seat = 0; seat < 2; ++seat) {
      AddPiece(kScout, seat, Region(seat == 0 ? 0 : kRegions - 1), false);
      for (int c = 0; c < 2; ++c) {
        v1::Place hand;
        hand.set_zone("hand");
        hand.set_index(static_cast<uint32_t>(c));
        AddPiece(deck.back(), seat, hand, true);
        deck.pop_back();
      }
    }
    for (uint32_t k : deck) s_.add_deck(k);
    s_.set_rng(rng.Next());
  }
  std::vector<int64_t> Scores() const override {
    std::vector<int64_t> out(2, 0);
    for (const v1::Piece& p : s_.pieces())
      if (p.kind() >= kFirstCard && !p.face_down()) ++out[p.owner()];
    return out;
  }
  scouts::StateProto& mutable_proto() { return s_; }

 protected:
  std::vector<int> GameActingSeats() const override { return {s_.to_move()}; }
  bool GameOver() const override { return s_.turn() >= kTurns; }
  Status TypedValidate(int seat, const scouts::Action& a) const override {
    if (a.has_move()) {
      const int from = ScoutRegion(seat), to = static_cast<int>(a.move());
      if (to >= kRegions || (to != from - 1 && to != from + 1))
        return Status("not_next", "A scout moves to a region next to its own.");
      return Status::Ok();
    }
    if (a.has_flip()) {
      const v1::Piece* p = PieceByHandle(s_.pieces(), ScoutRules(), seat, a.flip());
      if (p == nullptr || p->owner() != seat || !p->face_down() || p->kind() < kFirstCard)
        return Status("no_card", "Turn up one of your own cards held face down.");
      return Status::Ok();
    }
    if (a.has_draw()) {
      return s_.deck().empty() ? Status("no_deck", "The deck is empty.") : Status::Ok();
    }
    return Status("no_move", "Move, flip or draw.");
  }
  void TypedApply(int seat, const scouts::Action& a) override {
    if (a.has_move()) {
      for (v1::Piece& p : *s_.mutable_pieces())
        if (p.owner() == seat && p.kind() == kScout) *p.mutable_place() = Region(a.move());
    } else if (a.has_flip()) {
      const_cast<v1::Piece*>(PieceByHandle(s_.pieces(), ScoutRules(), seat, a.flip()))
          ->set_face_down(false);
    } else {
      v1::Place hand;
      hand.set_zone("hand");
      hand.set_index(static_cast<uint32_t>(s_.pieces_size()));
      AddPiece(s_.deck(0), seat, hand, true);
      s_.mutable_deck()->erase(s_.mutable_deck()->begin());
    }
    s_.set_turn(s_.turn() + 1);
    s_.set_to_move(1 - seat);
  }
  std::vector<scouts::Action> TypedLegalActions(int seat) const override {
    std::vector<scouts::Action> out;
    const int at = ScoutRegion(seat);
    for (int to : {at - 1, at + 1})
      if (to >= 0 && to < kRegions) out.emplace_back().set_move(static_cast<uint32_t>(to));
    for (const v1::Piece& p : s_.pieces())
      if (p.owner() == seat && p.kind() >= kFirstCard && p.face_down())
        out.emplace_back().set_flip("p" + std::to_string(p.id()));
    if (!s_.deck().empty()) out.emplace_back().set_draw(true);
    return out;
  }
  scouts::View TypedView(int seat) const override {
    scouts::View v;
    for (auto& p : ViewPieces(s_.pieces(), ScoutRules(), seat)) *v.add_pieces() = std::move(p);
    v.set_deck(static_cast<uint32_t>(s_.deck_size()));
    v.set_to_move(s_.to_move());
    v.set_turn(s_.turn());
    return v;
  }
  std::vector<Zone> GameZones() const override { return {DeckOf(s_)}; }
  std::vector<PieceTable> GamePieces() override {
    return {{"pieces", s_.mutable_pieces(), ScoutRules()}};
  }
  void PerturbMore(int seat, Rng& rng) override { s_.set_rng(rng.Next()); }

 private:
  void AddPiece(uint32_t kind, int owner, v1::Place place, bool face_down) {
    v1::Piece* p = s_.add_pieces();
    s_.set_next_id(s_.next_id() + 1);
    p->set_id(s_.next_id());
    p->set_kind(kind);
    p->set_owner(owner);
    *p->mutable_place() = std::move(place);
    p->set_face_down(face_down);
  }
  int ScoutRegion(int seat) const {
    for (const v1::Piece& p : s_.pieces())
      if (p.owner() == seat && p.kind() == kScout) return std::stoi(p.place().region().substr(1));
    return -1;
  }
};

class ScoutsGame : public Game {
 public:
  const GameInfo& Info() const override {
    static const GameInfo info{"scouts_test", "Scouts", 2, 2};
    return info;
  }
  const Message& OptionsPrototype() const override { return scouts::Options::default_instance(); }
  const Message& ActionPrototype() const override { return scouts::Action::default_instance(); }
  const Message& ViewPrototype() const override { return scouts::View::default_instance(); }
  std::unique_ptr<State> NewInitialState(int, const Message&, uint64_t seed) const override {
    return std::make_unique<ScoutsState>(this, seed);
  }
  StatusOr<std::unique_ptr<State>> Deserialize(std::string_view) const override {
    return Status("unsupported", "not needed here");
  }
};

const ScoutsGame& TheGame() {
  static const ScoutsGame* game = new ScoutsGame();
  return *game;
}

std::unique_ptr<State> NewScouts(uint64_t seed) {
  return std::move(TheGame().NewGame(2, "", seed).value());
}

const scouts::StateProto& Proto(const State& s) {
  return static_cast<const ScoutsState&>(s).proto();
}

// What seat `viewer` cannot see of the other seat's pieces: where its scout is, which kinds its
// face-down cards are (by place), and the deck's order.
struct Hidden {
  std::string scout_place;
  std::map<uint32_t, uint32_t> cards;  // hand index -> kind
  std::vector<uint32_t> deck;
};
Hidden HiddenFrom(const State& s, int viewer) {
  Hidden h;
  const auto& p = Proto(s);
  for (const v1::Piece& piece : p.pieces()) {
    if (piece.owner() == viewer) continue;
    if (piece.kind() == kScout) h.scout_place = piece.place().region();
    if (piece.kind() >= kFirstCard && piece.face_down())
      h.cards[piece.place().index()] = piece.kind();
  }
  h.deck.assign(p.deck().begin(), p.deck().end());
  return h;
}

// The hidden-information property, for the pieces the core redraws: every recipient's view is
// byte-identical on positions redrawn where it could not see, and the other seat's scout place,
// face-down cards and the deck order do change over salts. Checked along seeded random games.
TEST(HiddenPieces, PerturbHiddenRedrawsPiecesAndKeepsTheView) {
  std::set<std::string> places;
  std::set<std::map<uint32_t, uint32_t>> hands;
  std::set<std::vector<uint32_t>> decks;
  int flipped_checked = 0;
  for (uint64_t game = 0; game < 6; ++game) {
    auto s = NewScouts(game);
    Rng play(game + 100);
    while (!s->IsTerminal()) {
      for (int r : {0, 1, kSpectator}) {
        const std::string view = DeterministicBytes(*s->View(r));
        for (uint64_t salt = 0; salt < 12; ++salt) {
          auto other = s->PerturbHidden(r, salt * 7919 + s->History().size());
          ASSERT_EQ(DeterministicBytes(*other->View(r)), view)
              << "recipient " << r << " sees a redrawn piece after " << s->History().size();
          ASSERT_EQ(other->ActingSeats(), s->ActingSeats());
          if (r != 0) continue;
          const Hidden h = HiddenFrom(*other, 0);
          places.insert(h.scout_place);
          if (!h.cards.empty()) hands.insert(h.cards);
          decks.insert(h.deck);
          // A card turned face up is known to all, so it is never redrawn.
          for (const v1::Piece& p : Proto(*s).pieces()) {
            if (p.owner() != 1 || p.kind() < kFirstCard || p.face_down()) continue;
            ++flipped_checked;
            bool found = false;
            for (const v1::Piece& q : Proto(*other).pieces())
              found = found || DeterministicBytes(q) == DeterministicBytes(p);
            EXPECT_TRUE(found) << "a face-up card was redrawn";
          }
        }
      }
      auto moves = s->LegalActions(s->ActingSeats()[0]);
      ASSERT_FALSE(moves.empty());
      ASSERT_TRUE(s->Apply(s->ActingSeats()[0], *moves[play.Below(moves.size())]).ok());
    }
  }
  EXPECT_EQ(places.size(), static_cast<size_t>(kRegions)) << "the hidden scout never moved";
  EXPECT_GT(hands.size(), 4u) << "the face-down cards were never redrawn";
  EXPECT_GT(decks.size(), 4u) << "the deck was never shuffled";
  EXPECT_GT(flipped_checked, 0);
}

// One generator, in a documented order: the zones, then each table of pieces as GamePieces lists
// it, then PerturbMore. Done by hand on a copy, it gives the same position byte for byte.
TEST(HiddenPieces, PerturbHiddenDrawsZonesThenPiecesThenTheRest) {
  auto s = NewScouts(3);
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(s->Apply(s->ActingSeats()[0], *s->LegalActions(s->ActingSeats()[0]).back()).ok());
  }
  for (uint64_t salt : {1u, 2u, 99u}) {
    scouts::StateProto copy = Proto(*s);
    Rng rng(salt);
    RedrawHidden({DeckOf(copy)}, 1, rng);
    RedrawHiddenPieces(copy.mutable_pieces(), ScoutRules(), 1, rng);
    copy.set_rng(rng.Next());
    EXPECT_EQ(s->PerturbHidden(1, salt)->Serialize(), DeterministicBytes(copy)) << salt;
  }
}

// A redraw depends on what the seat sees alone: two positions that differ only where seat 0
// cannot see (the other scout's place, the kinds of its face-down cards) redraw alike.
TEST(HiddenPieces, TwoPositionsASeatCannotTellApartRedrawAlike) {
  auto a = NewScouts(5);
  auto b = a->Clone();
  auto& pb = static_cast<ScoutsState&>(*b).mutable_proto();
  std::vector<v1::Piece*> cards;
  for (v1::Piece& p : *pb.mutable_pieces()) {
    if (p.owner() != 1) continue;
    if (p.kind() == kScout) *p.mutable_place() = Region(2);
    if (p.kind() >= kFirstCard) cards.push_back(&p);
  }
  ASSERT_EQ(cards.size(), 2u);
  const uint32_t k = cards[0]->kind();
  cards[0]->set_kind(cards[1]->kind());
  cards[1]->set_kind(k);
  ASSERT_NE(a->Serialize(), b->Serialize());
  ASSERT_EQ(DeterministicBytes(*a->View(0)), DeterministicBytes(*b->View(0)));
  for (uint64_t salt = 0; salt < 10; ++salt)
    EXPECT_EQ(a->SampleForSeat(0, salt)->Serialize(), b->SampleForSeat(0, salt)->Serialize());
}

}  // namespace
}  // namespace plateau::engine
