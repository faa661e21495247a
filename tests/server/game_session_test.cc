// GameSession without the network: every registered game played through it by seeded random
// moves, with what a client relies on checked on the very frames it would be sent — snapshots,
// refusals that change nothing, one version per action for everyone, previous view + diff == next
// view, resync, results, and restoring from the stored log.
#include <gtest/gtest.h>

#include <google/protobuf/descriptor.h>

#include <algorithm>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "engine/core/registry.h"
#include "engine/core/rng.h"
#include "engine/core/view_diff.h"
#include "plateau/v1/protocol.pb.h"
#include "server/error_codes.h"
#include "server/room/game_session.h"
#include "tests/server/mover_check.h"

namespace plateau::server {
namespace {

namespace v1 = plateau::v1;
using engine::DeterministicBytes;
using engine::Message;

constexpr char kRoomId[] = "room-1";

std::vector<std::string> GameIds() {
  engine::Status st = engine::Registry::LoadAll();
  if (!st.ok()) {
    ADD_FAILURE() << st.ToString();
    return {};
  }
  std::vector<std::string> ids;
  for (const engine::Game* g : engine::Registry::All()) ids.push_back(g->Info().id);
  return ids;
}

v1::ServerMessage Decode(const SharedBuffer& frame) {
  v1::ServerMessage m;
  EXPECT_TRUE(frame != nullptr && m.ParseFromString(*frame)) << "undecodable frame";
  return m;
}

std::vector<std::string> Bytes(const std::vector<SharedBuffer>& frames) {
  std::vector<std::string> out;
  for (const auto& f : frames) out.push_back(*f);
  return out;
}

// An engine view as its recipient receives it (engine::ToWireForm), from the game it belongs to.
std::unique_ptr<Message> Wire(std::unique_ptr<Message> view) {
  for (const engine::Game* g : engine::Registry::All())
    if (g->ViewPrototype().GetDescriptor() == view->GetDescriptor()) engine::ToWireForm(*g, view.get());
  return view;
}
std::string WireBytes(std::unique_ptr<Message> view) { return DeterministicBytes(*Wire(std::move(view))); }

// A received view without the moves the server holds for a seat that may not act
// (Table.moves_held), as the engine builds it: no moves.
std::string Unheld(const Message& view) {
  std::unique_ptr<Message> copy(view.New());
  copy->CopyFrom(view);
  const auto* field = copy->GetDescriptor()->FindFieldByName("table");
  auto* table = static_cast<v1::Table*>(copy->GetReflection()->MutableMessage(copy.get(), field));
  if (table->moves_held()) {
    table->clear_moves();
    table->clear_moves_held();
  }
  return DeterministicBytes(*copy);
}

// The engine seat whose view has `view_index`.
int SeatOf(const GameSession& session, size_t view_index) {
  return view_index + 1 < session.num_views() ? static_cast<int>(view_index) : engine::kSpectator;
}

std::vector<int> Acting(const google::protobuf::RepeatedField<int32_t>& seats) {
  return {seats.begin(), seats.end()};
}

// One recipient's copy of its view, kept as a client keeps it: a Snapshot, then Diffs.
struct HeldView {
  std::unique_ptr<Message> view;
  uint64_t version = 0;
};

HeldView FromSnapshot(const engine::Game& game, const v1::Snapshot& snapshot) {
  HeldView held;
  held.view.reset(game.ViewPrototype().New());
  EXPECT_TRUE(held.view->ParseFromString(snapshot.view()));
  held.version = snapshot.version();
  return held;
}

// A seeded random move of an acting seat: one of its listed legal actions, or what a timer would
// play when it lists none (a question whose answers are only described).
struct Move {
  int seat;
  std::unique_ptr<Message> action;
};

Move ChooseMove(const engine::State& state, engine::Rng& rng) {
  const std::vector<int> acting = state.ActingSeats();
  const int seat = acting[rng.Below(acting.size())];
  auto legal = state.LegalActions(seat);
  if (legal.empty()) return {seat, state.DefaultAction(seat)};
  return {seat, std::move(legal[rng.Below(legal.size())])};
}

// Everything a session shows its recipients, as bytes, to compare two sessions or a session
// before and after a refusal.
struct Observed {
  uint64_t version;
  uint32_t next_action_index;
  std::string position;
  std::vector<std::string> views;
  std::vector<std::string> snapshots;
  bool operator==(const Observed&) const = default;
};

// What a session shows; `unheld`: the moves it holds for waiting seats left out (those are the
// last turn's as this session sent them, which a session restored from the log has not sent:
// its recipients start from a Snapshot).
Observed Observe(const GameSession& session, bool unheld = false) {
  Observed o{session.version(), session.next_action_index(), session.state().Serialize(), {}, {}};
  for (size_t k = 0; k < session.num_views(); ++k) {
    if (!unheld) {
      o.views.push_back(DeterministicBytes(*session.view(k)));
      o.snapshots.push_back(*session.SnapshotFor(k));
      continue;
    }
    o.views.push_back(Unheld(*session.view(k)));
    v1::ServerMessage m;
    EXPECT_TRUE(m.ParseFromString(*session.SnapshotFor(k)));
    std::unique_ptr<Message> view(session.state().game().ViewPrototype().New());
    EXPECT_TRUE(view->ParseFromString(m.snapshot().view()));
    m.mutable_snapshot()->set_view(Unheld(*view));
    o.snapshots.push_back(DeterministicBytes(m));
  }
  return o;
}

class GameSessionTest : public ::testing::TestWithParam<std::string> {
 protected:
  const engine::Game& game() const { return *engine::Registry::Find(GetParam()); }

