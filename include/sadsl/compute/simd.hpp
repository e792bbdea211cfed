#pragma once
// SIMD vectorization (paper 002 section 5.4). A band loop is vectorizable when it is a reduction
// (detected from the DSL: a loop of an op= statement that does not index its lhs) or parallel,
// and every access is stride-0 or stride-1 in it. When an input is stride-1 only in another
// layout (MM's B(k, j) under SIMD on k), the design records the transposed layout and the host
// performs it. The factor (x_t2, Odyssey's name; x_t3 if x already has a latency factor) divides
// x_t1, is a power of two and at most 8 lanes (Odyssey's space). A design whose partial tiles
// cannot be padded with zeros (compute/zero_padding.hpp) is not vectorized: its lanes would need
// whole vectors.
#include "sadsl/compute/design.hpp"

namespace sadsl {

struct simd_choice {
  loop_id loop;
  std::vector<layout_transform> layouts;
};

/// The vectorizable loops, best first: reductions before parallel loops, fewer layout changes
/// first, inner loops first.
std::vector<simd_choice> simd_candidates(const design& d);

/// Vectorizes the best candidate; illegal before array partitioning or when none exists.
design_or_reason simd(const design& d);

}  // namespace sadsl
