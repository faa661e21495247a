// Typed answers (Globalissimo's RULES.md, "Decisions: answer matching", and the terminal's
// answers by name).
#include "engine/core/words.h"

#include <gtest/gtest.h>

namespace plateau::engine {
namespace {

TEST(AnswerMatch, IgnoresCaseAccentsAndSpacing) {
  EXPECT_EQ(NormalizeAnswer("  BOGOTÁ  "), "bogota");
  EXPECT_TRUE(AnswerMatches("bogota", "Bogotá"));
  EXPECT_TRUE(AnswerMatches("Reykjavik", "Reykjavík"));
  EXPECT_TRUE(AnswerMatches("sao   tome", "São Tomé"));
  EXPECT_TRUE(AnswerMatches("Nuku\xCA\xBB" "alofa", "Nuku'alofa"));  // modifier letter vs quote
}

TEST(AnswerMatch, IgnoresPunctuation) {
  EXPECT_TRUE(AnswerMatches("port au prince", "Port-au-Prince"));
  EXPECT_TRUE(AnswerMatches("St. John's", "St Johns"));
  EXPECT_TRUE(AnswerMatches("Washington, D.C.", "washington d c"));
}

TEST(AnswerMatch, FoldsLigaturesAndDecomposedAccents) {
  EXPECT_EQ(NormalizeAnswer("Æ ß Œ"), "ae ss oe");
  EXPECT_TRUE(AnswerMatches("Bogota\xCC\x81", "Bogotá"));  // a + combining acute accent
  EXPECT_TRUE(AnswerMatches("Bucuresti", "București"));
  EXPECT_TRUE(AnswerMatches("Ha Noi", "Hà Nội"));
}

TEST(AnswerMatch, LeadingArticleIsOptional) {
  EXPECT_TRUE(AnswerMatches("Hague", "The Hague"));
  EXPECT_TRUE(AnswerMatches("the hague", "The Hague"));
  EXPECT_TRUE(AnswerMatches("Caire", "Le Caire"));
  EXPECT_TRUE(AnswerMatches("La Paz", "La Paz"));
  // An article alone is not an answer, and is kept when it is the whole text.
  EXPECT_EQ(NormalizeAnswer("La"), "la");
}

TEST(AnswerMatch, DifferentNamesDoNotMatch) {
  EXPECT_FALSE(AnswerMatches("Lyon", "Paris"));
  EXPECT_FALSE(AnswerMatches("Paris", "Parish"));
  EXPECT_FALSE(AnswerMatches("", ""));
  EXPECT_FALSE(AnswerMatches("...", "..."));
  EXPECT_FALSE(AnswerMatches("Sydney", "Canberra"));
}

TEST(AnswerMatch, NonLatinScriptIsComparedAsTyped) {
  EXPECT_TRUE(AnswerMatches("東京", "東京"));
  EXPECT_FALSE(AnswerMatches("東京", "北京"));
}

TEST(AnswerMatch, MalformedUtf8DoesNotCrash) {
  EXPECT_FALSE(NormalizeAnswer("\xC3").empty());
  EXPECT_FALSE(AnswerMatches("\xE2\x82", "Paris"));
}

}  // namespace
}  // namespace plateau::engine