  std::vector<int> SeatCounts() const {
    std::vector<int> out;
    for (int n = game().Info().min_seats; n <= game().Info().max_seats; ++n) out.push_back(n);
    return out;
  }

  std::unique_ptr<GameSession> Start(int seats, uint64_t seed) const {
    auto session = GameSession::Start(game(), kRoomId, seats, "", seed);
    EXPECT_TRUE(session.ok()) << session.status().ToString();
    if (!session.ok()) return nullptr;
    session.value()->SetWatched(true);  // every view kept, the spectators' included
    return std::move(session).value();
  }

  // Submits one move as the room does; returns its record.
  v1::ReplayAction Play(GameSession& session, engine::Rng& rng,
                        GameSession::Applied* applied = nullptr) {
    Move move = ChooseMove(session.state(), rng);
    const std::string bytes = DeterministicBytes(*move.action);
    auto submitted = session.Submit(move.seat, bytes);
    EXPECT_TRUE(submitted.ok()) << game().ActionToText(*move.action) << ": "
                                << submitted.status().ToString();
    if (!submitted.ok()) return {};
    v1::ReplayAction record = submitted.value().logged;
    EXPECT_EQ(record.action(), bytes);
    EXPECT_EQ(record.seat(), static_cast<uint32_t>(move.seat));
    if (applied != nullptr) *applied = std::move(submitted).value();
    return record;
  }
};

TEST_P(GameSessionTest, StartedSessionGivesEveryViewASnapshotAtVersionOne) {
  for (int seats : SeatCounts()) {
    auto session = Start(seats, 7);
    ASSERT_NE(session, nullptr);
    EXPECT_EQ(session->version(), 1u);
    EXPECT_EQ(session->next_action_index(), 0u);
    EXPECT_FALSE(session->over());
    ASSERT_EQ(session->num_views(), static_cast<size_t>(seats) + 1);
    EXPECT_EQ(session->ViewIndex(engine::kSpectator), static_cast<size_t>(seats));
    for (size_t k = 0; k < session->num_views(); ++k) {
      const int seat = SeatOf(*session, k);
      v1::ServerMessage m = Decode(session->SnapshotFor(k));
      ASSERT_TRUE(m.has_snapshot()) << m.DebugString();
      const v1::Snapshot& snap = m.snapshot();
      EXPECT_EQ(m.request_id(), 0u);
      EXPECT_EQ(snap.room_id(), kRoomId);
      EXPECT_EQ(snap.version(), 1u);
      EXPECT_EQ(snap.seat(), seat);
      EXPECT_EQ(snap.view_type(), game().ViewPrototype().GetDescriptor()->full_name());
      EXPECT_EQ(snap.view(), WireBytes(session->state().View(seat)));
      EXPECT_EQ(Acting(snap.acting_seats()), session->state().ActingSeats());
      EXPECT_FALSE(snap.game_over());
      // Up to date: nothing to send. Knowing nothing (version 0): the whole view.
      EXPECT_TRUE(session->ResyncFor(k, 1).empty());
      EXPECT_EQ(Bytes(session->ResyncFor(k, 0)),
                std::vector<std::string>{*session->SnapshotFor(k)});
    }
  }
}

TEST_P(GameSessionTest, OptionsTheGameRefusesStartNothing) {
  auto session = GameSession::Start(game(), kRoomId, game().Info().max_seats + 1, "", 7);
  ASSERT_FALSE(session.ok());
  EXPECT_FALSE(session.status().code().empty());
  EXPECT_FALSE(session.status().reason().empty());
  EXPECT_FALSE(GameSession::Start(game(), kRoomId, game().Info().min_seats, "\xff", 7).ok());
}

TEST_P(GameSessionTest, RefusedActionsChangeNothing) {
  for (int seats : SeatCounts()) {
    auto session = Start(seats, 11);
    ASSERT_NE(session, nullptr);
    engine::Rng rng(11);
    for (int step = 0; step < 40 && !session->over(); ++step) {
      const Observed before = Observe(*session);
      Move move = ChooseMove(session->state(), rng);
      const std::string bytes = DeterministicBytes(*move.action);

      // A truncated field: not an action at all.
      auto garbage = session->Submit(move.seat, std::string("\x0a\x05", 2));
      ASSERT_FALSE(garbage.ok());
      EXPECT_EQ(garbage.status().code(), engine::codes::kMalformed);
      EXPECT_FALSE(garbage.status().reason().empty());
      EXPECT_EQ(session->Submit(seats, bytes).status().code(), engine::codes::kBadSeat);
      EXPECT_EQ(session->Submit(engine::kSpectator, bytes).status().code(), engine::codes::kBadSeat);
      const std::vector<int> acting = session->state().ActingSeats();
      for (int other = 0; other < seats; ++other) {
        if (std::find(acting.begin(), acting.end(), other) != acting.end()) continue;
        auto refused = session->Submit(other, bytes);
        ASSERT_FALSE(refused.ok());
        EXPECT_EQ(refused.status().code(), engine::codes::kNotYourTurn);
        EXPECT_FALSE(refused.status().reason().empty());
      }
      ASSERT_EQ(Observe(*session), before) << "a refusal changed the session at step " << step;
      // Accepted, then taken back (its storing failed): as if it never happened.
      auto kept = [&] {  // the Diffs kept for resyncing, every view
        std::vector<std::string> out;
        for (size_t k = 0; k < session->num_views(); ++k)
          for (const auto& f : session->ResyncFor(k, 1)) out.push_back(*f);
        return out;
      };
      const auto kept_before = kept();
      ASSERT_TRUE(session->Submit(move.seat, bytes).ok());
      session->Undo();
      ASSERT_EQ(Observe(*session), before) << "undo left a change at step " << step;
      ASSERT_EQ(kept(), kept_before) << "undo left a kept Diff at step " << step;
      ASSERT_TRUE(session->Submit(move.seat, bytes).ok());
    }
  }
}

TEST_P(GameSessionTest, EveryActionAdvancesEveryViewByOneVersionAndItsDiffRebuildsIt) {
  for (int seats : SeatCounts()) {
    auto session = Start(seats, 23);
    ASSERT_NE(session, nullptr);
    std::vector<HeldView> held;
    for (size_t k = 0; k < session->num_views(); ++k) {
      held.push_back(FromSnapshot(game(), Decode(session->SnapshotFor(k)).snapshot()));
    }
    engine::Rng rng(23);
    int steps = 0;
    while (!session->over()) {
      ASSERT_LT(steps, 20000) << "no end";
      const uint64_t version = session->version();
      const uint32_t index = session->next_action_index();
      const std::vector<int> acting_before = session->state().ActingSeats();
      GameSession::Applied applied;
      const v1::ReplayAction record = Play(*session, rng, &applied);
      if (HasFailure()) return;
      ++steps;
      for (size_t k = 0; k < session->num_views(); ++k) {
        testing::ExpectMoverNamed(Decode(applied.diffs[k]).diff(), record.seat(), acting_before,
                                  SeatOf(*session, k));
      }

      EXPECT_EQ(applied.action_index, index);
      EXPECT_EQ(session->next_action_index(), index + 1);
      ASSERT_EQ(session->version(), version + 1);
      EXPECT_EQ(applied.game_over, session->over());
      const engine::LoggedAction& logged = session->state().History().back();
      EXPECT_EQ(record.seat(), logged.seat);
      EXPECT_EQ(record.action(), logged.action);
      EXPECT_TRUE(record.text().empty()) << "words are the storage thread's work";
      ASSERT_NE(applied.action, nullptr);
      EXPECT_EQ(DeterministicBytes(*applied.action), record.action());
      EXPECT_EQ(record.at_unix_ms(), 0) << "the session reads no clock";

      ASSERT_EQ(applied.diffs.size(), session->num_views());
      for (size_t k = 0; k < session->num_views(); ++k) {
        const int seat = SeatOf(*session, k);
        v1::ServerMessage m = Decode(applied.diffs[k]);
        ASSERT_TRUE(m.has_diff()) << m.DebugString();
        // The session writes Diff frames itself: they must be protobuf's encoding, byte for byte.
        EXPECT_EQ(m.SerializeAsString(), *applied.diffs[k]);
        const v1::Diff& diff = m.diff();
        EXPECT_EQ(m.request_id(), 0u);
        EXPECT_EQ(diff.room_id(), kRoomId);
        ASSERT_EQ(diff.diff().from_version(), held[k].version);
        ASSERT_EQ(diff.diff().to_version(), version + 1);
        EXPECT_EQ(Acting(diff.acting_seats()), session->state().ActingSeats());
        EXPECT_EQ(diff.game_over(), session->over());
        engine::Status st = engine::ApplyDiff(diff.diff().ops(), held[k].view.get());
        ASSERT_TRUE(st.ok()) << st.ToString();
        held[k].version = diff.diff().to_version();
        const std::string expected = WireBytes(session->state().View(seat));
        ASSERT_EQ(Unheld(*held[k].view), expected)
            << "view " << k << " after action " << index;
        EXPECT_EQ(DeterministicBytes(*session->view(k)), DeterministicBytes(*held[k].view));
        // The Diff just sent is what a recipient one version behind is sent again.
        EXPECT_EQ(Bytes(session->ResyncFor(k, version)),
                  std::vector<std::string>{*applied.diffs[k]});
      }
    }

    // Over: results for every seat, and no more actions.
    EXPECT_EQ(session->version(), static_cast<uint64_t>(steps) + 1);
    const std::vector<v1::SeatResult> results = session->Results();
    ASSERT_EQ(results.size(), static_cast<size_t>(seats));
    const std::vector<int64_t> scores = session->state().Scores();
    const std::vector<int> ranks = session->state().Ranks();
    bool someone_first = false;
    for (int i = 0; i < seats; ++i) {
      const v1::SeatResult& r = results[static_cast<size_t>(i)];
      EXPECT_EQ(r.seat(), static_cast<uint32_t>(i));
      EXPECT_TRUE(r.name().empty()) << "names are the room's";
      EXPECT_EQ(r.score(), scores[static_cast<size_t>(i)]);
      EXPECT_EQ(r.rank(), static_cast<uint32_t>(ranks[static_cast<size_t>(i)]));
      EXPECT_GE(r.rank(), 1u);
      EXPECT_LE(r.rank(), static_cast<uint32_t>(seats));
      EXPECT_EQ(r.detail(), session->state().ResultDetail(i));
      someone_first = someone_first || r.rank() == 1;
    }
    EXPECT_TRUE(someone_first);
    for (size_t k = 0; k < session->num_views(); ++k) {
      EXPECT_TRUE(Decode(session->SnapshotFor(k)).snapshot().game_over());
    }
    const std::string last = session->state().History().back().action;
    for (int seat = 0; seat < seats; ++seat) {
      EXPECT_EQ(session->Submit(seat, last).status().code(), engine::codes::kGameOver);
    }
  }
}

TEST_P(GameSessionTest, ResyncSendsTheMissedDiffsOrASnapshotWhenTheyAreNoLongerKept) {
  // Long enough for its first Diffs to have been dropped (by count or by bytes); more seats make
  // longer games.
  constexpr uint64_t kTarget = GameSession::kDiffHistory + 20;
  std::unique_ptr<GameSession> session;
  // Every Diff frame sent, by view then by the version it starts from (none from version 0),
  // and each view's history budget right after it was sent.
  std::vector<std::vector<std::string>> sent;
  std::vector<std::vector<size_t>> budget;
  for (int seats = game().Info().max_seats; seats >= game().Info().min_seats; --seats) {
    for (uint64_t seed = 31; seed < 36; ++seed) {
      session = Start(seats, seed);
      ASSERT_NE(session, nullptr);
      engine::Rng rng(seed);
      sent.assign(session->num_views(), {""});
      budget.assign(session->num_views(), {0});
      while (!session->over() && session->version() < kTarget) {
        GameSession::Applied applied;
        Play(*session, rng, &applied);
        ASSERT_FALSE(HasFailure());
        for (size_t k = 0; k < session->num_views(); ++k) {
          sent[k].push_back(*applied.diffs[k]);
          budget[k].push_back(session->HistoryBudget(k));
          // The view's own size without its log, at most the fixed bound.
          auto whole = session->view(k);
          auto* table = static_cast<v1::Table*>(whole->GetReflection()->MutableMessage(
              whole.get(), whole->GetDescriptor()->FindFieldByName("table")));
          table->clear_log();
          EXPECT_EQ(budget[k].back(),
                    std::min(GameSession::kDiffHistoryBytes, whole->ByteSizeLong()));
        }
      }
      if (session->version() >= kTarget) break;
    }
    if (session->version() >= kTarget) break;
  }
  const uint64_t now = session->version();
  bool dropped = false;
  for (size_t k = 0; k < session->num_views(); ++k) {
    // The oldest version still answered with Diffs: the history as kept one Diff at a time, the
    // oldest dropped while over the count or the budget of that moment (the newest always stays).
    std::deque<uint64_t> kept;
    size_t bytes = 0;
    for (uint64_t from = 1; from < now; ++from) {
      kept.push_back(from);
      bytes += sent[k][from].size();
      while (kept.size() > 1 &&
             (kept.size() > GameSession::kDiffHistory || bytes > budget[k][from])) {
        bytes -= sent[k][kept.front()].size();
        kept.pop_front();
      }
    }
    const uint64_t oldest = kept.empty() ? now : kept.front();
    dropped = dropped || oldest > 1;
    const std::string snapshot = *session->SnapshotFor(k);
    for (uint64_t have = oldest; have < now; ++have) {
      const std::vector<std::string> expected(sent[k].begin() + static_cast<ptrdiff_t>(have),
                                              sent[k].end());
      ASSERT_EQ(Bytes(session->ResyncFor(k, have)), expected) << "view " << k << " from " << have;
    }
    EXPECT_TRUE(session->ResyncFor(k, now).empty());
    const std::vector<std::string> just_snapshot{snapshot};
    EXPECT_EQ(Bytes(session->ResyncFor(k, 0)), just_snapshot);
    EXPECT_EQ(Bytes(session->ResyncFor(k, now + 1)), just_snapshot) << "a version never reached";
    if (oldest > 1) {
      EXPECT_EQ(Bytes(session->ResyncFor(k, oldest - 1)), just_snapshot) << "too old";
    }
  }
  if (!dropped) {
    GTEST_SKIP() << GetParam() << ": no game of " << kTarget - 1
                 << " actions, too short to drop a Diff from the history";
  }
}

TEST_P(GameSessionTest, SessionRestoredFromItsLogEqualsTheOneThatPlayedIt) {
  for (int seats : SeatCounts()) {
    const uint64_t seed = 43 + static_cast<uint64_t>(seats);
    auto played = Start(seats, seed);
    ASSERT_NE(played, nullptr);
    engine::Rng rng(seed);
    std::vector<v1::ReplayAction> records;
    std::vector<std::vector<std::string>> frames;  // by action
    std::vector<Observed> seen{Observe(*played, true)};  // by version - 1
    while (!played->over()) {
      ASSERT_LT(records.size(), 20000u) << "no end";
      GameSession::Applied applied;
      records.push_back(Play(*played, rng, &applied));
      ASSERT_FALSE(HasFailure());
      frames.push_back(Bytes(applied.diffs));
      seen.push_back(Observe(*played, true));
    }
    std::vector<engine::LoggedAction> log;
    for (const auto& r : records) log.push_back({static_cast<int>(r.seat()), r.action()});

    // At the end and half-way; from half-way, the rest of the log makes the same frames.
    for (size_t cut : {log.size(), log.size() / 2}) {
      const std::vector<engine::LoggedAction> prefix(log.begin(),
                                                     log.begin() + static_cast<ptrdiff_t>(cut));
      auto restored = GameSession::Restore(game(), kRoomId, seats, "", seed, prefix);
      ASSERT_TRUE(restored.ok()) << restored.status().ToString();
      GameSession& session = *restored.value();
      session.SetWatched(true);
      ASSERT_EQ(Observe(session, true), seen[cut]) << "restored after " << cut << " actions";
      // No history survives: a resuming client gets a Snapshot, at the restored version too.
      for (uint64_t have : {session.version(), session.version() - 1}) {
        EXPECT_EQ(Bytes(session.ResyncFor(0, have)),
                  std::vector<std::string>{*session.SnapshotFor(0)});
      }
      // The rest of the log makes the same frames, but for the moves the played session held
      // for waiting seats (it had sent them; the restored one has sent nothing): once every
      // seat has been sent moves again, the frames are the same byte for byte.
      std::vector<bool> acted(static_cast<size_t>(seats), false);
      for (size_t i = cut; i < log.size(); ++i) {
        auto applied = session.Submit(log[i].seat, log[i].action);
        ASSERT_TRUE(applied.ok()) << applied.status().ToString();
        ASSERT_EQ(Observe(session, true), seen[i + 1]) << "action " << i;
        if (std::all_of(acted.begin(), acted.end(), [](bool b) { return b; })) {
          ASSERT_EQ(Bytes(applied.value().diffs), frames[i]) << "action " << i;
        }
        for (int seat = 0; seat < seats; ++seat) {
          const auto view = session.view(static_cast<size_t>(seat));
          const auto& table = static_cast<const v1::Table&>(view->GetReflection()->GetMessage(
              *view, view->GetDescriptor()->FindFieldByName("table")));
          if (table.moves_size() > 0 && !table.moves_held()) acted[static_cast<size_t>(seat)] = true;
        }
      }
      EXPECT_EQ(Observe(session, true), seen.back());
      EXPECT_TRUE(session.over());
      const auto a = session.Results();
      const auto b = played->Results();
      ASSERT_EQ(a.size(), b.size());
      for (size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].SerializeAsString(), b[i].SerializeAsString());
      }
    }
  }
}

