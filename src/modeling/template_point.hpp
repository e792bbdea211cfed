#pragma once
// The point a design's model is read at (performance_model.cpp): its factors and the kernel's
// problem sizes there, chosen so that every level of every loop has two or more iterations and
// every value the builder reads off the template architecture is distinct.
#include <cstdint>
#include <vector>

#include "sadsl/compute/design.hpp"

namespace sadsl::modeling {

/// Factors where every level has two or more iterations: t1 = 8, then halves.
design_point template_point(const design& d);

/// The template's value of each of the kernel's params (kernel::params() order). `whole_tiles`:
/// the design is modeled at whole tiles only (guarded or triangular: builder::add_whole_tiles).
std::vector<int64_t> template_sizes(const design& d, bool whole_tiles);

}  // namespace sadsl::modeling
