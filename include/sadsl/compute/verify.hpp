#pragma once
// Checking a design by execution: the reference interpreter runs the kernel as written and the
// design's concrete schedule on the same random inputs (at the kernel's current param values);
// every output must be equal bit for bit (the passes keep each accumulation in its order).
#include <cstdint>
#include <string>

#include "sadsl/compute/design.hpp"
#include "sadsl/poly/interpreter.hpp"

namespace sadsl {

/// A deterministic point of a design for checks: every first-level factor a non-divisor of its
/// loop's extent where one exists (so partial tiles are exercised), every deeper factor the
/// largest allowed divisor of its parent below it (so every level has more than one iteration
/// where it can).
design_point sample_point(const design& d);

/// The kernel as written, run by the reference interpreter on random inputs (`seed`) at its
/// current param values: what every design of it must compute. Checking many designs, compute
/// it once and pass it to verify_design and verify_architecture.
buffers reference_run(const kernel& k, uint64_t seed = 2026);

/// "" when the design computes what the kernel computes at point p, else what differs (the first
/// output element that differs, with both values).
std::string verify_design(const design& d, const design_point& p, uint64_t seed = 2026);
/// The same against `expected`, reference_run(kernel, seed) of the design's kernel (or of a copy of
/// it: tensors are matched by name).
std::string verify_design(const design& d, const design_point& p, const buffers& expected, uint64_t seed = 2026);

}  // namespace sadsl
