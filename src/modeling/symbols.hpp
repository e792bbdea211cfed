#pragma once
// The symbols of a design's performance model: one model parameter per problem size and tiling
// factor (with its origin and relations), and the expressions every count is made of — tiles per
// loop, PEs per space loop, the extents of a PE's tile-local frame, the box of elements an access
// touches at one PE in one tile, and the packing factor of a chunk.
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "sadsl/compute/design.hpp"
#include "sadsl/model/design_model.hpp"
#include "sadsl/poly/program.hpp"

namespace sadsl::modeling {

using model::expr;

/// The expressions of one band loop.
struct loop_terms {
  expr extent;         // the problem's extent (hi - lo)
  expr t1;             // array-partitioning factor
  expr tiles;          // ceil(extent / t1): a non-divisor pads
  expr w = 1;          // values per PE step: t2 (latency), the SIMD factor (SIMD only), else 1
  expr latency = 1;    // the latency frame dim: t2 / (SIMD factor when also the SIMD loop)
  expr time;           // a time loop's frame dim: t1 / w
  bool space = false;
};

class symbols {
public:
  /// Declares the model's parameters in m: every kernel param, then the design's factors.
  symbols(const design& d, model::design_model& m);

  const loop_terms& loop(const loop_id& l) const { return loops_.at(l); }
  expr simd() const { return simd_; }
  /// PEs along space dim i, and in all.
  expr grid(size_t i) const;
  expr pe_count() const;
  /// The extent of dim i of the PE's tile-local frame (time loops, loops below the band, latency
  /// loops, lane).
  expr frame_extent(size_t i) const;
  size_t frame_dims() const { return frame_.size(); }
  /// Per dim of the PE's frame: whether access a's index depends on the loop it iterates.
  std::vector<bool> frame_dims_indexing(const access_ref& a) const;
  /// The extent along each stored dim of the box of elements that `accesses` (of one tensor)
  /// touch at one PE in one tile; nullopt when the accesses disagree.
  std::vector<expr> box(const std::vector<access_ref>& accesses) const;
  /// The offsets a chunk of `accesses` whose box ends in `last` may start at along the stored last
  /// dimension, and `last` itself: its packing factor is the largest power of two (at most 512
  /// bits) that divides every one of them.
  std::vector<expr> pack_offsets(const std::vector<access_ref>& accesses, const expr& last) const;
  /// That packing factor of `offsets` (model::pow2_divisor of each, the least), and its inverse
  /// 1 / pack (exact: the packing is a power of two).
  static std::pair<expr, expr> pack_and_inverse(const std::vector<expr>& offsets, int element_bits);
  /// The value of an affine expression of kernel params (sadsl::error for loop terms).
  expr of_params(const affine& a, const std::string& what) const;
  /// Whether some band loop's bounds depend on an outer loop (LU's j and i from k): its extent is
  /// then that of the band's bounding box along it.
  bool triangular() const { return triangular_; }
  /// 1 where every time loop's tiles are aligned with those of the loops its bounds depend on
  /// (each such loop's factor divides the other's: LU's j_t1 and i_t1 divide k_t1), else 0. At
  /// the factors that divide the sizes a bound `x >= k` then never cuts a tile of x at a tile
  /// origin of k, so the values crossing a tile boundary of k fill whole tiles of x. So do they
  /// where x has one tile and k two (one chunk past k's first tile: x from k_t1 to N); with
  /// three or more the chunks narrow from tile to tile. (A space loop's PE holds one value of
  /// it, which no bound cuts.)
  expr tiles_aligned() const;
  /// The band positions of the loops some band loop's bounds depend on (LU's k).
  std::vector<size_t> bounding_loops() const;

private:
  // An affine expression of kernel params: its constant and each param's coefficient (by key).
  struct param_affine {
    int64_t constant = 0;
    std::map<uint64_t, int64_t> terms;
  };
  // The least (or, `upper`, the largest) value of a over the band: each band loop in it at the
  // end of its own range that minimizes (maximizes) the term, recursively. The band's bounding
  // box along a loop, exact where a loop's bounds depend on outer loops one at a time (LU).
  param_affine extreme(const affine& a, bool upper) const;
  // A band loop's extent over the bounding box: hi - lo, or for a triangular loop the largest hi
  // less the least lo.
  param_affine box_extent(const loop_id& l) const;
  expr of_params(const param_affine& a) const;
  // The access index along stored dim `dim`.
  affine stored_index(const access_ref& a, size_t dim) const;
  const loop_terms* band_loop(uint64_t key) const;
  const expr* inner_loop(uint64_t key) const;
  void add_frame_dim(const expr& extent, std::optional<uint64_t> loop);
  // The model parameter of problem size `param` whose split_by chain tiles `loop`: the kernel
  // param's own, or a new one when another loop shares the param.
  size_t size_of_loop(model::design_model& m, uint64_t param, const loop_id& loop);

  const design& d_;
  const program& prog_;
  std::map<uint64_t, size_t> param_index_;  // kernel param key -> model parameter
  std::map<loop_id, expr> loop_extent_;     // a band loop over [0, P): its size parameter
  std::map<loop_id, loop_terms> loops_;
  std::vector<std::pair<uint64_t, expr>> inner_;  // loops below the band: key, extent
  std::vector<expr> frame_;
  std::vector<std::optional<uint64_t>> frame_loop_;  // per frame dim: the loop it iterates (its key)
  expr simd_ = 1;
  bool triangular_ = false;
};

}  // namespace sadsl::modeling
