// The conformance suite: properties every registered game must have, checked over seeded random
// playouts. A new game is covered by registering it; nothing here names a game.
//
// PLATEAU_CONFORMANCE_PLAYOUTS scales the number of playouts per (game, seat count); the default
// runs thousands in total across games and seat counts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <map>
#include <set>

#include "engine/core/bot.h"
#include "engine/core/families.h"
#include "engine/core/registry.h"
#include "engine/core/view_diff.h"
#include "plateau/v1/options.pb.h"
#include "tests/conformance/playout.h"

namespace plateau::testing {
namespace {

using engine::DeterministicBytes;
using engine::Game;
using engine::Registry;
using engine::Rng;
using engine::State;

int PlayoutsPerSeatCount() {
  const char* env = std::getenv("PLATEAU_CONFORMANCE_PLAYOUTS");
  return env != nullptr ? std::max(1, std::atoi(env)) : 400;
}

// The heavier checks replay fewer games; they shrink with the setting above (sanitizer runs use a
// small one) but never below two games per seat count.
int Scaled(int at_default) { return std::max(2, at_default * PlayoutsPerSeatCount() / 400); }

// The games a check plays per seat count: Scaled(at_default), but a long game counts as several.
// Play stops once the games played have made as many actions as `at_default` games of
// kBudgetLength actions would (at least one game, always played to its end), so a check costs
// about the same per seat count whatever the game's length: a game of 500 actions a playout
// would otherwise cost ten times one of 50 for the same properties.
class GameBudget {
 public:
  static constexpr int kBudgetLength = 150;
  explicit GameBudget(int at_default)
      : games_(Scaled(at_default)), actions_(static_cast<long>(games_) * kBudgetLength) {}
  bool More() const { return played_ == 0 || (played_ < games_ && made_ < actions_); }
  // After each game, with the actions it made.
  void Played(int steps) {
    ++played_;
    made_ += std::max(steps, 0);
  }
  int played() const { return played_; }

 private:
  int games_;
  long actions_;
  int played_ = 0;
  long made_ = 0;
};

// A check that visits one position in `at_default` visits fewer with a small setting, down to one
// in eight times as many: with the sanitizers' 25, the bots' search (slowest under ASan) still
// meets every game and seat count, in a few dozen positions.
int PositionStride(int at_default) {
  return at_default * std::clamp(400 / PlayoutsPerSeatCount(), 1, 8);
}

std::vector<std::string> GameIds() {
  engine::Status st = Registry::LoadAll();
  if (!st.ok()) {
    ADD_FAILURE() << st.ToString();
    return {};
  }
  std::vector<std::string> ids;
  for (const Game* g : Registry::All()) ids.push_back(g->Info().id);
  return ids;
}

class ConformanceTest : public ::testing::TestWithParam<std::string> {
 protected:
  const Game& game() const { return *Registry::Find(GetParam()); }

  // The options a game dealt with `seed` is played with: the game's variants in turn.
  const std::string& OptionsFor(uint64_t seed) const {
    const auto& variants = game().Info().option_variants;
    return variants[seed % variants.size()];
  }

  std::unique_ptr<State> NewState(int seats, uint64_t seed) const {
    auto s = game().NewGame(seats, OptionsFor(seed), seed);
    EXPECT_TRUE(s.ok()) << s.status().ToString();
    return s.ok() ? std::move(s.value()) : nullptr;
  }

  std::vector<int> SeatCounts() const {
    std::vector<int> out;
    for (int n = game().Info().min_seats; n <= game().Info().max_seats; ++n) out.push_back(n);
    return out;
  }

