// ReplayService on real Globalissimo games: played with the engine (seeded random legal actions),
// stored action by action through SqliteStore, finished, then replayed. Every step's views must
// be byte-identical to the engine's own during play, whatever order the steps are asked in.
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <thread>

#include "engine/core/registry.h"
#include "engine/core/rng.h"
#include "games/globalissimo.pb.h"
#include "tests/server/storage_test_support.h"
#include "tests/support/temp_dir.h"
#include "server/storage/replay_service.h"
#include "server/storage/sqlite_store.h"

namespace plateau::server {
namespace {

namespace fs = std::filesystem;
using plateau::v1::GameRecord;

using plateau::testing::TempDir;

// What the engine showed while the game was played.
struct Playthrough {
  std::string game_id;
  int seats = 0;
  // views[step][seat + 1]: the view bytes of each seat (index 0: the spectator) after `step`
  // actions.
  std::vector<std::vector<std::string>> views;
  std::vector<engine::LoggedAction> log;
  std::string final_position;  // State::Serialize() at the end
};

const engine::Game& Globalissimo() {
  EXPECT_TRUE(engine::Registry::LoadAll().ok());
  const engine::Game* game = engine::Registry::Find("globalissimo");
  EXPECT_NE(game, nullptr) << "the globalissimo game is not registered";
  return *game;
}

std::vector<std::string> AllViews(const engine::State& state) {
  std::vector<std::string> views;
  for (int seat = engine::kSpectator; seat < state.num_seats(); ++seat) {
    // As the replay sends it: its table's words by number.
    auto view = state.View(seat);
    engine::ToWireForm(state.game(), view.get());
    views.push_back(engine::DeterministicBytes(*view));
  }
  return views;
}

// Plays a whole game with random legal actions drawn from `seed`, storing it as it goes (begin,
// every action, finish) exactly as a room would, in `room` (a public one by default).
Playthrough PlayAndStore(Store& store, const std::string& game_id, int seats, uint32_t rounds,
                         uint64_t seed, RoomRecord room = {}) {
  const engine::Game& game = Globalissimo();
  plateau::games::globalissimo::Options options;
  options.set_rounds(rounds);
  GameRecord record;
  record.set_game_id(game_id);
  record.set_game("globalissimo");
  record.set_options(engine::DeterministicBytes(options));
  record.set_seed(seed);
  for (int s = 0; s < seats; ++s) record.add_seat_names("Player " + std::to_string(s));
  record.set_started_unix_ms(1'700'000'000'000);
  if (room.room_id.empty()) room.room_id = "room-" + game_id;
  EXPECT_TRUE(store.BeginGame(record, room).ok());

  Playthrough p;
  p.game_id = game_id;
  p.seats = seats;
  auto state = game.NewGame(seats, record.options(), seed);
  EXPECT_TRUE(state.ok()) << state.status().ToString();
  if (!state.ok()) return p;
  engine::Rng rng(seed ^ 0x5eed);
  p.views.push_back(AllViews(*state.value()));
  for (uint32_t index = 0; !state.value()->IsTerminal(); ++index) {
    if (index > 20000) {
      ADD_FAILURE() << "the game did not end";
      return p;
    }
    std::vector<int> acting = state.value()->ActingSeats();
    const int seat = acting[rng.Below(acting.size())];
    auto legal = state.value()->LegalActions(seat);
    // A question answered by typing lists no answer: play what a timer would.
    if (legal.empty()) legal.push_back(state.value()->DefaultAction(seat));
    const engine::Message& action = *legal[rng.Below(legal.size())];
    EXPECT_TRUE(state.value()->Apply(seat, action).ok());
    plateau::v1::ReplayAction stored;
    stored.set_seat(seat);
    stored.set_action(engine::DeterministicBytes(action));
    stored.set_at_unix_ms(1'700'000'000'000 + index);  // no text: as a room stores it
    EXPECT_TRUE(store.AppendAction(game_id, index, stored).ok());
    p.views.push_back(AllViews(*state.value()));
  }
  std::vector<plateau::v1::SeatResult> results;
  const auto scores = state.value()->Scores();
  const auto ranks = state.value()->Ranks();
  for (int s = 0; s < seats; ++s) {
    auto& r = results.emplace_back();
    r.set_seat(s);
    r.set_name(record.seat_names(s));
    r.set_score(scores[s]);
    r.set_rank(ranks[s]);
    r.set_detail(state.value()->ResultDetail(s));
  }
  EXPECT_TRUE(store.FinishGame(game_id, results, 1'700'000'900'000).ok());
  p.log = state.value()->History();
  p.final_position = state.value()->Serialize();
  return p;
}

plateau::v1::GetReplay Request(const std::string& game_id, uint32_t step, int seat) {
  plateau::v1::GetReplay r;
  r.set_game_id(game_id);
  r.set_step(step);
  r.set_seat(seat);
  return r;
}

class ReplayTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ASSERT_TRUE(engine::Registry::LoadAll().ok()) << engine::Registry::LoadAll().ToString();
  }
  void SetUp() override {
    auto opened = SqliteStore::Open(dir_.File("plateau.sqlite"));
    ASSERT_TRUE(opened.ok()) << opened.status().ToString();
    store_ = std::move(opened.value());
    service_ = std::make_unique<ReplayService>(*store_);
  }
  // Asks for one step and checks its view against the engine's.
  void ExpectStep(const Playthrough& p, uint32_t step, int seat) {
    auto replay = service_->Get(Request(p.game_id, step, seat), "");
    ASSERT_TRUE(replay.ok()) << replay.status().ToString();
    EXPECT_EQ(replay.value().step(), step);
    EXPECT_EQ(replay.value().seat(), seat);
    EXPECT_EQ(replay.value().view_type(), "plateau.games.globalissimo.View");
    EXPECT_TRUE(replay.value().view() == p.views[step][seat + 1])
        << "step " << step << ", seat " << seat;
  }

