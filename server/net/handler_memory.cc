#include "server/net/handler_memory.h"

#include <sanitizer/asan_interface.h>

#include <mutex>

namespace plateau::server::handler_memory {
namespace {

struct FreeBlock {
  FreeBlock* next;
};

// Under AddressSanitizer a held block is poisoned past its link, so an operation used after it
// was freed is still reported (the macros do nothing in other builds).
void Hold(FreeBlock* b, std::size_t c) {
  ASAN_POISON_MEMORY_REGION(reinterpret_cast<char*>(b) + sizeof(FreeBlock),
                            (c + 1) * kClassBytes - sizeof(FreeBlock));
}
void Release(FreeBlock* b, std::size_t c) {
  ASAN_UNPOISON_MEMORY_REGION(b, (c + 1) * kClassBytes);
}

// A list of free blocks of one class.
struct List {
  FreeBlock* head = nullptr;
  std::size_t count = 0;
  void Push(FreeBlock* b) {
    b->next = head;
    head = b;
    ++count;
  }
  FreeBlock* Pop() {
    FreeBlock* b = head;
    if (b != nullptr) {
      head = b->next;
      --count;
    }
    return b;
  }
};

// One thread often frees more of a class than it takes (a write started on one I/O thread may
// complete on the other): a full thread cache passes kBatch blocks to this shared one, and an
// empty one takes up to kBatch back, so neither thread falls back to malloc for long. Never
// destroyed, so threads may still give blocks back while the process exits.
constexpr std::size_t kBatch = kPerClass / 2;
struct Shared {
  std::mutex mu;
  List lists[kClasses];
};
Shared& TheShared() {
  static Shared* shared = new Shared;
  return *shared;
}
// Puts a held block of class `c` into the shared pool, or frees it when the pool is full.
// Needs the pool's mutex.
void GiveToShared(Shared& s, std::size_t c, FreeBlock* b) {
  if (s.lists[c].count < kSharedPerClass) {
    s.lists[c].Push(b);
  } else {
    Release(b, c);
    ::operator delete(b);
  }
}

// Set once this thread's cache is destroyed: operations still freed afterwards on this thread
// (objects torn down at exit) go to operator delete.
thread_local bool cache_gone = false;

struct Cache {
  List lists[kClasses];
  ~Cache() {
    Shared& s = TheShared();
    std::lock_guard lock(s.mu);
    for (std::size_t c = 0; c < kClasses; ++c) {
      while (FreeBlock* b = lists[c].Pop()) GiveToShared(s, c, b);
    }
    cache_gone = true;
  }
};

thread_local Cache cache;

std::size_t ClassOf(std::size_t bytes) { return bytes == 0 ? 0 : (bytes - 1) / kClassBytes; }

}  // namespace

void* Allocate(std::size_t bytes) {
  if (bytes > kMaxBlock) return ::operator new(bytes);
  const std::size_t c = ClassOf(bytes);
  // Every block of a class has the class's full size, so any later request of the class fits,
  // whichever thread's cache it ends in (also one allocated after this thread's cache is gone).
  if (cache_gone) return ::operator new((c + 1) * kClassBytes);
  List& mine = cache.lists[c];
  if (mine.head == nullptr) {
    Shared& s = TheShared();
    std::lock_guard lock(s.mu);
    for (std::size_t i = 0; i < kBatch; ++i) {
      FreeBlock* b = s.lists[c].Pop();
      if (b == nullptr) break;
      mine.Push(b);
    }
  }
  if (FreeBlock* b = mine.Pop()) {
    Release(b, c);
    return b;
  }
  return ::operator new((c + 1) * kClassBytes);
}

void Deallocate(void* p, std::size_t bytes) {
  if (p == nullptr) return;
  if (bytes > kMaxBlock || cache_gone) {
    ::operator delete(p);
    return;
  }
  const std::size_t c = ClassOf(bytes);
  List& mine = cache.lists[c];
  if (mine.count >= kPerClass) {
    Shared& s = TheShared();
    std::lock_guard lock(s.mu);
    for (std::size_t i = 0; i < kBatch; ++i) GiveToShared(s, c, mine.Pop());
  }
  auto* b = static_cast<FreeBlock*>(p);
  mine.Push(b);
  Hold(b, c);
}

Held HeldFor(std::size_t bytes) {
  if (bytes > kMaxBlock) return {};
  const std::size_t c = ClassOf(bytes);
  Held held;
  held.this_thread = cache_gone ? 0 : cache.lists[c].count;
  Shared& s = TheShared();
  std::lock_guard lock(s.mu);
  held.shared = s.lists[c].count;
  return held;
}

}  // namespace plateau::server::handler_memory