  // Seeded random games per seat count (seed `mult` * p + `add`) within GameBudget(`at_default`),
  // `visit` called after each of their actions; stops at the first fatal failure.
  void EachPosition(int at_default, uint64_t mult, uint64_t add,
                    const std::function<void(const State&)>& visit) {
    for (int seats : SeatCounts()) {
      for (GameBudget games(at_default); games.More();) {
        const int p = games.played();
        const uint64_t seed = mult * static_cast<uint64_t>(p) + add;
        auto state = NewState(seats, seed);
        Rng rng(seed);
        std::string error;
        int steps = RandomPlayout(
            *state, rng, [&](const State& s, int, const engine::Message&) { visit(s); }, &error);
        ASSERT_GE(steps, 0) << error;
        games.Played(steps);
        if (HasFatalFailure()) return;
      }
    }
  }
};

std::vector<std::string> ViewsOf(const State& s) {
  std::vector<std::string> out;
  for (int r : Recipients(s)) out.push_back(DeterministicBytes(*s.View(r)));
  return out;
}

// Every phrase a view carries (log, questions, options) has its template in the game's catalogue:
// clients put words only on keys they have.
void CheckWords(const State& s) {
  const engine::Catalogue& words = s.game().TextRenderer();
  auto check = [&](const engine::v1::Text& t, const char* where) {
    for (const auto& key : words.MissingKeys(t))
      ADD_FAILURE() << s.game().Info().id << ": " << where << " uses key '" << key
                    << "' missing from the catalogue";
  };
  for (int r : Recipients(s)) {
    auto view = s.View(r);
    const auto* table_field = view->GetDescriptor()->FindFieldByName("table");
    ASSERT_NE(table_field, nullptr);
    const auto& table = static_cast<const engine::v1::Table&>(
        view->GetReflection()->GetMessage(*view, table_field));
    for (const auto& e : table.log()) check(e.text(), "the log");
    for (const auto& p : table.prompts()) {
      check(p.title(), "a question");
      if (p.has_detail()) check(p.detail(), "a question's detail");
      for (const auto& o : s.game().OptionsOf(p)) check(o.label(), "an option");
    }
  }
}

bool IsAnswer(const engine::Message& action) {
  const auto* core = action.GetDescriptor()->FindFieldByName("core");
  return core != nullptr && action.GetReflection()->HasField(action, core);
}

// A game that publishes its moves: each seat's view carries, as the leaves of a well-formed tree
// and the members of its family leaves, in words of the game's catalogue, each at most once:
// only actions the rules accept; every action it lists (answers aside); and every member of its
// families (ActionFamilies) that the rules accept, of which a few are drawn. A game that lists
// every legal action (no families) publishes exactly those. A seat that may not act and a
// spectator carry none.
void CheckMoves(const State& s) {
  Rng rng(s.History().size() + 1);
  if (!s.game().Info().publishes_moves) return;
  const engine::Catalogue& words = s.game().TextRenderer();
  for (int r : Recipients(s)) {
    auto view = s.View(r);
    const engine::v1::Table* table = engine::ViewTable(*view);
    ASSERT_NE(table, nullptr);
    std::multiset<std::string> leaves;
    // A leaf's action is the concatenation of the parts on its path (MoveChoice.action).
    std::string parts;
    std::function<void(const engine::v1::MoveChoice*,
                       const google::protobuf::RepeatedPtrField<engine::v1::MoveChoice>&)>
        walk = [&](const engine::v1::MoveChoice* parent, const auto& level) {
          std::set<std::string> keys;
          for (const auto& c : level) {
            EXPECT_FALSE(c.key().empty()) << "a move choice without a key";
            EXPECT_TRUE(keys.insert(c.key()).second) << "two sibling choices keyed " << c.key();
            EXPECT_FALSE(c.next_size() > 0 && c.params_size() > 0)
                << "choice " << c.key() << " is a family leaf and leads on";
            // In words, its own or those its step shares (MoveChoice.next_label).
            const engine::v1::Text said = engine::MoveWords(parent, c);
            EXPECT_FALSE(said.key().empty()) << "choice " << c.key() << " has no words";
            for (const auto& key : words.MissingKeys(said))
              ADD_FAILURE() << "a move's label uses key '" << key << "' missing from the catalogue";
            if (c.key_target() != engine::v1::KEY_TARGET_NONE) {
              EXPECT_FALSE(c.has_target()) << "choice " << c.key() << " names its target twice";
            }
            const size_t above = parts.size();
            parts += c.action();
            if (c.next_size() > 0) {
              walk(&c, c.next());
            } else if (c.params_size() > 0) {
              const engine::v1::ActionFamily family = engine::LeafFamily(parent, c, parts);
              const engine::Status st =
                  engine::CheckFamily(s.game().ActionPrototype().GetDescriptor(), family);
              EXPECT_TRUE(st.ok()) << "family leaf " << c.key() << ": " << st.ToString();
              const auto members =
                  engine::EnumerateFamily(s.game().ActionPrototype(), family, 100000);
              EXPECT_FALSE(members.empty()) << "family leaf " << c.key() << " has no member";
              for (const auto& m : members) leaves.insert(DeterministicBytes(*m));
            } else {
              auto a = s.game().ParseActionBytes(parts);
              EXPECT_TRUE(a.ok()) << "leaf " << c.key() << "'s parts do not make an action";
              if (a.ok()) leaves.insert(DeterministicBytes(*a.value()));
            }
            parts.resize(above);
          }
        };
    walk(nullptr, table->moves());
    const std::set<std::string> published(leaves.begin(), leaves.end());
    EXPECT_EQ(published.size(), leaves.size()) << "seat " << r << ": a move published twice";
    const auto families = s.ActionFamilies(r);
    std::set<std::string> legal;
    for (const auto& a : s.LegalActions(r)) {
      if (!IsAnswer(*a)) legal.insert(DeterministicBytes(*a));
    }
    if (families.empty()) {
      EXPECT_EQ(published, legal) << "seat " << r << "'s published moves are not its legal actions";
      continue;
    }
    for (const auto& bytes : published) {
      auto a = s.game().ParseActionBytes(bytes);
      ASSERT_TRUE(a.ok());
      const engine::Status st = s.Validate(r, *a.value());
      EXPECT_TRUE(st.ok()) << "seat " << r << " is offered " << s.game().ActionToText(*a.value())
                           << ", refused: " << st.ToString();
      EXPECT_EQ(DeterministicBytes(*s.Canonical(r, *a.value())), bytes)
          << "seat " << r << " is offered " << s.game().ActionToText(*a.value())
          << " with fields its move ignores";
    }
    for (const auto& bytes : legal)
      EXPECT_TRUE(published.count(bytes) > 0) << "seat " << r << " may play a listed action "
                                              << "its view does not offer";
    for (const auto& f : families) {
      for (int k = 0; k < 4; ++k) {
        auto a = s.Canonical(r, *engine::DrawFromFamily(s.game().ActionPrototype(), f, rng));
        if (!s.Validate(r, *a).ok()) continue;
        EXPECT_TRUE(published.count(DeterministicBytes(*a)) > 0)
            << "seat " << r << " may play " << s.game().ActionToText(*a)
            << ", which its view does not offer";
      }
    }
  }
}

// Structural invariants of a position, whatever the game.
void CheckInvariants(const State& s) {
  auto acting = s.ActingSeats();
  if (s.IsTerminal()) {
    EXPECT_TRUE(acting.empty()) << "a finished game still has acting seats";
    auto ranks = s.Ranks();
    ASSERT_EQ(ranks.size(), static_cast<size_t>(s.num_seats()));
    EXPECT_NE(std::find(ranks.begin(), ranks.end(), 1), ranks.end()) << "nobody ranked first";
    for (int r : ranks) EXPECT_TRUE(r >= 1 && r <= s.num_seats());
    EXPECT_EQ(s.Scores().size(), static_cast<size_t>(s.num_seats()));
    return;
  }
  ASSERT_FALSE(acting.empty());
  std::set<int> unique(acting.begin(), acting.end());
  EXPECT_EQ(unique.size(), acting.size()) << "a seat listed twice as acting";
  for (int seat = 0; seat < s.num_seats(); ++seat) {
    const bool is_acting = unique.count(seat) > 0;
    auto legal = s.LegalActions(seat);
    if (!is_acting) {
      EXPECT_TRUE(legal.empty()) << "seat " << seat << " may not act but has legal actions";
    } else {
      auto prompts = s.Prompts(seat);
      EXPECT_TRUE(!legal.empty() || !prompts.empty() || !s.ActionFamilies(seat).empty())
          << "seat " << seat << " acts but has no legal action";
      for (const auto& a : legal) {
        engine::Status st = s.Validate(seat, *a);
        EXPECT_TRUE(st.ok()) << s.game().ActionToText(*a) << " listed legal but " << st.ToString();
      }
      // What a timer would play is always legal.
      auto fallback = s.DefaultAction(seat);
      ASSERT_NE(fallback, nullptr) << "no default action for acting seat " << seat;
      engine::Status st = s.Validate(seat, *fallback);
      EXPECT_TRUE(st.ok()) << "default action " << s.game().ActionToText(*fallback) << ": "
                           << st.ToString();
      for (const auto& p : prompts) {
        EXPECT_EQ(p.seat(), seat);
        EXPECT_FALSE(p.id().empty()) << "a question without an id";
        if (!p.option_set().empty()) {
          EXPECT_EQ(p.options_size(), 0) << "a question with its own options and a set";
          EXPECT_FALSE(s.game().OptionsOf(p).empty())
              << "a question names the unknown or empty option set " << p.option_set();
        }
      }
    }
    for (const auto& f : s.ActionFamilies(seat)) {
      EXPECT_TRUE(is_acting) << "seat " << seat << " may not act but has a family of actions";
      engine::Status st = engine::CheckFamily(s.game().ActionPrototype().GetDescriptor(), f);
      EXPECT_TRUE(st.ok()) << "a malformed family: " << st.ToString();
    }
  }
  EXPECT_TRUE(s.LegalActions(engine::kSpectator).empty());
  EXPECT_TRUE(s.Prompts(engine::kSpectator).empty());
  CheckWords(s);
  CheckMoves(s);
}

TEST_P(ConformanceTest, RandomPlayoutsReachTheEndWithInvariants) {
  const int playouts = PlayoutsPerSeatCount();
  for (int seats : SeatCounts()) {
    // Full invariant checks on a sample of positions keep the suite fast but broad: every position
    // of one game in 20 (within a budget of actions, as the heavier checks), and about one in 16
    // of a game as long as GameBudget's, fewer of a longer one (the previous game's length).
    GameBudget deep_games(20);
    uint64_t stride = 16;
    for (int p = 0; p < playouts; ++p) {
      const uint64_t seed = 1000003ULL * static_cast<uint64_t>(p) + static_cast<uint64_t>(seats);
      auto state = NewState(seats, seed);
      ASSERT_NE(state, nullptr);
      Rng rng(seed ^ 0x5eedULL);
      const bool deep = p % 20 == 0 && deep_games.More();
      std::string error;
      int steps = RandomPlayout(*state, rng, [&](const State& s, int, const engine::Message&) {
        if (deep || rng.Below(stride) == 0) CheckInvariants(s);
      }, &error);
      ASSERT_GE(steps, 0) << GetParam() << " seats=" << seats << " seed=" << seed << ": " << error;
      if (deep) deep_games.Played(steps);
      stride = 16 * static_cast<uint64_t>(std::max(1, steps / GameBudget::kBudgetLength));
      CheckInvariants(*state);
      if (HasFatalFailure() || HasFailure()) {
        FAIL() << "seats=" << seats << " seed=" << seed;
      }
    }
  }
}

// Fixed option lists are static game data sent to every client once: ids are the game's own,
// and within a set options are told apart by id as within a question.
TEST_P(ConformanceTest, OptionSetsAreNamedByTheGameAndHoldDistinctOptions) {
  std::set<std::string> ids;
  for (const auto& set : game().OptionSets()) {
    EXPECT_EQ(set.id().rfind(game().Info().id + ".", 0), 0u)
        << "option set " << set.id() << " is not named after its game";
    EXPECT_TRUE(ids.insert(set.id()).second) << "option set " << set.id() << " twice";
    EXPECT_FALSE(set.options().empty()) << "option set " << set.id() << " is empty";
    std::set<std::string> option_ids;
    for (const auto& o : set.options()) {
      EXPECT_TRUE(option_ids.insert(o.id()).second) << set.id() << ": option " << o.id() << " twice";
      for (const auto& key : game().TextRenderer().MissingKeys(o.label()))
        ADD_FAILURE() << set.id() << ": option " << o.id() << " uses the unknown key " << key;
    }
  }
}

// Every string field of `m` and of its sub-messages, but words (plateau.v1.Text: a phrase may name
// a card), a top-level field named `table` when `skip_table` is set, and fields named `id` when
// `skip_ids` is (static entries are named by their ids).
void CollectStrings(const engine::Message& m, bool skip_table, bool skip_ids,
                    std::vector<std::string>* out) {
  using google::protobuf::FieldDescriptor;
  if (m.GetDescriptor() == engine::v1::Text::descriptor()) return;
  const auto* refl = m.GetReflection();
  std::vector<const FieldDescriptor*> fields;
  refl->ListFields(m, &fields);
  for (const FieldDescriptor* f : fields) {
    if (skip_table && f->name() == "table") continue;
    if (skip_ids && f->name() == "id") continue;
    const int n = f->is_repeated() ? refl->FieldSize(m, f) : 1;
    for (int i = 0; i < n; ++i) {
      if (f->cpp_type() == FieldDescriptor::CPPTYPE_STRING) {
        out->push_back(f->is_repeated() ? refl->GetRepeatedString(m, f, i) : refl->GetString(m, f));
      } else if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
        CollectStrings(f->is_repeated() ? refl->GetRepeatedMessage(m, f, i) : refl->GetMessage(m, f),
                       false, skip_ids, out);
      }
    }
  }
}

// Clients find seats by the `plateau.v1.seat` field option (options.proto), never by a field's
// name: every field of the game's Action and View (nested messages and the core's table included)
// that is named like a seat must carry it, and only integers may.
bool NamedLikeASeat(const std::string& n) {
  const auto ends = [&](std::string_view tail) {
    return n.size() > tail.size() && n.compare(n.size() - tail.size(), tail.size(), tail) == 0;
  };
  return n == "seat" || n == "seats" || n == "you" || n == "to_act" || n == "owner" ||
         ends("_seat") || ends("_seats") || ends("_by");
}

void CheckSeatMarks(const google::protobuf::Descriptor* type,
                    std::set<const google::protobuf::Descriptor*>* seen,
                    std::vector<std::string>* marked) {
  using google::protobuf::FieldDescriptor;
  if (!seen->insert(type).second) return;
  for (int i = 0; i < type->field_count(); ++i) {
    const FieldDescriptor& f = *type->field(i);
    if (f.cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
      CheckSeatMarks(f.message_type(), seen, marked);
      continue;
    }
    const bool integer = f.cpp_type() == FieldDescriptor::CPPTYPE_INT32 ||
                         f.cpp_type() == FieldDescriptor::CPPTYPE_INT64 ||
                         f.cpp_type() == FieldDescriptor::CPPTYPE_UINT32 ||
                         f.cpp_type() == FieldDescriptor::CPPTYPE_UINT64;
    const bool mark = f.options().GetExtension(plateau::v1::seat);
    if (mark) marked->push_back(f.full_name());
    EXPECT_TRUE(!mark || integer) << f.full_name() << " is marked as a seat but holds no integer";
    EXPECT_TRUE(mark || !integer || !NamedLikeASeat(f.name()))
        << f.full_name() << " is named like a seat: mark it [(plateau.v1.seat) = true]";
  }
}

// Every value of a marked field in `m` is a seat of the game, or negative (the game's "none").
void CheckSeatValues(const engine::Message& m, int num_seats, const std::string& where) {
  using google::protobuf::FieldDescriptor;
  const auto* refl = m.GetReflection();
  std::vector<const FieldDescriptor*> fields;
  refl->ListFields(m, &fields);
  for (const FieldDescriptor* f : fields) {
    const int n = f->is_repeated() ? refl->FieldSize(m, f) : 1;
    for (int k = 0; k < n; ++k) {
      if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
        CheckSeatValues(f->is_repeated() ? refl->GetRepeatedMessage(m, f, k) : refl->GetMessage(m, f),
                        num_seats, where);
        continue;
      }
      if (!f->options().GetExtension(plateau::v1::seat)) continue;
      int64_t v = 0;
      switch (f->cpp_type()) {
        case FieldDescriptor::CPPTYPE_INT32:
          v = f->is_repeated() ? refl->GetRepeatedInt32(m, f, k) : refl->GetInt32(m, f);
          break;
        case FieldDescriptor::CPPTYPE_INT64:
          v = f->is_repeated() ? refl->GetRepeatedInt64(m, f, k) : refl->GetInt64(m, f);
          break;
        case FieldDescriptor::CPPTYPE_UINT32:
          v = f->is_repeated() ? refl->GetRepeatedUInt32(m, f, k) : refl->GetUInt32(m, f);
          break;
        default:
          v = static_cast<int64_t>(f->is_repeated() ? refl->GetRepeatedUInt64(m, f, k) : refl->GetUInt64(m, f));
          break;
      }
      ASSERT_LT(v, num_seats) << where << ": " << f->full_name() << " is marked as a seat but holds " << v;
    }
  }
}

