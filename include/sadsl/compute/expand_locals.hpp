#pragma once
// Expansion of local tensors (privatization): a local tensor written under loops its index does
// not use (U_tmp(i, j) under k in the uniformized LU) gets one element per iteration of those
// loops: U_tmp(k, i, j). Its anti and output dependences vanish (in a systolic array each PE keeps
// its own registers and FIFOs), so the permutable band can grow. A read takes its source's element:
// the expansion loop's index minus the flow distance on it, which must be one constant for the
// read (U_tmp(i, j - 1) reads U_tmp(k, i, j - 1); V(i, j) at k reads V(k - 1, i, j)). Tensors
// that do not qualify (accumulated with op=, several distances, bounds that depend on loops)
// stay as they are.
#include "sadsl/poly/program.hpp"

namespace sadsl {

/// The program with its local tensors expanded where possible (the same program otherwise).
program expand_local_tensors(const program& p);

}  // namespace sadsl
