// Globalissimo: the game (its data files checked, the printed data, the values as players read
// them, the options), positions read back, and the registration.
#include "engine/games/globalissimo/globalissimo.h"
#include "engine/games/globalissimo/globalissimo_shared.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "engine/core/data.h"
#include "engine/core/registry.h"
#include "engine/core/words.h"

namespace plateau::games::globalissimo {

using engine::StatusOr;

namespace {

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

const std::string& GlobalissimoGame::RegionName(const std::string& map_id) const {
  static const std::string kNone = "(no country)";
  const auto it = region_names_.find(map_id);
  return it == region_names_.end() ? kNone : it->second;
}

const std::string& GlobalissimoGame::RegionRef(const std::string& map_id) const {
  const auto it = region_cards_.find(map_id);
  return it == region_cards_.end() ? RegionName(map_id) : it->second;
}

GlobalissimoGame::GlobalissimoGame(data::CardSet cards, data::BoardDef board)
    : TypedGame({"globalissimo", "Globalissimo", 2, 6, GlobalissimoOptionVariants(),
      // Timers: placing a card takes seconds; a map question a little looking.
                 {{"Casual", 60, 0, 0}, {"Clocked", 0, 300, 10}},
      // The normal bot looks one round ahead: the tiles, the reveal and the barrier questions.
                 6, /*publishes_moves=*/true}),
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
  for (int i = 0; i < board_.map_region_names_size() && i < board_.map_regions_size(); ++i)
    region_names_[board_.map_regions(i)] = board_.map_region_names(i);
  for (const auto& c : cards_.countries()) {
    region_names_[c.map_id()] = c.name();
    region_cards_[c.map_id()] = c.id();
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
  if (board.map_region_names_size() != 0 && board.map_region_names_size() != board.map_regions_size())
    return BadBoard("map_region_names must name every map region, in map_regions' order.");
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