// The easy bot, the terminal client and the load generator play from the moves a view publishes
// and nothing else: a game that did not publish them would leave them nothing to play.
TEST_P(ConformanceTest, TheGamePublishesItsMoves) {
  EXPECT_TRUE(game().Info().publishes_moves)
      << GetParam() << ": set GameInfo.publishes_moves and describe each move (GameDescribeMove)";
}

TEST_P(ConformanceTest, SeatFieldsAreMarkedAndHoldSeats) {
  std::set<const google::protobuf::Descriptor*> seen;
  std::vector<std::string> marked;
  CheckSeatMarks(game().ActionPrototype().GetDescriptor(), &seen, &marked);
  CheckSeatMarks(game().ViewPrototype().GetDescriptor(), &seen, &marked);
  // The core's own are always reached (Table, Prompt), so the walk cannot come back empty.
  EXPECT_NE(std::find(marked.begin(), marked.end(), "plateau.v1.Prompt.seat"), marked.end());
  EachPosition(4, 6151, 5, [&](const State& s) {
    for (int r : Recipients(s)) CheckSeatValues(*s.View(r), s.num_seats(), "a view");
    for (int seat : s.ActingSeats()) {
      for (const auto& action : s.LegalActions(seat)) CheckSeatValues(*action, s.num_seats(), "a legal action");
    }
  });
}

