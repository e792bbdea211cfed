#pragma once
// The values a tile of a band moves from and to DRAM, as parametric isl sets: what a model of a
// guarded design counts per tile (point_count.hpp), where a tile's words depend on where it
// stands (a triangular nest's diagonal tiles move fewer). Derived from the band's dependences as
// routing (comm/routing.cpp) sends them: a value crosses a tile's boundary through DRAM when
// its source and its sink run in different tiles, a kernel input's element is read from DRAM by
// every tile that reads it, a kernel output's final value is written by the tile that computes
// it. Each value moves once per tile, whatever the number of its sinks there. That is how an
// architecture moves values when every tile is a phase of its own (LU's designs: their flow
// dependences cross tiles along every loop); where tiles share a phase, a PE may keep a value
// across them (routing's persisting buffers: MM's C along k), which these sets do not know.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include <isl/cpp.h>

#include "sadsl/comm/architecture.hpp"
#include "sadsl/compute/band.hpp"
#include "sadsl/dsl/kernel.hpp"
#include "sadsl/model/expr.hpp"

namespace sadsl::modeling {

/// The values of one tensor a tile moves in one direction. `values` is a union of sets, one space
/// per kind of value: a statement's instances (the writes whose values move), or the tensor's
/// elements (a kernel input's, or an inout's initial values). Its parameters: the kernel's, then
/// each band loop's tile origin, then each band loop's tile extent (tile_param_names order).
struct tile_traffic {
  tensor_id tensor;
  bool input = true;  // DRAM into the tile, else the tile out to DRAM
  isl::union_set values;
  /// Inputs: the instances in the tile that read the values moved in (statement instances, with
  /// the values' parameters): where each value enters, the PE that reads it.
  isl::union_set readers;
};

/// The origin and extent parameters of a tile, in band loop order: o_<loop>... then t_<loop>...
/// (a tile is { o <= x < o + t } per band loop x).
std::vector<std::string> tile_param_names(const band& b);

/// The tile of a band, { band[x] : o <= x < o + t, t >= 1 } per band loop x, its params the
/// kernel's then tile_param_names(b).
isl::set tile_box(const band& b);
/// The points of the band: its statements' instances placed in it (the kernel's params).
isl::set band_points(const band& b);

/// Every tensor's traffic into and out of a tile of a's band (a tensor that moves nothing has
/// none): per flow dependence, then per statement its reads of DRAM and its final writes.
/// sadsl::error when some of a's tiles share a phase (a tile loop of two or more tiles that is
/// not one of a's phase loops).
std::vector<tile_traffic> tile_traffic_of(const architecture& a);

/// Whether some tile whose origin along band loop `x` is past 0 moves values of t (LU's A: no,
/// only the tiles of k's first tile read it; V: yes, from one tile of k to the next).
bool moves_past_first_tile(const band& b, const tile_traffic& t, std::size_t x);

/// What the parameters of a tile's sets stand for in a model: each kernel param its expression in
/// `sizes` (kernel::params() order), each band loop x's tile extent t1[x] and its origin t1[x] x
/// T_x, T_x the index `index[x]` (numbered from next_index, advanced past them) of the sum over
/// the loop's tiles the caller writes.
struct tile_binding {
  std::map<std::string, model::expr> values;  // by parameter name
  std::vector<model::expr> index;             // T_x per band loop
};
tile_binding bind_tiles(const band& b, const std::vector<model::expr>& sizes, const std::vector<model::expr>& t1,
                        std::size_t& next_index);
/// The lowest tile of band loop x that can hold a point, given the tiles `bound.index` of the
/// loops before it: the least value of x's lower bound over those tiles (a loop of positive
/// coefficient at its tile's first value t1 x T, of negative at its last), over t1[x], floored, at
/// least 0; 0 where the bound is not affine or depends on a loop after x. A sum over x's tiles may
/// start there: the tiles below hold no point (LU's tiles of j below k's first value).
model::expr first_tile(const band& b, std::size_t x, const tile_binding& bound, const std::vector<model::expr>& t1);
/// How a point's coordinate stands to its PE's in a tile: x - o - pe == 0, >= 0, >= 1 or <= 0.
enum class pe_relation { equal, at_or_after, after, at_or_before };
/// The points of s whose coordinate x stands to the tile's origin parameter `origin` plus the PE
/// index as `r` says: s with that index as the parameter `pe` (added where s has none yet).
isl::set relative_to_pe(const isl::set& s, std::size_t x, const std::string& origin, const std::string& pe, pe_relation r);
/// Whether, at every value of their parameters, `part` (a subset of `whole`, in its space) is a
/// lexicographic prefix of `whole`: every point of whole before a point of part is in part (LU's
/// U, written in a PE's first j row, is one of the PE's points in its order of execution).
bool lexicographic_prefix(const isl::set& part, const isl::set& whole);
/// The points of s (of each space of a union) counted (point_count), each parameter bound to the
/// expression `values` has for its name.
model::expr count_bound(const isl::set& s, const std::map<std::string, model::expr>& values, std::size_t& next_index);
model::expr count_bound(const isl::union_set& s, const std::map<std::string, model::expr>& values, std::size_t& next_index);

/// The values of `t` moved in a whole run, as a model expression: the sum over the tile space of
/// the values each tile moves (point_count.hpp). Band loop x is tiled by `t1[x]` into `tiles[x]`
/// tiles, tile T_x at origin t1[x] x T_x (the tiles of a loop start at 0, which every band loop
/// of b must: sadsl::error otherwise); `sizes` gives the expression of each kernel param (in
/// kernel::params() order). Exact wherever the tiles cover the band: partial and empty tiles
/// count the values they hold. Sum indices are numbered from next_index (advanced past them).
model::expr traffic_over_tiles(const band& b, const tile_traffic& t, const std::vector<model::expr>& sizes,
                               const std::vector<model::expr>& t1, const std::vector<model::expr>& tiles,
                               std::size_t& next_index);

}  // namespace sadsl::modeling
