#pragma once
// Statement values as C expressions with the reference interpreter's semantics
// (poly/value_semantics.hpp): float in float, double in double, integers promoted to int64_t
// (uint32_t stays uint32_t), truncated only where stored or cast.
#include <functional>
#include <string>

#include "sadsl/dsl/expr.hpp"

namespace sadsl::codegen_detail {

/// The C type a value of element type t is computed in.
std::string compute_type(elem_type t);
/// The C spelling of an element type (float, double, int8_t, ...).
std::string c_type(elem_type t);

/// How the n-th read of a value (in the evaluator's pre-order numbering) is spelled.
using read_text = std::function<std::string(const expr_node& read, int n)>;

/// The stored value of a statement: `(lhs type)(value computed in its compute type)`.
std::string c_value(const expr_node& value, elem_type stored, const read_text& reads);

}  // namespace sadsl::codegen_detail