// Static data (GameInfo.static_data) is sent once per game so that views name its entries by id
// instead of repeating them in every view and Diff. No text of it long enough to be unmistakable
// (names, descriptions: a unit or a short name could equal some value by chance) is in a view,
// words aside: the core's table (its log tells the story) and the game's own phrases (Text).
TEST_P(ConformanceTest, ViewsNameStaticDataInsteadOfCarryingIt) {
  const engine::Message* data = game().StaticData();
  if (data == nullptr) GTEST_SKIP() << GetParam() << " has no static data";
  std::vector<std::string> strings;
  CollectStrings(*data, false, /*skip_ids=*/true, &strings);
  std::set<std::string> texts;
  for (auto& text : strings)
    if (text.size() >= 12) texts.insert(std::move(text));
  ASSERT_FALSE(texts.empty()) << "the static data has no names or texts to check";
  EachPosition(10, 7919, 3, [&](const State& s) {
    for (int r : Recipients(s)) {
      std::vector<std::string> in_view;
      CollectStrings(*s.View(r), true, false, &in_view);
      for (const auto& text : in_view) {
        ASSERT_EQ(texts.count(text), 0u)
            << "recipient " << r << "'s view carries the static text \"" << text << "\"";
      }
    }
  });
}

TEST_P(ConformanceTest, SameSeedAndActionsReplayExactly) {
  for (int seats : SeatCounts()) {
    for (uint64_t seed : {1ULL, 77ULL, 123456789ULL}) {
      auto state = NewState(seats, seed);
      Rng rng(seed);
      std::string error;
      ASSERT_GE(RandomPlayout(*state, rng, nullptr, &error), 0) << error;
      auto replayed = game().Replay(seats, OptionsFor(seed), seed, state->History());
      ASSERT_TRUE(replayed.ok()) << replayed.status().ToString();
      EXPECT_EQ(replayed.value()->Serialize(), state->Serialize());
      EXPECT_EQ(ViewsOf(*replayed.value()), ViewsOf(*state));
    }
    // The seed matters: some pair of seeds must deal differently.
    std::set<std::string> starts;
    for (uint64_t seed = 1; seed <= 8; ++seed) starts.insert(NewState(seats, seed)->Serialize());
    EXPECT_GT(starts.size(), 1u) << "the seed does not change the initial position";
  }
}

TEST_P(ConformanceTest, CloneAndSerializeRoundTrip) {
  EachPosition(20, 31, 5, [&](const State& s) {
    auto clone = s.Clone();
    ASSERT_EQ(clone->Serialize(), s.Serialize());
    ASSERT_EQ(ViewsOf(*clone), ViewsOf(s));
    auto restored = game().Deserialize(s.Serialize());
    ASSERT_TRUE(restored.ok()) << restored.status().ToString();
    ASSERT_EQ(restored.value()->Serialize(), s.Serialize());
    ASSERT_EQ(ViewsOf(*restored.value()), ViewsOf(s));
    ASSERT_EQ(restored.value()->ActingSeats(), s.ActingSeats());
  });
}

// The protocol's promise: a recipient holding view N that applies diff N->N+1 has view N+1.
TEST_P(ConformanceTest, PreviousViewPlusDiffIsNewViewForEveryRecipient) {
  for (int seats : SeatCounts()) {
    for (GameBudget games(30); games.More();) {
      const int p = games.played();
      const uint64_t seed = 7919ULL * static_cast<uint64_t>(p) + 3;
      auto state = NewState(seats, seed);
      std::vector<std::unique_ptr<engine::Message>> held;
      for (int r : Recipients(*state)) held.push_back(state->View(r));
      Rng rng(seed);
      std::string error;
      // The hook runs before each action; compare after it by checking at the next step.
      auto check = [&](const State& s) {
        auto recipients = Recipients(s);
        for (size_t i = 0; i < recipients.size(); ++i) {
          auto fresh = s.View(recipients[i]);
          auto ops = engine::ComputeDiff(*held[i], *fresh);
          engine::Status st = engine::ApplyDiff(ops, held[i].get());
          ASSERT_TRUE(st.ok()) << st.ToString();
          ASSERT_EQ(DeterministicBytes(*held[i]), DeterministicBytes(*fresh))
              << "recipient " << recipients[i] << " after " << s.History().size() << " actions";
        }
      };
      int steps = RandomPlayout(*state, rng, [&](const State& s, int, const engine::Message&) {
        check(s);
      }, &error);
      ASSERT_GE(steps, 0) << error;
      games.Played(steps);
      check(*state);
      if (HasFatalFailure()) return;
    }
  }
}

// Nothing hidden reaches a seat: redrawing everything a seat cannot see leaves its view's bytes
// identical. The redraw must really change the position somewhere, or the check proves nothing.
TEST_P(ConformanceTest, HiddenInformationDoesNotReachTheView) {
  for (int seats : SeatCounts()) {
    int changed = 0, checked = 0;
    for (GameBudget games(25); games.More();) {
      const int p = games.played();
      const uint64_t seed = 104729ULL * static_cast<uint64_t>(p) + 11;
      auto state = NewState(seats, seed);
      Rng rng(seed);
      std::string error;
      int steps = RandomPlayout(*state, rng, [&](const State& s, int, const engine::Message&) {
        if (s.IsTerminal()) return;
        for (int r : Recipients(s)) {
          auto other = s.PerturbHidden(r, rng.Next());
          ASSERT_NE(other, nullptr);
          ASSERT_EQ(DeterministicBytes(*other->View(r)), DeterministicBytes(*s.View(r)))
              << "recipient " << r << " sees hidden information after " << s.History().size()
              << " actions";
          ASSERT_EQ(other->ActingSeats(), s.ActingSeats());
          changed += other->Serialize() != s.Serialize() ? 1 : 0;
          ++checked;
        }
      }, &error);
      ASSERT_GE(steps, 0) << error;
      games.Played(steps);
      if (HasFatalFailure()) return;
    }
    EXPECT_GT(changed, checked / 4) << "PerturbHidden rarely changes anything: is it a no-op?";
  }
}

