#include "sadsl/tune/knobs/rng.hpp"

#include <limits>

#include "sadsl/error.hpp"

namespace sadsl::knobs {

std::uint64_t rng::below(std::uint64_t n) {
  SADSL_INTERNAL_ASSERT(n > 0, "rng::below(0)");
  // Largest multiple of n representable; draws at or above it would bias the low residues.
  const std::uint64_t limit = std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % n;
  std::uint64_t draw = engine_();
  while (draw >= limit) draw = engine_();
  return draw % n;
}

}  // namespace sadsl::knobs
