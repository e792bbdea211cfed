#pragma once
// A systolic-array design: the band of the kernel, its space loops (the dataflow), the order of
// its tile loops (the permutation), and the symbolic tiling factors with their relations. Passes
// (space_time, array_partition, latency_hiding, simd) each take a design and return a new one.
// Binding the factors to numbers (a design_point) gives a concrete schedule (compute/concrete.hpp).
//
// Everything refers to the kernel's objects by identity (loop_id, tensor_id, factor_id); names
// are printed from them (`factor_name`), never parsed, except at the user-facing edge where
// `point_by_name` accepts {{"i_t1", 12}, ...}.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sadsl/compute/band.hpp"
#include "sadsl/core/identity.hpp"

namespace sadsl {

/// A symbolic tiling factor and its relations. A first-level factor (array partitioning) ranges
/// over 1 <= f <= the loop's extent (any value: a non-divisor pads); a deeper one divides its
/// parent (the loop's previous factor) and is at most it.
struct tiling_factor {
  factor_id id;
  std::optional<factor_id> parent;  // the factor it divides; none for array partitioning
  bool power_of_two = false;
  int64_t max_value = 0;            // an extra upper bound when > 0 (SIMD lanes: 8, as Odyssey)
};

/// A tensor whose host layout is permuted so that an access becomes stride-1 (SIMD).
struct layout_transform {
  tensor_id tensor;
  std::vector<int> order;   // new dimension d is old dimension order[d]
  std::string str() const;  // "B(d0, d1) -> B_T(d1, d0)"
};

/// Values of a design's tiling factors.
using design_point = std::map<factor_id, int64_t>;
/// Values by factor name ("i_t1"), as a user writes them.
using factor_values = std::map<std::string, int64_t>;

struct design {
  std::shared_ptr<const sadsl::band> band;
  std::vector<loop_id> space;         // space loops, band order ("[i,j]")
  std::vector<loop_id> tile_order;    // tile loops outermost first; empty before array_partition
  size_t tile_inner = 0;              // how many of them (the last) carry the reuse kept innermost
  std::vector<loop_id> latency;       // loops strip-mined by t2 and sunk innermost, band order
  std::optional<loop_id> simd;        // the SIMD loop
  std::vector<layout_transform> layouts;
  std::vector<tiling_factor> factors;  // space loops' first, as Odyssey lists them

  /// The dataflow's name: "[i,j]".
  std::string dataflow() const;
  /// "<[i,j],k>": the tile loops outside (as a set) and those that carry reuse innermost.
  std::string permutation() const;
  /// "[i,j] <[i,j],k>": the design's name, printed from its space loops and tile order.
  std::string name() const { return dataflow() + " " + permutation(); }

  /// The factor f, or nullptr when the design has none.
  const tiling_factor* factor(const factor_id& f) const;
  /// The factor named `name` ("i_t1"), or nullptr.
  const tiling_factor* factor(const std::string& name) const;
  /// Factor f's name: `factor_name(loop, position in the loop's chain)` ("k_t2" for MM's SIMD).
  std::string name_of(const factor_id& f) const;
  /// The factors of loop l, outermost level first.
  std::vector<factor_id> chain(const loop_id& l) const;
  /// "i_t2: 1 <= i_t2 <= i_t1, i_t2 | i_t1".
  std::string str(const tiling_factor& f) const;
  /// Every choice and factor with its relations, one per line (golden-tested).
  std::string str() const;
};

/// A design point from values by factor name; sadsl::error for a name the design does not have.
design_point point_by_name(const design& d, const factor_values& values);

/// A pass result: a design, or why the transformation is illegal for it.
class design_or_reason {
public:
  design_or_reason(design d) : design_(std::move(d)) {}  // NOLINT
  static design_or_reason illegal(std::string why) {
    design_or_reason r;
    r.why_ = std::move(why);
    return r;
  }
  explicit operator bool() const { return design_.has_value(); }
  const std::string& why() const { return why_; }
  /// The design; sadsl::error with the reason when the pass was illegal.
  const design& value() const;

private:
  design_or_reason() = default;
  std::optional<design> design_;
  std::string why_;
};

}  // namespace sadsl