// A move the game says may be taken back (State::TakeBackSafe) reveals nothing: after it, each
// recipient's view is the same on positions redrawn where that recipient could not see, so the
// move showed it nothing hidden and drew nothing it could see. Taken back (the log replayed
// without it, as the server does), the position and every view are exactly as before it. Every
// game declares at least one such move, and random play meets it.
TEST_P(ConformanceTest, MovesThatMayBeTakenBackRevealNothingAndComeBackExactly) {
  int safe = 0;  // over every seat count: a solo game may have none
  for (int seats : SeatCounts()) {
    for (GameBudget games(25); games.More();) {
      const int p = games.played();
      const uint64_t seed = 7919ULL * static_cast<uint64_t>(p) + 3;
      auto state = NewState(seats, seed);
      Rng rng(seed);
      std::string error;
      int steps = RandomPlayout(*state, rng, [&](const State& s, int seat, const engine::Message& a) {
        const std::string before = s.Serialize();
        const bool declared = s.TakeBackSafe(seat, a);
        ASSERT_EQ(s.Serialize(), before) << "TakeBackSafe changed the position";
        ASSERT_EQ(s.TakeBackSafe(seat, a), declared) << "TakeBackSafe is not a function";
        if (!declared) return;
        ++safe;
        auto after = s.Clone();
        ASSERT_TRUE(after->Apply(seat, a).ok());
        for (int r : Recipients(s)) {
          auto other = s.PerturbHidden(r, rng.Next());
          ASSERT_TRUE(other->Apply(seat, a).ok());
          ASSERT_EQ(DeterministicBytes(*other->View(r)), DeterministicBytes(*after->View(r)))
              << "a move declared safe to take back shows recipient " << r
              << " something it could not see, after " << s.History().size() << " actions";
        }
        // The full replay is the server's path; checked on one safe move in eight.
        if (safe % 8 != 1) return;
        std::vector<engine::LoggedAction> log = after->History();
        log.pop_back();
        auto back = game().Replay(seats, OptionsFor(seed), seed, log);
        ASSERT_TRUE(back.ok()) << back.status().ToString();
        ASSERT_EQ(back.value()->Serialize(), before);
        for (int r : Recipients(s)) {
          ASSERT_EQ(DeterministicBytes(*back.value()->View(r)), DeterministicBytes(*s.View(r)));
        }
      }, &error);
      ASSERT_GE(steps, 0) << error;
      games.Played(steps);
      if (HasFatalFailure()) return;
    }
  }
  EXPECT_GT(safe, 0) << "no move may be taken back in random play";
}

// Untrusted bytes: refused with a code and no change, or (if they happen to decode to a legal
// action) accepted exactly as the decoded action would be.
TEST_P(ConformanceTest, GarbageAndWrongSeatActionsChangeNothing) {
  for (int seats : SeatCounts()) {
    auto state = NewState(seats, 99);
    Rng rng(99);
    std::string error;
    int steps = RandomPlayout(*state, rng, [&](const State& s, int seat, const engine::Message& chosen) {
      const std::string before = s.Serialize();
      for (int k = 0; k < 4; ++k) {
        std::string junk(rng.Below(24), '\0');
        for (char& c : junk) c = static_cast<char>(rng.Below(256));
        auto copy = s.Clone();
        engine::Status st = copy->ApplyBytes(seat, junk);
        if (!st.ok()) {
          EXPECT_FALSE(st.code().empty());
          EXPECT_FALSE(st.reason().empty());
          EXPECT_EQ(copy->Serialize(), before);
        }
      }
      auto acting = s.ActingSeats();
      for (int other = 0; other < s.num_seats(); ++other) {
        if (std::find(acting.begin(), acting.end(), other) != acting.end()) continue;
        auto copy = s.Clone();
        engine::Status st = copy->Apply(other, chosen);
        EXPECT_EQ(st.code(), engine::codes::kNotYourTurn);
        EXPECT_EQ(copy->Serialize(), before);
      }
      auto copy = s.Clone();
      EXPECT_EQ(copy->Apply(s.num_seats(), chosen).code(), engine::codes::kBadSeat);
      EXPECT_EQ(copy->Serialize(), before);
    }, &error);
    ASSERT_GE(steps, 0) << error;
    auto last = state->LegalActions(0);
    EXPECT_TRUE(last.empty());
  }
}

// Answers drawn from a question's description, not only the listed ones: each is accepted or
// refused with a code and no change; accepted ones keep the game going to its end.
TEST_P(ConformanceTest, AnswersDrawnFromQuestionsAreAcceptedOrRefusedCleanly) {
  int drawn = 0;
  for (int seats : SeatCounts()) {
    for (int p = 0; p < Scaled(40); ++p) {
      const uint64_t seed = 6151ULL * static_cast<uint64_t>(p) + 17;
      auto state = NewState(seats, seed);
      Rng rng(seed);
      for (int step = 0; step < 20000 && !state->IsTerminal(); ++step) {
        auto acting = state->ActingSeats();
        ASSERT_FALSE(acting.empty()) << "not over but nobody may act";
        const int seat = acting[rng.Below(acting.size())];
        auto prompts = state->Prompts(seat);
        if (!prompts.empty() && rng.Below(2) == 0) {
          auto answer = game().WrapAnswer(
              engine::DrawAnswer(prompts[0], game().OptionsOf(prompts[0]), rng));
          const std::string before = state->Serialize();
          engine::Status st = state->Apply(seat, *answer);
          ++drawn;
          if (!st.ok()) {
            EXPECT_FALSE(st.reason().empty());
            ASSERT_EQ(state->Serialize(), before) << "a refused answer changed the game";
          }
          continue;
        }
        auto legal = state->LegalActions(seat);
        if (legal.empty()) legal.push_back(state->DefaultAction(seat));  // a typed answer
        ASSERT_TRUE(state->Apply(seat, *legal[rng.Below(legal.size())]).ok());
      }
      ASSERT_TRUE(state->IsTerminal()) << "seats=" << seats << " seed=" << seed;
    }
  }
  RecordProperty("answers_drawn", drawn);
}