  TempDir dir_;
  std::unique_ptr<SqliteStore> store_;
  std::unique_ptr<ReplayService> service_;
};

TEST_F(ReplayTest, StepCountIsTheLogLength) {
  Playthrough p = PlayAndStore(*store_, "g1", 3, 3, 11);
  ASSERT_GT(p.log.size(), 0u);
  auto replay = service_->Get(Request("g1", 0, -1), "");
  ASSERT_TRUE(replay.ok()) << replay.status().ToString();
  EXPECT_EQ(replay.value().summary().steps(), p.log.size());
  EXPECT_EQ(replay.value().summary().game(), "globalissimo");
  EXPECT_EQ(replay.value().summary().results_size(), 3);
  EXPECT_EQ(replay.value().summary().finished_unix_ms(), 1'700'000'900'000);
  auto list = service_->List({}, "");
  ASSERT_TRUE(list.ok());
  ASSERT_EQ(list.value().replays_size(), 1);
  EXPECT_EQ(list.value().replays(0).steps(), p.log.size());
}

TEST_F(ReplayTest, FinalStepViewsEqualTheEnginesFinalViews) {
  Playthrough p = PlayAndStore(*store_, "g1", 4, 3, 12);
  const auto last = static_cast<uint32_t>(p.log.size());
  for (int seat = engine::kSpectator; seat < p.seats; ++seat) ExpectStep(p, last, seat);
}

TEST_F(ReplayTest, StepZeroIsTheInitialPosition) {
  Playthrough p = PlayAndStore(*store_, "g1", 2, 2, 13);
  for (int seat = engine::kSpectator; seat < p.seats; ++seat) {
    ExpectStep(p, 0, seat);
    auto replay = service_->Get(Request("g1", 0, seat), "").value();
    EXPECT_FALSE(replay.has_last_action());
  }
}

