// The game side of a room (see game_session.h): views, Diffs, Snapshots and resyncs built from
// the engine State.
#include "server/room/game_session.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <string_view>
#include <utility>

#include "engine/core/stack_arena.h"
#include "engine/core/view_diff.h"
#include "server/error_codes.h"

namespace plateau::server {

namespace v1 = plateau::v1;

namespace {

using google::protobuf::io::CodedOutputStream;

void PutVarint(uint64_t v, std::string* out) {
  for (; v >= 0x80; v >>= 7) out->push_back(static_cast<char>(v | 0x80));
  out->push_back(static_cast<char>(v));
}

void PutTag(int field, int wire_type, std::string* out) {
  PutVarint(static_cast<uint64_t>(field) << 3 | static_cast<uint64_t>(wire_type), out);
}

size_t TagSize(int field) {
  return CodedOutputStream::VarintSize32(static_cast<uint32_t>(field) << 3);
}

// Bytes of a length-delimited field holding `len` bytes.
size_t FieldSize(int field, size_t len) {
  return TagSize(field) + CodedOutputStream::VarintSize64(len) + len;
}

// proto3 writes no field holding its default (0, empty): the sizes and writers below skip them.
size_t VarintFieldSize(int field, uint64_t v) {
  return v == 0 ? 0 : TagSize(field) + CodedOutputStream::VarintSize64(v);
}

size_t BytesFieldSize(int field, size_t len) { return len == 0 ? 0 : FieldSize(field, len); }

void PutVarintField(int field, uint64_t v, std::string* out) {
  if (v == 0) return;
  PutTag(field, 0, out);
  PutVarint(v, out);
}

void PutBytesField(int field, std::string_view bytes, std::string* out) {
  if (bytes.empty()) return;
  PutTag(field, 2, out);
  PutVarint(bytes.size(), out);
  out->append(bytes);
}

// Copies a view's new bytes over the held ones: in place when they fit the held buffer without
// leaving much of it unused, else into a buffer of their exact size (growing a string in place
// would double its capacity, and held bytes are most of a room's memory).
void Keep(const std::string& bytes, std::string* held) {
  const size_t capacity = held->capacity();
  if (capacity >= bytes.size() && capacity <= bytes.size() + bytes.size() / 4 + 32) {
    held->assign(bytes);
  } else {
    *held = std::string(bytes);
  }
}

// A field met walking serialized bytes: where its tag starts, where its length starts and its
// bytes (for a length-delimited field; `body`, `size` 0 otherwise).
struct WireField {
  int number = 0;
  bool delimited = false;
  size_t at = 0, length_at = 0, body = 0, size = 0;
};

// Calls `each` with the fields of `bytes` in order until it returns false. The bytes are ones
// this session serialized: a malformed field is a bug, not input.
template <class Each>
void ForEachWireField(std::string_view bytes, Each&& each) {
  using google::protobuf::internal::WireFormatLite;
  google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data()),
                                            static_cast<int>(bytes.size()));
  for (;;) {
    WireField f;
    f.at = static_cast<size_t>(in.CurrentPosition());
    const uint32_t tag = in.ReadTag();
    if (tag == 0) return;
    f.number = static_cast<int>(WireFormatLite::GetTagFieldNumber(tag));
    f.length_at = static_cast<size_t>(in.CurrentPosition());
    f.delimited = WireFormatLite::GetTagWireType(tag) == WireFormatLite::WIRETYPE_LENGTH_DELIMITED;
    if (f.delimited) {
      uint32_t size = 0;
      if (!in.ReadVarint32(&size)) std::abort();
      f.body = static_cast<size_t>(in.CurrentPosition());
      f.size = size;
      if (!each(f)) return;
      if (!in.Skip(static_cast<int>(size))) std::abort();
    } else {
      if (!each(f)) return;
      if (!WireFormatLite::SkipField(&in, tag)) std::abort();
    }
  }
}

// Bytes of a Diff's mover_seat and mover_origin (see DiffFrame).
size_t MoverSize(int mover_seat, v1::ActionOrigin origin) {
  if (mover_seat < 0) return 0;
  return TagSize(v1::Diff::kMoverSeatFieldNumber) +
         CodedOutputStream::VarintSize64(static_cast<uint64_t>(mover_seat)) +
         VarintFieldSize(v1::Diff::kMoverOriginFieldNumber, static_cast<uint64_t>(origin));
}

}  // namespace

