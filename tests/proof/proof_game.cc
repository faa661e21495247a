// The proof game: the core for boards of pieces used whole by a small game that only tests
// register (never the server). Two sides on a hex board of radius 2 with a rock in the middle;
// each has a tank (3 hit points, moves 1, fires 2) and a scout (2 hit points, moves 2, fires 1)
// whose place the other side does not know until it fires. A turn is one move, one shot or a
// pass; a unit the other side sees that comes into range of its units (line of sight kept) may
// be shot at once: the other side is asked through the core's queue, passing by default. Thirty
// turns, or a side without units, end the game; the hit points left are the score. Its rules are
// told here alone: it is a test of the core, not a game anyone plays.
#include "engine/core/hex.h"
#include "engine/core/pieces.h"
#include "engine/core/registry.h"
#include "engine/core/typed_state.h"
#include "proof_game.pb.h"

namespace plateau::test::proof {
namespace {

using engine::Distance;
using engine::Knowledge;
using engine::Seat;
using engine::Status;
using engine::T;
namespace v1 = ::plateau::v1;

constexpr uint32_t kTank = 1, kScout = 2;
constexpr int kRadius = 2;
constexpr uint32_t kTurns = 30;
constexpr engine::Hex kRock{0, 0};

int Speed(uint32_t kind) { return kind == kTank ? 1 : 2; }
int Range(uint32_t kind) { return kind == kTank ? 2 : 1; }
engine::Hex HexOf(const v1::Piece& p) { return {p.place().hex().q(), p.place().hex().r()}; }
bool OnBoard(engine::Hex h) { return Distance({0, 0}, h) <= kRadius && h != kRock; }
bool Shown(const v1::Piece& p) { return p.kind() == kTank || p.attrs(1) == 1; }
bool InRange(const v1::Piece& u, engine::Hex to) {
  return Distance(HexOf(u), to) <= Range(u.kind()) &&
         engine::LineOfSight(HexOf(u), to, engine::HexSet{kRock});
}
v1::Place PlaceAt(engine::Hex h) {
  v1::Place place;
  place.mutable_hex()->set_q(h.q);
  place.mutable_hex()->set_r(h.r);
  return place;
}
v1::Text UnitName(uint32_t kind) { return T(kind == kTank ? "proof.tank" : "proof.scout"); }

const engine::PieceRules& Rules() {
  static const engine::PieceRules rules{
      // A scout is unseen by the other side until it fires; everything else is public.
      [](const v1::Piece& p, int) { return Shown(p) ? Knowledge::kAll : Knowledge::kNothing; },
      nullptr,
      // An unseen scout could be on any hex: units share hexes, so nothing rules one out.
      [](const v1::Piece&, int) {
        std::vector<v1::Place> out;
        for (engine::Hex h : engine::WithinRange({0, 0}, kRadius))
          if (OnBoard(h)) out.push_back(PlaceAt(h));
        return out;
      }};
  return rules;
}

class ProofState : public engine::TypedState<ProofState, StateProto, Action, View> {
 public:
  explicit ProofState(const engine::Game* g) : TypedState(g, 2) {}
  // Tanks start at the ends of the board; each scout on a hex of its own half drawn from `seed`,
  // which the other side never learns.
  void Setup(uint64_t seed) {
    engine::Rng rng(seed);
    engine::Hex starts[4] = {{-2, 0}, {}, {2, 0}, {}};
    for (int side = 0; side < 2; ++side) {
      std::vector<engine::Hex> half;
      for (engine::Hex h : engine::WithinRange({0, 0}, kRadius))
        if (OnBoard(h) && (side == 0 ? h.q < 0 : h.q > 0) && h != starts[2 * side]) half.push_back(h);
      starts[2 * side + 1] = half[rng.Below(half.size())];
    }
    for (uint32_t i = 0; i < 4; ++i) {
      v1::Piece* p = s_.add_pieces();
      p->set_id(i + 1);
      p->set_kind(i % 2 == 0 ? kTank : kScout);
      p->set_owner(static_cast<int>(i / 2));
      *p->mutable_place() = PlaceAt(starts[i]);
      p->add_attrs(p->kind() == kTank ? 3 : 2);
      p->add_attrs(0);
    }
  }
  bool Load(std::string_view bytes) { return s_.ParseFromArray(bytes.data(), bytes.size()); }
  std::vector<int64_t> Scores() const override {
    std::vector<int64_t> out(2, 0);
    for (const auto& p : s_.pieces()) out[p.owner()] += p.attrs(0);
    return out;
  }

