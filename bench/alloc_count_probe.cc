// alloc_count_probe: the test of plateau-alloc-count (bench/alloc_count.cc). Run with the library
// preloaded and PLATEAU_ALLOC_COUNT_FILE set, it makes a known number of allocations on two
// threads and checks that the file's counters grew by that many (less what a thread may not have
// flushed yet) and by their bytes. Exits 0 when they did, 1 with the figures when not.
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {

constexpr uint64_t kPerThread = 100000;
constexpr uint64_t kSize = 48;
constexpr uint64_t kFlushEvery = 64;  // bench/alloc_count.cc

void Allocate() {
  for (uint64_t i = 0; i < kPerThread; ++i) {
    // volatile: the compiler may not drop a malloc paired with its free.
    void* volatile p = std::malloc(kSize);
    std::free(p);
  }
}

}  // namespace

int main() {
  const char* path = std::getenv("PLATEAU_ALLOC_COUNT_FILE");
  if (path == nullptr) {
    std::fprintf(stderr, "alloc_count_probe: PLATEAU_ALLOC_COUNT_FILE is not set\n");
    return 2;
  }
  const int fd = open(path, O_RDONLY);
  if (fd < 0) {
    std::fprintf(stderr, "alloc_count_probe: %s does not exist (is the library preloaded?)\n", path);
    return 1;
  }
  const auto* counts = static_cast<const volatile uint64_t*>(
      mmap(nullptr, 2 * sizeof(uint64_t), PROT_READ, MAP_SHARED, fd, 0));
  close(fd);
  if (counts == MAP_FAILED) return 2;
  const uint64_t allocations_before = counts[0], bytes_before = counts[1];
  std::thread a(Allocate), b(Allocate);  // each flushes its last whole batch as it goes
  a.join();
  b.join();
  const uint64_t allocations = counts[0] - allocations_before;
  const uint64_t bytes = counts[1] - bytes_before;
  // At least every allocation but a thread's unflushed tail; the threads' own start-up and this
  // thread's may add a few.
  const uint64_t least = 2 * (kPerThread - kFlushEvery);
  const uint64_t most = 2 * kPerThread + 4 * kFlushEvery;
  std::printf("allocations counted: %llu (expected %llu to %llu); bytes %llu\n",
              static_cast<unsigned long long>(allocations), static_cast<unsigned long long>(least),
              static_cast<unsigned long long>(most), static_cast<unsigned long long>(bytes));
  const bool ok = allocations >= least && allocations <= most && bytes >= least * kSize;
  return ok ? 0 : 1;
}
