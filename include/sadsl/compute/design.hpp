#pragma once
// A systolic-array design: the band of the kernel, its space loops (the dataflow), the order of
// its tile loops (the permutation), and the symbolic tiling factors with their relations. Passes
// (space_time, array_partition, latency_hiding, simd) each take a design and return a new one.
// Binding the factors to numbers gives a concrete schedule (compute/concrete.hpp).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sadsl/compute/band.hpp"

namespace sadsl {

enum class factor_kind { array_partition, latency_hiding, simd };

/// A symbolic tiling factor, e.g. i_t1 (array partitioning of loop i) with 1 <= i_t1 <= I.
struct tiling_factor {
  std::string name;         // "i_t1"
  std::string loop;         // "i"
  factor_kind kind;
  std::string upper;        // upper bound: the loop's extent ("I") or the parent factor ("i_t1")
  std::string divides;      // "" or the factor it must divide ("i_t1")
  bool power_of_two = false;
  int64_t max_value = 0;    // an extra upper bound when > 0 (SIMD lanes: 8, as Odyssey)
  std::string str() const;  // "i_t2: 1 <= i_t2 <= i_t1, i_t2 | i_t1"
};

/// A tensor whose host layout is permuted so that an access becomes stride-1 (SIMD).
struct layout_transform {
  std::string tensor;
  std::vector<int> order;   // new dimension d is old dimension order[d]
  std::string str() const;  // "B(k, j) -> B_T(j, k)"
};

struct design {
  std::shared_ptr<const sadsl::band> band;
  std::vector<std::string> space;         // space loops, band order ("[i,j]")
  std::vector<std::string> tile_order;    // tile loops outermost first; empty before array_partition
  size_t tile_inner = 0;                  // how many of them (the last) carry the reuse kept innermost
  std::vector<std::string> latency;       // loops strip-mined by t2 and sunk innermost
  std::string simd;                       // the SIMD loop, or ""
  std::vector<layout_transform> layouts;
  std::vector<tiling_factor> factors;

  /// The dataflow's name, its identity everywhere: "[i,j]".
  std::string dataflow() const;
  /// "<[i,j],k>": the tile loops outside (as a set) and those that carry reuse innermost.
  std::string permutation() const;
  std::string name() const { return dataflow() + " " + permutation(); }
  const tiling_factor* factor(const std::string& name) const;
  /// Every choice and factor with its relations, one per line (golden-tested).
  std::string str() const;
};

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