 protected:
  std::vector<int> GameActingSeats() const override { return {s_.to_move()}; }
  bool GameOver() const override {
    bool alive[2] = {false, false};
    for (const auto& p : s_.pieces()) alive[p.owner()] = true;
    return s_.turn() >= kTurns || !alive[0] || !alive[1];
  }

  const v1::Piece* Unit(int seat, const std::string& handle) const {
    return engine::PieceByHandle(s_.pieces(), Rules(), seat, handle);
  }
  Status TypedValidate(int seat, const Action& a) const override {
    if (a.has_pass()) return Status::Ok();
    if (!a.has_move() && !a.has_fire()) return Status(engine::codes::kMalformed, "Move, fire or pass.");
    const std::string& handle = a.has_move() ? a.move().unit() : a.fire().unit();
    const v1::Piece* u = Unit(seat, handle);
    if (u == nullptr || u->owner() != seat)
      return Status(engine::codes::kIllegal, "You have no unit called '" + handle + "'.");
    if (a.has_move()) {
      const engine::Hex to{a.move().to().q(), a.move().to().r()};
      if (!OnBoard(to)) return Status(engine::codes::kIllegal, "That hex is off the board or rock.");
      const int d = Distance(HexOf(*u), to);
      if (d < 1 || d > Speed(u->kind()))
        return Status(engine::codes::kIllegal, "That unit moves 1 to " +
                                                   std::to_string(Speed(u->kind())) + " hexes.");
      return Status::Ok();
    }
    const v1::Piece* t = Unit(seat, a.fire().target());
    if (t == nullptr || t->owner() == seat)
      return Status(engine::codes::kIllegal, "You see no enemy unit called '" + a.fire().target() + "'.");
    if (!InRange(*u, HexOf(*t)))
      return Status(engine::codes::kIllegal, "The target is out of range or out of sight.");
    return Status::Ok();
  }

  void TypedApply(int seat, const Action& a) override {
    if (a.has_pass()) {
      Log(T("proof.passes", Seat{seat}));
    } else if (a.has_fire()) {
      v1::Piece* u = Mutable(Unit(seat, a.fire().unit()));
      if (u->kind() == kScout && u->attrs(1) == 0) {
        u->set_attrs(1, 1);  // firing shows the scout where it is, for the rest of the game
        Log(T("proof.shown", Seat{seat}, HexOf(*u).q, HexOf(*u).r));
      }
      Hit(*u, Mutable(Unit(seat, a.fire().target())));
    } else if (a.has_move()) {
      v1::Piece* u = Mutable(Unit(seat, a.move().unit()));
      const engine::Hex from = HexOf(*u), to{a.move().to().q(), a.move().to().r()};
      *u->mutable_place() = PlaceAt(to);
      if (!Shown(*u)) {
        Log(T("proof.moved_unseen", Seat{seat}));
        Log(T("proof.scout_to", to.q, to.r), {seat});
      } else {
        Log(T("proof.moved", Seat{seat}, UnitName(u->kind()), to.q, to.r));
        if (AskReaction(*u, from)) return;  // the turn ends once the other side has answered
      }
    }
    EndTurn();
  }