bool GameSession::MoverTold(int reader, int seat, const std::vector<int>& before,
                            const std::vector<int>& after, bool resigned) {
  if (resigned || reader == seat) return true;
  const auto in = [](const std::vector<int>& seats, int s) {
    return std::find(seats.begin(), seats.end(), s) != seats.end();
  };
  if (!in(before, seat)) return false;
  // The only one acting, the reader aside.
  if (std::all_of(before.begin(), before.end(), [&](int s) { return s == seat || s == reader; })) {
    return true;
  }
  // The one that stopped acting: every other seat acting before still is.
  return !in(after, seat) && std::all_of(before.begin(), before.end(), [&](int s) {
    return s == seat || in(after, s);
  });
}

std::vector<bool> GameSession::WhoIsTold(const engine::State& after, int seat,
                                         const engine::Message& action,
                                         const std::vector<int>& acting_before,
                                         const std::vector<int>& acting_after) {
  const v1::CoreAction* core = after.game().CoreOf(action);
  const bool resigned = core != nullptr && core->has_resign();
  // By view index: the seats', then the spectators'.
  std::vector<bool> told;
  for (int k = 0; k <= after.num_seats(); ++k) {
    const int reader = k < after.num_seats() ? k : engine::kSpectator;
    told.push_back(MoverTold(reader, seat, acting_before, acting_after, resigned));
  }
  return told;
}

SharedBuffer GameSession::DiffFrame(const std::string& shared_ops, const std::string& own_ops,
                                    const std::vector<int>& acting, bool game_over,
                                    bool can_undo, int mover_seat,
                                    v1::ActionOrigin origin, bool taken_back) const {
  // The ServerMessage { diff: Diff { room_id, diff: ViewDiff { from, to, ops }, acting_seats,
  // game_over, can_undo, mover_seat, mover_origin, taken_back } } protobuf would write, written
  // directly into one buffer: the ops every
  // recipient shares are serialized once per action, not once per recipient (checked byte for
  // byte against protobuf by the session's tests).
  size_t seats = 0;
  for (int s : acting) {
    seats += CodedOutputStream::VarintSize64(static_cast<uint64_t>(static_cast<int64_t>(s)));
  }
  const size_t own = own_ops.size();
  const size_t view_diff = VarintFieldSize(v1::ViewDiff::kFromVersionFieldNumber, version() - 1) +
                           VarintFieldSize(v1::ViewDiff::kToVersionFieldNumber, version()) +
                           shared_ops.size() + own;
  const size_t diff = BytesFieldSize(v1::Diff::kRoomIdFieldNumber, room_id_.size()) +
                      FieldSize(v1::Diff::kDiffFieldNumber, view_diff) +
                      BytesFieldSize(v1::Diff::kActingSeatsFieldNumber, seats) +
                      VarintFieldSize(v1::Diff::kGameOverFieldNumber, game_over ? 1 : 0) +
                      VarintFieldSize(v1::Diff::kCanUndoFieldNumber, can_undo ? 1 : 0) +
                      MoverSize(mover_seat, origin) +
                      VarintFieldSize(v1::Diff::kTakenBackFieldNumber, taken_back ? 1 : 0);
  auto frame = std::make_shared<std::string>();
  frame->reserve(FieldSize(v1::ServerMessage::kDiffFieldNumber, diff));
  PutTag(v1::ServerMessage::kDiffFieldNumber, 2, frame.get());
  PutVarint(diff, frame.get());
  PutBytesField(v1::Diff::kRoomIdFieldNumber, room_id_, frame.get());
  PutTag(v1::Diff::kDiffFieldNumber, 2, frame.get());
  PutVarint(view_diff, frame.get());
  PutVarintField(v1::ViewDiff::kFromVersionFieldNumber, version() - 1, frame.get());
  PutVarintField(v1::ViewDiff::kToVersionFieldNumber, version(), frame.get());
  frame->append(shared_ops);
  frame->append(own_ops);
  if (seats > 0) {
    PutTag(v1::Diff::kActingSeatsFieldNumber, 2, frame.get());
    PutVarint(seats, frame.get());
    for (int s : acting) PutVarint(static_cast<uint64_t>(static_cast<int64_t>(s)), frame.get());
  }
  PutVarintField(v1::Diff::kGameOverFieldNumber, game_over ? 1 : 0, frame.get());
  PutVarintField(v1::Diff::kCanUndoFieldNumber, can_undo ? 1 : 0, frame.get());
  if (mover_seat >= 0) {
    // Optional: seat 0 is written too, so that it tells from "not named".
    PutTag(v1::Diff::kMoverSeatFieldNumber, 0, frame.get());
    PutVarint(static_cast<uint64_t>(mover_seat), frame.get());
    PutVarintField(v1::Diff::kMoverOriginFieldNumber, static_cast<uint64_t>(origin), frame.get());
  }
  PutVarintField(v1::Diff::kTakenBackFieldNumber, taken_back ? 1 : 0, frame.get());
  return frame;
}

