#pragma once
// Latency hiding (paper 002 section 5.3): strip-mine every parallel band loop (no flow, anti or
// output dependence carried) by a second-level factor x_t2 that divides x_t1, and sink the point
// loops innermost, so that consecutive iterations of the PE's pipeline are independent and the
// reduction's loop-carried dependence no longer limits the initiation interval.
#include "sadsl/compute/design.hpp"

namespace sadsl {

/// The band loops that carry no flow, anti or output dependence.
std::vector<loop_id> parallel_loops(const design& d);

/// Adds x_t2 for every parallel loop; illegal before array partitioning or when none is parallel.
design_or_reason latency_hiding(const design& d);

}  // namespace sadsl
