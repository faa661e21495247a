#include "engine/core/game.h"

#include "engine/core/families.h"

#include "engine/core/data.h"
#include "engine/core/words.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/text_format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <numeric>

namespace plateau::engine {

void ToWireForm(const Game& game, Message* view) {
  const auto* f = view->GetDescriptor()->FindFieldByName("table");
  if (f == nullptr || f->message_type() != v1::Table::descriptor()) return;
  game.TextRenderer().Compact(
      static_cast<v1::Table*>(view->GetReflection()->MutableMessage(view, f)));
}

std::string DeterministicBytes(const Message& m) {
  std::string out;
  DeterministicBytesInto(m, &out);
  return out;
}

void DeterministicBytesInto(const Message& m, std::string* out) {
  // Sized once (views are serialized on every action's path), then written in place.
  out->resize(m.ByteSizeLong());
  google::protobuf::io::ArrayOutputStream aos(out->data(), static_cast<int>(out->size()));
  google::protobuf::io::CodedOutputStream cos(&aos);
  cos.SetSerializationDeterministic(true);
  m.SerializeWithCachedSizes(&cos);
}

std::vector<int> RanksFromScores(const std::vector<int64_t>& scores) {
  std::vector<int> ranks(scores.size());
  for (size_t i = 0; i < scores.size(); ++i) {
    int better = 0;
    for (size_t j = 0; j < scores.size(); ++j) better += scores[j] > scores[i] ? 1 : 0;
    ranks[i] = better + 1;
  }
  return ranks;
}

Status Game::ValidateOptions(int num_seats, const Message& options) const {
  if (num_seats < Info().min_seats || num_seats > Info().max_seats) {
    return Status(codes::kBadOptions, Info().title + " is played by " +
                                          std::to_string(Info().min_seats) + " to " +
                                          std::to_string(Info().max_seats) + " players, not " +
                                          std::to_string(num_seats) + ".");
  }
  if (options.GetDescriptor() != OptionsPrototype().GetDescriptor()) {
    return Status(codes::kBadOptions, "Options are not " + OptionsPrototype().GetTypeName() + ".");
  }
  return Status::Ok();
}

StatusOr<std::unique_ptr<Message>> Game::ParseOptions(std::string_view bytes) const {
  std::unique_ptr<Message> options(OptionsPrototype().New());
  if (!options->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return Status(codes::kBadOptions, "The game options could not be decoded as " +
                                          options->GetTypeName() + ".");
  }
  return options;
}

StatusOr<std::unique_ptr<State>> Game::NewGame(int num_seats, std::string_view options_bytes,
                                               uint64_t seed) const {
  auto options = ParseOptions(options_bytes);
  if (!options.ok()) return options.status();
  Status st = ValidateOptions(num_seats, *options.value());
  if (!st.ok()) return st;
  return NewInitialState(num_seats, *options.value(), seed);
}

StatusOr<std::unique_ptr<State>> Game::Replay(
    int num_seats, std::string_view options_bytes, uint64_t seed,
    const std::vector<LoggedAction>& log,
    const std::function<void(size_t, const State&)>& after_each) const {
  auto state = NewGame(num_seats, options_bytes, seed);
  if (!state.ok()) return state.status();
  for (size_t i = 0; i < log.size(); ++i) {
    Status st = state.value()->ApplyBytes(log[i].seat, log[i].action, log[i].timed_out);
    if (!st.ok()) {
      return Status(st.code(), "Action " + std::to_string(i) + " of the log was refused: " +
                                   st.reason());
    }
    if (after_each) after_each(i, *state.value());
  }
  return state;
}

std::unique_ptr<Message> Game::NewAction() const {
  return std::unique_ptr<Message>(ActionPrototype().New());
}

StatusOr<std::unique_ptr<Message>> Game::ParseActionBytes(std::string_view bytes) const {
  auto action = NewAction();
  if (!action->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return Status(codes::kMalformed,
                  "The action could not be decoded as " + action->GetTypeName() + ".");
  }
  return action;
}


StatusOr<std::unique_ptr<Message>> Game::ParseActionText(std::string_view text) const {
  auto action = NewAction();
  std::string error = ParseTextFormat(text, action.get());
  if (!error.empty()) return Status(codes::kMalformed, "Cannot read the action: " + error);
  return action;
}

std::string Game::ActionToText(const Message& action) const {
  google::protobuf::TextFormat::Printer printer;
  printer.SetSingleLineMode(true);
  // Answers are typed by people in any language: keep "Bogotá" readable, not octal escapes.
  printer.SetUseUtf8StringEscaping(true);
  std::string out;
  printer.PrintToString(action, &out);
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

namespace {

const google::protobuf::FieldDescriptor* CoreField(const google::protobuf::Descriptor* d) {
  const auto* f = d->FindFieldByName("core");
  if (f == nullptr || f->is_repeated() || f->message_type() != v1::CoreAction::descriptor())
    return nullptr;
  return f;
}

}  // namespace

v1::TextCatalogue Game::CoreTexts() {
  v1::TextCatalogue c;
  auto add = [&](const char* key, const char* en) {
    auto* t = c.add_templates();
    t->set_key(key);
    t->set_en(en);
  };
  add("core.resigned", "{0} resigns.");
  add("core.moves", "{0} moves.");
  // Before a move the turn timer made (State::Apply): the same words in the live log and the replay.
  add("core.timed_out", "{0} timed out: the turn timer plays for {0}.");  // a replayed move that wrote nothing its viewer may read
  add("core.answer.yes", "Yes");
  add("core.answer.no", "No");
  return c;
}

const OptionList& Game::OptionsOf(const v1::Prompt& prompt) const {
  if (prompt.option_set().empty()) return prompt.options();
  // A game has a set or two: a scan beats a map.
  for (const auto& set : option_sets_)
    if (set.id() == prompt.option_set()) return set.options();
  static const OptionList kNone;
  return kNone;
}

void Game::SetTexts(const v1::TextCatalogue& game_texts) {
  texts_ = CoreTexts();
  for (const auto& t : game_texts.templates()) *texts_.add_templates() = t;
  renderer_ = Catalogue(texts_);
}

std::unique_ptr<Message> Game::WrapCore(const v1::CoreAction& core) const {
  const auto* f = CoreField(ActionPrototype().GetDescriptor());
  if (f == nullptr) return nullptr;
  auto action = NewAction();
  action->GetReflection()->MutableMessage(action.get(), f)->CopyFrom(core);
  return action;
}

std::unique_ptr<Message> Game::WrapAnswer(const v1::Answer& answer) const {
  v1::CoreAction core;
  *core.mutable_answer() = answer;
  return WrapCore(core);
}

const v1::CoreAction* Game::CoreOf(const Message& action) const {
  const auto* f = CoreField(action.GetDescriptor());
  if (f == nullptr) return nullptr;
  const auto* r = action.GetReflection();
  if (!r->HasField(action, f)) return nullptr;
  return google::protobuf::DynamicCastToGenerated<v1::CoreAction>(&r->GetMessage(action, f));
}

std::string Game::GameViewText(const Message& view, const SeatNamer&) const {
  std::unique_ptr<Message> copy(view.New());
  copy->CopyFrom(view);
  if (const auto* f = copy->GetDescriptor()->FindFieldByName("table"))
    copy->GetReflection()->ClearField(copy.get(), f);
  google::protobuf::TextFormat::Printer printer;
  printer.SetUseUtf8StringEscaping(true);
  std::string out;
  printer.PrintToString(*copy, &out);
  return out;
}

const v1::Table* ViewTable(const Message& view) {
  const auto* field = view.GetDescriptor()->FindFieldByName("table");
  if (field == nullptr || field->is_repeated() || field->message_type() != v1::Table::descriptor())
    return nullptr;
  return static_cast<const v1::Table*>(&view.GetReflection()->GetMessage(view, field));
}

v1::Text MoveWords(const v1::MoveChoice* parent, const v1::MoveChoice& choice) {
  if (parent == nullptr || !choice.label().key().empty() || !parent->has_next_label())
    return choice.label();
  v1::Text words = parent->next_label();
  *words.mutable_args() = choice.label().args();
  return words;
}

v1::Target MoveTarget(const v1::MoveChoice& choice) {
  v1::Target t = choice.target();
  if (choice.key_target() == v1::KEY_TARGET_CARD) {
    t.set_card(choice.key());
  } else if (choice.key_target() == v1::KEY_TARGET_SEAT) {
    t.set_seat(std::atoi(choice.key().c_str()));
  } else if (choice.key_target() == v1::KEY_TARGET_REGION) {
    t.set_region(choice.key());
  }
  return t;
}

std::string MoveActionAt(const google::protobuf::RepeatedPtrField<v1::MoveChoice>& roots,
                         const std::vector<std::string>& keys) {
  std::string out;
  const google::protobuf::RepeatedPtrField<v1::MoveChoice>* level = &roots;
  for (const std::string& key : keys) {
    const v1::MoveChoice* node = nullptr;
    for (const v1::MoveChoice& c : *level)
      if (c.key() == key) node = &c;
    if (node == nullptr) return {};
    out += node->action();
    level = &node->next();
  }
  return out;
}

std::vector<PublishedMove> PublishedMoves(const Game& game, const Message& view,
                                          MoveListing listing) {
  // A family leaf past this is left out: a client offers such a family by its parameters.
  constexpr size_t kMaxMembers = 4096;
  std::vector<PublishedMove> out;
  const v1::Table* table = ViewTable(view);
  // Held moves are the last turn's, kept for the next Diff: none may be played now.
  if (table == nullptr || table->moves_held()) return out;
  std::vector<v1::Text> path;
  // The parts met on the way down (MoveChoice.action): a leaf's action is their concatenation.
  std::string parts;
  std::function<void(const v1::MoveChoice*,
                     const google::protobuf::RepeatedPtrField<v1::MoveChoice>&)>
      walk = [&](const v1::MoveChoice* parent,
                 const google::protobuf::RepeatedPtrField<v1::MoveChoice>& choices) {
        for (const v1::MoveChoice& c : choices) {
          if (listing.words) path.push_back(MoveWords(parent, c));
          const size_t above = parts.size();
          parts += c.action();
          if (c.next_size() > 0) {
            walk(&c, c.next());
          } else if (c.params_size() > 0) {
            v1::ActionFamily family = LeafFamily(parent, c, parts);
            if (!listing.families_whole) {
              for (auto& member : EnumerateFamily(game.ActionPrototype(), family, kMaxMembers))
                out.push_back({std::move(member), path, true});
            } else if (const uint64_t n = FamilyMembers(game.ActionPrototype(), family, kMaxMembers);
                       n > 0) {
              if (auto base = game.ParseActionBytes(family.base()); base.ok())
                out.push_back({std::move(base).value(), path, true,
                               std::make_shared<const v1::ActionFamily>(std::move(family)), n});
            }
          } else if (auto action = game.ParseActionBytes(parts); action.ok()) {
            out.push_back({std::move(action).value(), path});
          }
          parts.resize(above);
          if (listing.words) path.pop_back();
        }
      };
  walk(nullptr, table->moves());
  return out;
}

std::vector<std::unique_ptr<Message>> PublishedActions(const Game& game, const Message& view) {
  std::vector<std::unique_ptr<Message>> out;
  for (auto& m : PublishedMoves(game, view, {.words = false})) out.push_back(std::move(m.action));
  return out;
}

std::string Game::ViewText(const Message& view, const SeatNamer& seat_name) const {
  std::string out = GameViewText(view, seat_name);
  const v1::Table* found = ViewTable(view);
  if (found == nullptr) return out;
  const v1::Table& table = *found;
  for (const auto& p : table.prompts()) out += PromptText(p, seat_name);
  const int first = std::max(0, table.log_size() - 4);
  if (table.log_size() > 0) out += "Log:\n";
  for (int i = first; i < table.log_size(); ++i)
    out += "  " + renderer_.Render(table.log(i).text(), seat_name) + "\n";
  return out;
}

namespace {
// Longer fixed lists (every region of a map) are answered by name rather than read through.
constexpr int kListedOptions = 40;

std::string_view TrimSpaces(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::string Squeezed(std::string_view text) {
  std::string s = NormalizeAnswer(text);
  std::erase(s, ' ');
  return s;
}
}  // namespace

std::string Game::PromptText(const v1::Prompt& p, const SeatNamer& seat_name) const {
  std::string out = "Asked of you: " + renderer_.Render(p.title(), seat_name);
  if (p.has_detail()) out += " (" + renderer_.Render(p.detail(), seat_name) + ")";
  out += "\n";
  const OptionList& options = OptionsOf(p);
  const std::string n = std::to_string(options.size());
  const std::string range = std::to_string(p.min()) + " to " + std::to_string(p.max());
  switch (p.kind()) {
    case v1::PROMPT_CHOOSE:
    case v1::PROMPT_ORDER:
      if (options.size() <= kListedOptions) {
        for (int i = 0; i < options.size(); ++i) {
          out += "  " + std::to_string(i + 1) + ". " + renderer_.Render(options[i].label(), seat_name) + "\n";
        }
      }
      if (p.kind() == v1::PROMPT_ORDER) {
        out += "  Answer: all " + n + " in order, by number or name, separated by commas.\n";
      } else if (p.max() <= 1 && options.size() > kListedOptions && options[0].target().has_region()) {
        // Regions of a map, unnamed (naming them could answer the question): the terminal client
        // takes the point instead.
        out += "  Answer: its map number (the terminal client also takes the place as a latitude "
               "and a longitude: 48.9N 2.3E).\n";
      } else if (p.max() <= 1) {
        out += options.size() <= kListedOptions ? "  Answer: a number or a name.\n"
                                                : "  Answer: one of " + n + ", by name.\n";
      } else {
        out += "  Answer: " + range + " of them, by number or name, separated by commas.\n";
      }
      break;
    case v1::PROMPT_NUMBER:
      out += "  Answer: a number from " + range + ".\n";
      break;
    case v1::PROMPT_YES_NO:
      out += "  Answer: yes or no.\n";
      break;
    case v1::PROMPT_TEXT:
      out += "  Answer: a text of " + range + " characters.\n";
      break;
    default:
      break;
  }
  return out;
}

StatusOr<v1::Answer> Game::AnswerFromWords(const v1::Prompt& p, std::string_view words,
                                           const SeatNamer& seat_name) const {
  v1::Answer answer;
  answer.set_prompt_id(p.id());
  words = TrimSpaces(words);
  const OptionList& options = OptionsOf(p);
  switch (p.kind()) {
    case v1::PROMPT_TEXT:
      answer.set_text(std::string(words));
      break;
    case v1::PROMPT_YES_NO: {
      const std::string w = Squeezed(words);
      if (w == "yes" || w == "y" || w == "oui") {
        answer.set_yes(true);
      } else if (w != "no" && w != "n" && w != "non") {
        return Status(codes::kBadAnswer, "Answer yes or no.");
      }
      break;
    }
    case v1::PROMPT_NUMBER: {
      const std::string text(words);
      char* end = nullptr;
      errno = 0;
      const long long value = text.empty() ? 0 : std::strtoll(text.c_str(), &end, 10);
      if (text.empty() || *end != '\0' || errno == ERANGE) {
        return Status(codes::kBadAnswer, "Answer with a whole number from " + std::to_string(p.min()) +
                                      " to " + std::to_string(p.max()) + ".");
      }
      answer.set_number(value);
      break;
    }
    case v1::PROMPT_CHOOSE:
    case v1::PROMPT_ORDER: {
      if (words.empty()) return Status(codes::kBadAnswer, "Answer with a number or a name.");
      while (true) {
        const size_t comma = words.find(',');
        const std::string_view part = TrimSpaces(words.substr(0, comma));
        const bool number = !part.empty() && std::all_of(part.begin(), part.end(), [](char c) {
          return c >= '0' && c <= '9';
        });
        if (number && options.size() <= kListedOptions) {
          const long index = part.size() > 4 ? 0 : std::strtol(std::string(part).c_str(), nullptr, 10);
          if (index < 1 || index > options.size()) {
            return Status(codes::kBadAnswer, "There is no option " + std::string(part) + ": the options go from 1 to " +
                                          std::to_string(options.size()) + ".");
          }
          answer.add_options(options[static_cast<int>(index - 1)].id());
        } else {
          // The words first, then the id (a long list's options may be named by it alone); a
          // complete name wins over names it begins.
          const std::string want = Squeezed(part);
          std::vector<int> exact, begins;
          for (int i = 0; i < options.size() && !want.empty(); ++i) {
            const std::string label = Squeezed(renderer_.Render(options[i].label(), seat_name));
            const std::string id = Squeezed(options[i].id());
            if (label == want || id == want) exact.push_back(i);
            else if (label.rfind(want, 0) == 0) begins.push_back(i);
          }
          const std::vector<int>& found = exact.empty() ? begins : exact;
          if (found.empty()) {
            return Status(codes::kBadAnswer, "No option is called '" + std::string(part) + "'.");
          }
          if (found.size() > 1) {
            std::string which;
            for (size_t k = 0; k < found.size() && k < 5; ++k) {
              which += (k ? ", " : "") + renderer_.Render(options[found[k]].label(), seat_name);
            }
            return Status(codes::kBadAnswer, "'" + std::string(part) + "' could be " + which +
                                          (found.size() > 5 ? ", ..." : "") + ": say which.");
          }
          answer.add_options(options[found[0]].id());
        }
        if (comma == std::string_view::npos) break;
        words.remove_prefix(comma + 1);
      }
      break;
    }
    default:
      return Status(codes::kBadAnswer, "This question cannot be answered from a terminal.");
  }
  Status st = CheckAnswer(p, options, answer);
  if (!st.ok()) return st;
  return answer;
}

std::string Game::CheckContract() const {
  if (CoreField(ActionPrototype().GetDescriptor()) == nullptr)
    return ActionPrototype().GetTypeName() + " lacks `plateau.v1.CoreAction core` (answers, resigning)";
  const auto* table = ViewPrototype().GetDescriptor()->FindFieldByName("table");
  if (table == nullptr || table->is_repeated() || table->message_type() != v1::Table::descriptor())
    return ViewPrototype().GetTypeName() + " lacks `plateau.v1.Table table` (questions, log)";
  return "";
}

bool State::IsTerminal() const {
  if (GameOver()) return true;
  const int resigned = table().resigned_size();
  if (resigned == 0) return false;
  return num_seats_ - resigned <= (num_seats_ > 1 ? 1 : 0);
}

std::vector<int> State::ActingSeats() const {
  if (IsTerminal()) return {};
  return ActingNow();
}

bool State::IsActing(int seat) const {
  auto seats = ActingSeats();
  return std::find(seats.begin(), seats.end(), seat) != seats.end();
}

std::vector<int> State::Resigned() const {
  return std::vector<int>(table().resigned().begin(), table().resigned().end());
}

bool State::HasResigned(int seat) const {
  const auto& r = table().resigned();
  return std::find(r.begin(), r.end(), seat) != r.end();
}

std::unique_ptr<Message> State::PrivateViewWithoutLog(int seat) const {
  std::unique_ptr<Message> v = PrivateView(seat);
  if (const auto* f = v->GetDescriptor()->FindFieldByName("table"))
    static_cast<v1::Table*>(v->GetReflection()->MutableMessage(v.get(), f))->clear_log();
  return v;
}

namespace {
// A copy of `v` owned by `arena`; null for null.
Message* CopyOnto(const std::unique_ptr<Message>& v, google::protobuf::Arena* arena) {
  if (v == nullptr) return nullptr;
  Message* out = v->New(arena);
  out->CopyFrom(*v);
  return out;
}
}  // namespace

Message* State::PublicViewOn(google::protobuf::Arena* arena) const {
  return CopyOnto(PublicView(), arena);
}

Message* State::PrivateViewWithoutLogOn(int seat, google::protobuf::Arena* arena) const {
  return CopyOnto(PrivateViewWithoutLog(seat), arena);
}

std::vector<v1::Prompt> State::Prompts(int seat) const {
  if (seat < 0 || seat >= num_seats_ || IsTerminal()) return {};
  return OpenPrompts(seat);
}

Status State::Validate(int seat, const Message& action) const {
  if (seat < 0 || seat >= num_seats_) {
    return Status(codes::kBadSeat, "Seat " + std::to_string(seat) + " is not in this game.");
  }
  if (IsTerminal()) return Status(codes::kGameOver, "The game is over.");
  if (action.GetDescriptor() != game_->ActionPrototype().GetDescriptor()) {
    return Status(codes::kMalformed, "Actions in this game are " +
                                         game_->ActionPrototype().GetTypeName() + ", not " +
                                         action.GetTypeName() + ".");
  }
  const v1::CoreAction* core = game_->CoreOf(action);
  if (core != nullptr && core->has_resign()) {
    if (HasResigned(seat)) return Status(codes::kResigned, "You have already resigned.");
    // The game must be able to play on for the seat: tried on a copy first, so a resignation
    // that the game could not carry is refused instead of breaking the game.
    auto trial = CopyPosition();
    trial->mutable_table()->add_resigned(seat);
    if (!trial->PlayForResigned())
      return Status(codes::kIllegal, "The game cannot play on for you from here; resign later.");
    return Status::Ok();
  }
  if (HasResigned(seat)) return Status(codes::kResigned, "You resigned from this game.");
  return ValidateMove(seat, action, core);
}

namespace {

// The family leaves among `node`'s choices, when they all set the same fields, name them once,
// on it (next_paths); its other choices (a plain "none") have no params to name.
void ShareParamPaths(v1::MoveChoice* node) {
  const v1::MoveChoice* first = nullptr;
  int families = 0;
  for (const v1::MoveChoice& c : node->next()) {
    if (c.params_size() == 0) continue;
    if (first == nullptr) first = &c;
    if (c.params_size() != first->params_size()) return;
    for (int i = 0; i < c.params_size(); ++i)
      if (c.params(i).path() != first->params(i).path()) return;
    ++families;
  }
  if (families < 2) return;
  for (const auto& p : first->params()) node->add_next_paths(p.path());
  for (v1::MoveChoice& c : *node->mutable_next())
    for (auto& p : *c.mutable_params()) p.clear_path();
}

// Sends once what a tree repeats (table.proto, MoveChoice): the words all of a step's choices
// share go on the step (next_label), and a target its key already names (a card's id, a seat's
// number, a region's id) is left to the key (key_target). One walk over the tree, no copy of it.
void ShortenMoves(google::protobuf::RepeatedPtrField<v1::MoveChoice>* level) {
  for (v1::MoveChoice& node : *level) {
    if (node.has_target()) {
      const v1::Target& t = node.target();
      if (t.where_case() == v1::Target::kCard && t.card() == node.key()) {
        node.clear_target();
        node.set_key_target(v1::KEY_TARGET_CARD);
      } else if (t.where_case() == v1::Target::kSeat && t.seat() >= 0 &&
                 std::to_string(t.seat()) == node.key()) {
        node.clear_target();
        node.set_key_target(v1::KEY_TARGET_SEAT);
      } else if (t.where_case() == v1::Target::kRegion && t.region() == node.key()) {
        node.clear_target();
        node.set_key_target(v1::KEY_TARGET_REGION);
      }
    }
    if (node.next_size() == 0) continue;
    ShortenMoves(node.mutable_next());
    // Worth it from two choices on: a lone choice would only move its words up.
    if (node.next_size() < 2) continue;
    ShareParamPaths(&node);
    const std::string& key = node.next(0).label().key();
    if (key.empty()) continue;
    bool shared = true;
    for (const v1::MoveChoice& c : node.next()) shared = shared && c.label().key() == key;
    if (!shared) continue;
    node.mutable_next_label()->set_key(key);
    for (v1::MoveChoice& c : *node.mutable_next()) {
      if (c.label().args_size() == 0) {
        c.clear_label();
      } else {
        c.mutable_label()->clear_key();
      }
    }
  }
}

}  // namespace

void State::AddMoves(int seat, google::protobuf::RepeatedPtrField<v1::MoveChoice>* out) const {
  if (!game_->Info().publishes_moves || seat < 0 || seat >= num_seats_ || HasResigned(seat) ||
      !IsActing(seat) || GameMovesWait())
    return;
  GamePublishMoves(seat, out);
  ShortenMoves(out);
}

void State::GamePublishMoves(int seat,
                             google::protobuf::RepeatedPtrField<v1::MoveChoice>* out) const {
  for (const auto& action : GameLegalActions(seat)) {
    const std::vector<MoveStep> steps = GameDescribeMove(seat, *action);
    if (steps.empty()) continue;
    bool parts = false;
    for (const MoveStep& step : steps) parts = parts || !step.part.empty();
    google::protobuf::RepeatedPtrField<v1::MoveChoice>* level = out;
    v1::MoveChoice* node = nullptr;
    for (const MoveStep& step : steps) {
      // Siblings are few (a board's pieces, a piece's destinations): a walk beats an index.
      node = nullptr;
      for (v1::MoveChoice& c : *level) {
        if (c.key() == step.key) {
          node = &c;
          break;
        }
      }
      if (node == nullptr) {
        node = level->Add();
        node->set_key(step.key);
        *node->mutable_label() = step.label;
        if (step.target.where_case() != v1::Target::WHERE_NOT_SET)
          *node->mutable_target() = step.target;
        if (parts) node->set_action(step.part);
      }
      level = node->mutable_next();
    }
    if (!parts) DeterministicBytesInto(*action, node->mutable_action());
  }
}

bool State::TakeBackSafe(int seat, const Message& action) const {
  return Validate(seat, action).ok() && ValidTakeBackSafe(seat, action);
}

bool State::ValidTakeBackSafe(int seat, const Message& action) const {
  const v1::CoreAction* core = game_->CoreOf(action);
  if (core != nullptr && core->has_resign()) return false;
  // Whatever follows the move for a resigned seat is played at once, unseen by the mover.
  if (table().resigned_size() > 0) return false;
  // An answer to the core's queue resumes a resolution the game does not describe as a move.
  if (OpenDecision() != nullptr) return false;
  return GameTakeBackSafe(seat, action);
}

Status State::ValidateMove(int seat, const Message& action, const v1::CoreAction* core) const {
  if (core != nullptr) {
    if (!core->has_answer()) return Status(codes::kMalformed, "The core move is empty.");
    return ValidateAnswer(seat, action, core->answer());
  }
  if (!IsActing(seat)) return Status(codes::kNotYourTurn, "It is not your turn to act.");
  if (OpenDecision() != nullptr)
    if (auto answer = GameAnswerOf(seat, action))
      return ValidateAnswer(seat, action, *answer, /*typed=*/true);
  if (GameMovesWait())
    return Status(codes::kAnswerFirst, "Answer the question asked of you first.");
  return DoValidate(seat, action);
}

Status State::ValidateAnswer(int seat, const Message& action, const v1::Answer& answer,
                             bool typed) const {
  auto prompts = OpenPrompts(seat);
  if (prompts.empty()) {
    if (!IsActing(seat)) return Status(codes::kNotYourTurn, "It is not your turn to act.");
    return Status(codes::kNothingAsked, "Nothing is asked of you now: make your move.");
  }
  if (typed) {
    Status st = CheckAnswerRules(seat, action, answer);
    if (!st.ok()) return st;
  }
  Status st = CheckAnswer(prompts[0], game_->OptionsOf(prompts[0]), answer);
  if (!st.ok() || typed) return st;
  return CheckAnswerRules(seat, action, answer);
}

Status State::Apply(int seat, const Message& action, bool timed_out) {
  return Apply(seat, action, timed_out, nullptr);
}

Status State::Apply(int seat, const Message& action, bool timed_out, bool* take_back_safe) {
  Status st = Validate(seat, action);
  if (!st.ok()) return st;
  if (take_back_safe != nullptr) *take_back_safe = ValidTakeBackSafe(seat, action);
  history_.push_back({seat, DeterministicBytes(action), timed_out});
  if (timed_out) Log(T("core.timed_out", Seat{seat}));
  const v1::CoreAction* core = game_->CoreOf(action);
  if (core != nullptr && core->has_resign()) {
    mutable_table()->add_resigned(seat);
    Log(T("core.resigned", Seat{seat}));
  } else {
    ApplyValid(seat, action, core);
  }
  // A resignation was tried on a copy before it was accepted, and the suite checks every game's
  // default moves: failing here is an engine bug, loudly.
  if (!PlayForResigned()) std::abort();
  return st;
}

bool State::PlayForResigned() {
  // Each default move makes progress (the conformance suite checks that some seat can always
  // act); the bound only stops a game that would loop.
  for (int guard = 0; guard < 100000; ++guard) {
    if (IsTerminal()) return true;
    int who = -1;
    for (int s : ActingNow()) {
      if (HasResigned(s)) {
        who = s;
        break;
      }
    }
    if (who < 0) return true;
    auto a = DefaultAction(who);
    const v1::CoreAction* core = a ? game_->CoreOf(*a) : nullptr;
    if (!a || !ValidateMove(who, *a, core).ok()) return false;
    ApplyValid(who, *a, core);
  }
  return false;
}

Status State::ApplyBytes(int seat, std::string_view action_bytes, bool timed_out) {
  auto action = game_->ParseActionBytes(action_bytes);
  if (!action.ok()) return action.status();
  return Apply(seat, *action.value(), timed_out);
}

Status State::ApplyText(int seat, std::string_view action_text) {
  auto action = game_->ParseActionText(action_text);
  if (!action.ok()) return action.status();
  return Apply(seat, *action.value());
}

std::vector<std::unique_ptr<Message>> State::LegalActions(int seat) const {
  std::vector<std::unique_ptr<Message>> out;
  if (seat < 0 || seat >= num_seats_ || HasResigned(seat) || !IsActing(seat)) return out;
  if (!GameMovesWait()) out = GameLegalActions(seat);
  auto prompts = OpenPrompts(seat);
  if (!prompts.empty()) {
    bool complete = false;
    for (const auto& answer : EnumerateAnswers(prompts[0], game_->OptionsOf(prompts[0]),
                                               kMaxListedAnswers, &complete)) {
      auto action = game_->WrapAnswer(answer);
      if (CheckAnswerRules(seat, *action, answer).ok()) out.push_back(std::move(action));
    }
  }
  return out;
}

std::vector<v1::ActionFamily> State::ActionFamilies(int seat) const {
  if (seat < 0 || seat >= num_seats_ || HasResigned(seat) || !IsActing(seat) ||
      GameMovesWait())
    return {};
  return GameActionFamilies(seat);
}

std::unique_ptr<Message> State::Canonical(int seat, const Message& action) const {
  std::unique_ptr<Message> out(action.New());
  out->CopyFrom(action);
  if (game_->CoreOf(action) == nullptr && seat >= 0 && seat < num_seats_)
    GameCanonicalize(seat, *out);
  return out;
}

std::unique_ptr<Message> State::DefaultAction(int seat) const {
  auto prompts = OpenPrompts(seat);
  if (!prompts.empty()) {
    const v1::Decision* open = OpenDecisionOf(seat);
    const v1::Answer first = open != nullptr
                                 ? QueueDefault(*open, prompts[0], seat)
                                 : PlainAnswer(prompts[0], game_->OptionsOf(prompts[0]));
    auto plain = game_->WrapAnswer(first);
    if (CheckAnswerRules(seat, *plain, first).ok()) return plain;
    bool complete = false;
    for (const auto& answer : EnumerateAnswers(prompts[0], game_->OptionsOf(prompts[0]),
                                               kMaxListedAnswers, &complete)) {
      auto action = game_->WrapAnswer(answer);
      if (CheckAnswerRules(seat, *action, answer).ok()) return action;
    }
    return nullptr;
  }
  for (auto& a : GameLegalActions(seat))
    if (DoValidate(seat, *a).ok()) return std::move(a);
  return nullptr;
}

std::vector<int> State::Ranks() const {
  const auto resigned = Resigned();
  if (resigned.empty()) return GameRanks();
  std::vector<int> ranks(num_seats_, 0);
  std::vector<int> playing;
  for (int s = 0; s < num_seats_; ++s)
    if (!HasResigned(s)) playing.push_back(s);
  const std::vector<int> by_rules = GameOver() ? GameRanks() : std::vector<int>(num_seats_, 1);
  for (int s : playing) {
    int better = 0;
    for (int o : playing) better += by_rules[o] < by_rules[s] ? 1 : 0;
    ranks[s] = better + 1;
  }
  // The last to resign ranks first among those who resigned.
  const int n = static_cast<int>(resigned.size());
  for (int k = 0; k < n; ++k) ranks[resigned[n - 1 - k]] = static_cast<int>(playing.size()) + 1 + k;
  return ranks;
}

void State::Log(const v1::Text& text, std::vector<int> readers) {
  AppendLog(mutable_table(), text, std::move(readers), LogLimit());
}

void State::Log(const Phrase& text, std::vector<int> readers) {
  AppendLog(mutable_table(), text, std::move(readers), LogLimit());
}

std::unique_ptr<State> State::PerturbHidden(int seat, uint64_t salt) const {
  auto copy = CopyPosition();
  Rng rng(salt);
  RedrawHidden(copy->GameZones(), seat, rng);
  for (const PieceTable& table : copy->GamePieces()) {
    RedrawHiddenPieces(table.pieces, table.rules, seat, rng);
  }
  copy->PerturbMore(seat, rng);
  copy->RedrawPendingAnswers(seat, rng);
  return copy;
}

std::unique_ptr<State> State::SampleForSeat(int seat, uint64_t salt) const {
  auto copy = PerturbHidden(seat, salt);
  copy->history_.clear();
  // The entries other seats read go; log_seq stays (it is public).
  copy->mutable_table()->clear_log_texts();
  copy->mutable_table()->clear_log_ends();
  copy->mutable_table()->clear_log_readers();
  return copy;
}

std::string State::NewPromptId(int seat) {
  auto* t = mutable_table();
  while (t->prompts_asked_size() <= seat) t->add_prompts_asked(0);
  const uint32_t n = t->prompts_asked(seat);
  t->set_prompts_asked(seat, n + 1);
  return "p" + std::to_string(seat) + "." + std::to_string(n);
}

}  // namespace plateau::engine