engine::StatusOr<std::unique_ptr<GameSession>> GameSession::Start(const engine::Game& game,
                                                                  std::string room_id,
                                                                  int num_seats,
                                                                  std::string_view options,
                                                                  uint64_t seed) {
  auto state = game.NewGame(num_seats, options, seed);
  if (!state.ok()) return state.status();
  return std::unique_ptr<GameSession>(new GameSession(
      std::move(room_id), std::move(state).value(), /*taken_back=*/0, std::string(options), seed));
}

engine::StatusOr<std::unique_ptr<GameSession>> GameSession::Restore(
    const engine::Game& game, std::string room_id, int num_seats, std::string_view options,
    uint64_t seed, const std::vector<engine::LoggedAction>& log,
    const std::function<void(size_t, const engine::State&)>& after_each, bool last_by_player,
    uint64_t taken_back, bool taken_back_last) {
  if (log.empty()) {
    auto state = game.Replay(num_seats, options, seed, log, after_each);
    if (!state.ok()) return state.status();
    auto session = std::unique_ptr<GameSession>(new GameSession(
        std::move(room_id), std::move(state).value(), taken_back, std::string(options), seed));
    session->restored_version_ = session->version();
    return session;
  }
  // The last action is played apart, so the engine says, as when it was made, whether it may be
  // taken back: a restart changes nothing of what a seat may do.
  std::vector<engine::LoggedAction> before(log.begin(), log.end() - 1);
  auto state = game.Replay(num_seats, options, seed, before, after_each);
  if (!state.ok()) return state.status();
  std::unique_ptr<engine::State> s = std::move(state).value();
  const engine::LoggedAction& last = log.back();
  auto action = game.ParseActionBytes(last.action);
  if (!action.ok()) {
    return engine::Status(action.status().code(), "Action " + std::to_string(log.size() - 1) +
                                                      " of the log was refused: " +
                                                      action.status().reason());
  }
  LastMove made{last.seat, last_by_player, false, {}};
  const std::vector<int> acting_before = s->ActingSeats();
  if (engine::Status st = s->Apply(last.seat, *action.value(), last.timed_out, &made.safe);
      !st.ok()) {
    return engine::Status(st.code(), "Action " + std::to_string(log.size() - 1) +
                                         " of the log was refused: " + st.reason());
  }
  made.told = WhoIsTold(*s, last.seat, *action.value(), acting_before, s->ActingSeats());
  if (after_each) after_each(log.size() - 1, *s);
  auto session = std::unique_ptr<GameSession>(
      new GameSession(std::move(room_id), std::move(s), taken_back, std::string(options), seed));
  // After a take-back nobody may take back (see TakeBack), the move before it stays.
  if (!taken_back_last) session->last_ = made;
  session->restored_version_ = session->version();
  return session;
}

GameSession::GameSession(std::string room_id, std::unique_ptr<engine::State> state,
                         uint64_t taken_back, std::string options, uint64_t seed)
    : room_id_(std::move(room_id)),
      options_(std::move(options)),
      seed_(seed),
      state_(std::move(state)),
      acting_(state_->ActingSeats()),
      taken_back_(taken_back) {
  const int n = state_->num_seats();
  type_ = state_->game().ViewPrototype().GetDescriptor();
  table_field_ = type_->FindFieldByName("table");
  if (auto shared = state_->PublicView()) {
    splits_ = true;
    public_ = engine::DeterministicBytes(*shared);
  }
  views_.resize(static_cast<size_t>(n) + 1);
  for (int k = 0; k <= n; ++k) Hold(static_cast<size_t>(k));
  recent_.resize(views_.size());
  recent_bytes_.resize(views_.size());
  evicted_.resize(views_.size());
}

