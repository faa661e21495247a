// Unit tests of the rules console library: command-line parsing, view assertions, sessions and
// game records. Sessions use the real Globalissimo game (2 seats, seed 1, one round), whose
// opening display is Sri Lanka, United Arab Emirates, Malaysia, Egypt, Poland (true ranks
// 3, 5, 1, 2, 4).
#include <algorithm>
#include <gtest/gtest.h>

#include <fstream>

#include <cstdio>
#include <sstream>

#include "engine/console/command_line.h"
#include "engine/console/expect.h"
#include "engine/console/record.h"
#include "engine/console/session.h"
#include "engine/core/registry.h"
#include "plateau/v1/protocol.pb.h"

namespace plateau::console {
namespace {

// ---------------------------------------------------------------------------------------------
// command_line

TEST(CommandLine, StripCommentKeepsHashInsideQuotes) {
  EXPECT_EQ(StripComment("  act 0 x  # why"), "act 0 x");
  EXPECT_EQ(StripComment("# whole line"), "");
  EXPECT_EQ(StripComment(R"(act 0 answer_capital { text: "#1 \"a#b\"" } # c)"),
            R"(act 0 answer_capital { text: "#1 \"a#b\"" })");
  EXPECT_EQ(StripComment("say 'it''s #1'"), "say 'it''s #1'");
}

TEST(CommandLine, AHashInsideAWordStartsNoComment) {
  EXPECT_EQ(StripComment("join http://h:80/#/join/r1/K7PQ2X  # a friend's"), "join http://h:80/#/join/r1/K7PQ2X");
  // Starting a word it is a comment still: a link is pasted whole, with its address.
  EXPECT_EQ(StripComment("watch #/watch/r1/abc"), "watch");
  EXPECT_EQ(StripComment("say a\t# b"), "say a");
}

TEST(CommandLine, SplitFirstWord) {
  auto [word, rest] = SplitFirstWord("  act   0 place { slot: 1 }  ");
  EXPECT_EQ(word, "act");
  EXPECT_EQ(rest, "0 place { slot: 1 }");
  auto [only, nothing] = SplitFirstWord("acting");
  EXPECT_EQ(only, "acting");
  EXPECT_EQ(nothing, "");
}

TEST(CommandLine, SplitQuotedWordsGroupsAndUnquotes) {
  auto words = SplitQuotedWords(R"(create globalissimo --options 'rounds: 1' "My \"big\" room" x)");
  ASSERT_TRUE(words.ok());
  EXPECT_EQ(words.value(), (std::vector<std::string>{"create", "globalissimo", "--options",
                                                     "rounds: 1", "My \"big\" room", "x"}));
  auto glued = SplitQuotedWords("a'b c'd");
  ASSERT_TRUE(glued.ok());
  EXPECT_EQ(glued.value(), (std::vector<std::string>{"ab cd"}));
  EXPECT_EQ(SplitQuotedWords("say 'oops").status().code(), kUsage);
}

TEST(CommandLine, ParseSeat) {
  EXPECT_EQ(ParseSeat("1", 2, false).value(), 1);
  EXPECT_EQ(ParseSeat("spectator", 2, true).value(), engine::kSpectator);
  EXPECT_EQ(ParseSeat("-1", 2, true).value(), engine::kSpectator);
  EXPECT_FALSE(ParseSeat("spectator", 2, false).ok());
  EXPECT_FALSE(ParseSeat("2", 2, false).ok());
  EXPECT_FALSE(ParseSeat("1x", 2, false).ok());
  EXPECT_NE(ParseSeat("5", 2, true).status().reason().find("0 to 1"), std::string::npos);
}

TEST(CommandLine, ParseNumbers) {
  EXPECT_EQ(ParseUint("42", "n").value(), 42u);
  EXPECT_FALSE(ParseUint("-1", "n").ok());
  EXPECT_FALSE(ParseUint("", "n").ok());
  EXPECT_EQ(ParseInt("-7", "n").value(), -7);
  EXPECT_FALSE(ParseInt("7.5", "n").ok());
}

TEST(CommandLine, ArgsFlagsAndPositionals) {
  auto args = Args::Parse({"globalissimo", "--seats", "3", "--seed=9", "--all", "x"},
                          {"seats", "seed"}, {"all"});
  ASSERT_TRUE(args.ok());
  EXPECT_EQ(args.value().positionals(), (std::vector<std::string>{"globalissimo", "x"}));
  EXPECT_EQ(args.value().Get("seats"), "3");
  EXPECT_EQ(args.value().Get("seed"), "9");
  EXPECT_TRUE(args.value().Has("all"));
  EXPECT_FALSE(args.value().Has("step"));
  EXPECT_EQ(args.value().Get("step", "fallback"), "fallback");
}

TEST(CommandLine, ArgsErrors) {
  EXPECT_EQ(Args::Parse({"--seats"}, {"seats"}, {}).status().reason(), "--seats needs a value.");
  EXPECT_EQ(Args::Parse({"--colour", "red"}, {"seats"}, {}).status().reason(),
            "Unknown option --colour.");
  EXPECT_EQ(Args::Parse({"--all=yes"}, {}, {"all"}).status().reason(), "--all takes no value.");
}

// ---------------------------------------------------------------------------------------------
// expect (game-agnostic: exercised on a protocol message)

plateau::v1::RoomInfo SampleRoom() {
  plateau::v1::RoomInfo room;
  room.set_room_id("r1");
  room.set_status(plateau::v1::ROOM_STATUS_PLAYING);
  room.set_your_seat(-1);
  room.set_max_seats(3);
  for (int i = 0; i < 2; ++i) {
    auto* seat = room.add_seats();
    seat->set_seat(i);
    seat->set_name(i == 0 ? "Ana" : "Bo");
    seat->set_ready(i == 0);
  }
  room.add_spectators("Cy");
  return room;
}

TEST(Expect, FragmentMatchesWrittenFields) {
  EXPECT_TRUE(MatchFragment(SampleRoom(), "room_id: 'r1' status: ROOM_STATUS_PLAYING").ok());
  EXPECT_TRUE(MatchFragment(SampleRoom(), "").ok());
}

TEST(Expect, FragmentChecksWrittenDefaults) {
  // proto3 cannot tell `your_seat: 0` from unset; the fragment's text can.
  Status st = MatchFragment(SampleRoom(), "your_seat: 0");
  EXPECT_EQ(st.code(), kExpectationFailed);
  EXPECT_EQ(st.reason(), "your_seat is -1, expected 0.");
  EXPECT_EQ(MatchFragment(SampleRoom(), "is_private: false").code(), "");
}

TEST(Expect, FragmentRepeatedFieldsArePrefixes) {
  EXPECT_TRUE(MatchFragment(SampleRoom(), "seats { name: 'Ana' ready: true }").ok());
  EXPECT_TRUE(MatchFragment(SampleRoom(), "seats { } seats { seat: 1 ready: false }").ok());
  Status wrong = MatchFragment(SampleRoom(), "seats { } seats { name: 'Ana' }");
  EXPECT_EQ(wrong.reason(), "seats[1].name is Bo, expected Ana.");
  Status too_many = MatchFragment(SampleRoom(), "spectators: 'Cy' spectators: 'Di'");
  EXPECT_EQ(too_many.reason(), "spectators has 1 elements, expected at least 2.");
}

TEST(Expect, FragmentThatDoesNotParseIsAUsageError) {
  Status st = MatchFragment(SampleRoom(), "no_such_field: 1");
  EXPECT_EQ(st.code(), kUsage);
  EXPECT_NE(st.reason().find("plateau.v1.RoomInfo"), std::string::npos);
}

TEST(Expect, FieldTextByPath) {
  const auto room = SampleRoom();
  EXPECT_EQ(FieldText(room, "room_id").value(), "r1");
  EXPECT_EQ(FieldText(room, "seats").value(), "2");  // a repeated field: its size
  EXPECT_EQ(FieldText(room, "seats[1].name").value(), "Bo");
  EXPECT_EQ(FieldText(room, "seats[0].ready").value(), "true");
  EXPECT_EQ(FieldText(room, "status").value(), "ROOM_STATUS_PLAYING");
  EXPECT_EQ(FieldText(room, "seats[1]").value(), "seat: 1 name: \"Bo\"");
  EXPECT_EQ(FieldText(room, "seats[2].name").status().code(), kExpectationFailed);
  EXPECT_EQ(FieldText(room, "colour").status().code(), kUsage);
  EXPECT_EQ(FieldText(room, "seats.name").status().code(), kUsage);
  EXPECT_EQ(FieldText(room, "room_id[0]").status().code(), kUsage);
  EXPECT_EQ(FieldText(room, "room_id.x").status().code(), kUsage);
  EXPECT_EQ(FieldText(room, "seats[x]").status().code(), kUsage);
  EXPECT_EQ(FieldText(room, "").status().code(), kUsage);
}

TEST(Expect, ExpectFieldAcceptsQuotesAndNumberSpellings) {
  const auto room = SampleRoom();
  EXPECT_TRUE(ExpectField(room, "seats[0].name", "Ana").ok());
  EXPECT_TRUE(ExpectField(room, "seats[0].name", "\"Ana\"").ok());
  EXPECT_TRUE(ExpectField(room, "max_seats", "3.0").ok());
  EXPECT_TRUE(ExpectField(room, "title", "\"\"").ok());
  Status st = ExpectField(room, "max_seats", "4");
  EXPECT_EQ(st.code(), kExpectationFailed);
  EXPECT_EQ(st.reason(), "max_seats is 3, expected 4.");
}

// ---------------------------------------------------------------------------------------------
// Session and records, on Globalissimo

class SessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(engine::Registry::LoadAll().ok());
    game_ = engine::Registry::Find("globalissimo");
    ASSERT_NE(game_, nullptr);
    auto session = Session::Start(*game_, 2, "rounds: 1", 1);
    ASSERT_TRUE(session.ok()) << session.status().ToString();
    session_ = std::move(session.value());
  }
  Status Run(const std::string& line) {
    out_.str("");
    return session_->Execute(line, out_);
  }
  // Both players place (one point each): the game ends.
  void PlayOneRound() {
    ASSERT_TRUE(Run("act 0 place { slot: 0 position: 1 }").ok());
    ASSERT_TRUE(Run("act 1 place { slot: 4 position: 2 }").ok());
  }
  std::string TempPath(const std::string& name) {
    return ::testing::TempDir() + "/console_test_" + name;
  }

  const engine::Game* game_ = nullptr;
  std::unique_ptr<Session> session_;
  std::ostringstream out_;
};

TEST_F(SessionTest, StartRejectsBadOptions) {
  EXPECT_EQ(Session::Start(*game_, 2, "rounds: 11", 1).status().code(), engine::codes::kBadOptions);
  EXPECT_EQ(Session::Start(*game_, 2, "rounds: ", 1).status().code(), engine::codes::kBadOptions);
  EXPECT_EQ(Session::Start(*game_, 1, "", 1).status().code(), engine::codes::kBadOptions);
}

TEST_F(SessionTest, ActAppliesAndReportsActingSeats) {
  ASSERT_TRUE(Run("act 0 place { slot: 2 position: 1 }").ok());
  EXPECT_EQ(out_.str(), "ok; acting: 1\n");
  EXPECT_EQ(session_->state().History().size(), 1u);
}

TEST_F(SessionTest, RefusedActChangesNothing) {
  const std::string before = session_->state().Serialize();
  Status st = Run("act 1 place { slot: 0 position: 1 }");
  EXPECT_EQ(st.code(), "not_your_turn");
  EXPECT_EQ(FailureText(st), "refused: not_your_turn: It is not your turn to act.");
  EXPECT_EQ(Run("act 0 place { slot: 9 position: 1 }").code(), "bad_slot");
  EXPECT_EQ(Run("act 0 place { slot: 0 position: 1 ").code(), engine::codes::kMalformed);
  EXPECT_EQ(Run("act 2 place { slot: 0 position: 1 }").code(), kUsage);
  EXPECT_EQ(Run("act 0").code(), kUsage);
  EXPECT_EQ(session_->state().Serialize(), before);
  EXPECT_TRUE(session_->state().History().empty());
}

TEST_F(SessionTest, ExpectErrorNeverApplies) {
  EXPECT_TRUE(Run("expect-error bad_position 0 place { slot: 0 position: 6 }").ok());
  Status wrong_code = Run("expect-error bad_slot 0 place { slot: 0 position: 6 }");
  EXPECT_EQ(wrong_code.code(), kExpectationFailed);
  EXPECT_NE(wrong_code.reason().find("bad_position"), std::string::npos);
  // A legal action under expect-error fails the check and is not played.
  Status accepted = Run("expect-error bad_slot 0 place { slot: 0 position: 1 }");
  EXPECT_EQ(accepted.code(), kExpectationFailed);
  EXPECT_TRUE(session_->state().History().empty());
  EXPECT_EQ(Run("expect-error 0 place { slot: 0 position: 1 }").code(), kUsage);
}

TEST_F(SessionTest, ExpectViewAndFieldPerSeat) {
  EXPECT_TRUE(Run("expect-view 0 you: 0 to_act: 0 phase: PHASE_PLACEMENT").ok());
  EXPECT_EQ(Run("expect-view 1 you: 0").code(), kExpectationFailed);
  EXPECT_TRUE(Run("expect-view spectator you: -1").ok());
  EXPECT_TRUE(Run("expect-field 1 display[2].card.id MYS").ok());
  EXPECT_EQ(Run("expect-field 1 display[2].card.id EGY").reason(),
            "display[2].card.id is MYS, expected EGY.");
  EXPECT_EQ(Run("expect-field 1 display[2].card.id").code(), kUsage);
  EXPECT_EQ(Run("expect-view 5 you: 0").code(), kUsage);
  EXPECT_EQ(Run("view").code(), kUsage);
}

TEST_F(SessionTest, ViewHidesValuesUntilTheReveal) {
  ASSERT_TRUE(Run("view 0").ok());
  EXPECT_NE(out_.str().find("id: \"LKA\""), std::string::npos);  // Sri Lanka, face up
  EXPECT_EQ(out_.str().find("value_text"), std::string::npos);
  ASSERT_TRUE(Run("state").ok());
  EXPECT_FALSE(out_.str().empty());
}

TEST_F(SessionTest, LegalListsActionsOfTheActingSeatOnly) {
  ASSERT_TRUE(Run("legal 0").ok());
  EXPECT_NE(out_.str().find("place { slot: 4 position: 5 }"), std::string::npos);
  ASSERT_TRUE(Run("legal 1").ok());
  EXPECT_EQ(out_.str(), "Seat 1 may not act now.\n");
}

// `show` is the view as a player reads it: the game's own summary and the log in words, seats as
// the console numbers them.
TEST_F(SessionTest, ShowIsTheViewInWords) {
  ASSERT_TRUE(Run("act 0 place { slot: 2 position: 1 }").ok());
  ASSERT_TRUE(Run("show 1").ok());
  const std::string out = out_.str();
  EXPECT_NE(out.find("Players:"), std::string::npos) << out;
  EXPECT_NE(out.find("Log:\n"), std::string::npos) << out;
  EXPECT_NE(out.find("  seat 0 places tile 1 on Malaysia.\n"), std::string::npos) << out;
  EXPECT_EQ(out.find("Seat "), std::string::npos) << out;
  EXPECT_EQ(Run("show 1 extra").code(), kUsage);
}

// A capital question lists no answer (any text may be typed): `legal` shows the question, its
// shape and how to answer it, and the answer keeps its accents.
TEST_F(SessionTest, LegalShowsTheQuestionAndAnswersKeepAccents) {
  ASSERT_TRUE(Run("act 0 place { slot: 2 position: 1 }").ok());
  ASSERT_TRUE(Run("act 1 place { slot: 3 position: 2 }").ok());
  ASSERT_TRUE(Run("legal 0").ok());
  EXPECT_NE(out_.str().find(": What is the capital of Colombia?"), std::string::npos) << out_.str();
  EXPECT_NE(out_.str().find("a text of 1 to 100 characters"), std::string::npos) << out_.str();
  out_.str("");
  ASSERT_TRUE(Run("act 0 core { answer { text: \"Bogotá\" } }").ok());
  ASSERT_TRUE(Run("history").ok());
  EXPECT_NE(out_.str().find("text: \"Bogotá\""), std::string::npos) << out_.str();
}

// A map question names the game's set of regions instead of carrying them: `legal` still lists
// every region id a player may answer with.
TEST_F(SessionTest, LegalListsTheRegionsOfAMapQuestion) {
  bool found = false;
  for (uint64_t seed = 1; seed <= 200 && !found; ++seed) {
    auto session = Session::Start(*game_, 2, "rounds: 1", seed);
    ASSERT_TRUE(session.ok());
    session_ = std::move(session.value());
    ASSERT_TRUE(Run("act 0 place { slot: 2 position: 1 }").ok());
    ASSERT_TRUE(Run("act 1 place { slot: 3 position: 2 }").ok());
    for (int seat = 0; seat < 2 && !found; ++seat) {
      ASSERT_TRUE(Run("legal " + std::to_string(seat)).ok());
      const std::string out = out_.str();
      const size_t list = out.find("choose 1 to 1 of:");
      if (list == std::string::npos) continue;
      found = true;
      const std::string ids = out.substr(list, out.find('\n', list) - list);
      EXPECT_NE(ids.find(" 250"), std::string::npos) << ids;  // France
      EXPECT_GE(std::count(ids.begin(), ids.end(), ' '), 150) << ids;
    }
  }
  EXPECT_TRUE(found) << "no seed from 1 to 200 asks a map question after the first round";
}

TEST_F(SessionTest, ActingHistoryAndScores) {
  EXPECT_TRUE(Run("expect-acting 0").ok());
  EXPECT_EQ(Run("expect-acting 1").reason(), "acting seats are 0, expected 1.");
  ASSERT_TRUE(Run("scores").ok());
  EXPECT_EQ(out_.str(), "The game is not over; acting: 0\n");
  EXPECT_EQ(Run("expect-scores 1 1").code(), kExpectationFailed);
  ASSERT_TRUE(Run("history").ok());
  EXPECT_EQ(out_.str(), "No actions yet.\n");
  PlayOneRound();
  EXPECT_TRUE(Run("expect-acting none").ok());
  EXPECT_TRUE(Run("expect-scores 1 1").ok());
  EXPECT_EQ(Run("expect-scores 1 2").code(), kExpectationFailed);
  ASSERT_TRUE(Run("history").ok());
  EXPECT_EQ(out_.str(),
            "step 1: seat 0: place { position: 1 }\nstep 2: seat 1: place { slot: 4 position: 2 }\n");
  ASSERT_TRUE(Run("scores").ok());
  EXPECT_EQ(out_.str(),
            "  seat 0 (Seat 1): score 1, rank 1 - 1 square, 0 barriers\n"
            "  seat 1 (Seat 2): score 1, rank 1 - 1 square, 0 barriers\n");
}

TEST_F(SessionTest, UnknownAndMalformedCommands) {
  EXPECT_EQ(Run("dance").code(), kUsage);
  EXPECT_EQ(Run("acting now").code(), kUsage);
  EXPECT_EQ(Run("export").code(), kUsage);
  EXPECT_FALSE(session_->quit_requested());
  EXPECT_TRUE(Run("quit").ok());
  EXPECT_TRUE(session_->quit_requested());
}

TEST_F(SessionTest, RecordHoldsTheGame) {
  PlayOneRound();
  const plateau::v1::GameRecord record =
      MakeRecord(session_->state(), session_->options_bytes(), session_->seed());
  EXPECT_EQ(record.game(), "globalissimo");
  EXPECT_EQ(record.seed(), 1u);
  EXPECT_EQ(record.options(), session_->options_bytes());
  ASSERT_EQ(record.seat_names_size(), 2);
  EXPECT_EQ(record.seat_names(1), "Seat 2");
  ASSERT_EQ(record.actions_size(), 2);
  EXPECT_EQ(record.actions(1).seat(), 1);
  EXPECT_EQ(record.actions(1).text(), "place { slot: 4 position: 2 }");
  ASSERT_EQ(record.results_size(), 2);
  EXPECT_EQ(record.results(0).rank(), 1u);
  EXPECT_EQ(record.results(0).score(), 1);
}

TEST_F(SessionTest, ExportThenReplayMatches) {
  PlayOneRound();
  const std::string path = TempPath("export.record");
  ASSERT_TRUE(Run("export " + path).ok()) << out_.str();
  auto record = ReadRecordFile(path);
  ASSERT_TRUE(record.ok()) << record.status().ToString();
  std::ostringstream out;
  ReplayRequest request;
  request.step = 0;
  request.seat = 1;
  Status st = ReplayRecord(record.value(), request, out);
  ASSERT_TRUE(st.ok()) << st.ToString() << "\n" << out.str();
  EXPECT_NE(out.str().find("steps: 2\n"), std::string::npos);
  EXPECT_NE(out.str().find("--- view of seat 1 at step 0 ---\nyou: 1\n"), std::string::npos);
  EXPECT_NE(out.str().find("The stored results match the re-simulation."), std::string::npos);
  std::remove(path.c_str());
}

// A printed position, edited and loaded back, is how a rule-book example is set up.
TEST_F(SessionTest, LoadPositionReadsWhatStatePrints) {
  ASSERT_TRUE(Run("act 0 place { slot: 0 position: 1 }").ok());
  ASSERT_TRUE(Run("state").ok());
  const std::string printed = out_.str();
  // The log's words, readable, as comments.
  EXPECT_NE(printed.find("\n# log "), std::string::npos) << printed;
  EXPECT_NE(printed.find("key: \"globalissimo.places\""), std::string::npos) << printed;
  const std::string before = session_->state().Serialize();
  // Another game, another position: loading the printed one brings it back exactly.
  auto other = Session::Start(*game_, 2, "rounds: 1", 99);
  ASSERT_TRUE(other.ok());
  session_ = std::move(other.value());
  const std::string path = TempPath("position.txt");
  std::ofstream(path) << printed;
  ASSERT_TRUE(Run("load-position " + path).ok()) << out_.str();
  EXPECT_EQ(session_->state().Serialize(), before);
  EXPECT_NE(out_.str().find("acting: 1"), std::string::npos) << out_.str();
  ASSERT_TRUE(Run("act 1 place { slot: 4 position: 2 }").ok());
  EXPECT_TRUE(session_->state().IsTerminal());
  // The history no longer starts at the setup: no record can be exported from it.
  EXPECT_EQ(Run("export " + TempPath("loaded.record")).code(), kUsage);
  std::remove(path.c_str());
}

TEST_F(SessionTest, LoadPositionRefusesBadFilesAndChangesNothing) {
  const std::string before = session_->state().Serialize();
  EXPECT_EQ(Run("load-position").code(), kUsage);
  EXPECT_EQ(Run("load-position " + TempPath("missing.txt")).code(), kUsage);
  const std::string garbage = TempPath("garbage.txt");
  std::ofstream(garbage) << "round: banana";
  Status st = Run("load-position " + garbage);
  EXPECT_EQ(st.code(), kUsage);
  EXPECT_NE(st.reason().find("line 1"), std::string::npos) << st.reason();
  const std::string inconsistent = TempPath("inconsistent.txt");
  std::ofstream(inconsistent) << "round: 99";
  st = Run("load-position " + inconsistent);
  EXPECT_EQ(st.code(), kUsage);
  EXPECT_NE(st.reason().find("not a consistent position"), std::string::npos) << st.reason();
  EXPECT_EQ(session_->state().Serialize(), before);
  std::remove(garbage.c_str());
  std::remove(inconsistent.c_str());
}

TEST_F(SessionTest, ReplayDetectsTamperedResults) {
  PlayOneRound();
  auto record = MakeRecord(session_->state(), session_->options_bytes(), session_->seed());
  record.mutable_results(1)->set_score(7);
  std::ostringstream out;
  Status st = ReplayRecord(record, ReplayRequest(), out);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(out.str().find("seat 1: stored score 7 rank 1, re-simulated score 1 rank 1"),
            std::string::npos);
}

TEST_F(SessionTest, ReplayRefusesAnIllegalLog) {
  PlayOneRound();
  auto record = MakeRecord(session_->state(), session_->options_bytes(), session_->seed());
  record.mutable_actions(1)->set_seat(0);  // seat 0 cannot act twice
  std::ostringstream out;
  Status st = ReplayRecord(record, ReplayRequest(), out);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.reason().find("Action 2 (seat 0"), std::string::npos);
  EXPECT_NE(st.reason().find("not_your_turn"), std::string::npos);
}

TEST_F(SessionTest, ReplayOfAnUnfinishedGameHasNoResults) {
  ASSERT_TRUE(Run("act 0 place { slot: 0 position: 1 }").ok());
  auto record = MakeRecord(session_->state(), session_->options_bytes(), session_->seed());
  EXPECT_EQ(record.results_size(), 0);
  std::ostringstream out;
  EXPECT_TRUE(ReplayRecord(record, ReplayRequest(), out).ok());
  EXPECT_NE(out.str().find("The game is not over after 1 steps."), std::string::npos);
}

TEST_F(SessionTest, ReplayOfAnUnknownGame) {
  plateau::v1::GameRecord record;
  record.set_game("chess");
  std::ostringstream out;
  EXPECT_EQ(ReplayRecord(record, ReplayRequest(), out).code(), engine::codes::kUnknownGame);
}

TEST_F(SessionTest, RunCommandsStrictStopsWithTheLineNumber) {
  std::istringstream script(
      "# comment\n\nact 0 place { slot: 0 position: 1 }\nexpect-acting 0\nact 1 place { slot: 1 position: 1 }\n");
  std::ostringstream out, err;
  EXPECT_EQ(RunCommands(*session_, script, "s.txt", true, false, out, err), 1);
  EXPECT_EQ(err.str(), "s.txt:4: expectation failed: acting seats are 1, expected 0.\n  in: expect-acting 0\n");
  EXPECT_EQ(session_->state().History().size(), 1u);
}

TEST_F(SessionTest, RunCommandsLenientGoesOnAndStopsAtQuit) {
  std::istringstream input(
      "act 1 place { slot: 0 position: 1 }\nact 0 place { slot: 0 position: 1 }\nquit\n"
      "act 1 place { slot: 1 position: 1 }\n");
  std::ostringstream out, err;
  EXPECT_EQ(RunCommands(*session_, input, "stdin", false, false, out, err), 0);
  EXPECT_NE(out.str().find("refused: not_your_turn"), std::string::npos);
  EXPECT_EQ(session_->state().History().size(), 1u);
  EXPECT_TRUE(err.str().empty());
}

}  // namespace
}  // namespace plateau::console
