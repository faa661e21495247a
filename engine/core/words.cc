#include "engine/core/words.h"

#include <cstdint>
#include <vector>

namespace plateau::engine {
namespace {

// Decodes one UTF-8 sequence at text[*i]; malformed bytes decode as themselves so that nothing
// a client sends can make the matcher read out of bounds.
uint32_t NextCodePoint(std::string_view text, size_t* i) {
  const auto b0 = static_cast<unsigned char>(text[*i]);
  const size_t extra = b0 >= 0xF0 ? 3 : b0 >= 0xE0 ? 2 : b0 >= 0xC0 ? 1 : 0;
  if (extra == 0 || *i + extra >= text.size()) {
    ++*i;
    return b0;
  }
  uint32_t cp = b0 & (0x3F >> extra);
  for (size_t k = 1; k <= extra; ++k) {
    const auto b = static_cast<unsigned char>(text[*i + k]);
    if ((b & 0xC0) != 0x80) {
      ++*i;
      return b0;
    }
    cp = (cp << 6) | (b & 0x3F);
  }
  *i += extra + 1;
  return cp;
}

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// Base letters of U+00C0..U+017F (Latin-1 Supplement letters and Latin Extended-A), lower case.
// '*' marks a character handled separately (multi-letter folds); ' ' marks the two signs in the
// range that are not letters (× and ÷).
constexpr std::string_view kLatin1Fold =
    // C0..DF: ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖ×ØÙÚÛÜÝÞß
    "aaaaaa*ceeeeiiiidnooooo ouuuuy**"
    // E0..FF: àáâãäåæçèéêëìíîïðñòóôõö÷øùúûüýþÿ
    "aaaaaa*ceeeeiiiidnooooo ouuuuy*y";
constexpr std::string_view kExtendedAFold =
    // 100..17F: ĀāĂăĄąĆćĈĉĊċČčĎďĐđĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĦħĨĩĪīĬĭĮįİı*
    "aaaaaaccccccccddddeeeeeeeeeegggggggghhhhiiiiiiiiii**jjkkkllllllllllnnnnnnnnnoooooo**rrrrrrssssssssttttttuuuuuuuuuuuuwwyyyzzzzzzs";

// Appends the folded form of `cp` to `out`; anything that is not a letter or digit becomes a
// space so that "Port-au-Prince", "port au prince" and "Port au Prince." compare equal.
void Fold(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    const char c = static_cast<char>(cp);
    if (c >= 'A' && c <= 'Z') {
      out->push_back(static_cast<char>(c - 'A' + 'a'));
    } else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
      out->push_back(c);
    } else {
      out->push_back(' ');
    }
    return;
  }
  if (cp >= 0xC0 && cp <= 0xFF) {
    switch (cp) {
      case 0xC6: case 0xE6: out->append("ae"); return;  // Æ æ
      case 0xDE: case 0xFE: out->append("th"); return;  // Þ þ
      case 0xDF: out->append("ss"); return;             // ß
      default: break;
    }
    out->push_back(kLatin1Fold[cp - 0xC0]);
    return;
  }
  if (cp >= 0x100 && cp <= 0x17F) {
    switch (cp) {
      case 0x132: case 0x133: out->append("ij"); return;  // Ĳ ĳ
      case 0x152: case 0x153: out->append("oe"); return;  // Œ œ
      default: break;
    }
    out->push_back(kExtendedAFold[cp - 0x100]);
    return;
  }
  // Latin-script letters used in capitals beyond Extended-A (Vietnamese, Romanian comma forms).
  if (cp == 0x218 || cp == 0x219) { out->push_back('s'); return; }  // Ș ș
  if (cp == 0x21A || cp == 0x21B) { out->push_back('t'); return; }  // Ț ț
  if (cp >= 0x1EA0 && cp <= 0x1EF9) {
    // Latin Extended Additional vowels with stacked marks: fold by block position.
    static constexpr std::string_view kVietnamese =
        "aaaaaaaaaaaaaaaaaaaaaaaa"   // 1EA0..1EB7
        "eeeeeeeeeeeeeeee"           // 1EB8..1EC7
        "iiii"                       // 1EC8..1ECB
        "oooooooooooooooooooooooo"   // 1ECC..1EE3
        "uuuuuuuuuuuuuu"             // 1EE4..1EF1
        "yyyyyyyy";                  // 1EF2..1EF9
    out->push_back(kVietnamese[cp - 0x1EA0]);
    return;
  }
  // Spacing modifier letters (the okina in Nukuʻalofa, prime marks) act as apostrophes.
  if (cp >= 0x2B0 && cp <= 0x2FF) {
    out->push_back(' ');
    return;
  }
  // Combining diacritical marks (decomposed input) vanish.
  if (cp >= 0x300 && cp <= 0x36F) return;
  // General punctuation (curly quotes, dashes), spaces and the like separate words.
  if ((cp >= 0x2000 && cp <= 0x206F) || cp == 0xA0 || (cp >= 0x80 && cp < 0xC0)) {
    out->push_back(' ');
    return;
  }
  AppendUtf8(cp, out);
}

}  // namespace

std::string NormalizeAnswer(std::string_view text) {
  std::string folded;
  folded.reserve(text.size());
  for (size_t i = 0; i < text.size();) Fold(NextCodePoint(text, &i), &folded);

  std::vector<std::string> words;
  std::string word;
  for (char c : folded) {
    if (c == ' ') {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
    } else {
      word.push_back(c);
    }
  }
  if (!word.empty()) words.push_back(std::move(word));

  // "The Hague", "La Valette", "L'Avana": the article is optional to the player.
  static constexpr std::string_view kArticles[] = {"the", "le", "la", "les", "l", "el"};
  size_t first = 0;
  if (words.size() > 1) {
    for (std::string_view article : kArticles) {
      if (words[0] == article) {
        first = 1;
        break;
      }
    }
  }
  std::string out;
  for (size_t k = first; k < words.size(); ++k) {
    if (!out.empty()) out.push_back(' ');
    out += words[k];
  }
  return out;
}

bool AnswerMatches(std::string_view answer, std::string_view accepted) {
  // Word breaks are ignored too: "St Johns" and "St. John's" or "NDjamena" and "N'Djamena" name
  // the same city, and where people put an apostrophe or hyphen is not geography.
  auto squeeze = [](std::string s) {
    std::erase(s, ' ');
    return s;
  };
  const std::string a = squeeze(NormalizeAnswer(answer));
  return !a.empty() && a == squeeze(NormalizeAnswer(accepted));
}

}  // namespace plateau::engine
