#pragma once
// Memory for the operations a WebSocket read or write allocates (Asio's reactor operations and
// Beast's wrappers around them), bound to a session's handlers with boost::asio::bind_allocator.
//
// Asio's own cache keeps 2 freed blocks per thread and hands them out first-fit, so with many
// sessions on a thread a small operation takes the one large block and the next write (1.3 KB
// with Beast's stream wrappers) goes to malloc, whose large-block path then consolidates the
// heap: ~3% of the server's samples at 1000 rooms. Here each thread keeps freed blocks by size
// class, a bounded number per class, and balances with a shared pool (see handler_memory.cc).
#include <cstddef>
#include <new>

namespace plateau::server {

namespace handler_memory {
// Blocks up to kMaxBlock bytes are cached, in classes kClassBytes apart; larger ones go straight
// to operator new. kPerClass bounds what one thread keeps (at most 8 x 32 blocks of up to 2 KB),
// and the shared pool keeps at most 8 times that.
inline constexpr std::size_t kClassBytes = 256;
inline constexpr std::size_t kMaxBlock = 2048;
inline constexpr std::size_t kClasses = kMaxBlock / kClassBytes;
inline constexpr std::size_t kPerClass = 32;
inline constexpr std::size_t kSharedPerClass = 8 * kPerClass;

void* Allocate(std::size_t bytes);
void Deallocate(void* p, std::size_t bytes);

// Free blocks held now for requests of `bytes`: by the calling thread, and in the shared pool.
struct Held {
  std::size_t this_thread = 0;
  std::size_t shared = 0;
};
Held HeldFor(std::size_t bytes);
}  // namespace handler_memory

template <typename T>
class HandlerAllocator {
 public:
  using value_type = T;
  HandlerAllocator() noexcept = default;
  template <typename U>
  HandlerAllocator(const HandlerAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    // Blocks come from operator new, so they have its default alignment and no more.
    static_assert(alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__);
    return static_cast<T*>(handler_memory::Allocate(n * sizeof(T)));
  }
  // noexcept although it may take the shared pool's mutex: a failure to lock it is fatal here.
  void deallocate(T* p, std::size_t n) noexcept { handler_memory::Deallocate(p, n * sizeof(T)); }

  // Any instance frees what any other allocated: the caches are per thread, not per instance.
  template <typename U>
  bool operator==(const HandlerAllocator<U>&) const noexcept {
    return true;
  }
  template <typename U>
  bool operator!=(const HandlerAllocator<U>&) const noexcept {
    return false;
  }
};

}  // namespace plateau::server
