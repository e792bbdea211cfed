#pragma once
// Shared by the concrete resource count and the model builder.
#include <cstdint>

#include "sadsl/poly/program.hpp"

namespace sadsl {

/// Bits of one element.
int bits_of(elem_type t);
/// DSPs of one instance of statement s (one SIMD lane).
int64_t statement_dsp(const statement_info& s);
/// Flip-flops of the operators of one instance of statement s (one SIMD lane).
int64_t statement_ff(const statement_info& s);

}  // namespace sadsl
