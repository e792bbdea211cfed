#pragma once
// A triangular design's buffer extents where a band loop has one tile. The template (every loop
// in three or more tiles) shows a chunk's extent along a loop where some tile holds the whole of
// it; with one tile along a loop, every tile meets the triangle along it, and the chunk is
// narrower: LU's L_tmp spans j = 1 .. N - 1 (j > k), V in the k tiles past the first j >= k_t1
// (N - k_t1 values), L along i at one tile of i and of k i = 0 .. N - 2 (i == k < j). Those
// extents are read off a template of their own per set of loops, where those loops have one
// tile and the others two or more of distinct factors, as the candidate the template's extent
// equals (docs/modeling.md, "Triangular designs").
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sadsl/comm/architecture.hpp"
#include "sadsl/compute/design.hpp"
#include "sadsl/model/design_model.hpp"
#include "symbols.hpp"

namespace sadsl::modeling {

/// Design d's architecture where the band loops `loops` have one tile and the others two or more.
struct one_tile_template {
  std::vector<loop_id> loops;
  architecture arch;
  std::vector<double> values;  // the model's parameters there (model_point)
};

/// One per non-empty set of d's band loops, at the kernel's current sizes (the template's):
/// `base` with those loops' factors their extents and the other loops' 8, 4, 8, ... (distinct,
/// so that the candidates of one_tile_extent differ). sadsl::error for a design tiled twice.
std::vector<one_tile_template> one_tile_templates(const design& d, const architecture_point& base,
                                                  const model::design_model& m, const symbols& s);

/// The extent of a buffer dim at every point the model covers: `multi` (exact where every loop
/// has two or more tiles) and, where the loops of a set S have one tile and the others two or
/// more, the candidate (multi; span; span - 1; span - t1_X + c for a loop X outside S, c in 0,
/// -1, 1; the factors of S's loops written as their extents) that S's template shows (`at`: the
/// extent there, none where the buffer is not built), as a sum over the extents of [the sets
/// where it holds] x the extent. `span` is the dim's extent in a tile before the triangle cuts
/// it (symbols::box). sadsl::error naming `what` where no candidate fits.
model::expr one_tile_extent(const symbols& s, const std::vector<one_tile_template>& templates, const model::expr& multi,
                            const model::expr& span,
                            const std::function<std::optional<int64_t>(const architecture&)>& at, const std::string& what);

/// Extent `dim` of the buffer of a's network of net's tensor, direction and kind (its buffered
/// modules'), or of a's PE buffer of `tensor`: none where a has no such buffer.
std::optional<int64_t> network_extent(const architecture& a, const io_network& net, std::size_t dim);
std::optional<int64_t> pe_extent(const architecture& a, const tensor_id& tensor, std::size_t dim);

}  // namespace sadsl::modeling
