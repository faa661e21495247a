// The memory WebSocket sessions give their read and write operations (server/net/handler_memory):
// freed blocks are reused by size class, a thread that frees more than it takes passes blocks on
// to one that takes more, and what is held stays bounded.
#include "server/net/handler_memory.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <thread>
#include <vector>

namespace plateau::server {
namespace {

using namespace handler_memory;

TEST(HandlerMemoryTest, AFreedBlockServesTheNextRequestOfItsClassOnly) {
  void* big = Allocate(1000);
  std::memset(big, 0xab, 1024);  // the whole class is usable, not only what was asked
  Deallocate(big, 1000);
  void* small = Allocate(100);
  EXPECT_NE(small, big) << "a 100-byte request took a block of the 769-1024 class";
  void* again = Allocate(800);
  EXPECT_EQ(again, big);
  Deallocate(again, 800);
  Deallocate(small, 100);
}

TEST(HandlerMemoryTest, BlocksAboveTheLargestClassAreNeverHeld) {
  // Nothing above kMaxBlock may land in the largest class (it would be handed out too small).
  const Held before = HeldFor(kMaxBlock);
  void* p = Allocate(kMaxBlock + 1);
  std::memset(p, 1, kMaxBlock + 1);
  Deallocate(p, kMaxBlock + 1);
  const Held after = HeldFor(kMaxBlock);
  EXPECT_EQ(after.this_thread, before.this_thread);
  EXPECT_EQ(after.shared, before.shared);
  void* top = Allocate(kMaxBlock);
  Deallocate(top, kMaxBlock);
  EXPECT_EQ(HeldFor(kMaxBlock).this_thread, before.this_thread + 1);
}

TEST(HandlerMemoryTest, WhatOneThreadFreesAnotherThreadGetsBack) {
  constexpr std::size_t kBytes = 1200;  // the size of a Beast write operation
  constexpr int kBlocks = 200;
  std::vector<void*> taken;
  std::thread writer([&] {
    for (int i = 0; i < kBlocks; ++i) taken.push_back(Allocate(kBytes));
  });
  writer.join();
  // This thread completes them all: it keeps at most kPerClass and passes the rest on.
  for (void* p : taken) Deallocate(p, kBytes);
  const Held held = HeldFor(kBytes);
  EXPECT_LE(held.this_thread, kPerClass);
  EXPECT_EQ(held.this_thread + held.shared, static_cast<std::size_t>(kBlocks));

  const std::set<void*> freed(taken.begin(), taken.end());
  int reused = 0;
  std::vector<void*> again;
  std::thread writer2([&] {
    for (int i = 0; i < kBlocks; ++i) {
      again.push_back(Allocate(kBytes));
      reused += freed.count(again.back()) ? 1 : 0;
    }
    for (void* p : again) Deallocate(p, kBytes);
  });
  writer2.join();
  EXPECT_GE(reused, kBlocks - static_cast<int>(kPerClass));
}

TEST(HandlerMemoryTest, WhatIsHeldStaysBounded) {
  constexpr std::size_t kBytes = 300;
  std::vector<void*> blocks;
  for (int i = 0; i < 5000; ++i) blocks.push_back(Allocate(kBytes));
  for (void* p : blocks) Deallocate(p, kBytes);
  const Held held = HeldFor(kBytes);
  EXPECT_LE(held.this_thread, kPerClass);
  EXPECT_LE(held.shared, kSharedPerClass);
  EXPECT_GT(held.shared, 0u);
}

TEST(HandlerMemoryTest, AThreadThatEndsLeavesItsBlocksToTheOthers) {
  constexpr std::size_t kBytes = 1900;
  std::vector<void*> mine;
  for (int i = 0; i < 10; ++i) mine.push_back(Allocate(kBytes));
  const std::size_t shared_before = HeldFor(kBytes).shared;
  std::thread ender([&] {
    for (void* p : mine) Deallocate(p, kBytes);
    EXPECT_EQ(HeldFor(kBytes).this_thread, 10u);
  });
  ender.join();
  EXPECT_EQ(HeldFor(kBytes).shared, std::min(shared_before + 10, kSharedPerClass));
}

}  // namespace
}  // namespace plateau::server
