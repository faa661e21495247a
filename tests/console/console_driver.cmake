# Runs plateau-engine scenarios for ctest and checks exit status and output. Invoked as
#   cmake -DENGINE=<plateau-engine> -DSCRIPTS=<scripts dir> -DWORK=<scratch dir> -DCASE=<name> -P
# Each case is one command line of the tool as a designer would type it.
cmake_minimum_required(VERSION 3.25)

set(play ${ENGINE} play globalissimo --seats 2 --seed 1 --options "rounds: 1")
file(MAKE_DIRECTORY ${WORK})

# run(<expected exit> <output regex>... COMMAND <argv>...)
function(run expected_exit)
  cmake_parse_arguments(PARSE_ARGV 1 R "" "INPUT" "MATCH;COMMAND")
  set(input_args)
  if(R_INPUT)
    set(input_args INPUT_FILE ${R_INPUT})
  endif()
  execute_process(COMMAND ${R_COMMAND} WORKING_DIRECTORY ${WORK} ${input_args}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
  set(all "${out}\n${err}")
  if(NOT rc STREQUAL expected_exit)
    message(FATAL_ERROR "exit status ${rc}, expected ${expected_exit}\n  command: ${R_COMMAND}\n${all}")
  endif()
  foreach(regex IN LISTS R_MATCH)
    if(NOT all MATCHES "${regex}")
      message(FATAL_ERROR "output lacks '${regex}'\n  command: ${R_COMMAND}\n${all}")
    endif()
  endforeach()
  set(last_output "${all}" PARENT_SCOPE)
endfunction()

if(CASE STREQUAL "games")
  run(0 MATCH "globalissimo\tGlobalissimo\t2-6 seats" COMMAND ${ENGINE} games)
  run(0 MATCH "Usage: plateau-engine play" "expect-view" COMMAND ${ENGINE} play --help)
  run(0 MATCH "Usage: plateau-engine replay" COMMAND ${ENGINE} replay --help)
  run(2 MATCH "unknown command 'dance'" COMMAND ${ENGINE} dance)
elseif(CASE STREQUAL "play_one_round")
  file(REMOVE ${WORK}/one_round.record)
  run(0 MATCH "refused as expected: slot_taken" "wrote 2 actions to one_round.record"
      COMMAND ${play} --script ${SCRIPTS}/one_round.txt)
  if(NOT EXISTS ${WORK}/one_round.record)
    message(FATAL_ERROR "export wrote no file")
  endif()
elseif(CASE STREQUAL "play_orange_barrier")
  run(0 MATCH "refused as expected: wrong_question_kind" COMMAND ${play} --script ${SCRIPTS}/orange_barrier.txt)
elseif(CASE STREQUAL "stops_at_failed_expectation")
  run(1 MATCH "failing_expectation.txt:4: expectation failed: acting seats are 1, expected 0"
      COMMAND ${play} --script ${SCRIPTS}/failing_expectation.txt)
  if(last_output MATCHES "ok; acting: none")
    message(FATAL_ERROR "the script went on after the failure:\n${last_output}")
  endif()
elseif(CASE STREQUAL "stops_at_refused_act")
  run(1 MATCH "refused_act.txt:3: refused: slot_taken: "
      COMMAND ${play} --script ${SCRIPTS}/refused_act.txt)
elseif(CASE STREQUAL "interactive_goes_on")
  run(0 INPUT ${SCRIPTS}/../interactive.txt
      MATCH "refused: not_your_turn: " "error: Unknown command 'bogus-command'" "acting: 1"
            "expectation failed: acting seats are 1, expected 0" "step 1: seat 0: place"
      COMMAND ${play})
  if(last_output MATCHES "step 2")
    message(FATAL_ERROR "commands after quit were run:\n${last_output}")
  endif()
elseif(CASE STREQUAL "bad_start")
  run(1 MATCH "unknown game 'chess'; known games: [a-z_ ]*globalissimo" COMMAND ${ENGINE} play chess)
  run(1 MATCH "at most 10" COMMAND ${ENGINE} play globalissimo --seats 2 --options "rounds: 11")
  run(1 MATCH "Cannot read the options" COMMAND ${ENGINE} play globalissimo --seats 2 --options "laps: 3")
  run(1 MATCH "2 to 6 players, not 7" COMMAND ${ENGINE} play globalissimo --seats 7)
  run(2 MATCH "--seed must be a non-negative whole number" COMMAND ${ENGINE} play globalissimo --seed x)
  run(2 MATCH "Unknown option --colour" COMMAND ${ENGINE} play globalissimo --colour red)
  run(1 MATCH "cannot open script" COMMAND ${play} --script ${WORK}/no-such-script.txt)
elseif(CASE STREQUAL "replay_export")
  # Produce the record here so this test does not depend on another test's order.
  file(REMOVE ${WORK}/one_round.record)
  run(0 COMMAND ${play} --script ${SCRIPTS}/one_round.txt)
  run(0 MATCH "steps: 2" "step 1: seat 0: place { position: 1 }"
              "step 2: seat 1: place { slot: 4 position: 2 }"
              "seat 0 \\(Seat 1\\): score 1, rank 1" "The stored results match the re-simulation"
              "view of spectator at step 2" "phase: PHASE_GAME_OVER"
      COMMAND ${ENGINE} replay one_round.record)
  run(0 MATCH "view of seat 1 at step 1" "to_act: 1"
      COMMAND ${ENGINE} replay one_round.record --step 1 --seat 1)
  if(last_output MATCHES "at step 2")
    message(FATAL_ERROR "--step 1 printed another step:\n${last_output}")
  endif()
  run(0 MATCH "at step 0" "at step 1" "at step 2" COMMAND ${ENGINE} replay one_round.record --all)
  run(2 MATCH "Step 3 is past the end: the game has 2 steps"
      COMMAND ${ENGINE} replay one_round.record --step 3)
  run(2 MATCH "Seat 2 is not in this game" COMMAND ${ENGINE} replay one_round.record --seat 2)
  run(1 MATCH "Cannot open" COMMAND ${ENGINE} replay ${WORK}/missing.record)
  file(WRITE ${WORK}/garbage.record "this is not a protobuf")
  run(1 MATCH "is not a game record" COMMAND ${ENGINE} replay garbage.record)
else()
  message(FATAL_ERROR "unknown case '${CASE}'")
endif()
