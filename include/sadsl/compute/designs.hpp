#pragma once
// The design space of a kernel: every dataflow x non-dominated tile order, each with array
// partitioning, latency hiding and SIMD applied where legal.
#include <vector>

#include "sadsl/compute/design.hpp"
#include "sadsl/dsl/kernel.hpp"

namespace sadsl {

struct design_options {
  int max_space_dims = 2;     // 3 enumerates 3-D arrays too
  bool latency_hiding = true;
  bool simd = true;
};

/// Every (dataflow, permutation) design of the kernel, in a deterministic order: dataflows as
/// space_time_candidates lists them, tile orders as tile_orders lists them. sadsl::error when the
/// kernel cannot be mapped (naming the dependence that breaks legality).
std::vector<design> designs(const kernel& k, const design_options& options = {});

}  // namespace sadsl