TEST_F(ReplayTest, EveryStepMatchesInAnyOrder) {
  Playthrough p = PlayAndStore(*store_, "g1", 4, 10, 14);
  const auto steps = static_cast<uint32_t>(p.log.size());
  // Long enough for several checkpoints and for recent steps to be evicted.
  ASSERT_GT(steps, 3 * ReplayService::kCheckpointEvery);
  // Forward one by one (the viewer's usual walk), then backward, then random jumps: the cache
  // must never hand back a wrong state.
  for (uint32_t s = 0; s <= steps; ++s) ExpectStep(p, s, static_cast<int>(s % 5) - 1);
  for (uint32_t s = steps + 1; s-- > 0;) ExpectStep(p, s, static_cast<int>(s % 4));
  engine::Rng rng(99);
  for (int i = 0; i < 200; ++i) {
    const auto s = static_cast<uint32_t>(rng.Below(steps + 1));
    ExpectStep(p, s, static_cast<int>(rng.Below(5)) - 1);
  }
}

TEST_F(ReplayTest, SteppingCostsAreBoundedByTheCache) {
  Playthrough p = PlayAndStore(*store_, "g1", 4, 10, 19);
  const auto steps = static_cast<uint32_t>(p.log.size());
  ASSERT_GT(steps, 3 * ReplayService::kCheckpointEvery);
  // Forward one step at a time: one action per step, the whole walk costs the log length.
  for (uint32_t s = 0; s <= steps; ++s) ASSERT_TRUE(service_->Get(Request("g1", s, -1), "").ok());
  EXPECT_EQ(service_->ActionsApplied(), steps);
  // Asking again for a step just shown costs nothing.
  ASSERT_TRUE(service_->Get(Request("g1", steps, 0), "").ok());
  EXPECT_EQ(service_->ActionsApplied(), steps);
  // Backward, and random jumps: never more than a checkpoint interval per request.
  uint64_t before = service_->ActionsApplied();
  for (uint32_t s = steps + 1; s-- > 0;) {
    ASSERT_TRUE(service_->Get(Request("g1", s, -1), "").ok());
    EXPECT_LT(service_->ActionsApplied() - before, ReplayService::kCheckpointEvery) << s;
    before = service_->ActionsApplied();
  }
  engine::Rng rng(5);
  for (int i = 0; i < 100; ++i) {
    ASSERT_TRUE(
        service_->Get(Request("g1", static_cast<uint32_t>(rng.Below(steps + 1)), -1), "").ok());
    EXPECT_LT(service_->ActionsApplied() - before, ReplayService::kCheckpointEvery);
    before = service_->ActionsApplied();
  }
}

TEST_F(ReplayTest, LastActionIsTheActionThatLedToTheStep) {
  Playthrough p = PlayAndStore(*store_, "g1", 3, 2, 15);
  const engine::Game& game = Globalissimo();
  for (uint32_t s = 1; s <= p.log.size(); s += 5) {
    auto replay = service_->Get(Request("g1", s, -1), "");
    ASSERT_TRUE(replay.ok());
    ASSERT_TRUE(replay.value().has_last_action());
    const auto& last = replay.value().last_action();
    EXPECT_EQ(last.seat(), p.log[s - 1].seat);
    EXPECT_EQ(last.action(), p.log[s - 1].action);
    EXPECT_EQ(last.at_unix_ms(), 1'700'000'000'000 + (s - 1));
    auto action = game.ParseActionBytes(p.log[s - 1].action);
    ASSERT_TRUE(action.ok());
    EXPECT_EQ(last.text(), game.ActionToText(*action.value()));
    EXPECT_FALSE(last.text().empty());
  }
}

