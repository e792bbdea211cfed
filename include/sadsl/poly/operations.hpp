#pragma once
// How much arithmetic a kernel does: the operations of each statement instance (+ - * / min max
// and unary minus in its value; an op= counts its own operation, casts and plain copies count
// nothing) times the number of instances, at the current param values. This is the numerator of
// a design's throughput (GFLOP/s or GOP/s), whatever the kernel: 2 per iteration for MM and CNN,
// 3 for MTTKRP's two products and sum, ...
#include <cstdint>

#include "sadsl/poly/program.hpp"

namespace sadsl {

struct operation_count {
  double operations = 0;        ///< total arithmetic operations
  double instances = 0;         ///< total statement instances
  bool floating_point = false;  ///< some counted operation works on float or double
};

/// Arithmetic operations of one instance of statement s.
int64_t operations_per_instance(const statement_info& s);

/// The operations of the whole kernel at the current param values. Rectangular domains are
/// counted as the product of their extents; others with isl (slower: it enumerates all but the
/// innermost dimension).
operation_count count_operations(const program& p);

}  // namespace sadsl