  // The other side's units it can use that the mover came into range of: one question, answered
  // by naming the unit that fires or passing.
  bool AskReaction(const v1::Piece& mover, engine::Hex from) {
    const int other = 1 - mover.owner();
    v1::Prompt p = engine::MakePrompt(other, v1::PROMPT_CHOOSE,
                                      T("proof.react", UnitName(mover.kind()), HexOf(mover).q,
                                        HexOf(mover).r));
    for (const auto& r : s_.pieces()) {
      if (r.owner() != other || !Shown(r) || !InRange(r, HexOf(mover)) || InRange(r, from))
        continue;
      engine::AddOption(&p, "p" + std::to_string(r.id()), T("proof.react_with", UnitName(r.kind())))
          ->mutable_target()->set_piece("p" + std::to_string(r.id()));
    }
    if (p.options_size() == 0) return false;
    engine::AddOption(&p, "pass", T("proof.react_pass"));
    Resume resume;
    resume.set_mover(mover.id());
    Ask({std::move(p)}, KIND_REACTION, resume, v1::DEFAULT_PASS, /*reaction=*/true);
    return true;
  }

  void GameResume(const v1::Decision& d) override {
    Resume resume;
    resume.ParseFromString(d.resume());
    const std::string& choice = d.answers(0).answer().options(0);
    if (choice != "pass") {
      const int other = d.answers(0).seat();
      Hit(*Unit(other, choice), Mutable(Unit(other, "p" + std::to_string(resume.mover()))));
    } else {
      Log(T("proof.held_fire", Seat{d.answers(0).seat()}));
    }
    EndTurn();
  }

  std::vector<Action> TypedLegalActions(int seat) const override {
    std::vector<Action> out;
    for (const auto& u : s_.pieces()) {
      if (u.owner() != seat) continue;
      for (engine::Hex h : engine::WithinRange(HexOf(u), Speed(u.kind()))) {
        if (!OnBoard(h) || h == HexOf(u)) continue;
        Move* m = out.emplace_back().mutable_move();
        m->set_unit("p" + std::to_string(u.id()));
        m->mutable_to()->set_q(h.q);
        m->mutable_to()->set_r(h.r);
      }
      for (const auto& t : s_.pieces()) {
        if (t.owner() == seat || !Shown(t) || !InRange(u, HexOf(t))) continue;
        Fire* f = out.emplace_back().mutable_fire();
        f->set_unit("p" + std::to_string(u.id()));
        f->set_target("p" + std::to_string(t.id()));
      }
    }
    out.emplace_back().mutable_pass();
    return out;
  }

  // Passing, and a move nobody may answer, draw nothing and show nothing hidden.
  bool TypedTakeBackSafe(int seat, const Action& a) const override {
    if (a.has_pass()) return true;
    if (!a.has_move()) return false;
    const v1::Piece* u = Unit(seat, a.move().unit());
    if (!Shown(*u)) return false;  // the other side's redraw may have no room for the same step
    for (const auto& r : s_.pieces()) {
      const engine::Hex to{a.move().to().q(), a.move().to().r()};
      if (r.owner() != seat && Shown(r) && InRange(r, to) && !InRange(r, HexOf(*u))) return false;
    }
    return true;
  }

  std::vector<engine::MoveStep> TypedDescribeMove(int seat, const Action& a) const override {
    // No step gives a part: the core puts the whole action on the leaf.
    if (a.has_pass()) return {{"pass", T("proof.step_pass"), {}, {}}};
    const v1::Piece* u = Unit(seat, a.has_move() ? a.move().unit() : a.fire().unit());
    engine::MoveStep unit{"p" + std::to_string(u->id()),
                          T("proof.step_unit", UnitName(u->kind()), HexOf(*u).q, HexOf(*u).r), {},
                          {}};
    unit.target.set_piece(unit.key);
    engine::MoveStep next;
    if (a.has_move()) {
      next.key = "to " + std::to_string(a.move().to().q()) + "," + std::to_string(a.move().to().r());
      next.label = T("proof.step_to", a.move().to().q(), a.move().to().r());
      *next.target.mutable_hex() = a.move().to();
    } else {
      const v1::Piece* t = Unit(seat, a.fire().target());
      next.key = "fire " + a.fire().target();
      next.label = T("proof.step_fire", UnitName(t->kind()), HexOf(*t).q, HexOf(*t).r);
      next.target.set_piece(a.fire().target());
    }
    return {unit, next};
  }

