// plateau-alloc-count: a library preloaded into a process (LD_PRELOAD) that counts its heap
// allocations and their bytes, for bench/counts.sh's allocations per action. Never linked into
// a program: the server is measured with it, not built with it.
//
// The counts live in a file the measurer names (PLATEAU_ALLOC_COUNT_FILE), mapped shared, so a
// script reads them at any moment without stopping or signalling the process: two 64-bit
// counters, allocations then bytes asked for, native byte order. Each thread adds to the file
// once every kFlushEvery allocations (an atomic add on a line shared by every thread would itself
// cost what is being counted); what a thread has not flushed yet is at most kFlushEvery - 1
// allocations, lost when it exits. Without the variable (or if the file cannot be mapped) the
// counts stay in this process's memory and nothing is published.
//
// Counted: malloc, calloc, realloc, aligned_alloc, memalign, posix_memalign (operator new and
// the C++ library's allocations come through malloc). free is not interposed.
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" {
void* __libc_malloc(size_t size);
void* __libc_calloc(size_t n, size_t size);
void* __libc_realloc(void* p, size_t size);
void* __libc_memalign(size_t alignment, size_t size);
}

namespace {

constexpr uint64_t kFlushEvery = 64;

struct Counts {
  std::atomic<uint64_t> allocations;
  std::atomic<uint64_t> bytes;
};

Counts local_counts;  // until the file is mapped, or when it cannot be
std::atomic<Counts*> published{&local_counts};

struct Pending {
  uint64_t allocations = 0;
  uint64_t bytes = 0;
};
__attribute__((tls_model("initial-exec"))) thread_local Pending pending;

inline void Count(size_t size) {
  Pending& p = pending;
  p.bytes += size;
  if (++p.allocations < kFlushEvery) return;
  Counts* c = published.load(std::memory_order_relaxed);
  c->allocations.fetch_add(p.allocations, std::memory_order_relaxed);
  c->bytes.fetch_add(p.bytes, std::memory_order_relaxed);
  p = Pending{};
}

// Runs before main; allocates nothing (open, ftruncate and mmap do not).
__attribute__((constructor)) void MapCountsFile() {
  const char* path = getenv("PLATEAU_ALLOC_COUNT_FILE");
  if (path == nullptr || *path == '\0') return;
  const int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return;
  void* mapped = MAP_FAILED;
  if (ftruncate(fd, sizeof(Counts)) == 0) {
    mapped = mmap(nullptr, sizeof(Counts), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  }
  close(fd);
  if (mapped == MAP_FAILED) return;
  auto* counts = static_cast<Counts*>(mapped);  // zero-filled by ftruncate
  counts->allocations.fetch_add(local_counts.allocations.load(), std::memory_order_relaxed);
  counts->bytes.fetch_add(local_counts.bytes.load(), std::memory_order_relaxed);
  published.store(counts, std::memory_order_relaxed);
}

}  // namespace

extern "C" {

void* malloc(size_t size) {
  Count(size);
  return __libc_malloc(size);
}

void* calloc(size_t n, size_t size) {
  Count(n * size);
  return __libc_calloc(n, size);
}

void* realloc(void* p, size_t size) {
  Count(size);
  return __libc_realloc(p, size);
}

void* memalign(size_t alignment, size_t size) {
  Count(size);
  return __libc_memalign(alignment, size);
}

void* aligned_alloc(size_t alignment, size_t size) {
  Count(size);
  return __libc_memalign(alignment, size);
}

int posix_memalign(void** out, size_t alignment, size_t size) {
  if (alignment < sizeof(void*) || (alignment & (alignment - 1)) != 0) return EINVAL;
  Count(size);
  void* p = __libc_memalign(alignment, size);
  if (p == nullptr) return ENOMEM;
  *out = p;
  return 0;
}

}  // extern "C"
