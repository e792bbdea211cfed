#pragma once
// Padding of partial tiles, decided per design (issue: "zero-padded data or guarded partial
// tiles, per kernel class"). A first-level factor that does not divide its loop leaves a partial
// last tile. Two ways to run it:
//
//   zero-padded: every band loop runs to ceil(N / t1) * t1; the host pads the inputs with zeros
//     and crops the outputs. Every PE runs full tiles: uniform control and streams, what the
//     hardware of MM-like kernels does. Valid when no padded iteration can change a real output
//     (compute/zero_padding.hpp has the rule, which depends on the design alone) and, where loops
//     share a size param, each may run to its own padded bound or their first-level factors pad
//     it to one size (else guarded at this point).
//   guarded: partial tiles run only their real instances (non-rectangular domains, guards, other
//     statements). Non-rectangular domains always keep their guards. A guarded design has no
//     SIMD factor (compute/simd.hpp): its lanes would need whole vectors.
#include <cstdint>
#include <map>
#include <string>

#include "sadsl/compute/design.hpp"

namespace sadsl {

struct padding_plan {
  bool zero_padded = false;
  /// The param values the design runs with: padded (zero-padded) or the kernel's own.
  std::map<param_id, int64_t> values;
  /// Why the design is guarded ("" when zero-padded).
  std::string why_guarded;
  /// When zero-padded: each band loop's padded bound (ceil(N / t1) x t1). Loops that share a
  /// param may run to less than its value (the largest of their bounds).
  std::map<loop_id, int64_t> loop_bounds;
};

/// The padding of design d at point p, for the kernel's current param values.
padding_plan plan_padding(const design& d, const design_point& p);

}  // namespace sadsl