// Each recipient of the played session, holding its view as a client does (Snapshot, then Diffs),
// resumes on the session restored from the log (a restart, another node taking the game over) at
// the version it holds, and then follows the rest of the game on it: its view is at every step
// the restored session's own, moves held for waiting seats included. (The played session held
// the moves it had sent; the restored one cannot know them, so the version alone does not say
// the client holds the same view.)
TEST_P(GameSessionTest, ClientsOfThePlayedSessionFollowTheRestoredOneFromTheirVersion) {
  int held_at_cut = 0;
  for (int seats : SeatCounts()) {
    for (uint64_t seed = 61; seed < 64; ++seed) {
      auto played = Start(seats, seed);
      ASSERT_NE(played, nullptr);
      std::vector<HeldView> held;
      for (size_t k = 0; k < played->num_views(); ++k)
        held.push_back(FromSnapshot(game(), Decode(played->SnapshotFor(k)).snapshot()));
      engine::Rng rng(seed);
      std::vector<engine::LoggedAction> log;
      // Played to somewhere in its middle, every recipient following it.
      const size_t cut = 3 + seed % 5;
      while (!played->over() && log.size() < cut) {
        GameSession::Applied applied;
        const v1::ReplayAction record = Play(*played, rng, &applied);
        ASSERT_FALSE(HasFailure());
        log.push_back({static_cast<int>(record.seat()), record.action()});
        for (size_t k = 0; k < held.size(); ++k) {
          ASSERT_TRUE(engine::ApplyDiff(Decode(applied.diffs[k]).diff().diff().ops(),
                                        held[k].view.get()).ok());
          held[k].version = Decode(applied.diffs[k]).diff().diff().to_version();
        }
      }
      if (played->over()) continue;
      for (size_t k = 0; k + 1 < held.size(); ++k) {
        const auto view = played->view(k);
        const auto& table = static_cast<const v1::Table&>(view->GetReflection()->GetMessage(
            *view, view->GetDescriptor()->FindFieldByName("table")));
        if (table.moves_held()) ++held_at_cut;
      }
      auto restored = GameSession::Restore(game(), kRoomId, seats, "", seed, log);
      ASSERT_TRUE(restored.ok()) << restored.status().ToString();
      GameSession& session = *restored.value();
      session.SetWatched(true);
      auto follow = [&](size_t k, const SharedBuffer& frame) {
        const v1::ServerMessage m = Decode(frame);
        if (m.has_snapshot()) {
          held[k] = FromSnapshot(game(), m.snapshot());
          return;
        }
        ASSERT_TRUE(m.has_diff()) << m.DebugString();
        ASSERT_EQ(m.diff().diff().from_version(), held[k].version) << "view " << k;
        ASSERT_TRUE(engine::ApplyDiff(m.diff().diff().ops(), held[k].view.get()).ok());
        held[k].version = m.diff().diff().to_version();
      };
      for (size_t k = 0; k < held.size(); ++k) {
        ASSERT_EQ(held[k].version, session.version());
        for (const SharedBuffer& frame : session.ResyncFor(k, held[k].version)) follow(k, frame);
        ASSERT_EQ(DeterministicBytes(*held[k].view), DeterministicBytes(*session.view(k)))
            << "view " << k << " resumed at version " << held[k].version;
      }
      const uint64_t resumed_at = session.version();
      for (int step = 0; step < 40 && !session.over(); ++step) {
        GameSession::Applied applied;
        Play(session, rng, &applied);
        ASSERT_FALSE(HasFailure());
        for (size_t k = 0; k < held.size(); ++k) {
          follow(k, applied.diffs[k]);
          ASSERT_EQ(DeterministicBytes(*held[k].view), DeterministicBytes(*session.view(k)))
              << "view " << k << " at version " << session.version();
        }
      }
      // Whoever comes back only now, from the version it held before the restore, is sent the
      // whole view: the Diffs kept were made from the restored session's own.
      for (size_t k = 0; k < held.size(); ++k) {
        const std::vector<std::string> snapshot{*session.SnapshotFor(k)};
        EXPECT_EQ(Bytes(session.ResyncFor(k, resumed_at)), snapshot) << "view " << k;
      }
    }
  }
  if (game().Info().publishes_moves) {
    EXPECT_GT(held_at_cut, 0) << "no seat held moves at a cut";
  }
}

