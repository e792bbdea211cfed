#pragma once
// A statement's value from the values of its reads, with the reference interpreter's C semantics
// (float in float, double in double, integers promoted to int64 and wrapping, uint32 modulo 2^32,
// truncated only when stored or cast). Values travel as raw bit patterns of their element type
// (element_bits), which is how the architecture executor moves them through FIFOs and buffers.
#include <cstdint>
#include <memory>

#include "sadsl/dsl/kernel.hpp"

namespace sadsl {

/// The bit pattern of a value of element type t (zero-extended to 64 bits).
template <element T>
uint64_t element_bits(T v);
/// The value of type T a bit pattern holds.
template <element T>
T element_value(uint64_t bits);

class statement_evaluator {
public:
  /// Compiles the value of statement s (statement_record::value(): its reads in the order of
  /// statement_info::reads).
  explicit statement_evaluator(const statement_record& s);
  ~statement_evaluator();
  statement_evaluator(statement_evaluator&&) noexcept;
  statement_evaluator& operator=(statement_evaluator&&) noexcept;

  /// The stored value (bits of the written tensor's type) from the reads' bits.
  uint64_t operator()(const uint64_t* reads) const;

private:
  struct compiled;
  std::unique_ptr<compiled> c_;
};

template <element T>
uint64_t element_bits(T v) {
  if constexpr (std::is_same_v<T, float>) {
    uint32_t u;
    __builtin_memcpy(&u, &v, sizeof u);
    return u;
  } else if constexpr (std::is_same_v<T, double>) {
    uint64_t u;
    __builtin_memcpy(&u, &v, sizeof u);
    return u;
  } else {
    return static_cast<uint64_t>(static_cast<std::make_unsigned_t<T>>(v));
  }
}

template <element T>
T element_value(uint64_t bits) {
  if constexpr (std::is_same_v<T, float>) {
    auto u = static_cast<uint32_t>(bits);
    float f;
    __builtin_memcpy(&f, &u, sizeof f);
    return f;
  } else if constexpr (std::is_same_v<T, double>) {
    double f;
    __builtin_memcpy(&f, &bits, sizeof f);
    return f;
  } else {
    return static_cast<T>(static_cast<std::make_unsigned_t<T>>(bits));
  }
}

}  // namespace sadsl