// Any seat may resign at any time; the game then plays that seat's default action whenever it
// must act, goes on to its end, and ranks the resigned after everyone still playing.
TEST_P(ConformanceTest, ResignedSeatsArePlayedByDefaultToTheEnd) {
  for (int seats : SeatCounts()) {
    for (int p = 0; p < Scaled(40); ++p) {
      const uint64_t seed = 9973ULL * static_cast<uint64_t>(p) + 29;
      auto state = NewState(seats, seed);
      Rng rng(seed);
      const int quitter = static_cast<int>(rng.Below(static_cast<uint64_t>(seats)));
      const int at_step = static_cast<int>(rng.Below(200));
      engine::v1::CoreAction resign;
      resign.mutable_resign();
      for (int step = 0; step < 20000 && !state->IsTerminal(); ++step) {
        if (step == at_step) {
          ASSERT_TRUE(state->Apply(quitter, *game().WrapCore(resign)).ok());
          EXPECT_EQ(state->Apply(quitter, *game().WrapCore(resign)).code(),
                    state->IsTerminal() ? engine::codes::kGameOver : engine::codes::kResigned);
          CheckInvariants(*state);
          continue;
        }
        auto acting = state->ActingSeats();
        ASSERT_FALSE(acting.empty()) << "not over but nobody may act";
        const int seat = acting[rng.Below(acting.size())];
        ASSERT_FALSE(state->HasResigned(seat)) << "a resigned seat is left to act";
        auto legal = state->LegalActions(seat);
        if (legal.empty()) {
          ASSERT_TRUE(state->Apply(seat, *state->DefaultAction(seat)).ok());
          continue;
        }
        ASSERT_TRUE(state->Apply(seat, *legal[rng.Below(legal.size())]).ok());
      }
      ASSERT_TRUE(state->IsTerminal()) << "seats=" << seats << " seed=" << seed;
      CheckInvariants(*state);
      if (state->HasResigned(quitter)) {
        const auto ranks = state->Ranks();
        EXPECT_EQ(ranks[quitter], seats) << "the resigned seat does not rank last";
      }
      auto replayed = game().Replay(seats, OptionsFor(seed), seed, state->History());
      ASSERT_TRUE(replayed.ok()) << replayed.status().ToString();
      EXPECT_EQ(replayed.value()->Serialize(), state->Serialize());
    }
  }
}

// What a seat cannot see changes neither what it may do nor what it is told when refused:
// validation (code and reason) of its listed actions, of every other seat's listed actions tried
// by it, and its list of legal actions and questions are the same on a position redrawn in
// everything it cannot see.
TEST_P(ConformanceTest, HiddenInformationDoesNotChangeRefusalsOrLegalActions) {
  for (int seats : SeatCounts()) {
    for (GameBudget games(15); games.More();) {
      const int p = games.played();
      const uint64_t seed = 15485863ULL * static_cast<uint64_t>(p) + 7;
      auto state = NewState(seats, seed);
      Rng rng(seed);
      std::string error;
      int steps = RandomPlayout(*state, rng, [&](const State& s, int, const engine::Message&) {
        if (s.IsTerminal() || rng.Below(4) != 0) return;
        std::vector<std::unique_ptr<engine::Message>> probes;
        for (int seat = 0; seat < s.num_seats(); ++seat)
          for (auto& a : s.LegalActions(seat)) probes.push_back(std::move(a));
        for (int r = 0; r < s.num_seats(); ++r) {
          auto other = s.PerturbHidden(r, rng.Next());
          auto texts = [&](const State& x) {
            std::vector<std::string> out;
            for (const auto& a : x.LegalActions(r)) out.push_back(DeterministicBytes(*a));
            for (const auto& q : x.Prompts(r)) out.push_back(DeterministicBytes(q));
            for (const auto& f : x.ActionFamilies(r)) out.push_back(DeterministicBytes(f));
            return out;
          };
          ASSERT_EQ(texts(*other), texts(s))
              << "seat " << r << "'s legal actions depend on what it cannot see, after "
              << s.History().size() << " actions";
          for (const auto& a : probes) {
            const engine::Status mine = s.Validate(r, *a), theirs = other->Validate(r, *a);
            ASSERT_EQ(mine.ToString(), theirs.ToString())
                << "seat " << r << " trying " << game().ActionToText(*a)
                << " is told something that depends on what it cannot see, after "
                << s.History().size() << " actions";
          }
        }
      }, &error);
      ASSERT_GE(steps, 0) << error;
      games.Played(steps);
      if (HasFatalFailure()) return;
    }
  }
}

// Diffs skip comparing two log entries with the same seq (engine/core/view_diff.cc): an entry,
// once written, never changes, through a whole game and for every reader.
TEST_P(ConformanceTest, ALogEntryNeverChangesOnceWritten) {
  size_t checked = 0;
  for (int seats : SeatCounts()) {
    for (GameBudget games(20); games.More();) {
      const int p = games.played();
      const uint64_t seed = 15485863ULL * static_cast<uint64_t>(p) + 3;
      auto state = NewState(seats, seed);
      Rng rng(seed);
      std::string error;
      std::map<uint64_t, std::string> entries;  // seq -> the entry
      bool failed = false;
      auto check = [&](const State& s) {
        if (failed) return;
        for (int r : Recipients(s)) {
          auto view = s.View(r);
          // The table is the core's: found by type wherever the game's view holds it.
          const auto* desc = view->GetDescriptor();
          for (int i = 0; i < desc->field_count(); ++i) {
            const auto* f = desc->field(i);
            if (f->is_repeated() || f->message_type() != plateau::v1::Table::descriptor()) continue;
            const auto& table = static_cast<const plateau::v1::Table&>(
                view->GetReflection()->GetMessage(*view, f));
            for (const auto& e : table.log()) {
              const std::string bytes = DeterministicBytes(e);
              auto [it, fresh] = entries.try_emplace(e.seq(), bytes);
              checked += 1;
              if (it->second != bytes) {
                ADD_FAILURE() << "log entry " << e.seq() << " changed, seen by " << r;
                failed = true;
                return;
              }
            }
          }
        }
      };
      check(*state);
      int steps = RandomPlayout(*state, rng, [&](const State& s, int, const engine::Message&) {
        check(s);
      }, &error);
      ASSERT_GE(steps, 0) << error;
      games.Played(steps);
      check(*state);
      if (HasFailure()) return;
    }
  }
  if (checked == 0) GTEST_SKIP() << "the game writes no log";
}

// A game that builds its view in two parts (public, private) keeps them in separate top-level
// fields, so that each part's diff applies to the whole view, and their merge is the view.
TEST_P(ConformanceTest, ViewPartsAreDisjointAndMergeIntoTheView) {
  std::set<int> public_fields, private_fields;
  bool splits = false;
  for (int seats : SeatCounts()) {
    for (GameBudget games(20); games.More();) {
      const int p = games.played();
      const uint64_t seed = 104729ULL * static_cast<uint64_t>(p) + 11;
      auto state = NewState(seats, seed);
      Rng rng(seed);
      std::string error;
      auto check = [&](const State& s) {
        auto pub = s.PublicView();
        if (!pub) return;
        splits = true;
        std::vector<const google::protobuf::FieldDescriptor*> set;
        pub->GetReflection()->ListFields(*pub, &set);
        for (const auto* f : set) public_fields.insert(f->number());
        for (int r : Recipients(s)) {
          auto priv = s.PrivateView(r);
          set.clear();
          priv->GetReflection()->ListFields(*priv, &set);
          for (const auto* f : set) private_fields.insert(f->number());
          std::unique_ptr<engine::Message> whole(pub->New());
          whole->CopyFrom(*pub);
          whole->MergeFrom(*priv);
          ASSERT_EQ(DeterministicBytes(*whole), DeterministicBytes(*s.View(r)))
              << "the parts of recipient " << r << "'s view do not make its view";
          // What a session builds each action: the private part, its log left to the holder.
          auto no_log = s.PrivateViewWithoutLog(r);
          const auto* table = priv->GetDescriptor()->FindFieldByName("table");
          static_cast<engine::v1::Table*>(priv->GetReflection()->MutableMessage(priv.get(), table))
              ->clear_log();
          ASSERT_EQ(DeterministicBytes(*no_log), DeterministicBytes(*priv))
              << "recipient " << r << "'s private part without its log is not the private part";
        }
      };
      int steps = RandomPlayout(*state, rng, [&](const State& s, int, const engine::Message&) {
        if (rng.Below(4) == 0) check(s);
      }, &error);
      ASSERT_GE(steps, 0) << error;
      games.Played(steps);
      check(*state);
      if (HasFatalFailure()) return;
    }
  }
  if (!splits) GTEST_SKIP() << "the game builds its views whole";
  for (int f : public_fields)
    EXPECT_EQ(private_fields.count(f), 0u) << "field " << f << " is in both parts of the view";
}