// The moves in words: one per action, by its seat, and together the same entries, in the same
// order, as the log the viewer read during the game.
TEST_F(ReplayTest, MovesInWordsAreTheLogEachMoveWrote) {
  Playthrough p = PlayAndStore(*store_, "g1", 3, 2, 16);
  auto plain = service_->Get(Request("g1", 3, -1), "");
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain.value().moves_size(), 0) << "moves only when asked for";

  plateau::v1::GetReplay request = Request("g1", 3, -1);
  request.set_with_moves(true);
  auto replay = service_->Get(request, "");
  ASSERT_TRUE(replay.ok()) << replay.status().ToString();
  // The set-up first (the first round's category), then one entry per action.
  ASSERT_EQ(replay.value().moves_size(), static_cast<int>(p.log.size()) + 1);
  EXPECT_EQ(replay.value().moves(0).step(), 0u);
  EXPECT_EQ(replay.value().moves(0).seat(), -1);
  std::vector<std::string> words;
  for (int i = 0; i < replay.value().moves_size(); ++i) {
    const auto& move = replay.value().moves(i);
    EXPECT_EQ(move.step(), static_cast<uint32_t>(i));
    if (i > 0) {
      EXPECT_EQ(move.seat(), p.log[i - 1].seat);
    }
    ASSERT_GT(move.words_size(), 0) << "move " << i + 1;
    // The list names its templates by key; the view's log, as sent, by number.
    for (auto w : move.words()) {
      engine::Registry::Find("globalissimo")->TextRenderer().Compact(&w);
      words.push_back(w.SerializeAsString());
    }
  }
  // The final view's log holds the latest entries: they are the last words of the moves.
  plateau::games::globalissimo::View final_view;
  ASSERT_TRUE(final_view.ParseFromString(p.views.back()[0]));
  const auto& log = final_view.table().log();
  ASSERT_GT(log.size(), 0);
  ASSERT_GE(words.size(), static_cast<size_t>(log.size()));
  for (int k = 0; k < log.size(); ++k) {
    EXPECT_EQ(words[words.size() - log.size() + k], log[k].text().SerializeAsString()) << k;
  }
  // The step asked for is served as without the moves.
  EXPECT_EQ(replay.value().view(), plain.value().view());
}

TEST_F(ReplayTest, OutOfRangeStepAndBadSeatAreRefused) {
  Playthrough p = PlayAndStore(*store_, "g1", 2, 2, 16);
  const auto steps = static_cast<uint32_t>(p.log.size());
  EXPECT_EQ(service_->Get(Request("g1", steps + 1, -1), "").status().code(),
            replay_codes::kStepOutOfRange);
  EXPECT_EQ(service_->Get(Request("g1", 0, 2), "").status().code(), replay_codes::kBadSeat);
  EXPECT_EQ(service_->Get(Request("g1", 0, -2), "").status().code(), replay_codes::kBadSeat);
  EXPECT_TRUE(service_->Get(Request("g1", steps, 1), "").ok());
}

TEST_F(ReplayTest, OnlyFinishedGamesAreReplays) {
  GameRecord running;
  running.set_game_id("running");
  running.set_game("globalissimo");
  running.add_seat_names("a");
  running.add_seat_names("b");
  ASSERT_TRUE(store_->BeginGame(running, RoomRecord{}).ok());
  EXPECT_EQ(service_->Get(Request("running", 0, -1), "").status().code(),
            replay_codes::kReplayNotFound);
  EXPECT_EQ(service_->Get(Request("nope", 0, -1), "").status().code(),
            replay_codes::kReplayNotFound);
  plateau::v1::ExportReplay ex;
  ex.set_game_id("running");
  EXPECT_EQ(service_->Export(ex, "").status().code(), replay_codes::kReplayNotFound);
}