// A move the engine says may be taken back is offered (can_undo) to its seat alone, once the room
// allows it; taken back, every view is as before it, one version later, and the Diffs (sent, or
// resent on Resync) rebuild every recipient's view. Seeded random play, as above.
TEST_P(GameSessionTest, ATakenBackMoveLeavesEveryViewAsBeforeItThroughItsDiffs) {
  int taken_back = 0;
  for (int seats : SeatCounts()) {
    const uint64_t seed = 71 + static_cast<uint64_t>(seats);
    auto session = Start(seats, seed);
    ASSERT_NE(session, nullptr);
    session->SetUndo(true);
    engine::Rng rng(seed);
    for (int step = 0; step < 20000 && !session->over(); ++step) {
      const Observed before = Observe(*session);
      GameSession::Applied applied;
      const v1::ReplayAction record = Play(*session, rng, &applied);
      ASSERT_FALSE(HasFailure());
      const int mover = static_cast<int>(record.seat());
      const bool may = session->CanTakeBack(mover).ok();
      for (size_t k = 0; k < session->num_views(); ++k) {
        const bool offered = Decode(applied.diffs[k]).diff().can_undo();
        ASSERT_EQ(offered, may && SeatOf(*session, k) == mover) << "view " << k;
        ASSERT_FALSE(Decode(applied.diffs[k]).diff().taken_back()) << "a move takes nothing back";
        if (SeatOf(*session, k) != mover && SeatOf(*session, k) >= 0) {
          ASSERT_FALSE(session->CanTakeBack(SeatOf(*session, k)).ok());
        }
      }
      if (!may || taken_back >= 40 || rng.Below(2) == 0) continue;
      ++taken_back;
      const GameSession::Applied back = session->TakeBack();
      EXPECT_EQ(back.action_index, applied.action_index);
      const Observed after = Observe(*session);
      ASSERT_EQ(after.views, before.views);
      ASSERT_EQ(after.position, before.position);
      ASSERT_EQ(after.next_action_index, before.next_action_index);
      ASSERT_EQ(after.version, before.version + 2);
      ASSERT_EQ(session->CanTakeBack(mover).code(), codes::kNothingToUndo);  // once
      for (size_t k = 0; k < session->num_views(); ++k) {
        if (!back.diffs[k]) continue;  // nobody watching
        // Everyone is told a move went back, and whose to each view told whose it was (seat 0
        // included: a field with presence), in protobuf's own encoding.
        const v1::ServerMessage told = Decode(back.diffs[k]);
        ASSERT_TRUE(told.diff().taken_back()) << "view " << k;
        if (told.diff().has_mover_seat()) {
          EXPECT_EQ(told.diff().mover_seat(), mover);
        }
        if (SeatOf(*session, k) == mover) {
          EXPECT_TRUE(told.diff().has_mover_seat()) << "the mover is always told";
        }
        EXPECT_EQ(told.SerializeAsString(), *back.diffs[k]);
      }
      for (size_t k = 0; k < session->num_views(); ++k) {
        v1::ServerMessage snapshot;
        ASSERT_TRUE(snapshot.ParseFromString(before.snapshots[k]));
        HeldView held = FromSnapshot(game(), snapshot.snapshot());
        // The move's Diff and the take-back's, unless the view's budget kept only the newest: a
        // Snapshot then.
        const auto missed = session->ResyncFor(k, before.version);
        ASSERT_FALSE(missed.empty());
        if (missed.size() == 1) {
          const v1::ServerMessage m = Decode(missed[0]);
          ASSERT_TRUE(m.has_snapshot());
          ASSERT_EQ(m.snapshot().view(), before.views[k]);
          EXPECT_FALSE(m.snapshot().can_undo());
          continue;
        }
        ASSERT_EQ(missed.size(), 2u);
        EXPECT_EQ(*missed[1], *back.diffs[k]);
        for (const auto& frame : missed) {
          const v1::ServerMessage m = Decode(frame);
          ASSERT_EQ(m.diff().diff().from_version(), held.version);
          ASSERT_TRUE(engine::ApplyDiff(m.diff().diff().ops(), held.view.get()).ok());
          held.version = m.diff().diff().to_version();
        }
        EXPECT_FALSE(Decode(missed[1]).diff().can_undo());
        ASSERT_EQ(DeterministicBytes(*held.view), before.views[k]) << "view " << k;
      }
    }
  }
  EXPECT_GT(taken_back, 0) << "no move of random play could be taken back";
}

