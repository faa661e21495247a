#include "clients/cli/pretty.h"

#include <algorithm>

#include "engine/console/record.h"
#include "engine/core/registry.h"
#include "games/globalissimo.pb.h"

namespace plateau::cli {
namespace {

namespace g = plateau::games::globalissimo;

std::string SeatName(int seat, int you) {
  std::string out = "seat " + std::to_string(seat);
  return seat == you ? out + " (you)" : out;
}

std::string Barrier(g::BarrierColor c) {
  return c == g::BARRIER_ORANGE ? "orange" : c == g::BARRIER_VIOLET ? "violet" : "none";
}

std::string SlotLine(int index, const g::DisplaySlot& slot, int you) {
  const g::CountryCard& card = slot.card();
  std::string line = "  [" + std::to_string(index) + "] " + card.flag() + " " + card.name();
  if (card.revealed()) {
    line += "  #" + std::to_string(card.position()) + " " + card.value_text();
  }
  if (slot.tile_seat() < 0) return line + "  (free)";
  line += "  " + SeatName(slot.tile_seat(), you) + " guessed #" + std::to_string(slot.tile_position());
  if (slot.points() >= 0) line += ": " + std::to_string(slot.points()) + " pts";
  return line;
}

std::string Globalissimo(const g::View& v) {
  static const char* kPhase[] = {"?", "placement", "question", "game over"};
  const int phase = v.phase() >= 0 && v.phase() <= 3 ? v.phase() : 0;
  std::string out = "Round " + std::to_string(std::min(v.round(), v.total_rounds())) + "/" +
                    std::to_string(v.total_rounds()) + " - ";
  // After the last round there is no current category; the last one is shown below.
  if (!v.category().name().empty()) {
    out += v.category().name() + " (" + v.category().unit() + ") - ";
  }
  out += kPhase[phase];
  if (v.to_act() >= 0) out += " - to act: " + SeatName(v.to_act(), v.you());
  out += "\n";
  if (v.phase() == g::PHASE_PLACEMENT) {
    out += "Cards (act place { slot: S position: P }, P from 1 = highest to " +
           std::to_string(v.max_position()) + "):\n";
  } else if (v.display_size() > 0) {
    out += "Cards:\n";
  }
  for (int i = 0; i < v.display_size(); ++i) out += SlotLine(i, v.display(i), v.you()) + "\n";
  out += "Players:\n";
  for (const g::Player& p : v.players()) {
    out += "  " + SeatName(static_cast<int>(p.seat()), v.you()) + ": " +
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
  if (v.phase() == g::PHASE_QUESTION) {
    const g::Question& q = v.question();
    out += "Question (" + Barrier(q.kind()) + " barrier) for " +
           SeatName(static_cast<int>(q.seat()), v.you()) + ": " +
           (q.kind() == g::BARRIER_ORANGE ? "the capital of " : "where on the map is ") +
           q.country_flag() + " " + q.country_name() + "?\n";
    out += q.kind() == g::BARRIER_ORANGE ? "  answer with: act answer_capital { text: \"...\" }\n"
                                          : "  answer with: act answer_location { map_id: \"250\" }"
                                            " (ISO 3166 numeric code)\n";
    if (q.wrong_answers_size() > 0) {
      out += "  wrong so far:";
      for (const std::string& w : q.wrong_answers()) out += " " + w;
      out += "\n";
    }
  }
  if (v.has_last_round() && v.phase() != g::PHASE_QUESTION) {
    out += "Last round (" + v.last_round().category().name() + "):\n";
    for (int i = 0; i < v.last_round().display_size(); ++i) {
      out += SlotLine(i, v.last_round().display(i), v.you()) + "\n";
    }
  }
  return out;
}

// The core's share of any game's view: the viewer's questions and the latest log entries, put
// into words with the game's catalogue.
std::string TableText(const google::protobuf::Message& view) {
  const auto* field = view.GetDescriptor()->FindFieldByName("table");
  if (field == nullptr || field->message_type() != plateau::v1::Table::descriptor()) return "";
  const engine::Game* game = nullptr;
  for (const engine::Game* g : engine::Registry::All())
    if (g->ViewPrototype().GetDescriptor() == view.GetDescriptor()) game = g;
  if (game == nullptr) return "";
  const auto& table =
      static_cast<const plateau::v1::Table&>(view.GetReflection()->GetMessage(view, field));
  int you = engine::kSpectator;
  if (const auto* f = view.GetDescriptor()->FindFieldByName("you"))
    if (f->cpp_type() == google::protobuf::FieldDescriptor::CPPTYPE_INT32)
      you = view.GetReflection()->GetInt32(view, f);
  auto name = [you](int seat) { return SeatName(seat, you); };
  const auto& words = game->TextRenderer();
  std::string out;
  for (const auto& p : table.prompts()) {
    out += "Asked of you: " + words.Render(p.title(), name);
    if (p.has_detail()) out += " (" + words.Render(p.detail(), name) + ")";
    out += "\n";
  }
  const int first = std::max(0, table.log_size() - 4);
  if (table.log_size() > 0) out += "Log:\n";
  for (int i = first; i < table.log_size(); ++i)
    out += "  " + words.Render(table.log(i).text(), name) + "\n";
  return out;
}

}  // namespace

std::string PrettyView(const google::protobuf::Message& view) {
  if (view.GetDescriptor() == g::View::descriptor()) {
    return Globalissimo(static_cast<const g::View&>(view)) + TableText(view);
  }
  return console::MessageText(view);
}

}  // namespace plateau::cli
