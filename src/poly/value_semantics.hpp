#pragma once
// The C value semantics of the reference interpreter, shared by every evaluator of statement
// values: float arithmetic in float, double in double, integer types promoted (int64 here,
// wrapping; uint32 stays modulo 2^32) and truncated only when stored or cast.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include <fmt/format.h>

#include "sadsl/error.hpp"

namespace sadsl::value_semantics {

/// The type a value of element type T is computed in (C's integer promotion, made wrap-safe).
template <class T>
using compute_t = std::conditional_t<std::is_floating_point_v<T>, T,
                                     std::conditional_t<std::is_same_v<T, uint32_t>, uint32_t, int64_t>>;

/// Float to integer conversion is undefined in C outside the target's range; here it saturates
/// to int64 first (NaN gives 0) and then wraps like an integer conversion.
template <class To, class From>
To convert(From v) {
  if constexpr (std::is_floating_point_v<From> && !std::is_floating_point_v<To>) {
    if (std::isnan(v)) return 0;
    if (v >= 9.2e18) return static_cast<To>(std::numeric_limits<int64_t>::max());
    if (v <= -9.2e18) return static_cast<To>(std::numeric_limits<int64_t>::min());
    return static_cast<To>(static_cast<int64_t>(v));
  } else {
    return static_cast<To>(v);
  }
}

/// a + b, a - b or a * b, wrapping for int64.
template <class P>
P arithmetic(P a, P b, char op) {
  if constexpr (std::is_same_v<P, int64_t>) {
    auto x = static_cast<uint64_t>(a), y = static_cast<uint64_t>(b);
    return static_cast<int64_t>(op == '+' ? x + y : op == '-' ? x - y : x * y);
  } else {
    return static_cast<P>(op == '+' ? a + b : op == '-' ? a - b : a * b);
  }
}

/// a / b; an integer division by zero is the user's error.
template <class P>
P divide(P a, P b, const std::string& statement) {
  if constexpr (!std::is_floating_point_v<P>) {
    if (b == 0) throw error(fmt::format("integer division by zero in statement {}", statement));
    if constexpr (std::is_signed_v<P>)
      if (b == -1) return arithmetic<P>(0, a, '-');
  }
  return a / b;
}

}  // namespace sadsl::value_semantics
