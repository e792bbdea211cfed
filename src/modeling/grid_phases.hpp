#pragma once
// The latency of a design whose PEs form a two-dimensional grid and whose every tile is a phase
// of its own (LU's [k,j], [k,i] and [j,i] designs), as a model expression: the sum over the
// tiles of one tile's phase, composed from the tile's counts (docs/modeling.md, "Triangular
// designs"). It extends the chain's composition (chain_phases.hpp) to a grid:
//
//   - A PE (a, b) can start once its inputs are in. An input that enters through a module per
//     PE (an interior network: its L1 modules chained along grid dim c0, their L2 modules along
//     c1) streams: module (a, b) feeds its PE once the words of every PE whose c1 coordinate is
//     at most b's have passed, so its PE starts HIN cycles after those words left DRAM, plus a
//     hop a module. One that enters beside the grid (an exterior network, double-buffered at
//     L2) is a barrier: HIN cycles after its last word.
//   - The PEs' dependences are uniform (a value passes to the next PE along each grid dim, and
//     from one iteration to the next in a PE), so PE (a, b) follows the PE up to it with the most
//     units (W* of them: at index 0 along a dim where W falls, at its own index where it rises,
//     decided by isl; else a maximum over the dim): its n-th unit ends by
//     S + a + b + W* - W + n - 1, S the latest start of the PEs up to it less their hops and W
//     its own units. And, since a PE runs at most a FIFO's depth D of units ahead of the next
//     (the values it passes on wait for it to start), the leading PE's m-th unit (m = W* - W + n)
//     waits for the start of the PE floor((m - 1) / D) further along the dim an interior input
//     streams along: where an input streams slowly, a row of PEs ends almost together and the
//     PEs below it start as late as the row's units they follow. Its end e(a, b) is its W-th.
//   - An output drains its PEs' words in its chain order (interior: by c1, then c0; exterior:
//     along the grid dim beside which it leaves), each PE's once the PE has ended (words it writes
//     in its first units: once it has run them) and its words have passed the modules before it
//     (a + b, or the coordinate along the chain): it ends at the latest, over the PEs that send
//     on it, of that cycle + HOUT + passage + its words from that PE on.
//
// HIN = 3 and HOUT = 4 are the hops of LU's grid networks (interior ones at levels L1..L3,
// exterior ones at L2..L3) at a FIFO latency of 1 (the timed simulation's defaults, which the
// models assume), measured on its traces. A tile with no band point is not a phase.
#include <cstddef>
#include <functional>
#include <vector>

#include "sadsl/comm/architecture.hpp"
#include "sadsl/model/expr.hpp"

namespace sadsl::modeling {

/// The latency of architecture a's design (two space loops, each running one value a PE: no
/// latency-hiding or SIMD factor there; every tile a phase of its own) at the point whose kernel
/// params are `sizes` and whose band loops are tiled by `t1` into `tiles` (as
/// chain_phases_latency). sadsl::error for a design it does not describe.
model::expr grid_phases_latency(const architecture& a, const std::vector<model::expr>& sizes,
                                const std::vector<model::expr>& t1, const std::vector<model::expr>& tiles,
                                const std::function<model::expr(const tensor_id&, bool input)>& elements_per_word,
                                std::size_t& next_index);

}  // namespace sadsl::modeling
