#pragma once
// The outermost permutable band of a kernel's loop nest: the loops that array partitioning may
// tile and permute, and that space-time transformation picks space loops from.
//
// Statements with fewer loops than the band are placed in it at the first (or, when they follow
// the deepest statement, the last) iteration of the loops they lack, so that one band holds the
// whole nest; an implicit initialization (MM's C = 0 over i, j) at its reduction's first instance. The band is the longest prefix of the deepest
// statement's loops on which every flow, anti and output dependence has non-negative distances.
// Legality (paper 002, section 3): every dependence must be uniform over the band.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sadsl/poly/dependences.hpp"
#include "sadsl/poly/program.hpp"

namespace sadsl {

/// A dependence seen in the band: its distances over the band loops.
struct band_dependence {
  dependence dep;
  isl::set deltas;                         // { sink - source } over the band loops
  bool uniform = false;
  std::vector<distance_vector> distances;  // per piece, when uniform
  /// "flow dependence of S1 (C(i, j) += A(i, k) * B(k, j)) on C(i, j) from S0 (C(i, j) = 0.0f)"
  std::string describe(const program& p) const;
};

struct band {
  std::shared_ptr<detail::kernel_state> owner;  // keeps the isl context alive (first member)
  std::shared_ptr<const program> source;        // the program the band was found in
  std::vector<detail::symbol_ptr> loops;        // band loops (the DSL's, with their bounds), outermost first
  std::vector<statement_id> statements;         // the statements in the band, textual order
  isl::union_map embedding;                     // S[x] -> band[point], per statement
  std::map<statement_id, isl::multi_aff> placement;  // per statement: its band point as affs of S[x]
  std::vector<band_dependence> deps;            // every dependence, over the band loops

  std::vector<loop_id> loop_ids() const;
  std::vector<std::string> loop_names() const;
  /// Index of a band loop; sadsl::error if it is not one.
  size_t position(const loop_id& loop) const;
  /// The band loop named `name` (the user-facing edge); sadsl::error if there is none.
  loop_id loop(const std::string& name) const;
  /// The loop's extent, hi - lo (affine in params, and in outer loops for triangular nests).
  affine extent(const loop_id& loop) const;
};

/// The outermost permutable band of the kernel's loop nest. sadsl::error when the kernel has
/// several outermost nests, or when a dependence is not uniform over the band (naming it).
band outermost_band(const program& p);

}  // namespace sadsl