TEST_P(GameSessionTest, LogTheRulesRefuseIsNotRestored) {
  const int seats = game().Info().min_seats;
  std::vector<engine::LoggedAction> log{{0, "\x0a\x05"}};
  auto restored = GameSession::Restore(game(), kRoomId, seats, "", 5, log);
  ASSERT_FALSE(restored.ok());
  EXPECT_FALSE(restored.status().reason().empty());
}

// Nobody watching: the spectators' view is neither built nor diffed, and whoever starts watching
// gets the current one.
TEST_P(GameSessionTest, TheSpectatorsViewIsKeptOnlyWhileSomeoneWatches) {
  auto session = GameSession::Start(game(), kRoomId, game().Info().min_seats, "", 3);
  ASSERT_TRUE(session.ok());
  GameSession& s = *session.value();
  const size_t spectators = s.ViewIndex(engine::kSpectator);
  engine::Rng rng(3);
  for (int step = 0; step < 10 && !s.over(); ++step) {
    GameSession::Applied applied;
    Play(s, rng, &applied);
    EXPECT_EQ(applied.diffs[spectators], nullptr) << "a diff built for nobody";
    // Asked anyway, the snapshot is the current position's.
    const v1::Snapshot snap = Decode(s.SnapshotFor(spectators)).snapshot();
    EXPECT_EQ(snap.view(), WireBytes(s.state().View(engine::kSpectator)));
    EXPECT_EQ(snap.version(), s.version());
  }
  s.SetWatched(true);
  EXPECT_EQ(DeterministicBytes(*s.view(spectators)),
            WireBytes(s.state().View(engine::kSpectator)));
  if (!s.over()) {
    GameSession::Applied applied;
    Play(s, rng, &applied);
    ASSERT_NE(applied.diffs[spectators], nullptr);
  }
}

