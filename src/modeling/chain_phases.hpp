#pragma once
// The latency of a design whose PEs form one chain (a one-dimensional array) and whose every tile
// is a phase of its own (LU's [k], [j] and [i] designs: their flows cross tiles along every loop),
// as a model expression: the sum over the tiles of one tile's phase, composed from the tile's
// counts (docs/modeling.md, "LU"). Per tile, with `in` the busiest input port's words (its
// values, tile_traffic_of, in words of its network's packing), W_p PE p's units (its band points
// in the tile) and s = in + 2: PE p starts a hop after PE p - 1 and cannot end before it, so it
// ends at e_p = s + p + max over q <= p of W_q; an output chain drains its PEs' words in chain
// order, each PE's once it has ended, so output o ends at the latest over the PEs p that send on
// it of e_p + 2 + (o's words from PE p on), plus p where o drains through a module per PE (each
// sends its PE's words once the PE has ended, then forwards those behind it: PE p's words pass p
// modules). The phase ends at the latest of s and the outputs' ends; a
// tile with no band point is not a phase. The 2s are the FIFO hops of a network with one I/O
// level at a FIFO latency of 1 (the timed simulation's defaults, which the models assume).
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "sadsl/comm/architecture.hpp"
#include "sadsl/model/expr.hpp"

namespace sadsl::modeling {

/// How PE q's units (its band points in a tile: `points`, the band points of the tile box whose
/// origin along chain dim c is the parameter `origin`) vary along the chain, for every tile and
/// problem size: `falling` where each point has one at every lower PE of its tile (W_0 is the
/// most of the PEs up to any p: LU's [k]), `rising` where each has one at every higher PE up to
/// the tile's last PE with a point (W_p is: [j], [i]), else `unknown` (isl decides both).
enum class units_trend { rising, falling, unknown };
units_trend trend_along_chain(const isl::set& points, std::size_t c, const std::string& origin);

/// The latency of architecture a's design (one space loop, along which a PE runs one value: no
/// latency-hiding or SIMD factor there; every tile a phase of its own) at the point whose kernel
/// params are `sizes` (kernel::params() order) and whose band loops are tiled by `t1` into
/// `tiles` (band order), the origin of tile T_x at t1[x] x T_x. `elements_per_word(tensor, input)`
/// gives the packing of the tensor's DRAM network in that direction. Sum and maximum indices
/// are numbered from next_index (advanced past them). sadsl::error for a design it does not
/// describe.
model::expr chain_phases_latency(const architecture& a, const std::vector<model::expr>& sizes,
                                 const std::vector<model::expr>& t1, const std::vector<model::expr>& tiles,
                                 const std::function<model::expr(const tensor_id&, bool input)>& elements_per_word,
                                 std::size_t& next_index);

}  // namespace sadsl::modeling
