# Storage tests (storage_test, registered with ctest) and the storage benchmark (storage_bench,
# run by hand: <build>/bin/storage_bench).
#
# Included twice on purpose: from server/storage/CMakeLists.txt, so the targets exist as soon as
# the library does, and from tests/server/CMakeLists.txt, where testing is enabled (ctest only
# sees tests registered under a directory that called enable_testing(), which server/ is not).
# The targets are defined once; tests are registered by scanning the sources (gtest_add_tests),
# which, unlike gtest_discover_tests, works from a directory other than the target's.
find_package(GTest REQUIRED)
include(GoogleTest)

set(PLATEAU_STORAGE_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/storage_migrations_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/storage_store_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/storage_replay_test.cc)

if(NOT TARGET storage_test)
  add_executable(storage_test ${PLATEAU_STORAGE_TEST_SOURCES})
  target_link_libraries(storage_test PRIVATE plateau_storage GTest::gtest_main Threads::Threads)

  find_package(benchmark QUIET)
  if(benchmark_FOUND)
    add_executable(storage_bench ${CMAKE_CURRENT_LIST_DIR}/storage_bench.cc)
    target_link_libraries(storage_bench PRIVATE plateau_storage benchmark::benchmark)
  else()
    message(STATUS "storage_bench: Google Benchmark not found, not built")
  endif()
endif()

# Each test makes its own database in a fresh temporary directory.
gtest_add_tests(TARGET storage_test SOURCES ${PLATEAU_STORAGE_TEST_SOURCES} TEST_LIST
                plateau_storage_tests)
set_tests_properties(${plateau_storage_tests} PROPERTIES LABELS storage TIMEOUT 120)