// Changes one field of an action the way a careless or hostile client would: a number nudged or
// replaced, a flag flipped, an element added to or dropped from a list. Stays inside the kind of
// move the action is (the set field of its root), and leaves answers (`core`) alone.
void Mutate(engine::Message& action, Rng& rng) {
  using google::protobuf::FieldDescriptor;
  struct Spot {
    engine::Message* parent;
    const FieldDescriptor* field;
  };
  std::vector<Spot> spots;
  std::function<void(engine::Message&)> visit = [&](engine::Message& m) {
    const auto* d = m.GetDescriptor();
    const auto* r = m.GetReflection();
    for (int i = 0; i < d->field_count(); ++i) {
      const FieldDescriptor* f = d->field(i);
      if (f->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE) {
        if (f->cpp_type() != FieldDescriptor::CPPTYPE_STRING) spots.push_back({&m, f});
        continue;
      }
      if (f->is_repeated()) {
        spots.push_back({&m, f});
        for (int j = 0; j < r->FieldSize(m, f); ++j) visit(*r->MutableRepeatedMessage(&m, f, j));
      } else if (r->HasField(m, f)) {
        visit(*r->MutableMessage(&m, f));
      }
    }
  };
  std::vector<const FieldDescriptor*> set;
  action.GetReflection()->ListFields(action, &set);
  for (const auto* f : set)
    if (f->name() != "core" && f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE &&
        !f->is_repeated())
      visit(*action.GetReflection()->MutableMessage(&action, f));
  if (spots.empty()) return;
  const Spot spot = spots[rng.Below(spots.size())];
  engine::Message& m = *spot.parent;
  const FieldDescriptor* f = spot.field;
  const auto* r = m.GetReflection();
  const int64_t v = static_cast<int64_t>(rng.Below(24)) - 3;
  // index: an element to change, or kAdd (append to a repeated field), or kSet (a singular one).
  constexpr int kAdd = -2, kSet = -1;
  auto put = [&](int index) {
    const bool add = index == kAdd;
    switch (f->cpp_type()) {
      case FieldDescriptor::CPPTYPE_INT32:
      case FieldDescriptor::CPPTYPE_INT64:
        if (add) f->cpp_type() == FieldDescriptor::CPPTYPE_INT32 ? r->AddInt32(&m, f, v)
                                                                 : r->AddInt64(&m, f, v);
        else if (f->is_repeated()) f->cpp_type() == FieldDescriptor::CPPTYPE_INT32
                                       ? r->SetRepeatedInt32(&m, f, index, v)
                                       : r->SetRepeatedInt64(&m, f, index, v);
        else f->cpp_type() == FieldDescriptor::CPPTYPE_INT32 ? r->SetInt32(&m, f, v)
                                                             : r->SetInt64(&m, f, v);
        break;
      case FieldDescriptor::CPPTYPE_UINT32:
      case FieldDescriptor::CPPTYPE_UINT64: {
        const uint64_t u = static_cast<uint64_t>(std::max<int64_t>(0, v));
        if (add) f->cpp_type() == FieldDescriptor::CPPTYPE_UINT32 ? r->AddUInt32(&m, f, u)
                                                                  : r->AddUInt64(&m, f, u);
        else if (f->is_repeated()) f->cpp_type() == FieldDescriptor::CPPTYPE_UINT32
                                       ? r->SetRepeatedUInt32(&m, f, index, u)
                                       : r->SetRepeatedUInt64(&m, f, index, u);
        else f->cpp_type() == FieldDescriptor::CPPTYPE_UINT32 ? r->SetUInt32(&m, f, u)
                                                              : r->SetUInt64(&m, f, u);
        break;
      }
      case FieldDescriptor::CPPTYPE_BOOL:
        if (add) r->AddBool(&m, f, v % 2 != 0);
        else if (f->is_repeated()) r->SetRepeatedBool(&m, f, index, !r->GetRepeatedBool(m, f, index));
        else r->SetBool(&m, f, !r->GetBool(m, f));
        break;
      case FieldDescriptor::CPPTYPE_ENUM: {
        const int e = static_cast<int>(rng.Below(f->enum_type()->value_count() + 1));
        if (add) r->AddEnumValue(&m, f, e);
        else if (f->is_repeated()) r->SetRepeatedEnumValue(&m, f, index, e);
        else r->SetEnumValue(&m, f, e);
        break;
      }
      default:
        break;
    }
  };
  if (!f->is_repeated()) return put(kSet);
  const int n = r->FieldSize(m, f);
  switch (rng.Below(3)) {
    case 0:  // one more
      if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
        auto* added = r->AddMessage(&m, f);
        if (n > 0) added->CopyFrom(r->GetRepeatedMessage(m, f, static_cast<int>(rng.Below(n))));
      } else {
        put(kAdd);
      }
      break;
    case 1:  // one fewer
      if (n > 0) r->RemoveLast(&m, f);
      break;
    default:  // one changed
      if (n > 0 && f->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE)
        put(static_cast<int>(rng.Below(n)));
      break;
  }
}


