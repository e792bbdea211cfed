#pragma once
// Where the band places an implicit initialization (C = 0 before C += ...): at the first instance
// of its reduction, so that the initialization's flow dependence to the reduction is uniform
// (distance 0) whatever bounds or guards the reduction loops have (k = 0 in MM, k = i in a TRMM
// guarded by k >= i).
#include <isl/cpp.h>

#include <optional>
#include <vector>

#include "sadsl/poly/program.hpp"

namespace sadsl::detail {

/// The reduction statement that `init` (an implicit initialization) initializes, or nullptr.
const statement_info* reduction_of(const program& p, const statement_info& init);

/// The values of the reduction's loops at positions [init.loops.size(), depth) at its first
/// instance (the lexicographic minimum over them, per instance of init), as affs on init's
/// domain. nullopt when that minimum is piecewise (a guard k >= max(i, j)) or init's loops are
/// not the reduction's outer loops.
std::optional<std::vector<isl::aff>> first_reduction_instance(const statement_info& init,
                                                              const statement_info& reduction, size_t depth);

}  // namespace sadsl::detail