// A bot is given what a client in its seat holds, never the position (GameSession::SightFor,
// which the room's bots think with): at the easy level the seat's view, byte for byte the view a
// client builds from its Snapshot and the Diffs it was sent; at the normal level a position drawn
// from that view, whose own view for the seat is the same (the log aside: the sample keeps none),
// which has no history, and which comes out the same when everything the seat cannot see is
// changed first.
// A seat that may not act keeps the moves of its last turn, held: none offered, and the Diff
// that gives it its next turn carries only what changed. At the game's end nothing is held.
TEST_P(GameSessionTest, ASeatWaitingKeepsItsLastMovesHeld) {
  if (!game().Info().publishes_moves) GTEST_SKIP() << "publishes no moves";
  int held_seen = 0;
  for (int seats : SeatCounts()) {
    auto session = Start(seats, 41 + seats);
    ASSERT_NE(session, nullptr);
    std::vector<std::string> last(static_cast<size_t>(seats));  // each seat's last moves, wire form
    for (int seat = 0; seat < seats; ++seat) {
      const auto first = Wire(session->state().View(seat));
      const auto& table = static_cast<const v1::Table&>(
          first->GetReflection()->GetMessage(*first, first->GetDescriptor()->FindFieldByName("table")));
      v1::Table moves_only;
      *moves_only.mutable_moves() = table.moves();
      if (table.moves_size() > 0) last[static_cast<size_t>(seat)] = DeterministicBytes(moves_only);
    }
    engine::Rng rng(41);
    for (int step = 0; step < 400 && !session->over(); ++step) {
      GameSession::Applied applied;
      Play(*session, rng, &applied);
      if (HasFailure()) return;
      for (int seat = 0; seat < seats; ++seat) {
        const auto sent = session->view(static_cast<size_t>(seat));
        const auto* field = sent->GetDescriptor()->FindFieldByName("table");
        const auto& table = static_cast<const v1::Table&>(sent->GetReflection()->GetMessage(*sent, field));
        const auto engine_view = Wire(session->state().View(seat));
        const auto& fresh = static_cast<const v1::Table&>(
            engine_view->GetReflection()->GetMessage(*engine_view, field));
        v1::Table moves_only;
        *moves_only.mutable_moves() = table.moves();
        if (fresh.moves_size() > 0 || session->over()) {
          EXPECT_FALSE(table.moves_held());
          EXPECT_EQ(Unheld(*sent), DeterministicBytes(*engine_view));
          last[static_cast<size_t>(seat)] = session->over() ? "" : DeterministicBytes(moves_only);
          if (session->over()) {
            EXPECT_EQ(table.moves_size(), 0) << "moves held after the end";
          }
          continue;
        }
        if (last[static_cast<size_t>(seat)].empty()) {
          EXPECT_FALSE(table.moves_held()) << "moves held for a seat that never had any";
          continue;
        }
        ++held_seen;
        ASSERT_TRUE(table.moves_held()) << "seat " << seat << ", step " << step;
        EXPECT_EQ(DeterministicBytes(moves_only), last[static_cast<size_t>(seat)])
            << "the held moves are not the seat's last ones";
        EXPECT_TRUE(engine::PublishedMoves(game(), *sent).empty()) << "a held move offered";
      }
    }
  }
  EXPECT_GT(held_seen, 0) << "no seat ever waited with moves held";
}

