#pragma once
// Internal: a portable random source. std::mt19937_64 is specified bit for bit by the standard,
// the std:: distributions are not, so the distributions are written here.
#include <cstdint>
#include <random>
#include <vector>

namespace sadsl::tune {

class rng {
public:
  explicit rng(std::uint64_t seed) : engine_(seed) {}
  std::uint64_t next() { return engine_(); }
  /// Uniform in [lo, hi] (inclusive), by rejection so that every value is equally likely.
  std::int64_t uniform(std::int64_t lo, std::int64_t hi) {
    std::uint64_t span = static_cast<std::uint64_t>(hi - lo) + 1;
    if (span == 0) return lo + static_cast<std::int64_t>(next());  // the full 64-bit range
    std::uint64_t limit = ~std::uint64_t{0} - (~std::uint64_t{0} % span + 1) % span;
    std::uint64_t x = next();
    while (x > limit) x = next();
    return lo + static_cast<std::int64_t>(x % span);
  }
  /// Uniform in [0, 1) with 53 random bits.
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  bool chance(double p) { return unit() < p; }
  std::size_t index(std::size_t size) { return static_cast<std::size_t>(uniform(0, static_cast<std::int64_t>(size) - 1)); }
  template <class T>
  const T& pick(const std::vector<T>& values) { return values[index(values.size())]; }

private:
  std::mt19937_64 engine_;
};

}  // namespace sadsl::tune
