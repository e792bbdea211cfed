#pragma once
#include <isl/cpp.h>

#include <vector>

#include "sadsl/poly/program.hpp"

namespace sadsl {

/// The textual schedule: statements nest in their loops (outermost first); consecutive statements
/// with the same loop at a depth share one band for it; what follows each other at a depth is a
/// sequence. Fills statement_info::bands with the ids of the enclosing bands.
isl::schedule build_schedule_tree(std::vector<statement_info>& statements);

}  // namespace sadsl
