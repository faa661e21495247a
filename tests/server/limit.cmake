# LIMIT played by three real WebSocket clients through the server over loopback. The test skips
# itself while LIMIT is not in PLATEAU_GAMES (engine/games/CMakeLists.txt).
if(TARGET plateau_storage)
  add_executable(limit_server_test limit_server_test.cc)
  target_link_libraries(limit_server_test PRIVATE
    plateau_server_lib plateau_storage plateau_games GTest::gtest_main)
  gtest_discover_tests(limit_server_test DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 300)
endif()