  proof::View TypedView(int seat) const override {
    proof::View v;
    for (auto& p : engine::ViewPieces(s_.pieces(), Rules(), seat)) *v.add_pieces() = std::move(p);
    v.set_to_move(s_.to_move());
    v.set_turn(s_.turn());
    return v;
  }

  void PerturbMore(int seat, engine::Rng& rng) override {
    engine::RedrawHiddenPieces(s_.mutable_pieces(), Rules(), seat, rng);
  }

 private:
  v1::Piece* Mutable(const v1::Piece* p) { return const_cast<v1::Piece*>(p); }
  void Hit(const v1::Piece& by, v1::Piece* target) {
    target->set_attrs(0, target->attrs(0) - 1);
    Log(T("proof.hit", Seat{by.owner()}, UnitName(by.kind()), UnitName(target->kind()),
          target->attrs(0)));
    if (target->attrs(0) > 0) return;
    auto* pieces = s_.mutable_pieces();
    for (int i = 0; i < pieces->size(); ++i) {
      if (pieces->Get(i).id() == target->id()) {
        pieces->DeleteSubrange(i, 1);
        break;
      }
    }
  }
  void EndTurn() {
    s_.set_turn(s_.turn() + 1);
    s_.set_to_move(1 - s_.to_move());
  }
};

class ProofGame : public engine::TypedGame<Options, Action, View> {
 public:
  ProofGame() : TypedGame(MakeInfo()) {
    v1::TextCatalogue texts;
    for (auto [key, en] : std::initializer_list<std::pair<const char*, const char*>>{
             {"proof.tank", "tank"},
             {"proof.scout", "scout"},
             {"proof.passes", "{0} passes."},
             {"proof.shown", "{0}'s scout fires from ({1}, {2}) and is seen."},
             {"proof.moved", "{0} moves the {1} to ({2}, {3})."},
             {"proof.moved_unseen", "{0} moves a unit unseen."},
             {"proof.scout_to", "Your scout moves to ({0}, {1})."},
             {"proof.hit", "{0}'s {1} hits the {2}: {3} left."},
             {"proof.held_fire", "{0} holds fire."},
             {"proof.react", "The {0} comes into range at ({1}, {2}): fire at it?"},
             {"proof.react_with", "Fire with the {0}"},
             {"proof.react_pass", "Hold fire"},
             {"proof.step_pass", "Pass"},
             {"proof.step_unit", "The {0} at ({1}, {2})"},
             {"proof.step_to", "Move to ({0}, {1})"},
             {"proof.step_fire", "Fire at the {0} at ({1}, {2})"}}) {
      auto* t = texts.add_templates();
      t->set_key(key);
      t->set_en(en);
    }
    SetTexts(texts);
  }
  static engine::GameInfo MakeInfo() {
    engine::GameInfo info{"proof", "Proof of the core", 2, 2};
    info.publishes_moves = true;
    return info;
  }
  engine::StatusOr<std::unique_ptr<engine::State>> Deserialize(std::string_view bytes) const override {
    auto s = std::make_unique<ProofState>(this);
    if (!s->Load(bytes)) return Status(engine::codes::kMalformed, "Not a proof game position.");
    return std::unique_ptr<engine::State>(std::move(s));
  }

 protected:
  std::unique_ptr<engine::State> NewTypedState(int, const Options&, uint64_t seed) const override {
    auto s = std::make_unique<ProofState>(this);
    s->Setup(seed);
    return s;
  }
};

PLATEAU_REGISTER_GAME("proof", [] {
  return engine::StatusOr<std::unique_ptr<engine::Game>>(std::make_unique<ProofGame>());
});

}  // namespace
}  // namespace plateau::test::proof
