#pragma once
// Shared by LIMIT's rule files: the names they use and small reads and writes on one nation's
// position.
#include <algorithm>
#include <cstdint>

#include "engine/core/game.h"
#include "engine/games/limit/limit_data.pb.h"
#include "engine/games/limit/limit_state.pb.h"
#include "games/limit.pb.h"

namespace plateau::games::limit {

// The names every rule file uses (this header is private to the game's folder).
namespace ec = engine::codes;
namespace v1 = engine::v1;
using engine::Seat;
using engine::Status;
using engine::T;
using internal::NationState;

// 0, 1, 2 for society, army & economy, production (the order of NationState.decks).
// The social classes' letters, top (A) to bottom (E): answer ids and the words of the log.
constexpr const char* kClassIds[] = {"A", "B", "C", "D", "E"};

// Answer ids of the decks (in NationState.decks' order) and of the factories.
constexpr const char* kDeckIds[] = {"society", "army_economy", "production"};
inline const char* FactoryId(int f) {
  return f == FACTORY_RENEWABLE ? "renewable" : f == FACTORY_INDUSTRIAL ? "industrial" : "military";
}

// A choice a nation makes alone, asked through AskChoice (the shared payment, votes and fees are
// asked of several nations at once; the political and Alliance turns are the game's own moves).
inline bool OwnChoice(int kind) {
  switch (kind) {
    case PROMPT_CHOOSE_DECK: case PROMPT_KEEP_CARDS: case PROMPT_DISCARD: case PROMPT_RESIST:
    case PROMPT_RAISE_CLASS: case PROMPT_LOWER_CLASS: case PROMPT_LOWER_FACTORY:
    case PROMPT_GROWTH_FACTORY: case PROMPT_HELP_REQUEST: case PROMPT_HELP_ANSWER:
    case PROMPT_BREAK_ALLIANCE:
      return true;
    default:
      return false;
  }
}

// Whether class `k` of these standards of living can rise one step: below the top (4) and below
// the class above it.
template <class Levels>
bool ClassCanRise(const Levels& lv, int k) {
  return lv[k] < 4 && (k == 0 || lv[k] < lv[k - 1]);
}

inline int DeckIndex(Deck d) { return static_cast<int>(d) - 1; }

inline bool Contains(const google::protobuf::RepeatedField<uint32_t>& v, uint32_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

inline void Erase(google::protobuf::RepeatedField<uint32_t>* v, uint32_t x) {
  auto it = std::find(v->begin(), v->end(), x);
  if (it != v->end()) v->erase(it);
}

// A card's name in phrases (log, questions, refusals): its English title, like the rest of the
// words; the French name printed on the card stays on the card's face (View.Card.name).
inline const std::string& CardTitle(const data::CardDef& c) {
  return c.name_en().empty() ? c.name() : c.name_en();
}

// The template that writes a card's title (LimitGame adds one per card to the catalogue): where
// a phrase (log, question, move) names a card, its words go by number like any template, not as
// its title spelled out in each.
inline std::string CardNameKey(const data::CardDef& c) { return "limit.card_name." + c.key(); }
inline engine::v1::Text CardName(const data::CardDef& c) {
  engine::v1::Text t;
  t.set_key(CardNameKey(c));
  return t;
}

inline bool ValidResource(Resource r) { return r >= RESOURCE_RENEWABLE && r <= RESOURCE_FOSSIL; }

inline uint32_t Stock(const internal::NationState& n, Resource r) {
  switch (r) {
    case RESOURCE_RENEWABLE: return n.renewable();
    case RESOURCE_INDUSTRIAL: return n.industrial();
    case RESOURCE_MILITARY: return n.military();
    default: return n.fossil();
  }
}

inline void SetStock(internal::NationState& n, Resource r, uint32_t v) {
  switch (r) {
    case RESOURCE_RENEWABLE: n.set_renewable(v); break;
    case RESOURCE_INDUSTRIAL: n.set_industrial(v); break;
    case RESOURCE_MILITARY: n.set_military(v); break;
    default: n.set_fossil(v); break;
  }
}

inline uint32_t FactoryRank(const internal::NationState& n, Factory f) {
  switch (f) {
    case FACTORY_RENEWABLE: return n.renewable_rank();
    case FACTORY_INDUSTRIAL: return n.industrial_rank();
    default: return n.military_rank();
  }
}

inline void SetFactoryRank(internal::NationState& n, Factory f, uint32_t r) {
  switch (f) {
    case FACTORY_RENEWABLE: n.set_renewable_rank(r); break;
    case FACTORY_INDUSTRIAL: n.set_industrial_rank(r); break;
    default: n.set_military_rank(r); break;
  }
}

}  // namespace plateau::games::limit
