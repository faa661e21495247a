# LIMIT rule-book examples reproduced through the rules console: each script loads an edited
# position (scripts/limit_<example>.position.txt) and checks the book's numbers.
set(limit_solo_examples
  industrial_shortage
  revolt_military_shortage
  fossil_shortage
  market_transactions
  scoring)
foreach(ex ${limit_solo_examples})
  add_test(NAME console_limit_${ex}
    COMMAND $<TARGET_FILE:plateau-engine> play limit --seats 1 --seed 1
      --script ${CMAKE_CURRENT_SOURCE_DIR}/scripts/limit_${ex}.txt)
  set_tests_properties(console_limit_${ex} PROPERTIES TIMEOUT 120)
endforeach()

# Examples that need several nations.
add_test(NAME console_limit_ecological_crisis
  COMMAND $<TARGET_FILE:plateau-engine> play limit --seats 3 --seed 1
    --script ${CMAKE_CURRENT_SOURCE_DIR}/scripts/limit_ecological_crisis.txt)
set_tests_properties(console_limit_ecological_crisis PROPERTIES TIMEOUT 120)
add_test(NAME console_limit_demilitarisation
  COMMAND $<TARGET_FILE:plateau-engine> play limit --seats 4 --seed 1 --options "alliances: true"
    --script ${CMAKE_CURRENT_SOURCE_DIR}/scripts/limit_demilitarisation.txt)
set_tests_properties(console_limit_demilitarisation PROPERTIES TIMEOUT 120)