TEST_F(ReplayTest, ExportReplaysToTheFinalPosition) {
  Playthrough p = PlayAndStore(*store_, "g1", 3, 3, 17);
  plateau::v1::ExportReplay request;
  request.set_game_id("g1");
  auto exported = service_->Export(request, "");
  ASSERT_TRUE(exported.ok()) << exported.status().ToString();
  EXPECT_EQ(exported.value().game_id(), "g1");

  GameRecord record;
  ASSERT_TRUE(record.ParseFromString(exported.value().record()));
  EXPECT_EQ(record.game_id(), "g1");
  EXPECT_EQ(record.actions_size(), static_cast<int>(p.log.size()));
  EXPECT_EQ(record.results_size(), 3);
  std::vector<engine::LoggedAction> log;
  for (const auto& a : record.actions()) log.push_back({a.seat(), a.action()});
  const engine::Game* game = engine::Registry::Find(record.game());
  ASSERT_NE(game, nullptr);
  // Every move in words, written from the engine as the file is made (rooms store none).
  for (const auto& a : record.actions()) {
    auto action = game->ParseActionBytes(a.action());
    ASSERT_TRUE(action.ok());
    EXPECT_EQ(a.text(), game->ActionToText(*action.value()));
    EXPECT_FALSE(a.text().empty());
  }
  auto replayed = game->Replay(record.seat_names_size(), record.options(), record.seed(), log);
  ASSERT_TRUE(replayed.ok()) << replayed.status().ToString();
  EXPECT_TRUE(replayed.value()->IsTerminal());
  EXPECT_TRUE(replayed.value()->Serialize() == p.final_position);
}

TEST_F(ReplayTest, ListIsNewestFirstAndFilteredByGame) {
  PlayAndStore(*store_, "a", 2, 1, 18);
  GameRecord other;
  other.set_game_id("b-other");
  other.set_game("other");
  ASSERT_TRUE(store_->BeginGame(other, RoomRecord{}).ok());
  ASSERT_TRUE(store_->FinishGame("b-other", {}, 1'800'000'000'000).ok());

  auto all = service_->List({}, "");
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all.value().replays_size(), 2);
  EXPECT_EQ(all.value().replays(0).game_id(), "b-other");
  EXPECT_EQ(all.value().replays(1).game_id(), "a");

  plateau::v1::ListReplays only;
  only.set_game("globalissimo");
  auto filtered = service_->List(only, "").value();
  ASSERT_EQ(filtered.replays_size(), 1);
  EXPECT_EQ(filtered.replays(0).game_id(), "a");

  plateau::v1::ListReplays page;
  page.set_limit(1);
  page.set_before_game_id("b-other");
  auto next = service_->List(page, "").value();
  ASSERT_EQ(next.replays_size(), 1);
  EXPECT_EQ(next.replays(0).game_id(), "a");
}

TEST_F(ReplayTest, ListLimitDefaultsAndIsCapped) {
  InsertFinishedGamesDirectly(dir_.File("plateau.sqlite"), ReplayService::kMaxListLimit + 1,
                              "other");
  EXPECT_EQ(service_->List({}, "").value().replays_size(),
            static_cast<int>(ReplayService::kDefaultListLimit));
  plateau::v1::ListReplays big;
  big.set_limit(100000);
  EXPECT_EQ(service_->List(big, "").value().replays_size(),
            static_cast<int>(ReplayService::kMaxListLimit));
}

TEST_F(ReplayTest, ALogThatNoLongerReplaysIsReportedNotServed) {
  GameRecord record;
  record.set_game_id("bad");
  record.set_game("globalissimo");
  record.add_seat_names("a");
  record.add_seat_names("b");
  ASSERT_TRUE(store_->BeginGame(record, RoomRecord{}).ok());
  plateau::v1::ReplayAction garbage;
  garbage.set_seat(0);
  garbage.set_action("\xff\xff\xff");
  ASSERT_TRUE(store_->AppendAction("bad", 0, garbage).ok());
  ASSERT_TRUE(store_->FinishGame("bad", {}, 5).ok());
  EXPECT_TRUE(service_->Get(Request("bad", 0, -1), "").ok());
  EXPECT_EQ(service_->Get(Request("bad", 1, -1), "").status().code(), replay_codes::kReplayCorrupt);
}

TEST_F(ReplayTest, AGameThisServerDoesNotHaveIsReported) {
  GameRecord record;
  record.set_game_id("x");
  record.set_game("no_such_game");
  ASSERT_TRUE(store_->BeginGame(record, RoomRecord{}).ok());
  ASSERT_TRUE(store_->FinishGame("x", {}, 5).ok());
  EXPECT_EQ(service_->Get(Request("x", 0, -1), "").status().code(), engine::codes::kUnknownGame);
}