int GameSession::Reader(size_t view_index) const {
  return view_index < static_cast<size_t>(state_->num_seats()) ? static_cast<int>(view_index)
                                                               : engine::kSpectator;
}

void GameSession::Hold(size_t view_index) {
  const int r = Reader(view_index);
  std::unique_ptr<google::protobuf::Message> v =
      splits_ ? state_->PrivateView(r) : state_->View(r);
  Held& held = views_[view_index];
  held.log.clear();
  for (const auto& entry : TableOf(*v)->log()) held.log.push_back(entry.seq());
  TableOf(*v)->clear_log();
  Compact(view_index, *v);
  SerializeView(view_index, *v, &held.rest);
}

std::unique_ptr<google::protobuf::Message> GameSession::view(size_t view_index) const {
  if (view_index + 1 == views_.size() && !watched_) {
    std::unique_ptr<google::protobuf::Message> v = state_->View(engine::kSpectator);
    engine::ToWireForm(state_->game(), v.get());
    return v;
  }
  // The parts are disjoint top-level fields (and the log the table's alone): merged, they are
  // the view the recipient holds.
  std::unique_ptr<google::protobuf::Message> whole(state_->game().ViewPrototype().New());
  const Held& held = views_[view_index];
  if (!whole->ParseFromString(public_) || !whole->MergeFromString(held.rest)) std::abort();
  // The entries the recipient holds are those of the engine's log it may read (see Held).
  engine::LogFor(state_->table(), Reader(view_index), TableOf(*whole)->mutable_log());
  for (auto& entry : *TableOf(*whole)->mutable_log())
    state_->game().TextRenderer().Compact(entry.mutable_text());
  return whole;
}

GameSession::BotSight GameSession::SightFor(int seat, engine::BotLevel level, uint64_t seed) const {
  BotSight sight;
  if (level == engine::BotLevel::kNormal) {
    sight.sample = state_->SampleForSeat(seat, seed);
  } else {
    sight.view = view(ViewIndex(seat));
  }
  return sight;
}

size_t GameSession::ViewIndex(int seat) const {
  return seat >= 0 ? static_cast<size_t>(seat) : views_.size() - 1;
}

uint32_t GameSession::next_action_index() const {
  return static_cast<uint32_t>(state_->History().size());
}

engine::StatusOr<GameSession::Applied> GameSession::Submit(int seat, std::string_view action_bytes,
                                                           bool by_player, bool timed_out,
                                                           v1::ActionOrigin origin) {
  auto parsed = state_->game().ParseActionBytes(action_bytes);
  if (!parsed.ok()) return parsed.status();
  std::shared_ptr<const engine::Message> action = std::move(parsed).value();
  Applied out;
  out.action_index = next_action_index();
  // Asked only where a take-back could follow, of the position before the move.
  bool safe = false;
  if (engine::Status st = state_->Apply(seat, *action, timed_out,
                                        undo_allowed_ && by_player ? &safe : nullptr);
      !st.ok())
    return st;
  // The acting seats are asked once per position: before the move they are those of the last one.
  const std::vector<int> acting_before = std::exchange(acting_, state_->ActingSeats());
  std::vector<bool> told = WhoIsTold(*state_, seat, *action, acting_before, acting_);
  last_before_ = last_;
  last_ = {seat, by_player, safe, told};
  out.logged.set_seat(seat);
  out.logged.set_action(state_->History().back().action);  // serialized once, by the engine
  out.logged.set_origin(origin);
  out.action = std::move(action);
  Publish(&out, {seat, origin, std::move(told)});
  return out;
}

int GameSession::UndoSeat() const {
  return undo_allowed_ && last_.by_player && last_.safe && !state_->IsTerminal() ? last_.seat : -1;
}