// LegalActions is complete up to families and questions: a member drawn from a family is
// accepted, or refused with a reason and no change; an action a client makes up (a listed or
// drawn one with a field changed) that the rules accept is, once stripped of the fields its move
// ignores, listed, an answer to a question, or in a family.
TEST_P(ConformanceTest, AcceptedActionsAreListedOrInAFamily) {
  int drawn = 0, drawn_accepted = 0, mutated_accepted = 0;
  for (int seats : SeatCounts()) {
    for (GameBudget games(30); games.More();) {
      const int p = games.played();
      const uint64_t seed = 7919ULL * static_cast<uint64_t>(p) + 3;
      auto state = NewState(seats, seed);
      Rng rng(seed);
      std::string error;
      int steps = RandomPlayout(*state, rng, [&](const State& s, int seat, const engine::Message&) {
        if (s.IsTerminal() || rng.Below(3) != 0) return;
        auto legal = s.LegalActions(seat);
        std::set<std::string> listed;
        for (const auto& a : legal) listed.insert(DeterministicBytes(*a));
        const auto families = s.ActionFamilies(seat);
        std::vector<std::unique_ptr<engine::Message>> probes;
        for (const auto& f : families) {
          for (int k = 0; k < 6; ++k) {
            auto a = engine::DrawFromFamily(game().ActionPrototype(), f, rng);
            EXPECT_TRUE(engine::FamilyHas(f, *a)) << "a draw outside its own family: "
                                                  << game().ActionToText(*a);
            ++drawn;
            auto copy = s.Clone();
            const std::string before = s.Serialize();
            engine::Status st = copy->Apply(seat, *a);
            if (st.ok()) {
              ++drawn_accepted;
            } else {
              EXPECT_FALSE(st.reason().empty());
              EXPECT_EQ(copy->Serialize(), before) << "a refused family member changed the game";
            }
            probes.push_back(std::move(a));
          }
        }
        for (auto& a : legal) {
          EXPECT_EQ(DeterministicBytes(*s.Canonical(seat, *a)), DeterministicBytes(*a))
              << "listed but not canonical: " << game().ActionToText(*a);
          probes.push_back(std::move(a));
        }
        for (const auto& probe : probes) {
          for (int k = 0; k < 3; ++k) {
            std::unique_ptr<engine::Message> a(probe->New());
            a->CopyFrom(*probe);
            Mutate(*a, rng);
            if (IsAnswer(*a) || !s.Validate(seat, *a).ok()) continue;
            ++mutated_accepted;
            a = s.Canonical(seat, *a);
            EXPECT_TRUE(listed.count(DeterministicBytes(*a)) > 0 ||
                        engine::AnyFamilyHas(families, *a))
                << "seat " << seat << " may play " << game().ActionToText(*a)
                << ", neither listed nor in a family, after " << s.History().size()
                << " actions (seed " << seed << ")";
          }
        }
      }, &error);
      ASSERT_GE(steps, 0) << error;
      games.Played(steps);
      if (HasFailure()) return;
    }
  }
  RecordProperty("family_draws", drawn);
  RecordProperty("family_draws_accepted", drawn_accepted);
  RecordProperty("made_up_actions_accepted", mutated_accepted);
  // A game with families must have members the rules accept, or the families describe nothing.
  if (drawn > 0) {
    EXPECT_GT(drawn_accepted, 0);
  }
}

// Bots (engine/core/bot.h) seeing only their seat's view finish every game: what they propose is
// tried in order and the first move the rules accept is played (a server does the same, with the
// game's DefaultAction if none is). Nothing is proposed to a seat with nothing to do, and the
// same view and generator give the same proposals.
TEST_P(ConformanceTest, BotsSeeingOnlyTheirViewsFinishTheGame) {
  const int games = Scaled(40);
  int fallbacks = 0;
  int moves = 0;
  for (int seats : SeatCounts()) {
    for (int g = 0; g < games; ++g) {
      const uint64_t seed = 7919ULL * static_cast<uint64_t>(g) + static_cast<uint64_t>(seats);
      auto state = NewState(seats, seed);
      Rng rng(seed);
      int steps = 0;
      while (!state->IsTerminal()) {
        ASSERT_LT(++steps, 20000) << "seats=" << seats << " seed=" << seed << ": no end";
        const std::vector<int> acting = state->ActingSeats();
        ASSERT_FALSE(acting.empty());
        for (int seat = 0; seat < seats; ++seat) {
          if (std::find(acting.begin(), acting.end(), seat) != acting.end()) continue;
          auto view = state->View(seat);
          EXPECT_TRUE(engine::BotMoves(game(), *view, seat, engine::BotLevel::kEasy, rng).empty())
              << "a bot is offered moves for seat " << seat << ", which has nothing to do, in "
              << view->ShortDebugString().substr(0, 600);
        }
        const int seat = acting[rng.Below(acting.size())];
        auto view = state->View(seat);
        Rng again(rng.state());
        auto proposed = engine::BotMoves(game(), *view, seat, engine::BotLevel::kEasy, rng);
        auto repeated = engine::BotMoves(game(), *view, seat, engine::BotLevel::kEasy, again);
        ASSERT_EQ(proposed.size(), repeated.size());
        for (size_t i = 0; i < proposed.size(); ++i) {
          EXPECT_EQ(DeterministicBytes(*proposed[i]), DeterministicBytes(*repeated[i]));
        }
        bool played = false;
        for (const auto& move : proposed) {
          if (state->Apply(seat, *move).ok()) {
            played = true;
            break;
          }
        }
        if (!played) {
          ++fallbacks;
          auto fallback = state->DefaultAction(seat);
          ASSERT_NE(fallback, nullptr);
          engine::Status st = state->Apply(seat, *fallback);
          ASSERT_TRUE(st.ok()) << st.ToString();
        }
        ++moves;
        if (HasFailure()) return;
      }
    }
  }
  RecordProperty("bot_moves", moves);
  RecordProperty("bot_fallbacks", fallbacks);
}

// The normal bot searches a State::SampleForSeat, never the position: two positions a seat cannot
// tell apart (one and its redraw for that seat) give byte-identical samples with the same salt,
// so whatever the bot does follows from the seat's view alone. Its search then proposes the same
// moves in both, and its first choice is one the real position accepts.
TEST_P(ConformanceTest, TheNormalBotSearchesOnlyWhatItsSeatSees) {
  int checked = 0;
  EachPosition(3, 15485863ULL, 3, [&](const State& s) {
    if (s.IsTerminal()) return;
    Rng rng(s.History().size() * 31 + 7);
    if (rng.Below(PositionStride(3)) != 0) return;
    for (int seat : s.ActingSeats()) {
      const auto twin = s.PerturbHidden(seat, rng.Next());
      const uint64_t salt = rng.Next();
      const auto sample = s.SampleForSeat(seat, salt);
      const auto twin_sample = twin->SampleForSeat(seat, salt);
      ASSERT_EQ(sample->Serialize(), twin_sample->Serialize())
          << "seat " << seat << "'s sample depends on what it cannot see, after "
          << s.History().size() << " actions";
      // The sample keeps no log (other seats' entries would be in it); the rest of the view is
      // the seat's own.
      auto without_log = [](std::unique_ptr<engine::Message> view) {
        const auto* field = view->GetDescriptor()->FindFieldByName("table");
        static_cast<engine::v1::Table*>(view->GetReflection()->MutableMessage(view.get(), field))
            ->clear_log();
        return DeterministicBytes(*view);
      };
      ASSERT_EQ(without_log(sample->View(seat)), without_log(s.View(seat)));
      ASSERT_TRUE(sample->History().empty());
      engine::SearchBudget budget;
      budget.max_playouts = 12;
      budget.horizon = 8;
      Rng a(salt), b(salt);
      const auto mine = engine::SearchMoves(*sample, seat, budget, a);
      const auto theirs = engine::SearchMoves(*twin_sample, seat, budget, b);
      ASSERT_FALSE(mine.empty()) << "no move for acting seat " << seat;
      ASSERT_EQ(mine.size(), theirs.size());
      for (size_t i = 0; i < mine.size(); ++i)
        ASSERT_EQ(DeterministicBytes(*mine[i]), DeterministicBytes(*theirs[i]));
      EXPECT_TRUE(s.Validate(seat, *mine[0]).ok())
          << "the search's choice " << game().ActionToText(*mine[0]) << " is refused: "
          << s.Validate(seat, *mine[0]).ToString();
      ++checked;
    }
  });
  EXPECT_GT(checked, 0);
}

INSTANTIATE_TEST_SUITE_P(AllGames, ConformanceTest, ::testing::ValuesIn(GameIds()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

}  // namespace
}  // namespace plateau::testing
