#pragma once
// Matching what people type against names: a capital against its accepted spellings (Globalissimo),
// an answer against a question's options (the terminal client, the rules console). Players type
// on any keyboard, in English or French, so the comparison forgives what a person reading the
// answer aloud would forgive: case, accents, punctuation, spacing and a leading article.
#include <string>
#include <string_view>

namespace plateau::engine {

// Lower-case ASCII form of `text`: Latin letters with diacritics lose them (é -> e, ß -> ss,
// æ -> ae), punctuation and symbols become spaces, runs of spaces collapse, and a leading article
// (the, le, la, les, l', el) is dropped when a word follows it. Characters outside the Latin
// scripts are kept as they are, so non-Latin answers still compare exactly.
std::string NormalizeAnswer(std::string_view text);

// True when `answer` and `accepted` have the same normalized form once the spaces between words
// are dropped too, and that form is not empty.
bool AnswerMatches(std::string_view answer, std::string_view accepted);

}  // namespace plateau::engine