engine::Status GameSession::CanTakeBack(int seat) const {
  if (UndoSeat() == seat && seat >= 0) return engine::Status::Ok();
  if (state_->IsTerminal()) return engine::Status(codes::kGameNotRunning, "The game is over.");
  const auto& history = state_->History();
  const bool moved = std::any_of(history.begin(), history.end(),
                                 [&](const engine::LoggedAction& a) { return a.seat == seat; });
  if (last_.seat != seat) {
    if (last_.seat < 0 || !moved) {
      return engine::Status(codes::kNothingToUndo, "You have no move to take back.");
    }
    return engine::Status(codes::kUndoTooLate,
                          "Another move was made after yours: it can no longer be taken back.");
  }
  if (!last_.by_player) {
    return engine::Status(codes::kNothingToUndo,
                          "Your last move was played for you; only your own moves can be taken back.");
  }
  return engine::Status(codes::kUndoUnsafe,
                        "That move drew or showed something, so it cannot be taken back.");
}

GameSession::Applied GameSession::TakeBack() {
  Applied out;
  const auto& history = state_->History();
  out.action_index = static_cast<uint32_t>(history.size() - 1);
  out.logged.set_seat(history.back().seat);
  out.logged.set_action(history.back().action);
  state_ = ReplayWithoutLast();
  acting_ = state_->ActingSeats();
  // Each seat holds again the moves it held before the move: every view as it was.
  for (auto& held : views_) held.RestoreMoves();
  ++taken_back_;  // one version more: the log is one shorter (see version())
  // Named as the move was: whoever was told who made it is told who took it back.
  const Mover mover{last_.seat, v1::ORIGIN_PLAYER, last_.told, /*taken_back=*/true};
  // Taken back once: the move before it stays, whoever made it.
  last_ = {};
  Publish(&out, mover);
  for (auto& evicted : evicted_) evicted.clear();  // Undo follows a failed Submit only
  return out;
}

void GameSession::Publish(Applied* out_ptr, const Mover& mover) {
  Applied& out = *out_ptr;
  const int n = state_->num_seats();
  const std::vector<int>& acting = acting_;
  out.game_over = state_->IsTerminal();
  const int undo_seat = UndoSeat();
  // The part every recipient shares is built and diffed once (a game that splits its view).
  thread_local EntryCache entries;
  entries.used = 0;
  // The views built for this action live on one arena, dropped at once with it once serialized;
  // its first block is on the stack, so they cost few allocations, if any.
  engine::StackArena<kArenaBlockBytes> stack_arena;
  google::protobuf::Arena& arena = *stack_arena.get();
  // The bytes of each view after the action are serialized into a buffer kept per thread, then
  // copied over those held once diffed (Keep). (Swapping the buffers instead would leave every
  // held view with the capacity of the largest one serialized on the thread: 10 KB more per LIMIT
  // room. A room runs on one thread at a time and Submit never calls itself.)
  // The ops likewise: written serialized (engine::ComputeDiff), the shared ones once.
  thread_local std::string next_public, next, shared_bytes, own;
  shared_bytes.clear();
  if (splits_) {
    engine::DeterministicBytesInto(*state_->PublicViewOn(&arena), &next_public);
    engine::ComputeDiff(*type_, public_, next_public, &shared_bytes);
    Keep(next_public, &public_);
  }
  for (int k = 0; k <= n; ++k) {
    if (k == n && !watched_) {
      out.diffs.push_back(nullptr);
      continue;
    }
    const int reader = Reader(static_cast<size_t>(k));
    Held& held = views_[static_cast<size_t>(k)];
    google::protobuf::Message* built = state_->PrivateViewWithoutLogOn(reader, &arena);
    held.BeginAction();
    Compact(static_cast<size_t>(k), *built);
    SerializeView(static_cast<size_t>(k), *built, &next);
    own.clear();
    engine::ComputeDiff(*type_, held.rest, next, &own);
    Keep(next, &held.rest);
    UpdateLog(reader, &held.log, &own, &entries);
    const int named = mover.told[static_cast<size_t>(k)] ? mover.seat : -1;
    SharedBuffer frame = DiffFrame(shared_bytes, own, acting, out.game_over, k == undo_seat,
                                   named, mover.origin, mover.taken_back);
    auto& recent = recent_[static_cast<size_t>(k)];
    size_t& bytes = recent_bytes_[static_cast<size_t>(k)];
    recent.push_back({version() - 1, frame});
    bytes += frame->size();
    auto& evicted = evicted_[static_cast<size_t>(k)];
    evicted.clear();
    // The newest stays whatever its size: a recipient one version behind gets it, not a Snapshot.
    const size_t budget = HistoryBudget(static_cast<size_t>(k));
    while (recent.size() > 1 && (recent.size() > kDiffHistory || bytes > budget)) {
      bytes -= recent.front().frame->size();
      evicted.push_back(std::move(recent.front()));
      recent.pop_front();
    }
    out.diffs.push_back(std::move(frame));
  }
}

