#pragma once
// A portable pseudorandom source for the tuning-knob search. std::mt19937_64 is specified bit for
// bit by the standard, but std::uniform_int_distribution and friends are not, so the draws are our
// own: the same seed gives the same search on every standard library.
#include <cstdint>
#include <random>

namespace sadsl::knobs {

class rng {
 public:
  explicit rng(std::uint64_t seed) : engine_(seed) {}
  /// Uniform integer in [0, n), n > 0, without modulo bias (rejection of the short last bucket).
  std::uint64_t below(std::uint64_t n);

 private:
  std::mt19937_64 engine_;
};

}  // namespace sadsl::knobs
