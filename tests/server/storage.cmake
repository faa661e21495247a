# Storage tests (storage_test, run by ctest) and the storage benchmark (storage_bench, run by
# hand: build/bin/storage_bench). Included from server/storage/CMakeLists.txt when tests are
# built, and may also be included from tests/server/CMakeLists.txt: the guard keeps one copy.
include_guard(GLOBAL)

find_package(GTest REQUIRED)
include(GoogleTest)

set(PLATEAU_STORAGE_TEST_DIR ${CMAKE_CURRENT_LIST_DIR})

add_executable(storage_test
  ${PLATEAU_STORAGE_TEST_DIR}/storage_migrations_test.cc
  ${PLATEAU_STORAGE_TEST_DIR}/storage_store_test.cc
  ${PLATEAU_STORAGE_TEST_DIR}/storage_replay_test.cc)
target_link_libraries(storage_test PRIVATE plateau_storage GTest::gtest_main Threads::Threads)
# Tests create their databases under a fresh temporary directory each.
gtest_discover_tests(storage_test DISCOVERY_TIMEOUT 60)

find_package(benchmark QUIET)
if(benchmark_FOUND)
  add_executable(storage_bench ${PLATEAU_STORAGE_TEST_DIR}/storage_bench.cc)
  target_link_libraries(storage_bench PRIVATE plateau_storage benchmark::benchmark)
else()
  message(STATUS "storage_bench: Google Benchmark not found, not built")
endif()