void GameSession::Compact(size_t view_index, google::protobuf::Message& view) {
  v1::Table* table = TableOf(view);
  state_->game().TextRenderer().Compact(table);
  HoldMoves(view_index, table);
}

void GameSession::HoldMoves(size_t view_index, v1::Table* table) {
  if (view_index + 1 >= views_.size()) return;  // spectators have no moves
  Held& view = views_[view_index];
  // What was held before goes aside (a swap, not a copy) for Undo and TakeBack.
  auto replace = [&] {
    view.moves.swap(view.moves_before);
    view.moves_changed = true;
    view.moves.clear();
  };
  if (state_->IsTerminal()) {
    if (!view.moves.empty()) replace();
    view.moves_live = false;
    return;
  }
  if (table->moves_size() > 0) {
    // The seat's moves are in its view (view.rest once it is kept): they are taken out of those
    // bytes only when it stops acting, not serialized a second time on each of its actions.
    view.moves_live = true;
    return;
  }
  if (view.moves_live) {
    // Its turn just ended: the moves of the view it holds are the ones kept.
    replace();
    MovesOf(view.rest, &view.moves);
    view.moves.shrink_to_fit();  // held for a whole round: no room to grow kept
    view.moves_live = false;
  }
  // The held moves themselves go into the view's bytes (SerializeView), never parsed back.
  if (!view.moves.empty()) table->set_moves_held(true);
}

void GameSession::SerializeView(size_t view_index, const google::protobuf::Message& view,
                                std::string* out) const {
  engine::DeterministicBytesInto(view, out);
  if (view_index + 1 >= views_.size()) return;
  const std::string& moves = views_[view_index].moves;
  const auto& table = static_cast<const v1::Table&>(view.GetReflection()->GetMessage(view, table_field_));
  if (moves.empty() || !table.moves_held()) return;
  // The bytes protobuf would write for the table with these moves merged in: they go where its
  // `moves` would be (before `moves_held`, the fields in number order), and the table's length
  // grows by as much. The table, with moves_held set, is in the bytes.
  WireField span;
  ForEachWireField(*out, [&](const WireField& f) {
    if (f.number != table_field_->number() || !f.delimited) return true;
    span = f;
    return false;
  });
  if (span.number == 0) std::abort();
  size_t insert_at = span.body + span.size;
  ForEachWireField(std::string_view(*out).substr(span.body, span.size), [&](const WireField& f) {
    if (f.number <= v1::Table::kMovesFieldNumber) return true;
    insert_at = span.body + f.at;
    return false;
  });
  out->insert(insert_at, moves);
  std::string length;
  PutVarint(span.size + moves.size(), &length);
  out->replace(span.length_at, span.body - span.length_at, length);
}

void GameSession::MovesOf(const std::string& view_bytes, std::string* out) const {
  // The view's `table`, then in it each `moves` field copied as it is (tag, length, bytes), so
  // merged into a table they are its moves again.
  out->clear();
  const std::string_view view(view_bytes);
  ForEachWireField(view, [&](const WireField& t) {
    if (t.number != table_field_->number() || !t.delimited) return true;
    const std::string_view table = view.substr(t.body, t.size);
    ForEachWireField(table, [&](const WireField& m) {
      if (m.number == v1::Table::kMovesFieldNumber && m.delimited)
        out->append(table.substr(m.at, m.body - m.at + m.size));
      return true;
    });
    return true;
  });
}

