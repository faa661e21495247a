#include "engine/games/globalissimo/globalissimo.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "engine/core/data.h"
#include "engine/core/registry.h"
#include "engine/core/rng.h"
#include "engine/core/words.h"

namespace plateau::games::globalissimo {

using engine::Seat;
using engine::Status;
using engine::T;
using engine::StatusOr;
namespace ec = engine::codes;

namespace {

bool IsThreeDigits(std::string_view s) {
  return s.size() == 3 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Number of code points of valid UTF-8 `text`, or -1 when it is not valid UTF-8.
int Utf8Length(std::string_view text) {
  int count = 0;
  for (size_t i = 0; i < text.size();) {
    const auto b = static_cast<unsigned char>(text[i]);
    size_t len = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
    if (len == 0 || i + len > text.size()) return -1;
    for (size_t k = 1; k < len; ++k) {
      if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return -1;
    }
    i += len;
    ++count;
  }
  return count;
}

Status BadCards(const std::string& what) {
  return Status(ec::kBadData, "data file countries.textproto: " + what);
}
Status BadBoard(const std::string& what) {
  return Status(ec::kBadData, "data file board.textproto: " + what);
}

Status CheckCards(const data::CardSet& cards) {
  if (cards.categories_size() != static_cast<int>(kBookRounds)) {
    return BadCards("expected exactly " + std::to_string(kBookRounds) + " categories, found " +
                    std::to_string(cards.categories_size()) + ".");
  }
  std::set<std::string> ids;
  for (int i = 0; i < cards.categories_size(); ++i) {
    const auto& c = cards.categories(i);
    const std::string where = "category #" + std::to_string(i + 1);
    if (c.id().empty()) return BadCards(where + " has no id.");
    if (c.name().empty()) return BadCards(where + " ('" + c.id() + "') has no name.");
    if (!ids.insert(c.id()).second) return BadCards("category id '" + c.id() + "' is used twice.");
    if (c.decimals() > 6) {
      return BadCards("category '" + c.id() + "' asks for " + std::to_string(c.decimals()) +
                      " decimals; at most 6 are shown.");
    }
  }
  if (cards.countries_size() != 100) {
    return BadCards("expected exactly 100 countries, found " +
                    std::to_string(cards.countries_size()) + ".");
  }
  ids.clear();
  std::set<std::string> map_ids;
  for (int i = 0; i < cards.countries_size(); ++i) {
    const auto& c = cards.countries(i);
    const std::string where = "country #" + std::to_string(i + 1) +
                              (c.id().empty() ? std::string() : " ('" + c.id() + "')");
    if (c.id().empty()) return BadCards(where + " has no id.");
    if (!ids.insert(c.id()).second) return BadCards("country id '" + c.id() + "' is used twice.");
    if (c.name().empty()) return BadCards(where + " has no name.");
    if (!IsThreeDigits(c.map_id())) {
      return BadCards(where + " has map_id '" + c.map_id() + "'; expected three digits.");
    }
    if (!map_ids.insert(c.map_id()).second) {
      return BadCards("map_id '" + c.map_id() + "' is used twice (" + where + ").");
    }
    if (c.capitals_size() == 0) return BadCards(where + " has no capital.");
    for (const auto& capital : c.capitals()) {
      if (engine::NormalizeAnswer(capital).empty()) {
        return BadCards(where + " has a capital with no letters ('" + capital + "').");
      }
    }
    if (c.values_size() != cards.categories_size()) {
      return BadCards(where + " has " + std::to_string(c.values_size()) +
                      " values; expected one per category (" +
                      std::to_string(cards.categories_size()) + ").");
    }
    for (int k = 0; k < c.values_size(); ++k) {
      if (!std::isfinite(c.values(k))) {
        return BadCards(where + " has a value that is not a finite number for category '" +
                        cards.categories(k).id() + "'.");
      }
    }
  }
  return Status::Ok();
}

Status CheckBoard(const data::BoardDef& board) {
  if (board.score_squares() == 0) return BadBoard("the track has no score squares.");
  if (board.score_squares() > 1000) return BadBoard("the track has more than 1000 score squares.");
  const uint64_t colours = uint64_t{board.orange_barriers()} + board.violet_barriers();
  if (colours != static_cast<uint64_t>(board.barrier_after_size())) {
    return BadBoard("there are " + std::to_string(board.barrier_after_size()) +
                    " barrier slots but " + std::to_string(colours) +
                    " barriers (orange + violet).");
  }
  for (int i = 0; i < board.barrier_after_size(); ++i) {
    const uint32_t after = board.barrier_after(i);
    if (after >= board.score_squares()) {
      return BadBoard("barrier slot #" + std::to_string(i + 1) + " sits after score square " +
                      std::to_string(after) + ", but a barrier needs a score square after it (the "
                      "track has " + std::to_string(board.score_squares()) + ").");
    }
    if (i > 0 && after <= board.barrier_after(i - 1)) {
      return BadBoard("barrier slots must be listed in track order, one per gap; slot #" +
                      std::to_string(i + 1) + " is not after slot #" + std::to_string(i) + ".");
    }
  }
  return Status::Ok();
}

// ----- Terminal rendering -----

std::string Barrier(BarrierColor c) {
  return c == BARRIER_ORANGE ? "orange" : c == BARRIER_VIOLET ? "violet" : "none";
}

// The static data's entry with `id` (a terminal shows few of them: a scan will do).
template <typename Entry>
const Entry* Find(const google::protobuf::RepeatedPtrField<Entry>& entries, const std::string& id) {
  for (const Entry& e : entries)
    if (e.id() == id) return &e;
  return nullptr;
}

std::string Face(const StaticData& data, const std::string& id) {
  const CountryFace* face = Find(data.countries(), id);
  return face ? face->flag() + " " + face->name() : id;
}

std::string SlotLine(int index, const DisplaySlot& slot, const StaticData& data,
                     const engine::Game::SeatNamer& name) {
  const CountryCard& card = slot.card();
  std::string line = "  [" + std::to_string(index) + "] " + Face(data, card.id());
  if (card.revealed()) {
    line += "  #" + std::to_string(card.position()) + " " + card.value_text();
  }
  if (slot.tile_seat() < 0) return line + "  (free)";
  line += "  " + name(slot.tile_seat()) + " guessed #" + std::to_string(slot.tile_position());
  if (slot.points() >= 0) line += ": " + std::to_string(slot.points()) + " pts";
  return line;
}

std::string CategoryLine(const StaticData& data, const std::string& id) {
  const Category* c = Find(data.categories(), id);
  return c ? c->name() + " (" + c->unit() + ")" : id;
}

std::string ViewLines(const View& v, const StaticData& data, const engine::Game::SeatNamer& name) {
  static const char* kPhase[] = {"?", "placement", "question", "game over"};
  const int phase = v.phase() >= 0 && v.phase() <= 3 ? v.phase() : 0;
  std::string out = "Round " + std::to_string(std::min(v.round(), v.total_rounds())) + "/" +
                    std::to_string(v.total_rounds()) + " - ";
  // After the last round there is no current category; the last one is shown below.
  if (!v.category_id().empty()) out += CategoryLine(data, v.category_id()) + " - ";
  out += kPhase[phase];
  if (v.to_act() >= 0) out += " - to act: " + name(v.to_act());
  out += "\n";
  if (v.phase() == PHASE_PLACEMENT) {
    out += "Cards (act place { slot: S position: P }, P from 1 = highest to " +
           std::to_string(v.max_position()) + "):\n";
  } else if (v.display_size() > 0) {
    out += "Cards:\n";
  }
  for (int i = 0; i < v.display_size(); ++i) out += SlotLine(i, v.display(i), data, name) + "\n";
  out += "Players:\n";
  for (const Player& p : v.players()) {
    out += "  " + name(static_cast<int>(p.seat())) + ": " +
           std::to_string(p.distance()) + " squares, barriers " +
           std::to_string(p.orange_barriers()) + " orange / " + std::to_string(p.violet_barriers()) +
           " violet";
    if (p.placed_slot() >= 0) out += ", tile on [" + std::to_string(p.placed_slot()) + "]";
    if (p.last_round_points() >= 0) out += ", last round +" + std::to_string(p.last_round_points());
    if (static_cast<int>(p.seat()) < v.final_ranks_size()) {
      out += ", rank " + std::to_string(v.final_ranks(static_cast<int>(p.seat())));
    }
    out += "\n";
  }
  if (v.phase() == PHASE_QUESTION) {
    const Question& q = v.question();
    out += "Question (" + Barrier(q.kind()) + " barrier) for " +
           name(static_cast<int>(q.seat())) + ": " +
           (q.kind() == BARRIER_ORANGE ? "the capital of " : "where on the map is ") +
           Face(data, q.country_id()) + "?\n";
    if (q.wrong_answers_size() > 0) {
      out += "  wrong so far:";
      for (const std::string& w : q.wrong_answers()) out += " " + w;
      out += "\n";
    }
  }
  for (const SettledQuestion& q : v.settled()) {
    out += "Answer shown: " + Face(data, q.country_id()) + " - " +
           (q.kind() == BARRIER_ORANGE ? "capital " + q.capital() : "map region " + q.map_id()) +
           (q.answered_by() >= 0 ? ", found by " + name(q.answered_by()) : ", found by nobody") +
           " (round " + std::to_string(q.round()) + ")\n";
  }
  if (v.has_last_round() && v.phase() != PHASE_QUESTION) {
    out += "Last round, " + CategoryLine(data, v.last_round().category_id()) + ":\n";
    for (int i = 0; i < v.last_round().display_size(); ++i) {
      out += SlotLine(i, v.last_round().display(i), data, name) + "\n";
    }
  }
  return out;
}

}  // namespace

std::string FormatValue(double value, uint32_t decimals, std::string_view unit) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", static_cast<int>(decimals), std::fabs(value));
  std::string digits(buf);
  const size_t point = digits.find('.');
  std::string integer = digits.substr(0, point);
  const std::string fraction = point == std::string::npos ? "" : digits.substr(point);
  std::string grouped;
  for (size_t i = 0; i < integer.size(); ++i) {
    if (i > 0 && (integer.size() - i) % 3 == 0) grouped.push_back(',');
    grouped.push_back(integer[i]);
  }
  // A value that rounds to zero is shown without a minus sign.
  const bool negative = value < 0 && std::any_of(digits.begin(), digits.end(),
                                                 [](char c) { return c >= '1' && c <= '9'; });
  std::string out = negative ? "-" : "";
  out += grouped;
  out += fraction;
  if (!unit.empty()) {
    if (unit != "%") out.push_back(' ');
    out.append(unit);
  }
  return out;
}

// ----- Game -----

namespace {

// The book's ten rounds, and a short game (rounds are the only option).
std::vector<std::string> GlobalissimoOptionVariants() {
  Options shorter;
  shorter.set_rounds(2);
  return {"", shorter.SerializeAsString()};
}

}  // namespace

GlobalissimoGame::GlobalissimoGame(data::CardSet cards, data::BoardDef board)
    : TypedGame({"globalissimo", "Globalissimo", 2, 6, GlobalissimoOptionVariants(),
      // Timers: placing a card takes seconds; a map question a little looking.
                 {{"Casual", 60, 0, 0}, {"Clocked", 0, 300, 10}},
      // The normal bot looks one round ahead: the tiles, the reveal and the barrier questions.
                 6}),
      cards_(std::move(cards)),
      board_(std::move(board)) {
  track_.push_back({-1, 0});  // start square
  int next_barrier = 0;
  for (uint32_t d = 1; d <= board_.score_squares(); ++d) {
    while (next_barrier < board_.barrier_after_size() &&
           board_.barrier_after(next_barrier) == d - 1) {
      track_.push_back({next_barrier, d - 1});
      ++next_barrier;
    }
    track_.push_back({-1, d});
  }
  map_regions_.assign(board_.map_regions().begin(), board_.map_regions().end());
  if (map_regions_.empty()) {
    for (const auto& c : cards_.countries()) map_regions_.push_back(c.map_id());
    // In map order, not the box's: the static data lists faces in the box's order, and two
    // lists in one order would pair each face with its map id.
    std::sort(map_regions_.begin(), map_regions_.end());
  }
  // Every region of the map, labelled by its map number only: naming them would answer. A
  // fixed set, sent once per game: the question names it instead of carrying 174 options in
  // the scorer's view, every Diff that asks it, and each validation of an answer.
  engine::v1::Prompt options;
  for (const auto& region : map_regions_) {
    engine::AddOption(&options, region, T("globalissimo.map_region", region))
        ->mutable_target()
        ->set_region(region);
  }
  engine::v1::OptionSet map;
  map.set_id(kMapOptionSet);
  *map.mutable_options() = std::move(*options.mutable_options());
  AddOptionSet(std::move(map));
  // What the views would otherwise repeat in every Diff: what each category is, the faces of the
  // cards and the track's layout (its barriers' colours are drawn per game: they stay in the
  // view). Never a value, a capital or a map id: those answer questions.
  auto data = std::make_unique<globalissimo::StaticData>();
  for (const auto& def : cards_.categories()) {
    Category* c = data->add_categories();
    c->set_id(def.id());
    c->set_name(def.name());
    c->set_unit(def.unit());
    c->set_description(def.description());
    c->set_source(def.year() ? def.source() + " (" + std::to_string(def.year()) + ")"
                             : def.source());
  }
  for (const auto& def : cards_.countries()) {
    CountryFace* face = data->add_countries();
    face->set_id(def.id());
    face->set_name(def.name());
    face->set_flag(def.flag());
  }
  for (const TrackCell& cell : track_) {
    TrackSquare* square = data->add_track();
    square->set_distance(cell.distance);
    square->set_barrier(cell.barrier);
  }
  SetStaticData(std::move(data));
  value_texts_.reserve(static_cast<size_t>(cards_.countries_size() * cards_.categories_size()));
  for (const auto& country : cards_.countries()) {
    for (int c = 0; c < cards_.categories_size(); ++c) {
      const auto& category = cards_.categories(c);
      value_texts_.push_back(FormatValue(country.values(c), category.decimals(), category.unit()));
    }
  }
}

StatusOr<std::unique_ptr<GlobalissimoGame>> GlobalissimoGame::FromData(
    std::string_view cards_text, std::string_view board_text, std::string_view texts_text) {
  data::CardSet cards;
  Status st = engine::ParseDataFile("countries.textproto", cards_text, &cards);
  if (!st.ok()) return st;
  st = CheckCards(cards);
  if (!st.ok()) return st;
  data::BoardDef board;
  st = engine::ParseDataFile("board.textproto", board_text, &board);
  if (!st.ok()) return st;
  st = CheckBoard(board);
  if (!st.ok()) return st;
  std::set<std::string> regions(board.map_regions().begin(), board.map_regions().end());
  if (regions.size() != static_cast<size_t>(board.map_regions_size()))
    return BadBoard("a map region is listed twice.");
  for (const auto& c : cards.countries()) {
    if (!regions.empty() && regions.count(c.map_id()) == 0)
      return BadBoard(c.name() + "'s map id " + c.map_id() + " is not a region of the map.");
  }
  auto texts = engine::Catalogue::Parse("texts.textproto", texts_text);
  if (!texts.ok()) return texts.status();
  auto game = std::unique_ptr<GlobalissimoGame>(
      new GlobalissimoGame(std::move(cards), std::move(board)));
  game->SetTexts(texts.value());
  return game;
}

Status GlobalissimoGame::ValidateTypedOptions(int num_seats, const Options& o) const {
  if (o.rounds() > kBookRounds) {
    return Status(ec::kBadOptions, "A game has at most " + std::to_string(kBookRounds) +
                                       " rounds (one per category), not " +
                                       std::to_string(o.rounds()) + ".");
  }
  return Status::Ok();
}

std::unique_ptr<engine::State> GlobalissimoGame::NewTypedState(int num_seats, const Options& o,
                                                               uint64_t seed) const {
  internal::StateProto s;
  s.set_num_seats(static_cast<uint32_t>(num_seats));
  auto state = std::make_unique<GlobalissimoState>(this, std::move(s));
  state->Setup(o.rounds() == 0 ? kBookRounds : o.rounds(), seed);
  return state;
}

StatusOr<std::unique_ptr<engine::State>> GlobalissimoGame::Deserialize(
    std::string_view bytes) const {
  internal::StateProto s;
  if (!s.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return Status(ec::kMalformed, "The bytes are not a Globalissimo position.");
  }
  return FromProto(s);
}

StatusOr<std::unique_ptr<engine::State>> GlobalissimoGame::FromProto(
    const internal::StateProto& position) const {
  std::string problem = CheckPosition(position);
  if (!problem.empty()) {
    return Status(ec::kMalformed, "Not a consistent Globalissimo position: " + problem);
  }
  return std::unique_ptr<engine::State>(std::make_unique<GlobalissimoState>(this, position));
}

std::string GlobalissimoGame::CheckPosition(const internal::StateProto& s) const {
  const uint32_t n = s.num_seats();
  if (n < 2 || n > 6) return "the number of seats must be 2 to 6.";
  if (s.total_rounds() < 1 || s.total_rounds() > kBookRounds) return "total_rounds out of range.";
  if (s.round() < 1 || s.round() > s.total_rounds() + 1) return "round out of range.";
  const bool over = s.phase() == PHASE_GAME_OVER;
  if (over != (s.round() == s.total_rounds() + 1)) return "phase and round disagree.";
  if (s.phase() != PHASE_PLACEMENT && s.phase() != PHASE_QUESTION && !over) return "bad phase.";
  if (s.first_player() >= n) return "first_player out of range.";
  if (s.seats_size() != static_cast<int>(n)) return "one seat record per seat is needed.";
  std::vector<uint32_t> categories(s.category_order().begin(), s.category_order().end());
  std::sort(categories.begin(), categories.end());
  for (uint32_t i = 0; i < categories.size(); ++i) {
    if (categories.size() != static_cast<size_t>(cards_.categories_size()) || categories[i] != i) {
      return "category_order must order every category once.";
    }
  }
  const int shown = over ? 0 : CardsOnDisplay(static_cast<int>(n));
  if (s.display_size() != shown) return "wrong number of cards on display.";
  std::vector<int> seen(cards_.countries_size(), 0);
  auto count = [&](uint32_t card) {
    if (card >= seen.size()) return false;
    ++seen[card];
    return true;
  };
  for (uint32_t c : s.deck()) if (!count(c)) return "deck card out of range.";
  for (uint32_t c : s.discard()) if (!count(c)) return "discard card out of range.";
  uint32_t tiles = 0;
  for (int i = 0; i < s.display_size(); ++i) {
    const auto& slot = s.display(i);
    if (!count(slot.card())) return "display card out of range.";
    if (slot.tile_seat() >= static_cast<int>(n) || slot.tile_seat() < -1) return "bad tile seat.";
    if (slot.tile_seat() >= 0) {
      ++tiles;
      if (slot.tile_position() < 1 || slot.tile_position() > static_cast<uint32_t>(shown)) {
        return "bad tile position.";
      }
      if (s.seats(slot.tile_seat()).placed_slot() != i) {
        return "a tile and its seat's placed_slot disagree.";
      }
    }
  }
  if (s.phase() == PHASE_PLACEMENT && tiles != s.tiles_placed()) return "tiles_placed is wrong.";
  if (s.phase() == PHASE_QUESTION && tiles != n) return "a question comes after every tile.";
  for (int i = 0; i < s.seats_size(); ++i) {
    const auto& seat = s.seats(i);
    if (seat.square() >= track_.size()) return "a pawn is off the track.";
    if (track_[seat.square()].barrier >= 0) return "a pawn stands on a barrier square.";
    if (seat.placed_slot() < -1 || seat.placed_slot() >= shown) return "bad placed_slot.";
    if (seat.placed_slot() >= 0 && s.display(seat.placed_slot()).tile_seat() != i) {
      return "a seat's placed_slot has no tile of its own.";
    }
    if (seat.distance() != track_[seat.square()].distance) return "distance and square disagree.";
  }
  if (s.barriers_size() != board_.barrier_after_size()) return "one barrier record per slot.";
  for (int b = 0; b < s.barriers_size(); ++b) {
    const auto& barrier = s.barriers(b);
    if (barrier.square() >= track_.size() || track_[barrier.square()].barrier != b) {
      return "barrier square mismatch.";
    }
    if (barrier.color() != BARRIER_ORANGE && barrier.color() != BARRIER_VIOLET) {
      return "bad barrier colour.";
    }
    if (barrier.present() != (barrier.taken_by() == -1)) return "barrier ownership mismatch.";
    if (barrier.taken_by() < -1 || barrier.taken_by() >= static_cast<int>(n)) {
      return "bad barrier owner.";
    }
    if (barrier.question_card() >= 0 && !count(static_cast<uint32_t>(barrier.question_card()))) {
      return "question card out of range.";
    }
    if (barrier.question_card() >= 0 && !barrier.present()) return "question on a taken barrier.";
  }
  for (int v : seen) {
    if (v != 1) return "every country card must be in exactly one place.";
  }
  if (s.phase() == PHASE_QUESTION) {
    if (s.question_barrier() < 0 || s.question_barrier() >= s.barriers_size()) {
      return "a question needs its barrier.";
    }
    const auto& barrier = s.barriers(s.question_barrier());
    if (!barrier.present() || barrier.question_card() < 0) return "the question has no card.";
    if (s.scored() >= n || !s.moving()) return "no seat is moving.";
  } else if (s.question_barrier() != -1) {
    return "question_barrier set outside a question.";
  }
  for (int i = 0; i < s.last_round().display_size(); ++i) {
    if (s.last_round().display(i).card() >= seen.size()) return "last_round card out of range.";
  }
  if (s.last_round().category() >= categories.size()) return "last_round category out of range.";
  return "";
}

// ----- State -----

GlobalissimoState::GlobalissimoState(const GlobalissimoGame* game, internal::StateProto position)
    : TypedState(game, static_cast<int>(position.num_seats()), /*splits=*/true), game_(game) {
  s_ = std::move(position);
}

void GlobalissimoState::Setup(uint32_t total_rounds, uint64_t seed) {
  engine::Rng rng(seed);
  s_.set_total_rounds(total_rounds);
  for (int i = 0; i < g().cards().categories_size(); ++i) s_.add_category_order(i);
  rng.ShuffleRepeated(s_.mutable_category_order());
  for (int i = 0; i < g().cards().countries_size(); ++i) s_.add_deck(i);
  rng.ShuffleRepeated(s_.mutable_deck());

  std::vector<BarrierColor> colours(g().board().orange_barriers(), BARRIER_ORANGE);
  colours.insert(colours.end(), g().board().violet_barriers(), BARRIER_VIOLET);
  rng.Shuffle(colours);
  for (uint32_t square = 0; square < g().track().size(); ++square) {
    const int b = g().track()[square].barrier;
    if (b < 0) continue;
    auto* barrier = s_.add_barriers();
    barrier->set_square(square);
    barrier->set_color(colours[b]);
    barrier->set_present(true);
    barrier->set_taken_by(-1);
    barrier->set_question_card(-1);
  }
  for (int i = 0; i < num_seats(); ++i) {
    auto* seat = s_.add_seats();
    seat->set_placed_slot(-1);
    seat->set_last_round_points(-1);
  }
  s_.set_rng(rng.state());
  // Seat 0 holds the first-player figure: the room seats players, the engine does not know ages.
  s_.set_first_player(0);
  s_.set_round(1);
  s_.set_question_barrier(-1);
  s_.mutable_last_round()->set_category(0);
  StartRound();
}

uint32_t GlobalissimoState::DrawCard() {
  if (s_.deck_size() == 0) {
    // Only possible after many failed questions: the discarded cards become a new deck.
    engine::Rng rng(s_.rng());
    s_.mutable_deck()->Swap(s_.mutable_discard());
    rng.ShuffleRepeated(s_.mutable_deck());
    s_.set_rng(rng.state());
    Log(T("globalissimo.deck_reshuffled"));
  }
  const uint32_t card = s_.deck(s_.deck_size() - 1);
  s_.mutable_deck()->RemoveLast();
  return card;
}

void GlobalissimoState::StartRound() {
  s_.set_phase(PHASE_PLACEMENT);
  s_.set_tiles_placed(0);
  s_.set_scored(0);
  s_.set_steps_left(0);
  s_.set_moving(false);
  s_.set_question_barrier(-1);
  s_.clear_display();
  for (int i = 0; i < GlobalissimoGame::CardsOnDisplay(num_seats()); ++i) {
    auto* slot = s_.add_display();
    slot->set_card(DrawCard());
    slot->set_tile_seat(-1);
    slot->set_points(-1);
  }
  const auto& category = g().cards().categories(s_.category_order(s_.round() - 1));
  Log(T("globalissimo.round_start", s_.round(), s_.total_rounds(), category.name(),
        Seat{static_cast<int>(s_.first_player())}));
}

int GlobalissimoState::CurrentPlacer() const {
  return static_cast<int>((s_.first_player() + s_.tiles_placed()) % s_.num_seats());
}

int GlobalissimoState::CurrentScorer() const {
  return static_cast<int>((s_.first_player() + s_.scored()) % s_.num_seats());
}

std::vector<int> GlobalissimoState::GameActingSeats() const {
  switch (s_.phase()) {
    case PHASE_PLACEMENT: return {CurrentPlacer()};
    case PHASE_QUESTION: return {CurrentScorer()};
    default: return {};
  }
}

void GlobalissimoState::RevealAndScore() {
  const int category = static_cast<int>(s_.category_order(s_.round() - 1));
  // A bot's drawn copy ranks by what the bot believes (PerturbMore); a real game by the values.
  auto value = [&](const internal::SlotState& slot) {
    return slot.believed() ? slot.belief() : Country(slot.card()).values(category);
  };
  for (auto& slot : *s_.mutable_display()) {
    // Descending order; equal values share a position and leave the next ones empty.
    uint32_t higher = 0;
    for (const auto& other : s_.display()) higher += value(other) > value(slot) ? 1 : 0;
    slot.set_position(higher + 1);
    if (slot.tile_seat() >= 0) {
      const int error = std::abs(static_cast<int>(slot.tile_position()) -
                                 static_cast<int>(slot.position()));
      slot.set_points(error <= 2 ? 3 - error : 0);
    }
  }
  for (uint32_t p = 1; p <= static_cast<uint32_t>(s_.display_size()); ++p) {
    for (const auto& slot : s_.display()) {
      if (slot.position() != p) continue;
      Log(T("globalissimo.revealed", p, Country(slot.card()).name(),
            g().ValueText(slot.card(), category)));
    }
  }
  s_.set_scored(0);
  s_.set_moving(false);
  ContinueScoring();
}

void GlobalissimoState::FinishMove() {
  s_.set_steps_left(0);
  s_.set_moving(false);
  s_.set_scored(s_.scored() + 1);
}

void GlobalissimoState::ContinueScoring() {
  const auto& track = g().track();
  while (s_.scored() < s_.num_seats()) {
    const int seat = CurrentScorer();
    auto* me = s_.mutable_seats(seat);
    if (!s_.moving()) {
      const auto& slot = s_.display(me->placed_slot());
      me->set_last_round_points(slot.points());
      s_.set_steps_left(static_cast<uint32_t>(slot.points()));
      s_.set_moving(true);
      Log(T("globalissimo.scored", Seat{seat}, slot.tile_position(), Country(slot.card()).name(),
            slot.position(), slot.points()));
    }
    while (s_.steps_left() > 0) {
      const uint32_t next = me->square() + 1;
      if (next >= track.size()) {
        // The pawn stops on the last square; the remaining steps are lost.
        Log(T("globalissimo.track_end", Seat{seat}));
        break;
      }
      const int b = track[next].barrier;
      if (b >= 0) {
        auto* barrier = s_.mutable_barriers(b);
        if (barrier->present()) {
          if (barrier->question_card() < 0) barrier->set_question_card(static_cast<int>(DrawCard()));
          s_.set_question_barrier(b);
          s_.set_phase(PHASE_QUESTION);
          const auto& country = Country(static_cast<uint32_t>(barrier->question_card()));
          Log(T(barrier->color() == BARRIER_ORANGE ? "globalissimo.meets_orange"
                                                   : "globalissimo.meets_violet",
                Seat{seat}, country.name()));
          return;
        }
        me->set_square(next);  // a taken barrier is passed freely and is not a step
        continue;
      }
      me->set_square(next);
      me->set_distance(track[next].distance);
      s_.set_steps_left(s_.steps_left() - 1);
    }
    FinishMove();
  }
  EndRound();
}

void GlobalissimoState::Settle(const internal::BarrierState& barrier, int answered_by) {
  const auto& country = Country(static_cast<uint32_t>(barrier.question_card()));
  SettledQuestion* q = s_.add_settled();
  q->set_round(s_.round());
  q->set_kind(barrier.color());
  q->set_country_id(country.id());
  q->set_map_id(country.map_id());
  q->set_capital(country.capitals(0));
  q->set_answered_by(answered_by);
}

void GlobalissimoState::EndRound() {
  auto* record = s_.mutable_last_round();
  record->set_round(s_.round());
  record->set_category(s_.category_order(s_.round() - 1));
  *record->mutable_display() = s_.display();
  for (const auto& slot : s_.display()) s_.add_discard(slot.card());
  s_.clear_display();
  // Only the questions of the round ending and of this one stay listed.
  auto* settled = s_.mutable_settled();
  settled->erase(std::remove_if(settled->begin(), settled->end(),
                                [&](const auto& q) { return q.round() < s_.round(); }),
                 settled->end());
  for (auto& barrier : *s_.mutable_barriers()) {
    if (barrier.question_card() >= 0) {
      // Nobody answered it right: with the round over, nobody else will be asked it.
      const auto& country = Country(static_cast<uint32_t>(barrier.question_card()));
      Log(barrier.color() == BARRIER_ORANGE
              ? T("globalissimo.unanswered_capital", country.name(), country.capitals(0))
              : T("globalissimo.unanswered_map", country.name()));
      Settle(barrier, -1);
      s_.add_discard(static_cast<uint32_t>(barrier.question_card()));
    }
    barrier.set_question_card(-1);
    barrier.clear_wrong_answers();
  }
  for (auto& seat : *s_.mutable_seats()) seat.set_placed_slot(-1);
  s_.set_scored(0);
  s_.set_moving(false);
  s_.set_steps_left(0);
  s_.set_tiles_placed(0);
  s_.set_question_barrier(-1);
  s_.set_round(s_.round() + 1);
  if (s_.round() > s_.total_rounds()) {
    s_.set_phase(PHASE_GAME_OVER);
    const auto ranks = Ranks();
    Log(T("globalissimo.game_over"));
    for (int seat = 0; seat < num_seats(); ++seat) {
      const auto& me = s_.seats(seat);
      Log(T("globalissimo.final", Seat{seat}, ranks[seat], me.distance(),
            me.orange_barriers() + me.violet_barriers()));
    }
    return;
  }
  s_.set_first_player((s_.first_player() + 1) % s_.num_seats());
  StartRound();
}

// ----- Actions -----

// An answer to the barrier question through the core is the same move as the typed one.
Action GlobalissimoState::Typed(const Action& action) const {
  if (!action.has_core() || s_.phase() != PHASE_QUESTION) return action;
  const auto& answer = action.core().answer();
  Action typed;
  if (s_.barriers(s_.question_barrier()).color() == BARRIER_ORANGE) {
    typed.mutable_answer_capital()->set_text(answer.text());
  } else if (answer.options_size() == 1) {
    typed.mutable_answer_location()->set_map_id(answer.options(0));
  }
  return typed;
}

std::vector<engine::v1::Prompt> GlobalissimoState::GamePrompts(int seat) const {
  if (s_.phase() != PHASE_QUESTION || seat != CurrentScorer()) return {};
  const auto& barrier = s_.barriers(s_.question_barrier());
  const auto& country = Country(static_cast<uint32_t>(barrier.question_card()));
  engine::v1::Prompt p;
  if (barrier.color() == BARRIER_ORANGE) {
    p = engine::MakePrompt(seat, engine::v1::PROMPT_TEXT, T("globalissimo.q_capital", country.name()),
                           1, kMaxAnswerChars);
  } else {
    p = engine::MakePrompt(seat, engine::v1::PROMPT_CHOOSE, T("globalissimo.q_map", country.name()));
    p.set_option_set(GlobalissimoGame::kMapOptionSet);
  }
  *p.mutable_detail() = T("globalissimo.q_detail", s_.steps_left());
  // A new id for each question: a new round, barrier, scorer or wrong answer makes a new one.
  p.set_id("q" + std::to_string(s_.round()) + "." + std::to_string(s_.question_barrier()) + "." +
           std::to_string(seat) + "." + std::to_string(barrier.wrong_answers_size()));
  return engine::OnePrompt(std::move(p));
}

std::unique_ptr<engine::Message> GlobalissimoState::DefaultAction(int seat) const {
  if (s_.phase() != PHASE_QUESTION) return State::DefaultAction(seat);
  auto a = std::make_unique<Action>();
  if (s_.barriers(s_.question_barrier()).color() == BARRIER_ORANGE) {
    a->mutable_answer_capital()->set_text("(no answer)");
  } else {
    a->mutable_answer_location()->set_map_id("000");  // no country has 000
  }
  return a;
}

Status GlobalissimoState::TypedValidate(int seat, const Action& given) const {
  const Action action = Typed(given);
  switch (action.kind_case()) {
    case Action::kPlace: {
      if (s_.phase() != PHASE_PLACEMENT) {
        return Status(codes::kWrongPhase, "Tiles are placed before the cards are revealed; now a "
                                          "barrier question is waiting for an answer.");
      }
      if (s_.seats(seat).placed_slot() >= 0) {
        return Status(codes::kAlreadyPlaced, "You have already placed your tile this round.");
      }
      const auto& place = action.place();
      const uint32_t shown = static_cast<uint32_t>(s_.display_size());
      if (place.slot() >= shown) {
        return Status(codes::kBadSlot, "There is no card in slot " + std::to_string(place.slot()) +
                                           "; slots go from 0 to " + std::to_string(shown - 1) + ".");
      }
      if (s_.display(static_cast<int>(place.slot())).tile_seat() >= 0) {
        return Status(codes::kSlotTaken, Country(s_.display(static_cast<int>(place.slot())).card()).name() +
                                             " already has a tile; each card takes one.");
      }
      if (place.position() < 1 || place.position() > shown) {
        return Status(codes::kBadPosition, "The guessed position must be between 1 and " +
                                               std::to_string(shown) + ", not " +
                                               std::to_string(place.position()) + ".");
      }
      return Status::Ok();
    }
    case Action::kAnswerCapital:
    case Action::kAnswerLocation: {
      if (s_.phase() != PHASE_QUESTION) {
        return Status(codes::kWrongPhase, "There is no barrier question to answer now.");
      }
      const BarrierColor kind = s_.barriers(s_.question_barrier()).color();
      if (action.kind_case() == Action::kAnswerCapital) {
        if (kind != BARRIER_ORANGE) {
          return Status(codes::kWrongQuestionKind,
                        "This is a violet barrier: point at the country on the map.");
        }
        const std::string& text = action.answer_capital().text();
        const int length = Utf8Length(text);
        if (length < 0) return Status(codes::kBadText, "The answer is not valid UTF-8 text.");
        if (length > kMaxAnswerChars) {
          return Status(codes::kAnswerTooLong, "An answer has at most " +
                                                   std::to_string(kMaxAnswerChars) +
                                                   " characters.");
        }
        if (engine::NormalizeAnswer(text).empty()) {
          return Status(codes::kEmptyAnswer, "Type the name of a capital city.");
        }
        return Status::Ok();
      }
      if (kind != BARRIER_VIOLET) {
        return Status(codes::kWrongQuestionKind,
                      "This is an orange barrier: name the country's capital.");
      }
      if (!IsThreeDigits(action.answer_location().map_id())) {
        return Status(codes::kBadMapId,
                      "A map answer is a country's three-digit map number, like \"250\".");
      }
      return Status::Ok();
    }
    default:
      return Status(ec::kMalformed, "The action names no move.");
  }
}

void GlobalissimoState::TypedApply(int seat, const Action& given) {
  const Action action = Typed(given);
  if (action.kind_case() == Action::kPlace) {
    auto* slot = s_.mutable_display(static_cast<int>(action.place().slot()));
    slot->set_tile_seat(seat);
    slot->set_tile_position(action.place().position());
    s_.mutable_seats(seat)->set_placed_slot(static_cast<int>(action.place().slot()));
    s_.set_tiles_placed(s_.tiles_placed() + 1);
    Log(T("globalissimo.places", Seat{seat}, action.place().position(), Country(slot->card()).name()));
    if (s_.tiles_placed() == s_.num_seats()) RevealAndScore();
    return;
  }
  const auto& barrier = s_.barriers(s_.question_barrier());
  const auto& country = Country(static_cast<uint32_t>(barrier.question_card()));
  if (action.kind_case() == Action::kAnswerCapital) {
    const std::string& text = action.answer_capital().text();
    bool correct = false;
    for (const auto& capital : country.capitals()) correct = correct || engine::AnswerMatches(text, capital);
    ResolveAnswer(seat, correct, text);
  } else {
    const std::string& map_id = action.answer_location().map_id();
    ResolveAnswer(seat, map_id == country.map_id(), map_id);
  }
}

void GlobalissimoState::ResolveAnswer(int seat, bool correct, const std::string& given) {
  const int b = s_.question_barrier();
  auto* barrier = s_.mutable_barriers(b);
  auto* me = s_.mutable_seats(seat);
  const bool orange = barrier->color() == BARRIER_ORANGE;
  const auto& country = Country(static_cast<uint32_t>(barrier->question_card()));
  s_.set_question_barrier(-1);
  // Scoring resumes; ContinueScoring sets the next phase (another question, placement or end).
  s_.set_phase(PHASE_PLACEMENT);
  if (correct) {
    s_.add_discard(static_cast<uint32_t>(barrier->question_card()));
    Log(orange ? T("globalissimo.right_capital", Seat{seat}, given)
               : T("globalissimo.right_map", Seat{seat}, country.name()));
    Settle(*barrier, seat);
    barrier->set_question_card(-1);
    barrier->clear_wrong_answers();
    barrier->set_present(false);
    barrier->set_taken_by(seat);
    if (barrier->color() == BARRIER_ORANGE) {
      me->set_orange_barriers(me->orange_barriers() + 1);
    } else {
      me->set_violet_barriers(me->violet_barriers() + 1);
    }
    me->set_square(barrier->square());
  } else {
    // The right answer stays secret: the card is set aside for the next seat at this barrier.
    barrier->add_wrong_answers(given);
    Log(T(orange ? "globalissimo.wrong_capital" : "globalissimo.wrong_map", Seat{seat}, given));
    FinishMove();
  }
  ContinueScoring();
}

std::vector<Action> GlobalissimoState::TypedLegalActions(int seat) const {
  std::vector<Action> out;
  if (s_.phase() == PHASE_PLACEMENT) {
    const int shown = s_.display_size();
    for (int slot = 0; slot < shown; ++slot) {
      if (s_.display(slot).tile_seat() >= 0) continue;
      for (int p = 1; p <= shown; ++p) {
        Action a;
        a.mutable_place()->set_slot(static_cast<uint32_t>(slot));
        a.mutable_place()->set_position(static_cast<uint32_t>(p));
        out.push_back(std::move(a));
      }
    }
    return out;
  }
  // A barrier question is answered through its prompt (GamePrompts): the core lists a map
  // question's answers and describes a capital question's (any text); listing the right answer
  // here would hand it to whoever asks for the legal actions.
  return out;
}

std::vector<std::unique_ptr<engine::Message>> GlobalissimoGame::MovesFromView(
    const engine::Message& message, int seat) const {
  std::vector<std::unique_ptr<engine::Message>> out;
  if (message.GetDescriptor() != globalissimo::View::descriptor()) return out;
  const auto& view = static_cast<const globalissimo::View&>(message);
  if (view.phase() != PHASE_PLACEMENT || view.to_act() != seat) return out;
  for (const auto& player : view.players()) {
    if (static_cast<int>(player.seat()) == seat && player.placed_slot() >= 0) return out;
  }
  // The view's display is the one the rules check against, so these are the listed placements.
  for (int slot = 0; slot < view.display_size(); ++slot) {
    if (view.display(slot).tile_seat() >= 0) continue;
    for (uint32_t position = 1; position <= view.max_position(); ++position) {
      auto action = std::make_unique<Action>();
      action->mutable_place()->set_slot(static_cast<uint32_t>(slot));
      action->mutable_place()->set_position(position);
      out.push_back(std::move(action));
    }
  }
  return out;
}

// ----- Results -----

std::vector<int64_t> GlobalissimoState::Scores() const {
  std::vector<int64_t> out;
  for (const auto& seat : s_.seats()) out.push_back(seat.distance());
  return out;
}

std::vector<int> GlobalissimoState::GameRanks() const {
  auto key = [&](int i) {
    const auto& seat = s_.seats(i);
    return std::make_pair(seat.distance(), seat.orange_barriers() + seat.violet_barriers());
  };
  std::vector<int> ranks(num_seats());
  for (int i = 0; i < num_seats(); ++i) {
    int better = 0;
    for (int j = 0; j < num_seats(); ++j) better += key(j) > key(i) ? 1 : 0;
    ranks[i] = better + 1;
  }
  return ranks;
}

std::string GlobalissimoState::ResultDetail(int seat) const {
  if (seat < 0 || seat >= num_seats()) return {};
  const auto& me = s_.seats(seat);
  const uint32_t barriers = me.orange_barriers() + me.violet_barriers();
  return std::to_string(me.distance()) + (me.distance() == 1 ? " square, " : " squares, ") +
         std::to_string(barriers) + (barriers == 1 ? " barrier" : " barriers");
}

std::string GlobalissimoGame::GameViewText(const engine::Message& view,
                                          const SeatNamer& seat_name) const {
  const auto& data = static_cast<const globalissimo::StaticData&>(*StaticData());
  return ViewLines(static_cast<const View&>(view), data, seat_name);
}

engine::Zone GlobalissimoState::DeckZone() const {
  engine::Zone deck;
  deck.name = "deck";
  deck.pieces = &s_.deck();
  deck.visibility = engine::Visibility::kNobody;
  return deck;
}

std::vector<engine::Zone> GlobalissimoState::GameZones() const {
  // Everyone sees the same table: identities of the cards on display and of question cards are
  // public; only the deck is face down.
  return {DeckZone()};
}

void GlobalissimoState::PerturbMore(int seat, engine::Rng& rng) {
  // The categories of the rounds still to come, and the generator state.
  auto* order = s_.mutable_category_order();
  const int first_hidden = std::min<int>(static_cast<int>(s_.round()), order->size());
  // Sorted first, so the redraw depends on which categories remain, not on their hidden order.
  std::sort(order->begin() + first_hidden, order->end());
  for (int i = order->size() - first_hidden; i > 1; --i) {
    const int j = static_cast<int>(rng.Below(static_cast<uint64_t>(i)));
    order->SwapElements(first_hidden + i - 1, first_hidden + j);
  }
  s_.set_rng(rng.Next());
  // The values on the hidden side of the display's cards: a well-read player knows roughly where
  // each country stands in the round's category, not its number. The belief is the country's
  // standing among all hundred plus or minus up to kBlur, so that countries far apart are
  // ranked right and close ones often not.
  constexpr double kBlur = 0.15;
  if (s_.phase() == PHASE_PLACEMENT && s_.round() >= 1 &&
      s_.round() <= static_cast<uint32_t>(s_.category_order_size())) {
    const int category = static_cast<int>(s_.category_order(s_.round() - 1));
    for (auto& slot : *s_.mutable_display()) {
      const double noise = (static_cast<double>(rng.Below(1u << 20)) / (1u << 20) * 2 - 1) * kBlur;
      slot.set_believed(true);
      slot.set_belief(Standing(slot.card(), category) + noise);
    }
  }
}

double GlobalissimoState::Standing(uint32_t card, int category) const {
  const double value = Country(card).values(category);
  int below = 0;
  const auto& countries = g().cards().countries();
  for (const auto& c : countries) below += c.values(category) < value ? 1 : 0;
  return countries.size() > 1 ? static_cast<double>(below) / (countries.size() - 1) : 0.5;
}

std::vector<std::unique_ptr<engine::Message>> GlobalissimoState::BotIdeas(int seat,
                                                                           engine::Rng& rng) const {
  std::vector<std::unique_ptr<engine::Message>> out;
  if (s_.phase() != PHASE_QUESTION || seat != CurrentScorer()) return out;
  const auto& barrier = s_.barriers(s_.question_barrier());
  const auto& country = Country(static_cast<uint32_t>(barrier.question_card()));
  // Capitals are better known than where a country lies on a blank map.
  const bool orange = barrier.color() == BARRIER_ORANGE;
  if (rng.Below(100) >= (orange ? 70u : 60u)) return out;
  auto a = std::make_unique<Action>();
  if (orange) {
    a->mutable_answer_capital()->set_text(country.capitals(0));
  } else {
    a->mutable_answer_location()->set_map_id(country.map_id());
  }
  out.push_back(std::move(a));
  return out;
}

// ----- View -----

void GlobalissimoState::SlotView(const internal::SlotState& slot, uint32_t category,
                                 bool revealed, DisplaySlot* out) const {
  const auto& country = Country(slot.card());
  auto* card = out->mutable_card();
  card->set_id(country.id());
  card->set_revealed(revealed);
  if (revealed) {
    card->set_value(country.values(static_cast<int>(category)));
    card->set_value_text(g().ValueText(slot.card(), category));
    card->set_position(slot.position());
    card->set_map_id(country.map_id());
    card->set_capital(country.capitals(0));
  }
  out->set_tile_seat(slot.tile_seat());
  out->set_tile_position(slot.tile_position());
  out->set_points(revealed ? slot.points() : -1);
}

// Everything but `you` (and the core's table) is the same for every recipient.
void GlobalissimoState::TypedPrivateView(int seat, globalissimo::View* view) const {
  view->set_you(seat >= 0 && seat < num_seats() ? seat : engine::kSpectator);
}

void GlobalissimoState::TypedPublicView(globalissimo::View* out) const {
  globalissimo::View& v = *out;
  const bool over = IsTerminal();
  v.set_round(over ? s_.total_rounds() : s_.round());
  v.set_total_rounds(s_.total_rounds());
  v.set_phase(s_.phase());
  v.set_first_player(s_.first_player());
  const auto acting = ActingSeats();
  v.set_to_act(acting.empty() ? -1 : acting[0]);
  if (!over) {
    const uint32_t category = s_.category_order(s_.round() - 1);
    v.set_category_id(g().cards().categories(static_cast<int>(category)).id());
    const bool revealed = s_.phase() == PHASE_QUESTION;
    for (const auto& slot : s_.display()) SlotView(slot, category, revealed, v.add_display());
  }
  for (int i = 0; i < num_seats(); ++i) {
    const auto& me = s_.seats(i);
    auto* p = v.add_players();
    p->set_seat(static_cast<uint32_t>(i));
    p->set_square(me.square());
    p->set_distance(me.distance());
    p->set_orange_barriers(me.orange_barriers());
    p->set_violet_barriers(me.violet_barriers());
    p->set_placed_slot(me.placed_slot());
    p->set_last_round_points(me.last_round_points());
  }
  // The track's layout is static data; what changes from game to game is the barriers.
  for (const auto& barrier : s_.barriers()) {
    auto* b = v.add_barriers();
    b->set_color(barrier.color());
    b->set_present(barrier.present());
  }
  if (s_.phase() == PHASE_QUESTION) {
    const auto& barrier = s_.barriers(s_.question_barrier());
    const auto& country = Country(static_cast<uint32_t>(barrier.question_card()));
    auto* q = v.mutable_question();
    q->set_kind(barrier.color());
    q->set_seat(static_cast<uint32_t>(CurrentScorer()));
    q->set_country_id(country.id());
    q->set_barrier_square(barrier.square());
    q->set_steps_left(s_.steps_left());
    for (const auto& wrong : barrier.wrong_answers()) q->add_wrong_answers(wrong);
  }
  *v.mutable_settled() = s_.settled();
  if (s_.last_round().round() > 0) {
    auto* last = v.mutable_last_round();
    last->set_round(s_.last_round().round());
    const auto category = static_cast<int>(s_.last_round().category());
    last->set_category_id(g().cards().categories(category).id());
    for (const auto& slot : s_.last_round().display()) {
      SlotView(slot, s_.last_round().category(), true, last->add_display());
    }
  }
  v.set_deck_remaining(static_cast<uint32_t>(s_.deck_size()));
  v.set_max_position(static_cast<uint32_t>(GlobalissimoGame::CardsOnDisplay(num_seats())));
  if (over) {
    for (int rank : Ranks()) v.add_final_ranks(static_cast<uint32_t>(rank));
  }
}

}  // namespace plateau::games::globalissimo

// The data files, compiled in by plateau_embed_data (see CMakeLists.txt).
namespace plateau::data::globalissimo {
extern const std::string_view kcountries;
extern const std::string_view kboard;
extern const std::string_view ktexts;
}  // namespace plateau::data::globalissimo

namespace plateau::games::globalissimo {
namespace {

engine::StatusOr<std::unique_ptr<engine::Game>> MakeGlobalissimo() {
  auto game = GlobalissimoGame::FromData(::plateau::data::globalissimo::kcountries,
                                         ::plateau::data::globalissimo::kboard,
                                         ::plateau::data::globalissimo::ktexts);
  if (!game.ok()) return game.status();
  return std::unique_ptr<engine::Game>(std::move(game).value());
}

PLATEAU_REGISTER_GAME("globalissimo", MakeGlobalissimo);

}  // namespace
}  // namespace plateau::games::globalissimo
