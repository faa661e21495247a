// Questions as a terminal asks them (Game::PromptText) and answers typed by people
// (Game::AnswerFromWords): by number in the listed order, by name, several at once, numbers,
// yes or no, text; every mistake refused with words that say what to type instead.
#include <gtest/gtest.h>

#include "engine/core/game.h"
#include "engine/core/table.h"

namespace plateau::engine {
namespace {

class WordsGame : public Game {
 public:
  WordsGame() {
    v1::TextCatalogue texts;
    for (auto [key, en] : {std::pair{"t.q", "Where to?"}, {"t.paris", "Paris"}, {"t.parma", "Parma"},
                           {"t.lyon", "Lyon"}, {"t.sao", "São Paulo"}, {"t.seat", "Help {0}"}}) {
      auto* t = texts.add_templates();
      t->set_key(key);
      t->set_en(en);
    }
    SetTexts(texts);
  }
  const GameInfo& Info() const override {
    static const GameInfo info{"words_test", "Words", 1, 2};
    return info;
  }
  const Message& OptionsPrototype() const override { return v1::Answer::default_instance(); }
  const Message& ActionPrototype() const override { return v1::Answer::default_instance(); }
  const Message& ViewPrototype() const override { return v1::Answer::default_instance(); }
  std::unique_ptr<State> NewInitialState(int, const Message&, uint64_t) const override { return nullptr; }
  StatusOr<std::unique_ptr<State>> Deserialize(std::string_view) const override {
    return Status("unsupported", "not needed here");
  }
};

std::string Name(int seat) { return seat == 1 ? "Bob" : "seat " + std::to_string(seat + 1); }

v1::Prompt Cities(int64_t min = 1, int64_t max = 1) {
  v1::Prompt p = MakePrompt(0, v1::PROMPT_CHOOSE, T("t.q"), min, max);
  p.set_id("p0.1");
  AddOption(&p, "c1", T("t.paris"));
  AddOption(&p, "c2", T("t.parma"));
  AddOption(&p, "c3", T("t.lyon"));
  AddOption(&p, "c4", T("t.sao"));
  AddOption(&p, "c5", T("t.seat", Seat{1}));
  return p;
}

std::string Chosen(const StatusOr<v1::Answer>& a) {
  if (!a.ok()) return "refused: " + a.status().reason();
  std::string out;
  for (const auto& o : a.value().options()) out += (out.empty() ? "" : ",") + o;
  return out;
}

TEST(AnswerWords, ListsOptionsNumberedFromOne) {
  WordsGame g;
  EXPECT_EQ(g.PromptText(Cities(), Name),
            "Asked of you: Where to?\n  1. Paris\n  2. Parma\n  3. Lyon\n  4. São Paulo\n"
            "  5. Help Bob\n  Answer: a number or a name.\n");
  EXPECT_NE(g.PromptText(Cities(1, 3), Name).find("Answer: 1 to 3 of them, by number or name"),
            std::string::npos);
}

TEST(AnswerWords, ByNumberNameIdOrUniqueBeginning) {
  WordsGame g;
  const v1::Prompt p = Cities();
  EXPECT_EQ(Chosen(g.AnswerFromWords(p, " 3 ", Name)), "c3");
  EXPECT_EQ(Chosen(g.AnswerFromWords(p, "paris", Name)), "c1");
  EXPECT_EQ(Chosen(g.AnswerFromWords(p, "sao paulo", Name)), "c4");  // accents forgiven
  EXPECT_EQ(Chosen(g.AnswerFromWords(p, "c2", Name)), "c2");
  EXPECT_EQ(Chosen(g.AnswerFromWords(p, "ly", Name)), "c3");
  EXPECT_EQ(Chosen(g.AnswerFromWords(p, "help bob", Name)), "c5");  // seats named as shown
  EXPECT_EQ(g.AnswerFromWords(p, "3", Name).value().prompt_id(), "p0.1");
}

TEST(AnswerWords, MistakesAreRefusedWithWhatToDoInstead) {
  WordsGame g;
  const v1::Prompt p = Cities();
  EXPECT_EQ(Chosen(g.AnswerFromWords(p, "par", Name)), "refused: 'par' could be Paris, Parma: say which.");
  EXPECT_EQ(Chosen(g.AnswerFromWords(p, "6", Name)),
            "refused: There is no option 6: the options go from 1 to 5.");
  EXPECT_EQ(Chosen(g.AnswerFromWords(p, "0", Name)),
            "refused: There is no option 0: the options go from 1 to 5.");
  EXPECT_EQ(Chosen(g.AnswerFromWords(p, "Rome", Name)), "refused: No option is called 'Rome'.");
  EXPECT_EQ(g.AnswerFromWords(p, "", Name).status().code(), codes::kBadAnswer);
  // One option asked for, two given: the core's own check of the answer's shape.
  EXPECT_EQ(g.AnswerFromWords(p, "1, 2", Name).status().code(), codes::kBadAnswer);
}

TEST(AnswerWords, SeveralSeparatedByCommas) {
  WordsGame g;
  EXPECT_EQ(Chosen(g.AnswerFromWords(Cities(1, 3), "lyon, 1", Name)), "c3,c1");
  v1::Prompt order = Cities();
  order.set_kind(v1::PROMPT_ORDER);
  EXPECT_EQ(Chosen(g.AnswerFromWords(order, "5,4,3,2,1", Name)), "c5,c4,c3,c2,c1");
  EXPECT_EQ(g.AnswerFromWords(order, "1,2", Name).status().code(), codes::kBadAnswer);
}

TEST(AnswerWords, NumbersYesNoAndText) {
  WordsGame g;
  v1::Prompt n = MakePrompt(0, v1::PROMPT_NUMBER, T("t.q"), 2, 5);
  EXPECT_EQ(g.AnswerFromWords(n, "4", Name).value().number(), 4);
  EXPECT_EQ(g.AnswerFromWords(n, "9", Name).status().code(), codes::kBadAnswer);
  EXPECT_EQ(g.AnswerFromWords(n, "four", Name).status().reason(),
            "Answer with a whole number from 2 to 5.");
  v1::Prompt yn = MakePrompt(0, v1::PROMPT_YES_NO, T("t.q"));
  EXPECT_TRUE(g.AnswerFromWords(yn, "Yes", Name).value().yes());
  EXPECT_FALSE(g.AnswerFromWords(yn, "n", Name).value().yes());
  EXPECT_EQ(g.AnswerFromWords(yn, "maybe", Name).status().reason(), "Answer yes or no.");
  v1::Prompt text = MakePrompt(0, v1::PROMPT_TEXT, T("t.q"), 1, 10);
  EXPECT_EQ(g.AnswerFromWords(text, "  Bogotá ", Name).value().text(), "Bogotá");
  EXPECT_EQ(g.AnswerFromWords(text, "far too long a name", Name).status().code(), codes::kBadAnswer);
}

TEST(AnswerWords, LongListsAreAnsweredByNameNotNumber) {
  WordsGame g;
  v1::Prompt p = MakePrompt(0, v1::PROMPT_CHOOSE, T("t.q"));
  for (int i = 0; i < 60; ++i) AddOption(&p, std::to_string(100 + i), T("t.lyon"));
  AddOption(&p, "250", T("t.paris"));
  const std::string text = g.PromptText(p, Name);
  EXPECT_EQ(text.find("1. "), std::string::npos) << text;
  EXPECT_NE(text.find("one of 61, by name"), std::string::npos) << text;
  // A number is then an id, not a place in a list nobody was shown.
  EXPECT_EQ(Chosen(g.AnswerFromWords(p, "250", Name)), "250");
  EXPECT_EQ(Chosen(g.AnswerFromWords(p, "paris", Name)), "250");
}

// A long list of map regions (unnamed: naming them would answer) asks for the map number, and
// says the terminal client takes the place itself.
TEST(AnswerWords, MapRegionsAskForTheMapNumber) {
  WordsGame g;
  v1::Prompt p = MakePrompt(0, v1::PROMPT_CHOOSE, T("t.q"));
  for (int i = 0; i < 60; ++i) AddOption(&p, std::to_string(100 + i), T("t.lyon"))->mutable_target()->set_region(std::to_string(100 + i));
  const std::string text = g.PromptText(p, Name);
  EXPECT_NE(text.find("its map number"), std::string::npos) << text;
  EXPECT_NE(text.find("latitude and a longitude"), std::string::npos) << text;
  EXPECT_EQ(Chosen(g.AnswerFromWords(p, "104", Name)), "104");
}

}  // namespace
}  // namespace plateau::engine