v1::Table* GameSession::TableOf(google::protobuf::Message& view) const {
  // The registry admits only games whose View has a plateau.v1.Table `table`.
  return static_cast<v1::Table*>(view.GetReflection()->MutableMessage(&view, table_field_));
}

void GameSession::UpdateLog(int reader, std::vector<uint64_t>* log, std::string* ops,
                            EntryCache* serialized) const {
  const v1::TableState& records = state_->table();
  const int count = static_cast<int>(engine::LogSize(records));
  auto seq_at = [&](int i) { return engine::LogSeqAt(records, static_cast<size_t>(i)); };
  // The engine trims its log at the start and appends at the end, and an entry never changes:
  // what the recipient holds is, after some entries dropped at its start, the entries it may
  // read up to some seq, and what it lacks is the readable ones after that. So only the new
  // entries are looked at, not the whole log on every action for every view.
  // Held entries the engine trimmed: those before its first entry (one still there, the
  // recipient was sent, so may read).
  const size_t held = log->size();
  const uint64_t first = count == 0 ? UINT64_MAX : seq_at(0);
  size_t dropped = 0;
  while (dropped < held && (*log)[dropped] < first) ++dropped;
  // The entries after the last one held, found from the end (an action adds a few); were the
  // last one held not where it should be, the whole readable log is sent again.
  int next = count;
  if (dropped < held) {
    const uint64_t last = log->back();
    while (next > 0 && seq_at(next - 1) > last) --next;
    if (next == 0 || seq_at(next - 1) != last) {
      dropped = held;
      next = 0;
    }
  } else {
    next = 0;
  }
  const auto table = static_cast<uint32_t>(table_field_->number());
  if (dropped > 0) {
    log->erase(log->begin(), log->begin() + static_cast<std::ptrdiff_t>(dropped));
    engine::DropFirstOp({table, v1::Table::kLogFieldNumber}, static_cast<uint32_t>(dropped), ops);
  }
  for (int i = next; i < count; ++i) {
    const engine::LogRef record = engine::LogAt(records, static_cast<size_t>(i));
    if (!engine::CanRead(record, reader)) continue;
    const auto begin = serialized->slots.begin();
    const auto end = begin + static_cast<std::ptrdiff_t>(serialized->used);
    auto it = std::find_if(begin, end, [&](const EntryBytes& e) { return e.seq == record.seq; });
    if (it == end) {
      if (serialized->used == serialized->slots.size()) serialized->slots.emplace_back();
      it = serialized->slots.begin() + static_cast<std::ptrdiff_t>(serialized->used++);
      it->seq = record.seq;
      LogEntryBytes(record, &it->bytes);
    }
    log->push_back(record.seq);
    engine::AppendMessageOp({table, v1::Table::kLogFieldNumber}, it->bytes, ops);
  }
}

void GameSession::LogEntryBytes(const engine::LogRef& record, std::string* out) const {
  // The LogEntry { seq, text } protobuf would write (the text always present): the record keeps
  // its text serialized, so the entry is the seq and those bytes compacted, in wire form. The
  // text is compacted in place, not parsed (a dozen heap allocations an entry that way, the most
  // of any step of an action), straight after the entry's header; its length, one byte for
  // nearly every entry, is written last and widened in the rare case it needs more.
  out->clear();
  PutVarintField(v1::LogEntry::kSeqFieldNumber, record.seq, out);
  PutTag(v1::LogEntry::kTextFieldNumber, 2, out);
  const size_t length_at = out->size();
  out->push_back('\0');
  if (!state_->game().TextRenderer().AppendCompacted(record.text, out)) {
    std::abort();  // the engine wrote them
  }
  const size_t text_size = out->size() - length_at - 1;
  std::string length;
  PutVarint(text_size, &length);
  out->replace(length_at, 1, length);
}

void GameSession::SetWatched(bool watched) {
  if (watched == watched_) return;
  watched_ = watched;
  if (!watched) return;
  Hold(views_.size() - 1);
  recent_.back().clear();
  recent_bytes_.back() = 0;
}