TEST_P(GameSessionTest, ABotIsGivenOnlyWhatItsSeatIsSent) {
  auto without_log = [](const Message& view) {
    std::unique_ptr<Message> copy(view.New());
    copy->CopyFrom(view);
    const auto* field = copy->GetDescriptor()->FindFieldByName("table");
    static_cast<v1::Table*>(copy->GetReflection()->MutableMessage(copy.get(), field))->clear_log();
    return Unheld(*copy);
  };
  int checked = 0;
  for (int seats : SeatCounts()) {
    auto session = Start(seats, 977 + seats);
    ASSERT_NE(session, nullptr);
    // What each seat's client holds: its Snapshot, then every Diff it is sent.
    std::vector<HeldView> clients;
    for (int seat = 0; seat < seats; ++seat) {
      clients.push_back(
          FromSnapshot(game(), Decode(session->SnapshotFor(session->ViewIndex(seat))).snapshot()));
    }
    engine::Rng rng(31 * seats);
    for (int step = 0; step < 120 && !session->over(); ++step) {
      if (step % 7 == 0) {
        for (int seat : session->state().ActingSeats()) {
          const uint64_t seed = rng.Next();
          const Message& client = *clients[static_cast<size_t>(seat)].view;

          const auto easy = session->SightFor(seat, engine::BotLevel::kEasy, seed);
          ASSERT_NE(easy.view, nullptr);
          EXPECT_EQ(easy.sample, nullptr) << "an easy bot given a position";
          EXPECT_EQ(DeterministicBytes(*easy.view), DeterministicBytes(client)) << "seat " << seat;

          const auto normal = session->SightFor(seat, engine::BotLevel::kNormal, seed);
          ASSERT_NE(normal.sample, nullptr);
          EXPECT_EQ(normal.view, nullptr);
          EXPECT_TRUE(normal.sample->History().empty()) << "the sample kept the game's history";
          EXPECT_EQ(without_log(*Wire(normal.sample->View(seat))), without_log(client)) << "seat " << seat;
          const auto twin = session->state().PerturbHidden(seat, rng.Next());
          EXPECT_EQ(twin->SampleForSeat(seat, seed)->Serialize(), normal.sample->Serialize())
              << "seat " << seat << "'s sample depends on what it cannot see, step " << step;
          ++checked;
        }
      }
      GameSession::Applied applied;
      Play(*session, rng, &applied);
      if (HasFailure()) return;
      for (int seat = 0; seat < seats; ++seat) {
        const v1::ServerMessage sent = Decode(applied.diffs[session->ViewIndex(seat)]);
        ASSERT_TRUE(
            engine::ApplyDiff(sent.diff().diff().ops(), clients[static_cast<size_t>(seat)].view.get())
                .ok());
      }
    }
  }
  EXPECT_GT(checked, 0);
}

INSTANTIATE_TEST_SUITE_P(AllGames, GameSessionTest, ::testing::ValuesIn(GameIds()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

}  // namespace
}  // namespace plateau::server