// --- Private games ---

// A private room of two, Ada and Bob, whose replay link carries `token`.
RoomRecord PrivateRoom(const std::string& token) {
  RoomRecord room;
  room.is_private = true;
  room.join_code = "K7Q2MX";
  room.host_player_id = "p-ada";
  room.seat_player_ids = {"p-ada", "p-bob"};
  room.replay_token = token;
  return room;
}

constexpr const char* kToken = "0123456789abcdef0123456789abcdef";

plateau::v1::GetReplay WithToken(plateau::v1::GetReplay request, const std::string& token) {
  request.set_replay_token(token);
  return request;
}

plateau::v1::ExportReplay ExportOf(const std::string& game_id, const std::string& token = "") {
  plateau::v1::ExportReplay request;
  request.set_game_id(game_id);
  request.set_replay_token(token);
  return request;
}

std::vector<std::string> ListedIds(ReplayService& service, const std::string& viewer) {
  auto list = service.List({}, viewer);
  EXPECT_TRUE(list.ok()) << list.status().ToString();
  std::vector<std::string> ids;
  if (list.ok()) {
    for (const auto& r : list.value().replays()) ids.push_back(r.game_id());
  }
  return ids;
}

TEST_F(ReplayTest, APrivateGameIsListedOnlyToItsPlayersWithItsToken) {
  PlayAndStore(*store_, "secret", 2, 1, 21, PrivateRoom(kToken));
  PlayAndStore(*store_, "open", 2, 1, 22);

  EXPECT_EQ(ListedIds(*service_, "p-eve"), std::vector<std::string>{"open"});
  EXPECT_EQ(ListedIds(*service_, ""), std::vector<std::string>{"open"});

  auto mine = service_->List({}, "p-bob");
  ASSERT_TRUE(mine.ok());
  ASSERT_EQ(mine.value().replays_size(), 2);
  for (const auto& r : mine.value().replays()) {
    if (r.game_id() == "secret") {
      EXPECT_TRUE(r.is_private());
      EXPECT_EQ(r.replay_token(), kToken);
    } else {
      EXPECT_FALSE(r.is_private());
      EXPECT_EQ(r.replay_token(), "");
    }
  }
}

TEST_F(ReplayTest, APrivateGameIsRefusedToStrangersExactlyLikeAnUnknownOne) {
  Playthrough p = PlayAndStore(*store_, "secret", 2, 1, 23, PrivateRoom(kToken));
  const auto steps = static_cast<uint32_t>(p.log.size());
  // What a game id that was never stored gets, with the id put in.
  auto unknown = service_->Get(Request("nothing", 0, -1), "p-eve");
  ASSERT_EQ(unknown.status().code(), replay_codes::kReplayNotFound);
  std::string expected_reason = unknown.status().reason();
  expected_reason.replace(expected_reason.find("nothing"), 7, "secret");

  const std::string wrong = "fedcba9876543210fedcba9876543210";
  for (const std::string& token : {std::string(), wrong, std::string(kToken).substr(1)}) {
    // A step out of range or a bad seat must not give the game away either.
    for (const auto& request : {Request("secret", 0, -1), Request("secret", steps + 1, -1),
                                Request("secret", 0, 7)}) {
      auto got = service_->Get(WithToken(request, token), "p-eve");
      EXPECT_EQ(got.status().code(), replay_codes::kReplayNotFound) << token;
      EXPECT_EQ(got.status().reason(), expected_reason) << token;
    }
    auto exported = service_->Export(ExportOf("secret", token), "p-eve");
    EXPECT_EQ(exported.status().code(), replay_codes::kReplayNotFound) << token;
    EXPECT_EQ(exported.status().reason(), expected_reason) << token;
  }
}

