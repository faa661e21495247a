# Storage tests (storage_test, registered with ctest) and the storage benchmark (storage_bench,
# run by hand: <build>/bin/storage_bench).

set(PLATEAU_STORAGE_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/storage_migrations_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/storage_store_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/storage_replay_test.cc)

# The Store suite and PostgreSQL's migrations run on a PostgreSQL server the test process starts
# itself (tests/server/pg_test_server.h), as well as on SQLite files.
add_executable(storage_test ${PLATEAU_STORAGE_TEST_SOURCES}
                            ${CMAKE_CURRENT_LIST_DIR}/storage_pg_test.cc
                            ${CMAKE_CURRENT_LIST_DIR}/storage_ownership_test.cc
                            ${CMAKE_CURRENT_LIST_DIR}/pg_test_server.cc)
target_link_libraries(storage_test PRIVATE plateau_storage plateau_pg_storage GTest::gtest_main
                                           Threads::Threads)
# Each test makes its own database (a file in a fresh temporary directory, or a PostgreSQL
# database).
gtest_discover_tests(storage_test PROPERTIES LABELS storage TIMEOUT 120)

find_package(benchmark REQUIRED)
add_executable(storage_bench ${CMAKE_CURRENT_LIST_DIR}/storage_bench.cc)
target_link_libraries(storage_bench PRIVATE plateau_storage benchmark::benchmark)
