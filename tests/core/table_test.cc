// The table's shared pieces: words from templates, the shape of answers, the log.
#include <gtest/gtest.h>

#include <set>

#include "engine/core/table.h"

namespace plateau::engine {
namespace {

std::string Name(int seat) { return seat == 0 ? "Ada" : "Bob"; }

Catalogue Words() {
  auto parsed = Catalogue::Parse("texts.textproto", R"(
    templates { key: "feeds" en: "{0} feeds {1|rank|ranks} with {2}." }
    templates { key: "cards" en: "{0|card|cards|-} left: {0}" }
    templates { key: "outer" en: "{0}, then {1}" }
    templates { key: "short" en: "{0} passes" }
  )");
  EXPECT_TRUE(parsed.ok()) << parsed.status().ToString();
  return Catalogue(parsed.value());
}

TEST(Words, TemplatesTakeSeatsNumbersNamesAndPhrases) {
  Catalogue c = Words();
  EXPECT_EQ(c.Render(T("feeds", Seat{1}, 2, "Bogotá"), Name), "Bob feeds 2 ranks with Bogotá.");
  EXPECT_EQ(c.Render(T("feeds", Seat{0}, 1, "x"), Name), "Ada feeds 1 rank with x.");
  EXPECT_EQ(c.Render(T("cards", 1), Name), "card left: 1");
  EXPECT_EQ(c.Render(T("outer", T("short", Seat{0}), T("short", Seat{1})), Name),
            "Ada passes, then Bob passes");
}

TEST(Words, UnknownKeysShowRatherThanVanish) {
  Catalogue c = Words();
  EXPECT_EQ(c.Render(T("nope", Seat{0}, 3), Name), "[nope Ada 3]");
  EXPECT_EQ(c.MissingKeys(T("outer", T("nope"), T("short"))), std::vector<std::string>{"nope"});
  EXPECT_TRUE(c.MissingKeys(T("outer", T("short"), T("short"))).empty());
}

// Compacting a log entry's bytes in place writes what compacting its message and serializing
// it would, byte for byte, and says how many bytes that is.
TEST(Words, CompactedInPlaceAsTheMessageWouldBe) {
  Catalogue c = Words();
  v1::Text already = T("nowhere", 1);
  already.set_id(0);  // a present id is kept where the key has no number
  v1::Text keyed_with_id = T("short", Seat{0});
  keyed_with_id.set_id(9);  // a key with a number replaces any id it had
  const std::vector<v1::Text> cases = {
      T("feeds", Seat{1}, 2, "Bogotá"),
      T("nowhere", Seat{1}, -3),
      T(""),
      T("outer", T("short", Seat{0}), T("nowhere", 2)),
      T("outer", T("outer", T("short", Seat{1}), "x"), std::string(200, 'y')),
      already,
      keyed_with_id,
  };
  for (const v1::Text& t : cases) {
    v1::Text compacted = t;
    c.Compact(&compacted);
    const std::string bytes = t.SerializeAsString();
    std::string out = "prefix";
    ASSERT_TRUE(c.AppendCompacted(bytes, &out)) << t.DebugString();
    EXPECT_EQ(out, "prefix" + compacted.SerializeAsString()) << t.DebugString();
    EXPECT_EQ(c.CompactedSize(bytes), compacted.ByteSizeLong()) << t.DebugString();
  }
  std::string out;
  EXPECT_FALSE(c.AppendCompacted(std::string("\x0a\x05" "ab", 4), &out));  // a key cut short
}

TEST(Words, OnTheWireTemplatesAreNamedByNumber) {
  Catalogue c = Words();
  EXPECT_EQ(c.IdOf("feeds"), 1u);
  EXPECT_EQ(c.IdOf("short"), 4u);
  EXPECT_EQ(c.IdOf("missing"), 0u);
  ASSERT_NE(c.KeyOf(3), nullptr);
  EXPECT_EQ(*c.KeyOf(3), "outer");
  EXPECT_EQ(c.KeyOf(0), nullptr);
  EXPECT_EQ(c.KeyOf(5), nullptr);

  // Nested phrases too; a key the catalogue lacks stays a key (it shows as one).
  v1::Text t = T("outer", T("short", Seat{0}), T("nowhere", 2));
  c.Compact(&t);
  EXPECT_EQ(t.key(), "");
  EXPECT_EQ(t.id(), 3u);
  EXPECT_EQ(t.args(0).text().id(), 4u);
  EXPECT_EQ(t.args(1).text().key(), "nowhere");
  EXPECT_FALSE(t.args(1).text().has_id());
  EXPECT_EQ(c.Render(t, Name), "Ada passes, then [nowhere 2]");
  EXPECT_EQ(c.KeyOfText(t), "outer");
  v1::Text unknown;
  unknown.set_id(99);
  EXPECT_EQ(c.Render(unknown, Name), "[#99]");

  // A table's log, questions and moves all go by number.
  v1::Table table;
  *table.add_log()->mutable_text() = T("short", Seat{1});
  v1::Prompt* p = table.add_prompts();
  *p->mutable_title() = T("cards", 2);
  *p->mutable_detail() = T("short", Seat{0});
  *AddOption(p, "a", T("feeds", Seat{0}, 1, "x"))->mutable_label() = T("feeds", Seat{0}, 1, "x");
  v1::MoveChoice* m = table.add_moves();
  *m->mutable_label() = T("outer", 1, 2);
  *m->mutable_next_label() = T("short", Seat{1});
  *m->add_next()->mutable_label() = T("cards", 3);
  c.Compact(&table);
  EXPECT_EQ(table.log(0).text().id(), 4u);
  EXPECT_EQ(table.prompts(0).title().id(), 2u);
  EXPECT_EQ(table.prompts(0).detail().id(), 4u);
  EXPECT_EQ(table.prompts(0).options(0).label().id(), 1u);
  EXPECT_EQ(table.moves(0).label().id(), 3u);
  EXPECT_EQ(table.moves(0).next_label().id(), 4u);
  EXPECT_EQ(table.moves(0).next(0).label().id(), 2u);
  EXPECT_EQ(table.ShortDebugString().find("key:"), std::string::npos) << table.ShortDebugString();
}

TEST(Words, BadCataloguesAreRefused) {
  EXPECT_FALSE(Catalogue::Parse("t", "templates { key: \"a\" en: \"{x}\" }").ok());
  EXPECT_FALSE(Catalogue::Parse("t", "templates { key: \"a\" en: \"{0|one}\" }").ok());
  EXPECT_FALSE(Catalogue::Parse("t", "templates { key: \"a\" en: \"{0\" }").ok());
  EXPECT_FALSE(
      Catalogue::Parse("t", "templates { key: \"a\" en: \"x\" } templates { key: \"a\" en: \"y\" }")
          .ok());
  EXPECT_FALSE(Catalogue::Parse("t", "templates { key: \"a\" }").ok());
  EXPECT_FALSE(Catalogue::Parse("t", "nonsense").ok());
}

v1::Prompt Choose(int lo, int hi, int n) {
  v1::Prompt p = MakePrompt(0, v1::PROMPT_CHOOSE, T("q"), lo, hi);
  p.set_id("p1");
  for (int i = 0; i < n; ++i) AddOption(&p, "o" + std::to_string(i), T("opt"));
  return p;
}

v1::Answer Picks(std::vector<std::string> ids) {
  v1::Answer a;
  for (auto& id : ids) a.add_options(id);
  return a;
}

TEST(Answers, ChooseChecksIdsCountsAndRepeats) {
  const v1::Prompt p = Choose(1, 2, 3);
  EXPECT_TRUE(CheckAnswer(p, Picks({"o0"})).ok());
  EXPECT_TRUE(CheckAnswer(p, Picks({"o2", "o0"})).ok());
  EXPECT_EQ(CheckAnswer(p, Picks({})).code(), codes::kBadAnswer);
  EXPECT_EQ(CheckAnswer(p, Picks({"o0", "o1", "o2"})).code(), codes::kBadAnswer);
  EXPECT_EQ(CheckAnswer(p, Picks({"o0", "o0"})).code(), codes::kBadAnswer);
  EXPECT_EQ(CheckAnswer(p, Picks({"zz"})).code(), codes::kBadAnswer);
  v1::Answer stale = Picks({"o0"});
  stale.set_prompt_id("p0");
  EXPECT_EQ(CheckAnswer(p, stale).code(), codes::kStalePrompt);
}

TEST(Answers, OrderNumberYesNoText) {
  v1::Prompt order = Choose(0, 0, 3);
  order.set_kind(v1::PROMPT_ORDER);
  EXPECT_TRUE(CheckAnswer(order, Picks({"o2", "o0", "o1"})).ok());
  EXPECT_FALSE(CheckAnswer(order, Picks({"o2", "o0"})).ok());
  EXPECT_FALSE(CheckAnswer(order, Picks({"o2", "o0", "o0"})).ok());

  v1::Prompt number = MakePrompt(0, v1::PROMPT_NUMBER, T("q"), 2, 5);
  v1::Answer a;
  for (int v : {2, 5}) {
    a.set_number(v);
    EXPECT_TRUE(CheckAnswer(number, a).ok());
  }
  for (int v : {1, 6}) {
    a.set_number(v);
    EXPECT_FALSE(CheckAnswer(number, a).ok());
  }

  v1::Prompt text = MakePrompt(0, v1::PROMPT_TEXT, T("q"), 1, 4);
  a.set_text("  ");
  EXPECT_FALSE(CheckAnswer(text, a).ok());
  a.set_text("Lomé");  // four characters, five bytes
  EXPECT_TRUE(CheckAnswer(text, a).ok());
  a.set_text("Paris");
  EXPECT_FALSE(CheckAnswer(text, a).ok());
}

TEST(Answers, EnumerationIsCompleteOrSaysSo) {
  bool complete = false;
  auto all = EnumerateAnswers(Choose(1, 2, 4), 100, &complete);
  EXPECT_TRUE(complete);
  EXPECT_EQ(all.size(), 4u + 6u);
  std::set<std::string> seen;
  for (const auto& a : all) {
    EXPECT_TRUE(CheckAnswer(Choose(1, 2, 4), a).ok());
    std::string key;
    for (const auto& o : a.options()) key += o + ",";
    EXPECT_TRUE(seen.insert(key).second);
  }
  auto capped = EnumerateAnswers(Choose(0, 20, 20), 100, &complete);
  EXPECT_FALSE(complete);
  EXPECT_TRUE(capped.empty());
  v1::Prompt order = Choose(0, 0, 4);
  order.set_kind(v1::PROMPT_ORDER);
  EXPECT_EQ(EnumerateAnswers(order, 100, &complete).size(), 24u);
  EXPECT_TRUE(EnumerateAnswers(MakePrompt(0, v1::PROMPT_TEXT, T("q"), 1, 9), 100, &complete).empty());
  EXPECT_FALSE(complete);
}

TEST(Answers, DrawnAndPlainAnswersAreWellShaped) {
  Rng rng(42);
  std::vector<v1::Prompt> prompts = {Choose(0, 3, 5), Choose(2, 2, 2),
                                     MakePrompt(0, v1::PROMPT_NUMBER, T("q"), -3, 7),
                                     MakePrompt(0, v1::PROMPT_YES_NO, T("q")),
                                     MakePrompt(0, v1::PROMPT_TEXT, T("q"), 1, 100)};
  v1::Prompt order = Choose(0, 0, 6);
  order.set_kind(v1::PROMPT_ORDER);
  prompts.push_back(order);
  for (const auto& p : prompts) {
    EXPECT_TRUE(CheckAnswer(p, PlainAnswer(p)).ok()) << p.DebugString();
    for (int i = 0; i < 50; ++i) EXPECT_TRUE(CheckAnswer(p, DrawAnswer(p, rng)).ok());
  }
}

// A phrase is written as bytes, not built as a message: its bytes must be exactly those the Text
// it stands for serializes to, whatever its arguments (the log stores them; views parse them).
TEST(Phrase, BytesAreTheTextsOwnSerialization) {
  auto arg = [](auto set) {
    v1::Arg a;
    set(&a);
    return a;
  };
  auto text = [](std::string key, std::vector<v1::Arg> args) {
    v1::Text t;
    t.set_key(std::move(key));
    for (auto& a : args) *t.add_args() = std::move(a);
    return t;
  };
  const std::string long_name(300, 'n');  // a length over 127 takes two bytes
  v1::Text nested_text = text("inner.text", {arg([](v1::Arg* a) { a->set_seat(1); })});
  struct Case {
    Phrase phrase;
    v1::Text expected;
  };
  std::vector<Case> cases;
  cases.push_back({T("plain"), text("plain", {})});
  cases.push_back({T(""), text("", {})});
  cases.push_back({T("k", 0, -1, int64_t{1} << 40, 300u),
                   text("k", {arg([](v1::Arg* a) { a->set_number(0); }), arg([](v1::Arg* a) { a->set_number(-1); }),
                              arg([](v1::Arg* a) { a->set_number(int64_t{1} << 40); }),
                              arg([](v1::Arg* a) { a->set_number(300); })})});
  cases.push_back({T("s", Seat{0}, Seat{-1}, Seat{29}),
                   text("s", {arg([](v1::Arg* a) { a->set_seat(0); }), arg([](v1::Arg* a) { a->set_seat(-1); }),
                              arg([](v1::Arg* a) { a->set_seat(29); })})});
  cases.push_back({T("n", "", std::string("Côte d'Ivoire"), std::string_view(long_name)),
                   text("n", {arg([](v1::Arg* a) { a->set_name(""); }),
                              arg([](v1::Arg* a) { a->set_name("Côte d'Ivoire"); }),
                              arg([&](v1::Arg* a) { a->set_name(long_name); })})});
  cases.push_back({T("outer", T("inner", Seat{2}, 7), nested_text),
                   text("outer", {arg([](v1::Arg* a) {
                                    *a->mutable_text() = [] {
                                      v1::Text t;
                                      t.set_key("inner");
                                      t.add_args()->set_seat(2);
                                      t.add_args()->set_number(7);
                                      return t;
                                    }();
                                  }),
                                  arg([&](v1::Arg* a) { *a->mutable_text() = nested_text; })})});
  for (const Case& c : cases) {
    EXPECT_EQ(c.phrase.bytes(), c.expected.SerializeAsString()) << c.expected.DebugString();
    EXPECT_EQ(c.phrase.text().SerializeAsString(), c.expected.SerializeAsString());
    const v1::Text converted = c.phrase;
    EXPECT_EQ(converted.DebugString(), c.expected.DebugString());
  }
  // A phrase longer than the inline room moves to the heap whole and stays the same bytes.
  EXPECT_GT(cases[4].phrase.bytes().size(), 112u);
}

// Logging a phrase and logging the Text it stands for write the same entry.
TEST(Phrase, LoggedAsItsText) {
  v1::TableState by_phrase, by_text;
  const Phrase p = T("globalissimo.revealed", 3, "Chile", T("x", Seat{1}));
  AppendLog(&by_phrase, p, {1}, 10);
  AppendLog(&by_text, p.text(), {1}, 10);
  EXPECT_EQ(by_phrase.SerializeAsString(), by_text.SerializeAsString());
  EXPECT_EQ(LogText(LogAt(by_phrase, 0)).DebugString(), p.text().DebugString());
}

TEST(Log, ReadersAndTrimmingByHalf) {
  v1::TableState t;
  AppendLog(&t, T("a"), {}, 4);
  AppendLog(&t, T("secret"), {1}, 4);
  google::protobuf::RepeatedPtrField<v1::LogEntry> seen0, seen1, spectator;
  LogFor(t, 0, &seen0);
  LogFor(t, 1, &seen1);
  LogFor(t, -1, &spectator);
  EXPECT_EQ(seen0.size(), 1);
  EXPECT_EQ(seen1.size(), 2);
  EXPECT_EQ(spectator.size(), 1);
  // Numbers skip what a viewer cannot read: the gap is the same for every entry kind, and the
  // count of hidden entries is public anyway through the game's own pace.
  for (int i = 0; i < 3; ++i) AppendLog(&t, T("b"), {}, 4);
  EXPECT_EQ(LogSize(t), 3u);  // full at 4: the older half went before the fifth
  EXPECT_EQ(LogAt(t, 0).seq, 2u);
  EXPECT_EQ(t.log_seq(), 5u);
}

// The entries kept in one buffer read back as they were written, across trims: seqs, words and
// readers.
TEST(Log, EntriesReadBackAcrossTrims) {
  v1::TableState t;
  for (int i = 0; i < 11; ++i) {
    const std::vector<int> readers = i % 3 == 0 ? std::vector<int>{} : std::vector<int>{i % 3, 4};
    AppendLog(&t, T("entry" + std::to_string(i) + std::string(static_cast<size_t>(i), 'x')), readers, 6);
  }
  // Full at 6 twice (before the 7th and the 10th entry): entries 6 to 10 remain.
  const std::vector<LogRef> log = LogOf(t);
  ASSERT_EQ(log.size(), 5u);
  for (size_t k = 0; k < log.size(); ++k) {
    const int i = static_cast<int>(k) + 6;
    EXPECT_EQ(log[k].seq, static_cast<uint64_t>(i));
    EXPECT_EQ(LogText(log[k]).key(), "entry" + std::to_string(i) + std::string(static_cast<size_t>(i), 'x'));
    EXPECT_EQ(CanRead(log[k], 4), true);
    EXPECT_EQ(CanRead(log[k], 0), i % 3 == 0);
    EXPECT_EQ(CanRead(log[k], i % 3 == 0 ? 1 : i % 3), true);
    EXPECT_EQ(CanRead(log[k], -1), i % 3 == 0);  // a spectator
  }
  EXPECT_EQ(t.log_ends(4), t.log_texts().size());
}

}  // namespace
}  // namespace plateau::engine