TEST_F(ReplayTest, APrivateGameOpensToItsPlayersAndToItsToken) {
  Playthrough p = PlayAndStore(*store_, "secret", 2, 1, 24, PrivateRoom(kToken));
  const auto last = static_cast<uint32_t>(p.log.size());
  for (const char* member : {"p-ada", "p-bob"}) {
    auto got = service_->Get(Request("secret", last, 1), member);
    ASSERT_TRUE(got.ok()) << member << ": " << got.status().ToString();
    EXPECT_TRUE(got.value().view() == p.views[last][2]) << member;
    EXPECT_TRUE(got.value().summary().is_private());
    EXPECT_EQ(got.value().summary().replay_token(), kToken);
    EXPECT_TRUE(service_->Export(ExportOf("secret"), member).ok()) << member;
  }
  // The game is cached now: a stranger is still refused, and the link still opens it.
  EXPECT_EQ(service_->Get(Request("secret", last, 1), "p-eve").status().code(),
            replay_codes::kReplayNotFound);
  auto linked = service_->Get(WithToken(Request("secret", last, 1), kToken), "p-eve");
  ASSERT_TRUE(linked.ok()) << linked.status().ToString();
  EXPECT_TRUE(linked.value().view() == p.views[last][2]);

  auto exported = service_->Export(ExportOf("secret", kToken), "p-eve");
  ASSERT_TRUE(exported.ok()) << exported.status().ToString();
  // The file is the plain record: nothing in it opens the game on the server.
  EXPECT_EQ(exported.value().record().find(kToken), std::string::npos);
  GameRecord record;
  ASSERT_TRUE(record.ParseFromString(exported.value().record()));
  EXPECT_EQ(record.actions_size(), static_cast<int>(p.log.size()));
}

TEST_F(ReplayTest, APublicGameIsOpenToEveryoneWithoutAToken) {
  PlayAndStore(*store_, "open", 2, 1, 26);
  for (const char* viewer : {"", "p-eve"}) {
    auto got = service_->Get(Request("open", 0, -1), viewer);
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    EXPECT_FALSE(got.value().summary().is_private());
    EXPECT_EQ(got.value().summary().replay_token(), "");
    EXPECT_TRUE(service_->Export(ExportOf("open"), viewer).ok());
  }
  // A token given for a public game changes nothing.
  EXPECT_TRUE(service_->Get(WithToken(Request("open", 0, -1), kToken), "p-eve").ok());
}

TEST_F(ReplayTest, AnUnfinishedPrivateGameIsNoReplayEvenForItsPlayers) {
  GameRecord running;
  running.set_game_id("running");
  running.set_game("globalissimo");
  running.add_seat_names("a");
  running.add_seat_names("b");
  ASSERT_TRUE(store_->BeginGame(running, PrivateRoom(kToken)).ok());
  EXPECT_EQ(service_->Get(WithToken(Request("running", 0, -1), kToken), "p-ada").status().code(),
            replay_codes::kReplayNotFound);
  EXPECT_EQ(service_->Export(ExportOf("running", kToken), "p-ada").status().code(),
            replay_codes::kReplayNotFound);
  EXPECT_TRUE(ListedIds(*service_, "p-ada").empty());
}

TEST_F(ReplayTest, ManyGamesAndConcurrentViewersGetTheRightViews) {
  // More games than the cache holds, viewed from several threads at once.
  std::vector<Playthrough> games;
  for (size_t i = 0; i < ReplayService::kMaxCachedGames + 2; ++i) {
    games.push_back(PlayAndStore(*store_, "g" + std::to_string(i), 2 + static_cast<int>(i % 3), 1,
                                 100 + i));
  }
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      engine::Rng rng(1000 + t);
      for (int i = 0; i < 150; ++i) {
        const Playthrough& p = games[rng.Below(games.size())];
        const auto step = static_cast<uint32_t>(rng.Below(p.log.size() + 1));
        const int seat = static_cast<int>(rng.Below(p.seats + 1)) - 1;
        auto replay = service_->Get(Request(p.game_id, step, seat), "");
        if (!replay.ok() || replay.value().view() != p.views[step][seat + 1]) ++wrong;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(wrong.load(), 0);
}

}  // namespace
}  // namespace plateau::server
