#pragma once
// The only source of randomness the engine knows. Its algorithm is fixed here, not borrowed from
// the standard library, whose distributions differ between implementations: a stored
// (seed, action log) must replay identically on any platform and any later build.
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace plateau::engine {

class Rng {
 public:
  explicit Rng(uint64_t state) : state_(state) {}
  uint64_t state() const { return state_; }

  // splitmix64
  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  // Uniform in [0, n), without modulo bias (rejection sampling). n must be > 0.
  uint64_t Below(uint64_t n) {
    const uint64_t limit = UINT64_MAX - (UINT64_MAX % n);
    uint64_t x;
    do {
      x = Next();
    } while (x >= limit);
    return x % n;
  }

  // Fisher-Yates, drawing from Below().
  template <class T>
  void Shuffle(std::vector<T>& v) {
    for (std::size_t i = v.size(); i > 1; --i) {
      std::size_t j = static_cast<std::size_t>(Below(i));
      std::swap(v[i - 1], v[j]);
    }
  }

  template <class RepeatedField>
  void ShuffleRepeated(RepeatedField* v) {
    for (int i = v->size(); i > 1; --i) {
      int j = static_cast<int>(Below(static_cast<uint64_t>(i)));
      v->SwapElements(i - 1, j);
    }
  }

 private:
  uint64_t state_;
};

}  // namespace plateau::engine