std::unique_ptr<engine::State> GameSession::ReplayWithoutLast() const {
  std::vector<engine::LoggedAction> log = state_->History();
  log.pop_back();
  auto replayed = state_->game().Replay(state_->num_seats(), options_, seed_, log);
  if (!replayed.ok()) {
    // The same build replaying its own accepted actions: failing is an engine bug.
    spdlog::critical("room {}: cannot replay its own log: {}", room_id_,
                     replayed.status().ToString());
    std::abort();
  }
  return std::move(replayed).value();
}

void GameSession::Undo() {
  if (state_->History().empty()) return;
  state_ = ReplayWithoutLast();
  acting_ = state_->ActingSeats();
  last_ = last_before_;  // the version went down with the log (see version())
  if (splits_) public_ = engine::DeterministicBytes(*state_->PublicView());
  const int n = state_->num_seats();
  for (int k = 0; k <= n; ++k) {
    if (k == n && !watched_) continue;
    // The moves held are those before the failed action, as its recipients still hold them.
    views_[static_cast<size_t>(k)].RestoreMoves();
    Hold(static_cast<size_t>(k));
    auto& recent = recent_[static_cast<size_t>(k)];
    // The newest kept Diff led to the version taken back.
    if (!recent.empty() && recent.back().from_version == version()) {
      recent_bytes_[static_cast<size_t>(k)] -= recent.back().frame->size();
      recent.pop_back();
      // What that Diff pushed out comes back, oldest first.
      auto& evicted = evicted_[static_cast<size_t>(k)];
      for (auto it = evicted.rbegin(); it != evicted.rend(); ++it) {
        recent_bytes_[static_cast<size_t>(k)] += it->frame->size();
        recent.push_front(std::move(*it));
      }
      evicted.clear();
    }
  }
}

SharedBuffer GameSession::SnapshotFor(size_t view_index) const {
  v1::ServerMessage m;
  v1::Snapshot* snap = m.mutable_snapshot();
  const std::unique_ptr<google::protobuf::Message> whole = view(view_index);
  const google::protobuf::Message& view = *whole;
  snap->set_room_id(room_id_);
  snap->set_version(version());
  snap->set_seat(view_index + 1 < views_.size() ? static_cast<int>(view_index) : -1);
  snap->set_view_type(view.GetDescriptor()->full_name());
  snap->set_view(engine::DeterministicBytes(view));
  for (int s : acting_) snap->add_acting_seats(s);
  snap->set_game_over(state_->IsTerminal());
  snap->set_can_undo(view_index + 1 < views_.size() && static_cast<int>(view_index) == UndoSeat());
  return Encode(m);
}

size_t GameSession::HistoryBudget(size_t view_index) const {
  return std::min(kDiffHistoryBytes, public_.size() + views_[view_index].rest.size());
}

std::vector<SharedBuffer> GameSession::ResyncFor(size_t view_index, uint64_t have_version) const {
  const uint64_t version = this->version();
  // Restored: what the client holds at that version may differ from this session's view (moves
  // held for a waiting seat), and the Diffs from it are made against this session's.
  if (have_version <= restored_version_) return {SnapshotFor(view_index)};
  if (have_version == version) return {};
  if (view_index + 1 == views_.size() && !watched_) return {SnapshotFor(view_index)};
  const auto& recent = recent_[view_index];
  // A version from before the kept Diffs, or one this game never had (0, a later one), can only
  // be answered with the whole view.
  const bool in_history = have_version > 0 && have_version < version && !recent.empty() &&
                          recent.front().from_version <= have_version;
  if (!in_history) return {SnapshotFor(view_index)};
  std::vector<SharedBuffer> missed;
  for (const auto& sent : recent) {
    if (sent.from_version >= have_version) missed.push_back(sent.frame);
  }
  return missed;
}

std::vector<v1::SeatResult> GameSession::Results() const {
  const std::vector<int64_t> scores = state_->Scores();
  const std::vector<int> ranks = state_->Ranks();
  std::vector<v1::SeatResult> results;
  for (int i = 0; i < state_->num_seats(); ++i) {
    v1::SeatResult r;
    r.set_seat(static_cast<uint32_t>(i));
    r.set_score(scores[static_cast<size_t>(i)]);
    r.set_rank(static_cast<uint32_t>(ranks[static_cast<size_t>(i)]));
    r.set_detail(state_->ResultDetail(i));
    results.push_back(std::move(r));
  }
  return results;
}

}  // namespace plateau::server
